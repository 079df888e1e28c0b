// SPDX-License-Identifier: GPL-2.0
/* bp_meta: containers, lookups, and the text form (round trip, hostile input). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracefile/meta.h"
#include "util/error.h"

static void fill(struct bp_meta *m)
{
	bp_meta_init(m);
	m->bootprof_version = strdup("0.1.0");
	m->hostname = strdup("box");
	m->kernel_release = strdup("6.18.0");
	m->kernel_version = strdup("#1 SMP PREEMPT_DYNAMIC Debian 6.18");
	m->machine = strdup("x86_64");
	m->cmdline = strdup("root=/dev/vda ro quiet\n");
	m->clock = strdup("boot");
	m->stop_reason = strdup("command exited");
	m->command = strdup("cat 'a b'\\c\t");
	m->ncpus = 2;
	m->page_size = 4096;
	m->start_ns = 123456789;
	m->stop_ns = UINT64_MAX;
	m->fault_around_bytes = 4096;
	m->schedstats = BP_SCHEDSTATS_ON;
	m->schedstats_by = BP_SCHEDSTATS_BY_BOOTPROF;
	bp_meta_add_event(m, "sched:sched_switch", 1);
	bp_meta_add_event(m, "filemap:mm_filemap_get_pages", 0);
	bp_meta_add_mount(m, BP_DEV(254, 0), "ext4", "/", "/dev/vda");
	bp_meta_add_mount(m, BP_DEV(0, 25), "tmpfs", "/run/a dir", "");
	bp_meta_add_disk(m, BP_DEV(254, 0), "vda", 0, 10737418240ULL);
	bp_meta_add_disk(m, BP_DEV(8, 0), "sda", -1, 0);
	bp_meta_add_path(m, BP_DEV(254, 0), 99, "/usr/lib/z");
	bp_meta_add_path(m, BP_DEV(254, 0), 12, "/etc/with space\nand\\newline\x01");
	bp_meta_add_path(m, BP_DEV(8, 1), 5, "");
	bp_meta_add_program(m, "/sbin/init script", "/bin/busybox");
	bp_meta_add_program(m, "./run", "/usr/bin/python3.11");
	m->unresolved = 7;
	m->cpu_stats = calloc(2, sizeof(*m->cpu_stats));
	m->cpu_stats[0].entries = 10;
	m->cpu_stats[0].overrun = 3;
	m->cpu_stats[1].dropped = 4;
	m->cpu_stats[1].read = 1000;
	bp_meta_add_task(m, 812, 800, 0);
	bp_meta_add_task(m, 900, 900, BP_TASK_RECORDER);
	bp_meta_add_task(m, 901, 901, 0);
	bp_meta_task_asleep(m, 901, 0, "a b\\");
	bp_meta_add_task(m, 902, 800, 0);
	bp_meta_task_asleep(m, 902, BP_SYSCALL_NONE, "");
	bp_meta_add_task(m, 903, 903, 0);
	bp_meta_task_asleep(m, 903, BP_SYSCALL_UNKNOWN, "kworker/0:1");
	m->command_pid = 812;
	m->command_status = 0; /* exit 0 must survive: it is not "unknown" */
	m->command_start_ns = 5;
	m->command_end_ns = 6000000000ULL;
	m->recorder_cpu_ns = 31000000;
	m->system_cpu_ns = 4200000000ULL;
}

static void test_find_and_lost(void **state)
{
	struct bp_meta m;

	(void)state;
	fill(&m);
	bp_meta_sort_paths(&m);
	assert_string_equal(bp_meta_find_path(&m, BP_DEV(254, 0), 99), "/usr/lib/z");
	assert_string_equal(bp_meta_find_path(&m, BP_DEV(8, 1), 5), "");
	assert_null(bp_meta_find_path(&m, BP_DEV(254, 0), 98));
	assert_null(bp_meta_find_path(&m, BP_DEV(254, 1), 99));
	assert_int_equal(bp_meta_find_disk(&m, BP_DEV(8, 0))->rotational, -1);
	assert_null(bp_meta_find_disk(&m, BP_DEV(8, 16)));
	assert_int_equal(bp_meta_lost_events(&m), 7);
	bp_meta_release(&m);
	assert_int_equal(bp_meta_lost_events(&m), 0);
	bp_meta_release(&m);
}

