// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof check --budget FILE [RECORDING]: every line of a budget file
 * (bootprof-budget(5)) is a limit on one number of the recording; each
 * passes or fails with the measured value. Exit 0 within budget, 1 over
 * (or the recording cannot be read), 2 for a bad budget file.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/focus.h"
#include "analysis/summary.h"
#include "builtin.h"
#include "doc/format.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/xalloc.h"
#include "util/xml.h"

#define MAX_LINE 4096

static const char *const check_synopsis[] = {
	"bootprof check [options] --budget FILE [FILE]",
	NULL,
};

static const struct bp_usage check_usage = {
	"check",
	check_synopsis,
	"Check a recording against a budget file (see bootprof-budget(5)): one\n"
	"line per limit, e.g. 'phase kernel 2s', 'process zygote* io_wait 5s',\n"
	"'file /system/framework/*.jar bytes 50M', 'never_used share 10%',\n"
	"'critical_path io 2s', 'critical_path file *.jar 1s'.\n"
	"Exit 0 when every limit holds, 1 when one is over, 2 for a bad budget file.\n"
	"The recording, FILE, defaults to /var/log/bootprof/latest.dat, else\n"
	"./bootprof.dat.\n",
	NULL,
	"@recording",
};

enum unit { U_TIME, U_BYTES, U_COUNT, U_PERCENT };

enum subject { S_PHASE, S_PROCESS, S_FILE, S_SERVICE, S_IO_WAIT, S_BYTES, S_NEVER_USED, S_LOST,
	       S_CRITICAL };

struct metric {
	enum subject subject;
	const char *name;      /* NULL: the subject's default metric */
	enum unit unit;
};

/* What each subject can limit; the first of a subject is its default. */
static const struct metric metrics[] = {
	{ S_PHASE, "duration", U_TIME },    { S_PHASE, "io_wait", U_TIME },
	{ S_PHASE, "bytes", U_BYTES },      { S_PHASE, "idle", U_TIME },
	{ S_PROCESS, "io_wait", U_TIME },   { S_PROCESS, "bytes", U_BYTES },
	{ S_PROCESS, "span", U_TIME },      { S_PROCESS, "count", U_COUNT },
	{ S_FILE, "io_wait", U_TIME },      { S_FILE, "bytes", U_BYTES },
	{ S_FILE, "never_used", U_BYTES },  { S_SERVICE, "io_wait", U_TIME },
	{ S_SERVICE, "bytes", U_BYTES },    { S_IO_WAIT, "total", U_TIME },
	{ S_IO_WAIT, "idle", U_TIME },      { S_BYTES, "total", U_BYTES },
	{ S_NEVER_USED, "share", U_PERCENT }, { S_NEVER_USED, "bytes", U_BYTES },
	{ S_LOST, NULL, U_COUNT },
	/* The critical path to the recording's default end (bootprof-critical(1)). */
	{ S_CRITICAL, "total", U_TIME },    { S_CRITICAL, "io", U_TIME },
	{ S_CRITICAL, "file", U_TIME },
};

static const char *const subjects[] = { "phase", "process", "file", "service",
					"io_wait", "bytes", "never_used", "lost_events",
					"critical_path" };

struct budget {
	size_t lineno;
	char *text;               /* the line, trimmed */
	const struct metric *metric;
	char *pattern;            /* phase name or glob; NULL for totals */
	uint64_t limit;           /* ns, bytes, count, or percent * 1000 */
};

enum result { R_PASS, R_FAIL, R_SKIP };

struct outcome {
	enum result result;
	char measured[64];        /* the value, in the limit's units */
	char why[96];             /* for fail/skip: what is wrong */
};

/*
 * A limit, with the parser of its unit (util/units.h). A time is written
 * with its unit ("2s", "1min"): a line without a metric takes the first
 * metric whose unit the limit has, and a bare number is a size or a count.
 */
static int parse_limit(enum unit u, const char *s, uint64_t *out)
{
	size_t n = strlen(s);

	switch (u) {
	case U_TIME:
		if (!n || (s[n - 1] >= '0' && s[n - 1] <= '9') || s[n - 1] == '.')
			return -1;
		return bp_parse_time(s, out);
	case U_BYTES:
		return bp_parse_size(s, out);
	case U_COUNT:
		return bp_parse_count(s, UINT64_MAX, out);
	case U_PERCENT:
		return bp_parse_percent(s, out);
	}
	return -1;
}

