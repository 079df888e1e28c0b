/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_DOC_FORMAT_H
#define BP_DOC_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/json.h"      /* bp_json_str(), for the views that quote */
#include "util/units.h"     /* bp_fmt_bytes() ... */

/*
 * Shorten a path to at most width columns in the middle, keeping its first
 * directory and as many of its last components as fit, file name first:
 * "/usr/.../python3.11/re/_casefix.py". Writes into buf of size len.
 */
char *bp_fmt_path(char *buf, size_t len, const char *path, size_t width);

/* Write s as a CSV field (quoted when it holds a comma, quote or newline). */
void bp_csv_str(FILE *out, const char *s);
/* Write s as the text of a Markdown table cell: '|' escaped, newlines flattened. */
void bp_md_str(FILE *out, const char *s);

#endif
