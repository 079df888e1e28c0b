/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_CRITICAL_H
#define BP_VIEWS_CRITICAL_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/critical.h"

/*
 * bootprof critical: a critical path (analysis/critical.h) as text,
 * Markdown or JSON. Each writes to out and return 0; the path is not changed.
 */
struct bp_critical_opts {
	const char *file;     /* the recording's name, shown in the header */
	size_t top;           /* rows of the files and waits lists; 0: all (segments: all) */
	size_t width;         /* text: columns per line (0: 100) */
};

int bp_view_critical_text(FILE *out, const struct bp_critical_path *p,
			  const struct bp_critical_opts *o);
int bp_view_critical_markdown(FILE *out, const struct bp_critical_path *p,
			      const struct bp_critical_opts *o);
int bp_view_critical_json(FILE *out, const struct bp_critical_path *p,
			  const struct bp_critical_opts *o);

/*
 * bp_view_critical_compare() - two paths side by side (diff --critical):
 * @format "text", "markdown" or "json"; @top rows per list, 0 all.
 */
int bp_view_critical_compare(FILE *out, const char *format, const struct bp_critical_path *b,
			     const char *bfile, const struct bp_critical_path *a, const char *afile,
			     size_t top);

#endif
