// SPDX-License-Identifier: GPL-2.0
/*
 * The readahead pack format: what is written parses back the same (paths
 * with spaces, newlines and backslashes, negative times, every count), and
 * malformed packs are refused with the line named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "replay/order.h"
#include "replay/pack.h"
#include "util/error.h"
#include "util/xalloc.h"

static struct bp_pack *sample(void)
{
	struct bp_pack *p = bp_pack_new();
	struct bp_pack_file *f;
	int i;

	p->page_size = 4096;
	p->disk_order = 1;
	p->source = xstrdup("/var/log/boot dir/latest.dat");
	p->since_ns = 1500000000;
	p->until_ns = 12345678901;
	for (i = 0; i < BP_PACK_NCOUNTS; i++) {
		p->counts[i].files = (uint64_t)i;
		p->counts[i].bytes = (uint64_t)i * 4096;
	}
	bp_pack_note(p, "metadata vda: 1 bytes\nwith a newline");
	f = bp_pack_add(p);
	f->major = 254;
	f->minor = 1;
	f->ino = 12;
	f->size = 10000;
	f->mtime_sec = -5;
	f->mtime_nsec = 999999999;
	f->ctime_sec = 1700000000;
	f->ctime_nsec = 1;
	f->first_ns = 7000000001;
	f->left_bytes = 8192;
	f->nranges = 2;
	f->ranges = xcalloc(2, sizeof(*f->ranges));
	f->ranges[0].start = 0;
	f->ranges[0].count = 1;
	f->ranges[1].start = 2;
	f->ranges[1].count = 5;
	f->path = xstrdup("/a b/new\nline\\back\x7f");
	return p;
}

static char *write_mem(const struct bp_pack *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(bp_pack_write(p, f), 0);
	fclose(f);
	return buf;
}

/* Writing the pack @text parsed to gives the same text; frees both. */
static void assert_writes_back(struct bp_pack *q, char *text, size_t len)
{
	size_t len2;
	char *again = write_mem(q, &len2);

	assert_int_equal(len, len2);
	assert_memory_equal(text, again, len);
	free(again);
	free(text);
	bp_pack_free(q);
}

static void test_round_trip(void **state)
{
	struct bp_pack *p = sample(), *q;
	size_t len;
	char *text = write_mem(p, &len);
	int i;

	(void)state;
	q = bp_pack_parse(text, len);
	if (!q)
		fail_msg("%s", bp_last_error());
	assert_int_equal(q->page_size, 4096);
	assert_int_equal(q->disk_order, 1);
	assert_string_equal(q->source, p->source);
	assert_int_equal(q->since_ns, p->since_ns);
	assert_int_equal(q->until_ns, p->until_ns);
	for (i = 0; i < BP_PACK_NCOUNTS; i++) {
		assert_int_equal(q->counts[i].files, p->counts[i].files);
		assert_int_equal(q->counts[i].bytes, p->counts[i].bytes);
	}
	assert_int_equal(q->nnotes, 1);
	assert_string_equal(q->notes[0], "metadata vda: 1 bytes with a newline");
	assert_int_equal(q->nfiles, 1);
	assert_string_equal(q->files[0].path, p->files[0].path);
	assert_int_equal(q->files[0].mtime_sec, -5);
	assert_int_equal(q->files[0].mtime_nsec, 999999999);
	assert_int_equal(q->files[0].ctime_nsec, 1);
	assert_int_equal(q->files[0].first_ns, 7000000001);
	assert_int_equal(q->files[0].nranges, 2);
	assert_int_equal(q->files[0].ranges[1].start, 2);
	assert_int_equal(q->files[0].ranges[1].count, 5);
	/* 1 page + 5 pages, the last clipped to the size: 4096 + (10000 - 8192). */
	assert_int_equal(bp_pack_file_bytes(q, &q->files[0]), 4096 + 10000 - 8192);
	bp_pack_free(p);
	assert_writes_back(q, text, len);
}

/* A pack in critical order: its path and what-if lines parse back the same. */
static void test_critical_round_trip(void **state)
{
	struct bp_pack *p = sample(), *q;
	struct bp_pack_whatif *w;
	size_t len;
	char *text;

	(void)state;
	p->crit.set = 1;
	p->crit.entries = 1;
	p->crit.end_ns = 9000000123;
	p->crit.len_ns = 8500000000;
	p->crit.what = xstrdup("exec");
	p->crit.pid = 4321;
	p->crit.to = xstrdup("exec:/usr/bin/my prog");
	w = bp_pack_add_whatif(p);
	w->major = 254;
	w->minor = 1;
	w->ino = 12;
	w->io_ns = 523529861;
	w->segments = 2;
	text = write_mem(p, &len);
	assert_non_null(strstr(text, "\ncritical 1 9.000000123 8.500000000 exec 4321 "
				     "exec:/usr/bin/my\\040prog\n"));
	assert_non_null(strstr(text, "\nwhat-if 254:1 12 523529861 2\n"));
	q = bp_pack_parse(text, len);
	if (!q)
		fail_msg("%s", bp_last_error());
	assert_int_equal(q->crit.set, 1);
	assert_int_equal(q->crit.entries, 1);
	assert_int_equal(q->crit.end_ns, 9000000123);
	assert_int_equal(q->crit.len_ns, 8500000000);
	assert_string_equal(q->crit.what, "exec");
	assert_int_equal(q->crit.pid, 4321);
	assert_string_equal(q->crit.to, "exec:/usr/bin/my prog");
	assert_int_equal(q->crit.nfiles, 1);
	assert_non_null(bp_pack_whatif_of(q, 254, 1, 12));
	assert_int_equal(bp_pack_whatif_of(q, 254, 1, 12)->io_ns, 523529861);
	assert_null(bp_pack_whatif_of(q, 254, 1, 13));
	bp_pack_free(p);
	assert_writes_back(q, text, len);
}

