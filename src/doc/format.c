// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/format.h"
#include "util/printable.h"

char *bp_fmt_path(char *buf, size_t len, const char *path, size_t width)
{
	size_t n = strlen(path), head = 0, tail;
	const char *t;

	if (width + 1 > len)
		width = len - 1;
	if (n <= width || width < 8) {
		snprintf(buf, len, "%.*s", (int)width, path);
		return buf;
	}
	/* The first directory ("/usr"), when it leaves room for the file name. */
	if (path[0] == '/') {
		t = strchr(path + 1, '/');
		head = t ? (size_t)(t - path) : 0;
		if (head + 6 > width)
			head = 0;
	}
	/* The longest tail of whole components that fits after head + "/...". */
	for (;;) {
		size_t room = width - (head ? head + 4 : 3);

		for (t = path + n - room; t < path + n && *t != '/'; t++)
			;
		tail = (size_t)(path + n - t);
		if (tail && head + 4 + tail <= width + (head ? 0 : 1))
			break;
		if (!head)
			break;
		head = 0;    /* no room for both: keep the end */
	}
	if (!tail) {
		/* Not even the file name fits: its end (the extension) stays. */
		snprintf(buf, len, "...%s", path + n - (width - 3));
		return buf;
	}
	snprintf(buf, len, "%.*s%s%s", (int)head, path, head ? "/..." : "...", path + n - tail);
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

void bp_md_str(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}
