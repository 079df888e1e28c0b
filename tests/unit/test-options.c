// SPDX-License-Identifier: GPL-2.0
/*
 * util/units parsers and util/parse-options-cb callbacks: one parser per
 * unit kind, the option types on them, and the window --since/--until
 * name on a recording (analysis/focus).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/focus.h"
#include "analysis/model.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/units.h"

#define S(x) ((uint64_t)(x) * BP_NS_PER_S)

/* Each case: the text, 0 or -1, and the value when 0. */
struct num_case {
	const char *text;
	int ret;
	uint64_t value;
};

static void run_cases(int (*parse)(const char *, uint64_t *), const struct num_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 0;
		int ret = parse(c[i].text, &v);

		if (ret != c[i].ret || (!ret && v != c[i].value))
			fail_msg("'%s': got %d, %llu; want %d, %llu", c[i].text, ret,
				 (unsigned long long)v, c[i].ret, (unsigned long long)c[i].value);
	}
}

static void test_time(void **state)
{
	static const struct num_case c[] = {
		{ "2", 0, S(2) },		{ "1.5s", 0, 1500000000 },	{ "20ms", 0, 20000000 },
		{ "500us", 0, 500000 },		{ "7ns", 0, 7 },		{ "0.000001", 0, 1000 },
		{ ".5", 0, 500000000 },		{ "1min", 0, S(60) },		{ "1m", 0, S(60) },
		{ "1.5min", 0, S(90) },		{ "1h", 0, S(3600) },		{ "0.25h", 0, S(900) },
		/* Exact to the ns: digits past it are dropped, not rounded. */
		{ "0.0000000019", 0, 1 },	{ "1.0000000019s", 0, 1000000001 },
		{ "18446744073709551615ns", 0, UINT64_MAX },
		{ "18446744073", 0, 18446744073000000000ull },
		/* Past 2^64 ns: refused, never wrapped. */
		{ "18446744074", -1, 0 },	{ "18446744073.9s", -1, 0 },
		{ "5124096h", -1, 0 },		{ "99999999999999999999", -1, 0 },
		{ "", -1, 0 },			{ "ms", -1, 0 },		{ ".", -1, 0 },
		{ "1.5q", -1, 0 },		{ "-1", -1, 0 },		{ "+1", -1, 0 },
		{ "1 s", -1, 0 },		{ "1sec", -1, 0 },		{ "1M", -1, 0 },
	};

	(void)state;
	run_cases(bp_parse_time, c, sizeof(c) / sizeof(c[0]));
}

static void test_size(void **state)
{
	static const struct num_case c[] = {
		{ "4096", 0, 4096 },		{ "4096B", 0, 4096 },		{ "64k", 0, 65536 },
		{ "64K", 0, 65536 },		{ "64KiB", 0, 65536 },		{ "64kB", 0, 65536 },
		{ "1.5M", 0, 1572864 },		{ "10MiB", 0, 10485760 },	{ "2G", 0, 2ull << 30 },
		{ "1.5GiB", 0, 3ull << 29 },	{ "1T", 0, 1ull << 40 },	{ "0.5K", 0, 512 },
		{ "0", 0, 0 },
		{ "17179869184G", -1, 0 },	{ "k", -1, 0 },			{ "12x", -1, 0 },
		{ "", -1, 0 },			{ "1m", -1, 0 },		{ "1g", -1, 0 },
		{ "-1", -1, 0 },		{ "1 M", -1, 0 },		{ "1MiBs", -1, 0 },
	};

	(void)state;
	run_cases(bp_parse_size, c, sizeof(c) / sizeof(c[0]));
}

static int percent(const char *s, uint64_t *v)
{
	return bp_parse_percent(s, v);
}

static int count(const char *s, uint64_t *v)
{
	return bp_parse_count(s, 1000, v);
}

static void test_percent_count(void **state)
{
	static const struct num_case p[] = {
		{ "10%", 0, 10000 },	{ "2.5%", 0, 2500 }, { "100%", 0, 100000 },
		{ "0%", 0, 0 },		{ "200%", -1, 0 },   { "10", -1, 0 },
		{ "%", -1, 0 },		{ "-1%", -1, 0 },
	};
	static const struct num_case n[] = {
		{ "0", 0, 0 },	 { "1000", 0, 1000 }, { "1001", -1, 0 }, { "1.5", -1, 0 },
		{ "", -1, 0 },	 { "-1", -1, 0 },     { "+1", -1, 0 },	 { "1k", -1, 0 },
		{ "99999999999999999999", -1, 0 },
	};

	(void)state;
	run_cases(percent, p, sizeof(p) / sizeof(p[0]));
	run_cases(count, n, sizeof(n) / sizeof(n[0]));
}

