// SPDX-License-Identifier: GPL-2.0
/*
 * The model built from the fixture recordings: invariants every view relies
 * on (sums, used + never used, sorted lists, tree totals), windows, filters
 * and the page map. Run from the top of the tree (tests/run.sh does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event-parse.h>

#include "analysis/critical.h"
#include "analysis/model.h"
#include "tracefile/meta.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "views/report.h"

#define BASIC "tests/fixtures/basic.dat"
#define NO_ACCESS "tests/fixtures/no-access.dat"
#define BOOT "tests/fixtures/boot.dat"

static struct bp_model *build(const char *path, const struct bp_window *w)
{
	struct bp_reader *r = bp_reader_open(path);
	struct bp_model *m;

	assert_non_null(r);
	m = bp_model_build(r, w, NULL);
	bp_reader_free(r);
	assert_non_null(m);
	return m;
}

static void test_empty_model(void **state)
{
	struct bp_model *m = bp_model_new();
	struct bp_process **p;
	struct bp_file **f;

	(void)state;
	assert_int_equal(bp_model_select_processes(m, NULL, BP_SORT_PROC_WAIT, &p), 0);
	assert_null(p);
	assert_int_equal(bp_model_select_files(m, NULL, BP_SORT_FILE_BYTES, &f), 0);
	assert_null(bp_model_find_process(m, 1));
	assert_null(bp_model_find_file(m, 1, 2));
	assert_string_equal(bp_cause_name(BP_CAUSE_FAULT), "fault");
	assert_string_equal(bp_cause_name(BP_CAUSE_SYNC), "sync");
	assert_string_equal(bp_cause_name((enum bp_cause)99), "?");
	bp_model_free(m);
	bp_model_free(NULL);
}

static void test_sums(void **state)
{
	struct bp_model *m = build(BASIC, NULL);
	uint64_t read = 0, never = 0, mapped = 0, wait = 0, cause = 0;
	size_t i;
	int c;

	(void)state;
	assert_true(m->nprocesses > 5);
	assert_true(m->nfiles > 5);
	assert_int_equal(m->missing & (BP_MISSING_ACCESS | BP_MISSING_FILEMAP | BP_MISSING_SCHED), 0);
	for (i = 0; i < m->nfiles; i++) {
		const struct bp_file *f = &m->files[i];

		read += f->bytes_read;
		never += f->never_used_bytes;
		mapped += f->mapped_unknown_bytes;
		if (f->kind == BP_FILE_REGULAR)
			assert_int_equal(f->used_bytes + f->never_used_bytes + f->mapped_unknown_bytes,
					 f->bytes_read);
		else
			assert_int_equal(f->used_bytes + f->never_used_bytes + f->mapped_unknown_bytes,
					 0);
		if (i)   /* by (dev, ino) */
			assert_true(m->files[i - 1].dev < f->dev ||
				    (m->files[i - 1].dev == f->dev && m->files[i - 1].ino < f->ino));
		assert_ptr_equal(bp_model_find_file(m, f->dev, f->ino), f);
	}
	assert_int_equal(read, m->totals.read_bytes);
	assert_int_equal(never, m->totals.never_used_bytes);
	assert_int_equal(mapped, m->totals.mapped_unknown_bytes);
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		uint64_t pc = 0, tw = p->wait_ns;
		size_t k;

		wait += p->wait_ns;
		for (c = 0; c < BP_NCAUSES; c++)
			pc += p->wait_by_cause[c];
		assert_int_equal(pc, p->wait_ns);
		for (k = 0; k < p->nchildren; k++) {
			assert_ptr_equal(p->children[k]->parent, p);
			tw += p->children[k]->tree_wait_ns;
		}
		assert_int_equal(tw, p->tree_wait_ns);
		for (k = 0; k < p->nthreads; k++)
			assert_ptr_equal(p->threads[k]->process, p);
		for (k = 0; k < p->nfiles; k++)
			assert_ptr_equal(p->files[k]->process, p);
		if (p->nfiles)
			assert_ptr_equal(p->worst_file, p->files[0]->file);
	}
	assert_int_equal(wait, m->totals.wait_ns);
	for (c = 0; c < BP_NCAUSES; c++)
		cause += m->totals.wait_by_cause[c];
	assert_int_equal(cause, m->totals.wait_ns);
	assert_true(m->totals.reread_bytes > 0);
	assert_true(m->totals.never_used_bytes > 0);
	/* Its t3-mmap touched a few pages of a mapping: fault-around mapped more. */
	assert_true(m->totals.mapped_unknown_bytes > 0);
	bp_model_free(m);
}

static void test_repeated_execs(void **state)
{
	struct bp_model *m = build(BASIC, NULL);
	size_t i;
	int found = 0;

	(void)state;
	for (i = 0; i < m->nexecs; i++) {
		if (!strcmp(m->execs[i].path, "/bin/true")) {
			assert_int_equal(m->execs[i].count, 5);
			found = 1;
		}
		if (i)
			assert_true(m->execs[i - 1].count >= m->execs[i].count);
	}
	assert_true(found);
	bp_model_free(m);
}

static void test_selection_sorted_and_filtered(void **state)
{
	struct bp_model *m = build(BASIC, NULL);
	struct bp_filter f = { 0 };
	struct bp_process **p;
	struct bp_file **v;
	size_t n, i;

	(void)state;
	n = bp_model_select_processes(m, NULL, BP_SORT_PROC_WAIT, &p);
	assert_int_equal(n, m->nprocesses);
	for (i = 1; i < n; i++)
		assert_true(p[i - 1]->wait_ns >= p[i]->wait_ns);
	free(p);
	n = bp_model_select_files(m, NULL, BP_SORT_FILE_BYTES, &v);
	for (i = 1; i < n; i++)
		assert_true(v[i - 1]->bytes_read >= v[i]->bytes_read);
	free(v);

	f.comm = "find";
	n = bp_model_select_processes(m, &f, BP_SORT_PROC_PID, &p);
	assert_int_equal(n, 1);
	assert_string_equal(p[0]->comm, "find");
	/* Every file listed under --comm find was touched by find. */
	free(p);
	n = bp_model_select_files(m, &f, BP_SORT_FILE_PATH, &v);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		size_t k;
		int by_find = 0;

		for (k = 0; k < v[i]->nreaders; k++)
			by_find |= !strcmp(v[i]->readers[k]->process->comm, "find");
		assert_true(by_find);
		if (i)
			assert_true(strcmp(v[i - 1]->path, v[i]->path) <= 0);
	}
	free(v);

	memset(&f, 0, sizeof(f));
	f.file = "[metadata";
	n = bp_model_select_files(m, &f, BP_SORT_FILE_WAIT, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0]->kind, BP_FILE_METADATA);
	free(v);
	bp_model_free(m);
}

static void test_window(void **state)
{
	struct bp_model *all = build(BASIC, NULL), *a, *b;
	struct bp_window w = { 0 };
	uint64_t mid = all->totals.first_ns + all->totals.span_ns / 2;

	(void)state;
	w.until_ns = mid;
	a = build(BASIC, &w);
	w.since_ns = mid + 1;
	w.until_ns = 0;
	b = build(BASIC, &w);
	assert_int_equal(a->totals.events + b->totals.events, all->totals.events);
	assert_int_equal(a->totals.read_bytes + b->totals.read_bytes, all->totals.read_bytes);
	/* Waits are clipped at the bounds: the halves add up to within a ns per wait. */
	assert_true(a->totals.wait_ns + b->totals.wait_ns <= all->totals.wait_ns);
	assert_true(a->totals.wait_ns + b->totals.wait_ns + 1000 >= all->totals.wait_ns);
	assert_int_equal(a->window.until_ns, mid);
	assert_true(a->nbuckets >= 1);
	bp_model_free(a);
	bp_model_free(b);
	bp_model_free(all);
}

static void test_page_map(void **state)
{
	struct bp_model *m = build(BASIC, NULL);
	size_t i, k, used = 0, never = 0, mapped = 0;

	(void)state;
	for (i = 0; i < m->nfiles; i++) {
		struct bp_file *f = &m->files[i];
		unsigned char *st;

		if (f->kind != BP_FILE_REGULAR || !f->size_pages || f->size_pages > 1 << 20)
			continue;
		st = malloc(f->size_pages);
		assert_non_null(st);
		bp_model_file_pages(m, f, 0, f->size_pages, st);
		for (k = 0; k < f->size_pages; k++) {
			used += st[k] == BP_PAGE_USED;
			never += st[k] == BP_PAGE_NEVER_USED;
			mapped += st[k] == BP_PAGE_MAPPED;
		}
		free(st);
	}
	assert_int_equal(never * m->header.page_size, m->totals.never_used_bytes);
	assert_int_equal(mapped * m->header.page_size, m->totals.mapped_unknown_bytes);
	assert_true(used > 0);
	bp_model_free(m);
}

static void test_no_access_events(void **state)
{
	struct bp_model *m = build(NO_ACCESS, NULL);

	(void)state;
	assert_true(m->missing & BP_MISSING_ACCESS);
	assert_false(m->missing_on_kernel & BP_MISSING_ACCESS);
	assert_int_equal(m->totals.never_used_bytes, 0);
	assert_true(m->totals.read_bytes > 0);
	bp_model_free(m);
}


/* ---- generated event sequences: the I/O-wait rules, no recording ---- */

#define COMMON_FIELDS                                                                  \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"           \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"           \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"   \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                       \
	"\n"

/* mm_filemap_add_to_page_cache and mm_filemap_delete_from_page_cache */
#define PAGE_CACHE_FIELDS \
	"\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long i_ino;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long index;\toffset:24;\tsize:8;\tsigned:0;\n" \
	"\tfield:dev_t s_dev;\toffset:32;\tsize:4;\tsigned:0;\n" \
	"\tfield:unsigned char order;\toffset:36;\tsize:1;\tsigned:0;\n" \
	"\nprint fmt: \"%lu\", REC->i_ino\n"

enum {
	ID_SWITCH = 300, ID_WAKING, ID_WAKEUP, ID_ENTER, ID_EXIT, ID_ADD, ID_FAULT, ID_BIO,
	ID_ENTER_READ, ID_EXIT_READ, ID_ENTER_FSYNC, ID_FORK, ID_DELETE, ID_MAP_PAGES, ID_GET_PAGES,
	ID_RQ_ISSUE, ID_RQ_COMPLETE, ID_TASK_EXIT, ID_EXEC, ID_ATTACH, ID_STAT_IOWAIT, ID_STAT_BLOCKED,
	ID_WQ_QUEUE, ID_WQ_START, ID_LOCK, ID_REMAP
};

static const char *const gen_formats[][2] = {
	{ "sched", "name: sched_switch\nID: 300\nformat:\n" COMMON_FIELDS
	  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	  "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	  "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	  "\nprint fmt: \"%d %d\", REC->prev_pid, REC->next_pid\n" },
	{ "sched", "name: sched_waking\nID: 301\nformat:\n" COMMON_FIELDS
	  "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	  "\nprint fmt: \"%d\", REC->pid\n" },
	{ "sched", "name: sched_wakeup\nID: 302\nformat:\n" COMMON_FIELDS
	  "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	  "\nprint fmt: \"%d\", REC->pid\n" },
	{ "raw_syscalls", "name: sys_enter\nID: 303\nformat:\n" COMMON_FIELDS
	  "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	  "\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	  "\nprint fmt: \"%ld\", REC->id\n" },
	{ "raw_syscalls", "name: sys_exit\nID: 304\nformat:\n" COMMON_FIELDS
	  "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	  "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
	  "\nprint fmt: \"%ld\", REC->id\n" },
	{ "filemap", "name: mm_filemap_add_to_page_cache\nID: 305\nformat:\n" COMMON_FIELDS
	  PAGE_CACHE_FIELDS },
	{ "filemap", "name: mm_filemap_fault\nID: 306\nformat:\n" COMMON_FIELDS
	  "\tfield:unsigned long i_ino;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:dev_t s_dev;\toffset:16;\tsize:4;\tsigned:0;\n"
	  "\tfield:unsigned long index;\toffset:24;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%lu\", REC->i_ino\n" },
	{ "block", "name: block_bio_queue\nID: 307\nformat:\n" COMMON_FIELDS
	  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
	  "\tfield:char rwbs[8];\toffset:28;\tsize:8;\tsigned:0;\n"
	  "\tfield:char comm[16];\toffset:36;\tsize:16;\tsigned:0;\n"
	  "\nprint fmt: \"%s\", REC->rwbs\n" },
	{ "syscalls", "name: sys_enter_read\nID: 308\nformat:\n" COMMON_FIELDS
	  "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%d\", REC->fd\n" },
	{ "syscalls", "name: sys_exit_read\nID: 309\nformat:\n" COMMON_FIELDS
	  "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
	  "\nprint fmt: \"%ld\", REC->ret\n" },
	{ "syscalls", "name: sys_enter_fsync\nID: 310\nformat:\n" COMMON_FIELDS
	  "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%d\", REC->fd\n" },
	{ "sched", "name: sched_process_fork\nID: 311\nformat:\n" COMMON_FIELDS
	  "\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n"
	  "\nprint fmt: \"%d\", REC->child_pid\n" },
	{ "filemap", "name: mm_filemap_delete_from_page_cache\nID: 312\nformat:\n" COMMON_FIELDS
	  PAGE_CACHE_FIELDS },
	{ "filemap", "name: mm_filemap_map_pages\nID: 313\nformat:\n" COMMON_FIELDS
	  "\tfield:unsigned long i_ino;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:dev_t s_dev;\toffset:16;\tsize:4;\tsigned:0;\n"
	  "\tfield:unsigned long index;\toffset:24;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned long last_index;\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%lu\", REC->i_ino\n" },
	{ "filemap", "name: mm_filemap_get_pages\nID: 314\nformat:\n" COMMON_FIELDS
	  "\tfield:unsigned long i_ino;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:dev_t s_dev;\toffset:16;\tsize:4;\tsigned:0;\n"
	  "\tfield:unsigned long index;\toffset:24;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned long last_index;\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%lu\", REC->i_ino\n" },
	{ "block", "name: block_rq_issue\nID: 315\nformat:\n" COMMON_FIELDS
	  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
	  "\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n"
	  "\tfield:char rwbs[8];\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%s\", REC->rwbs\n" },
	{ "block", "name: block_rq_complete\nID: 316\nformat:\n" COMMON_FIELDS
	  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
	  "\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\tfield:char rwbs[8];\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%s\", REC->rwbs\n" },
	{ "sched", "name: sched_process_exit\nID: 317\nformat:\n" COMMON_FIELDS
	  "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\nprint fmt: \"%d\", REC->pid\n" },
	{ "sched", "name: sched_process_exec\nID: 318\nformat:\n" COMMON_FIELDS
	  "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	  "\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	  "\nprint fmt: \"%s\", __get_str(filename)\n" },
	{ "cgroup", "name: cgroup_attach_task\nID: 319\nformat:\n" COMMON_FIELDS
	  "\tfield:__data_loc char[] dst_path;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:int pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	  "\nprint fmt: \"%s\", __get_str(dst_path)\n" },
	{ "sched", "name: sched_stat_iowait\nID: 320\nformat:\n" COMMON_FIELDS
	  "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:u64 delay;\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%d\", REC->pid\n" },
	{ "sched", "name: sched_stat_blocked\nID: 321\nformat:\n" COMMON_FIELDS
	  "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:u64 delay;\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%d\", REC->pid\n" },
	{ "workqueue", "name: workqueue_queue_work\nID: 322\nformat:\n" COMMON_FIELDS
	  "\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%p\", REC->work\n" },
	{ "workqueue", "name: workqueue_execute_start\nID: 323\nformat:\n" COMMON_FIELDS
	  "\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"%p\", REC->work\n" },
	{ "lock", "name: contention_begin\nID: 324\nformat:\n" COMMON_FIELDS
	  "\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n"
	  "\nprint fmt: \"%p\", REC->lock_addr\n" },
	{ "block", "name: block_bio_remap\nID: 325\nformat:\n" COMMON_FIELDS
	  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
	  "\tfield:dev_t old_dev;\toffset:28;\tsize:4;\tsigned:0;\n"
	  "\tfield:sector_t old_sector;\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\tfield:char rwbs[10];\toffset:40;\tsize:10;\tsigned:0;\n"
	  "\nprint fmt: \"%llu\", REC->sector\n" },
};

