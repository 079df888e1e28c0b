// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat writer and reader, on the fixture recordings in
 * tests/fixtures/ (made by make-fixtures.sh from a real trace-cmd extract):
 * round trips, trace-cmd's v6 and v7 against each other, truncated and
 * corrupt files, and the writer's file-safety rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracefile/internal.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

#define FIXTURES "tests/fixtures/"

/* In RAM when possible: the truncation and fuzz loops write hundreds of files. */
static char tmpdir[64];

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/bootprof-test-tracefile.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	int ret = system(cmd);

	(void)state;
	free(cmd);
	return ret ? -1 : 0;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* A digest of the event stream: order, times, CPUs, types and payloads. */
struct digest {
	uint64_t events;
	uint64_t hash;
	uint64_t last_ts;
	int ordered;
	int unknown;
};

static void digest_reader(struct bp_reader *r, struct digest *d)
{
	struct bp_event ev;
	int ret, i;

	memset(d, 0, sizeof(*d));
	d->ordered = 1;
	d->hash = 1469598103934665603ULL;
	while ((ret = bp_reader_next(r, &ev)) == 1) {
		const unsigned char *p = ev.data;

		if (ev.ts < d->last_ts)
			d->ordered = 0;
		d->last_ts = ev.ts;
		d->hash = (d->hash ^ ev.ts ^ ((uint64_t)ev.cpu << 56) ^ (uint64_t)ev.id) *
			  1099511628211ULL;
		for (i = 0; i < ev.size; i++)
			d->hash = (d->hash ^ p[i]) * 1099511628211ULL;
		d->unknown += !ev.format;
		d->events++;
	}
	assert_int_equal(ret, 0);
}

static void digest_file(const char *path, struct digest *d)
{
	struct bp_reader *r = bp_reader_open(path);

	if (!r)
		fail_msg("cannot open %s: %s", path, bp_last_error());
	digest_reader(r, d);
	bp_reader_free(r);
}

static void test_tracecmd_v6_and_v7_agree(void **state)
{
	struct digest d6, d7;
	struct bp_reader *r;

	(void)state;
	digest_file(FIXTURES "tracecmd-v6.dat", &d6);
	digest_file(FIXTURES "tracecmd-v7.dat", &d7);
	assert_true(d6.events > 1000);
	assert_true(d6.ordered);
	assert_int_equal(d6.unknown, 0);
	assert_true(d6.events == d7.events);
	assert_true(d6.hash == d7.hash);

	r = bp_reader_open(FIXTURES "tracecmd-v7.dat");
	assert_non_null(r);
	assert_int_equal(bp_reader_version(r), 7);
	assert_int_equal(bp_reader_meta(r)->ncpus, bp_reader_ncpus(r));
	assert_non_null(bp_reader_meta(r)->kernel_release);
	assert_non_null(bp_reader_meta(r)->cpu_stats);
	assert_null(bp_reader_meta(r)->bootprof_version);
	/* The fixture's 64 KiB buffer overran: page headers say so. */
	digest_reader(r, &d7);
	assert_true(bp_reader_stats(r)->missed_events + bp_reader_stats(r)->missed_pages > 0);
	assert_int_equal(bp_reader_stats(r)->truncated, 0);
	/* Rewind gives the same stream again. */
	assert_int_equal(bp_reader_rewind(r), 0);
	digest_reader(r, &d7);
	assert_true(d6.hash == d7.hash);
	bp_reader_free(r);
}

static void sample_meta(struct bp_meta *m, int ncpus)
{
	int cpu;

	bp_meta_init(m);
	m->bootprof_version = xstrdup("9.9.9");
	m->hostname = xstrdup("host with space");
	m->kernel_release = xstrdup("6.1.0-test");
	m->clock = xstrdup("boot");
	m->ncpus = ncpus;
	m->page_size = 4096;
	bp_meta_add_path(m, BP_DEV(254, 0), 42, "/usr/lib/x\nnewline");
	bp_meta_add_mount(m, BP_DEV(254, 0), "ext4", "/", "/dev/vda");
	m->cpu_stats = xcalloc(ncpus, sizeof(*m->cpu_stats));
	for (cpu = 0; cpu < ncpus; cpu++)
		m->cpu_stats[cpu].overrun = 10 + cpu;
}

