// SPDX-License-Identifier: GPL-2.0
/*
 * A document laid out as plain text, in a given number of columns. Nothing
 * is cut but paths, which are shortened in the middle keeping the file
 * name; a line or row that does not fit goes on over continuation lines.
 */
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "doc/format.h"
#include "util/xalloc.h"

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
 * Where to break s to fit room columns: after the last field separator
 * ("   "), else after the last ", ", else at the last space, else after
 * the last comma inside a word (a list such as "trace_event=a,b,c");
 * never at or before byte min (a label). A word with no comma that does
 * not fit is never cut: the line runs past the room to its end. Returns
 * the bytes before the break.
 */
static size_t break_at(const char *s, size_t room, size_t min)
{
	static const char *const seps[] = { "   ", ", ", " ", "," };
	size_t cut = bytes_for(s, room), i, k;

	for (k = 0; k < 4; k++) {
		size_t len = strlen(seps[k]);

		for (i = cut; i > min; i--) {
			/* A comma keeps its place on the line. */
			size_t at = k == 1 || k == 3 ? i - 1 : i;

			if (strncmp(s + at, seps[k], len) || ((k == 1 || k == 3) && at + 1 > cut))
				continue;
			/* "12.3 ms": a number keeps its unit. */
			if (k == 2 && at && s[at - 1] >= '0' && s[at - 1] <= '9')
				continue;
			return k == 1 || k == 3 ? at + 1 : at;
		}
	}
	/* The word goes on to its end, or to its first comma. */
	for (i = min; s[i] && s[i] != ' ' && s[i] != ','; i++)
		;
	return s[i] == ',' ? i + 1 : i;
}

/*
 * Print a line of text in at most width columns: what does not fit goes
 * on continuation lines, indented under the line's value ("label:   value"
 * continues under the value) or by indent + 4.
 */
void bp_text_wrapped(FILE *out, const char *s, size_t width, size_t indent)
{
	const char *colon = strstr(s, ":  ");
	size_t hang = indent + 4, value = 0;
	int first = 1;

	if (!indent && colon) {
		value = (size_t)(colon - s) + 1;
		while (s[value] == ' ')
			value++;
		hang = columns_of(s, value);
		if (hang > width / 2)
			hang = 4;
	}
	for (;;) {
		size_t lead = first ? indent : hang, room = width - lead, cut, end;

		if (columns_of(s, strlen(s)) <= room) {
			fprintf(out, "%*s%s\n", (int)lead, "", s);
			return;
		}
		cut = break_at(s, room, first ? value : 0);
		if (!cut)
			cut = bytes_for(s, room);
		for (end = cut; end > 0 && s[end - 1] == ' '; end--)
			;
		fprintf(out, "%*s%.*s\n", (int)lead, "", (int)end, s);
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
			if (cw < w[c] && !last)
				cw = w[c];
			/* What does not fit goes on a continuation line: nothing is cut. */
			if (pos && pos + 2 + cw > width) {
				fprintf(out, "\n%*s", CONT_INDENT, "");
				pos = CONT_INDENT;
			} else if (c) {
				fputs("  ", out);
				pos += 2;
			}
			put_cell(out, cell, cw > w[c] ? cw : w[c], s->cols[c].align, last);
			pos += cw;
		}
		fputc('\n', out);
		if (r && s->details[r - 1])
			bp_text_wrapped(out, s->details[r - 1], width, CONT_INDENT);
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
	char *title;

	for (i = 0; d && i < d->nsections; i++) {
		const struct bp_section *s = &d->sections[i];

		if (s->optional && empty(s))
			continue;
		if (!*first)
			fputc('\n', out);
		*first = 0;
		title = xasprintf("== %s", s->title);
		bp_text_wrapped(out, title, width, 0);
		free(title);
		for (j = 0; j < s->nlines; j++)
			bp_text_wrapped(out, s->lines[j], width, 0);
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

void bp_doc_text(FILE *out, const struct bp_doc *d, size_t width, int *first)
{
	int own = 1;

	put_sections(out, d, width < MIN_WIDTH ? MIN_WIDTH : width, first ? first : &own);
}