/* Pages moved out of ranges: the rest stays in order, split where needed. */
static void test_ranges_take(void **state)
{
	struct bp_pack_range *from = xcalloc(3, sizeof(*from)), *to = NULL;
	size_t nfrom = 3, nto = 0, cto = 0;

	(void)state;
	from[0] = (struct bp_pack_range){ 0, 4 };    /* 0-3 */
	from[1] = (struct bp_pack_range){ 10, 10 };  /* 10-19 */
	from[2] = (struct bp_pack_range){ 30, 2 };   /* 30-31 */
	assert_int_equal(bp_ranges_take(&from, &nfrom, 12, 14, &to, &nto, &cto), 3);
	assert_int_equal(nfrom, 4);
	assert_int_equal(from[1].start, 10);
	assert_int_equal(from[1].count, 2);
	assert_int_equal(from[2].start, 15);
	assert_int_equal(from[2].count, 5);
	/* Nothing there: nothing moved. */
	assert_int_equal(bp_ranges_take(&from, &nfrom, 5, 9, &to, &nto, &cto), 0);
	/* A whole file, then pages taken before come back in order, joined. */
	assert_int_equal(bp_ranges_take(&from, &nfrom, 0, UINT64_MAX, &to, &nto, &cto), 4 + 2 + 5 + 2);
	assert_int_equal(nfrom, 0);
	bp_ranges_normalize(to, &nto);
	assert_int_equal(nto, 3);
	assert_int_equal(to[0].start, 0);
	assert_int_equal(to[0].count, 4);
	assert_int_equal(to[1].start, 10);
	assert_int_equal(to[1].count, 10);
	assert_int_equal(to[2].start, 30);
	assert_int_equal(to[2].count, 2);
	free(from);
	free(to);
}

static void test_unknown_keywords_ignored(void **state)
{
	static const char text[] = "bootprof-pack 1\n# a comment\n\nfuture-thing 1 2 3\n"
				   "count future-count 1 2\n";
	struct bp_pack *p = bp_pack_parse(text, sizeof(text) - 1);

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->nfiles, 0);
	bp_pack_free(p);
}

static void test_malformed(void **state)
{
	static const struct {
		const char *text, *error;
	} cases[] = {
		{ "", "empty pack" },
		{ "bootprof-pack 2\n", "unsupported pack version" },
		{ "bootprof-pack 1", "line 1: not terminated" },
		{ "hello\n", "not a bootprof pack" },
		{ "bootprof-pack 1\npage-size 3\n", "line 2: malformed" },
		{ "bootprof-pack 1\nfile 1:2 3 4 0.000000000 0.000000000 0.000000000 0 0+1 rel\n",
		  "line 2: malformed 'file'" },
		{ "bootprof-pack 1\nfile 1:2 3 4 0.000000000 0.000000000 0.000000000 0 0+1\n",
		  "line 2: malformed" },
		{ "bootprof-pack 1\nfile 1:2 3 4 0.00000000 0.000000000 0.000000000 0 0+1 /a\n",
		  "line 2" },
		{ "bootprof-pack 1\nfile 1:2 3 4 0.000000000 0.000000000 0.000000000 0 0+0 /a\n",
		  "line 2" },
		{ "bootprof-pack 1\nfile 1:2 3 4 0.000000000 0.000000000 0.000000000 0 4+4,2+1 /a\n",
		  "line 2" },
		{ "bootprof-pack 1\nfile 1:2 3 4 0.000000000 0.000000000 0.000000000 0 0+1 /a\\000\n",
		  "line 2" },
		{ "bootprof-pack 1\nfile 1:2 3 4 0.000000000 0.000000000 0.000000000 0 0+1 /a b\n",
		  "line 2" },
		{ "bootprof-pack 1\nfile 1:2 99999999999999999999 4 0.000000000 0.000000000 "
		  "0.000000000 0 0+1 /a\n", "line 2" },
		{ "bootprof-pack 1\nwindow 1.000000000\n", "line 2" },
		{ "bootprof-pack 1\ncritical 1 1.000000000 1.000000000 exit 0 default\n",
		  "line 2: malformed 'critical'" },
		{ "bootprof-pack 1\ncritical 1 1.000000000 1.000000000 exit 5\n", "line 2" },
		{ "bootprof-pack 1\ncritical 1 1.000000000 1.000000000 exit 5 default\n"
		  "critical 1 1.000000000 1.000000000 exit 5 default\n", "line 3" },
		{ "bootprof-pack 1\ncritical 2 1.000000000 1.000000000 exit 5 default\n"
		  "file 1:2 3 4 0.000000000 0.000000000 0.000000000 0 0+1 /a\n",
		  "'critical' names 2 entries of 1" },
		{ "bootprof-pack 1\nwhat-if 1:2 3 4\n", "line 2: malformed 'what-if'" },
		{ "bootprof-pack 1\nwhat-if 1:2 3 4 5 6\n", "line 2" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bp_pack *p = bp_pack_parse(cases[i].text, strlen(cases[i].text));

		if (p)
			fail_msg("case %zu parsed: %s", i, cases[i].text);
		if (!strstr(bp_last_error(), cases[i].error))
			fail_msg("case %zu: '%s' does not say '%s'", i, bp_last_error(), cases[i].error);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_critical_round_trip),
		cmocka_unit_test(test_ranges_take),
		cmocka_unit_test(test_unknown_keywords_ignored),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
