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

#include "analysis/model.h"
#include "tracefile/tracefile.h"
#include "util/error.h"

#define BASIC "tests/fixtures/basic.dat"
#define NO_ACCESS "tests/fixtures/no-access.dat"

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
	assert_string_equal(bp_cause_name((enum bp_cause)99), "?");
	bp_model_free(m);
	bp_model_free(NULL);
}

static void test_sums(void **state)
{
	struct bp_model *m = build(BASIC, NULL);
	uint64_t read = 0, never = 0, wait = 0, cause = 0;
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
		if (f->kind == BP_FILE_REGULAR)
			assert_int_equal(f->used_bytes + f->never_used_bytes, f->bytes_read);
		else
			assert_int_equal(f->used_bytes + f->never_used_bytes, 0);
		if (i)   /* by (dev, ino) */
			assert_true(m->files[i - 1].dev < f->dev ||
				    (m->files[i - 1].dev == f->dev && m->files[i - 1].ino < f->ino));
		assert_ptr_equal(bp_model_find_file(m, f->dev, f->ino), f);
	}
	assert_int_equal(read, m->totals.read_bytes);
	assert_int_equal(never, m->totals.never_used_bytes);
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
	size_t i, k, used = 0, never = 0;

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
		}
		free(st);
	}
	assert_int_equal(never * m->header.page_size, m->totals.never_used_bytes);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