static const char *const unit_hint[] = { "a time like 2s, 500ms or 1min",
					  "a size like 50M, 64k or 4096", "a whole number",
					  "a percentage like 10%" };

struct budget_file {
	struct budget *v;
	size_t n, cap;
	struct bp_phase_spec *specs;
	size_t nspecs, cspecs;
};

static void budget_file_release(struct budget_file *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].text);
		free(b->v[i].pattern);
	}
	free(b->v);
	for (i = 0; i < b->nspecs; i++)
		bp_phase_spec_release(&b->specs[i]);
	free(b->specs);
}

/* Split on blanks into at most 5 words; returns the count, 6 when there are more. */
static int split(char *s, char **w)
{
	int n = 0;

	for (;;) {
		s += strspn(s, " \t");
		if (!*s)
			return n;
		if (n == 5)
			return 6;
		w[n++] = s;
		s += strcspn(s, " \t");
		if (*s)
			*s++ = 0;
	}
}

/* One line into b; -1 with bp_set_error() saying why (the caller adds the place). */
static int parse_line(struct budget_file *b, char *line, size_t lineno)
{
	char *w[5], *text;
	const struct metric *m = NULL;
	struct budget *bu;
	int n, s, argi;
	size_t i, len;

	line[strcspn(line, "#\r\n")] = 0;
	for (len = strlen(line); len && (line[len - 1] == ' ' || line[len - 1] == '\t'); len--)
		line[len - 1] = 0;
	text = xstrdup(line + strspn(line, " \t"));
	n = split(line, w);
	if (!n) {
		free(text);
		return 0;
	}
	for (s = 0; s < (int)(sizeof(subjects) / sizeof(subjects[0])); s++) {
		if (!strcmp(w[0], subjects[s]))
			break;
	}
	if (s == (int)(sizeof(subjects) / sizeof(subjects[0]))) {
		bp_set_error("unknown budget '%s' (phase, process, file, service, io_wait, bytes, "
			     "never_used, lost_events, critical_path)", w[0]);
		goto fail;
	}
	/* critical_path file GLOB LIMIT: the pattern after the metric. */
	if (s == S_CRITICAL && n == 4 && !strcmp(w[1], "file")) {
		w[1] = w[2];
		w[2] = (char *)"file";
	} else if (s == S_CRITICAL && (n != 3 || !strcmp(w[1], "file"))) {
		bp_set_error("'critical_path' wants total LIMIT, io LIMIT or file GLOB LIMIT");
		goto fail;
	}
	/* phase/process/file/service take a name or pattern first. */
	argi = s <= S_SERVICE || (s == S_CRITICAL && n == 4) ? 2 : 1;
	if (n < argi + 1 || n > argi + 2) {
		bp_set_error("'%s' wants %s[METRIC] LIMIT", w[0],
			     s <= S_SERVICE ? "a name or pattern, then " : "");
		goto fail;
	}
	BP_GROW(b->v, b->n, b->cap);
	bu = &b->v[b->n];
	memset(bu, 0, sizeof(*bu));
	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		if (metrics[i].subject != (enum subject)s)
			continue;
		/* No metric named: the subject's first whose unit the limit has. */
		if (n == argi + 1 && (s > S_SERVICE || !parse_limit(metrics[i].unit, w[n - 1], &bu->limit)) &&
		    (s <= S_SERVICE || !metrics[i].name)) {
			m = &metrics[i];
			break;
		}
		if (n == argi + 2 && metrics[i].name && !strcmp(metrics[i].name, w[argi])) {
			m = &metrics[i];
			break;
		}
	}
	if (!m && n == argi + 1 && s <= S_SERVICE) {
		bp_set_error("bad limit '%s' for '%s': want a time like 2s, a size like 50M or a count",
			     w[n - 1], w[0]);
		goto fail;
	}
	if (!m && n == argi + 1) {
		bp_set_error("'%s' needs a metric before the limit", w[0]);
		goto fail;
	}
	if (!m) {
		bp_set_error("'%s' has no metric '%s'", w[0], w[argi]);
		goto fail;
	}
	if (parse_limit(m->unit, w[n - 1], &bu->limit)) {
		bp_set_error("bad limit '%s': want %s", w[n - 1], unit_hint[m->unit]);
		goto fail;
	}
	if (argi == 2) {
		char *eq = strchr(w[1], '=');

		if (eq && s == S_PHASE) {
			BP_GROW(b->specs, b->nspecs, b->cspecs);
			if (bp_phase_spec_parse(w[1], &b->specs[b->nspecs]))
				goto fail;
			b->nspecs++;
			*eq = 0;
		}
		bu->pattern = xstrdup(w[1]);
	}
	bu->lineno = lineno;
	bu->text = text;
	bu->metric = m;
	b->n++;
	return 0;
