// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a version 7 recording (man 5 trace-cmd.dat.v7): sections found
 * through chained options sections, each possibly zstd-compressed, and the
 * buffers' CPU data described by BUFFER options.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "tracefile/reader-internal.h"
#include "util/error.h"
#include "util/xalloc.h"

/* Bounds on what a hostile file can make us allocate or loop over. */
#define MAX_SECTION (1ULL << 31)
#define MAX_OPTION_SECTIONS 256

/* v7 BUFFER option: offset, name, clock, page size, cpus, (cpu, offset, size)... */
int bp_v7_add_buffer(struct bp_reader *r, const uint8_t *p, uint32_t n)
{
	struct bp_cursor c;
	const char *name, *clock;
	uint32_t page_size, cpus, i;

	bp_cursor_init(&c, p, n, 0, r->swap);
	bp_cursor_u64(&c);
	name = bp_cursor_str(&c);
	clock = bp_cursor_str(&c);
	page_size = bp_cursor_u32(&c);
	cpus = bp_cursor_u32(&c);
	if (c.err || page_size < BP_MIN_PAGE || page_size > BP_MAX_PAGE || cpus > BP_MAX_CPUS)
		return -1;
	if (clock && *clock && (!*name || !r->opt_clock)) {
		free(r->opt_clock);
		r->opt_clock = xstrdup(clock);
	}
	for (i = 0; i < cpus; i++) {
		uint32_t cpu = bp_cursor_u32(&c);
		uint64_t off = bp_cursor_u64(&c), size = bp_cursor_u64(&c);

		if (c.err || cpu >= BP_MAX_CPUS)
			return -1;
		if (bp_stream_add(r, (int)cpu, (int)page_size, off, size))
			return -1;
		if ((int)cpu >= r->ncpus)
			r->ncpus = (int)cpu + 1;
	}
	return 0;
}

/*
 * A v7 section at off: its payload (decompressed if flagged) in *c.
 * Decompressed payloads are owned by the reader.
 */
static int open_section(struct bp_reader *r, uint64_t off, uint16_t want, struct bp_cursor *c)
{
	struct bp_cursor h;
	uint16_t id, flags;
	uint64_t size;
	const uint8_t *p;

	bp_cursor_init(&h, r->map, r->size, off, r->swap);
	id = bp_cursor_u16(&h);
	flags = bp_cursor_u16(&h);
	bp_cursor_u32(&h);
	size = bp_cursor_u64(&h);
	if (h.err || id != want)
		return -1;
	if (!(flags & 1)) {
		/* The size of an uncompressed section is not always filled in. */
		bp_cursor_init(c, r->map, r->size, h.pos, r->swap);
		return 0;
	}
	{
		uint32_t zsize = bp_cursor_u32(&h), usize = bp_cursor_u32(&h);
		void *buf;
		size_t got;

		(void)size;
		p = bp_cursor_take(&h, zsize);
		if (!p || usize > MAX_SECTION || !r->compressed)
			return -1;
		if (!r->zctx)
			r->zctx = ZSTD_createDCtx();
		buf = xmalloc(usize ? usize : 1);
		got = ZSTD_decompressDCtx(r->zctx, buf, usize, p, zsize);
		if (ZSTD_isError(got) || got != usize) {
			free(buf);
			return -1;
		}
		r->owned = xrealloc(r->owned, (r->nowned + 1) * sizeof(*r->owned));
		r->owned[r->nowned++] = buf;
		bp_cursor_init(c, buf, usize, 0, r->swap);
	}
	return 0;
}

struct v7_sections {
	uint64_t off[BP_OPT_MODULES_FILE + 1];
};

/* Walk the chain of options sections, collecting section offsets. */
static int parse_v7_options(struct bp_reader *r, uint64_t first, struct v7_sections *sec)
{
	uint64_t off = first, next;
	int n;

	for (n = 0; off && n < MAX_OPTION_SECTIONS; n++) {
		struct bp_cursor c, scan;

		if (open_section(r, off, BP_OPT_DONE, &c))
			return -1;
		/* Section offsets: pre-scan for ids 16..21 (8-byte offsets). */
		scan = c;
		for (;;) {
			uint16_t id = bp_cursor_u16(&scan);
			uint32_t len = bp_cursor_u32(&scan);
			const uint8_t *p = bp_cursor_take(&scan, len);

			if (!p || id == BP_OPT_DONE)
				break;
			if (id >= BP_OPT_HEADER_INFO && id <= BP_OPT_CMDLINES && len >= 8)
				sec->off[id] = bp_reader_num(r, p, 8);
		}
		if (bp_options_parse(r, &c, &next, 1))
			return -1;
		off = next;
	}
	return 0;
}

int bp_v7_open(struct bp_reader *r, struct bp_cursor *c)
{
	const char *zname, *zver;
	struct v7_sections sec = { { 0 } };
	uint64_t first;
	struct bp_cursor s;

	zname = bp_cursor_str(c);
	zver = bp_cursor_str(c);
	first = bp_cursor_u64(c);
	if (c->err)
		return bp_reader_cut_headers(r->path);
	(void)zver;
	if (!strcmp(zname, "zstd")) {
		r->compressed = 1;
	} else if (strcmp(zname, "none") && *zname) {
		bp_set_error("'%s' is compressed with '%s', which bootprof cannot read", r->path,
			     zname);
		return -1;
	}
	if (parse_v7_options(r, first, &sec))
		return bp_reader_cut_headers(r->path);
	if (!sec.off[BP_OPT_HEADER_INFO] ||
	    open_section(r, sec.off[BP_OPT_HEADER_INFO], BP_OPT_HEADER_INFO, &s) ||
	    bp_headers_read_page(&r->texts, &s))
		return bp_reader_cut_headers(r->path);
	if (sec.off[BP_OPT_FTRACE_EVENTS] &&
	    (open_section(r, sec.off[BP_OPT_FTRACE_EVENTS], BP_OPT_FTRACE_EVENTS, &s) ||
	     bp_headers_read_ftrace(&r->texts, &s)))
		return bp_reader_cut_headers(r->path);
	if (sec.off[BP_OPT_EVENT_FORMATS] &&
	    (open_section(r, sec.off[BP_OPT_EVENT_FORMATS], BP_OPT_EVENT_FORMATS, &s) ||
	     bp_headers_read_events(&r->texts, &s)))
		return bp_reader_cut_headers(r->path);
	if (sec.off[BP_OPT_KALLSYMS] &&
	    (open_section(r, sec.off[BP_OPT_KALLSYMS], BP_OPT_KALLSYMS, &s) ||
	     bp_headers_read_kallsyms(&r->texts, &s)))
		bp_reader_warn(r, "cannot read the kernel symbols");
	if (sec.off[BP_OPT_PRINTK] &&
	    (open_section(r, sec.off[BP_OPT_PRINTK], BP_OPT_PRINTK, &s) || bp_headers_read_printk(&r->texts, &s)))
		bp_reader_warn(r, "cannot read the printk formats");
	if (sec.off[BP_OPT_CMDLINES] &&
	    (open_section(r, sec.off[BP_OPT_CMDLINES], BP_OPT_CMDLINES, &s) ||
	     bp_reader_read_cmdlines(r, &s)))
		bp_reader_warn(r, "cannot read the process names");
	return 0;
}
