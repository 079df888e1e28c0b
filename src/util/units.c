// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

/* n * 10 + digit, or -1 past 2^64. */
static int add_digit(uint64_t *n, char digit)
{
	uint64_t d = (uint64_t)(digit - '0');

	if (*n > (UINT64_MAX - d) / 10)
		return -1;
	*n = *n * 10 + d;
	return 0;
}

/* A decimal number: its whole part, and the digits after the point. */
struct decimal {
	uint64_t whole;
	const char *frac;
	size_t nfrac;
};

/* The number at the start of @s; *rest is what follows it. */
static int scan_decimal(const char *s, struct decimal *d, const char **rest)
{
	const char *p = s;

	d->whole = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (add_digit(&d->whole, *p))
			return -1;
	}
	d->frac = NULL;
	d->nfrac = 0;
	if (*p == '.') {
		d->frac = ++p;
		for (; *p >= '0' && *p <= '9'; p++)
			d->nfrac++;
	}
	if (p == s || (p == s + 1 && *s == '.'))
		return -1;
	*rest = p;
	return 0;
}

/*
 * @d times @unit, exact: the fraction's share of the unit is worked out
 * from its last digit back (floor((a + floor(b)) / 10) is floor((a + b) /
 * 10)), so 0.5K is 512 and 0.0000000019 s is 1 ns.
 */
static int scale(const struct decimal *d, uint64_t unit, uint64_t *out)
{
	uint64_t frac = 0;
	size_t i;

	for (i = d->nfrac; i > 0; i--)
		frac = ((uint64_t)(d->frac[i - 1] - '0') * unit + frac) / 10;
	if (d->whole > (UINT64_MAX - frac) / unit)
		return -1;
	*out = d->whole * unit + frac;
	return 0;
}

struct unit {
	const char *suffix;
	uint64_t size;
};

/* A number followed by one of @units' suffixes (exactly). */
static int parse_with_units(const char *s, const struct unit *units, size_t n, uint64_t *out)
{
	struct decimal d;
	const char *rest;
	size_t i;

	if (scan_decimal(s, &d, &rest))
		return -1;
	for (i = 0; i < n; i++) {
		if (!strcmp(rest, units[i].suffix))
			return scale(&d, units[i].size, out);
	}
	return -1;
}

int bp_parse_time(const char *s, uint64_t *ns)
{
	static const struct unit units[] = {
		{ "", BP_NS_PER_S },	    { "s", BP_NS_PER_S },	{ "ms", BP_NS_PER_MS },
		{ "us", UINT64_C(1000) },   { "ns", 1 },		{ "min", 60 * BP_NS_PER_S },
		{ "m", 60 * BP_NS_PER_S },  { "h", 3600 * BP_NS_PER_S },
	};

	return parse_with_units(s, units, sizeof(units) / sizeof(units[0]), ns);
}

int bp_parse_size(const char *s, uint64_t *bytes)
{
	static const struct unit units[] = {
		{ "", 1 },		  { "B", 1 },
		{ "k", 1ull << 10 },	  { "kB", 1ull << 10 },   { "kiB", 1ull << 10 },
		{ "K", 1ull << 10 },	  { "KB", 1ull << 10 },   { "KiB", 1ull << 10 },
		{ "M", 1ull << 20 },	  { "MB", 1ull << 20 },   { "MiB", 1ull << 20 },
		{ "G", 1ull << 30 },	  { "GB", 1ull << 30 },   { "GiB", 1ull << 30 },
		{ "T", 1ull << 40 },	  { "TB", 1ull << 40 },   { "TiB", 1ull << 40 },
	};

	return parse_with_units(s, units, sizeof(units) / sizeof(units[0]), bytes);
}

int bp_parse_percent(const char *s, uint64_t *milli)
{
	static const struct unit percent = { "%", 1000 };

	return parse_with_units(s, &percent, 1, milli) || *milli > 100000 ? -1 : 0;
}

int bp_parse_count(const char *s, uint64_t max, uint64_t *n)
{
	uint64_t v = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (add_digit(&v, *p))
			return -1;
	}
	if (p == s || *p || v > max)
		return -1;
	*n = v;
	return 0;
}

int bp_parse_instant(const char *s, uint64_t *ns, int *relative)
{
	*relative = *s == '+';
	return bp_parse_time(s + *relative, ns);
}
