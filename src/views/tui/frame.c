// SPDX-License-Identifier: GPL-2.0
/*
 * A frame's lines: text cut to the frame's width, with highlighted spans
 * for curses to colour.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/format.h"
#include "util/printable.h"
#include "util/xalloc.h"
#include "views/tui/internal.h"

/* ---- frames ---- */

/* A new line of the frame, blank to its width. */
struct top_line *top_new_line(struct top_frame *f, enum top_attr attr)
{
	struct top_line *l;

	BP_GROW(f->lines, f->nlines, f->cap);
	l = &f->lines[f->nlines++];
	memset(l->text, ' ', (size_t)f->width);
	l->text[f->width] = '\0';
	l->attr = attr;
	l->nspans = 0;
	return l;
}

/*
 * Write s at column col, cut at the line's end; returns the column after
 * it. Control characters from the recording are shown as text (\x1b).
 */
int top_put(struct top_frame *f, struct top_line *l, int col, const char *s)
{
	char shown[TOP_MAX_WIDTH * 4 + 1];
	size_t n = strlen(bp_printable(shown, sizeof(shown), s));

	if (col >= f->width)
		return col;
	if (n > (size_t)(f->width - col))
		n = (size_t)(f->width - col);
	memcpy(l->text + col, shown, n);
	return col + (int)n;
}

int __attribute__((format(printf, 4, 5)))
top_putf(struct top_frame *f, struct top_line *l, int col, const char *fmt, ...)
{
	char buf[TOP_MAX_WIDTH + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return top_put(f, l, col, buf);
}

void top_put_span(struct top_frame *f, struct top_line *l, int start, int len, enum top_attr attr)
{
	if (start >= f->width || len <= 0 || l->nspans == TOP_MAX_SPANS)
		return;
	if (start + len > f->width)
		len = f->width - start;
	l->spans[l->nspans++] = (struct top_span){ start, len, attr };
}

/* Write s at col in attr; returns the column after it. */
int top_put_attr(struct top_frame *f, struct top_line *l, int col, const char *s,
		 enum top_attr attr)
{
	int end = top_put(f, l, col, s);

	top_put_span(f, l, col, end - col, attr);
	return end;
}

void top_frame_release(struct top_frame *f)
{
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

/*
 * Which columns fit @width: the droppable ones go, highest top_col.drop
 * first, until the last column (a path: 0 width) has WANT_LAST_COL; @keep
 * (the sort column, -1: none) stays.
 */
static void fit_cols(int width, const struct top_col *cols, int ncols, int keep,
		     unsigned char *show)
{
	int i;

	for (i = 0; i < ncols; i++)
		show[i] = 1;
	for (;;) {
		int need = 0, worst = -1;

		for (i = 0; i < ncols; i++) {
			if (!show[i])
				continue;
			need += cols[i].width ? cols[i].width + 1 : WANT_LAST_COL;
			if (cols[i].drop && i != keep && (worst < 0 || cols[i].drop > cols[worst].drop))
				worst = i;
		}
		if (need - 1 <= width || worst < 0)
			return;
		show[worst] = 0;
	}
}

/*
 * One table row: cells laid out by the columns that fit (fit_cols),
 * separated by one space; the last column takes the rest of the width
 * (paths keep their ends).
 */
void top_put_cells(struct top_frame *f, struct top_line *l, const struct top_col *cols,
		   int ncols, int keep, char cells[][CELL_LEN])
{
	char buf[TOP_MAX_WIDTH + 1];
	unsigned char show[TOP_MAX_COLS];
	int col = 0, i;

	fit_cols(f->width, cols, ncols, keep, show);
	for (i = 0; i < ncols && col < f->width; i++) {
		int w = cols[i].width;

		if (!show[i])
			continue;
		if (!w) {
			w = f->width - col;
			if (w < MIN_LAST_COL)
				break;
			bp_fmt_path(buf, sizeof(buf), cells[i], (size_t)w);
		} else {
			/* printf's "%*.*s" or "%-*.*s", without printf: a row per file adds up. */
			size_t n = strnlen(cells[i], (size_t)w), pad = (size_t)w - n;

			memset(buf, ' ', (size_t)w);
			memcpy(buf + (cols[i].right ? pad : 0), cells[i], n);
			buf[w] = '\0';
		}
		col = top_put(f, l, col, buf) + 1;
	}
}

void top_put_head(struct top_frame *f, struct top_line *l, const struct top_col *cols,
		  int ncols, int sort)
{
	char cells[TOP_MAX_COLS][CELL_LEN];
	unsigned char show[TOP_MAX_COLS];
	int col = 0, i;

	for (i = 0; i < ncols; i++)
		snprintf(cells[i], CELL_LEN, "%s", cols[i].head);
	top_put_cells(f, l, cols, ncols, sort, cells);
	fit_cols(f->width, cols, ncols, sort, show);
	for (i = 0; i < ncols; i++) {
		int w = cols[i].width ? cols[i].width : f->width - col;

		if (!show[i])
			continue;
		if (!cols[i].width && w < MIN_LAST_COL)
			break;
		if (i == sort)
			top_put_span(f, l, col, w, TA_SORT);
		col += w + 1;
	}
}
