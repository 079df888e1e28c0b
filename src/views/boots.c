// SPDX-License-Identifier: GPL-2.0
/*
 * report --boots: statistics per phase, process, file and service over many
 * recordings, as text (100 columns), JSON or Markdown.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/summary.h"
#include "doc/format.h"
#include "util/error.h"
#include "util/xalloc.h"
#include "views/report.h"

enum stat_col { C_WAIT, C_BYTES, C_SPAN, NCOLS };
static const char *const col_heads[NCOLS] = { "I/O WAIT", "READ", "SPAN" };
static const char *const col_keys[NCOLS] = { "wait_ns", "read_bytes", "span_ns" };
static const char *const titles[BP_NROW_KINDS] = { "Phases", "Processes", "Files", "Services" };
static const char *const json_keys[BP_NROW_KINDS] = { "phases", "processes", "files", "services" };

static const struct bp_stat *col(const struct bp_group_row *r, int c)
{
	return c == C_WAIT ? &r->wait : c == C_BYTES ? &r->bytes : &r->span;
}

static int sort_col(enum bp_row_kind k)
{
	return k == BP_ROW_PHASE ? C_SPAN : C_WAIT;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct bp_group_row *a = *(const struct bp_group_row *const *)pa;
	const struct bp_group_row *b = *(const struct bp_group_row *const *)pb;
	int c = sort_col(a->kind), i;

	if (col(a, c)->median != col(b, c)->median)
		return col(a, c)->median > col(b, c)->median ? -1 : 1;
	for (i = 0; i < NCOLS; i++) {
		if (col(a, i)->median != col(b, i)->median)
			return col(a, i)->median > col(b, i)->median ? -1 : 1;
	}
	return strcmp(a->key, b->key);
}

/* The rows of one kind, sorted, at most top (0: all); phases that were never reached too. */
static size_t select_rows(const struct bp_group *g, enum bp_row_kind k, size_t top,
			  const struct bp_group_row **v)
{
	size_t i, n = 0;

	for (i = 0; i < g->nrows; i++) {
		if (g->rows[i].kind == k)
			v[n++] = &g->rows[i];
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_rows);
	return top && n > top ? top : n;
}

static void fmt(char *buf, int c, uint64_t v)
{
	if (c == C_BYTES)
		bp_fmt_bytes(buf, v);
	else
		bp_fmt_ns(buf, v);
}

static void text(FILE *out, const struct bp_group *g, size_t top, const struct bp_group_row **v)
{
	char cell[NCOLS * 3][BP_FMT_LEN], name[128], seen[64];
	size_t w[NCOLS * 3];
	int k, c, i;

	for (k = 0; k < BP_NROW_KINDS; k++) {
		size_t n = select_rows(g, k, top, v), j;

		fprintf(out, "\n== %s over %zu boots (median, min, max where it appeared)\n", titles[k],
			g->nsummaries);
		if (!n) {
			fputs("none\n", out);
			continue;
		}
		/* Numbers set the column widths: they are never cut. */
		for (i = 0; i < NCOLS * 3; i++)
			w[i] = 6;
		for (j = 0; j < n; j++) {
			for (c = 0; c < NCOLS; c++) {
				fmt(cell[c * 3], c, col(v[j], c)->median);
				fmt(cell[c * 3 + 1], c, col(v[j], c)->min);
				fmt(cell[c * 3 + 2], c, col(v[j], c)->max);
			}
			for (i = 0; i < NCOLS * 3; i++) {
				if (strlen(cell[i]) > w[i])
					w[i] = strlen(cell[i]);
			}
		}
		fputs("  ", out);
		for (c = 0; c < NCOLS; c++) {
			if (c + 1 < NCOLS)
				fprintf(out, "%-*s   ", (int)(w[c * 3] + w[c * 3 + 1] + w[c * 3 + 2] + 2),
					col_heads[c]);
			else
				fprintf(out, "%s\n", col_heads[c]);
		}
		fputs("  ", out);
		for (c = 0; c < NCOLS; c++)
			fprintf(out, "%*s %*s %*s%s", (int)w[c * 3], "median", (int)w[c * 3 + 1], "min",
				(int)w[c * 3 + 2], "max", c + 1 < NCOLS ? "   " : "\n");
		for (j = 0; j < n; j++) {
			snprintf(seen, sizeof(seen), "  [%zu of %zu boots", v[j]->boots, g->nsummaries);
			if (k == BP_ROW_PROCESS && v[j]->count.min != v[j]->count.max)
				snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
					 ", %" PRIu64 "..%" PRIu64 " processes", v[j]->count.min,
					 v[j]->count.max);
			else if (k == BP_ROW_PROCESS && v[j]->count.max > 1)
				snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
					 ", %" PRIu64 " processes", v[j]->count.max);
			strcat(seen, "]");
			bp_fmt_path(name, sizeof(name), v[j]->key, 100 - strlen(seen));
			fprintf(out, "%s%s\n", name, seen);
			for (c = 0; c < NCOLS; c++) {
				fmt(cell[c * 3], c, col(v[j], c)->median);
				fmt(cell[c * 3 + 1], c, col(v[j], c)->min);
				fmt(cell[c * 3 + 2], c, col(v[j], c)->max);
			}
			fputs("  ", out);
			for (c = 0; c < NCOLS; c++)
				fprintf(out, "%*s %*s %*s%s", (int)w[c * 3], cell[c * 3], (int)w[c * 3 + 1],
					cell[c * 3 + 1], (int)w[c * 3 + 2], cell[c * 3 + 2],
					c + 1 < NCOLS ? "   " : "\n");
		}
	}
}