#define US 1000ull
#define MAXEV 96
#define FDEV ((8u << 20) | 1u)   /* 8:1, kernel encoding */
#define FINO 12

/* One generated event: what happened, on which CPU, in whose context. */
struct gev {
	uint64_t us;
	int cpu;
	int id;
	int pid;    /* common_pid */
	long a, b, c;
	const char *s;  /* a filename, a cgroup path */
};

#define SW(t, cpu, prev, state, next) { t, cpu, ID_SWITCH, prev, prev, state, next, NULL }
/*
 * Wakings of pid by default come from a block completion: in the
 * interrupt (interrupting cur) right after a block_rq_complete on that
 * CPU, which gen_add puts before it. WK_TIMER: an interrupt without a
 * completion (a timer); WK_TASK: task cur in process context.
 */
#define WK_TIMER 1
#define WK_TASK 2
#define WK_SOFTIRQ 3   /* a timer's softirq: TRACE_FLAG_SOFTIRQ */
#define WAKING(t, cpu, cur, pid, target) { t, cpu, ID_WAKING, cur, pid, target, 0, NULL }
#define WAKEUP(t, cpu, cur, pid) { t, cpu, ID_WAKEUP, cur, pid, cpu, 0, NULL }
#define TIMER_WAKING(t, cpu, cur, pid) { t, cpu, ID_WAKING, cur, pid, cpu, WK_TIMER, NULL }
#define TASK_WAKING(t, cpu, cur, pid) { t, cpu, ID_WAKING, cur, pid, cpu, WK_TASK, NULL }
/* The kernel's schedstats on pid's sleep: sched_stat_iowait / _blocked, delay in µs. */
#define STAT_IOWAIT(t, cpu, pid, delay) { t, cpu, ID_STAT_IOWAIT, 0, pid, delay, 0, NULL }
#define STAT_BLOCKED(t, cpu, pid, delay) { t, cpu, ID_STAT_BLOCKED, 0, pid, delay, 0, NULL }
#define ENTER(t, cpu, pid, nr) { t, cpu, ID_ENTER, pid, nr, 0, 0, NULL }
/* futex(uaddr, op) entered (raw_syscalls, x86_64's 202) */
#define FUTEX(t, cpu, pid, uaddr, op) { t, cpu, ID_ENTER, pid, 202, uaddr, op, NULL }
/* pid queues on the sleeping rwsem at addr (lock:contention_begin, LCB_F_* flags) */
#define LOCK(t, cpu, pid, addr, flags) { t, cpu, ID_LOCK, pid, addr, flags, 0, NULL }
#define EXIT(t, cpu, pid, nr) { t, cpu, ID_EXIT, pid, nr, 0, 0, NULL }
#define ADD(t, cpu, pid, index) { t, cpu, ID_ADD, pid, index, 0, 0, NULL }
/* A page of another file on the same disk (a metadata block, another file). */
#define ADD_INO(t, cpu, pid, index, ino) { t, cpu, ID_ADD, pid, index, 0, ino, NULL }
/* 2^order pages from index, as one folio */
#define ADDO(t, cpu, pid, index, order) { t, cpu, ID_ADD, pid, index, order, 0, NULL }
/* fault-around mapped pages first..last; a read (get_pages) covered them */
#define MAP(t, cpu, pid, first, last) { t, cpu, ID_MAP_PAGES, pid, first, last, 0, NULL }
#define GETP(t, cpu, pid, first, last) { t, cpu, ID_GET_PAGES, pid, first, last, 0, NULL }
#define FAULT(t, cpu, pid, index) { t, cpu, ID_FAULT, pid, index, 0, 0, NULL }
#define DELETE(t, cpu, pid, index) { t, cpu, ID_DELETE, pid, index, 0, 0, NULL }
#define BIO(t, cpu, pid) { t, cpu, ID_BIO, pid, 0, 0, 0, NULL }   /* a read, of unknown size */
#define BIO_READ(t, cpu, pid, sectors) { t, cpu, ID_BIO, pid, 0, sectors, 0, NULL }
#define BIO_WRITE(t, cpu, pid) { t, cpu, ID_BIO, pid, 1, 8, 0, NULL }
/* A read bio on dev (FDEV, SDA) at sector (a: write bit | sector << 1) */
#define BIO_AT(t, cpu, pid, dev, sector, n) { t, cpu, ID_BIO, pid, (sector) << 1, n, dev, NULL }
/* block_bio_remap: n read sectors at sector of FDEV (the file system's) to SDA at sector + 2048 */
#define REMAP(t, cpu, pid, sector, n) { t, cpu, ID_REMAP, pid, sector, n, 0, NULL }
#define REMAP_OFFSET 2048
#define FORK(t, cpu, parent, child) { t, cpu, ID_FORK, parent, parent, child, 0, NULL }
#define TASK_EXIT(t, cpu, pid) { t, cpu, ID_TASK_EXIT, pid, pid, 0, 0, NULL }
#define ENTER_READ(t, cpu, pid) { t, cpu, ID_ENTER_READ, pid, 0, 0, 0, NULL }
#define EXIT_READ(t, cpu, pid) { t, cpu, ID_EXIT_READ, pid, 0, 0, 0, NULL }
#define ENTER_FSYNC(t, cpu, pid) { t, cpu, ID_ENTER_FSYNC, pid, 0, 0, 0, NULL }
/* Block requests: sectors [sector, sector + n) of disk sda, or sdb (RQ_SDB), a write (RQ_WRITE). */
#define RQ_WRITE 1
#define RQ_SDB 2
#define RQ_IN_TASK 4   /* completed in process context (loop, a threaded interrupt), not an interrupt */
#define ISSUE(t, cpu, pid, sector, n, flags) { t, cpu, ID_RQ_ISSUE, pid, sector, n, flags, NULL }
#define DONE(t, cpu, sector, n, flags) { t, cpu, ID_RQ_COMPLETE, 0, sector, n, flags, NULL }
#define SDA ((8u << 20) | 0u)
#define SDB ((8u << 20) | 16u)
/* pid exec'd path (itself: no thread took over) */
#define EXEC(t, cpu, pid, path) { t, cpu, ID_EXEC, pid, 0, 0, 0, path }
/* pid moved into the cgroup path (by cur) */
#define ATTACH(t, cpu, cur, pid, path) { t, cpu, ID_ATTACH, cur, pid, 0, 0, path }
/* Work item (a work struct's address) queued by cur, started by kworker cur. */
#define WQ_QUEUE(t, cpu, cur, work) { t, cpu, ID_WQ_QUEUE, cur, work, 0, 0, NULL }
#define WQ_START(t, cpu, cur, work) { t, cpu, ID_WQ_START, cur, work, 0, 0, NULL }
#define END { 0, -1, 0, 0, 0, 0, 0, NULL }

struct gen {
	struct tep_handle *tep;
	struct bp_event ev[MAXEV];
	unsigned char data[MAXEV][64];
	size_t n;
};

static void put(unsigned char *d, int off, const void *v, size_t len)
{
	memcpy(d + off, v, len);
}

static void gen_init(struct gen *g)
{
	size_t i;

	memset(g, 0, sizeof(*g));
	g->tep = tep_alloc();
	assert_non_null(g->tep);
	tep_set_long_size(g->tep, 8);
	tep_set_page_size(g->tep, 4096);
	tep_set_cpus(g->tep, 2);
	for (i = 0; i < sizeof(gen_formats) / sizeof(gen_formats[0]); i++)
		assert_int_equal(tep_parse_event(g->tep, gen_formats[i][1],
						 strlen(gen_formats[i][1]), gen_formats[i][0]), 0);
}

static void gen_add(struct gen *g, const struct gev *e)
{
	unsigned char *d = g->data[g->n];
	struct bp_event *ev = &g->ev[g->n];
	uint16_t type = (uint16_t)e->id;
	int32_t i32;
	int64_t i64;
	uint32_t dev = FDEV, loc;
	uint64_t ino = FINO;
	const char *rwbs;

	assert_true(g->n < MAXEV);
	if ((e->id == ID_WAKING || e->id == ID_WAKEUP) && !e->c) {
		/* The completion that wakes it: a sector no test issues. */
		struct gev done = { e->us, e->cpu, ID_RQ_COMPLETE, e->pid, 1l << 40, 8, 0, NULL };

		gen_add(g, &done);
		d = g->data[g->n];
		ev = &g->ev[g->n];
		assert_true(g->n < MAXEV);
	}
	memset(d, 0, 64);
	put(d, 0, &type, 2);
	put(d, 4, &e->pid, 4);
	/* common_flags: TRACE_FLAG_HARDIRQ for completions and the wakings in their interrupt. */
	if ((e->id == ID_RQ_COMPLETE && !(e->c & RQ_IN_TASK)) ||
	    ((e->id == ID_WAKING || e->id == ID_WAKEUP) && e->c != WK_TASK))
		d[2] = (e->id == ID_WAKING || e->id == ID_WAKEUP) && e->c == WK_SOFTIRQ ? 0x10 : 0x08;
	switch (e->id) {
	case ID_SWITCH:
		i32 = (int32_t)e->a;
		put(d, 24, &i32, 4);
		i64 = e->b;
		put(d, 32, &i64, 8);
		i32 = (int32_t)e->c;
		put(d, 56, &i32, 4);
		break;
	case ID_WAKING:
	case ID_WAKEUP:
		i32 = (int32_t)e->a;
		put(d, 24, &i32, 4);
		i32 = (int32_t)e->b;
		put(d, 32, &i32, 4);
		break;
	case ID_ENTER:
	case ID_EXIT:
	case ID_WQ_QUEUE:
	case ID_WQ_START:
		i64 = e->a;
		put(d, 8, &i64, 8);
		if (e->id == ID_ENTER) {   /* args[0], args[1] */
			i64 = e->b;
			put(d, 16, &i64, 8);
			i64 = e->c;
			put(d, 24, &i64, 8);
		}
		break;
	case ID_LOCK:
		i64 = e->a;
		put(d, 8, &i64, 8);
		i32 = (int32_t)e->b;
		put(d, 16, &i32, 4);
		break;
	case ID_ADD:
	case ID_DELETE:
		if (e->c)
			ino = (uint64_t)e->c;
		put(d, 16, &ino, 8);
		i64 = e->a;
		put(d, 24, &i64, 8);
		put(d, 32, &dev, 4);
		d[36] = (unsigned char)e->b;
		break;
	case ID_MAP_PAGES:
	case ID_GET_PAGES:
		put(d, 8, &ino, 8);
		put(d, 16, &dev, 4);
		i64 = e->a;
		put(d, 24, &i64, 8);
		i64 = e->b;
		put(d, 32, &i64, 8);
		break;
	case ID_FAULT:
		put(d, 8, &ino, 8);
		put(d, 16, &dev, 4);
		i64 = e->a;
		put(d, 24, &i64, 8);
		break;
	case ID_BIO:
		if (e->c)
			dev = (uint32_t)e->c;
		put(d, 8, &dev, 4);
		i64 = e->a >> 1;
		put(d, 16, &i64, 8);
		i32 = (int32_t)e->b;
		put(d, 24, &i32, 4);
		put(d, 28, e->a & 1 ? "W" : "R", 2);
		break;
	case ID_REMAP:
		loc = SDA;
		put(d, 8, &loc, 4);
		i64 = e->a + REMAP_OFFSET;
		put(d, 16, &i64, 8);
		i32 = (int32_t)e->b;
		put(d, 24, &i32, 4);
		put(d, 28, &dev, 4);
		i64 = e->a;
		put(d, 32, &i64, 8);
		put(d, 40, "R", 2);
		break;
	case ID_RQ_ISSUE:
	case ID_RQ_COMPLETE:
		dev = e->c & RQ_SDB ? SDB : SDA;
		put(d, 8, &dev, 4);
		i64 = e->a;
		put(d, 16, &i64, 8);
		i32 = (int32_t)e->b;
		put(d, 24, &i32, 4);
		rwbs = !e->b ? "FF" : e->c & RQ_WRITE ? "W" : "R";
		put(d, 32, rwbs, strlen(rwbs) + 1);
		break;
	case ID_ENTER_READ:
	case ID_EXIT_READ:
	case ID_ENTER_FSYNC:
		break;
	case ID_TASK_EXIT:
		i32 = (int32_t)e->a;
		put(d, 24, &i32, 4);
		break;
	case ID_STAT_IOWAIT:
	case ID_STAT_BLOCKED:
		i32 = (int32_t)e->a;
		put(d, 24, &i32, 4);
		i64 = e->b * (long)US;
		put(d, 32, &i64, 8);
		break;
	case ID_FORK:
		i32 = (int32_t)e->a;
		put(d, 24, &i32, 4);
		i32 = (int32_t)e->b;
		put(d, 44, &i32, 4);
		break;
	case ID_EXEC:
		/* __data_loc: length << 16 | offset */
		loc = (uint32_t)(strlen(e->s) + 1) << 16 | 20;
		assert_true(20 + (loc >> 16) <= 64);
		put(d, 8, &loc, 4);
		put(d, 12, &e->pid, 4);
		put(d, 16, &e->pid, 4);
		put(d, 20, e->s, loc >> 16);
		break;
	case ID_ATTACH:
		loc = (uint32_t)(strlen(e->s) + 1) << 16 | 16;
		assert_true(16 + (loc >> 16) <= 64);
		put(d, 8, &loc, 4);
		i32 = (int32_t)e->a;
		put(d, 12, &i32, 4);
		put(d, 16, e->s, loc >> 16);
		break;
	default:
		fail();
	}
	ev->ts = e->us * US;
	ev->cpu = e->cpu;
	ev->id = e->id;
	ev->format = tep_find_event(g->tep, e->id);
	ev->data = d;
	ev->size = 64;
	g->n++;
}

