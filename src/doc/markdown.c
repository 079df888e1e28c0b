// SPDX-License-Identifier: GPL-2.0
/* A document laid out as Markdown: headings and tables, full paths. */
#include <string.h>

#include "doc/doc.h"
#include "doc/format.h"

/* A table cell: '|' escaped, newlines flattened. */
static void put_cell(FILE *out, const char *s)
{
	fputc(' ', out);
	bp_md_str(out, s);
	fputs(" |", out);
}

static void put_table(FILE *out, const struct bp_section *s)
{
	char buf[BP_FMT_LEN];
	size_t c, r;
	int details = 0;

	for (r = 0; r < s->nrows; r++)
		details |= s->details[r] != NULL;
	fputc('|', out);
	for (c = 0; c < s->ncols; c++)
		put_cell(out, s->cols[c].title);
	if (details)
		put_cell(out, "DETAILS");
	fputs("\n|", out);
	for (c = 0; c < s->ncols + (size_t)details; c++)
		fputs(c < s->ncols && s->cols[c].align == 'r' ? " ---: |" : " --- |", out);
	fputc('\n', out);
	for (r = 0; r < s->nrows; r++) {
		fputc('|', out);
		for (c = 0; c < s->ncols; c++)
			put_cell(out, bp_value_text(buf, s->cols[c].type, &s->cells[r * s->ncols + c]));
		if (details)
			put_cell(out, s->details[r] ? s->details[r] : "");
		fputc('\n', out);
	}
	if (s->more)
		fprintf(out, "\n... %zu more (%s)\n", s->more, s->more_hint ? s->more_hint : "use --top 0");
}

void bp_doc_markdown(FILE *out, const struct bp_doc *d, int *first)
{
	size_t i, j;

	for (i = 0; d && i < d->nsections; i++) {
		const struct bp_section *s = &d->sections[i];

		if (s->optional && !s->nlines && !s->nrows)
			continue;
		fprintf(out, "%s %s\n\n", *first ? "#" : "##", s->title);
		*first = 0;
		for (j = 0; j < s->nlines; j++)
			fprintf(out, "- %s\n", s->lines[j]);
		if (s->nlines)
			fputc('\n', out);
		if (!s->ncols)
			continue;
		if (!s->nrows) {
			if (!s->optional)
				fputs("(none)\n\n", out);
			continue;
		}
		put_table(out, s);
		fputc('\n', out);
	}
}
