// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat reader: versions 6 and 7 of trace-cmd's format (man 5
 * trace-cmd.dat.v6 / .v7), uncompressed or zstd-compressed, written by
 * bootprof or by trace-cmd, and the writer's spool during a recording.
 *
 * The file is mapped; every length and offset in it is checked against the
 * mapping before use (cursor.h), so a cut or corrupt file yields an error
 * message or the events up to its last complete page, never a crash; a
 * file cut while being read yields an error (guard.h). This file opens the
 * recording and owns the reader; the parts are:
 *   open-v6.c, open-v7.c, spool.c   where the headers and the pages are
 *   options.c                       trace-cmd's options
 *   headers.c                       the texts that describe the pages
 *   formats.c                       those texts handed to libtraceevent
 *   stream.c                        the per-CPU page streams and their merge
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "tracefile/guard.h"
#include "tracefile/reader-internal.h"
#include "util/error.h"
#include "util/xalloc.h"

void bp_reader_warn(struct bp_reader *r, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = strlen(line);
	r->warnings = xrealloc(r->warnings, r->warnings_len + n + 2);
	memcpy(r->warnings + r->warnings_len, line, n);
	r->warnings_len += n;
	r->warnings[r->warnings_len++] = '\n';
	r->warnings[r->warnings_len] = 0;
}

/*
 * Opening names the file; reading events does not (callers such as report
 * say "cannot read 'FILE': " before it).
 */
int bp_reader_shrank(const struct bp_reader *r, int opening)
{
	if (opening)
		bp_set_error("cannot read '%s': the recording shrank while being read", r->path);
	else
		bp_set_error("the recording shrank while being read");
	return -1;
}

int bp_reader_init_tep(struct bp_reader *r)
{
	r->tep = tep_alloc();
	if (!r->tep) {
		bp_set_error("out of memory");
		return -1;
	}
	bp_formats_geometry(r, r->tep);
	return 0;
}

static int not_a_recording(const char *path)
{
	bp_set_error("'%s' is not a trace.dat recording", path);
	return -1;
}

int bp_reader_cut_headers(const char *path)
{
	bp_set_error("'%s' is cut short or corrupt in its headers", path);
	return -1;
}

struct bp_reader *bp_reader_alloc(const char *path)
{
	struct bp_reader *r = xcalloc(1, sizeof(*r));

	r->path = xstrdup(path);
	r->last = -1;
	bp_meta_init(&r->meta);
	return r;
}

static int parse_file(struct bp_reader *r)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct bp_cursor c;
	const char *ver;
	char *end;
	long v;
	uint8_t endian, lsize;
	uint32_t psize;

	bp_cursor_init(&c, r->map, r->size, 0, 0);
	if (bp_cursor_expect(&c, magic, sizeof(magic)))
		return not_a_recording(r->path);
	ver = bp_cursor_str(&c);
	if (!ver || !*ver || strlen(ver) > 8)
		return not_a_recording(r->path);
	v = strtol(ver, &end, 10);
	if (*end)
		return not_a_recording(r->path);
	if (v != 6 && v != 7) {
		bp_set_error("unsupported trace.dat version %s", ver);
		return -1;
	}
	r->version = (int)v;
	endian = (uint8_t)bp_cursor_num(&c, 1);
	lsize = (uint8_t)bp_cursor_num(&c, 1);
	if (c.err)
		return bp_reader_cut_headers(r->path);
	if (endian > 1 || (lsize != 4 && lsize != 8))
		return not_a_recording(r->path);
	r->swap = endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	c.swap = r->swap;
	r->long_size = lsize;
	psize = bp_cursor_u32(&c);
	if (c.err)
		return bp_reader_cut_headers(r->path);
	if (psize < BP_MIN_PAGE || psize > BP_MAX_PAGE || (psize & (psize - 1))) {
		bp_set_error("'%s' has an unsupported page size %u", r->path, psize);
		return -1;
	}
	r->page_size = (int)psize;
	if (bp_reader_init_tep(r))
		return -1;
	if (r->version == 6 ? bp_v6_open(r, &c) : bp_v7_open(r, &c))
		return -1;
	if (bp_formats_load(r, 1))
		return -1;
	bp_options_meta(r);
	bp_streams_warn_truncated(r);
	return bp_streams_setup(r);
}

static int parse_file_cb(void *r)
{
	return parse_file(r);
}

struct bp_reader *bp_reader_open(const char *path)
{
	struct bp_reader *r;
	struct stat st;
	int fd, ret;