/* --since/--until values: T or +T, exact to the ns; seconds for messages. */
static void test_instant(void **state)
{
	char b[BP_FMT_LEN];
	uint64_t ns;
	int rel;

	(void)state;
	assert_int_equal(bp_parse_instant("12.5", &ns, &rel), 0);
	assert_true(ns == 12500000000ull && !rel);
	assert_int_equal(bp_parse_instant("+0.001", &ns, &rel), 0);
	assert_true(ns == 1000000ull && rel);
	assert_int_equal(bp_parse_instant("+.5", &ns, &rel), 0);
	assert_true(ns == 500000000ull && rel);
	assert_int_equal(bp_parse_instant("+1min", &ns, &rel), 0);
	assert_true(ns == S(60) && rel);
	assert_int_equal(bp_parse_instant("866.7", &ns, &rel), 0);
	assert_true(ns == 866700000000ull && !rel);
	assert_int_equal(bp_parse_instant("+", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("++1", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("-1", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("1.x", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("+18446744073.9", &ns, &rel), -1);
	assert_string_equal(bp_fmt_secs(b, 500000000ull), "0.5");
	assert_string_equal(bp_fmt_secs(b, 1000000000ull), "1");
	assert_string_equal(bp_fmt_secs(b, 837812345678ull), "837.812345678");
	assert_string_equal(bp_fmt_secs(b, 0), "0");
}

/* The option types, through a table as a command has one. */
struct values {
	uint64_t wait, delay, bytes;
	int n;
	const char *format;
	struct bp_window_arg win;
};

static int parse(struct values *v, const char *a1, const char *a2)
{
	const struct bp_option options[] = {
		OPT_TIME(0, "min-wait", &v->wait, "T", "a time"),
		OPT_TIME_RANGE(0, "delay", &v->delay, "T", "a time in a range", 100 * BP_NS_PER_MS,
			       3600 * BP_NS_PER_S),
		OPT_SIZE(0, "min-bytes", &v->bytes, "SIZE", "a size"),
		OPT_INT('n', "top", &v->n, "N", "a number", 0, 100),
		OPT_FORMAT(&v->format, "text json csv", "a format"),
		OPT_SINCE(&v->win),
		OPT_UNTIL(&v->win),
		OPT_END(),
	};
	static const char *const synopsis[] = { "test [options]", NULL };
	const struct bp_usage usage = { "test", synopsis, NULL, NULL, NULL };
	char *argv[] = { (char *)"test", (char *)a1, (char *)a2, NULL };
	int status = 0;

	memset(v, 0, sizeof(*v));
	/* Usage errors go to stderr; only the status is looked at here. */
	if (bp_parse_options(a2 ? 3 : 2, argv, options, &usage, 0, &status) < 0)
		return status;
	return 0;
}

static void test_callbacks(void **state)
{
	struct values v;

	(void)state;
	assert_int_equal(parse(&v, "--min-wait=1min", NULL), 0);
	assert_true(v.wait == S(60));
	assert_int_equal(parse(&v, "--min-wait", "20ms"), 0);
	assert_true(v.wait == 20000000);
	assert_int_equal(parse(&v, "--min-wait=1x", NULL), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "--delay=500ms", NULL), 0);
	assert_true(v.delay == 500000000);
	assert_int_equal(parse(&v, "--delay=10ms", NULL), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "--delay=2h", NULL), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "--min-bytes=64k", NULL), 0);
	assert_true(v.bytes == 65536);
	assert_int_equal(parse(&v, "--min-bytes=1m", NULL), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "-n7", NULL), 0);
	assert_int_equal(v.n, 7);
	assert_int_equal(parse(&v, "-n", "101"), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "-n", "-1"), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "--format=json", NULL), 0);
	assert_string_equal(v.format, "json");
	assert_int_equal(parse(&v, "-f", "jso"), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "--format=", NULL), BP_EXIT_USAGE);
	assert_int_equal(parse(&v, "--since=+2", "--until=1h"), 0);
	assert_true(v.win.since.set && v.win.since.relative && v.win.since.ns == S(2));
	assert_true(v.win.until.set && !v.win.until.relative && v.win.until.ns == S(3600));
	assert_int_equal(parse(&v, "--since=-1", NULL), BP_EXIT_USAGE);
}

