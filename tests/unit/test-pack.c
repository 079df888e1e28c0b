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

static void test_round_trip(void **state)
{
	struct bp_pack *p = sample(), *q;
	size_t len, len2;
	char *text = write_mem(p, &len), *again;
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
	/* Writing the parsed pack gives the same text. */
	again = write_mem(q, &len2);
	assert_int_equal(len, len2);
	assert_memory_equal(text, again, len);
	free(again);
	free(text);
	bp_pack_free(p);
	bp_pack_free(q);
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
		cmocka_unit_test(test_unknown_keywords_ignored),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
