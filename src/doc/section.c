// SPDX-License-Identifier: GPL-2.0
/* Building and freeing the document model (doc/doc.h), and cells as text. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "doc/format.h"
#include "util/printable.h"
#include "util/xalloc.h"

struct bp_section *bp_doc_section(struct bp_doc *d, const char *title)
{
	struct bp_section *s;

	d->sections = xrealloc(d->sections, (d->nsections + 1) * sizeof(*d->sections));
	s = &d->sections[d->nsections++];
	memset(s, 0, sizeof(*s));
	s->title = bp_printable_dup(title ? title : "");
	return s;
}

void bp_section_line(struct bp_section *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bp_section_vline(s, fmt, ap);
	va_end(ap);
}

void bp_section_vline(struct bp_section *s, const char *fmt, va_list ap)
{
	char *l;

	if (vasprintf(&l, fmt, ap) < 0)
		l = xstrdup("");
	s->lines = xrealloc(s->lines, (s->nlines + 1) * sizeof(*s->lines));
	s->lines[s->nlines++] = bp_printable_dup(l);
	free(l);
}

void bp_section_columns(struct bp_section *s, size_t ncols, const char *const *titles,
			const enum bp_type *types, const char *align)
{
	size_t c;

	s->ncols = ncols;
	s->cols = xcalloc(ncols ? ncols : 1, sizeof(*s->cols));
	for (c = 0; c < ncols; c++) {
		s->cols[c].title = bp_printable_dup(titles[c] ? titles[c] : "");
		s->cols[c].type = types ? types[c] : BP_TEXT;
		if (align)
			s->cols[c].align = align[c] == 'r' ? 'r' : 'l';
		else
			s->cols[c].align = s->cols[c].type == BP_TEXT || s->cols[c].type == BP_PATH ?
					   'l' : 'r';
	}
}

union bp_value *bp_section_row(struct bp_section *s, const char *detail)
{
	union bp_value *row;

	if (s->nrows + 1 > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->cells = xrealloc(s->cells, s->cap * (s->ncols ? s->ncols : 1) * sizeof(*s->cells));
		s->details = xrealloc(s->details, s->cap * sizeof(*s->details));
	}
	row = &s->cells[s->nrows * s->ncols];
	memset(row, 0, s->ncols * sizeof(*row));
	s->details[s->nrows++] = bp_printable_dup(detail);
	return row;
}

char *bp_cell_str(const char *s)
{
	return bp_printable_dup(s);
}

static int is_string(enum bp_type t)
{
	return t == BP_TEXT || t == BP_PATH;
}

void bp_section_release(struct bp_section *s)
{
	size_t r, c;

	free(s->title);
	for (r = 0; r < s->nlines; r++)
		free(s->lines[r]);
	free(s->lines);
	for (r = 0; r < s->nrows; r++) {
		for (c = 0; c < s->ncols; c++) {
			if (is_string(s->cols[c].type))
				free(s->cells[r * s->ncols + c].s);
		}
		free(s->details[r]);
	}
	for (c = 0; c < s->ncols; c++)
		free(s->cols[c].title);
	free(s->cols);
	free(s->cells);
	free(s->details);
	free(s->more_hint);
	memset(s, 0, sizeof(*s));
}

void bp_doc_release(struct bp_doc *d)
{
	size_t i;

	for (i = 0; i < d->nsections; i++)
		bp_section_release(&d->sections[i]);
	free(d->sections);
	bp_node_free(d->json);
	memset(d, 0, sizeof(*d));
}

struct bp_node *bp_node_new(struct bp_node *parent, const char *key, char kind)
{
	struct bp_node *n = xcalloc(1, sizeof(*n));

	n->kind = kind;
	n->key = key ? xstrdup(key) : NULL;
	if (parent) {
		BP_GROW(parent->kids, parent->nkids, parent->cap);
		parent->kids[parent->nkids++] = n;
	}
	return n;
}

void bp_node_free(struct bp_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nkids; i++)
		bp_node_free(n->kids[i]);
	free(n->kids);
	free(n->key);
	if (n->kind == 'v' && is_string(n->type))
		free(n->v.s);
	free(n);
}

const char *bp_value_text(char *buf, enum bp_type type, const union bp_value *v)
{
	switch (type) {
	case BP_TEXT:
	case BP_PATH:
		return v->s ? v->s : "-";
	case BP_U64:
		snprintf(buf, BP_FMT_LEN, "%" PRIu64, v->u);
		return buf;
	case BP_I64:
		snprintf(buf, BP_FMT_LEN, "%" PRId64, v->i);
		return buf;
	case BP_NS:
		return bp_fmt_ns(buf, v->u);
	case BP_BYTES:
		return bp_fmt_bytes(buf, v->u);
	case BP_TIME:
		snprintf(buf, BP_FMT_LEN, "%" PRIu64 ".%06" PRIu64, v->u / UINT64_C(1000000000),
			 v->u % UINT64_C(1000000000) / 1000);
		return buf;
	case BP_DOUBLE:
		snprintf(buf, BP_FMT_LEN, "%.1f", v->d);
		return buf;
	case BP_BOOL:
		return v->b ? "yes" : "no";
	}
	return "?";
}
