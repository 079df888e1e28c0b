/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_FORMAT_H
#define BP_VIEWS_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Human units for text views (report, top): deterministic, locale-free.
 * Each writes into buf (BP_FMT_LEN is always enough) and returns buf.
 */
#define BP_FMT_LEN 32

/* 0 B, 512 B, 4.0 KiB, 9.9 MiB, 1.25 GiB */
char *bp_fmt_bytes(char *buf, uint64_t bytes);
/* 0 ms, 0.4 ms, 12.3 ms, 1.25 s, 75.0 s */
char *bp_fmt_ns(char *buf, uint64_t ns);
/* Seconds with milliseconds, for timestamps: 5791.665 */
char *bp_fmt_ts(char *buf, uint64_t ns);
/* part / whole as a percentage with one decimal ("-" when whole is 0) */
char *bp_fmt_pct(char *buf, uint64_t part, uint64_t whole);

/*
 * Shorten a path to at most width columns by replacing its beginning
 * with "...", keeping the file name. Writes into buf of size len.
 */
char *bp_fmt_path(char *buf, size_t len, const char *path, size_t width);

/* Write s as a JSON string literal (quoted, escaped); NULL writes null. */
void bp_json_str(FILE *out, const char *s);
/* Write s as a CSV field (quoted when it holds a comma, quote or newline). */
void bp_csv_str(FILE *out, const char *s);
/* Write s as the text of a Markdown table cell: '|' escaped, newlines flattened. */
void bp_md_str(FILE *out, const char *s);

#endif
