// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof diff A B / diff --before GLOB --after GLOB: what changed between
 * two recordings, or two groups of recordings (medians, flagged only when
 * the after-group lies outside the before-group's range).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critical.h"
#include "analysis/focus.h"
#include "analysis/summary.h"
#include "builtin.h"
#include "replay/preload.h"
#include "doc/format.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/xalloc.h"
#include "views/critical.h"

#define DEFAULT_TOP 10
#define MAX_PHASES 32
#define MAX_GLOBS 64

static const char *const diff_synopsis[] = {
	"bootprof diff [options] FILE [FILE]",
	"bootprof diff [options] --before GLOB --after GLOB",
	NULL,
};

static const struct bp_usage diff_usage = {
	"diff",
	diff_synopsis,
	"What changed from the first recording to the second (default: the latest,\n"
	"/var/log/bootprof/latest.dat, else ./bootprof.dat): phases, processes\n"
	"(matched by comm and exec path), files (by path) and services; per row the\n"
	"before, after and change of I/O wait, bytes read and wall span; new and\n"
	"gone rows; sorted by absolute change. Two groups compare medians, and flag\n"
	"a change (*) only when every after-recording lies outside the\n"
	"before-recordings' range. --critical compares the two recordings'\n"
	"critical paths instead (see bootprof critical): by category, and what\n"
	"moved onto or off the path, by task and by file.\n",
	NULL,
	"@recording",
};

enum metric { M_WAIT, M_BYTES, M_SPAN, NMETRICS };
static const char *const metric_names[NMETRICS] = { "wait", "bytes", "span" };
static const char *const metric_heads[NMETRICS] = { "I/O WAIT", "READ", "SPAN" };
static const char *const kind_titles[BP_NROW_KINDS] = { "Phases", "Processes", "Files",
							 "Services" };
static const char *const json_keys[BP_NROW_KINDS] = { "phases", "processes", "files", "services" };

enum status { ST_SAME, ST_CHANGED, ST_NEW, ST_GONE };
static const char *const status_names[] = { "same", "changed", "new", "gone" };

struct diff_row {
	enum bp_row_kind kind;
	const char *key;
	enum status status;
	struct bp_stat before[NMETRICS], after[NMETRICS];
	int flagged[NMETRICS];
	int any_flag;
	int64_t sort_change;
};

struct diff {
	struct diff_row *rows;
	size_t nrows;
	int groups;        /* comparing groups, not two files */
	int sort;          /* enum metric, or -1: per kind */
	size_t nbefore, nafter;
};

static struct bp_stat pick(const struct bp_group_row *r, enum metric m)
{
	return m == M_WAIT ? r->wait : m == M_BYTES ? r->bytes : r->span;
}

static int64_t change(const struct diff_row *r, enum metric m)
{
	return (int64_t)r->after[m].median - (int64_t)r->before[m].median;
}

static uint64_t abs64(int64_t v)
{
	return v < 0 ? (uint64_t)-v : (uint64_t)v;
}

static enum metric sort_metric(const struct diff *d, enum bp_row_kind kind)
{
	if (d->sort >= 0)
		return (enum metric)d->sort;
	return kind == BP_ROW_PHASE ? M_SPAN : M_WAIT;
}

static int cmp_diff(const void *pa, const void *pb, void *arg)
{
	const struct diff_row *a = pa, *b = pb;
	const struct diff *d = arg;
	enum metric m;
	int i;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->any_flag != b->any_flag)
		return a->any_flag ? -1 : 1;
	m = sort_metric(d, a->kind);
	if (abs64(change(a, m)) != abs64(change(b, m)))
		return abs64(change(a, m)) > abs64(change(b, m)) ? -1 : 1;
	for (i = 0; i < NMETRICS; i++) {
		if (abs64(change(a, i)) != abs64(change(b, i)))
			return abs64(change(a, i)) > abs64(change(b, i)) ? -1 : 1;
	}
	return strcmp(a->key, b->key);
}