/* Rewrite a recording's pages through the writer; returns the writer's result. */
static int rewrite(const char *in, const char *out, int force, struct digest *spool_digest)
{
	struct bp_trace_headers h;
	struct bp_reader *r = bp_reader_open(in), *sr;
	struct bp_writer *w;
	struct bp_meta m;
	int cpu, ncpus, ret;

	assert_non_null(r);
	ncpus = bp_reader_ncpus(r);
	w = bp_writer_create(out, force, ncpus, bp_reader_page_size(r));
	if (!w) {
		bp_reader_free(r);
		return -2;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		uint64_t size;
		const void *pages = bp_reader_cpu_pages(r, cpu, &size);

		if (pages)
			assert_int_equal(write(bp_writer_cpu_fd(w, cpu), pages, size),
					 (ssize_t)size);
	}
	assert_int_equal(bp_writer_cpu_fd(w, ncpus), -1);
	bp_reader_headers(r, &h);
	if (spool_digest) {
		sr = bp_writer_reader(w, &h);
		assert_non_null(sr);
		digest_reader(sr, spool_digest);
		bp_reader_free(sr);
	}
	sample_meta(&m, ncpus);
	ret = bp_writer_finish(w, &h, &m);
	bp_writer_free(w);
	bp_trace_headers_release(&h);
	bp_meta_release(&m);
	bp_reader_free(r);
	return ret;
}

static int spool_left(void)
{
	char *cmd = xasprintf("ls -a '%s' | grep -q spool", tmpdir);
	int ret = system(cmd);

	free(cmd);
	return ret == 0;
}

