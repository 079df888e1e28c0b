// SPDX-License-Identifier: GPL-2.0
/* The plain-text report: at most 100 columns, for bug trackers and terminals. */
#include <stdlib.h>
#include <string.h>

#include "plugin/plugins.h"
#include "util/xalloc.h"
#include "views/doc.h"
#include "views/format.h"
#include "views/report.h"

#define WIDTH 100

/* Print s cut to width columns, "..." marking the cut. */
static void put_cut(FILE *out, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (n <= width)
		fputs(s, out);
	else
		fprintf(out, "%.*s...", (int)(width - 3), s);
	fputc('\n', out);
}

static void put_table(FILE *out, const struct bp_section *s)
{
	size_t *w = xcalloc(s->ncols, sizeof(*w)), c, r, used = 0;
	char path[WIDTH + 1];

	for (c = 0; c < s->ncols; c++) {
		w[c] = strlen(s->head[c]);
		for (r = 0; r < s->nrows; r++) {
			size_t l = strlen(s->cells[r * s->ncols + c]);

			if (l > w[c])
				w[c] = l;
		}
	}
	/* The last column (a path) takes what is left of the width. */
	for (c = 0; c + 1 < s->ncols; c++)
		used += w[c] + 2;
	if (s->ncols && used + w[s->ncols - 1] > WIDTH)
		w[s->ncols - 1] = used + 8 < WIDTH ? WIDTH - used : 8;
	for (r = 0; r <= s->nrows; r++) {
		for (c = 0; c < s->ncols; c++) {
			const char *cell = r ? s->cells[(r - 1) * s->ncols + c] : s->head[c];
			int last = c + 1 == s->ncols;

			if (last) {
				bp_fmt_path(path, sizeof(path), cell, w[c]);
				cell = path;
			}
			if (s->align[c] == 'r')
				fprintf(out, "%*s", (int)w[c], cell);
			else if (last)
				fputs(cell, out);
			else
				fprintf(out, "%-*s", (int)w[c], cell);
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
		if (r && s->details[r - 1]) {
			fputs("        ", out);
			put_cut(out, s->details[r - 1], WIDTH - 8);
		}
	}
	free(w);
}

int bp_view_text(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_doc d;
	size_t i, j;

	bp_doc_build(&d, m, o);
	for (i = 0; i < d.nsections; i++) {
		const struct bp_section *s = &d.sections[i];

		if (i)
			fputc('\n', out);
		fprintf(out, "== %s\n", s->title);
		for (j = 0; j < s->nlines; j++)
			put_cut(out, s->lines[j], WIDTH);
		if (!s->ncols)
			continue;
		if (!s->nrows)
			fputs("(none)\n", out);
		else
			put_table(out, s);
	}
	bp_doc_release(&d);
	bp_plugins_report_text(o->plugins, out);
	return 0;
}
