// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a recording whose pages are in its spool. The input is a
 * killed recording (tracedat.py spoolseed): "bpspool\n", then blobs, each
 * a 32-bit little-endian length and its bytes: the provisional file, then
 * each CPU's spool file. They are laid out in a directory as a killed
 * recorder leaves them (NAME and .NAME.spool-XXXXXX/cpuN, XXXXXX from the
 * file's "spool" line) and read to the end; then the same pages are read
 * as the recorder reads its own spool (bp_writer_reader()).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "tracefile/internal.h"
#include "tracefile/tracefile.h"

#define MAX_CPUS 8

static char dir[64];

static void remove_dir(void)
{
	rmdir(dir);
}

static int put(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);

		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(fd);
	return done == n ? 0 : -1;
}

static void read_all(struct bp_reader *r)
{
	struct bp_event ev;

	while (bp_reader_next(r, &ev) == 1)
		;
	bp_reader_warnings(r);
}

/* The spool's suffix as the file names it, or a fixed one. */
static void suffix_of(const uint8_t *p, size_t n, char out[7])
{
	const uint8_t *k = memmem(p, n, "\nspool ", 7);
	size_t i;

	memcpy(out, "AAAAAA", 7);
	if (!k || (size_t)(k - p) + 13 > n)
		return;
	for (i = 0; i < 6; i++) {
		char c = (char)k[7 + i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return;
	}
	memcpy(out, k + 7, 6);
}

/* The recorder's view: the file's headers over the same pages, from a writer's spool. */
static void as_recorder(struct bp_reader *file, const uint8_t **cpu, const size_t *len, int n)
{
	struct bp_trace_headers h;
	struct bp_writer *w;
	struct bp_reader *r;
	char path[96];
	int i;

	bp_reader_headers(file, &h);
	snprintf(path, sizeof(path), "%s/out.dat", dir);
	w = bp_writer_create(path, 1, n, 4096);
	if (w) {
		for (i = 0; i < n; i++) {
			if (write(bp_writer_cpu_fd(w, i), cpu[i], len[i]) < 0)
				break;
		}
		r = bp_writer_reader(w, &h);
		if (r) {
			read_all(r);
			bp_reader_free(r);
		}
		bp_writer_abort(w);
		bp_writer_free(w);
	}
	bp_trace_headers_release(&h);
}

int bp_fuzz_spool(const uint8_t *data, size_t size)
{
	const uint8_t *blob[MAX_CPUS + 1];
	size_t len[MAX_CPUS + 1], pos = 8;
	char path[128], spool[7];
	struct bp_reader *r;
	int n = 0, i;

	if (size < 8 || memcmp(data, "bpspool\n", 8))
		return 0;
	while (n < MAX_CPUS + 1 && size - pos >= 4) {
		uint32_t l = (uint32_t)data[pos] | (uint32_t)data[pos + 1] << 8 |
			     (uint32_t)data[pos + 2] << 16 | (uint32_t)data[pos + 3] << 24;

		pos += 4;
		if (l > size - pos)
			l = (uint32_t)(size - pos);
		blob[n] = data + pos;
		len[n++] = l;
		pos += l;
	}
	if (!n)
		return 0;
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/bootprof-fuzz-spool.XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
	}
	suffix_of(blob[0], len[0], spool);
	snprintf(path, sizeof(path), "%s/.k.dat.spool-%s", dir, spool);
	mkdir(path, 0700);
	for (i = 1; i < n; i++) {
		snprintf(path, sizeof(path), "%s/.k.dat.spool-%s/cpu%d", dir, spool, i - 1);
		put(path, blob[i], len[i]);
	}
	snprintf(path, sizeof(path), "%s/k.dat", dir);
	if (put(path, blob[0], len[0]) == 0) {
		r = bp_reader_open(path);
		if (r) {
			read_all(r);
			if (n > 1 && bp_reader_page_size(r) == 4096)
				as_recorder(r, blob + 1, len + 1, n - 1);
			bp_reader_free(r);
		}
	}
	unlink(path);
	for (i = 1; i < n; i++) {
		snprintf(path, sizeof(path), "%s/.k.dat.spool-%s/cpu%d", dir, spool, i - 1);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/.k.dat.spool-%s", dir, spool);
	rmdir(path);
	return 0;
}

BP_FUZZ_TARGET(bp_fuzz_spool)
