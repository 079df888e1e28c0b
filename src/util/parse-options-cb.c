// SPDX-License-Identifier: GPL-2.0
/*
 * The shared option types of the option tables (parse-options.h): one
 * callback per kind of value, each reading it with the one parser of its
 * unit (units.h), so a time, a size or a window means the same in every
 * command.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/parse-options.h"
#include "util/units.h"

int bp_opt_time(const struct bp_option *opt, const char *arg)
{
	char lo[BP_FMT_LEN], hi[BP_FMT_LEN];
	uint64_t ns;

	if (bp_parse_time(arg, &ns))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	/* A range from 1 ns is "more than 0". */
	if ((ns < opt->min || ns > opt->max) && opt->min == 1)
		return bp_option_fail("invalid --%s '%s' (more than 0, at most %s s)",
				      opt->long_name, arg, bp_fmt_secs(hi, opt->max));
	if (ns < opt->min || ns > opt->max)
		return bp_option_fail("invalid --%s '%s' (%s to %s s)", opt->long_name, arg,
				      bp_fmt_secs(lo, opt->min), bp_fmt_secs(hi, opt->max));
	*(uint64_t *)opt->value = ns;
	return 0;
}

int bp_opt_size(const struct bp_option *opt, const char *arg)
{
	if (bp_parse_size(arg, opt->value))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	return 0;
}

int bp_opt_int(const struct bp_option *opt, const char *arg)
{
	uint64_t n;

	if (bp_parse_count(arg, UINT64_MAX, &n))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	if (n < opt->min || n > opt->max)
		return bp_option_fail("invalid --%s '%s' (%llu to %llu)", opt->long_name, arg,
				      (unsigned long long)opt->min, (unsigned long long)opt->max);
	*(int *)opt->value = (int)n;
	return 0;
}

/*
 * The words of a completion list for a message: "only 'chrome'", or
 * "text, json, csv or markdown".
 */
static void list_words(char *buf, size_t len, const char *words)
{
	const char *p = words + strspn(words, " ");
	size_t n = 0, k, i, total = 0;

	for (k = 0; p[k]; k += strcspn(p + k, " "), k += strspn(p + k, " "))
		total++;
	if (total == 1) {
		snprintf(buf, len, "only '%.*s'", (int)strcspn(p, " "), p);
		return;
	}
	buf[0] = 0;
	for (i = 0; *p && n < len; i++) {
		k = strcspn(p, " ");
		n += (size_t)snprintf(buf + n, len - n, "%s%.*s",
				      !i ? "" : i + 1 == total ? " or " : ", ", (int)k, p);
		p += k;
		p += strspn(p, " ");
	}
}

int bp_opt_choice(const struct bp_option *opt, const char *arg)
{
	size_t len = strlen(arg), k;
	const char *p = opt->complete;
	char noun[64], words[256];

	/* "md" is Markdown wherever a format is taken: one spelling for the code to compare. */
	if (!strcmp(arg, "md") && !strcmp(opt->long_name, "format") &&
	    strstr(opt->complete, "markdown")) {
		*(const char **)opt->value = "markdown";
		return 0;
	}
	while (len && *p) {
		p += strspn(p, " ");
		k = strcspn(p, " ");
		if (k == len && !strncmp(p, arg, len)) {
			*(const char **)opt->value = arg;
			return 0;
		}
		p += k;
	}
	/* "unknown format 'xml' (text, json, csv or markdown)" */
	snprintf(noun, sizeof(noun), "%s", opt->long_name);
	for (k = 0; noun[k]; k++)
		noun[k] = noun[k] == '-' ? ' ' : noun[k];
	list_words(words, sizeof(words), opt->complete);
	return bp_option_fail("unknown %s '%s' (%s)", noun, arg, words);
}

/* --since T|+T, --until T|+T (struct bp_window_arg *value, by the option's name). */
int bp_opt_instant(const struct bp_option *opt, const char *arg)
{
	struct bp_window_arg *w = opt->value;
	struct bp_instant *t = !strcmp(opt->long_name, "until") ? &w->until : &w->since;

	if (bp_parse_instant(arg, &t->ns, &t->relative))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	t->set = 1;
	return 0;
}

int bp_window_arg_check(const struct bp_window_arg *w)
{
	if (w->since.set && w->until.set && w->since.relative == w->until.relative &&
	    w->until.ns <= w->since.ns) {
		bp_set_error("--until is not after --since");
		return -1;
	}
	return 0;
}