/* The model of generated events (ev ends with END); g keeps the tep to free. */
static struct bp_model *gen_build(struct gen *g, const struct gev *ev)
{
	struct bp_model *m;
	size_t i;

	gen_init(g);
	for (i = 0; ev[i].cpu >= 0; i++)
		gen_add(g, &ev[i]);
	m = bp_model_build_events(g->tep, NULL, g->ev, g->n, NULL, NULL);
	assert_non_null(m);
	return m;
}

struct span_sum {
	int tid;
	uint64_t io, other, run, last_end;
	int overlaps;
	enum bp_cause cause;
};

static void on_span(void *arg, const struct bp_span *sp)
{
	struct span_sum *ss = arg;

	if (sp->tid != ss->tid)
		return;
	if (sp->start_ns < ss->last_end)
		ss->overlaps++;
	ss->last_end = sp->end_ns;
	if (sp->state == BP_SPAN_IO_WAIT) {
		ss->io += sp->end_ns - sp->start_ns;
		ss->cause = sp->cause;
	} else if (sp->state == BP_SPAN_OTHER_WAIT) {
		ss->other += sp->end_ns - sp->start_ns;
	} else if (sp->state == BP_SPAN_RUN) {
		ss->run += sp->end_ns - sp->start_ns;
	}
}

/*
 * A case: events, the task looked at, its expected I/O wait and other
 * uninterruptible sleep (µs), and the cause the I/O wait is charged to.
 */
struct wait_case {
	const char *what;
	struct gev ev[24];
	int tid;
	uint64_t wait_us, other_us;
	enum bp_cause cause;
	int charged;   /* the wait is charged to file FINO */
	uint64_t since_us, until_us;
};

static const struct wait_case wait_cases[] = {
	{ "read() woken from an idle CPU onto the idle CPU it slept on: ends when that CPU runs",
	  { SW(1, 1, 9, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKING(110, 1, 0, 100, 0), SW(112, 0, 0, 0, 100), EXIT(113, 0, 100, 0), END },
	  100, 102, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "woken on the CPU that runs it (the interrupt hit that idle CPU): ends at the waking",
	  { SW(1, 1, 9, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKING(110, 0, 0, 100, 0), SW(112, 0, 0, 0, 100), END },
	  100, 100, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "woken onto a busy CPU: runnable from the waking (run-queue delay is not wait)",
	  { ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 200),
	    WAKING(110, 1, 0, 100, 0), SW(150, 0, 200, 0x100, 100), END },
	  100, 100, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "a wakeup queued to an idle CPU does not end the task's next wait on another CPU",
	  { SW(1, 1, 9, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKING(110, 1, 0, 100, 0), SW(112, 1, 0, 0, 100), SW(120, 1, 100, 2, 0),
	    SW(150, 0, 0, 0, 300), WAKING(300, 0, 300, 100, 1), SW(305, 1, 0, 0, 100), END },
	  100, 100 + 185, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "sched_wakeup recorded: the wait ends exactly there",
	  { ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0), WAKING(110, 1, 0, 100, 0),
	    WAKEUP(111, 0, 0, 100), SW(130, 0, 0, 0, 100), END },
	  100, 101, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "preempted (R+) and yielding (R) are not waits",
	  { ENTER(2, 0, 100, 0), SW(10, 0, 100, 0x100, 200), SW(50, 0, 200, 0, 100),
	    SW(60, 0, 100, 0, 200), SW(90, 0, 200, 1, 100), END },
	  100, 0, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "a D-sleep in a syscall that is not I/O, woken by a timer, is other",
	  { ENTER(2, 0, 100, 7), SW(10, 0, 100, 2, 0), TIMER_WAKING(60, 0, 0, 100),
	    SW(61, 0, 0, 0, 100), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "a D-sleep of a task outside any syscall, woken by a timer, is other",
	  { SW(10, 0, 100, 2, 0), TIMER_WAKING(60, 0, 0, 100), SW(61, 0, 0, 0, 100), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "a D-sleep in openat() (a directory lock) woken by the task that unlocks it: other",
	  { ENTER(2, 0, 100, 257), SW(10, 0, 100, 2, 0), SW(11, 1, 0, 0, 300),
	    TASK_WAKING(60, 1, 300, 100), SW(61, 0, 0, 0, 100), END },
	  100, 0, 51, BP_CAUSE_READ, 0, 0, 0 },
	{ "an msleep in open() of a device node, woken by a timer after a completion on another CPU: other",
	  { ENTER(2, 0, 100, 257), SW(10, 0, 100, 2, 0), DONE(59, 1, 5, 8, 0),
	    TIMER_WAKING(60, 0, 0, 100), SW(61, 0, 0, 0, 100), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "a timer interrupt after the completion's on that CPU, a task having run between: other",
	  { ENTER(2, 0, 100, 257), SW(10, 0, 100, 2, 0), DONE(20, 0, 5, 8, 0),
	    SW(21, 0, 0, 0, 300), SW(22, 0, 300, 1, 0), TIMER_WAKING(60, 0, 0, 100),
	    SW(61, 0, 0, 0, 100), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "a D-sleep in openat() still open at the end, no request in flight: other",
	  { ENTER(2, 0, 100, 257), SW(10, 0, 100, 2, 0), SW(60, 1, 0, 0, 300), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "a D-sleep in read() still open at the end (a held throttled read): I/O",
	  { ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0), SW(60, 1, 0, 0, 300), END },
	  100, 50, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "a timer softirq on the way out of a completion's hard interrupt: other",
	  { ENTER(2, 0, 100, 257), SW(10, 0, 100, 2, 0), DONE(60, 0, 5, 8, 0),
	    { 60, 0, ID_WAKING, 0, 100, 0, WK_SOFTIRQ, NULL }, SW(61, 0, 0, 0, 100), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "woken while still on its CPU, before its D switch-out: runnable from then, no sleep",
	  { SW(5, 0, 0, 0, 100), ENTER(6, 0, 100, 0), TIMER_WAKING(10, 1, 0, 100),
	    SW(11, 0, 100, 2, 0), SW(40, 0, 0, 0, 100), END },
	  100, 0, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "woken in a completion's interrupt, no evidence: I/O wait, cause other, no file",
	  { SW(10, 0, 100, 2, 0), WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), END },
	  100, 50, 0, BP_CAUSE_OTHER, 0, 0, 0 },
	{ "a worker woken by a completion finishes it and wakes the reader (dm-crypt): I/O",
	  { SW(1, 1, 60, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0), WAKING(50, 1, 0, 60, 1),
	    SW(51, 1, 0, 0, 60), TASK_WAKING(55, 1, 60, 100), SW(61, 0, 0, 0, 100), END },
	  100, 51, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "... but not the task that worker wakes in turn (one step only)",
	  { SW(1, 1, 60, 1, 70), SW(2, 1, 70, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKING(50, 1, 0, 60, 1), SW(51, 1, 0, 0, 60), TASK_WAKING(52, 1, 60, 70), SW(53, 1, 60, 1, 70),
	    TASK_WAKING(55, 1, 70, 100), SW(61, 0, 0, 0, 100), END },
	  100, 0, 51, BP_CAUSE_READ, 0, 0, 0 },
	{ "a reader a completion woke passes the page on to the next reader of it: I/O",
	  { ENTER(1, 1, 70, 0), SW(3, 1, 70, 2, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKING(50, 1, 0, 70, 1), SW(51, 1, 0, 0, 70), TASK_WAKING(55, 1, 70, 100),
	    SW(61, 0, 0, 0, 100), END },
	  100, 51, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "... but a task it wakes that is not reading (a lock it released) is other",
	  { ENTER(1, 1, 70, 0), SW(3, 1, 70, 2, 0), ENTER(2, 0, 100, 7), SW(10, 0, 100, 2, 0),
	    WAKING(50, 1, 0, 70, 1), SW(51, 1, 0, 0, 70), TASK_WAKING(55, 1, 70, 100),
	    SW(61, 0, 0, 0, 100), END },
	  100, 0, 51, BP_CAUSE_READ, 0, 0, 0 },
	{ "a task that completes a request itself (loop, threaded interrupt) wakes the reader: I/O",
	  { ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0), SW(11, 1, 0, 0, 60),
	    { 50, 1, ID_RQ_COMPLETE, 60, 7, 8, RQ_IN_TASK, NULL }, TASK_WAKING(51, 1, 60, 100),
	    SW(61, 0, 0, 0, 100), END },
	  100, 51, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "the kernel says iowait (balance_dirty_pages, woken by a timer): I/O",
	  { ENTER(2, 0, 100, 1), SW(10, 0, 100, 2, 0), STAT_IOWAIT(60, 0, 100, 50),
	    STAT_BLOCKED(60, 0, 100, 50), TIMER_WAKING(60, 0, 0, 100), SW(61, 0, 0, 0, 100), END },
	  100, 50, 0, BP_CAUSE_OTHER, 0, 0, 0 },
	{ "the kernel says blocked, not iowait: other, even woken right after a completion",
	  { ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0), STAT_BLOCKED(60, 0, 100, 50),
	    WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "a stale report (its sleep began long before this one) is not this sleep's: inferred",
	  { ENTER(2, 0, 100, 0), SW(3000, 0, 100, 2, 0), STAT_IOWAIT(3050, 0, 100, 2000),
	    TIMER_WAKING(3050, 0, 0, 100), SW(3051, 0, 0, 0, 100), END },
	  100, 0, 50, BP_CAUSE_READ, 0, 0, 0 },
	{ "a page fault on a file: I/O wait in a fault, charged to that file",
	  { ENTER(1, 0, 100, 0), EXIT(2, 0, 100, 0), FAULT(5, 0, 100, 3),
	    SW(10, 0, 100, 2, 0), WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), END },
	  100, 50, 0, BP_CAUSE_FAULT, 1, 0, 0 },
	{ "pages inserted then a read bio in a non-I/O syscall: I/O wait (cause other)",
	  { ENTER(1, 0, 100, 16), ADD(3, 0, 100, 0), BIO(4, 0, 100), SW(10, 0, 100, 2, 0),
	    WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), END },
	  100, 50, 0, BP_CAUSE_OTHER, 1, 0, 0 },
	{ "a kernel thread waits for the block I/O it issued, then sleeps on a lock: I/O, then other",
	  { BIO(5, 0, 50), SW(10, 0, 50, 2, 0), WAKING(60, 0, 0, 50, 0), SW(61, 0, 0, 0, 50),
	    SW(70, 0, 50, 2, 300), TASK_WAKING(100, 0, 300, 50), SW(101, 0, 300, 1, 50), END },
	  50, 50, 30, BP_CAUSE_OTHER, 0, 0, 0 },
	{ "per-syscall events (syscalls:sys_enter_read): a wait in read()",
	  { ENTER_READ(2, 0, 100), SW(10, 0, 100, 2, 0), WAKING(60, 0, 0, 100, 0),
	    SW(61, 0, 0, 0, 100), EXIT_READ(62, 0, 100), END },
	  100, 50, 0, BP_CAUSE_READ, 0, 0, 0 },
	{ "per-syscall events: a file fault, then fsync() without I/O of its own: sync, no file",
	  { ENTER_READ(1, 0, 100), EXIT_READ(2, 0, 100), FAULT(5, 0, 100, 3), ENTER_FSYNC(6, 0, 100),
	    SW(10, 0, 100, 2, 0), WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), END },
	  100, 50, 0, BP_CAUSE_SYNC, 0, 0, 0 },
	{ "raw_syscalls: a read of the file, then fsync (74) writing back: sync, not the file read",
	  { ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), BIO(3, 0, 100), EXIT(4, 0, 100, 0),
	    ENTER(5, 0, 100, 74), BIO_WRITE(6, 0, 100), SW(10, 0, 100, 2, 0),
	    WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), EXIT(62, 0, 100, 74), END },
	  100, 50, 0, BP_CAUSE_SYNC, 0, 0, 0 },
	{ "raw_syscalls: a fault on the file, then sync (162), a journal commit: sync, no file",
	  { ENTER(1, 0, 100, 9), EXIT(2, 0, 100, 9), FAULT(3, 0, 100, 0), ADD(4, 0, 100, 0),
	    BIO(5, 0, 100), ENTER(6, 0, 100, 162), SW(10, 0, 100, 2, 0),
	    WAKING(400, 0, 0, 100, 0), SW(401, 0, 0, 0, 100), END },
	  100, 390, 0, BP_CAUSE_SYNC, 0, 0, 0 },
	{ "raw_syscalls: fdatasync, sync_file_range, syncfs, msync are sync waits too",
	  { ENTER(1, 0, 100, 75), SW(10, 0, 100, 2, 0), WAKING(20, 0, 0, 100, 0),
	    SW(21, 0, 0, 0, 100), EXIT(22, 0, 100, 75), ENTER(23, 0, 100, 277),
	    SW(30, 0, 100, 2, 0), WAKING(40, 0, 0, 100, 0), SW(41, 0, 0, 0, 100),
	    EXIT(42, 0, 100, 277), ENTER(43, 0, 100, 306), SW(50, 0, 100, 2, 0),
	    WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), EXIT(62, 0, 100, 306),
	    ENTER(63, 0, 100, 26), SW(70, 0, 100, 2, 0), WAKING(80, 0, 0, 100, 0),
	    SW(81, 0, 0, 0, 100), END },
	  100, 40, 0, BP_CAUSE_SYNC, 0, 0, 0 },
	{ "a buffered write (unrecorded write()) after a read: pages created, no read bio: sync",
	  { ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), BIO(3, 0, 100), EXIT(4, 0, 100, 0),
	    ADD(5, 0, 100, 8), ADD(6, 0, 100, 9), SW(10, 0, 100, 2, 0),
	    WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), END },
	  100, 50, 0, BP_CAUSE_SYNC, 0, 0, 0 },
	{ "a kernel thread waiting for the write bios it queued (writeback): sync",
	  { BIO_WRITE(5, 0, 50), SW(10, 0, 50, 2, 0), WAKING(60, 0, 0, 50, 0),
	    SW(61, 0, 0, 0, 50), END },
	  50, 50, 0, BP_CAUSE_SYNC, 0, 0, 0 },
	{ "a write that must read its partial page first waits for that read: other, the file",
	  { ENTER(1, 0, 100, 1), ADD(2, 0, 100, 0), BIO_READ(3, 0, 100, 8), SW(10, 0, 100, 2, 0),
	    WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), END },
	  100, 50, 0, BP_CAUSE_OTHER, 1, 0, 0 },
	{ "read() whose bio a kworker queues (blk-throttle): I/O wait in read, charged to the file",
	  { ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), SW(10, 0, 100, 2, 60), BIO_READ(20, 0, 60, 8),
	    SW(21, 0, 60, 1, 0), WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100),
	    EXIT(62, 0, 100, 0), END },
	  100, 50, 0, BP_CAUSE_READ, 1, 0, 0 },
	{ "a wait crossing the window's bounds is clipped to them",
	  { ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0), WAKING(110, 0, 0, 100, 0),
	    SW(112, 0, 0, 0, 100), SW(200, 0, 100, 1, 0), END },
	  100, 50, 0, BP_CAUSE_READ, 0, 50, 100 },
};

