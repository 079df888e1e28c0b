// SPDX-License-Identifier: GPL-2.0
#include "util/printable.h"
#include "util/xml.h"

void bp_xml_put(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	int n;

	while (*p) {
		switch (*p) {
		case '&': fputs("&amp;", out); p++; continue;
		case '<': fputs("&lt;", out); p++; continue;
		case '>': fputs("&gt;", out); p++; continue;
		case '"': fputs("&quot;", out); p++; continue;
		case '\t': fputs("&#9;", out); p++; continue;
		case '\n': fputs("&#10;", out); p++; continue;
		default: break;
		}
		n = *p < 0x20 ? 0 : bp_utf8_len(p);
		if (!n) {
			fputc('?', out);
			p++;
			continue;
		}
		fwrite(p, 1, (size_t)n, out);
		p += n;
	}
}