/* Both groups' row tables are sorted by (kind, key): merge them. */
static void build_diff(struct diff *d, const struct bp_group *b, const struct bp_group *a)
{
	static const struct bp_group_row none = { 0 };
	size_t i = 0, j = 0, cap = 0;

	while (i < b->nrows || j < a->nrows) {
		const struct bp_group_row *rb = i < b->nrows ? &b->rows[i] : NULL;
		const struct bp_group_row *ra = j < a->nrows ? &a->rows[j] : NULL;
		struct diff_row *r;
		int c, m;

		if (!rb)
			c = 1;
		else if (!ra)
			c = -1;
		else if (rb->kind != ra->kind)
			c = rb->kind < ra->kind ? -1 : 1;
		else
			c = strcmp(rb->key, ra->key);
		if (c < 0)
			ra = NULL, i++;
		else if (c > 0)
			rb = NULL, j++;
		else
			i++, j++;
		BP_GROW(d->rows, d->nrows, cap);
		r = &d->rows[d->nrows++];
		memset(r, 0, sizeof(*r));
		r->kind = (rb ? rb : ra)->kind;
		r->key = (rb ? rb : ra)->key;
		if (!rb)
			rb = &none;
		if (!ra)
			ra = &none;
		for (m = 0; m < NMETRICS; m++) {
			r->before[m] = pick(rb, m);
			r->after[m] = pick(ra, m);
			/* The rule: the whole after-range lies outside the before-range. */
			r->flagged[m] = r->after[m].min > r->before[m].max ||
					r->after[m].max < r->before[m].min;
			r->any_flag |= r->flagged[m];
		}
		if (!rb->boots && ra->boots)
			r->status = ST_NEW;
		else if (rb->boots && !ra->boots)
			r->status = ST_GONE;
		else if (change(r, M_WAIT) || change(r, M_BYTES) || change(r, M_SPAN))
			r->status = ST_CHANGED;
		else
			r->status = ST_SAME;
		if (r->status == ST_SAME)
			r->any_flag = 0;
	}
	if (d->nrows)
		qsort_r(d->rows, d->nrows, sizeof(*d->rows), cmp_diff, d);
}

static void fmt_value(char *buf, enum metric m, uint64_t v)
{
	if (m == M_BYTES)
		bp_fmt_bytes(buf, v);
	else
		bp_fmt_ns(buf, v);
}

/* buf: BP_FMT_LEN + 2 (sign and flag) */
static void fmt_change(char *buf, enum metric m, int64_t v)
{
	/* Units never fill BP_FMT_LEN: there is room for the sign. */
	buf[0] = v < 0 ? '-' : '+';
	fmt_value(buf + (v != 0), m, abs64(v));
}

static size_t count_status(const struct diff *d, enum bp_row_kind k, enum status st)
{
	size_t i, n = 0;

	for (i = 0; i < d->nrows; i++)
		n += d->rows[i].kind == k && d->rows[i].status == st;
	return n;
}

/* Rows a section shows: every row that changed, at most top (0: all). */
static size_t shown_rows(const struct diff *d, enum bp_row_kind k, size_t top,
			 const struct diff_row **v)
{
	size_t i, n = 0;

	for (i = 0; i < d->nrows; i++) {
		if (d->rows[i].kind != k || d->rows[i].status == ST_SAME)
			continue;
		if (top && n == top)
			break;
		v[n++] = &d->rows[i];
	}
	return n;
}

static void cells(const struct diff_row *r, char c[NMETRICS * 3][BP_FMT_LEN + 2], int groups)
{
	int m;

	for (m = 0; m < NMETRICS; m++) {
		fmt_value(c[m * 3], m, r->before[m].median);
		fmt_value(c[m * 3 + 1], m, r->after[m].median);
		fmt_change(c[m * 3 + 2], m, change(r, m));
		if (groups && r->flagged[m])
			strcat(c[m * 3 + 2], "*");
	}
}

