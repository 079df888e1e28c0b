// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "util/unit.h"

static int has_suffix(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len > n && !memcmp(s + len - n, suf, n);
}

int bp_unit_of_cgroup(const char *path, char *buf, size_t len)
{
	static const char *const sufs[] = { ".service", ".scope", ".socket", ".mount", ".swap",
					    ".device", ".timer", ".target", NULL };
	const char *best = NULL, *slice = NULL, *p = path;
	size_t best_len = 0, slice_len = 0, k;

	while (p && *p) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		for (k = 0; n && sufs[k]; k++) {
			if (has_suffix(p, n, sufs[k])) {
				best = p;
				best_len = n;
			}
		}
		if (n && has_suffix(p, n, ".slice")) {
			slice = p;
			slice_len = n;
		}
		p += n;
	}
	if (!best) {
		best = slice;
		best_len = slice_len;
	}
	if (!best || best_len >= len)
		return -1;
	memcpy(buf, best, best_len);
	buf[best_len] = 0;
	return 0;
}
