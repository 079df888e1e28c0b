/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_PRINTABLE_H
#define BP_UTIL_PRINTABLE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Text from a recording (paths, comm, command lines, the hostname) is
 * untrusted: a file named "\x1b]0;pwned\x07\x1b[2J" must not retitle or
 * clear the terminal a report is read in. Every text output writes such
 * strings through these: control characters (C0, DEL, C1) and bytes that
 * are not UTF-8 become the four characters \xNN; everything else is kept.
 * (JSON escapes per RFC 8259 instead: util/json.h.)
 */

/* Length of the valid UTF-8 sequence at @s (1-4), or 0 when it is not one. */
int bp_utf8_len(const unsigned char *s);

/* 1 when @s holds nothing that bp_printable() would change. */
int bp_is_printable(const char *s);

/* A printable copy of @s (caller frees; xmalloc'd). NULL gives NULL. */
char *bp_printable_dup(const char *s);

/* Write @s printable to @out. */
void bp_printable_put(FILE *out, const char *s);

/*
 * Write @s printable into @buf of @len bytes (cut at a character boundary
 * when it does not fit, always NUL-terminated); returns @buf.
 */
char *bp_printable(char *buf, size_t len, const char *s);

/*
 * printf() for a line that quotes a recording: the whole formatted text is
 * made printable, except a final newline. Returns what fprintf() would.
 */
int bp_fprintf_printable(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
