// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/printable.h"
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
	char *shown;
	const char *p;

	if (!s)
		return;
	/* Control characters (newlines too) become \xNN text: one record per line. */
	shown = bp_printable_dup(s);
	if (!strpbrk(shown, ",\"")) {
		fputs(shown, out);
		free(shown);
		return;
	}
	fputc('"', out);
	for (p = shown; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
	free(shown);
}
