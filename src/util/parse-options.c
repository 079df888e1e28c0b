// SPDX-License-Identifier: GPL-2.0
/*
 * The option table of a command: parsing, usage text and completion data
 * from one description of each option.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/parse-options.h"
#include "util/similar.h"

/*
 * The options column of the usage text is at least USAGE_MIN_WIDTH wide; an
 * option longer than USAGE_MAX_WIDTH has its help on the next line.
 */
#define USAGE_MIN_WIDTH 21
#define USAGE_MAX_WIDTH 24

static int visible(const struct bp_option *o)
{
	return !(o->flags & BP_OPT_HIDDEN);
}

/* "-f, --format FMT", "    --tree", "-n N": the left column of one option. */
static int option_label(char *buf, size_t size, const struct bp_option *o)
{
	int n;

	if (o->short_name && o->long_name)
		n = snprintf(buf, size, "-%c, --%s", o->short_name, o->long_name);
	else if (o->short_name)
		n = snprintf(buf, size, "-%c", o->short_name);
	else
		n = snprintf(buf, size, "    --%s", o->long_name);
	if (o->argh && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " %s", o->argh);
	return n;
}

void bp_print_usage(FILE *out, const struct bp_option *options, const struct bp_usage *usage)
{
	const struct bp_option *o;
	const char *const *line;
	char label[128];
	int width = USAGE_MIN_WIDTH;

	for (line = usage->synopsis; line && *line; line++)
		fprintf(out, "%s%s\n", line == usage->synopsis ? "usage: " : "       ", *line);
	if (usage->description)
		fprintf(out, "\n%s", usage->description);
	for (o = options; o->type != BP_OPT_END; o++) {
		int n = option_label(label, sizeof(label), o);

		if (visible(o) && n + 2 > width && n + 2 <= USAGE_MAX_WIDTH)
			width = n + 2;
	}
	if (options->type != BP_OPT_END)
		fputc('\n', out);
	for (o = options; o->type != BP_OPT_END; o++) {
		const char *help = o->help ? o->help : "", *nl;

		if (!visible(o))
			continue;
		if (option_label(label, sizeof(label), o) + 2 > width)
			fprintf(out, "  %s\n  %-*s", label, width, "");
		else
			fprintf(out, "  %-*s", width, label);
		/* Continuation lines of the help line up under its first. */
		for (; (nl = strchr(help, '\n')); help = nl + 1)
			fprintf(out, "%.*s\n  %-*s", (int)(nl - help), help, width, "");
		fprintf(out, "%s\n", help);
	}
	fprintf(out, "  %-*s%s\n", width, "-h, --help", "this text");
	if (usage->footer)
		fprintf(out, "\n%s", usage->footer);
}

static void print_completion(const struct bp_option *options, const struct bp_usage *usage)
{
	const struct bp_option *o;

	for (o = options; o->type != BP_OPT_END; o++) {
		if (!visible(o))
			continue;
		printf("opt\t");
		if (o->short_name)
			printf("-%c", o->short_name);
		printf("\t");
		if (o->long_name)
			printf("--%s", o->long_name);
		printf("\t%s\t%s\n", o->argh ? o->argh : "", o->complete ? o->complete : "");
	}
	if (usage->args_complete)
		printf("arg\t%s\n", usage->args_complete);
}

static int apply(const struct bp_option *o, const char *arg, const struct bp_usage *usage,
		 const char *spelled)
{
	switch (o->type) {
	case BP_OPT_FLAG:
		*(int *)o->value = 1;
		return 0;
	case BP_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case BP_OPT_STRING_LIST: {
		struct bp_string_list *list = o->value;

		if (list->n == list->max)
			return bp_usage_error(usage->cmd, "too many %s", spelled);
		list->items[list->n++] = arg;
		return 0;
	}
	case BP_OPT_CALLBACK:
		if (o->cb(o, arg) == 0)
			return 0;
		return bp_usage_error(usage->cmd, "%s", bp_last_error());
	case BP_OPT_END:
		break;
	}
	return bp_usage_error(usage->cmd, "unknown option '%s'", spelled);
}

/*
 * The option named by "--NAME" (the part before any '='): an exact name, or
 * the only one it is a prefix of (getopt_long's abbreviations). NULL with
 * *ambiguous set when several match.
 */
static const struct bp_option *find_long(const struct bp_option *options, const char *name,
					 size_t len, int *ambiguous)
{
	const struct bp_option *o, *found = NULL;

	*ambiguous = 0;
	for (o = options; o->type != BP_OPT_END; o++) {
		if (!o->long_name || strncmp(o->long_name, name, len))
			continue;
		if (!o->long_name[len])
			return o;
		if (found)
			*ambiguous = 1;
		found = o;
	}
	return *ambiguous ? NULL : found;
}

