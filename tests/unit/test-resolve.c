// SPDX-License-Identifier: GPL-2.0
/* resolve: mountinfo lines, the machine facts, the task table, the syscall table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture/capture.h"
#include "resolve/resolve.h"

static void test_mountinfo_line(void **state)
{
	char line[] = "36 35 98:0 /mnt1 /mnt\\0402 rw,noatime master:1 shared:2 - ext3 /dev/root rw\n";
	struct bp_mountinfo mi;

	(void)state;
	assert_int_equal(bp_mountinfo_parse_line(line, &mi), 0);
	assert_int_equal(mi.dev, BP_DEV(98, 0));
	assert_string_equal(mi.root, "/mnt1");
	assert_string_equal(mi.dir, "/mnt 2");
	assert_string_equal(mi.fstype, "ext3");
	assert_string_equal(mi.source, "/dev/root");
}

static void test_mountinfo_no_optional_fields(void **state)
{
	char line[] = "22 27 0:21 / /proc rw,relatime - proc proc rw";
	struct bp_mountinfo mi;

	(void)state;
	assert_int_equal(bp_mountinfo_parse_line(line, &mi), 0);
	assert_int_equal(mi.dev, BP_DEV(0, 21));
	assert_string_equal(mi.dir, "/proc");
	assert_string_equal(mi.fstype, "proc");
}

static void test_mountinfo_malformed(void **state)
{
	const char *const bad[] = { "", "22 27 0:21 / /proc rw,relatime proc proc rw",
			"22 27 zero / /proc rw - proc proc rw", "22 27 0:21 / /proc rw -",
			"22 27 0:21 / /proc rw - proc", "1 2 4096:0 / / rw - ext4 /dev/x rw" };
	struct bp_mountinfo mi;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *copy = strdup(bad[i]);

		assert_int_equal(bp_mountinfo_parse_line(copy, &mi), -1);
		free(copy);
	}
}

/* The live machine: the root filesystem is a mount, and its device is right. */
static void test_system_root_mount(void **state)
{
	struct bp_meta m;
	struct stat st;
	size_t i;
	int seen = 0;

	(void)state;
	bp_meta_init(&m);
	assert_int_equal(bp_resolve_system(&m), 0);
	assert_int_equal(stat("/", &st), 0);
	for (i = 0; i < m.nmounts; i++) {
		if (!strcmp(m.mounts[i].dir, "/") &&
		    m.mounts[i].dev == BP_DEV(major(st.st_dev), minor(st.st_dev)))
			seen = 1;
	}
	assert_true(seen);
	assert_non_null(m.kernel_release);
	bp_meta_release(&m);
}

/* Write text into DIR/TGID/task/TID/NAME, making the directories. */
static void proc_file(const char *dir, int tgid, int tid, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", dir, tgid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%d/task", dir, tgid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%d/task/%d", dir, tgid, tid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%d/task/%d/%s", dir, tgid, tid, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const struct bp_task_id *find_task(const struct bp_meta *m, int tid)
{
	size_t i;

	for (i = 0; i < m->ntasks; i++) {
		if (m->tasks[i].tid == tid)
			return &m->tasks[i];
	}
	return NULL;
}

/*
 * A fake /proc: the threads in state D are marked asleep with their
 * syscall (a number, -1 outside one, "running" if it woke meanwhile) and
 * name. A second reading, of the marked ones only, unmarks one that woke
 * and marks none that fell asleep since the first; the stop's scan keeps
 * the marks.
 */
static void test_tasks_asleep(void **state)
{
	char dir[] = "/tmp/bootprof-test-proc.XXXXXX", cmd[64];
	const struct bp_task_id *t;
	struct bp_meta m;

	(void)state;
	assert_non_null(mkdtemp(dir));
	proc_file(dir, 100, 100, "stat", "100 (a) b) D 1 100 100 0 -1\n");
	proc_file(dir, 100, 100, "syscall", "0 0x3 0x7f 0x20000 0x0 0x0 0x0 0x7ffd 0x7f12\n");
	proc_file(dir, 100, 101, "stat", "101 (worker) S 1 100 100 0 -1\n");
	proc_file(dir, 200, 200, "stat", "200 (kthread) D 2 0 0 0 -1\n");
	proc_file(dir, 200, 200, "syscall", "-1 0xffffb0 0xffff81\n");
	proc_file(dir, 300, 300, "stat", "300 (woke) D 1 300 300 0 -1\n");
	proc_file(dir, 300, 300, "syscall", "running\n");
	proc_file(dir, 400, 400, "stat", "400 (sleeper) D 1 400 400 0 -1\n");
	bp_meta_init(&m);
	assert_int_equal(bp_resolve_tasks(&m, dir), 0);
	bp_resolve_asleep(&m, dir, 0);
	proc_file(dir, 400, 400, "stat", "400 (sleeper) R 1 400 400 0 -1\n");
	proc_file(dir, 100, 101, "stat", "101 (worker) D 1 100 100 0 -1\n");
	bp_resolve_asleep(&m, dir, 1);
	assert_int_equal(bp_resolve_tasks(&m, dir), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(m.ntasks, 5);
	t = find_task(&m, 100);
	assert_true(t && t->asleep && t->syscall == 0);
	assert_string_equal(t->comm, "a) b");
	t = find_task(&m, 101);
	assert_true(t && !t->asleep);
	t = find_task(&m, 200);
	assert_true(t && t->asleep && t->syscall == BP_SYSCALL_NONE);
	assert_string_equal(t->comm, "kthread");
	t = find_task(&m, 300);
	assert_true(t && t->asleep && t->syscall == BP_SYSCALL_UNKNOWN);
	t = find_task(&m, 400);
	assert_true(t && !t->asleep && !t->comm[0]);
	bp_meta_release(&m);
}

static void test_syscall_table(void **state)
{
	(void)state;
	assert_string_equal(bp_syscall_name(SYS_read), "read");
	assert_string_equal(bp_syscall_name(SYS_openat), "openat");
	assert_string_equal(bp_syscall_name(SYS_execve), "execve");
	assert_null(bp_syscall_name(SYS_write));
	assert_null(bp_syscall_name(-1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo_line),
		cmocka_unit_test(test_mountinfo_no_optional_fields),
		cmocka_unit_test(test_mountinfo_malformed),
		cmocka_unit_test(test_system_root_mount),
		cmocka_unit_test(test_tasks_asleep),
		cmocka_unit_test(test_syscall_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