fail:
	free(text);
	return -1;
}

static int read_budget(const char *path, struct budget_file *b)
{
	char line[MAX_LINE];
	size_t lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		bp_set_error_errno("cannot open '%s'", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			bp_set_error("%s:%zu: line too long", path, lineno);
			fclose(f);
			return -1;
		}
		if (parse_line(b, line, lineno)) {
			char *why = xstrdup(bp_last_error());

			bp_set_error("%s:%zu: %s", path, lineno, why);
			free(why);
			fclose(f);
			return -1;
		}
	}
	if (ferror(f)) {
		bp_set_error_errno("cannot read '%s'", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (!b->n) {
		bp_set_error("%s: no budget in the file", path);
		return -1;
	}
	return 0;
}

static void fmt_value(char *buf, enum unit u, uint64_t v)
{
	switch (u) {
	case U_TIME:
		bp_fmt_ns(buf, v);
		break;
	case U_BYTES:
		bp_fmt_bytes(buf, v);
		break;
	case U_COUNT:
		snprintf(buf, BP_FMT_LEN, "%" PRIu64, v);
		break;
	case U_PERCENT:
		snprintf(buf, BP_FMT_LEN, "%.1f%%", (double)v / 1000);
		break;
	}
}

/* Does a row match a budget's pattern? Processes: comm, exec path or its base name. */
static int row_matches(const struct bp_summary_row *r, const char *pattern)
{
	const char *base;

	if (r->kind == BP_ROW_SERVICE)
		return bp_unit_matches(pattern, r->key);
	if (r->kind != BP_ROW_PROCESS)
		return !fnmatch(pattern, r->key, 0);
	if (!fnmatch(pattern, r->comm, 0))
		return 1;
	if (!r->exec)
		return 0;
	base = strrchr(r->exec, '/');
	return !fnmatch(pattern, r->exec, 0) || (base && !fnmatch(pattern, base + 1, 0));
}

static uint64_t row_value(const struct bp_summary_row *r, const char *metric)
{
	if (!strcmp(metric, "io_wait"))
		return r->wait_ns;
	if (!strcmp(metric, "bytes"))
		return r->bytes;
	if (!strcmp(metric, "never_used"))
		return r->never_used_bytes;
	if (!strcmp(metric, "count"))
		return r->count;
	if (!strcmp(metric, "idle"))
		return r->idle_wait_ns;
	return r->span_ns; /* span, duration */
}

/* A critical_path metric: the path's length, its I/O, its I/O on files GLOB matches. */
static uint64_t critical_value(const struct bp_critical_path *p, const char *metric,
			       const char *glob, size_t *matched)
{
	uint64_t v = 0;
	size_t i;

	if (!strcmp(metric, "total"))
		return p->end_ns - p->start_ns;
	if (!strcmp(metric, "io"))
		return p->state_ns[BP_CRIT_IO];
	for (i = 0; i < p->nfiles; i++) {
		if (p->files[i].path && !fnmatch(glob, p->files[i].path, 0)) {
			v += p->files[i].io_ns;
			(*matched)++;
		}
	}
	return v;
}

static void evaluate(const struct budget *b, const struct bp_summary *s, struct outcome *o)
{
	static const enum bp_row_kind kind_of[] = { BP_ROW_PHASE, BP_ROW_PROCESS, BP_ROW_FILE,
						    BP_ROW_SERVICE };
	const struct metric *m = b->metric;
	uint64_t v = 0;
	size_t i, matched = 0;
	char lim[BP_FMT_LEN];

	memset(o, 0, sizeof(*o));
	switch (m->subject) {
	case S_PHASE: {
		const struct bp_summary_row *r = bp_summary_find(s, BP_ROW_PHASE, b->pattern);

		if (!r || !r->reached) {
			o->result = R_FAIL;
			snprintf(o->measured, sizeof(o->measured), "-");
			snprintf(o->why, sizeof(o->why), "phase '%s' %s", b->pattern,
				 r ? "not reached" : "not in the recording");
			return;
		}
		v = row_value(r, m->name);
		break;
	}
	case S_PROCESS:
	case S_FILE:
	case S_SERVICE:
		/* The sum over every row the pattern matches. */
		for (i = 0; i < s->nrows; i++) {
			const struct bp_summary_row *r = &s->rows[i];

			if (r->kind == kind_of[m->subject] && row_matches(r, b->pattern)) {
				v += row_value(r, m->name);
				matched++;
			}
		}
		if (m->subject == S_FILE && !strcmp(m->name, "never_used") && s->access_missing) {
			o->result = R_SKIP;
			snprintf(o->measured, sizeof(o->measured), "n/a");
			snprintf(o->why, sizeof(o->why), "the recording kernel has no page-access events");
			return;
		}
		break;
	case S_IO_WAIT:
		v = !strcmp(m->name, "total") ? s->wait_ns : s->idle_wait_ns;
		break;
	case S_BYTES:
		v = s->read_bytes;
		break;
	case S_NEVER_USED: {
		uint64_t total;

		if (s->access_missing) {
			o->result = R_SKIP;
			snprintf(o->measured, sizeof(o->measured), "n/a");
			snprintf(o->why, sizeof(o->why), "the recording kernel has no page-access events");
			return;
		}
		/* A share of the file pages read: mapped, not known to be used, count too. */
		total = s->never_used_bytes + s->used_bytes + s->mapped_unknown_bytes;
		if (!strcmp(m->name, "bytes"))
			v = s->never_used_bytes;
		else if (total)
			v = s->never_used_bytes * 100000 / total;
		break;
	}
	case S_LOST:
		v = s->lost_events;
		break;
	case S_CRITICAL:
		if (!s->critical) {
			o->result = R_FAIL;
			snprintf(o->measured, sizeof(o->measured), "-");
			snprintf(o->why, sizeof(o->why), "no path: %s",
				 s->critical_error ? s->critical_error : "not walked");
			return;
		}
		v = critical_value(s->critical, m->name, b->pattern, &matched);
		break;
	}
	fmt_value(o->measured, m->unit, v);
	if (((m->subject >= S_PROCESS && m->subject <= S_SERVICE) || b->pattern) && !matched &&
	    m->subject != S_PHASE)
		strcat(o->measured, " (nothing matched)");
	o->result = v <= b->limit ? R_PASS : R_FAIL;
	if (o->result == R_FAIL) {
		fmt_value(lim, m->unit, b->limit);
		snprintf(o->why, sizeof(o->why), "over the limit of %s", lim);
	}
}

static void report(FILE *out, const char *format, const struct budget_file *bf,
		   const struct outcome *o, const char *budget_path, const struct bp_summary *s)
{
	size_t i, fails = 0, skips = 0;

	for (i = 0; i < bf->n; i++) {
		fails += o[i].result == R_FAIL;
		skips += o[i].result == R_SKIP;
	}
	if (!strcmp(format, "tap")) {
		fprintf(out, "TAP version 13\n1..%zu\n", bf->n);
		for (i = 0; i < bf->n; i++) {
			fprintf(out, "%s %zu - %s # ", o[i].result == R_FAIL ? "not ok" : "ok", i + 1,
				bf->v[i].text);
			if (o[i].result == R_SKIP)
				fprintf(out, "SKIP %s\n", o[i].why);
			else if (o[i].result == R_FAIL)
				fprintf(out, "measured %s: %s\n", o[i].measured, o[i].why);
			else
				fprintf(out, "measured %s\n", o[i].measured);
		}
		return;
	}
	if (!strcmp(format, "junit")) {
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
		fprintf(out, "<testsuites tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", bf->n,
			fails, skips);
		fputs("  <testsuite name=\"", out);
		bp_xml_put(out, budget_path);
		fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", bf->n, fails,
			skips);
		for (i = 0; i < bf->n; i++) {
			fputs("    <testcase classname=\"bootprof.budget\" name=\"", out);
			bp_xml_put(out, bf->v[i].text);
			fputs("\">\n", out);
			if (o[i].result == R_FAIL) {
				fputs("      <failure message=\"measured ", out);
				bp_xml_put(out, o[i].measured);
				fputs(": ", out);
				bp_xml_put(out, o[i].why);
				fputs("\"/>\n", out);
			} else if (o[i].result == R_SKIP) {
				fputs("      <skipped message=\"", out);
				bp_xml_put(out, o[i].why);
				fputs("\"/>\n", out);
			}
			fputs("      <system-out>measured ", out);
			bp_xml_put(out, o[i].measured);
			fprintf(out, " (%s:%zu, recording ", budget_path, bf->v[i].lineno);
			bp_xml_put(out, s->path);
			fputs(")</system-out>\n    </testcase>\n", out);
		}
		fputs("  </testsuite>\n</testsuites>\n", out);
		return;
	}
	fprintf(out, "budget: %s   recording: %s%s\n", budget_path, s->path,
		s->command_only ? " (the command's tree; --all: every process)" : "");
	for (i = 0; i < bf->n; i++) {
		static const char *const word[] = { "ok", "FAIL", "skip" };

		fprintf(out, "%-4s  %s: %s", word[o[i].result], bf->v[i].text, o[i].measured);
		if (o[i].result != R_PASS)
			fprintf(out, " (%s)", o[i].why);
		fprintf(out, "   [line %zu]\n", bf->v[i].lineno);
	}
	fprintf(out, "%zu of %zu budgets over", fails, bf->n);
	if (skips)
		fprintf(out, ", %zu not measurable", skips);
	fputc('\n', out);
}