static void test_wait_rules(void **state)
{
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(wait_cases) / sizeof(wait_cases[0]); c++) {
		const struct wait_case *wc = &wait_cases[c];
		struct span_sum ss = { .tid = wc->tid };
		struct bp_build_hooks hooks = { .span = on_span, .arg = &ss };
		struct bp_window w = { wc->since_us * US, wc->until_us * US, 0, 0 };
		const struct bp_thread *th = NULL;
		struct bp_process *p;
		struct bp_model *m;
		uint64_t total;
		struct gen g;
		size_t i;

		print_message("case: %s\n", wc->what);
		gen_init(&g);
		for (i = 0; wc->ev[i].cpu >= 0; i++)
			gen_add(&g, &wc->ev[i]);
		m = bp_model_build_events(g.tep, NULL, g.ev, g.n, wc->until_us ? &w : NULL, &hooks);
		assert_non_null(m);
		for (i = 0; i < m->nthreads; i++)
			if (m->threads[i].tid == wc->tid)
				th = &m->threads[i];
		assert_non_null(th);
		assert_int_equal(th->wait_ns, wc->wait_us * US);
		assert_int_equal(th->other_wait_ns, wc->other_us * US);
		p = th->process;
		assert_int_equal(p->wait_ns, th->wait_ns);
		assert_int_equal(p->other_wait_ns, th->other_wait_ns);
		if (wc->wait_us) {
			assert_int_equal(p->wait_by_cause[wc->cause], p->wait_ns);
			assert_int_equal(p->wait_unknown_ns, wc->charged ? 0 : p->wait_ns);
			if (wc->charged)
				assert_int_equal(bp_model_find_file(m, FDEV, FINO)->wait_ns,
						 p->wait_ns);
		}
		/* Spans: I/O-wait spans sum exactly to the wait; none overlap. */
		assert_int_equal(ss.io, th->wait_ns);
		assert_int_equal(ss.other, th->other_wait_ns);
		assert_int_equal(ss.run, th->run_ns);
		assert_int_equal(ss.overlaps, 0);
		if (ss.io)
			assert_int_equal(ss.cause, wc->cause);
		for (i = 0, total = 0; i < BP_NCAUSES; i++)
			total += m->totals.wait_by_cause[i];
		assert_int_equal(m->totals.wait_ns, total);
		bp_model_free(m);
		tep_free(g.tep);
	}
}

/*
 * CPU idle while waiting: the time at least one task is inside an I/O wait
 * (the intervals its wait_ns is made of) and every CPU (of 2) is idle. A
 * case: events, an optional window (µs; until 0: none), and the expected
 * total (µs). The timeline buckets (10 µs wide) and the idle-wait spans
 * add up to it.
 */
struct idle_case {
	const char *what;
	struct gev ev[24];
	uint64_t idle_us;
	uint64_t since_us, until_us;
};

static const struct idle_case idle_cases[] = {
	{ "sched_wakeup onto an idle CPU, switched in later: idle waiting ends at the wakeup",
	  { SW(1, 1, 9, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKEUP(111, 0, 0, 100), SW(130, 0, 0, 0, 100), END },
	  101, 0, 0 },
	{ "woken by an interrupt on the idle CPU that runs it: ends at the waking, not the switch",
	  { SW(1, 1, 9, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKING(110, 0, 0, 100, 0), SW(112, 0, 0, 0, 100), END },
	  100, 0, 0 },
	/* 200 still waits while 100's CPU wakes up; 200's own wake-up latency is not counted. */
	{ "two overlapping waiters: counted once, each until its own wakeup",
	  { ENTER(1, 1, 200, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0), SW(50, 1, 200, 2, 0),
	    WAKING(110, 0, 0, 100, 0), SW(115, 0, 0, 0, 100), SW(120, 0, 100, 1, 0),
	    WAKING(150, 1, 0, 200, 1), SW(160, 1, 0, 0, 200), END },
	  (115 - 50) + (150 - 120), 0, 0 },
	{ "a waiter while another CPU runs something: no CPU idle while waiting",
	  { SW(1, 1, 9, 1, 300), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKING(110, 0, 0, 100, 0), SW(112, 0, 0, 0, 100), END },
	  0, 0, 0 },
	{ "the other CPU goes idle during the wait: idle from then to the waking",
	  { SW(1, 1, 9, 1, 300), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    SW(80, 1, 300, 1, 0), WAKING(110, 0, 0, 100, 0), SW(112, 0, 0, 0, 100), END },
	  30, 0, 0 },
	{ "a D-sleep that a timer ends on idle CPUs is not waiting",
	  { SW(1, 1, 9, 1, 0), SW(10, 0, 100, 2, 0), TIMER_WAKING(60, 0, 0, 100),
	    SW(61, 0, 0, 0, 100), END },
	  0, 0, 0 },
	{ "a window cuts it: only its part inside [since, until]",
	  { SW(1, 1, 9, 1, 0), ENTER(2, 0, 100, 0), SW(10, 0, 100, 2, 0),
	    WAKEUP(111, 0, 0, 100), SW(130, 0, 0, 0, 100), END },
	  50, 50, 100 },
};

struct idle_sum {
	uint64_t idle, last_end;
	int bad;
};

static void on_idle_span(void *arg, const struct bp_span *sp)
{
	struct idle_sum *is = arg;

	if (sp->state != BP_SPAN_IDLE_WAIT)
		return;
	if (sp->tid || sp->start_ns < is->last_end || sp->end_ns <= sp->start_ns)
		is->bad++;
	is->idle += sp->end_ns - sp->start_ns;
	is->last_end = sp->end_ns;
}

static void test_idle_rules(void **state)
{
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(idle_cases) / sizeof(idle_cases[0]); c++) {
		const struct idle_case *ic = &idle_cases[c];
		struct idle_sum is = { 0 };
		struct bp_build_hooks hooks = { .span = on_idle_span, .arg = &is };
		struct bp_window w = { ic->since_us * US, ic->until_us * US, 10 * US, 0 };
		struct bp_model *m;
		uint64_t buckets = 0;
		struct gen g;
		size_t i;

		print_message("case: %s\n", ic->what);
		gen_init(&g);
		for (i = 0; ic->ev[i].cpu >= 0; i++)
			gen_add(&g, &ic->ev[i]);
		m = bp_model_build_events(g.tep, NULL, g.ev, g.n, &w, &hooks);
		assert_non_null(m);
		assert_int_equal(m->totals.idle_wait_ns, ic->idle_us * US);
		for (i = 0; i < m->nbuckets; i++)
			buckets += m->timeline[i].idle_wait_ns;
		assert_int_equal(buckets, m->totals.idle_wait_ns);
		assert_int_equal(is.idle, m->totals.idle_wait_ns);
		assert_int_equal(is.bad, 0);
		bp_model_free(m);
		tep_free(g.tep);
	}
}

/*
 * Page states from generated filemap events: used (a read, or the faulting
 * page itself), never used, and mapped by fault-around but not known to be
 * used. Counts are in pages of file FINO.
 */
struct page_case {
	const char *what;
	struct gev ev[24];
	uint64_t read, used, never, mapped;
	const char *states;   /* a letter a page from 0: . none, u used, n never, m mapped, r re-read */
};

static const struct page_case page_cases[] = {
	{ "a cold fault reads around; the retried fault's window maps its neighbours",
	  { FAULT(1, 0, 100, 0), ADDO(2, 0, 100, 0, 5), BIO(3, 0, 100), MAP(4, 0, 100, 0, 15), END },
	  32, 1, 16, 15, "ummmmmmmmmmmmmmmnnnnnnnnnnnnnnnn" },
	{ "a later fault or read of a mapped page makes it used",
	  { FAULT(1, 0, 100, 0), ADDO(2, 0, 100, 0, 5), BIO(3, 0, 100), MAP(4, 0, 100, 0, 15),
	    FAULT(5, 0, 100, 3), GETP(6, 0, 100, 8, 9), END },
	  32, 4, 16, 12, "ummummmmuummmmmm" },
	{ "exact mode (fault-around one page): no map_pages, every touch faults",
	  { FAULT(1, 0, 100, 0), ADDO(2, 0, 100, 0, 4), BIO(3, 0, 100), FAULT(4, 0, 100, 4),
	    FAULT(5, 0, 100, 8), END },
	  16, 3, 13, 0, "unnnunnnunnnnnnn" },
	{ "a window mapped before the pages were read maps none of them",
	  { MAP(1, 0, 100, 0, 15), ADDO(2, 0, 100, 0, 2), BIO(3, 0, 100), END },
	  4, 0, 4, 0, "nnnn" },
	{ "a mapped page deleted stays mapped-unknown; read again, it starts over",
	  { ADDO(1, 0, 100, 0, 2), BIO(2, 0, 100), MAP(3, 0, 100, 0, 3), DELETE(4, 0, 200, 0),
	    ADD(5, 0, 100, 0), BIO(6, 0, 100), END },
	  5, 0, 1, 4, "rmmm" },
	{ "pages mapped by fault-around after being used stay used",
	  { ADDO(1, 0, 100, 0, 2), BIO(2, 0, 100), GETP(3, 0, 100, 0, 1), MAP(4, 0, 100, 0, 3), END },
	  4, 2, 0, 2, "uumm" },
};

static void test_page_states(void **state)
{
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(page_cases) / sizeof(page_cases[0]); c++) {
		const struct page_case *pc = &page_cases[c];
		size_t n = strlen(pc->states), i;
		unsigned char st[64];
		const struct bp_file *f;
		struct bp_model *m;
		struct gen g;

		print_message("case: %s\n", pc->what);
		gen_init(&g);
		for (i = 0; pc->ev[i].cpu >= 0; i++)
			gen_add(&g, &pc->ev[i]);
		m = bp_model_build_events(g.tep, NULL, g.ev, g.n, NULL, NULL);
		assert_non_null(m);
		assert_int_equal(m->missing & BP_MISSING_ACCESS, 0);
		f = bp_model_find_file(m, FDEV, FINO);
		assert_non_null(f);
		assert_int_equal(f->bytes_read, pc->read * 4096);
		assert_int_equal(f->used_bytes, pc->used * 4096);
		assert_int_equal(f->never_used_bytes, pc->never * 4096);
		assert_int_equal(f->mapped_unknown_bytes, pc->mapped * 4096);
		assert_int_equal(m->totals.mapped_unknown_bytes, pc->mapped * 4096);
		assert_true(n <= sizeof(st));
		bp_model_file_pages(m, f, 0, n, st);
		for (i = 0; i < n; i++) {
			static const char letter[] = {
				[BP_PAGE_NONE] = '.', [BP_PAGE_USED] = 'u', [BP_PAGE_NEVER_USED] = 'n',
				[BP_PAGE_REREAD] = 'r', [BP_PAGE_MAPPED] = 'm',
			};

			if (letter[st[i]] != pc->states[i])
				fail_msg("page %zu: '%c', expected '%c'", i, letter[st[i]],
					 pc->states[i]);
		}
		bp_model_free(m);
		tep_free(g.tep);
	}
}

/*
 * Read or created: which inserted pages are read from storage. Pid 100
 * reads (or writes), pid 60 is a kworker without syscalls: blk-throttle
 * holds a read bio and the kworker queues it later, never the reader,
 * which sleeps (SLEEP) until the data is there. A first write bio (BIO_WRITE
 * by pid 70) says the recording has block_bio_queue before any boundary
 * settles insertions. Counts are pages: of
 * file FINO and of file MINO, those read by pid 100, pages created
 * (totals.write_insert_bytes) and pages of FINO used.
 */
#define MINO 7
#define SLEEP(t, cpu, pid) SW(t, cpu, pid, 2, 0)
struct bytes_case {
	const char *what;
	struct gev ev[20];
	uint64_t read, other_read, by_reader, written, used;
};

