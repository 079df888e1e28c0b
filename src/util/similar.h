/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_SIMILAR_H
#define BP_UTIL_SIMILAR_H
#include <stddef.h>

/*
 * bp_edit_distance() - optimal string alignment distance between a and b
 * (Levenshtein plus swapping two neighbours, so "recrod" is 1 from
 * "record"); strings of 64 bytes or more count as far from everything
 * (SIZE_MAX).
 */
size_t bp_edit_distance(const char *a, const char *b);

/*
 * bp_is_similar() - whether a typo of @typed is this close to a name to
 * suggest it: at most 2 edits, and fewer than half of what was typed.
 */
int bp_is_similar(const char *typed, size_t distance);

#endif
