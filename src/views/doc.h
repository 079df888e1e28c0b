/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_DOC_H
#define BP_VIEWS_DOC_H

#include <stddef.h>

#include "analysis/model.h"
#include "views/report.h"

/*
 * A human report as sections of key/value lines and tables of cells, built
 * once from the model (doc.c) and laid out as plain text (text.c, 100
 * columns) or markdown (markdown.c). Cells are already in human units.
 */
struct bp_section {
	char *title;
	char **lines;          /* free text before the table */
	size_t nlines;
	size_t ncols;
	const char *const *head;
	const char *align;     /* 'l' or 'r' per column */
	char **cells;          /* nrows * ncols */
	char **details;        /* per row: a second line (text) / last column (markdown), or NULL */
	size_t nrows, cap;
};

struct bp_doc {
	struct bp_section *sections;
	size_t nsections;
};

void bp_doc_build(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o);
void bp_doc_release(struct bp_doc *d);

#endif