static void test_many_paths(void **state)
{
	struct bp_meta m;
	char name[32];
	uint64_t i;

	(void)state;
	bp_meta_init(&m);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "/f%llu", (unsigned long long)(i * 7919 % 5000));
		bp_meta_add_path(&m, 1, i * 7919 % 5000, name);
	}
	bp_meta_sort_paths(&m);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "/f%llu", (unsigned long long)i);
		assert_string_equal(bp_meta_find_path(&m, 1, i), name);
	}
	bp_meta_release(&m);
}

static void assert_same(const struct bp_meta *a, const struct bp_meta *b)
{
	size_t i;

	assert_string_equal(a->bootprof_version, b->bootprof_version);
	assert_string_equal(a->hostname, b->hostname);
	assert_string_equal(a->kernel_release, b->kernel_release);
	assert_string_equal(a->kernel_version, b->kernel_version);
	assert_string_equal(a->machine, b->machine);
	assert_string_equal(a->cmdline, b->cmdline);
	assert_string_equal(a->clock, b->clock);
	assert_string_equal(a->stop_reason, b->stop_reason);
	assert_string_equal(a->command, b->command);
	assert_int_equal(a->ncpus, b->ncpus);
	assert_int_equal(a->page_size, b->page_size);
	assert_true(a->start_ns == b->start_ns);
	assert_true(a->stop_ns == b->stop_ns);
	assert_true(a->recorder_cpu_ns == b->recorder_cpu_ns);
	assert_true(a->system_cpu_ns == b->system_cpu_ns);
	assert_true(a->fault_around_bytes == b->fault_around_bytes);
	assert_int_equal(a->schedstats, b->schedstats);
	assert_int_equal(a->schedstats_by, b->schedstats_by);
	assert_int_equal(a->nevents, b->nevents);
	for (i = 0; i < a->nevents; i++)
		assert_string_equal(a->events[i], b->events[i]);
	assert_int_equal(a->nunavailable, b->nunavailable);
	for (i = 0; i < a->nunavailable; i++)
		assert_string_equal(a->unavailable[i], b->unavailable[i]);
	assert_int_equal(a->nmounts, b->nmounts);
	for (i = 0; i < a->nmounts; i++) {
		assert_int_equal(a->mounts[i].dev, b->mounts[i].dev);
		assert_string_equal(a->mounts[i].fstype, b->mounts[i].fstype);
		assert_string_equal(a->mounts[i].dir, b->mounts[i].dir);
		assert_string_equal(a->mounts[i].source, b->mounts[i].source);
	}
	assert_int_equal(a->ndisks, b->ndisks);
	for (i = 0; i < a->ndisks; i++) {
		assert_int_equal(a->disks[i].dev, b->disks[i].dev);
		assert_string_equal(a->disks[i].name, b->disks[i].name);
		assert_int_equal(a->disks[i].rotational, b->disks[i].rotational);
		assert_true(a->disks[i].size == b->disks[i].size);
	}
	assert_int_equal(a->npaths, b->npaths);
	for (i = 0; i < a->npaths; i++) {
		assert_int_equal(a->paths[i].dev, b->paths[i].dev);
		assert_true(a->paths[i].ino == b->paths[i].ino);
		assert_string_equal(a->paths[i].path, b->paths[i].path);
	}
	assert_true(a->unresolved == b->unresolved);
	assert_int_equal(a->nprograms, b->nprograms);
	for (i = 0; i < a->nprograms; i++) {
		assert_string_equal(a->programs[i].path, b->programs[i].path);
		assert_string_equal(a->programs[i].program, b->programs[i].program);
	}
	assert_string_equal(bp_meta_find_program(b, "/sbin/init script"), "/bin/busybox");
	assert_null(bp_meta_find_program(b, "/bin/busybox"));
	assert_memory_equal(a->cpu_stats, b->cpu_stats, a->ncpus * sizeof(*a->cpu_stats));
	assert_int_equal(a->ntasks, b->ntasks);
	for (i = 0; i < a->ntasks; i++) {
		assert_int_equal(a->tasks[i].tid, b->tasks[i].tid);
		assert_int_equal(a->tasks[i].tgid, b->tasks[i].tgid);
		assert_int_equal(a->tasks[i].flags, b->tasks[i].flags);
		assert_int_equal(a->tasks[i].asleep, b->tasks[i].asleep);
		assert_int_equal(a->tasks[i].syscall, b->tasks[i].syscall);
		assert_string_equal(a->tasks[i].comm, b->tasks[i].comm);
	}
	assert_int_equal(a->command_pid, b->command_pid);
	assert_int_equal(a->command_status, b->command_status);
	assert_true(a->command_start_ns == b->command_start_ns);
	assert_true(a->command_end_ns == b->command_end_ns);
}

