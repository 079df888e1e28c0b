/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_DOC_DOC_H
#define BP_DOC_DOC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The document model every human format lays out: sections of lines and
 * one table of typed cells each, plus a tree of typed values for JSON.
 * The report's own content is built from the model (views/doc.c); plugins
 * build theirs through the host (plugin/host.c). This layer knows neither:
 * doc/text.c and doc/markdown.c lay out sections, doc/json.c writes value
 * trees, so no format formats a number or escapes a string on its own.
 *
 * Strings from a recording are made printable when they enter a section
 * (bp_section_line(), bp_cell_str()): a path or comm holding ESC cannot
 * reach a terminal.
 */

/* What a cell or value holds; the order is that of enum bootprof_type. */
enum bp_type {
	BP_TEXT,
	BP_PATH,        /* shortened in the middle in text, keeping the file name */
	BP_U64,
	BP_I64,
	BP_NS,          /* duration: "12.3 ms" */
	BP_BYTES,       /* "1.5 MiB" */
	BP_TIME,        /* instant, ns on the recording's clock: "5.123456" */
	BP_DOUBLE,
	BP_BOOL,
};

union bp_value {
	uint64_t u;
	int64_t i;
	double d;
	char *s;        /* owned by the section or node; NULL: "-" / null */
	int b;
};

struct bp_column {
	char *title;
	enum bp_type type;
	char align;     /* 'l' or 'r' */
};

/**
 * struct bp_section - a titled block: lines, then a table
 * @title: its heading
 * @lines: free text before the table (already printable)
 * @ncols: columns of the table; 0: no table
 * @cols: @ncols columns
 * @cells: @nrows * @ncols cells, row by row
 * @details: per row, a second line (text) or last column (Markdown), or NULL
 * @more: rows of the list left out (--top), said under the table
 * @more_hint: how to see them ("use --top 0"), or NULL
 * @optional: shown only when it has lines or rows (plugin sections)
 */
struct bp_section {
	char *title;
	char **lines;
	size_t nlines;
	size_t ncols;
	struct bp_column *cols;
	union bp_value *cells;
	char **details;
	size_t nrows, cap;
	size_t more;
	char *more_hint;
	int optional;
};

/* A JSON value: '{' object, '[' array, or a typed scalar. */
struct bp_node {
	char kind;              /* '{', '[' or 'v' */
	enum bp_type type;      /* of a 'v' */
	union bp_value v;
	char *key;              /* member name; NULL inside arrays */
	struct bp_node **kids;
	size_t nkids, cap;
};

/**
 * struct bp_doc - sections, and the values JSON shows beside them
 * @sections: in order
 * @json: an object, or NULL
 */
struct bp_doc {
	struct bp_section *sections;
	size_t nsections;
	struct bp_node *json;
};

struct bp_json;

/* Free a document's sections and values (not @d itself). */
void bp_doc_release(struct bp_doc *d);

/* ---- building (section.c) ---- */

/* Append a section titled @title (copied, made printable). */
struct bp_section *bp_doc_section(struct bp_doc *d, const char *title);
/* Append a line (printf format); the result is made printable. */
void bp_section_line(struct bp_section *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bp_section_vline(struct bp_section *s, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Give @s its table: @ncols columns; titles copied. */
void bp_section_columns(struct bp_section *s, size_t ncols, const char *const *titles,
			const enum bp_type *types, const char *align);
/* Append a row: its @ncols cells, zeroed, to fill (strings with bp_cell_str()). */
union bp_value *bp_section_row(struct bp_section *s, const char *detail);
/* A printable copy of @s (NULL stays NULL), for a cell or value. */
char *bp_cell_str(const char *s);
/* Free a section's contents. */
void bp_section_release(struct bp_section *s);

/* A new node; @key copied (NULL: none). */
struct bp_node *bp_node_new(struct bp_node *parent, const char *key, char kind);
void bp_node_free(struct bp_node *n);

/**
 * bp_value_text() - a cell as text and Markdown show it
 * @buf: at least 32 bytes, for numbers
 * @type: its type
 * @v: its value
 *
 * Return: @buf, or the cell's own string (strings are shown as they are;
 * NULL as "-").
 */
const char *bp_value_text(char *buf, enum bp_type type, const union bp_value *v);

/* ---- writers ---- */

/*
 * Lay out @d's sections as text in @width columns, at least 40 (text.c).
 * @first: 1 until something was written, for a text of several documents
 * (NULL: @d is the whole text). A NULL @d writes nothing.
 */
void bp_doc_text(FILE *out, const struct bp_doc *d, size_t width, int *first);
/*
 * Write @s in at most @width columns: what does not fit goes on
 * continuation lines, under the value of a "label:   value" line when
 * @indent is 0, else indented by @indent + 4.
 */
void bp_text_wrapped(FILE *out, const char *s, size_t width, size_t indent);
/* Lay out @d's sections as Markdown headings and tables; @first as above (markdown.c). */
void bp_doc_markdown(FILE *out, const struct bp_doc *d, int *first);

/* Write @n (its members, or its value) as member @key of the writer's current value (json.c). */
void bp_node_json(struct bp_json *jw, const char *key, const struct bp_node *n);

#endif