static void header_line(FILE *out, const char *what, struct bp_summary *const *s, size_t n)
{
	if (n == 1)
		fprintf(out, "%s %s (host %s, kernel %s)\n", what, s[0]->path,
			s[0]->hostname ? s[0]->hostname : "?",
			s[0]->kernel_release ? s[0]->kernel_release : "?");
	else
		fprintf(out, "%s %zu recordings (medians), %s .. %s\n", what, n, s[0]->path,
			s[n - 1]->path);
}

/* 1 when some recording of @s has a preloader process in its rows. */
static int replayed(struct bp_summary *const *s, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < s[i]->nrows; j++) {
			const struct bp_summary_row *r = &s[i]->rows[j];

			if (r->kind == BP_ROW_PROCESS && r->comm && !strcmp(r->comm, BP_REPLAY_COMM))
				return 1;
		}
	}
	return 0;
}

/* By growth of bytes read, largest first, then by name. */
static int cmp_growth(const void *pa, const void *pb)
{
	const struct diff_row *a = *(const struct diff_row *const *)pa;
	const struct diff_row *b = *(const struct diff_row *const *)pb;

	if (change(a, M_BYTES) != change(b, M_BYTES))
		return change(a, M_BYTES) > change(b, M_BYTES) ? -1 : 1;
	return strcmp(a->key, b->key);
}

/*
 * Files read more from storage after a replay than before it (preloader
 * and workload together), by growth: what the pack made worse. Empty
 * unless only the after-side was replayed.
 */
static size_t grew_after_replay(const struct diff *d, struct bp_summary *const *b,
				struct bp_summary *const *a, const struct diff_row **v)
{
	size_t i, n = 0;

	if (!replayed(a, d->nafter) || replayed(b, d->nbefore))
		return 0;
	for (i = 0; i < d->nrows; i++) {
		if (d->rows[i].kind == BP_ROW_FILE && d->rows[i].status != ST_NEW &&
		    change(&d->rows[i], M_BYTES) > 0)
			v[n++] = &d->rows[i];
	}
	qsort(v, n, sizeof(*v), cmp_growth);
	return n;
}

static void text(FILE *out, const struct diff *d, size_t top, struct bp_summary *const *b,
		 struct bp_summary *const *a)
{
	const struct diff_row **v = xcalloc(d->nrows ? d->nrows : 1, sizeof(*v));
	char c[NMETRICS * 3][BP_FMT_LEN + 2], name[128];
	size_t w[NMETRICS * 3], n_grew;
	int k, m, i;