	/*
	 * Refuse anything but a regular file before opening it (opening a
	 * FIFO blocks until a writer comes; a device may act on open), and
	 * open without blocking in case it was swapped meanwhile: fstat()
	 * below decides.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		bp_set_error("cannot open '%s': not a regular file", path);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		bp_set_error("cannot open '%s': not a regular file", path);
		close(fd);
		return NULL;
	}
	r = bp_reader_alloc(path);
	r->size = (uint64_t)st.st_size;
	if (r->size) {
		void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			bp_set_error_errno("cannot map '%s'", path);
			close(fd);
			bp_reader_free(r);
			return NULL;
		}
		r->map = m;
		madvise(m, r->size, MADV_SEQUENTIAL);
	}
	close(fd);
	/* Every read of the headers is of the mapping, which a cut file faults. */
	if (bp_guard_run(r->map, r->size, parse_file_cb, r, &ret)) {
		bp_reader_shrank(r, 1);
		ret = -1;
	}
	if (ret) {
		bp_reader_free(r);
		return NULL;
	}
	return r;
}

void bp_reader_free(struct bp_reader *r)
{
	int i;
	size_t k;

	if (!r)
		return;
	for (i = 0; i < r->nstreams; i++) {
		if (r->streams[i].kbuf)
			kbuffer_free(r->streams[i].kbuf);
		free(r->streams[i].page);
		free(r->streams[i].chunks);
		free(r->streams[i].zbuf);
	}
	free(r->streams);
	free(r->heap);
	for (i = 0; i < r->nmaps; i++) {
		if (r->maps[i])
			munmap(r->maps[i], r->map_lens[i]);
	}
	free(r->maps);
	free(r->map_lens);
	if (r->map)
		munmap((void *)r->map, r->size);
	if (r->zctx)
		ZSTD_freeDCtx(r->zctx);
	if (r->tep)
		tep_free(r->tep);
	free(r->by_id);
	free(r->need);
	bp_meta_release(&r->meta);
	bp_trace_headers_release(&r->texts);
	for (k = 0; k < r->nowned; k++)
		free(r->owned[k]);
	free(r->owned);
	free(r->opt_uname);
	free(r->opt_clock);
	for (k = 0; k < r->nopt_cpustats; k++)
		free(r->opt_cpustats[k]);
	free(r->opt_cpustats);
	free(r->warnings);
	free(r->path);
	free(r);
}

struct tep_handle *bp_reader_tep(struct bp_reader *r)
{
	return r ? r->tep : NULL;
}

const struct bp_meta *bp_reader_meta(struct bp_reader *r)
{
	return r ? &r->meta : NULL;
}

const char *bp_reader_kallsyms(struct bp_reader *r)
{
	return r ? r->texts.kallsyms : NULL;
}

const struct bp_read_stats *bp_reader_stats(struct bp_reader *r)
{
	return r ? &r->stats : NULL;
}

int bp_reader_version(struct bp_reader *r)
{
	return r ? r->version : 0;
}

const char *bp_reader_warnings(struct bp_reader *r)
{
	if (!r)
		return NULL;
	if (r->corrupt_pages) {
		/* Reported once, when asked, so that reading stays cheap. */
		bp_reader_warn(r, "%llu corrupt ring-buffer pages skipped",
			    (unsigned long long)r->corrupt_pages);
		r->corrupt_pages = 0;
	}
	return r->warnings;
}

int bp_reader_headers(struct bp_reader *r, struct bp_trace_headers *h)
{
	bp_trace_headers_copy(h, &r->texts);
	return 0;
}

int bp_reader_read_cmdlines(struct bp_reader *r, struct bp_cursor *c)
{
	if (bp_headers_read_cmdlines(&r->texts, c))
		return -1;
	if (r->texts.cmdlines)
		bp_formats_comms(r->tep, r->texts.cmdlines);
	return 0;
}

int bp_reader_ncpus(struct bp_reader *r)
{
	return r->ncpus;
}

int bp_reader_page_size(struct bp_reader *r)
{
	return r->page_size;
}

const void *bp_reader_cpu_pages(struct bp_reader *r, int cpu, uint64_t *size)
{
	int i;

	for (i = 0; i < r->nstreams; i++) {
		if (r->streams[i].cpu == cpu && !r->streams[i].chunks) {
			*size = r->streams[i].avail;
			return r->streams[i].base;
		}
	}
	*size = 0;
	return NULL;
}
