/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_UNITS_H
#define BP_UTIL_UNITS_H

#include <stdint.h>

/*
 * Human units for text views (report, top) and plugin lines: deterministic, locale-free.
 * Each writes into buf (BP_FMT_LEN is always enough) and returns buf.
 */
#define BP_FMT_LEN 32

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

/**
 * bp_parse_instant() - an instant given in seconds, as --since/--until take it
 * @s: "S" (seconds on the recording clock: 12, 12.5, 0.000001) or "+S"
 *     (seconds after the recording's first event)
 * @ns: set to the seconds in ns, exactly (digits past the ns are dropped)
 * @relative: set to 1 for "+S", else 0
 *
 * Return: 0, or -1 on anything else.
 */
int bp_parse_instant(const char *s, uint64_t *ns, int *relative);
#endif
