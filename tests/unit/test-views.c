// SPDX-License-Identifier: GPL-2.0
/*
 * doc/format: human units, path shortening, JSON and CSV quoting, the
 * compact JSON writer's one-element-a-line arrays; the
 * services section in text, JSON and CSV.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/model.h"
#include "doc/format.h"
#include "util/json.h"
#include "util/printable.h"
#include "util/xalloc.h"
#include "views/report.h"

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

#define S 1000000000ull

/*
 * udevd[300] exec'd systemd-udevd in its service at 2.5 s and runs on;
 * agetty[301] was moved into getty@tty1.service after its only exec, and
 * exited at 4 s.
 */
static struct bp_model *services_model(void)
{
	struct bp_model *m = bp_model_new();
	struct bp_process *udevd, *getty;

	m->nservices = 2;
	m->services = xcalloc(2, sizeof(*m->services));
	m->services[0].path = xstrdup("/system.slice/systemd-udevd.service");
	m->services[1].path = xstrdup("/system.slice/system-getty.slice/getty@tty1.service");
	m->nprocesses = 2;
	m->processes = xcalloc(2, sizeof(*m->processes));
	udevd = &m->processes[0];
	getty = &m->processes[1];
	udevd->pid = 300;
	strcpy(udevd->comm, "systemd-udevd");
	udevd->start_ns = 2 * S;
	udevd->wait_ns = 7000000;
	udevd->exec = xcalloc(1, sizeof(char *));
	udevd->exec[udevd->nexec++] = xstrdup("/usr/lib/systemd/systemd-udevd");
	udevd->exec_part = xcalloc(1, sizeof(*udevd->exec_part));
	udevd->first_exec_ns = udevd->service_exec_ns = 2500000000ull;
	udevd->service = &m->services[0];
	getty->pid = 301;
	strcpy(getty->comm, "agetty");
	getty->start_ns = 3 * S;
	getty->exit_ns = 4 * S;
	getty->exec = xcalloc(1, sizeof(char *));
	getty->exec[getty->nexec++] = xstrdup("/sbin/agetty");
	getty->exec_part = xcalloc(1, sizeof(*getty->exec_part));
	getty->first_exec_ns = 3100000000ull;
	getty->service_exec = 1;
	getty->service = &m->services[1];
	return m;
}

/* @fn's output for @m, as a string (caller frees). */
static char *render(int (*fn)(FILE *, const struct bp_model *, const struct bp_report_opts *),
		    const struct bp_model *m, const char *table)
{
	struct bp_report_opts o = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	o.table = table;
	assert_int_equal(fn(f, m, &o), 0);
	fclose(f);
	return buf;
}

/* Per service its first exec: when and what in text, JSON and CSV; "-"/null when none. */
static void test_services(void **state)
{
	struct bp_model *m = services_model();
	char *s;

	(void)state;
	s = render(bp_view_text, m, NULL);
	assert_non_null(strstr(s, "== I/O wait by service\n"
				  "  WAIT  BYTES   CPU  PROCS  STARTED  FIRST EXEC    ENDED  SERVICE\n"
				  "7.0 ms    0 B  0 ms      1    2.000       2.500  running  "
				  "systemd-udevd.service\n"
				  "        first exec: /usr/lib/systemd/systemd-udevd\n"
				  "  0 ms    0 B  0 ms      1    3.000           -    4.000  "
				  "getty@tty1.service\n\n"));
	free(s);
	s = render(bp_view_json, m, NULL);
	assert_non_null(strstr(s, "\"unit\": \"systemd-udevd.service\",\n"
				  "      \"first_start_ns\": 2000000000,\n"
				  "      \"first_exec_ns\": 2500000000,\n"
				  "      \"first_exec\": \"/usr/lib/systemd/systemd-udevd\",\n"));
	assert_non_null(strstr(s, "\"first_exec_ns\": null,\n      \"first_exec\": null,\n"));
	free(s);
	s = render(bp_view_csv, m, "services");
	assert_non_null(strstr(s, ",running,first_exec_ns,first_exec\n"));
	assert_non_null(strstr(s, ",systemd-udevd.service,2000000000,0,1,2500000000,"
				  "/usr/lib/systemd/systemd-udevd\n"));
	assert_non_null(strstr(s, ",getty@tty1.service,3000000000,4000000000,0,0,\n"));
	free(s);
	bp_model_free(m);
}

/* A compact document with one array element a line (the Trace Event Format's layout). */
static void test_json_lines(void **state)
{
	struct bp_json jw;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	bp_json_init_compact(&jw, f);
	bp_json_object_begin(&jw, NULL);
	bp_json_string(&jw, "unit", "ms");
	bp_json_object_begin(&jw, "other");
	bp_json_u64(&jw, "n", 1);
	bp_json_end(&jw);
	bp_json_newline(&jw);
	bp_json_array_begin_lines(&jw, "events");
	bp_json_object_begin(&jw, NULL);
	bp_json_array_begin(&jw, "a");
	bp_json_u64(&jw, NULL, 1);
	bp_json_u64(&jw, NULL, 2);
	bp_json_end(&jw);
	bp_json_end(&jw);
	bp_json_raw(&jw, NULL, "1.500");
	bp_json_end(&jw);
	bp_json_array_begin_lines(&jw, "none");
	bp_json_end(&jw);
	bp_json_end(&jw);
	fclose(f);
	assert_string_equal(buf, "{\"unit\":\"ms\",\"other\":{\"n\":1},\n\"events\":[\n"
				 "{\"a\":[1,2]},\n1.500\n],\"none\":[]}");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_printable),
		cmocka_unit_test(test_services),
		cmocka_unit_test(test_json_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