static void markdown(FILE *out, const struct bp_group *g, size_t top,
		     const struct bp_group_row **v)
{
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c3[BP_FMT_LEN];
	int k, c;

	for (k = 0; k < BP_NROW_KINDS; k++) {
		size_t n = select_rows(g, k, top, v), j;

		fprintf(out, "\n## %s over %zu boots\n\n", titles[k], g->nsummaries);
		if (!n) {
			fputs("None.\n", out);
			continue;
		}
		fputs("| name | boots | wait median | wait min | wait max | read median | read min | "
		      "read max | span median | span min | span max |\n"
		      "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", out);
		for (j = 0; j < n; j++) {
			fputs("| ", out);
			bp_md_str(out, v[j]->key);
			fprintf(out, " | %zu |", v[j]->boots);
			for (c = 0; c < NCOLS; c++) {
				fmt(a, c, col(v[j], c)->median);
				fmt(b, c, col(v[j], c)->min);
				fmt(c3, c, col(v[j], c)->max);
				fprintf(out, " %s | %s | %s |", a, b, c3);
			}
			fputc('\n', out);
		}
	}
}

static void json_stat(struct bp_json *jw, const char *key, const struct bp_stat *s)
{
	bp_json_object_begin(jw, key);
	bp_json_u64(jw, "median", s->median);
	bp_json_u64(jw, "min", s->min);
	bp_json_u64(jw, "max", s->max);
	bp_json_end(jw);
}

static void json(FILE *out, const struct bp_group *g, struct bp_summary *const *s, size_t ns,
		 size_t top, const struct bp_group_row **v)
{
	struct bp_json jw;
	size_t i;
	int k, c;

	bp_json_init_compact(&jw, out);
	bp_json_object_begin(&jw, NULL);
	bp_json_array_begin(&jw, "recordings");
	for (i = 0; i < ns; i++)
		bp_json_string(&jw, NULL, s[i]->path);
	bp_json_end(&jw);
	for (k = 0; k < BP_NROW_KINDS; k++) {
		size_t n = select_rows(g, k, top, v), j;

		bp_json_array_begin(&jw, json_keys[k]);
		for (j = 0; j < n; j++) {
			bp_json_object_begin(&jw, NULL);
			bp_json_string(&jw, "name", v[j]->key);
			if (k == BP_ROW_PROCESS) {
				bp_json_string(&jw, "comm", v[j]->comm);
				bp_json_string(&jw, "exec", v[j]->exec);
			}
			bp_json_u64(&jw, "boots", v[j]->boots);
			json_stat(&jw, "count", &v[j]->count);
			for (c = 0; c < NCOLS; c++)
				json_stat(&jw, col_keys[c], col(v[j], c));
			if (k == BP_ROW_FILE)
				json_stat(&jw, "never_used_bytes", &v[j]->never_used);
			bp_json_end(&jw);
		}
		bp_json_end(&jw);
	}
	bp_json_end(&jw);
	fputc('\n', out);
}

int bp_view_boots(FILE *out, const struct bp_group *g, struct bp_summary *const *s, size_t n,
		  const char *format, size_t top)
{
	const struct bp_group_row **v = xcalloc(g->nrows ? g->nrows : 1, sizeof(*v));
	size_t i;

	if (!strcmp(format, "json")) {
		json(out, g, s, n, top, v);
	} else if (!strcmp(format, "markdown")) {
		fprintf(out, "# bootprof report: %zu boots\n", n);
		markdown(out, g, top, v);
	} else {
		fprintf(out, "recordings: %zu\n", n);
		for (i = 0; i < n; i++)
			fprintf(out, "  %s  (host %s, kernel %s)\n", s[i]->path,
				s[i]->hostname ? s[i]->hostname : "?",
				s[i]->kernel_release ? s[i]->kernel_release : "?");
		text(out, g, top, v);
	}
	free(v);
	return 0;
}
