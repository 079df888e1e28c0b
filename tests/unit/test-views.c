// SPDX-License-Identifier: GPL-2.0
/* views/format: human units, path shortening, JSON and CSV quoting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/printable.h"
#include "views/format.h"

static void test_units(void **state)
{
	char b[BP_FMT_LEN];

	(void)state;
	assert_string_equal(bp_fmt_bytes(b, 0), "0 B");
	assert_string_equal(bp_fmt_bytes(b, 1023), "1023 B");
	assert_string_equal(bp_fmt_bytes(b, 4096), "4.0 KiB");
	assert_string_equal(bp_fmt_bytes(b, 10 * 1048576 + 1), "10.0 MiB");
	assert_string_equal(bp_fmt_bytes(b, 300ull << 30), "300 GiB");
	assert_string_equal(bp_fmt_bytes(b, UINT64_MAX), "16384 PiB");
	assert_string_equal(bp_fmt_ns(b, 0), "0 ms");
	assert_string_equal(bp_fmt_ns(b, 123456), "0.1 ms");
	assert_string_equal(bp_fmt_ns(b, 12345678), "12.3 ms");
	assert_string_equal(bp_fmt_ns(b, 1250000000), "1.25 s");
	assert_string_equal(bp_fmt_ts(b, 5791665815482ull), "5791.665");
	assert_string_equal(bp_fmt_pct(b, 1, 3), "33.3%");
	assert_string_equal(bp_fmt_pct(b, 1, 0), "-");
}

/* --since/--until values: S or +S seconds, exact to the ns; secs for messages. */
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
	assert_int_equal(bp_parse_instant("0.0000000019", &ns, &rel), 0);
	assert_true(ns == 1);
	assert_int_equal(bp_parse_instant("+", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant(".", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("++1", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("-1", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("1.x", &ns, &rel), -1);
	assert_int_equal(bp_parse_instant("99999999999999999999", &ns, &rel), -1);
	assert_string_equal(bp_fmt_secs(b, 500000000ull), "0.5");
	assert_string_equal(bp_fmt_secs(b, 1000000000ull), "1");
	assert_string_equal(bp_fmt_secs(b, 837812345678ull), "837.812345678");
	assert_string_equal(bp_fmt_secs(b, 0), "0");
}

static void test_path(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(bp_fmt_path(b, sizeof(b), "/usr/bin/gdb", 20), "/usr/bin/gdb");
	/* In the middle: the first directory, then whole components, file name last. */
	assert_string_equal(bp_fmt_path(b, sizeof(b), "/usr/lib/x86_64-linux-gnu/libc.so.6", 20),
			    "/usr/.../libc.so.6");
	assert_string_equal(bp_fmt_path(b, sizeof(b),
					"/usr/lib/python3.11/re/__pycache__/_casefix.py", 32),
			    "/usr/.../__pycache__/_casefix.py");
	assert_string_equal(bp_fmt_path(b, sizeof(b), "/usr/lib/x86_64-linux-gnu/libc.so.6", 16),
			    ".../libc.so.6");
	/* A file name longer than the room keeps its end (the extension). */
	assert_string_equal(bp_fmt_path(b, sizeof(b), "/usr/a-very-long-library-name.so", 16),
			    "...brary-name.so");
	assert_string_equal(bp_fmt_path(b, sizeof(b), "/a/very/long/path/name", 10), ".../name");
	assert_int_equal(strlen(bp_fmt_path(b, 8, "/a/very/long/path/name", 100)), 7);
}

static char *capture(void (*fn)(FILE *, const char *), const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	fn(f, s);
	fclose(f);
	return buf;
}

static void test_quoting(void **state)
{
	(void)state;
	assert_string_equal(capture(bp_json_str, NULL), "null");
	assert_string_equal(capture(bp_json_str, "a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
	assert_string_equal(capture(bp_json_str, "caf\xc3\xa9"), "\"caf\xc3\xa9\"");
	assert_string_equal(capture(bp_json_str, "x\xff\xc3"), "\"x\\ufffd\\ufffd\"");
	assert_string_equal(capture(bp_json_str, "\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	assert_string_equal(capture(bp_json_str, "\x1b]0;x\x07\xc2\x9b"), "\"\\u001b]0;x\\u0007\\u009b\"");
	assert_string_equal(capture(bp_csv_str, "plain"), "plain");
	assert_string_equal(capture(bp_csv_str, "a,b"), "\"a,b\"");
	assert_string_equal(capture(bp_csv_str, "say \"hi\""), "\"say \"\"hi\"\"\"");
}

static void test_printable(void **state)
{
	char b[64], *d;

	(void)state;
	assert_string_equal(bp_printable(b, sizeof(b), "/usr/lib/caf\xc3\xa9"), "/usr/lib/caf\xc3\xa9");
	assert_string_equal(bp_printable(b, sizeof(b), "\x1b]0;pwned\x07\x1b[2J"),
			    "\\x1b]0;pwned\\x07\\x1b[2J");
	/* DEL, a C1 CSI (U+009B) and a byte that is not UTF-8. */
	assert_string_equal(bp_printable(b, sizeof(b), "a\x7f\xc2\x9b\xff\n"),
			    "a\\x7f\\x9b\\xff\\x0a");
	/* Cut at a character boundary, never inside an escape. */
	assert_string_equal(bp_printable(b, 6, "ab\x1b"), "ab");
	assert_true(bp_is_printable("plain / path"));
	assert_false(bp_is_printable("x\x1b"));
	d = bp_printable_dup("\x07");
	assert_string_equal(d, "\\x07");
	free(d);
	assert_null(bp_printable_dup(NULL));
	assert_string_equal(capture(bp_csv_str, "a\nb"), "a\\x0ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_instant),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_printable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
