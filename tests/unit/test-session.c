// SPDX-License-Identifier: GPL-2.0
/*
 * The session every command loads a recording through: one pass feeds any
 * number of consumers, and the checks (cut file, lost events) come back
 * as warning lines, said once however many passes read the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/session.h"
#include "util/error.h"

#define BASIC "tests/fixtures/basic.dat"
#define BOOT "tests/fixtures/boot.dat"
/* Lost events (ring-buffer overruns on both CPUs). */
#define LOSSY "tests/fixtures/bootprof.dat"

struct counter {
	uint64_t events, spans;
};

static void count_event(void *arg, const struct bp_event *ev)
{
	(void)ev;
	((struct counter *)arg)->events++;
}

static void count_span(void *arg, const struct bp_span *span)
{
	(void)span;
	((struct counter *)arg)->spans++;
}

static void test_fanout(void **state)
{
	struct counter a = { 0 }, b = { 0 }, alone = { 0 };
	struct bp_build_hooks hooks[3] = {
		{ .event = count_event, .span = count_span, .arg = &a },
		{ .arg = NULL },             /* a consumer with nothing to do */
		{ .event = count_event, .arg = &b },
	};
	struct bp_build_hooks one = { .event = count_event, .span = count_span, .arg = &alone };
	struct bp_session *s = bp_session_open(BASIC);
	struct bp_model *m;

	(void)state;
	assert_non_null(s);
	m = bp_session_build(s, NULL, &one, 1);
	assert_non_null(m);
	assert_int_equal(alone.events, m->totals.events_total);
	assert_true(alone.spans > 0);
	bp_model_free(m);
	m = bp_session_build(s, &s->window, hooks, 3);
	assert_non_null(m);
	/* Every consumer saw the whole pass, each only what it asked for. */
	assert_int_equal(a.events, alone.events);
	assert_int_equal(a.spans, alone.spans);
	assert_int_equal(b.events, alone.events);
	assert_int_equal(b.spans, 0);
	bp_model_free(m);
	/* The raw events alone: the same stream. */
	memset(&a, 0, sizeof(a));
	assert_int_equal(bp_session_read(s, hooks, 1), 0);
	assert_int_equal(a.events, alone.events);
	assert_int_equal(s->warnings.n, 0);
	bp_session_free(s);
}

/* A copy of @path cut to @percent of its size, in a temporary file (caller unlinks). */
static char *cut_copy(const char *path, int percent)
{
	char *tmp = strdup("/tmp/bootprof-test-session.XXXXXX");
	FILE *in = fopen(path, "rb"), *out;
	long size, i;
	int fd, c;

	assert_non_null(tmp);
	assert_non_null(in);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	out = fdopen(fd, "wb");
	assert_non_null(out);
	fseek(in, 0, SEEK_END);
	size = ftell(in);
	rewind(in);
	for (i = 0; i < size * percent / 100 && (c = getc(in)) != EOF; i++)
		putc(c, out);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	return tmp;
}

static void test_truncated(void **state)
{
	char *cut = cut_copy(BOOT, 93);
	struct bp_session *s = bp_session_open(cut);
	struct bp_window w = { 0 };
	struct bp_model *m;

	(void)state;
	assert_non_null(s);
	m = bp_session_build(s, &s->window, NULL, 0);
	assert_non_null(m);
	w.since_ns = m->window.since_ns + (m->window.until_ns - m->window.since_ns) / 2;
	assert_int_equal(s->warnings.n, 1);
	assert_string_equal(s->warnings.lines[0],
			    "recording truncated: 71107 of 532480 bytes of CPU 1 data missing");
	bp_model_free(m);
	/* Another pass (a phase, a window) says nothing more. */
	m = bp_session_build(s, &w, NULL, 0);
	assert_non_null(m);
	assert_int_equal(s->warnings.n, 1);
	bp_model_free(m);
	assert_int_equal(bp_session_read(s, NULL, 0), 0);
	assert_int_equal(s->warnings.n, 1);
	bp_session_free(s);
	unlink(cut);
	free(cut);
}

static void test_lost_events(void **state)
{
	struct bp_session *s = bp_session_open(LOSSY);
	struct bp_model *m;
	int pass;

	(void)state;
	assert_non_null(s);
	/* Without a model the command says what was lost itself (dump's header). */
	assert_int_equal(bp_session_read(s, NULL, 0), 0);
	assert_int_equal(s->warnings.n, 0);
	for (pass = 0; pass < 2; pass++) {
		m = bp_session_build(s, NULL, NULL, 0);
		assert_non_null(m);
		assert_true(m->totals.lost_events > 0);
		bp_model_free(m);
	}
	assert_int_equal(s->warnings.n, 1);
	assert_string_equal(s->warnings.lines[0], "'" LOSSY "' lost events while recording: "
			    "totals are lower bounds");
	/* Printed (and forgotten) by the command: a later pass does not say it again. */
	bp_warnings_release(&s->warnings);
	m = bp_session_build(s, NULL, NULL, 0);
	assert_non_null(m);
	bp_model_free(m);
	assert_int_equal(s->warnings.n, 0);
	bp_session_free(s);
}

static void test_unreadable(void **state)
{
	(void)state;
	assert_null(bp_session_open("tests/fixtures/no-such-recording.dat"));
	assert_non_null(strstr(bp_last_error(), "no-such-recording.dat"));
	bp_session_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fanout),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_lost_events),
		cmocka_unit_test(test_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