	header_line(out, "before:", b, d->nbefore);
	header_line(out, "after: ", a, d->nafter);
	if (b[0]->command_only || a[0]->command_only)
		fputs("of:     the commands' trees (--all: every process)\n", out);
	if (d->groups)
		fputs("* = every after-recording lies outside the before-recordings' range\n", out);
	for (k = 0; k < BP_NROW_KINDS; k++) {
		size_t n = shown_rows(d, k, top, v), j;

		fprintf(out, "\n== %s: %zu changed, %zu new, %zu gone; by change of %s\n",
			kind_titles[k], count_status(d, k, ST_CHANGED), count_status(d, k, ST_NEW),
			count_status(d, k, ST_GONE), metric_names[sort_metric(d, k)]);
		if (!n) {
			fputs("no change\n", out);
			continue;
		}
		/* Column widths: numbers are never cut, so they set the width. */
		for (i = 0; i < NMETRICS * 3; i++)
			w[i] = 7;
		for (j = 0; j < n; j++) {
			cells(v[j], c, d->groups);
			for (i = 0; i < NMETRICS * 3; i++) {
				if (strlen(c[i]) > w[i])
					w[i] = strlen(c[i]);
			}
		}
		fputs("  ", out);
		for (m = 0; m < NMETRICS; m++) {
			size_t span = w[m * 3] + w[m * 3 + 1] + w[m * 3 + 2] + 2;

			if (m + 1 < NMETRICS)
				fprintf(out, "%-*s   ", (int)span, metric_heads[m]);
			else
				fprintf(out, "%s\n", metric_heads[m]);
		}
		fputs("  ", out);
		for (m = 0; m < NMETRICS; m++)
			fprintf(out, "%*s %*s %*s%s", (int)w[m * 3], "before", (int)w[m * 3 + 1],
				"after", (int)w[m * 3 + 2], "change", m + 1 < NMETRICS ? "   " : "\n");
		for (j = 0; j < n; j++) {
			const char *st = status_names[v[j]->status];

			bp_fmt_path(name, sizeof(name), v[j]->key, 100 - 4 - strlen(st));
			fprintf(out, "%s  [%s]\n", name, st);
			cells(v[j], c, d->groups);
			fputs("  ", out);
			for (m = 0; m < NMETRICS; m++)
				fprintf(out, "%*s %*s %*s%s", (int)w[m * 3], c[m * 3], (int)w[m * 3 + 1],
					c[m * 3 + 1], (int)w[m * 3 + 2], c[m * 3 + 2],
					m + 1 < NMETRICS ? "   " : "\n");
		}
	}
	n_grew = grew_after_replay(d, b, a, v);
	if (n_grew || (replayed(a, d->nafter) && !replayed(b, d->nbefore)))
		fprintf(out, "\n== Read more after the replay: %zu files (preloader and the rest together)\n",
			n_grew);
	for (k = 0; k < (int)n_grew && (!top || (size_t)k < top); k++) {
		char before[BP_FMT_LEN], after[BP_FMT_LEN];

		fmt_value(before, M_BYTES, v[k]->before[M_BYTES].median);
		fmt_value(after, M_BYTES, v[k]->after[M_BYTES].median);
		bp_fmt_path(name, sizeof(name), v[k]->key, 70);
		fprintf(out, "  %10s -> %10s  %s\n", before, after, name);
	}
	free(v);
}

static void markdown(FILE *out, const struct diff *d, size_t top, struct bp_summary *const *b,
		     struct bp_summary *const *a)
{
	const struct diff_row **v = xcalloc(d->nrows ? d->nrows : 1, sizeof(*v));
	char c[NMETRICS * 3][BP_FMT_LEN + 2];
	int k, i;

	fputs("# bootprof diff\n\n", out);
	fprintf(out, "- before: ");
	bp_md_str(out, d->nbefore == 1 ? b[0]->path : "group (medians)");
	fprintf(out, " (%zu recording%s)\n- after: ", d->nbefore, d->nbefore == 1 ? "" : "s");
	bp_md_str(out, d->nafter == 1 ? a[0]->path : "group (medians)");
	fprintf(out, " (%zu recording%s)\n", d->nafter, d->nafter == 1 ? "" : "s");
	if (d->groups)
		fputs("- \\* = every after-recording lies outside the before-recordings' range\n", out);
	for (k = 0; k < BP_NROW_KINDS; k++) {
		size_t n = shown_rows(d, k, top, v), j;

		fprintf(out, "\n## %s: %zu changed, %zu new, %zu gone\n\n", kind_titles[k],
			count_status(d, k, ST_CHANGED), count_status(d, k, ST_NEW),
			count_status(d, k, ST_GONE));
		if (!n) {
			fputs("No change.\n", out);
			continue;
		}
		fputs("| name | status | wait before | wait after | wait change | read before | "
		      "read after | read change | span before | span after | span change |\n"
		      "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", out);
		for (j = 0; j < n; j++) {
			fputs("| ", out);
			bp_md_str(out, v[j]->key);
			fprintf(out, " | %s |", status_names[v[j]->status]);
			cells(v[j], c, d->groups);
			for (i = 0; i < NMETRICS * 3; i++) {
				fputc(' ', out);
				bp_md_str(out, c[i]);
				fputs(" |", out);
			}
			fputc('\n', out);
		}
	}
	free(v);
}

static void json_side(struct bp_json *jw, const char *name, struct bp_summary *const *s,
		      size_t n)
{
	size_t i;

	bp_json_array_begin(jw, name);
	for (i = 0; i < n; i++)
		bp_json_string(jw, NULL, s[i]->path);
	bp_json_end(jw);
}

