// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void *check(void *p, size_t size)
{
	if (!p && size) {
		fprintf(stderr, "bootprof: out of memory (%zu bytes)\n", size);
		abort();
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1), size);
}

void *xcalloc(size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		return check(NULL, (size_t)-1);
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1), nmemb * size);
}

void *xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1), size);
}

char *xstrdup(const char *s)
{
	return check(strdup(s), strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n), n + 1);
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return check(NULL, 1);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void *bp_grow(void *arr, size_t elem, size_t n, size_t *cap)
{
	size_t want;

	if (n < *cap)
		return arr;
	want = *cap ? *cap * 2 : 16;
	while (want <= n)
		want *= 2;
	if (want > (size_t)-1 / elem)
		return check(NULL, (size_t)-1);
	arr = xrealloc(arr, want * elem);
	memset((char *)arr + *cap * elem, 0, (want - *cap) * elem);
	*cap = want;
	return arr;
}