static const struct bytes_case bytes_cases[] = {
	{ "raw_syscalls: read() inserts and waits, a kworker queues the bio: read by the reader",
	  { ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1), SW(4, 0, 100, 2, 60),
	    BIO_READ(5, 0, 60, 16), SW(6, 0, 60, 1, 0), WAKING(50, 1, 0, 100, 0),
	    SW(51, 0, 0, 0, 100), EXIT(52, 0, 100, 0), END },
	  2, 0, 2, 0, 0 },
	{ "per-syscall events: the same",
	  { ENTER_READ(1, 0, 100), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1), SLEEP(4, 0, 100),
	    BIO_READ(5, 1, 60, 16), EXIT_READ(6, 0, 100), END },
	  2, 0, 2, 0, 0 },
	{ "readahead the read returns before: the next read() waits on it, then the bio: read",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1),
	    EXIT(4, 0, 100, 0), ENTER(5, 0, 100, 0), SLEEP(6, 0, 100), BIO_READ(7, 1, 60, 16),
	    EXIT(8, 0, 100, 0), END },
	  2, 0, 2, 0, 0 },
	{ "read() of a hole (no wait), another file's read held: only the waited one is read",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD_INO(2, 0, 100, 0, MINO),
	    EXIT(3, 0, 100, 0), ENTER(4, 0, 100, 0), ADD(5, 0, 100, 0), SLEEP(6, 0, 100),
	    BIO_READ(7, 1, 60, 8), EXIT(8, 0, 100, 0), END },
	  1, 0, 1, 1, 0 },
	{ "read() of a hole, no bio at all: created, not read",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1),
	    EXIT(4, 0, 100, 0), BIO_READ(5, 1, 60, 8), END },
	  0, 0, 0, 2, 0 },
	{ "the stop comes while the reader sleeps in read() (a throttle holds its bios): read",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1),
	    EXIT(4, 0, 100, 0), ENTER(5, 0, 100, 0), ADD(6, 0, 100, 2), SLEEP(7, 0, 100), END },
	  3, 0, 3, 0, 0 },
	{ "the stop comes while the reader is awake in read() (or zeroing a hole): not known read",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1),
	    END },
	  0, 0, 0, 2, 0 },
	{ "execve: the binary's pages, a kworker's bio: read",
	  { ENTER(1, 0, 100, 59), ADD(2, 0, 100, 0), SLEEP(3, 0, 100), BIO_READ(4, 1, 60, 8),
	    EXIT(5, 0, 100, 59), END },
	  1, 0, 1, 0, 0 },
	{ "a fault on the file after a syscall: its pages, a kworker's bio: read, the page used",
	  { ENTER(1, 0, 100, 9), EXIT(2, 0, 100, 9), FAULT(3, 0, 100, 0), ADDO(4, 0, 100, 0, 2),
	    SLEEP(5, 0, 100), BIO_READ(6, 1, 60, 32), END },
	  4, 0, 4, 0, 1 },
	{ "a fault on a hole (mmap writes into a new file): no wait, created",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 9), EXIT(2, 0, 100, 9), FAULT(3, 0, 100, 0),
	    ADD(4, 0, 100, 0), FAULT(5, 0, 100, 1), ADD(6, 0, 100, 1), BIO_READ(7, 1, 60, 8),
	    END },
	  0, 0, 0, 2, 0 },
	{ "after a fault, an unrecorded write() into another file creates its pages",
	  { ENTER(1, 0, 100, 9), EXIT(2, 0, 100, 9), FAULT(3, 0, 100, 0), ADD(4, 0, 100, 0),
	    SLEEP(5, 0, 100), BIO_READ(6, 1, 60, 8), ADD_INO(7, 0, 100, 0, MINO),
	    ADD_INO(8, 0, 100, 1, MINO), ENTER(9, 0, 100, 74), END },
	  1, 0, 1, 2, 1 },
	{ "write() must read its partial page, a kworker queues that bio: created (not seen read)",
	  { ENTER(1, 0, 100, 1), ADD(2, 0, 100, 0), SLEEP(3, 0, 100), BIO_READ(4, 1, 60, 8),
	    EXIT(5, 0, 100, 1), END },
	  0, 0, 0, 1, 0 },
	{ "write() that reads its partial page itself: read (a read bio of its own)",
	  { ENTER(1, 0, 100, 1), ADD(2, 0, 100, 0), BIO_READ(3, 0, 100, 8), EXIT(4, 0, 100, 1),
	    END },
	  1, 0, 1, 0, 0 },
	{ "copy_file_range: the file its reads named is read, the copy created",
	  { ENTER(1, 0, 100, 326), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1), GETP(4, 0, 100, 0, 1),
	    ADD_INO(5, 0, 100, 0, MINO), ADD_INO(6, 0, 100, 1, MINO), SLEEP(7, 0, 100),
	    BIO_READ(8, 1, 60, 16), EXIT(9, 0, 100, 326), END },
	  2, 0, 2, 2, 0 },
	{ "copy_file_range naming the file first (as readahead does): read, a later read uses it",
	  { ENTER(1, 0, 100, 326), GETP(2, 0, 100, 0, 0), ADD(3, 0, 100, 0), ADD(4, 0, 100, 1),
	    SLEEP(5, 0, 100), BIO_READ(6, 1, 60, 16), GETP(7, 0, 100, 0, 1),
	    EXIT(8, 0, 100, 326), END },
	  2, 0, 2, 0, 2 },
	{ "copy_file_range: the copy's pages, then the read file's and their own bio: copy created",
	  { ENTER(1, 0, 100, 326), GETP(2, 0, 100, 0, 0), ADD_INO(3, 0, 100, 0, MINO),
	    ADD(4, 0, 100, 1), BIO_READ(5, 0, 100, 8), EXIT(6, 0, 100, 326), END },
	  1, 0, 1, 1, 0 },
	{ "copy_file_range, no access event names a file (6.1), throttled: all created",
	  { ENTER(1, 0, 100, 326), ADD(2, 0, 100, 0), ADD_INO(3, 0, 100, 0, MINO),
	    SLEEP(4, 0, 100), BIO_READ(5, 1, 60, 8), EXIT(6, 0, 100, 326), END },
	  0, 0, 0, 2, 0 },
	{ "copy_file_range queuing its own read bio: the run before it is read",
	  { ENTER(1, 0, 100, 326), ADD(2, 0, 100, 0), BIO_READ(3, 0, 100, 8),
	    ADD_INO(4, 0, 100, 0, MINO), EXIT(5, 0, 100, 326), END },
	  1, 0, 1, 1, 0 },
	{ "two readers held: each reads what it waited on, whichever bio comes first",
	  { ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), SLEEP(3, 0, 100), ENTER(4, 1, 200, 0),
	    ADD_INO(5, 1, 200, 0, MINO), SLEEP(6, 1, 200), BIO_READ(7, 0, 60, 8),
	    BIO_READ(8, 0, 60, 8), EXIT(9, 0, 100, 0), EXIT(10, 1, 200, 0), END },
	  1, 1, 1, 0, 0 },
	{ "two throttled groups, only the later reader's bio let go: both read, each by its reader",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1),
	    SLEEP(4, 0, 100), ENTER(5, 1, 200, 0), ADD_INO(6, 1, 200, 0, MINO),
	    SLEEP(7, 1, 200), BIO_READ(8, 0, 60, 8), EXIT(9, 1, 200, 0), END },
	  2, 1, 2, 0, 0 },
	{ "the reader ends before the throttle lets its readahead go: read all the same",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), SLEEP(3, 0, 100),
	    EXIT(4, 0, 100, 0), TASK_EXIT(5, 0, 100), BIO_READ(6, 1, 60, 8), END },
	  1, 0, 1, 0, 0 },
	{ "a hole, then data its own bio reads, then a wait: the hole created",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 5),
	    BIO_READ(4, 0, 100, 8), SLEEP(5, 0, 100), EXIT(6, 0, 100, 0), END },
	  1, 0, 1, 1, 0 },
	{ "a hole in an earlier read(), a later read's own bio, then a wait: the hole created",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), EXIT(3, 0, 100, 0),
	    ENTER(4, 0, 100, 0), ADD(5, 0, 100, 5), BIO_READ(6, 0, 100, 8), SLEEP(7, 0, 100),
	    EXIT(8, 0, 100, 0), END },
	  1, 0, 1, 1, 0 },
	{ "readahead waited on, then read: its pages used",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD(2, 0, 100, 0), ADD(3, 0, 100, 1),
	    EXIT(4, 0, 100, 0), ENTER(5, 0, 100, 0), SLEEP(6, 0, 100), BIO_READ(7, 1, 60, 16),
	    GETP(8, 0, 100, 0, 1), EXIT(9, 0, 100, 0), END },
	  2, 0, 2, 0, 2 },
	{ "a kernel thread's insertions (no syscalls), another task's bio: created",
	  { ADD(1, 0, 50, 0), BIO_READ(2, 1, 60, 8), END },
	  0, 0, 0, 1, 0 },
	{ "a stacked device queues the read bio again below: one read, the hole before created",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD_INO(2, 0, 100, 0, MINO),
	    ADD(3, 0, 100, 0), BIO_AT(4, 0, 100, FDEV, 0, 8), REMAP(5, 0, 100, 0, 8),
	    BIO_AT(6, 0, 100, SDA, REMAP_OFFSET, 8), EXIT(7, 0, 100, 0), END },
	  1, 0, 1, 1, 0 },
	{ "the same, the stacked device splitting the bio in two: still one read",
	  { BIO_WRITE(0, 1, 70), ENTER(1, 0, 100, 0), ADD_INO(2, 0, 100, 0, MINO),
	    ADD(3, 0, 100, 0), ADD(4, 0, 100, 1), BIO_AT(5, 0, 100, FDEV, 0, 16),
	    REMAP(6, 0, 100, 0, 8), BIO_AT(7, 0, 100, SDA, REMAP_OFFSET, 8),
	    REMAP(8, 0, 100, 8, 8), BIO_AT(9, 0, 100, SDA, REMAP_OFFSET + 8, 8),
	    EXIT(10, 0, 100, 0), END },
	  2, 0, 2, 1, 0 },
};

static uint64_t file_read(const struct bp_model *m, uint64_t ino)
{
	const struct bp_file *f = bp_model_find_file(m, FDEV, ino);

	return f ? f->bytes_read : 0;
}

static void test_bytes_rules(void **state)
{
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(bytes_cases) / sizeof(bytes_cases[0]); c++) {
		const struct bytes_case *bc = &bytes_cases[c];
		struct bp_process *p, *worker;
		struct bp_model *m;
		struct gen g;

		print_message("case: %s\n", bc->what);
		m = gen_build(&g, bc->ev);
		assert_int_equal(file_read(m, FINO), bc->read * 4096);
		assert_int_equal(file_read(m, MINO), bc->other_read * 4096);
		assert_int_equal(m->totals.write_insert_bytes, bc->written * 4096);
		if (bc->read)
			assert_int_equal(bp_model_find_file(m, FDEV, FINO)->used_bytes,
					 bc->used * 4096);
		p = bp_model_find_process(m, 100);
		assert_int_equal(p ? p->bytes_read : 0, bc->by_reader * 4096);
		worker = bp_model_find_process(m, 60);
		if (worker)
			assert_int_equal(worker->bytes_read, 0);
		bp_model_free(m);
		tep_free(g.tep);
	}
}

/* Other sleepers are listed by their own sort key, apart from I/O wait. */
static void test_other_sleepers(void **state)
{
	static const struct gev ev[] = {
		ENTER(1, 0, 100, 0), SW(10, 0, 100, 2, 200), SW(20, 0, 200, 2, 0),
		WAKING(60, 0, 0, 100, 0), SW(61, 0, 0, 0, 100), TIMER_WAKING(90, 1, 0, 200),
		SW(91, 0, 100, 1, 200), END
	};
	struct bp_process **v;
	struct bp_model *m;
	struct gen g;
	size_t n;

	(void)state;
	m = gen_build(&g, ev);
	assert_int_equal(m->totals.wait_ns, 50 * US);
	assert_int_equal(m->totals.other_wait_ns, 70 * US);
	assert_true(m->missing & BP_MISSING_FORK);
	n = bp_model_select_processes(m, NULL, BP_SORT_PROC_OTHER_WAIT, &v);
	assert_true(n >= 2);
	assert_int_equal(v[0]->pid, 200);
	assert_int_equal(v[0]->wait_ns, 0);
	free(v);
	bp_model_free(m);
	tep_free(g.tep);
}

/* On a real recording: every task's I/O-wait spans sum to its wait, in order, never overlapping. */
struct span_check {
	int tids[4096];
	uint64_t io[4096], end[4096];
	size_t n;
	int bad;
	uint64_t idle, idle_end;
};

static void on_span_check(void *arg, const struct bp_span *sp)
{
	struct span_check *sc = arg;
	size_t i;

	if (sp->end_ns <= sp->start_ns)
		sc->bad++;
	/* The machine's: every CPU idle while some task waited, in time order. */
	if (sp->state == BP_SPAN_IDLE_WAIT) {
		if (sp->tid || sp->cpu != -1 || sp->start_ns < sc->idle_end)
			sc->bad++;
		sc->idle += sp->end_ns - sp->start_ns;
		sc->idle_end = sp->end_ns;
		return;
	}
	for (i = 0; i < sc->n && sc->tids[i] != sp->tid; i++)
		;
	if (i == sc->n) {
		if (sc->n == 4096)
			return;
		sc->tids[sc->n++] = sp->tid;
	}
	if (sp->start_ns < sc->end[i])
		sc->bad++;
	sc->end[i] = sp->end_ns;
	if (sp->state == BP_SPAN_IO_WAIT)
		sc->io[i] += sp->end_ns - sp->start_ns;
	if ((sp->state == BP_SPAN_RUN) != (sp->cpu >= 0))
		sc->bad++;
}

static void check_spans(const char *path)
{
	static struct span_check sc;
	struct bp_build_hooks hooks = { .span = on_span_check, .arg = &sc };
	struct bp_reader *r = bp_reader_open(path);
	struct bp_model *m;
	uint64_t total = 0;
	size_t i, j;

	memset(&sc, 0, sizeof(sc));
	assert_non_null(r);
	m = bp_model_build(r, NULL, &hooks);
	bp_reader_free(r);
	assert_non_null(m);
	assert_int_equal(sc.bad, 0);
	assert_true(sc.n > 5 && sc.n < 4096);
	for (i = 0; i < m->nthreads; i++) {
		const struct bp_thread *th = &m->threads[i];
		uint64_t io = 0;

		for (j = 0; j < sc.n; j++)
			if (sc.tids[j] == th->tid)
				io += sc.io[j];
		assert_int_equal(io, th->wait_ns);
		total += th->wait_ns;
	}
	assert_true(total > 0);
	assert_int_equal(total, m->totals.wait_ns);
	/* The idle-while-waiting spans sum to the total they are cut from. */
	assert_int_equal(sc.idle, m->totals.idle_wait_ns);
	bp_model_free(m);
}

static void test_spans_fixture(void **state)
{
	(void)state;
	check_spans(BASIC);
	/* A boot: CPUs idle while init's children wait on the disk. */
	check_spans(BOOT);
}

/*
 * The recording's task table: the recorder's own threads are attributed
 * nothing; a thread that predates the recording rolls up into its process.
 */
static void test_meta_tasks(void **state)
{
	static const struct gev ev[] = {
		ENTER(1, 0, 500, 0), ADD(2, 0, 500, 0), BIO(3, 0, 500), SW(10, 0, 500, 2, 101),
		ENTER(11, 0, 101, 0), ADD(12, 0, 101, 8), BIO(13, 0, 101), SW(20, 0, 101, 2, 0),
		WAKING(40, 0, 0, 500, 0), SW(41, 0, 0, 0, 500), WAKING(60, 1, 0, 101, 0),
		SW(61, 0, 500, 1, 101), END
	};
	struct bp_meta meta;
	struct bp_process *p;
	struct bp_model *m;
	struct gen g;
	size_t i;

	(void)state;
	bp_meta_init(&meta);
	bp_meta_add_task(&meta, 500, 499, BP_TASK_RECORDER);
	bp_meta_add_task(&meta, 101, 100, 0);
	gen_init(&g);
	for (i = 0; ev[i].cpu >= 0; i++)
		gen_add(&g, &ev[i]);
	m = bp_model_build_events(g.tep, &meta, g.ev, g.n, NULL, NULL);
	assert_non_null(m);
	assert_null(bp_model_find_process(m, 500));
	assert_null(bp_model_find_process(m, 499));
	assert_null(bp_model_find_process(m, 101));
	p = bp_model_find_process(m, 100);
	assert_non_null(p);
	assert_int_equal(p->nthreads, 1);
	assert_int_equal(p->threads[0]->tid, 101);
	assert_int_equal(p->wait_ns, 40 * US);
	assert_int_equal(p->bytes_read, 4096);
	assert_int_equal(m->totals.wait_ns, 40 * US);
	assert_int_equal(m->totals.read_bytes, 4096);
	assert_int_equal(bp_model_find_file(m, FDEV, FINO)->nreaders, 1);
	bp_model_free(m);
	bp_meta_release(&meta);
	tep_free(g.tep);
}

/*
 * At boot the recorder is forked after the recording began: its fork in
 * the events makes a new task of its tid, which stays the recorder's.
 */