static void test_round_trip(void **state)
{
	struct bp_meta a, b;
	size_t len;
	char *blob;

	(void)state;
	fill(&a);
	blob = bp_meta_serialize(&a, &len);
	assert_non_null(blob);
	assert_int_equal(strlen(blob), len);
	/* Escaping keeps one record per line: no raw newline inside a string. */
	assert_non_null(strstr(blob, "cmdline root=/dev/vda\\sro\\squiet\\n\n"));
	assert_non_null(strstr(blob, "\\x01"));
	assert_int_equal(bp_meta_parse(&b, blob, len), 0);
	assert_same(&a, &b);
	bp_meta_release(&b);
	free(blob);
	bp_meta_release(&a);
}

static void test_empty_meta_round_trip(void **state)
{
	struct bp_meta a, b;
	size_t len;
	char *blob;

	(void)state;
	bp_meta_init(&a);
	blob = bp_meta_serialize(&a, &len);
	assert_int_equal(bp_meta_parse(&b, blob, len), 0);
	assert_null(b.hostname);
	assert_null(b.cpu_stats);
	assert_int_equal(b.npaths, 0);
	bp_meta_release(&b);
	free(blob);
}

static const char *const bad_blobs[] = {
	"",
	"hello\n",
	"bootprof-meta 2\nend\n",
	"bootprof-meta 1\n",                             /* no end */
	"bootprof-meta 1\nend",                          /* no newline */
	"bootprof-meta 1\nend\nhostname x\n",            /* after end */
	"bootprof-meta 1\nhostname a b\nend\n",          /* two words */
	"bootprof-meta 1\nhostname\nend\n",              /* no value */
	"bootprof-meta 1\nhostname a\nhostname b\nend\n",
	"bootprof-meta 1\nhostname a\\q\nend\n",         /* bad escape */
	"bootprof-meta 1\nhostname a\\\nend\n",          /* escape at end */
	"bootprof-meta 1\nhostname a\\x0\nend\n",
	"bootprof-meta 1\nhostname a\\x00b\nend\n",      /* NUL via escape */
	"bootprof-meta 1\nhostname  a\nend\n",           /* empty word */
	"bootprof-meta 1\nhostname a \nend\n",
	"bootprof-meta 1\nncpus 0\nend\n",
	"bootprof-meta 1\nncpus -1\nend\n",
	"bootprof-meta 1\nncpus 99999999\nend\n",
	"bootprof-meta 1\nncpus 01\nend\n",
	"bootprof-meta 1\nstart_ns 18446744073709551616\nend\n",
	"bootprof-meta 1\nstart_ns 1\nstart_ns 2\nend\n",
	"bootprof-meta 1\ncpustat 0 1 2 3 4 5\nend\n",  /* before ncpus */
	"bootprof-meta 1\nncpus 2\ncpustat 2 1 2 3 4 5\nend\n",
	"bootprof-meta 1\nncpus 2\ncpustat 0 1 2 3 4\nend\n",
	"bootprof-meta 1\nmount 1 ext4 /\nend\n",
	"bootprof-meta 1\nmount 4294967296 ext4 / /dev/x\nend\n",
	"bootprof-meta 1\ndisk 1 vda 2 10\nend\n",
	"bootprof-meta 1\npath 1 x /a\nend\n",
	"bootprof-meta 1\npath 1 2 /a b\nend\n",
	"bootprof-meta 1\nBAD?key 1\nend\n",
	"bootprof-meta 1\nend extra\nend\n",
	"bootprof-meta 1\n\nend\n",
	"bootprof-meta 1\r\nend\n",
	"bootprof-meta 1\ntask 0 1 0\nend\n",           /* tid 0 */
	"bootprof-meta 1\ntask 5 6\nend\n",
	"bootprof-meta 1\ntask 5 x 0\nend\n",
	"bootprof-meta 1\ntask 5 6 1073741824\nend\n",
	"bootprof-meta 1\nasleep 5 0 dd\nend\n",        /* before its task */
	"bootprof-meta 1\ntask 5 6 0\nasleep 5 0\nend\n",
	"bootprof-meta 1\ntask 5 6 0\nasleep 5 -3 dd\nend\n",
	"bootprof-meta 1\ntask 5 6 0\nasleep 5 x dd\nend\n",
	"bootprof-meta 1\ntask 5 6 0\nasleep 0 0 dd\nend\n",
	"bootprof-meta 1\ntask 5 6 0\nasleep 5 0 0123456789abcdef\nend\n", /* 16 chars */
	"bootprof-meta 1\ncommand_pid 1\ncommand_pid 2\nend\n",
	"bootprof-meta 1\ncommand_status -2\nend\n",
	"bootprof-meta 1\nschedstats\nend\n",
	"bootprof-meta 1\nschedstats on bootprof x\nend\n",
	"bootprof-meta 1\nschedstats On\nend\n",
	"bootprof-meta 1\nschedstats on by/x\nend\n",
	"bootprof-meta 1\nschedstats off\nschedstats on\nend\n",
	"bootprof-meta 1\nschedstats later\nschedstats later\nend\n",
};

