// SPDX-License-Identifier: GPL-2.0
/* Strings as escaped words (see words.h). */
#include <stdio.h>
#include <string.h>

#include "util/words.h"

size_t bp_word_escape(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = 0;

	if (!len)
		return 0;
	if (!*p)
		return (size_t)snprintf(buf, len, "%s", len > 2 ? "\\e" : "");
	for (; *p; p++) {
		char one[5];

		switch (*p) {
		case '\\':
			strcpy(one, "\\\\");
			break;
		case ' ':
			strcpy(one, "\\s");
			break;
		case '\n':
			strcpy(one, "\\n");
			break;
		case '\t':
			strcpy(one, "\\t");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				snprintf(one, sizeof(one), "\\x%02x", *p);
			else
				one[0] = (char)*p, one[1] = 0;
		}
		if (n + strlen(one) >= len)
			break;
		memcpy(buf + n, one, strlen(one));
		n += strlen(one);
	}
	buf[n] = 0;
	return n;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int bp_word_unescape(char *w)
{
	char *in = w, *out = w;

	if (!strcmp(w, "\\e")) {
		*w = 0;
		return 0;
	}
	while (*in) {
		if (*in != '\\') {
			*out++ = *in++;
			continue;
		}
		in++;
		switch (*in) {
		case '\\':
			*out++ = '\\';
			break;
		case 's':
			*out++ = ' ';
			break;
		case 'n':
			*out++ = '\n';
			break;
		case 't':
			*out++ = '\t';
			break;
		case 'x': {
			int hi = hexval(in[1]), lo = hi < 0 ? -1 : hexval(in[2]);

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return -1;
			*out++ = (char)(hi << 4 | lo);
			in += 2;
			break;
		}
		default:
			return -1;
		}
		in++;
	}
	*out = 0;
	return 0;
}
