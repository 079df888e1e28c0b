// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "views/format.h"

char *bp_fmt_bytes(char *buf, uint64_t bytes)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = -1;

	if (bytes < 1024) {
		snprintf(buf, BP_FMT_LEN, "%" PRIu64 " B", bytes);
		return buf;
	}
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, BP_FMT_LEN, v < 100 ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

char *bp_fmt_ns(char *buf, uint64_t ns)
{
	if (!ns)
		snprintf(buf, BP_FMT_LEN, "0 ms");
	else if (ns < 1000000000ull)
		snprintf(buf, BP_FMT_LEN, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, BP_FMT_LEN, "%.2f s", (double)ns / 1e9);
	return buf;
}

char *bp_fmt_ts(char *buf, uint64_t ns)
{
	snprintf(buf, BP_FMT_LEN, "%" PRIu64 ".%03" PRIu64, ns / UINT64_C(1000000000),
		 ns / UINT64_C(1000000) % 1000);
	return buf;
}

char *bp_fmt_pct(char *buf, uint64_t part, uint64_t whole)
{
	if (!whole)
		snprintf(buf, BP_FMT_LEN, "-");
	else
		snprintf(buf, BP_FMT_LEN, "%.1f%%", (double)part * 100.0 / (double)whole);
	return buf;
}

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

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
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

/* Paths are bytes: a byte that is not UTF-8 becomes U+FFFD, so the JSON stays valid. */
void bp_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*p) {
		int n = utf8_len(p);

		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (!n)
			fputs("\\ufffd", out);
		else
			fwrite(p, 1, (size_t)n, out);
		p += n ? n : 1;
	}
	fputc('"', out);
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