static void test_malformed_rejected(void **state)
{
	struct bp_meta m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_blobs) / sizeof(bad_blobs[0]); i++) {
		int ret = bp_meta_parse(&m, bad_blobs[i], strlen(bad_blobs[i]));

		if (ret != -1)
			fail_msg("accepted bad blob %zu: %s", i, bad_blobs[i]);
		assert_non_null(strstr(bp_last_error(), "metadata"));
		/* A failed parse leaves nothing to free. */
		assert_null(m.hostname);
		assert_int_equal(m.npaths, 0);
	}
	/* An embedded NUL is rejected even though the text before it is valid. */
	assert_int_equal(bp_meta_parse(&m, "bootprof-meta 1\nend\n\0", 21), -1);
}

static void test_unknown_key_skipped(void **state)
{
	const char *blob = "bootprof-meta 1\nfuture_key whatever 1 2\nhostname h\nend\n";
	struct bp_meta m;

	(void)state;
	assert_int_equal(bp_meta_parse(&m, blob, strlen(blob)), 0);
	assert_string_equal(m.hostname, "h");
	bp_meta_release(&m);
}

/*
 * Schedstats: every state and who turned them on survive; a recording
 * without the key (older bootprof, trace-cmd) says nothing; values of a
 * later format are read as unknown, not refused.
 */
