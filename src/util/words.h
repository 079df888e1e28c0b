/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_WORDS_H
#define BP_UTIL_WORDS_H

#include <stddef.h>

/*
 * Strings carried as space-separated words (the recording's metadata, the
 * argument markers): a word never holds a space, newline or backslash.
 * "\\" is a backslash, "\s" a space, "\n" a newline, "\t" a tab, "\xHH"
 * any other control byte, and "\e" alone the empty string.
 */

/* The escaped form of @s into @buf of @len bytes (cut at an escape when it does not fit). */
size_t bp_word_escape(char *buf, size_t len, const char *s);

/* The longest escaped form of a string of @n bytes, with its NUL. */
#define BP_WORD_MAX(n) (4 * (n) + 3)

/* Unescape @w in place; -1 on a bad escape or an embedded NUL. */
int bp_word_unescape(char *w);

#endif
