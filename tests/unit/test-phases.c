// SPDX-License-Identifier: GPL-2.0
/*
 * Phases and statistics over recordings: boundaries from exec events of
 * PID 1 and user-defined ends (fed as raw sched_process_exec records of a
 * parsed format), phase specs, medians and the group rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "analysis/phases.h"
#include "analysis/summary.h"
#include "tracefile/tracefile.h"
#include "util/xalloc.h"

#define S 1000000000ull

static const char exec_format[] =
	"name: sched_process_exec\n"
	"ID: 300\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
	"REC->old_pid\n";

static struct tep_handle *exec_tep(void)
{
	struct tep_handle *tep = tep_alloc();

	assert_non_null(tep);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	assert_int_equal(tep_parse_event(tep, exec_format, sizeof(exec_format) - 1, "sched"), 0);
	return tep;
}

/* Feed one sched_process_exec of pid, filename at ts. */
static void exec_event(struct bp_phase_finder *f, uint64_t ts, int pid, const char *filename)
{
	unsigned char rec[256] = { 0 };
	uint16_t type = 300;
	uint32_t loc, len = (uint32_t)strlen(filename) + 1;
	int32_t p = pid;
	struct bp_event ev = { 0 };

	memcpy(rec, &type, 2);
	memcpy(rec + 4, &p, 4);
	loc = len << 16 | 20;
	memcpy(rec + 8, &loc, 4);
	memcpy(rec + 12, &p, 4);
	memcpy(rec + 16, &p, 4);
	memcpy(rec + 20, filename, len);
	ev.ts = ts;
	ev.id = 300;
	ev.data = rec;
	ev.size = (int)(20 + len);
	bp_phase_finder_event(f, &ev);
}

static const struct bp_phase *find(const struct bp_phase *v, long n, const char *name)
{
	long i;

	for (i = 0; i < n; i++) {
		if (!strcmp(v[i].name, name))
			return &v[i];
	}
	return NULL;
}

static struct bp_model *timed_model(uint64_t first, uint64_t last)
{
	struct bp_model *m = bp_model_new();

	m->totals.first_ns = first;
	m->totals.last_ns = last;
	m->header.stop_ns = last;
	return m;
}

/* An initramfs boot: kernel, initramfs, user phases in order, userspace. */
static void test_boot_phases(void **state)
{
	struct tep_handle *tep = exec_tep();
	struct bp_phase_spec specs[3];
	struct bp_phase_finder *f;
	struct bp_model *m = timed_model(S / 2, 10 * S);
	const struct bp_phase *p;
	struct bp_phase *v;
	long n;

	(void)state;
	assert_int_equal(bp_phase_spec_parse("X=exec:Xorg", &specs[0]), 0);
	assert_int_equal(bp_phase_spec_parse("desktop=exec:gnome-pan*", &specs[1]), 0);
	assert_int_equal(bp_phase_spec_parse("never=exec:nothing", &specs[2]), 0);
	f = bp_phase_finder_new(tep, specs, 3);
	exec_event(f, 1 * S, 1, "/init");
	exec_event(f, 2 * S, 77, "/sbin/udevd");
	exec_event(f, 2 * S + 1, 1, "/bin/switch_root");
	exec_event(f, 2 * S + 2, 1, "/proc/self/exe");
	exec_event(f, 3 * S, 1, "/sbin/init");
	exec_event(f, 5 * S, 200, "/usr/bin/Xorg");
	exec_event(f, 6 * S, 201, "/usr/bin/Xorg");
	exec_event(f, 8 * S, 300, "/usr/bin/gnome-panel");
	n = bp_phases_compute(f, NULL, m, 1, &v);
	assert_int_equal(n, 6);
	p = find(v, n, "kernel");
	assert_non_null(p);
	assert_true(p->reached && p->start_ns == 0 && p->end_ns == 1 * S);
	p = find(v, n, "initramfs");
	assert_true(p && p->reached && p->start_ns == 1 * S && p->end_ns == 3 * S);
	p = find(v, n, "X");
	assert_true(p && p->reached && p->start_ns == 3 * S && p->end_ns == 5 * S);
	p = find(v, n, "desktop");
	assert_true(p && p->reached && p->start_ns == 5 * S && p->end_ns == 8 * S);
	p = find(v, n, "userspace");
	assert_true(p && p->reached && p->start_ns == 3 * S && p->end_ns == 10 * S);
	p = find(v, n, "never");
	assert_true(p && !p->reached);
	/* By end, the ones not reached last. */
	assert_string_equal(v[0].name, "kernel");
	assert_string_equal(v[n - 1].name, "never");
	bp_phases_free(v, (size_t)n);
	bp_phase_finder_free(f);
	bp_model_free(m);
	bp_phase_spec_release(&specs[0]);
	bp_phase_spec_release(&specs[1]);
	bp_phase_spec_release(&specs[2]);
	tep_free(tep);
}

