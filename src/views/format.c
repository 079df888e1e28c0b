// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "views/format.h"

char *bp_fmt_path(char *buf, size_t len, const char *path, size_t width)
{
	size_t n = strlen(path);

	if (width + 1 > len)
		width = len - 1;
	if (n <= width || width < 4) {
		snprintf(buf, len, "%.*s", (int)width, path);
		return buf;
	}
	snprintf(buf, len, "...%s", path + n - (width - 3));
	return buf;
}

void bp_csv_str(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