int cmd_check(int argc, char **argv)
{
	struct budget_file bf = { 0 };
	struct bp_summary_opts so = { 0 };
	struct bp_summary *s = NULL;
	struct outcome *o = NULL;
	const char *budget = NULL, *format = "text", *file;
	const char *cli_phases[32];
	struct bp_string_list phases = { cli_phases, 0, sizeof(cli_phases) / sizeof(cli_phases[0]) };
	size_t i;
	int status, rc = BP_EXIT_FAILURE;
	const struct bp_option options[] = {
		OPT_STRING_C('b', "budget", &budget, "FILE", "the budget file (required)", "@file"),
		OPT_FORMAT(&format, "text tap junit", "text (default), tap or junit"),
		OPT_STRING_LIST(0, "phase", &phases, "NAME=END",
				"a phase ending at END: exec:PROG, file:PATH\n"
				"or service:UNIT (repeatable; also in budgets)", NULL),
		OPT_SINCE(&so.window),
		OPT_UNTIL(&so.window),
		OPT_FOCUS_ALL(&so.all),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &check_usage, 0, &status);
	if (argc < 0)
		return status;
	if (!budget)
		return bp_usage_error("check", "--budget FILE is required");
	if (argc > 1)
		return bp_usage_error("check", "too many arguments");
	if (bp_window_arg_check(&so.window))
		return bp_usage_error("check", "%s", bp_last_error());
	for (i = 0; i < phases.n; i++) {
		BP_GROW(bf.specs, bf.nspecs, bf.cspecs);
		if (bp_phase_spec_parse(cli_phases[i], &bf.specs[bf.nspecs])) {
			rc = bp_usage_error("check", "%s", bp_last_error());
			goto out;
		}
		bf.nspecs++;
	}
	if (read_budget(budget, &bf)) {
		bp_error("%s", bp_last_error());
		rc = BP_EXIT_USAGE;
		goto out;
	}
	file = argc ? argv[0] : bp_default_recording();
	if (!file) {
		rc = bp_error_last();
		goto out;
	}
	so.specs = bf.specs;
	so.nspecs = bf.nspecs;
	for (i = 0; i < bf.n; i++)
		so.critical |= bf.v[i].metric->subject == S_CRITICAL;
	/* The critical path's end as `bootprof critical` takes it, a plugin's mark too. */
	so.ends = &bp_plugin_end_source;
	s = bp_summary_load(file, &so);
	if (!s) {
		rc = bp_error_last();
		goto out;
	}
	bp_warnings_print(&s->warnings);
	o = xcalloc(bf.n, sizeof(*o));
	rc = 0;
	for (i = 0; i < bf.n; i++) {
		evaluate(&bf.v[i], s, &o[i]);
		if (o[i].result == R_FAIL)
			rc = BP_EXIT_FAILURE;
	}
	report(stdout, format, &bf, o, budget, s);
out:
	free(o);
	bp_summary_free(s);
	budget_file_release(&bf);
	return rc;
}