static void test_round_trip(void **state)
{
	char *out = tmp_path("round.dat");
	struct digest orig, spool, back;
	struct bp_reader *r;
	const struct bp_meta *m;
	struct stat st;

	(void)state;
	digest_file(FIXTURES "tracecmd-v6.dat", &orig);
	assert_int_equal(rewrite(FIXTURES "tracecmd-v6.dat", out, 0, &spool), 0);
	assert_true(spool.events == orig.events && spool.hash == orig.hash);
	assert_false(spool_left());
	assert_int_equal(lstat(out, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	r = bp_reader_open(out);
	assert_non_null(r);
	assert_int_equal(bp_reader_version(r), 6);
	digest_reader(r, &back);
	assert_true(back.events == orig.events && back.hash == orig.hash);
	m = bp_reader_meta(r);
	assert_string_equal(m->bootprof_version, "9.9.9");
	assert_string_equal(m->hostname, "host with space");
	assert_int_equal(m->npaths, 1);
	assert_string_equal(m->paths[0].path, "/usr/lib/x\nnewline");
	assert_non_null(m->cpu_stats);
	assert_true(bp_meta_lost_events(m) == 10 + 11);
	assert_null(bp_reader_warnings(r));
	bp_reader_free(r);

	/* The checked-in bootprof fixture is the same events, with metadata. */
	digest_file(FIXTURES "bootprof.dat", &back);
	assert_true(back.events == orig.events && back.hash == orig.hash);
	free(out);
}

static void test_output_safety(void **state)
{
	char *out = tmp_path("safe.dat"), *link = tmp_path("link.dat"), *target = tmp_path("t");
	struct bp_writer *w;
	size_t len;
	char *buf;

	(void)state;
	write_file(out, "old", 3);
	/* Exists: refused without force, replaced with it. */
	assert_int_equal(rewrite(FIXTURES "tracecmd-v6.dat", out, 0, NULL), -2);
	assert_non_null(strstr(bp_last_error(), "already exists"));
	assert_int_equal(rewrite(FIXTURES "tracecmd-v6.dat", out, 1, NULL), 0);
	buf = read_file(out, &len);
	assert_true(len > 4096);
	free(buf);

	/* A symlink is never followed, force or not. */
	write_file(target, "precious", 8);
	assert_int_equal(symlink(target, link), 0);
	assert_null(bp_writer_create(link, 0, 2, 4096));
	assert_null(bp_writer_create(link, 1, 2, 4096));
	assert_non_null(strstr(bp_last_error(), "symbolic link"));
	buf = read_file(target, &len);
	assert_int_equal(len, 8);
	free(buf);

	/* Abort removes the output and the spool. */
	unlink(out);
	w = bp_writer_create(out, 0, 2, 4096);
	assert_non_null(w);
	assert_true(spool_left());
	bp_writer_abort(w);
	bp_writer_free(w);
	assert_int_equal(access(out, F_OK), -1);
	assert_false(spool_left());

	/* Nonsense geometry and unwritable places fail with a reason. */
	assert_null(bp_writer_create(out, 0, 0, 4096));
	assert_null(bp_writer_create(out, 0, 2, 1000));
	assert_null(bp_writer_create("/nonexistent-dir/x.dat", 0, 2, 4096));
	assert_non_null(strstr(bp_last_error(), "No such file"));
	free(out);
	free(link);
	free(target);
}

/* Read a file to its end; it must open or fail cleanly, and never crash. */
static int read_whole(const char *path, struct digest *d, int *truncated)
{
	struct bp_reader *r = bp_reader_open(path);

	if (!r) {
		assert_true(strlen(bp_last_error()) > 0);
		return -1;
	}
	digest_reader(r, d);
	*truncated = bp_reader_stats(r)->truncated;
	if (*truncated) {
		const char *w = bp_reader_warnings(r);

		assert_non_null(w);
		assert_non_null(strstr(w, "recording truncated: "));
		assert_true(bp_reader_stats(r)->truncated_bytes > 0);
	}
	bp_reader_free(r);
	return 0;
}

/*
 * Cut a fixture every step bytes. v6 keeps its CPU table in the headers, so
 * once it opens, every cut opens and says it is truncated. v7 writes the
 * table of its data (the BUFFER option) at the end of the file: cut
 * anywhere before that, it cannot be read, and must say so cleanly.
 */
static void check_truncations(const char *fixture, int step, int table_at_end)
{
	char *cut = tmp_path("cut.dat");
	struct digest full, part;
	size_t len, at;
	char *buf = read_file(fixture, &len);
	int truncated, opened = 0;

	digest_file(fixture, &full);
	for (at = 0; at < len; at += (size_t)step) {
		write_file(cut, buf, at);
		if (read_whole(cut, &part, &truncated) < 0) {
			/* Only a file cut in its headers may fail to open. */
			assert_int_equal(opened, 0);
			continue;
		}
		opened = 1;
		/* Not truncated: only sections after the data were cut (v7 strings). */
		if (!truncated)
			assert_true(table_at_end && part.events == full.events);
		assert_true(part.events <= full.events);
	}
	if (!table_at_end)
		assert_true(opened);
	free(buf);
	free(cut);
}

static void test_truncated_bootprof(void **state)
{
	(void)state;
	check_truncations(FIXTURES "bootprof.dat", 1021, 0);
}

static void test_truncated_tracecmd_v7(void **state)
{
	(void)state;
	check_truncations(FIXTURES "tracecmd-v7.dat", 197, 1);
}

/* The metadata sits before the data: a file cut in the data keeps it. */
static void test_truncated_keeps_meta(void **state)
{
	char *cut = tmp_path("cut-meta.dat");
	struct bp_reader *r;
	size_t len;
	char *buf = read_file(FIXTURES "bootprof.dat", &len);

	(void)state;
	write_file(cut, buf, len - 3 * 4096 - 100);
	r = bp_reader_open(cut);
	assert_non_null(r);
	assert_non_null(bp_reader_meta(r)->bootprof_version);
	assert_int_equal(bp_reader_meta(r)->npaths, 3);
	assert_true(bp_reader_stats(r)->truncated);
	assert_true(bp_reader_stats(r)->truncated_bytes == 3 * 4096 + 100);
	bp_reader_free(r);
	free(buf);
	free(cut);
}

static void expect_open_error(const char *name, const void *content, size_t len,
			      const char *message)
{
	char *path = tmp_path(name);
	struct bp_reader *r;

	write_file(path, content, len);
	r = bp_reader_open(path);
	if (r)
		fail_msg("opened garbage file %s", name);
	if (!strstr(bp_last_error(), message))
		fail_msg("%s: got '%s', want '%s'", name, bp_last_error(), message);
	free(path);
}

static void test_garbage_rejected(void **state)
{
	static const char v9[] = "\x17\x08\x44tracing9\0\0\x08\0\x10\0\0";
	static const char badpage[] = "\x17\x08\x44tracing6\0\0\x08\x01\0\0\0";
	static const char cut[] = "\x17\x08\x44tracing6\0\0\x08\0\x10\0\0header_page\0\xff";
	char junk[5000];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 131 + 7);
	expect_open_error("empty.dat", "", 0, "is not a trace.dat recording");
	expect_open_error("junk.dat", junk, sizeof(junk), "is not a trace.dat recording");
	expect_open_error("v9.dat", v9, sizeof(v9) - 1, "unsupported trace.dat version 9");
	expect_open_error("page.dat", badpage, sizeof(badpage) - 1, "page size");
	expect_open_error("cut.dat", cut, sizeof(cut) - 1, "cut short or corrupt");
	assert_null(bp_reader_open(FIXTURES "no-such-file.dat"));
	assert_non_null(strstr(bp_last_error(), "cannot open"));
	assert_non_null(strstr(bp_last_error(), "No such file or directory"));
}

/*
 * A broken metadata line: the message names the file once and keeps the
 * metadata parser's cause (it was formatted into the buffer it read from).
 */
static void test_error_keeps_cause(void **state)
{
	char *path = tmp_path("bad-meta.dat");
	size_t len;
	char *buf = read_file(FIXTURES "bootprof.dat", &len), *want;
	char *at = memmem(buf, len, "\nncpus ", 7);
	const char *msg;

	(void)state;
	assert_non_null(at);
	at[7] = 'x';
	write_file(path, buf, len);
	assert_null(bp_reader_open(path));
	msg = bp_last_error();
	want = xasprintf("'%s' is corrupt: malformed bootprof metadata, line ", path);
	if (strncmp(msg, want, strlen(want)) || !strstr(msg, ": bad number") ||
	    strstr(msg + 1, "is corrupt: '"))
		fail_msg("got '%s'", msg);
	free(want);
	free(buf);
	free(path);
}

/* Flip bytes all over real files: every open either fails or reads to the end. */
static void fuzz_file(const char *fixture, unsigned seed)
{
	char *path = tmp_path("fuzz.dat");
	size_t len, round;
	char *orig = read_file(fixture, &len), *buf = xmalloc(len);
	struct digest d;
	int truncated;

	srand(seed);
	for (round = 0; round < 100; round++) {
		int flips = 1 + rand() % 8, k;

		memcpy(buf, orig, len);
		for (k = 0; k < flips; k++) {
			/* Half in the headers (first 8 KiB), half anywhere. */
			size_t at = (size_t)rand() % (k & 1 ? len : (len < 8192 ? len : 8192));

			buf[at] = (char)rand();
		}
		write_file(path, buf, len);
		read_whole(path, &d, &truncated);
	}
	free(orig);
	free(buf);
	free(path);
}

static void test_corrupt_bytes(void **state)
{
	(void)state;
	fuzz_file(FIXTURES "bootprof.dat", 1);
	fuzz_file(FIXTURES "tracecmd-v6.dat", 2);
	fuzz_file(FIXTURES "tracecmd-v7.dat", 3);
}

/* A full disk at finish: -1 with a reason, and the prefix written stays readable. */
static void test_finish_disk_full(void **state)
{
	char *out = tmp_path("full.dat");
	struct bp_trace_headers h;
	struct bp_reader *r = bp_reader_open(FIXTURES "tracecmd-v6.dat"), *back;
	struct bp_writer *w;
	struct rlimit old, lim;
	struct bp_meta m;
	struct digest d;
	int cpu, ncpus, ret;

	(void)state;
	assert_non_null(r);
	ncpus = bp_reader_ncpus(r);
	w = bp_writer_create(out, 0, ncpus, bp_reader_page_size(r));
	assert_non_null(w);
	for (cpu = 0; cpu < ncpus; cpu++) {
		uint64_t size;
		const void *pages = bp_reader_cpu_pages(r, cpu, &size);

		if (pages)
			assert_int_equal(write(bp_writer_cpu_fd(w, cpu), pages, size),
					 (ssize_t)size);
	}
	bp_reader_headers(r, &h);
	sample_meta(&m, ncpus);
	/*
	 * RLIMIT_FSIZE makes writes past 160 KiB fail (EFBIG) like a full disk:
	 * after the headers (about 136 KiB), inside CPU 0's data.
	 */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 160 * 1024;
	setrlimit(RLIMIT_FSIZE, &lim);
	ret = bp_writer_finish(w, &h, &m);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(bp_last_error(), "cannot write"));
	bp_writer_free(w);
	assert_false(spool_left());

	back = bp_reader_open(out);
	assert_non_null(back);
	assert_non_null(bp_reader_meta(back)->bootprof_version);
	assert_true(bp_reader_stats(back)->truncated);
	digest_reader(back, &d);
	assert_true(d.events > 0);
	bp_reader_free(back);
	bp_trace_headers_release(&h);
	bp_meta_release(&m);
	bp_reader_free(r);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracecmd_v6_and_v7_agree),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_output_safety),
		cmocka_unit_test(test_truncated_bootprof),
		cmocka_unit_test(test_truncated_tracecmd_v7),
		cmocka_unit_test(test_truncated_keeps_meta),
		cmocka_unit_test(test_garbage_rejected),
		cmocka_unit_test(test_error_keeps_cause),
		cmocka_unit_test(test_corrupt_bytes),
		cmocka_unit_test(test_finish_disk_full),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