static void json(FILE *out, const struct diff *d, size_t top, struct bp_summary *const *b,
		 struct bp_summary *const *a)
{
	const struct diff_row **v = xcalloc(d->nrows ? d->nrows : 1, sizeof(*v));
	struct bp_json jw;
	int k, m;

	bp_json_init_compact(&jw, out);
	bp_json_object_begin(&jw, NULL);
	json_side(&jw, "before", b, d->nbefore);
	json_side(&jw, "after", a, d->nafter);
	bp_json_bool(&jw, "groups", d->groups);
	bp_json_string(&jw, "rule",
		       "flagged: every after-recording lies outside the before-recordings' range");
	for (k = 0; k < BP_NROW_KINDS; k++) {
		size_t n = shown_rows(d, k, top, v), j;

		bp_json_array_begin(&jw, json_keys[k]);
		for (j = 0; j < n; j++) {
			bp_json_object_begin(&jw, NULL);
			bp_json_string(&jw, "name", v[j]->key);
			bp_json_string(&jw, "status", status_names[v[j]->status]);
			for (m = 0; m < NMETRICS; m++) {
				const struct bp_stat *sb = &v[j]->before[m], *sa = &v[j]->after[m];

				bp_json_object_begin(&jw, metric_names[m]);
				bp_json_u64(&jw, "before", sb->median);
				bp_json_u64(&jw, "after", sa->median);
				bp_json_i64(&jw, "change", change(v[j], m));
				bp_json_bool(&jw, "flagged",
					     v[j]->flagged[m] && v[j]->status != ST_SAME);
				if (d->groups) {
					bp_json_u64(&jw, "before_min", sb->min);
					bp_json_u64(&jw, "before_max", sb->max);
					bp_json_u64(&jw, "after_min", sa->min);
					bp_json_u64(&jw, "after_max", sa->max);
				}
				bp_json_end(&jw);
			}
			bp_json_end(&jw);
		}
		bp_json_end(&jw);
	}
	if (replayed(a, d->nafter) && !replayed(b, d->nbefore)) {
		size_t n = grew_after_replay(d, b, a, v), j;

		bp_json_array_begin(&jw, "read_more_after_replay");
		for (j = 0; j < n && (!top || j < top); j++) {
			bp_json_object_begin(&jw, NULL);
			bp_json_string(&jw, "name", v[j]->key);
			bp_json_u64(&jw, "before_bytes", v[j]->before[M_BYTES].median);
			bp_json_u64(&jw, "after_bytes", v[j]->after[M_BYTES].median);
			bp_json_end(&jw);
		}
		bp_json_end(&jw);
	}
	bp_json_end(&jw);
	fputc('\n', out);
	free(v);
}

/* --sort KEY (int *value: enum metric). */
static int opt_sort(const struct bp_option *opt, const char *arg)
{
	int *sort = opt->value;

	for (*sort = 0; *sort < NMETRICS && strcmp(arg, metric_names[*sort]); (*sort)++)
		;
	if (*sort == NMETRICS)
		return bp_option_fail("unknown sort key '%s'", arg);
	return 0;
}

/* diff --critical: the two paths side by side; a recording without one is an error. */
static int diff_critical(const char *format, size_t top, const struct bp_summary *b,
			 const struct bp_summary *a)
{
	if (!b->critical)
		return bp_error("'%s': no critical path: %s", b->path, b->critical_error);
	if (!a->critical)
		return bp_error("'%s': no critical path: %s", a->path, a->critical_error);
	bp_view_critical_compare(stdout, format, b->critical, b->path, a->critical, a->path, top);
	return bp_finish_stdout(0);
}

