// SPDX-License-Identifier: GPL-2.0
/*
 * The plain-text report, for bug trackers and terminals: --width columns
 * (100 unless told). Nothing is cut but paths, which are shortened in the
 * middle keeping the file name; a line or row that does not fit goes on
 * over continuation lines.
 */
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "views/doc.h"
#include "views/format.h"
#include "views/report.h"

#define DEFAULT_WIDTH 100
#define MIN_WIDTH 40
#define CONT_INDENT 8    /* continuation lines of a table row or detail */
#define MIN_PATH 24      /* a shorter path column goes to a line of its own */

/* Columns on screen: UTF-8 continuation bytes take none (cells are printable). */
static size_t columns_of(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n && s[i]; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

static size_t width_of(const char *s)
{
	return columns_of(s, strlen(s));
}

/* Bytes of s that fill at most cols columns. */
static size_t bytes_for(const char *s, size_t cols)
{
	size_t i, c = 0;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == cols)
			break;
	}
	return i;
}

/*
 * Print a line of text in at most width columns: it breaks at a space
 * (after a comma when it can), and goes on indented under its value
 * ("label:   value, value" continues under the first value).
 */
static void put_wrapped(FILE *out, const char *s, size_t width, size_t indent)
{
	const char *colon = strstr(s, ":  ");
	size_t hang = indent;
	int first = 1;

	if (!indent && colon) {
		hang = (size_t)(colon - s) + 1;
		while (s[hang] == ' ')
			hang++;
		hang = columns_of(s, hang);
	}
	if (!indent && (!colon || hang > width / 2))
		hang = 4;
	for (;;) {
		size_t room = width - (first ? indent : hang), n = strlen(s), cut, i;

		if (!first || indent)
			fprintf(out, "%*s", (int)(first ? indent : hang), "");
		if (columns_of(s, n) <= room) {
			fprintf(out, "%s\n", s);
			return;
		}
		cut = bytes_for(s, room);
		/* Last ", " then last " " inside the room; none: cut at the room. */
		for (i = cut; i > 0 && !(s[i - 1] == ',' && s[i] == ' '); i--)
			;
		if (!i)
			for (i = cut; i > 0 && s[i] != ' '; i--)
				;
		if (i)
			cut = i;
		fprintf(out, "%.*s\n", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
		if (!*s)
			return;
		first = 0;
	}
}

/* Print cell in w columns, aligned; "pos" is the column the line is at. */
static void put_cell(FILE *out, const char *cell, size_t w, char align, int last)
{
	size_t n = width_of(cell);

	if (align == 'r' && n < w)
		fprintf(out, "%*s", (int)(w - n), "");
	fputs(cell, out);
	if (align != 'r' && !last && n < w)
		fprintf(out, "%*s", (int)(w - n), "");
}

static const char *cell_text(const struct bp_section *s, size_t r, size_t c, char *buf)
{
	if (r == 0)
		return s->cols[c].title;
	return bp_value_text(buf, s->cols[c].type, &s->cells[(r - 1) * s->ncols + c]);
}

static void put_table(FILE *out, const struct bp_section *s, size_t width)
{
	size_t *w = xcalloc(s->ncols, sizeof(*w)), c, r, used = 0, path_col = s->ncols;
	char buf[BP_FMT_LEN], *path = xmalloc(width + 1);

	for (c = 0; c < s->ncols; c++) {
		for (r = 0; r <= s->nrows; r++) {
			size_t l = width_of(cell_text(s, r, c, buf));

			if (l > w[c])
				w[c] = l;
		}
	}
	/* A path in the last column takes what the others leave of the width. */
	if (s->ncols && s->cols[s->ncols - 1].type == BP_PATH)
		path_col = s->ncols - 1;
	for (c = 0; c < path_col; c++)
		used += w[c] + 2;
	if (path_col < s->ncols && used + w[path_col] > width)
		w[path_col] = used + MIN_PATH <= width ? width - used : width - CONT_INDENT;
	for (r = 0; r <= s->nrows; r++) {
		size_t pos = 0;

		for (c = 0; c < s->ncols; c++) {
			const char *cell = cell_text(s, r, c, buf);
			int last = c + 1 == s->ncols;
			size_t cw = w[c];

			if (c == path_col) {
				cell = bp_fmt_path(path, width + 1, cell, w[c]);
				cw = width_of(cell);
			}
			/* What does not fit goes on a continuation line: nothing is cut. */
			if (pos && pos + cw > width) {
				fprintf(out, "\n%*s", CONT_INDENT, "");
				pos = CONT_INDENT;
			}
			put_cell(out, cell, w[c] > cw ? w[c] : cw, s->cols[c].align, last);
			pos += (w[c] > cw ? w[c] : cw);
			if (!last) {
				fputs("  ", out);
				pos += 2;
			}
		}
		fputc('\n', out);
		if (r && s->details[r - 1])
			put_wrapped(out, s->details[r - 1], width, CONT_INDENT);
	}
	free(path);
	free(w);
}

/* A section with nothing in it: left out when optional, "(none)" otherwise. */
static int empty(const struct bp_section *s)
{
	return !s->nlines && !s->nrows;
}

static void put_sections(FILE *out, const struct bp_doc *d, size_t width, int *first)
{
	size_t i, j;

	for (i = 0; d && i < d->nsections; i++) {
		const struct bp_section *s = &d->sections[i];

		if (s->optional && empty(s))
			continue;
		if (!*first)
			fputc('\n', out);
		*first = 0;
		fprintf(out, "== %s\n", s->title);
		for (j = 0; j < s->nlines; j++)
			put_wrapped(out, s->lines[j], width, 0);
		if (!s->ncols)
			continue;
		if (!s->nrows) {
			if (!s->optional)
				fputs("(none)\n", out);
			continue;
		}
		put_table(out, s, width);
		if (s->more)
			fprintf(out, "... %zu more (%s)\n", s->more,
				s->more_hint ? s->more_hint : "use --top 0");
	}
}

int bp_view_text(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	size_t width = o->width ? o->width : DEFAULT_WIDTH;
	struct bp_doc d;
	int first = 1;

	if (width < MIN_WIDTH)
		width = MIN_WIDTH;
	bp_doc_build(&d, m, o);
	put_sections(out, &d, width, &first);
	put_sections(out, o->plugins, width, &first);
	bp_doc_release(&d);
	return 0;
}
