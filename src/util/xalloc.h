/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_XALLOC_H
#define BP_UTIL_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Allocation that cannot fail: out of memory prints one line and aborts.
 * A profiler that silently drops model state would report wrong numbers.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The va_list form, for functions that take a format themselves. */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grow *arr (of *cap elements of size elem) so that index n fits. */
void *bp_grow(void *arr, size_t elem, size_t n, size_t *cap);
#define BP_GROW(arr, n, cap) ((arr) = bp_grow((arr), sizeof(*(arr)), (n), &(cap)))

#endif