/* bootprof as PID 1 handing over to the real init is no switch of root. */
static void test_wrapper_is_not_a_root_switch(void **state)
{
	struct tep_handle *tep = exec_tep();
	struct bp_phase_finder *f = bp_phase_finder_new(tep, NULL, 0);
	struct bp_model *m = timed_model(S / 4, 4 * S);
	struct bp_phase *v;
	long n;

	(void)state;
	exec_event(f, S / 2, 1, "/usr/local/bin/bootprof-init");
	exec_event(f, S / 2 + 1000, 1, "/sbin/init");
	n = bp_phases_compute(f, NULL, m, 1, &v);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "kernel");
	assert_int_equal(v[0].end_ns, S / 2);
	assert_string_equal(v[1].name, "userspace");
	assert_int_equal(v[1].start_ns, S / 2);
	bp_phases_free(v, (size_t)n);
	bp_phase_finder_free(f);
	bp_model_free(m);
	tep_free(tep);
}

/* A live recording: no PID 1 exec, user space from the first event. */
static void test_live_recording(void **state)
{
	struct bp_phase_finder *f = bp_phase_finder_new(NULL, NULL, 0);
	struct bp_model *m = timed_model(5 * S, 7 * S);
	struct bp_phase *v;
	long n;

	(void)state;
	n = bp_phases_compute(f, NULL, m, 1, &v);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "userspace");
	assert_int_equal(v[0].start_ns, 5 * S);
	assert_int_equal(v[0].end_ns, 7 * S);
	bp_phases_free(v, (size_t)n);
	bp_phase_finder_free(f);
	bp_model_free(m);
}

static void test_spec_parse(void **state)
{
	static const char *const bad[] = { "x", "=exec:a", "a b=exec:x", "kernel=exec:x",
					   "userspace=file:/x", "a=exec:", "a=foo:bar", "a=" };
	struct bp_phase_spec s;
	size_t i;

	(void)state;
	assert_int_equal(bp_phase_spec_parse("boot_done=file:/run/boot.done", &s), 0);
	assert_string_equal(s.name, "boot_done");
	assert_int_equal(s.kind, BP_PHASE_FILE);
	assert_string_equal(s.arg, "/run/boot.done");
	bp_phase_spec_release(&s);
	assert_int_equal(bp_phase_spec_parse("udev=service:systemd-udevd", &s), 0);
	assert_int_equal(s.kind, BP_PHASE_SERVICE);
	bp_phase_spec_release(&s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(bp_phase_spec_parse(bad[i], &s), -1);
	assert_true(bp_unit_matches("udev", "/system.slice/udev.service"));
	assert_true(bp_unit_matches("udev.service", "/system.slice/udev.service"));
	assert_true(bp_unit_matches("/system.slice/*", "/system.slice/udev.service"));
	assert_false(bp_unit_matches("udev", "/system.slice/udev-trigger.service"));
}

static void test_stat(void **state)
{
	uint64_t a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 }, c[] = { UINT64_MAX, UINT64_MAX - 2 };
	struct bp_stat st;

	(void)state;
	st = bp_stat_of(a, 3);
	assert_true(st.median == 3 && st.min == 1 && st.max == 5);
	st = bp_stat_of(b, 4);
	assert_true(st.median == 2 && st.min == 1 && st.max == 4); /* (2 + 3) / 2 rounded down */
	st = bp_stat_of(c, 2);
	assert_true(st.median == UINT64_MAX - 1); /* no overflow */
	st = bp_stat_of(NULL, 0);
	assert_true(st.median == 0 && st.min == 0 && st.max == 0);
}

static struct bp_summary *summary_of(const char *file, uint64_t wait)
{
	struct bp_summary *s = xcalloc(1, sizeof(*s));

	s->path = xstrdup("x.dat");
	s->rows = xcalloc(2, sizeof(*s->rows));
	s->nrows = file ? 2 : 1;
	s->rows[0].kind = BP_ROW_PROCESS;
	s->rows[0].key = xstrdup("sh (/bin/sh)");
	s->rows[0].count = 1;
	s->rows[0].reached = 1;
	s->rows[0].wait_ns = wait;
	if (file) {
		s->rows[1].kind = BP_ROW_FILE;
		s->rows[1].key = xstrdup(file);
		s->rows[1].count = 1;
		s->rows[1].reached = 1;
		s->rows[1].wait_ns = wait;
	}
	return s;
}

/* A row absent from a recording: 0 there for diffs, left out for --boots. */
static void test_group(void **state)
{
	struct bp_summary *s[3] = { summary_of("/a", 10), summary_of(NULL, 20),
				    summary_of("/a", 40) };
	struct bp_group g;

	(void)state;
	bp_group_build(&g, s, 3, 1);
	assert_int_equal(g.nrows, 2);
	assert_int_equal(g.rows[0].kind, BP_ROW_PROCESS);
	assert_int_equal(g.rows[0].boots, 3);
	assert_int_equal(g.rows[0].wait.median, 20);
	assert_int_equal(g.rows[1].boots, 2);
	assert_true(g.rows[1].wait.median == 10 && g.rows[1].wait.min == 0);
	bp_group_release(&g);
	bp_group_build(&g, s, 3, 0);
	assert_true(g.rows[1].wait.median == 25 && g.rows[1].wait.min == 10 &&
		    g.rows[1].wait.max == 40);
	bp_group_release(&g);
	bp_summary_free(s[0]);
	bp_summary_free(s[1]);
	bp_summary_free(s[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_phases),
		cmocka_unit_test(test_wrapper_is_not_a_root_switch),
		cmocka_unit_test(test_live_recording),
		cmocka_unit_test(test_spec_parse),
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
