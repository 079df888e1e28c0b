/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_BRIEF_H
#define BP_VIEWS_BRIEF_H

#include <stddef.h>

/**
 * bp_brief_words() - space-separated words in one line of @room columns
 * @s: the words (a kernel command line, a list of names)
 * @room: columns for them
 * @lists: shorten long comma-separated values (a command line's
 *         "trace_instance=bootprof (58 events)")
 *
 * Whole words only, in their order, each that still fits, then "(+N
 * more)" for those left out; the first word is always kept, even when
 * longer than @room.
 * Return: a new string; the caller frees it.
 */
char *bp_brief_words(const char *s, size_t room, int lists);

#endif