static void test_recorder_forked(void **state)
{
	static const struct gev ev[] = {
		FORK(1, 0, 1, 500), ENTER(2, 0, 500, 0), ADD(3, 0, 500, 0), BIO(4, 0, 500),
		SW(10, 0, 500, 2, 0), WAKING(40, 0, 0, 500, 0), SW(41, 0, 0, 0, 500), END
	};
	struct bp_meta meta;
	struct bp_model *m;
	struct gen g;
	size_t i;

	(void)state;
	bp_meta_init(&meta);
	bp_meta_add_task(&meta, 500, 500, BP_TASK_RECORDER);
	gen_init(&g);
	for (i = 0; ev[i].cpu >= 0; i++)
		gen_add(&g, &ev[i]);
	m = bp_model_build_events(g.tep, &meta, g.ev, g.n, NULL, NULL);
	assert_non_null(m);
	assert_null(bp_model_find_process(m, 500));
	assert_int_equal(m->totals.wait_ns, 0);
	assert_int_equal(m->totals.read_bytes, 0);
	bp_model_free(m);
	bp_meta_release(&meta);
	tep_free(g.tep);
}

/*
 * Tasks the task table found asleep in D, in read(), as the recording
 * started: their waits begin at the first event. 200 is woken at 60 us;
 * 201 never wakes and has no event at all: its wait lasts to the last
 * event, and its name comes from the table. 202, not asleep and without
 * events, is not a process of the recording.
 */
static void test_asleep_at_start(void **state)
{
	static const struct gev ev[] = {
		ENTER(10, 0, 300, 0), EXIT(20, 0, 300, 0), WAKING(60, 0, 300, 200, 1),
		SW(61, 1, 0, 0, 200), EXIT(62, 1, 200, 0), ENTER(100, 0, 300, 0), END
	};
	struct bp_meta meta;
	struct bp_process *p;
	struct bp_model *m;
	struct gen g;
	size_t i;

	(void)state;
	bp_meta_init(&meta);
	bp_meta_add_task(&meta, 200, 200, 0);
	assert_int_equal(bp_meta_task_asleep(&meta, 200, 0, "cat"), 0);
	bp_meta_add_task(&meta, 201, 201, 0);
	assert_int_equal(bp_meta_task_asleep(&meta, 201, 0, "dd"), 0);
	bp_meta_add_task(&meta, 202, 202, 0);
	assert_int_equal(bp_meta_task_asleep(&meta, 203, 0, "x"), -1);
	gen_init(&g);
	for (i = 0; ev[i].cpu >= 0; i++)
		gen_add(&g, &ev[i]);
	m = bp_model_build_events(g.tep, &meta, g.ev, g.n, NULL, NULL);
	assert_non_null(m);
	p = bp_model_find_process(m, 200);
	assert_non_null(p);
	assert_int_equal(p->wait_ns, 50 * US);
	assert_int_equal(p->wait_by_cause[BP_CAUSE_READ], 50 * US);
	p = bp_model_find_process(m, 201);
	assert_non_null(p);
	assert_string_equal(p->comm, "dd");
	assert_int_equal(p->wait_ns, 90 * US);
	assert_int_equal(p->wait_by_cause[BP_CAUSE_READ], 90 * US);
	assert_null(bp_model_find_process(m, 202));
	assert_int_equal(m->totals.wait_ns, 140 * US);
	bp_model_free(m);
	bp_meta_release(&meta);
	tep_free(g.tep);
}

/* A file's and each reader's first time is not after its last. */
static void assert_first_last(const struct bp_file *f)
{
	size_t i;

	assert_true(f->first_ns <= f->last_ns);
	for (i = 0; i < f->nreaders; i++)
		assert_true(f->readers[i]->first_ns <= f->readers[i]->last_ns);
}

/* An insertion settled after another task's access keeps first <= last. */
static void test_first_last(void **state)
{
	static const struct gev ev[] = {
		ENTER(1, 0, 100, 0), ADD(3, 0, 100, 0), FAULT(4, 1, 200, 5), BIO(6, 0, 100),
		EXIT(7, 0, 100, 0), END
	};
	const struct bp_file *f;
	struct bp_model *m;
	struct gen g;

	(void)state;
	m = gen_build(&g, ev);
	f = bp_model_find_file(m, FDEV, FINO);
	assert_non_null(f);
	assert_int_equal(f->bytes_read, 4096);
	assert_int_equal(f->first_ns, 3 * US);
	assert_int_equal(f->last_ns, 4 * US);
	assert_first_last(f);
	bp_model_free(m);
	tep_free(g.tep);
}

/*
 * A file created during the recording: buffered writes insert its pages
 * (write() unrecorded: no syscall boundary), a metadata block is read in
 * between, fsync writes them back, POSIX_FADV_DONTNEED drops them, the
 * task maps the file and faults one page in from storage. The file was
 * read 4 KiB, no more, and not re-read (the page dropped was written, not
 * read); the fsync wait is sync and charged to no file, the fault's wait
 * to the file. Dropped and faulted in again, the page is re-read.
 */
static void test_write_then_map(void **state)
{
	static const struct gev ev[] = {
		ENTER(1, 0, 100, 257), EXIT(2, 0, 100, 257),
		ADD(3, 0, 100, 0), ADD(4, 0, 100, 1), ADD(5, 0, 100, 2), ADD(6, 0, 100, 3),
		ADD_INO(7, 0, 100, 40, MINO), BIO_READ(8, 0, 100, 8), ADD(9, 0, 100, 4),
		ENTER(10, 0, 100, 74), BIO_WRITE(11, 0, 100), SW(12, 0, 100, 2, 0),
		WAKING(40, 0, 0, 100, 0), SW(41, 0, 0, 0, 100), EXIT(42, 0, 100, 74),
		ENTER(43, 0, 100, 221), DELETE(44, 0, 100, 0), DELETE(44, 0, 100, 1),
		DELETE(44, 0, 100, 2), DELETE(44, 0, 100, 3), DELETE(44, 0, 100, 4),
		EXIT(45, 0, 100, 221), ENTER(46, 0, 100, 9), EXIT(47, 0, 100, 9),
		FAULT(50, 0, 100, 2), ADD(51, 0, 100, 2), BIO_READ(52, 0, 100, 8),
		SW(53, 0, 100, 2, 0), WAKING(80, 0, 0, 100, 0), SW(81, 0, 0, 0, 100), END
	};
	static const struct gev again[] = {
		DELETE(90, 0, 100, 2), FAULT(91, 0, 100, 2), ADD(92, 0, 100, 2),
		BIO_READ(93, 0, 100, 8), EXIT(94, 0, 100, 0), END
	};
	const struct bp_file *f, *meta;
	struct bp_process *p;
	struct bp_model *m;
	struct gen g;
	size_t i;

	(void)state;
	m = gen_build(&g, ev);
	f = bp_model_find_file(m, FDEV, FINO);
	meta = bp_model_find_file(m, FDEV, MINO);
	assert_non_null(f);
	assert_non_null(meta);
	assert_int_equal(f->bytes_read, 4096);
	assert_int_equal(f->reread_bytes, 0);
	assert_int_equal(meta->bytes_read, 4096);
	assert_int_equal(m->totals.write_insert_bytes, 5 * 4096);
	assert_first_last(f);
	p = bp_model_find_process(m, 100);
	assert_non_null(p);
	assert_int_equal(p->wait_by_cause[BP_CAUSE_SYNC], 28 * US);
	assert_int_equal(p->wait_by_cause[BP_CAUSE_FAULT], 27 * US);
	assert_int_equal(p->wait_ns, 55 * US);
	assert_int_equal(p->wait_unknown_ns, 28 * US);
	assert_int_equal(f->wait_ns, 27 * US);
	assert_int_equal(meta->wait_ns, 0);
	bp_model_free(m);
	tep_free(g.tep);

	gen_init(&g);
	for (i = 0; ev[i].cpu >= 0; i++)
		gen_add(&g, &ev[i]);
	for (i = 0; again[i].cpu >= 0; i++)
		gen_add(&g, &again[i]);
	m = bp_model_build_events(g.tep, NULL, g.ev, g.n, NULL, NULL);
	assert_non_null(m);
	f = bp_model_find_file(m, FDEV, FINO);
	assert_int_equal(f->bytes_read, 2 * 4096);
	assert_int_equal(f->reread_bytes, 4096);
	bp_model_free(m);
	tep_free(g.tep);
}

/* A disk's bucket k, as (inflight_ns in µs x requests, inflight_max, rq_read_bytes). */
static void assert_disk_bucket(const struct bp_disk_stat *d, size_t k, uint64_t inflight_us,
			       uint32_t max, uint64_t read)
{
	const struct bp_disk_bucket zero = { 0 }, *b = k < d->ntimeline ? &d->timeline[k] : &zero;

	print_message("%s bucket %zu: %llu req.us, max %u, %llu bytes\n", d->name, k,
		      (unsigned long long)(b->inflight_ns / US), b->inflight_max,
		      (unsigned long long)b->rq_read_bytes);
	assert_int_equal(b->inflight_ns, inflight_us * US);
	assert_int_equal(b->inflight_max, max);
	assert_int_equal(b->rq_read_bytes, read);
}

static const struct bp_disk_stat *disk_named(const struct bp_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->ndisks; i++) {
		if (!strcmp(m->disks[i].name, name))
			return &m->disks[i];
	}
	fail_msg("no disk %s", name);
	return NULL;
}

/*
 * Requests in flight per disk and 10 µs bucket, from issue to the
 * completion of the same (dev, sector): a partial completion, a requeued
 * request issued twice, a flush and a stray completion change nothing; a
 * request whose completion is lost is in flight to the end; requests
 * issued before the window count from its start.
 */
static void test_requests_in_flight(void **state)
{
	static const struct gev ev[] = {
		ISSUE(0, 0, 100, 100, 8, 0),          /* sda: 1 */
		ISSUE(5, 0, 100, 200, 16, 0),         /* 2 */
		ISSUE(12, 1, 100, 300, 8, RQ_WRITE),  /* 3 */
		DONE(15, 0, 100, 8, 0),               /* 2 */
		DONE(22, 0, 200, 8, 0),               /* half of 200: the rest is at 208 */
		DONE(25, 0, 208, 8, 0),               /* 1 */
		ISSUE(26, 1, 100, 300, 8, RQ_WRITE),  /* requeued: still 1 */
		ISSUE(27, 1, 100, 0, 0, RQ_WRITE),    /* a flush: not counted */
		DONE(28, 0, 999, 8, 0),               /* issued before the recording */
		ISSUE(30, 0, 100, 100, 8, RQ_SDB),    /* sdb: 1, never completed */
		DONE(38, 1, 300, 8, RQ_WRITE),        /* sda: 0 */
		DONE(50, 0, 4242, 8, RQ_SDB),         /* the end of the recording */
		END
	};
	struct bp_window all = { 0, 0, 10 * US, 0 }, part = { 10 * US, 40 * US, 10 * US, 0 };
	const struct bp_disk_stat *sda, *sdb;
	struct bp_meta meta;
	struct bp_model *m;
	struct gen g;
	size_t i;

	(void)state;
	bp_meta_init(&meta);
	bp_meta_add_disk(&meta, SDA, "sda", 0, 0);
	bp_meta_add_disk(&meta, SDB, "sdb", 1, 0);
	gen_init(&g);
	for (i = 0; ev[i].cpu >= 0; i++)
		gen_add(&g, &ev[i]);

	m = bp_model_build_events(g.tep, &meta, g.ev, g.n, &all, NULL);
	assert_non_null(m);
	assert_false(m->missing & BP_MISSING_RQ_COMPLETE);
	sda = disk_named(m, "sda");
	sdb = disk_named(m, "sdb");
	/* 0-5: 1, 5-10: 2 | 10-12: 2, 12-15: 3, 15-20: 2 | 20-25: 2, 25-30: 1 | 30-38: 1 */
	assert_disk_bucket(sda, 0, 5 * 1 + 5 * 2, 2, 24 * 512);
	assert_disk_bucket(sda, 1, 2 * 2 + 3 * 3 + 5 * 2, 3, 0);
	assert_disk_bucket(sda, 2, 5 * 2 + 5 * 1, 2, 0);
	assert_disk_bucket(sda, 3, 8, 1, 0);
	assert_disk_bucket(sda, 4, 0, 0, 0);
	assert_int_equal(sda->rq_unfinished, 0);
	assert_int_equal(sda->rq_read_bytes, 24 * 512);
	assert_disk_bucket(sdb, 2, 0, 0, 0);
	assert_disk_bucket(sdb, 3, 10, 1, 8 * 512);
	assert_disk_bucket(sdb, 4, 10, 1, 0);
	assert_int_equal(sdb->rq_unfinished, 1);
	/* The machine's timeline has the same read bytes. */
	assert_int_equal(m->timeline[0].rq_read_bytes, 24 * 512);
	assert_int_equal(m->timeline[3].rq_read_bytes, 8 * 512);
	bp_model_free(m);

	m = bp_model_build_events(g.tep, &meta, g.ev, g.n, &part, NULL);
	assert_non_null(m);
	sda = disk_named(m, "sda");
	sdb = disk_named(m, "sdb");
	assert_disk_bucket(sda, 0, 2 * 2 + 3 * 3 + 5 * 2, 3, 0);
	assert_disk_bucket(sda, 1, 5 * 2 + 5 * 1, 2, 0);
	assert_disk_bucket(sda, 2, 8, 1, 0);
	assert_int_equal(sda->rq_read_bytes, 0);
	assert_disk_bucket(sdb, 2, 10, 1, 8 * 512);
	assert_int_equal(sdb->rq_unfinished, 1);
	bp_model_free(m);
	bp_meta_release(&meta);
	tep_free(g.tep);
}

/* The service row of @unit, or NULL. */
static const struct bp_service_row *row_of(const struct bp_service_row *v, size_t n,
					   const char *unit)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(v[i].unit, unit))
			return &v[i];
	}
	return NULL;
}

/*
 * First execs: a process's first, and the first it made in its service's
 * cgroup; a service's first exec is the first made in its cgroup (a shell
 * that moved itself in after it exec'd, or a scope's adopted login, did
 * not exec there); [PID 1]'s is its first.
 */
