// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a version 6 recording (man 5 trace-cmd.dat.v6): the headers in
 * order, the options, the flyrecord CPU table, and bootprof's metadata in
 * the gap before the data (see writer.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tracefile/reader-internal.h"
#include "util/error.h"
#include "util/xalloc.h"

/* 1 PiB: a CPU data offset or size beyond this is corrupt, not truncated. */
#define MAX_CPU_DATA (1ULL << 50)

/*
 * trace-cmd and bootprof write each CPU's data after the headers, in CPU
 * order: a table that says otherwise is not a cut file but a corrupt one.
 * Say what is wrong with CPU cpu's entry, or 0 when nothing is. prev is
 * the last CPU with data before it (-1: none), whose data ends at end.
 */
static int bad_cpu_entry(struct bp_reader *r, int cpu, uint64_t off, uint64_t size, int prev,
			 uint64_t end)
{
	const unsigned long long o = off, n = size, e = end;

	if (!size)
		return 0;
	if (size > MAX_CPU_DATA)
		bp_set_error("'%s' is corrupt: its CPU table gives CPU %d an impossible %llu bytes "
			     "of data", r->path, cpu, n);
	else if (off > MAX_CPU_DATA)
		bp_set_error("'%s' is corrupt: its CPU table puts CPU %d's data at an impossible "
			     "offset %llu", r->path, cpu, o);
	else if (off < end && prev < 0)
		bp_set_error("'%s' is corrupt: its CPU table puts CPU %d's data (%llu bytes) at "
			     "offset %llu, inside the headers, which end at %llu", r->path, cpu, n,
			     o, e);
	else if (off < end)
		bp_set_error("'%s' is corrupt: its CPU table puts CPU %d's data (%llu bytes) at "
			     "offset %llu, inside CPU %d's data, which ends at %llu", r->path, cpu,
			     n, o, prev, e);
	else
		return 0;
	return -1;
}

/* v6 flyrecord CPU table: ncpus (offset, size) pairs at the cursor. */
static int parse_cpu_table(struct bp_reader *r, struct bp_cursor *c)
{
	uint64_t end = c->pos + 16 * (uint64_t)r->ncpus;
	int cpu, prev = -1;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		uint64_t off = bp_cursor_u64(c), size = bp_cursor_u64(c);

		if (c->err)
			return -1;
		if (bad_cpu_entry(r, cpu, off, size, prev, end))
			return -2;
		if (bp_stream_add(r, cpu, r->page_size, off, size))
			return -1;
		if (size) {
			end = off + size;
			prev = cpu;
		}
	}
	return 0;
}

int bp_v6_add_buffer(struct bp_reader *r, uint64_t offset)
{
	struct bp_cursor c;
	uint64_t next;

	bp_cursor_init(&c, r->map, r->size, offset, r->swap);
	if (!bp_cursor_expect(&c, "options  ", 10)) {
		if (bp_options_parse(r, &c, &next, 0))
			return -1;
	} else {
		bp_cursor_init(&c, r->map, r->size, offset, r->swap);
	}
	if (bp_cursor_expect(&c, "flyrecord", 10))
		return 0; /* a latency buffer or garbage: no pages */
	return parse_cpu_table(r, &c);
}

/* bootprof's metadata in the gap after the v6 CPU table (see writer.c). */
static int parse_bootprof_meta(struct bp_reader *r, struct bp_cursor *c)
{
	uint64_t n;
	const uint8_t *p;
	struct bp_meta m;
	size_t i;

	if (bp_cursor_expect(c, BP_META_MAGIC, sizeof(BP_META_MAGIC)))
		return 0;
	/* It lies between the CPU table and the first page of data. */
	n = bp_cursor_u64(c);
	p = bp_cursor_take(c, n);
	for (i = 0; p && i < (size_t)r->nstreams; i++) {
		if (r->streams[i].base && r->streams[i].base < p + n)
			p = NULL;
	}
	if (!p) {
		bp_set_error("'%s' is corrupt: its bootprof metadata (%llu bytes) runs past "
			     "its place", r->path, (unsigned long long)n);
		return -1;
	}
	if (bp_meta_parse(&m, (const char *)p, n)) {
		/* The cause is in the buffer bp_set_error() writes: copy it first. */
		char *why = xstrdup(bp_last_error());

		bp_set_error("'%s' is corrupt: %s", r->path, why);
		free(why);
		return -1;
	}
	if ((m.ncpus && m.ncpus != r->ncpus) || (m.page_size && m.page_size != r->page_size)) {
		bp_set_error("'%s' is corrupt: its metadata says %d CPUs and %d-byte pages, "
			     "its data %d and %d", r->path, m.ncpus, m.page_size, r->ncpus,
			     r->page_size);
		bp_meta_release(&m);
		return -1;
	}
	bp_spool_find(r, p, n);
	/* trace-cmd's options fill only what this leaves empty (bp_options_meta()). */
	bp_meta_release(&r->meta);
	r->meta = m;
	return 0;
}

int bp_v6_open(struct bp_reader *r, struct bp_cursor *c)
{
	int ret;
	uint32_t cpus;
	uint64_t next;
	const uint8_t *kind;

	if (bp_headers_read_page(&r->texts, c) || bp_headers_read_ftrace(&r->texts, c) || bp_headers_read_events(&r->texts, c) ||
	    bp_headers_read_kallsyms(&r->texts, c) || bp_headers_read_printk(&r->texts, c) || bp_reader_read_cmdlines(r, c))
		return bp_reader_cut_headers(r->path);
	cpus = bp_cursor_u32(c);
	if (c->err)
		return bp_reader_cut_headers(r->path);
	if (!cpus || cpus > BP_MAX_CPUS) {
		bp_set_error("'%s' declares %u CPUs", r->path, cpus);
		return -1;
	}
	r->ncpus = (int)cpus;
	for (;;) {
		kind = bp_cursor_take(c, 10);
		if (!kind)
			return bp_reader_cut_headers(r->path);
		if (!memcmp(kind, "options  ", 10)) {
			if (bp_options_parse(r, c, &next, 1))
				return bp_reader_cut_headers(r->path);
			continue;
		}
		if (!memcmp(kind, "latency  ", 10)) {
			bp_reader_warn(r, "latency-tracer recording: no events to read");
			return 0;
		}
		if (!memcmp(kind, "flyrecord", 10))
			break;
		return bp_reader_cut_headers(r->path);
	}
	ret = parse_cpu_table(r, c);
	if (ret)
		return ret == -2 ? -1 : bp_reader_cut_headers(r->path);
	if (parse_bootprof_meta(r, c))
		return -1;
	if (r->spool[0])
		return bp_spool_open(r);
	return 0;
}