static void test_window_arg(void **state)
{
	struct bp_window_arg a = { 0 };
	struct bp_window w;

	(void)state;
	/* Both on one clock: an end not after the start is known at once. */
	a.since = (struct bp_instant){ S(5), 0, 1 };
	a.until = (struct bp_instant){ S(4), 0, 1 };
	assert_int_equal(bp_window_arg_check(&a), -1);
	a.until.ns = S(5);
	assert_int_equal(bp_window_arg_check(&a), -1);
	a.until.ns = S(6);
	assert_int_equal(bp_window_arg_check(&a), 0);
	/* One of each: only on the recording. */
	a.until = (struct bp_instant){ S(1), 1, 1 };
	assert_int_equal(bp_window_arg_check(&a), 0);
	assert_int_equal(bp_focus_window_resolve(&a, S(866), &w), 0);
	assert_true(w.since_ns == S(5) && w.until_ns == S(867));
	assert_int_equal(bp_focus_window_resolve(&a, S(2), &w), -1);
	/* A plain number is the recording clock; +T counts from the first event. */
	a = (struct bp_window_arg){ { S(1), 1, 1 }, { 0, 0, 0 } };
	assert_int_equal(bp_focus_window_resolve(&a, 866700000000ull, &w), 0);
	assert_true(w.since_ns == 867700000000ull && !w.until_ns);
	a.since.relative = 0;
	assert_int_equal(bp_focus_window_resolve(&a, 866700000000ull, &w), 0);
	assert_true(w.since_ns == S(1));
	a.since = (struct bp_instant){ UINT64_MAX - 1, 1, 1 };
	assert_int_equal(bp_focus_window_resolve(&a, S(1), &w), -1);
}

/* A model that only knows the recording's span and whether the window held events. */
static void fake_model(struct bp_model *m, uint64_t first, uint64_t last, uint64_t events)
{
	memset(m, 0, sizeof(*m));
	m->header.first_event_ns = first;
	m->header.last_event_ns = last;
	m->totals.events = events;
	m->totals.events_total = 100;
}

#define FIRST 866700000000ull
#define LAST 871730995051ull

/* A window, and what is said of it: NULL for nothing. */
struct window_case {
	uint64_t since, until;
	const char *said;
};

static void test_window_check(void **state)
{
	static const struct window_case c[] = {
		{ 200000000, 300000000,
		  "window 0.200-0.300 s is outside the recording (866.700-871.730 s)" },
		/* An open end is the recording's, never "0". */
		{ S(2000), 0, "window from 2000.000 s is outside the recording (866.700-871.730 s)" },
		{ 0, 300000000, "window until 0.300 s is outside the recording (866.700-871.730 s)" },
		/* Inside, but between events. */
		{ S(868), S(869),
		  "window 868.000-869.000 s holds no event of the recording (866.700-871.730 s)" },
		/* Bounds a microsecond apart: the decimals that tell them apart. */
		{ LAST + 1000, 0,
		  "window from 871.730996 s is outside the recording (866.700000-871.730995 s)" },
		/* No window: nothing to say, even without events. */
		{ 0, 0, NULL },
	};
	struct bp_model m;
	size_t i;

	(void)state;
	fake_model(&m, FIRST, LAST, 0);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct bp_window w = { c[i].since, c[i].until, 0, 0 };
		int ret = bp_focus_window_check(&m, &w);

		assert_int_equal(ret, c[i].said ? -1 : 0);
		if (c[i].said)
			assert_string_equal(bp_last_error(), c[i].said);
	}
	/* Events in the window: nothing to say. */
	fake_model(&m, FIRST, LAST, 5);
	assert_int_equal(bp_focus_window_check(&m, &(struct bp_window){ S(2000), 0, 0, 0 }), 0);
}

static void test_window_note(void **state)
{
	static const struct window_case c[] = {
		{ 0, 0, NULL },
		{ S(867), S(868), NULL },
		/* report --since 0.2 on a recording that starts at 866.7 s. */
		{ 200000000, 0,
		  "window 0.200-871.730 s starts before the recording's first event (866.700 s)" },
		{ S(868), S(900),
		  "window 868.000-900.000 s ends after the recording's last event (871.730 s)" },
		{ S(1), S(900), "window 1.000-900.000 s is wider than the recording (866.700-871.730 s)" },
		/* Outside altogether: the error says so, not a warning. */
		{ S(1), S(2), NULL },
	};
	const struct bp_window rec = { FIRST, LAST, 0, 0 };
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct bp_window w = { c[i].since, c[i].until, 0, 0 };
		const char *said = bp_focus_window_note(&w, &rec, buf, sizeof(buf));

		if (c[i].said)
			assert_string_equal(said, c[i].said);
		else
			assert_null(said);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_percent_count),
		cmocka_unit_test(test_instant),
		cmocka_unit_test(test_callbacks),
		cmocka_unit_test(test_window_arg),
		cmocka_unit_test(test_window_check),
		cmocka_unit_test(test_window_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
