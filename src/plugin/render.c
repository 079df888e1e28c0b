// SPDX-License-Identifier: GPL-2.0
/* The plugins' sections as text, Markdown and JSON, in the report's style. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/internal.h"
#include "util/xalloc.h"

#define WIDTH 100

static void put_cut(FILE *out, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (n <= width)
		fputs(s, out);
	else
		fprintf(out, "%.*s...", (int)(width - 3), s);
	fputc('\n', out);
}

static void put_table(FILE *out, const struct bp_out_item *t)
{
	size_t *w = xcalloc(t->ncols ? t->ncols : 1, sizeof(*w)), c, r;

	for (c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->head[c]);
		for (r = 0; r < t->nrows; r++) {
			size_t l = strlen(t->cells[r * t->ncols + c]);

			if (l > w[c])
				w[c] = l;
		}
	}
	for (r = 0; r <= t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			const char *cell = r ? t->cells[(r - 1) * t->ncols + c] : t->head[c];
			int last = c + 1 == t->ncols;

			if (t->align[c] == 'r')
				fprintf(out, "%*s", (int)w[c], cell);
			else if (last)
				fputs(cell, out);
			else
				fprintf(out, "%-*s", (int)w[c], cell);
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
	free(w);
}

void bp_plugins_report_text(const struct bp_plugin_set *set, FILE *out)
{
	size_t r, i;

	for (r = 0; set && r < set->nruns; r++) {
		const struct bp_plugin_run *run = set->runs[r];

		if (!run->active || !run->nitems)
			continue;
		fprintf(out, "\n== %s\n", run->title);
		for (i = 0; i < run->nitems; i++) {
			const struct bp_out_item *it = &run->items[i];

			if (it->line)
				put_cut(out, it->line, WIDTH);
			else if (!it->nrows)
				fputs("(none)\n", out);
			else
				put_table(out, it);
		}
	}
}

static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
}

void bp_plugins_report_markdown(const struct bp_plugin_set *set, FILE *out)
{
	size_t r, i, c, row;

	for (r = 0; set && r < set->nruns; r++) {
		const struct bp_plugin_run *run = set->runs[r];

		if (!run->active || !run->nitems)
			continue;
		fprintf(out, "\n## %s\n\n", run->title);
		for (i = 0; i < run->nitems; i++) {
			const struct bp_out_item *it = &run->items[i];

			if (it->line) {
				fprintf(out, "%s  \n", it->line);
				continue;
			}
			fputc('\n', out);
			if (!it->nrows) {
				fputs("(none)\n\n", out);
				continue;
			}
			for (row = 0; row <= it->nrows; row++) {
				fputc('|', out);
				for (c = 0; c < it->ncols; c++) {
					fputc(' ', out);
					md_cell(out, row ? it->cells[(row - 1) * it->ncols + c]
							 : it->head[c]);
					fputs(" |", out);
				}
				fputc('\n', out);
				if (row)
					continue;
				fputc('|', out);
				for (c = 0; c < it->ncols; c++)
					fputs(it->align[c] == 'r' ? " ---: |" : " --- |", out);
				fputc('\n', out);
			}
			fputc('\n', out);
		}
	}
}

static void json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void json_node(FILE *out, const struct bp_jnode *n, int depth)
{
	size_t i;

	switch (n->type) {
	case '{':
	case '[':
		fputc(n->type, out);
		for (i = 0; i < n->nkids; i++) {
			fprintf(out, "%s\n%*s", i ? "," : "", (depth + 1) * 2, "");
			if (n->type == '{') {
				json_string(out, n->kids[i]->key ? n->kids[i]->key : "");
				fputs(": ", out);
			}
			json_node(out, n->kids[i], depth + 1);
		}
		if (n->nkids)
			fprintf(out, "\n%*s", depth * 2, "");
		fputc(n->type == '{' ? '}' : ']', out);
		break;
	case 'u':
		fprintf(out, "%" PRIu64, n->u);
		break;
	case 'i':
		fprintf(out, "%" PRId64, n->i);
		break;
	case 'd':
		/* JSON has no NaN or infinity. */
		if (n->d == n->d && n->d < 1e300 && n->d > -1e300)
			fprintf(out, "%.3f", n->d);
		else
			fputs("null", out);
		break;
	case 's':
		json_string(out, n->s);
		break;
	case 'b':
		fputs(n->u ? "true" : "false", out);
		break;
	default:
		fputs("null", out);
	}
}

void bp_plugins_report_json(const struct bp_plugin_set *set, FILE *out, int depth)
{
	size_t r, k = 0;

	fputc('{', out);
	for (r = 0; set && r < set->nruns; r++) {
		const struct bp_plugin_run *run = set->runs[r];
		static const struct bp_jnode empty = { .type = '{' };

		if (!run->active)
			continue;
		fprintf(out, "%s\n%*s", k++ ? "," : "", (depth + 1) * 2, "");
		json_string(out, run->p->name);
		fputs(": ", out);
		json_node(out, run->json ? run->json : &empty, depth + 1);
	}
	if (k)
		fprintf(out, "\n%*s", depth * 2, "");
	fputc('}', out);
}