static void test_first_exec(void **state)
{
	static const struct gev ev[] = {
		EXEC(5, 0, 1, "/sbin/init"),
		FORK(10, 0, 1, 100),
		FORK(12, 0, 1, 200),
		EXEC(20, 0, 100, "/bin/sh"),
		EXEC(25, 1, 200, "/bin/login"),
		ATTACH(30, 0, 100, 100, "/system.slice/x.service"),
		ATTACH(35, 1, 1, 200, "/user.slice/session-1.scope"),
		FORK(40, 0, 100, 101),               /* starts in x.service */
		EXEC(50, 1, 101, "/bin/cat"),
		EXEC(60, 0, 100, "/bin/true"),
		ATTACH(70, 0, 1, 1, "/init.scope"),
		END
	};
	const struct bp_service_row *r;
	struct bp_service_row *v;
	struct bp_process *p;
	struct bp_model *m;
	struct gen g;
	size_t n;

	(void)state;
	m = gen_build(&g, ev);
	p = bp_model_find_process(m, 100);
	assert_non_null(p);
	assert_int_equal(p->nexec, 2);
	assert_string_equal(p->exec[0], "/bin/sh");
	assert_int_equal(p->first_exec_ns, 20 * US);
	assert_int_equal(p->service_exec, 1);
	assert_int_equal(p->service_exec_ns, 60 * US);
	p = bp_model_find_process(m, 101);
	assert_int_equal(p->first_exec_ns, 50 * US);
	assert_int_equal(p->service_exec, 0);
	assert_int_equal(p->service_exec_ns, 50 * US);
	p = bp_model_find_process(m, 200);
	assert_int_equal(p->first_exec_ns, 25 * US);
	assert_int_equal(p->service_exec, p->nexec);
	assert_int_equal(p->service_exec_ns, 0);
	p = bp_model_find_process(m, 1);
	assert_int_equal(p->first_exec_ns, 5 * US);
	assert_int_equal(p->service_exec, p->nexec);

	v = bp_view_services(m, NULL, &n);
	r = row_of(v, n, "x.service");
	assert_non_null(r);
	assert_int_equal(r->nprocesses, 2);
	assert_int_equal(r->first_exec_ns, 50 * US);
	assert_string_equal(r->first_exec, "/bin/cat");
	r = row_of(v, n, "session-1.scope");
	assert_non_null(r);
	assert_null(r->first_exec);
	assert_int_equal(r->first_exec_ns, 0);
	r = row_of(v, n, "[PID 1]");
	assert_non_null(r);
	assert_int_equal(r->first_exec_ns, 5 * US);
	assert_string_equal(r->first_exec, "/sbin/init");
	free(v);
	/* A selection keeps its processes' execs only: without cat, sh's /bin/true. */
	v = bp_view_services(m, &(struct bp_filter){ NULL, 100, 0, NULL }, &n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].unit, "x.service");
	assert_int_equal(v[0].first_exec_ns, 60 * US);
	assert_string_equal(v[0].first_exec, "/bin/true");
	free(v);
	bp_model_free(m);
	tep_free(g.tep);
}

/* ---- the critical path ---- */

/* One expected segment: state, task, [start, end) in µs. */
struct crit_seg {
	enum bp_crit_state state;
	int tid;
	uint64_t start_us, end_us;
};

/*
 * A case: events, the end point (--to, NULL: the default), and the path
 * expected: its segments in order, and the one wait it goes around (the
 * sleeper, its waker, from, to; sleeper 0: none).
 */
struct crit_case {
	const char *what;
	struct gev ev[24];
	const char *to;
	const char *end_what;
	struct crit_seg seg[10];
	int wait_tid, waker_tid;
	uint64_t wait_from_us, wait_to_us;
	int wakers_known;
};

/* sh (10) forks B (11) and A (12); A sleeps on a pipe, B reads a file, then wakes A. */
#define CHAIN_START \
	ENTER(50, 0, 10, 0), FORK(100, 0, 10, 11), FORK(110, 0, 10, 12), SW(120, 0, 10, 1, 11), \
	SW(125, 1, 0, 0, 12), SW(130, 1, 12, 1, 0), ENTER_READ(140, 0, 11), ADD(141, 0, 11, 0), \
	ISSUE(143, 0, 11, 1l << 40, 8, 0), SW(150, 0, 11, 2, 0)
#define CHAIN_END \
	SW(2180, 1, 0, 0, 12), TASK_EXIT(2190, 0, 11), SW(2200, 0, 11, 16, 0), TASK_EXIT(2300, 1, 12)
/* sched_wakeup of pid by task cur, in process context */
#define TASK_WAKEUP(t, cpu, cur, pid) { t, cpu, ID_WAKEUP, cur, pid, cpu, WK_TASK, NULL }

/* B's read ends in an interrupt after its request completes; B runs on. */
#define CHAIN_READ \
	CHAIN_START, WAKING(1150, 0, 0, 11, 0), SW(1160, 0, 0, 0, 11), EXIT_READ(1170, 0, 11)
/* The path through B up to A's run-queue delay (B woke A at 2170). */
#define PATH_VIA_B \
	{ BP_CRIT_CPU, 10, 50, 100 }, { BP_CRIT_RUNQ, 11, 100, 120 }, \
	{ BP_CRIT_CPU, 11, 120, 150 }, { BP_CRIT_IO, 11, 150, 1150 }, \
	{ BP_CRIT_RUNQ, 11, 1150, 1160 }, { BP_CRIT_CPU, 11, 1160, 2170 }, \
	{ BP_CRIT_RUNQ, 12, 2170, 2180 }
/* The path on A alone up to its sleep at 130. */
#define PATH_A_ALONE \
	{ BP_CRIT_CPU, 10, 50, 110 }, { BP_CRIT_RUNQ, 12, 110, 125 }, { BP_CRIT_CPU, 12, 125, 130 }

static const struct crit_case crit_cases[] = {
	{ "A waits on B, B on its read: B's I/O, its CPU, A's CPU; A's wait handed to B",
	  { CHAIN_READ, TASK_WAKING(2170, 0, 11, 12), CHAIN_END, END },
	  "pid:12", "exit",
	  { PATH_VIA_B, { BP_CRIT_CPU, 12, 2180, 2300 } },
	  12, 11, 130, 2170, 1 },
	{ "a worker completes B's request in process context and wakes it: still B's I/O",
	  { CHAIN_START, { 1140, 0, ID_RQ_COMPLETE, 30, 1l << 40, 8, RQ_IN_TASK, NULL },
	    TASK_WAKING(1150, 0, 30, 11), SW(1160, 0, 0, 0, 11), EXIT_READ(1170, 0, 11),
	    TASK_WAKING(2170, 0, 11, 12), CHAIN_END, END },
	  "pid:12", "exit",
	  { PATH_VIA_B, { BP_CRIT_CPU, 12, 2180, 2300 } },
	  12, 11, 130, 2170, 1 },
	{ "the same, to the recording's last run (no PID 1): A's exit",
	  { CHAIN_READ, TASK_WAKING(2170, 0, 11, 12), CHAIN_END, END },
	  NULL, "last-run",
	  { PATH_VIA_B, { BP_CRIT_CPU, 12, 2180, 2300 } },
	  12, 11, 130, 2170, 1 },
	{ "to A's exec: the path ends there",
	  { CHAIN_READ, TASK_WAKING(2170, 0, 11, 12), EXEC(2185, 1, 12, "/bin/a"), CHAIN_END, END },
	  "exec:a", "exec",
	  { PATH_VIA_B, { BP_CRIT_CPU, 12, 2180, 2185 } },
	  12, 11, 130, 2170, 1 },
	{ "a timer ends A's sleep: an interrupt segment on A, B is not on the path",
	  { CHAIN_READ, TIMER_WAKING(2170, 1, 0, 12), CHAIN_END, END },
	  "pid:12", "exit",
	  { PATH_A_ALONE, { BP_CRIT_INTERRUPT, 12, 130, 2170 },
	    { BP_CRIT_RUNQ, 12, 2170, 2180 }, { BP_CRIT_CPU, 12, 2180, 2300 } },
	  0, 0, 0, 0, 1 },
	{ "a daemon woken by its timer wakes A: its timer before A slept is not A's path",
	  { ENTER(50, 0, 20, 0), SW(60, 0, 20, 1, 0), ENTER(100, 1, 12, 0), SW(200, 1, 12, 1, 0),
	    TIMER_WAKING(1000, 0, 0, 20), SW(1001, 0, 0, 0, 20), TASK_WAKING(1010, 0, 20, 12),
	    SW(1020, 1, 0, 0, 12), TASK_EXIT(1100, 1, 12), END },
	  "pid:12", "exit",
	  { { BP_CRIT_CPU, 12, 50, 200 }, { BP_CRIT_INTERRUPT, 20, 200, 1000 },
	    { BP_CRIT_RUNQ, 20, 1000, 1001 }, { BP_CRIT_CPU, 20, 1001, 1010 },
	    { BP_CRIT_RUNQ, 12, 1010, 1020 }, { BP_CRIT_CPU, 12, 1020, 1100 } },
	  12, 20, 200, 1010, 1 },
	{ "a kworker busy with another item runs B's work: B's work waited for it, then B",
	  { ENTER(1, 1, 11, 0), ENTER(2, 0, 40, 0), WQ_QUEUE(3, 0, 40, 0x1000),
	    WQ_START(100, 0, 40, 0x1000), WQ_QUEUE(500, 1, 11, 0x2000), SW(510, 1, 11, 2, 0),
	    WQ_START(1500, 0, 40, 0x2000), TASK_WAKING(2000, 0, 40, 11), SW(2010, 1, 0, 0, 11),
	    TASK_EXIT(2100, 1, 11), END },
	  "pid:11", "exit",
	  { { BP_CRIT_CPU, 11, 1, 500 }, { BP_CRIT_RUNQ, 40, 500, 1500 },
	    { BP_CRIT_CPU, 40, 1500, 2000 }, { BP_CRIT_RUNQ, 11, 2000, 2010 },
	    { BP_CRIT_CPU, 11, 2010, 2100 } },
	  11, 40, 510, 2000, 1 },
	{ "sched_wakeup only: A's waker is unknown, the path stays on A",
	  { CHAIN_START, WAKEUP(1150, 0, 0, 11), SW(1160, 0, 0, 0, 11), EXIT_READ(1170, 0, 11),
	    TASK_WAKEUP(2170, 0, 11, 12), CHAIN_END, END },
	  "pid:12", "exit",
	  { PATH_A_ALONE, { BP_CRIT_UNKNOWN, 12, 130, 2170 },
	    { BP_CRIT_RUNQ, 12, 2170, 2180 }, { BP_CRIT_CPU, 12, 2180, 2300 } },
	  0, 0, 0, 0, 0 },
};

static struct bp_critical_path *crit_build(struct gen *g, const struct gev *ev, const char *to,
					   struct bp_model **m, struct bp_critical_log **log)
{
	struct bp_crit_end end = { .kind = BP_CRIT_END_DEFAULT };
	struct bp_build_hooks hooks = { 0 };
	size_t i;

	gen_init(g);
	for (i = 0; ev[i].cpu >= 0; i++)
		gen_add(g, &ev[i]);
	*log = bp_critical_log_new();
	hooks.critical = *log;
	*m = bp_model_build_events(g->tep, NULL, g->ev, g->n, NULL, &hooks);
	assert_non_null(*m);
	if (to)
		assert_int_equal(bp_crit_end_parse(to, &end), 0);
	return bp_critical_walk(*log, *m, &end);
}

/* The segments tile [start, end] and the totals add up to it. */
static void assert_tiles(const struct bp_critical_path *p)
{
	uint64_t sum = 0;
	size_t i;
	int st;

	assert_true(p->nsegments > 0);
	assert_int_equal(p->segments[0].start_ns, p->start_ns);
	assert_int_equal(p->segments[p->nsegments - 1].end_ns, p->end_ns);
	for (i = 0; i < p->nsegments; i++) {
		assert_true(p->segments[i].end_ns > p->segments[i].start_ns);
		assert_int_not_equal(p->segments[i].reason, BP_CRIT_WHY_LOOP);
		if (i)
			assert_int_equal(p->segments[i].start_ns, p->segments[i - 1].end_ns);
	}
	for (st = 0; st < BP_CRIT_NSTATES; st++)
		sum += p->state_ns[st];
	assert_int_equal(sum, p->end_ns - p->start_ns);
}

static void test_critical_cases(void **state)
{
	size_t c, i, n;

	(void)state;
	for (c = 0; c < sizeof(crit_cases) / sizeof(crit_cases[0]); c++) {
		const struct crit_case *k = &crit_cases[c];
		struct bp_critical_log *log;
		struct bp_critical_path *p;
		struct bp_model *m;
		struct gen g;

		print_message("critical: %s\n", k->what);
		p = crit_build(&g, k->ev, k->to, &m, &log);
		assert_non_null(p);
		assert_string_equal(p->end_what, k->end_what);
		assert_int_equal(p->wakers_known, k->wakers_known);
		assert_tiles(p);
		for (n = 0; n < 10 && k->seg[n].end_us; n++)
			;
		for (i = 0; i < p->nsegments && i < n; i++) {
			const struct bp_crit_segment *got = &p->segments[i];

			print_message("  %s %d %llu-%llu\n", bp_crit_state_name(got->state),
				      got->task.tid, (unsigned long long)(got->start_ns / US),
				      (unsigned long long)(got->end_ns / US));
			assert_int_equal(got->state, k->seg[i].state);
			assert_int_equal(got->task.tid, k->seg[i].tid);
			assert_int_equal(got->start_ns, k->seg[i].start_us * US);
			assert_int_equal(got->end_ns, k->seg[i].end_us * US);
			if (got->state == BP_CRIT_IO) {
				/* The file the wait is charged to; the request, when a waking names it. */
				assert_int_equal(got->dev, FDEV);
				assert_int_equal(got->ino, FINO);
				assert_int_equal(got->has_request, k->wakers_known);
				if (got->has_request) {
					assert_int_equal(got->request.sector, 1ull << 40);
					assert_int_equal(got->request.issue_ns, 143 * US);
					/* Completed where it woke B, or 10 µs before in the worker. */
					assert_true(got->request.done_ns <= got->end_ns &&
						    got->request.done_ns + 10 * US >= got->end_ns);
					assert_int_equal(got->request.issuer.tid, 11);
				}
			}
		}
		assert_int_equal(p->nsegments, n);
		assert_int_equal(p->nwaits, k->wait_tid ? 1 : 0);
		if (k->wait_tid) {
			assert_int_equal(p->waits[0].sleeper.tid, k->wait_tid);
			assert_int_equal(p->waits[0].waker.tid, k->waker_tid);
			assert_int_equal(p->waits[0].start_ns, k->wait_from_us * US);
			assert_int_equal(p->waits[0].end_ns, k->wait_to_us * US);
		}
		bp_critical_path_free(p);
		bp_critical_log_free(log);
		bp_model_free(m);
		tep_free(g.tep);
	}
}

/* clone(flags) entered (56): a thread (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD ...), a process */
#define CLONE(t, cpu, pid, flags) { t, cpu, ID_ENTER, pid, 56, flags, 0, NULL }
#define CL_THREAD 0x3d0f00
#define CL_PROCESS 0x1200011

/*
 * A wait whose hold-up ended before its waking. A (12) starts its thread
 * B (11) (or a child process), then sleeps; B reads a file (its I/O 150-1150), then at 1200
 * ends A's wait: by a futex requeue of A's futex, or by waking the other
 * reader (13) queued with A on an rwsem, as a writer's unlock does; B
 * exits. The daemon D (20), asleep on its timer since 60, wakes A at
 * 1310: the path to A's exit goes back through D only to 1200, then B,
 * its I/O on it.
 */
