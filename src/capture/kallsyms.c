// SPDX-License-Identifier: GPL-2.0
/*
 * Which lines of /proc/kallsyms a recording keeps (see kallsyms.h): read
 * once when the recording is saved, which is long after most initcalls
 * ran, so only what is still true then is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/kallsyms.h"
#include "util/error.h"
#include "util/xalloc.h"

struct line {
	uint64_t addr;
	size_t start, len; /* in the text, without the '\n' */
	int keep;
};

static int by_addr(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The kernel image's symbol lines of text: no module tag, a non-zero address. */
static struct line *image_lines(const char *text, size_t len, size_t *n)
{
	struct line *lines = NULL;
	size_t cap = 0, pos = 0;

	*n = 0;
	while (pos < len) {
		const char *s = text + pos, *eol = memchr(s, '\n', len - pos);
		size_t l = eol ? (size_t)(eol - s) : len - pos;
		char *end;
		uint64_t addr = strtoull(s, &end, 16);

		if (addr && end > s && end - s <= (ptrdiff_t)l && !memchr(s, '[', l)) {
			BP_GROW(lines, *n + 1, cap);
			lines[*n].addr = addr;
			lines[*n].start = pos;
			lines[*n].len = l;
			lines[*n].keep = 0;
			(*n)++;
		}
		pos += l + 1;
	}
	if (*n)
		qsort(lines, *n, sizeof(*lines), by_addr);
	return lines;
}

char *bp_kallsyms_keep(const char *text, size_t len, const uint64_t *addrs, size_t naddrs,
		       size_t *out_len)
{
	size_t n, i, j, olen = 0, ocap = 0;
	struct line *lines = image_lines(text, len, &n);
	char *out = NULL;

	for (i = 0; i < naddrs; i++) {
		size_t lo = 0, hi = n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (lines[mid].addr <= addrs[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		/* No symbol at or below it, or none above to bound it. */
		if (!lo || lo == n)
			continue;
		for (j = lo; j > 0 && lines[j - 1].addr == lines[lo - 1].addr; j--)
			lines[j - 1].keep = 1;
		for (j = lo; j < n && lines[j].addr == lines[lo].addr; j++)
			lines[j].keep = 1;
	}
	for (i = 0; i < n; i++) {
		if (!lines[i].keep)
			continue;
		BP_GROW(out, olen + lines[i].len + 2, ocap);
		memcpy(out + olen, text + lines[i].start, lines[i].len);
		olen += lines[i].len;
		out[olen++] = '\n';
		out[olen] = '\0';
	}
	free(lines);
	*out_len = olen;
	return out;
}

char *bp_kallsyms_read(size_t *len)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t cap = 0, n;
	char *buf = NULL;

	*len = 0;
	if (!f) {
		bp_set_error_errno("cannot open '/proc/kallsyms'");
		return NULL;
	}
	do {
		BP_GROW(buf, *len + 65536 + 1, cap);
		n = fread(buf + *len, 1, 65536, f);
		*len += n;
	} while (n == 65536);
	buf[*len] = '\0';
	if (ferror(f)) {
		bp_set_error_errno("cannot read '/proc/kallsyms'");
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}