static void test_schedstats(void **state)
{
	static const struct {
		const char *line;
		enum bp_schedstats_state state;
		enum bp_schedstats_by by;
	} cases[] = {
		{ "", BP_SCHEDSTATS_UNKNOWN, BP_SCHEDSTATS_BY_UNKNOWN },
		{ "schedstats none\n", BP_SCHEDSTATS_NONE, BP_SCHEDSTATS_BY_UNKNOWN },
		{ "schedstats off\n", BP_SCHEDSTATS_OFF, BP_SCHEDSTATS_BY_UNKNOWN },
		{ "schedstats on bootprof\n", BP_SCHEDSTATS_ON, BP_SCHEDSTATS_BY_BOOTPROF },
		{ "schedstats on cmdline\n", BP_SCHEDSTATS_ON, BP_SCHEDSTATS_BY_CMDLINE },
		{ "schedstats on system\n", BP_SCHEDSTATS_ON, BP_SCHEDSTATS_BY_SYSTEM },
		{ "schedstats on\n", BP_SCHEDSTATS_ON, BP_SCHEDSTATS_BY_UNKNOWN },
		{ "schedstats on a-later-one\n", BP_SCHEDSTATS_ON, BP_SCHEDSTATS_BY_UNKNOWN },
		{ "schedstats partly since_boot\n", BP_SCHEDSTATS_UNKNOWN, BP_SCHEDSTATS_BY_UNKNOWN },
		/* Only "on" has someone who turned them on. */
		{ "schedstats off bootprof\n", BP_SCHEDSTATS_OFF, BP_SCHEDSTATS_BY_UNKNOWN },
	};
	struct bp_meta m, back;
	size_t i, len;
	char blob[256], *out;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(blob, sizeof(blob), "bootprof-meta 1\n%send\n", cases[i].line);
		if (bp_meta_parse(&m, blob, strlen(blob)) != 0)
			fail_msg("refused %s: %s", blob, bp_last_error());
		assert_int_equal(m.schedstats, cases[i].state);
		assert_int_equal(m.schedstats_by, cases[i].by);
		/* Written back as read: what is unknown is left out. */
		out = bp_meta_serialize(&m, &len);
		assert_int_equal(bp_meta_parse(&back, out, len), 0);
		assert_int_equal(back.schedstats, cases[i].state);
		assert_int_equal(back.schedstats_by, cases[i].by);
		assert_int_equal(strstr(out, "schedstats") != NULL,
				 cases[i].state != BP_SCHEDSTATS_UNKNOWN);
		free(out);
		bp_meta_release(&back);
		bp_meta_release(&m);
	}
	assert_string_equal(bp_schedstats_state_name(BP_SCHEDSTATS_ON), "on");
	assert_null(bp_schedstats_state_name(BP_SCHEDSTATS_UNKNOWN));
	assert_string_equal(bp_schedstats_by_name(BP_SCHEDSTATS_BY_CMDLINE), "cmdline");
	assert_null(bp_schedstats_by_name(BP_SCHEDSTATS_BY_UNKNOWN));
}

/* Every prefix and every single-byte corruption of a valid blob: no crash, no leak. */
static void test_cut_and_flipped(void **state)
{
	struct bp_meta a, b;
	size_t len, i;
	char *blob, *copy;

	(void)state;
	fill(&a);
	blob = bp_meta_serialize(&a, &len);
	for (i = 0; i < len; i++) {
		if (bp_meta_parse(&b, blob, i) == 0)
			fail_msg("accepted a blob cut at %zu of %zu", i, len);
	}
	copy = malloc(len);
	for (i = 0; i < len; i++) {
		static const char flips[] = { 0, ' ', '\n', '\\', 'x', '9', (char)0xff };
		size_t f;

		for (f = 0; f < sizeof(flips); f++) {
			memcpy(copy, blob, len);
			copy[i] = flips[f];
			if (bp_meta_parse(&b, copy, len) == 0)
				bp_meta_release(&b);
		}
	}
	free(copy);
	free(blob);
	bp_meta_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_and_lost),
		cmocka_unit_test(test_many_paths),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_empty_meta_round_trip),
		cmocka_unit_test(test_malformed_rejected),
		cmocka_unit_test(test_unknown_key_skipped),
		cmocka_unit_test(test_schedstats),
		cmocka_unit_test(test_cut_and_flipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
