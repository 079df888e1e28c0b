/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_UNITS_H
#define BP_UTIL_UNITS_H

#include <stdint.h>

/*
 * Human units for text views (report, top) and plugin lines: deterministic, locale-free.
 * Each writes into buf (BP_FMT_LEN is always enough) and returns buf.
 */
#define BP_FMT_LEN 32

#define BP_NS_PER_S UINT64_C(1000000000)
#define BP_NS_PER_MS UINT64_C(1000000)

/* 0 B, 512 B, 4.0 KiB, 9.9 MiB, 1.25 GiB */
char *bp_fmt_bytes(char *buf, uint64_t bytes);
/* 0 ms, 0.4 ms, 12.3 ms, 1.25 s, 75.0 s */
char *bp_fmt_ns(char *buf, uint64_t ns);
/* Seconds with milliseconds, for timestamps: 5791.665 */
char *bp_fmt_ts(char *buf, uint64_t ns);
/* part / whole as a percentage with one decimal ("-" when whole is 0) */
char *bp_fmt_pct(char *buf, uint64_t part, uint64_t whole);

/* Seconds with as many decimals as they need, for messages: 0.5, 1, 837.812345 */
char *bp_fmt_secs(char *buf, uint64_t ns);

/*
 * One parser per unit kind: every option, budget line and kernel
 * command-line word that takes a time, a size, a share or a count reads it
 * with these, so "1min", "64k" or "10%" mean the same everywhere. Numbers
 * are decimal ("1.5", ".5"), never negative, exact to the unit's last
 * digit (digits past a ns or a byte are dropped), and a value past 2^64 is
 * refused rather than wrapped. Each returns 0, or -1 on anything else.
 */

/**
 * bp_parse_time() - a time: a number and a unit
 * @s: "1.5" (seconds), "300ms", "20us", "100ns", "2s", "1min" (or "1m",
 *     as systemd and budget files write it), "1h"
 * @ns: set to the time in ns
 */
int bp_parse_time(const char *s, uint64_t *ns);

/**
 * bp_parse_size() - a size in bytes
 * @s: "4096" or "4096B" (bytes), "64k", "64K", "1.5M", "2G", "1T", each
 *     optionally followed by "B" or "iB" ("10MiB"): powers of 1024.
 *     Lowercase "m" and "g" are refused: "1m" is a time.
 * @bytes: set to the size
 */
int bp_parse_size(const char *s, uint64_t *bytes);

/**
 * bp_parse_percent() - a share
 * @s: "10%", "2.5%": 0 to 100, with the sign
 * @milli: set to thousandths of a percent (2.5% is 2500)
 */
int bp_parse_percent(const char *s, uint64_t *milli);

/**
 * bp_parse_count() - a whole number
 * @s: digits only: "0", "42"
 * @max: the largest value accepted
 * @n: set to the number
 */
int bp_parse_count(const char *s, uint64_t max, uint64_t *n);

/**
 * bp_parse_instant() - an instant, as --since/--until take it
 * @s: "T" (a time, bp_parse_time(), on the recording clock: seconds since
 *     boot, as reports and dmesg print them) or "+T" (after the
 *     recording's first event)
 * @ns: set to the time in ns
 * @relative: set to 1 for "+T", else 0
 */
int bp_parse_instant(const char *s, uint64_t *ns, int *relative);
#endif