int cmd_diff(int argc, char **argv)
{
	struct bp_phase_spec specs[MAX_PHASES];
	const char *before[MAX_GLOBS], *after[MAX_GLOBS];
	struct bp_phase_spec_list phases = { specs, 0, MAX_PHASES };
	struct bp_string_list befores = { before, 0, MAX_GLOBS }, afters = { after, 0, MAX_GLOBS };
	size_t nb, na, i;
	struct bp_summary_opts so = { 0 };
	struct bp_summary **sb = NULL, **sa = NULL;
	struct bp_group gb, ga;
	struct diff d = { 0 };
	const char *format = "text";
	int top = -1, critical = 0;
	int rc;
	const struct bp_option options[] = {
		OPT_FORMAT(&format, "text json markdown", "text (default), json or markdown (md)"),
		OPT_INT('n', "top", &top, "N",
			"rows per section (default 10 for text/markdown, all\n"
			"for json; 0 = all)", 0, INT_MAX),
		OPT_CALLBACK_C('s', "sort", &d.sort, "KEY",
			       "wait, bytes or span (default: span for phases, wait\n"
			       "for the rest)", "wait bytes span", opt_sort),
		OPT_STRING_LIST(0, "before", &befores, "GLOB",
				"the before-group (repeatable; quote the pattern)", NULL),
		OPT_STRING_LIST(0, "after", &afters, "GLOB", "the after-group (repeatable)", NULL),
		OPT_CALLBACK(0, "phase", &phases, "NAME=END",
			     "a phase ending at END: exec:PROG, file:PATH\n"
			     "or service:UNIT (repeatable)", bp_phase_spec_opt),
		OPT_FOCUS_ALL(&so.all),
		OPT_FLAG(0, "critical", &critical,
			 "compare the critical paths to each recording's default\n"
			 "end point (two recordings)"),
		OPT_END(),
	};

	d.sort = -1;
	argc = bp_parse_options(argc, argv, options, &diff_usage, 0, &rc);
	if (argc < 0)
		goto out;
	nb = befores.n;
	na = afters.n;
	if ((nb || na) && (!nb || !na || argc)) {
		rc = bp_usage_error("diff", "give --before GLOB and --after GLOB, and no file");
		goto out;
	}
	if (!nb && (argc < 1 || argc > 2)) {
		rc = bp_usage_error("diff", "give two recordings: BEFORE AFTER");
		goto out;
	}
	if (!nb) {
		before[nb++] = argv[0];
		after[na++] = argc == 2 ? argv[1] : bp_default_recording();
		if (!after[0]) {
			rc = bp_error_last();
			goto out;
		}
	}
	if (critical && argc < 1) {
		rc = bp_usage_error("diff", "--critical compares two recordings, not groups");
		goto out;
	}
	if (top < 0)
		top = strcmp(format, "json") ? DEFAULT_TOP : 0;
	so.critical = critical;
	so.ends = &bp_plugin_end_source;
	so.specs = specs;
	so.nspecs = phases.n;
	d.groups = !argc;
	sb = bp_summaries_load(before, nb, d.groups, &so, &d.nbefore);
	if (!sb) {
		rc = bp_error_last();
		goto out;
	}
	sa = bp_summaries_load(after, na, d.groups, &so, &d.nafter);
	if (!sa) {
		rc = bp_error_last();
		goto out;
	}
	for (i = 0; i < d.nbefore + d.nafter; i++)
		bp_warnings_print(&(i < d.nbefore ? sb[i] : sa[i - d.nbefore])->warnings);
	if (critical) {
		rc = diff_critical(format, (size_t)top, sb[0], sa[0]);
		goto out;
	}
	bp_group_build(&gb, sb, d.nbefore, 1);
	bp_group_build(&ga, sa, d.nafter, 1);
	build_diff(&d, &gb, &ga);
	if (!strcmp(format, "json"))
		json(stdout, &d, (size_t)top, sb, sa);
	else if (!strcmp(format, "markdown"))
		markdown(stdout, &d, (size_t)top, sb, sa);
	else
		text(stdout, &d, (size_t)top, sb, sa);
	free(d.rows);
	bp_group_release(&gb);
	bp_group_release(&ga);
	rc = 0;
out:
	bp_summaries_free(sb, d.nbefore);
	bp_summaries_free(sa, d.nafter);
	for (i = 0; i < phases.n; i++)
		bp_phase_spec_release(&specs[i]);
	return rc;
}
