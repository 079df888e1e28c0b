// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/printable.h"
#include "util/xalloc.h"

int bp_utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;    /* overlong, surrogate, beyond U+10FFFF */
	return n;
}

/*
 * The characters at p, printable: *n gets the bytes consumed; returns the
 * bytes to write (p itself, or esc filled with "\xNN").
 */
static const char *next(const unsigned char *p, size_t *n, size_t *outlen, char esc[5])
{
	int len = bp_utf8_len(p);
	unsigned char bad = 0;

	if (!len || *p < 0x20 || *p == 0x7f)
		bad = *p;
	else if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		bad = p[1];     /* C1 controls (U+0080-U+009F): CSI is U+009B */
	if (bad) {
		snprintf(esc, 5, "\\x%02x", bad);
		*n = len == 2 && p[0] == 0xc2 ? 2 : 1;
		*outlen = 4;
		return esc;
	}
	*n = (size_t)len;
	*outlen = (size_t)len;
	return (const char *)p;
}

int bp_is_printable(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[5];
	size_t n, len;

	while (p && *p) {
		if (next(p, &n, &len, esc) == esc)
			return 0;
		p += n;
	}
	return 1;
}

char *bp_printable(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0, n, w;
	char esc[5];

	if (!len)
		return buf;
	while (p && *p) {
		const char *out;

		/* Printable ASCII, most of what is shown: as it is. */
		if (*p >= 0x20 && *p < 0x7f) {
			if (used + 1 >= len)
				break;
			buf[used++] = (char)*p++;
			continue;
		}
		out = next(p, &n, &w, esc);

		if (used + w >= len)
			break;
		memcpy(buf + used, out, w);
		used += w;
		p += n;
	}
	buf[used] = 0;
	return buf;
}

char *bp_printable_dup(const char *s)
{
	size_t len;
	char *buf;

	if (!s)
		return NULL;
	if (bp_is_printable(s))
		return xstrdup(s);
	len = strlen(s) * 4 + 1;
	buf = xmalloc(len);
	return bp_printable(buf, len, s);
}

void bp_printable_put(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, w;
	char esc[5];

	while (p && *p) {
		const char *o = next(p, &n, &w, esc);

		fwrite(o, 1, w, out);
		p += n;
	}
}

int bp_fprintf_printable(FILE *out, const char *fmt, ...)
{
	char stack[1024], *buf = stack;
	va_list ap;
	int n, nl;

	va_start(ap, fmt);
	n = vsnprintf(stack, sizeof(stack), fmt, ap);
	va_end(ap);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(stack)) {
		buf = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	nl = n && buf[n - 1] == '\n';
	if (nl)
		buf[n - 1] = 0;
	bp_printable_put(out, buf);
	if (nl)
		fputc('\n', out);
	if (buf != stack)
		free(buf);
	return ferror(out) ? -1 : n;
}
