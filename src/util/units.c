// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>

#include "util/units.h"

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

char *bp_fmt_secs(char *buf, uint64_t ns)
{
	size_t n = (size_t)snprintf(buf, BP_FMT_LEN, "%" PRIu64 ".%09" PRIu64, ns / (uint64_t)1000000000,
				    ns % (uint64_t)1000000000);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = 0;
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = 0;
	return buf;
}

int bp_parse_instant(const char *s, uint64_t *ns, int *relative)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ull;
	const char *p, *digits;

	*relative = *s == '+';
	p = digits = s + *relative;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
		}
	}
	if (*p || p == digits || (p == digits + 1 && *digits == '.'))
		return -1;
	/* Past 2^64 ns (584 years) is no instant of a recording, not a wrapped one. */
	if (sec > (UINT64_MAX - frac) / 1000000000ull)
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}
