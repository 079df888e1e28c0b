// SPDX-License-Identifier: GPL-2.0
/* The markdown report: the text report's content as headings and tables. */
#include <string.h>

#include "views/doc.h"
#include "views/format.h"
#include "views/report.h"

/* A table cell: '|' escaped, newlines flattened. */
static void put_cell(FILE *out, const char *s)
{
	fputc(' ', out);
	bp_md_str(out, s);
	fputs(" |", out);
}

static void put_table(FILE *out, const struct bp_section *s)
{
	size_t c, r;
	int details = 0;

	for (r = 0; r < s->nrows; r++)
		details |= s->details[r] != NULL;
	fputc('|', out);
	for (c = 0; c < s->ncols; c++)
		put_cell(out, s->head[c]);
	if (details)
		put_cell(out, "DETAILS");
	fputs("\n|", out);
	for (c = 0; c < s->ncols + (size_t)details; c++)
		fputs(c < s->ncols && s->align[c] == 'r' ? " ---: |" : " --- |", out);
	fputc('\n', out);
	for (r = 0; r < s->nrows; r++) {
		fputc('|', out);
		for (c = 0; c < s->ncols; c++)
			put_cell(out, s->cells[r * s->ncols + c]);
		if (details)
			put_cell(out, s->details[r] ? s->details[r] : "");
		fputc('\n', out);
	}
}

int bp_view_markdown(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_doc d;
	size_t i, j;

	bp_doc_build(&d, m, o);
	for (i = 0; i < d.nsections; i++) {
		const struct bp_section *s = &d.sections[i];

		fprintf(out, "%s %s\n\n", i ? "##" : "#", s->title);
		for (j = 0; j < s->nlines; j++)
			fprintf(out, "- %s\n", s->lines[j]);
		if (s->nlines)
			fputc('\n', out);
		if (!s->ncols)
			continue;
		if (!s->nrows)
			fputs("(none)\n", out);
		else
			put_table(out, s);
		fputc('\n', out);
	}
	bp_doc_release(&d);
	return 0;
}