static const struct bp_option *find_short(const struct bp_option *options, int c)
{
	const struct bp_option *o;

	for (o = options; o->type != BP_OPT_END; o++) {
		if (o->short_name == c)
			return o;
	}
	return NULL;
}

/* "unknown option '--sicne'; did you mean '--since'?" (git's way with typos). */
static int unknown_long(const struct bp_option *options, const struct bp_usage *usage,
			const char *name, size_t len)
{
	const struct bp_option *o, *best = NULL;
	size_t dist, best_dist = SIZE_MAX;
	char typed[64];

	if (len < sizeof(typed)) {
		memcpy(typed, name, len);
		typed[len] = 0;
		for (o = options; o->type != BP_OPT_END; o++) {
			if (!o->long_name)
				continue;
			dist = bp_edit_distance(typed, o->long_name);
			if (dist < best_dist) {
				best_dist = dist;
				best = o;
			}
		}
	}
	if (best && bp_is_similar(typed, best_dist))
		return bp_usage_error(usage->cmd, "unknown option '--%.*s'; did you mean '--%s'?",
				      (int)len, name, best->long_name);
	return bp_usage_error(usage->cmd, "unknown option '--%.*s'", (int)len, name);
}

/* --name, --name=value, --name value. Returns 0, or an exit status. */
static int parse_long(const struct bp_option *options, const struct bp_usage *usage, int argc,
		      char **argv, int *i)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct bp_option *o;
	int ambiguous;

	o = find_long(options, name, len, &ambiguous);
	if (ambiguous)
		return bp_usage_error(usage->cmd, "ambiguous option '--%.*s'", (int)len, name);
	if (!o)
		return unknown_long(options, usage, name, len);
	if (!o->argh) {
		if (eq)
			return bp_usage_error(usage->cmd, "option '--%s' takes no value",
					      o->long_name);
		return apply(o, NULL, usage, argv[*i]);
	}
	if (eq)
		return apply(o, eq + 1, usage, argv[*i]);
	if (*i + 1 >= argc)
		return bp_usage_error(usage->cmd, "option '--%s' needs a value", o->long_name);
	(*i)++;
	return apply(o, argv[*i], usage, argv[*i - 1]);
}

/* -x, -xVALUE, -x VALUE, -xy (flags together). Returns 0 or an exit status. */
static int parse_short(const struct bp_option *options, const struct bp_usage *usage, int argc,
		       char **argv, int *i)
{
	const char *p = argv[*i] + 1;
	char spelled[3] = "-";
	int ret;

	for (; *p; p++) {
		const struct bp_option *o = find_short(options, *p);

		spelled[1] = *p;
		if (!o)
			return bp_usage_error(usage->cmd, "unknown option '-%c'", *p);
		if (!o->argh) {
			ret = apply(o, NULL, usage, spelled);
			if (ret)
				return ret;
			continue;
		}
		if (p[1])
			return apply(o, p + 1, usage, spelled);
		if (*i + 1 >= argc)
			return bp_usage_error(usage->cmd, "option '-%c' needs a value", *p);
		(*i)++;
		return apply(o, argv[*i], usage, spelled);
	}
	return 0;
}

int bp_option_fail(const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	bp_set_error("%s", msg ? msg : "invalid option value");
	free(msg);
	return -1;
}

int bp_parse_options(int argc, char **argv, const struct bp_option *options,
		     const struct bp_usage *usage, int flags, int *status)
{
	int i, nargs = 0, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (flags & BP_PARSE_STOP_AT_NON_OPTION)
				break;
			argv[nargs++] = argv[i];
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			bp_print_usage(stdout, options, usage);
			*status = 0;
			return -1;
		}
		if (!strcmp(a, "--completion-helper")) {
			print_completion(options, usage);
			*status = 0;
			return -1;
		}
		if (!strcmp(a, "--list-opts")) {
			const struct bp_option *o;

			for (o = options; o->type != BP_OPT_END; o++) {
				if (visible(o) && o->long_name)
					printf("--%s\n", o->long_name);
			}
			*status = 0;
			return -1;
		}
		ret = a[1] == '-' ? parse_long(options, usage, argc, argv, &i) :
				    parse_short(options, usage, argc, argv, &i);
		if (ret) {
			*status = ret;
			return -1;
		}
	}
	for (; i < argc; i++)
		argv[nargs++] = argv[i];
	argv[nargs] = NULL;
	return nargs;
}
