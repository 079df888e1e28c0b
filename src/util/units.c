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