#define HANDOFF_START(a_waits, b_is) \
	ENTER(50, 0, 12, 0), ENTER(55, 1, 20, 0), SW(60, 1, 20, 1, 0), \
	CLONE(90, 0, 12, b_is), FORK(100, 0, 12, 11), a_waits, \
	ENTER_READ(140, 0, 11), ADD(141, 0, 11, 0), ISSUE(143, 0, 11, 1l << 40, 8, 0), \
	SW(150, 0, 11, 2, 0), WAKING(1150, 0, 0, 11, 0), SW(1160, 0, 0, 0, 11), EXIT_READ(1170, 0, 11)
#define HANDOFF_END \
	TASK_EXIT(1205, 0, 11), SW(1210, 0, 11, 16, 0), \
	TIMER_WAKING(1300, 1, 0, 20), SW(1301, 1, 0, 0, 20), TASK_WAKING(1310, 1, 20, 12), \
	SW(1320, 1, 20, 1, 12), TASK_EXIT(1400, 1, 12)
/* A sleeps in a futex wait; in a reader's wait on an rwsem, with 13 (LCB_F_*: how) */
#define A_FUTEX FUTEX(128, 0, 12, 0x1000, FX_WAIT), SW(130, 0, 12, 1, 11)
#define A_RWSEM(how) \
	LOCK(128, 0, 12, 0x2000, how), SW(130, 0, 12, 2, 11), \
	SW(132, 1, 0, 0, 13), LOCK(133, 1, 13, 0x2000, how), SW(135, 1, 13, 2, 0)
#define B_GRANTS \
	TASK_WAKING(1200, 0, 11, 13), SW(1202, 1, 0, 0, 13), TASK_EXIT(1203, 1, 13), SW(1204, 1, 13, 16, 0)
/* futex commands, private */
#define FX_WAIT 128
#define FX_WAKE 129
#define FX_CMP_REQUEUE 132

static const struct {
	const char *what;
	struct gev ev[40];
	int via;      /* the first part's, BP_CRIT_VIA_WAKING: A's wait is not split */
} handoff_cases[] = {
	{ "a futex requeue by B moved A's wait to the futex D woke",
	  { HANDOFF_START(A_FUTEX, CL_THREAD), FUTEX(1200, 0, 11, 0x1000, FX_CMP_REQUEUE), HANDOFF_END, END },
	  BP_CRIT_VIA_REQUEUE },
	{ "B a child process: its requeue at A's address is of another futex, D's waking is A's",
	  { HANDOFF_START(A_FUTEX, CL_PROCESS), FUTEX(1200, 0, 11, 0x1000, FX_CMP_REQUEUE), HANDOFF_END,
	    END },
	  BP_CRIT_VIA_WAKING },
	{ "a futex wake by B of another futex: D's waking is A's",
	  { HANDOFF_START(A_FUTEX, CL_THREAD), FUTEX(1200, 0, 11, 0x3000, FX_WAKE), HANDOFF_END, END },
	  BP_CRIT_VIA_WAKING },
	{ "B's waking of the readers queued on an rwsem with A let readers have it",
	  { HANDOFF_START(A_RWSEM(2), CL_THREAD), B_GRANTS, HANDOFF_END, END },
	  BP_CRIT_VIA_RWSEM },
	{ "writers queued on an rwsem: no grant to readers, D's waking is A's",
	  { HANDOFF_START(A_RWSEM(4), CL_THREAD), B_GRANTS, HANDOFF_END, END },
	  BP_CRIT_VIA_WAKING },
};

static void test_critical_handoff(void **state)
{
	size_t c, i;

	(void)state;
	for (c = 0; c < sizeof(handoff_cases) / sizeof(handoff_cases[0]); c++) {
		struct bp_critical_log *log;
		struct bp_critical_path *p;
		uint64_t io = 0, d_ns = 0;
		struct bp_model *m;
		struct gen g;

		print_message("critical: %s\n", handoff_cases[c].what);
		p = crit_build(&g, handoff_cases[c].ev, "pid:12", &m, &log);
		assert_non_null(p);
		assert_tiles(p);
		for (i = 0; i < p->nsegments; i++) {
			const struct bp_crit_segment *got = &p->segments[i];

			print_message("  %s %d %llu-%llu\n", bp_crit_state_name(got->state),
				      got->task.tid, (unsigned long long)(got->start_ns / US),
				      (unsigned long long)(got->end_ns / US));
			if (got->state == BP_CRIT_IO && got->task.tid == 11)
				io += got->end_ns - got->start_ns;
			if (got->task.tid == 20)
				d_ns += got->end_ns - got->start_ns;
		}
		for (i = 0; i < p->nwaits; i++)
			print_message("  wait %d on %d %llu-%llu via %d\n", p->waits[i].sleeper.tid,
				      p->waits[i].waker.tid,
				      (unsigned long long)(p->waits[i].start_ns / US),
				      (unsigned long long)(p->waits[i].end_ns / US), p->waits[i].via);
		if (handoff_cases[c].via) {
			/* B's I/O, D from 1200 only; A's wait on B to 1200, on D after */
			assert_int_equal(io, 1000 * US);
			assert_int_equal(d_ns, 110 * US);
			assert_int_equal(p->nwaits, 2);
			assert_int_equal(p->waits[0].sleeper.tid, 12);
			assert_int_equal(p->waits[0].waker.tid, 11);
			assert_int_equal(p->waits[0].via, handoff_cases[c].via);
			assert_int_equal(p->waits[0].start_ns, 130 * US);
			assert_int_equal(p->waits[0].end_ns, 1200 * US);
			assert_int_equal(p->waits[1].waker.tid, 20);
			assert_int_equal(p->waits[1].via, BP_CRIT_VIA_WAKING);
			assert_int_equal(p->waits[1].start_ns, 1200 * US);
			assert_int_equal(p->waits[1].end_ns, 1310 * US);
		} else {
			/* D's timer is cut where A fell asleep: A's own time before, no I/O */
			assert_int_equal(io, 0);
			assert_int_equal(p->nwaits, 1);
			assert_int_equal(p->waits[0].waker.tid, 20);
			assert_int_equal(p->waits[0].via, BP_CRIT_VIA_WAKING);
		}
		bp_critical_path_free(p);
		bp_critical_log_free(log);
		bp_model_free(m);
		tep_free(g.tep);
	}
}

/*
 * A partition (or a stacked device) remaps B's two read bios, one of the
 * file's pages and one of another file's, in B's context; a throttle's
 * worker (60) queues both below and issues them as one request, whose
 * completion wakes B: its I/O segment names the request of SDA, the
 * file system's device and sector it was asked for, B as its issuer,
 * and both files.
 */
#define WK_AFTER_DONE 4   /* in the interrupt of the completion just before */
static void test_critical_remap(void **state)
{
	static const struct gev ev[] = {
		ENTER_READ(10, 0, 11), ADD(11, 0, 11, 0), REMAP(12, 0, 11, 100, 8),
		ADD_INO(13, 0, 11, 0, MINO), REMAP(14, 0, 11, 108, 8), SW(20, 0, 11, 2, 0),
		BIO_AT(500, 1, 60, SDA, 100 + REMAP_OFFSET, 8),
		BIO_AT(501, 1, 60, SDA, 108 + REMAP_OFFSET, 8),
		ISSUE(502, 1, 60, 100 + REMAP_OFFSET, 16, 0), SW(503, 1, 60, 1, 0),
		DONE(900, 0, 100 + REMAP_OFFSET, 16, 0),
		{ 900, 0, ID_WAKING, 0, 11, 0, WK_AFTER_DONE, NULL },
		SW(910, 0, 0, 0, 11), EXIT_READ(920, 0, 11), TASK_EXIT(930, 0, 11), END
	};
	const struct bp_crit_segment *io = NULL;
	struct bp_critical_log *log;
	struct bp_critical_path *p;
	struct bp_model *m;
	struct gen g;
	size_t i;

	(void)state;
	p = crit_build(&g, ev, "pid:11", &m, &log);
	assert_non_null(p);
	assert_tiles(p);
	for (i = 0; i < p->nsegments; i++) {
		if (p->segments[i].state == BP_CRIT_IO)
			io = &p->segments[i];
	}
	assert_non_null(io);
	assert_true(io->has_request);
	assert_int_equal(io->request.dev, SDA);
	assert_int_equal(io->request.sector, 100 + REMAP_OFFSET);
	assert_int_equal(io->request.sectors, 16);
	assert_int_equal(io->request.upper_dev, FDEV);
	assert_int_equal(io->request.upper_sector, 100);
	assert_int_equal(io->request.issuer.tid, 11);
	assert_int_equal(io->request.nfiles, 2);
	assert_int_equal(io->request.files[0].ino, FINO);
	assert_int_equal(io->request.files[1].ino, MINO);
	bp_critical_path_free(p);
	bp_critical_log_free(log);
	bp_model_free(m);
	tep_free(g.tep);
}

/* An end point the recording does not hold is an error that says so. */
static void test_critical_missing_end(void **state)
{
	static const struct gev ev[] = { CHAIN_READ, TASK_WAKING(2170, 0, 11, 12), CHAIN_END, END };
	static const char *const ends[][2] = {
		{ "pid:99", "no process 99" },
		{ "pid:10", "did not exit" },
		{ "exec:nothing", "no exec of 'nothing'" },
		{ "file:/nothing", "no file '/nothing'" },
		{ "service:nothing", "no unit 'nothing'" },
	};
	struct bp_crit_end end;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		struct bp_critical_log *log;
		struct bp_model *m;
		struct gen g;

		assert_null(crit_build(&g, ev, ends[i][0], &m, &log));
		assert_non_null(strstr(bp_last_error(), ends[i][1]));
		bp_critical_log_free(log);
		bp_model_free(m);
		tep_free(g.tep);
	}
	assert_int_equal(bp_crit_end_parse("pid:x", &end), -1);
	assert_int_equal(bp_crit_end_parse("exec:", &end), -1);
	assert_int_equal(bp_crit_end_parse("file:", &end), -1);
	assert_int_equal(bp_crit_end_parse("bogus:/x", &end), -1);
	/* The ends of user phases, in their grammar. */
	assert_int_equal(bp_crit_end_parse("file:/x/*.so", &end), 0);
	assert_int_equal(end.kind, BP_CRIT_END_FILE);
	assert_string_equal(end.prog, "/x/*.so");
	assert_int_equal(bp_crit_end_parse("service:udev", &end), 0);
	assert_int_equal(end.kind, BP_CRIT_END_SERVICE);
	assert_string_equal(end.prog, "udev");
}

/*
 * The default end at a mark told from outside (a plugin's boot end): the
 * latest one whose task the recording has, at an exit the exiting task,
 * else the task on a CPU then; none usable: the old default.
 */
static void test_critical_mark_end(void **state)
{
	static const struct gev ev[] = { CHAIN_READ, TASK_WAKING(2170, 0, 11, 12), CHAIN_END, END };
	static const struct bp_crit_mark marks[] = {
		{ 1165 * US, 11, "mid", "p2" },      /* B on a CPU (in since 1160) */
		{ 2190 * US, 11, "b done", "p1" },   /* B's exit: the latest usable */
		{ 5000 * US, 11, "after", "p3" },    /* past the recording */
		{ 2250 * US, 99, "nobody", "p4" },   /* no such task */
	};
	static const struct {
		size_t first, n;
		const char *on, *by;
		uint64_t us;
	} cases[] = {
		{ 0, 4, "b done", "p1", 2190 },
		{ 0, 1, "mid", "p2", 1165 },
		{ 2, 2, NULL, NULL, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bp_crit_end end = { .kind = BP_CRIT_END_DEFAULT,
					   .marks = &marks[cases[i].first], .nmarks = cases[i].n };
		struct bp_build_hooks hooks = { 0 };
		struct bp_critical_log *log = bp_critical_log_new();
		struct bp_critical_path *p;
		struct bp_model *m;
		struct gen g;
		size_t k;

		gen_init(&g);
		for (k = 0; ev[k].cpu >= 0; k++)
			gen_add(&g, &ev[k]);
		hooks.critical = log;
		m = bp_model_build_events(g.tep, NULL, g.ev, g.n, NULL, &hooks);
		assert_non_null(m);
		p = bp_critical_walk(log, m, &end);
		assert_non_null(p);
		assert_tiles(p);
		if (cases[i].on) {
			assert_string_equal(p->end_what, "mark");
			assert_string_equal(p->end_on, cases[i].on);
			assert_string_equal(p->end_by, cases[i].by);
			assert_int_equal(p->end_ns, cases[i].us * US);
			assert_int_equal(p->end_task.tid, 11);
		} else {
			assert_string_not_equal(p->end_what, "mark");
			assert_null(p->end_by);
		}
		bp_critical_path_free(p);
		bp_critical_log_free(log);
		bp_model_free(m);
		tep_free(g.tep);
	}
}

/* Every fixture with task switches: the path to its default end tiles the recording. */
static void test_critical_fixtures(void **state)
{
	static const char *const files[] = { BASIC, NO_ACCESS, BOOT, "tests/fixtures/bootprof.dat" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct bp_crit_end end = { .kind = BP_CRIT_END_DEFAULT };
		struct bp_build_hooks hooks = { 0 };
		struct bp_critical_log *log = bp_critical_log_new();
		struct bp_critical_path *p;
		struct bp_reader *r = bp_reader_open(files[i]);
		struct bp_model *m;

		assert_non_null(r);
		hooks.critical = log;
		m = bp_model_build(r, NULL, &hooks);
		assert_non_null(m);
		p = bp_critical_walk(log, m, &end);
		assert_non_null(p);
		assert_int_equal(p->start_ns, m->header.first_event_ns);
		assert_tiles(p);
		bp_critical_path_free(p);
		bp_critical_log_free(log);
		bp_model_free(m);
		bp_reader_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_model),
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_repeated_execs),
		cmocka_unit_test(test_selection_sorted_and_filtered),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_page_map),
		cmocka_unit_test(test_no_access_events),
		cmocka_unit_test(test_wait_rules),
		cmocka_unit_test(test_idle_rules),
		cmocka_unit_test(test_page_states),
		cmocka_unit_test(test_bytes_rules),
		cmocka_unit_test(test_other_sleepers),
		cmocka_unit_test(test_spans_fixture),
		cmocka_unit_test(test_meta_tasks),
		cmocka_unit_test(test_recorder_forked),
		cmocka_unit_test(test_asleep_at_start),
		cmocka_unit_test(test_first_last),
		cmocka_unit_test(test_write_then_map),
		cmocka_unit_test(test_requests_in_flight),
		cmocka_unit_test(test_first_exec),
		cmocka_unit_test(test_critical_cases),
		cmocka_unit_test(test_critical_handoff),
		cmocka_unit_test(test_critical_remap),
		cmocka_unit_test(test_critical_missing_end),
		cmocka_unit_test(test_critical_mark_end),
		cmocka_unit_test(test_critical_fixtures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
