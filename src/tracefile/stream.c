// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's per-CPU streams and their merge. Each CPU's data of each
 * buffer (trace-cmd files may hold several instances) is a stream of
 * ring-buffer pages, plain or in zstd chunks; a binary heap keyed by the
 * timestamp of each stream's current event merges them in time order. A
 * page is copied (the only read of the mapping, guarded: guard.h) into a
 * zero-padded buffer before libtraceevent's kbuffer parses it, so that no
 * field read of a corrupt event can leave our memory; the per-event path
 * does no allocation and no string work.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "tracefile/guard.h"
#include "tracefile/reader-internal.h"
#include "util/error.h"
#include "util/xalloc.h"

/* Slack after each page copy: offsets of fields in a corrupt event stay inside. */
#define PAGE_PAD (128 * 1024 + 64)
/* Bound on what a hostile file can make us allocate for one zstd chunk. */
#define MAX_CHUNK (1U << 30)

struct stream *bp_stream_new(struct bp_reader *r, int cpu, int page_size)
{
	struct stream *s;

	if (r->nstreams >= BP_MAX_CPUS * 4) {
		bp_set_error("too many CPU data streams");
		return NULL;
	}
	r->streams = xrealloc(r->streams, (r->nstreams + 1) * sizeof(*r->streams));
	s = &r->streams[r->nstreams++];
	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	s->page_size = page_size;
	return s;
}

/* Counted per CPU, warned about once for the file (bp_streams_warn_truncated()). */
static void note_truncated(struct bp_reader *r, int cpu, uint64_t missing, uint64_t declared)
{
	if (!r->truncated_cpus++)
		r->truncated_cpu = cpu;
	r->stats.truncated = 1;
	r->stats.truncated_bytes += missing;
	r->truncated_declared += declared;
}

void bp_streams_warn_truncated(struct bp_reader *r)
{
	if (!r->stats.truncated_bytes)
		return;
	if (r->truncated_cpus == 1)
		bp_reader_warn(r, "recording truncated: %llu of %llu bytes of CPU %d data missing",
			    (unsigned long long)r->stats.truncated_bytes,
			    (unsigned long long)r->truncated_declared, r->truncated_cpu);
	else
		bp_reader_warn(r, "recording truncated: %llu of %llu bytes of data of %d CPUs missing",
			    (unsigned long long)r->stats.truncated_bytes,
			    (unsigned long long)r->truncated_declared, r->truncated_cpus);
}

/* Uncompressed data of one CPU at [off, off + size) of the file. */
static int add_plain_stream(struct bp_reader *r, int cpu, int page_size, uint64_t off,
			    uint64_t size)
{
	struct stream *s;
	uint64_t avail;

	if (!size)
		return 0;
	avail = off >= r->size ? 0 : r->size - off;
	if (avail < size)
		note_truncated(r, cpu, size - avail, size);
	else
		avail = size;
	avail = avail / page_size * page_size;
	s = bp_stream_new(r, cpu, page_size);
	if (!s)
		return -1;
	s->base = avail ? r->map + off : NULL;
	s->avail = avail;
	return 0;
}

/* zstd data of one CPU: "count, then (zsize, size, bytes) per chunk" at off. */
static int add_zstd_stream(struct bp_reader *r, int cpu, int page_size, uint64_t off,
			   uint64_t size)
{
	struct stream *s;
	struct bp_cursor c;
	uint32_t count, i;
	uint64_t end;

	if (!size)
		return 0;
	s = bp_stream_new(r, cpu, page_size);
	if (!s)
		return -1;
	/* trace-cmd's size leaves out the 4-byte chunk count. */
	size += 4;
	end = off + size < off || off + size > r->size ? r->size : off + size;
	bp_cursor_init(&c, r->map, end, off, r->swap);
	count = bp_cursor_u32(&c);
	if (c.err) {
		note_truncated(r, cpu, size, size);
		return 0;
	}
	for (i = 0; i < count; i++) {
		struct chunk ch;

		ch.zsize = bp_cursor_u32(&c);
		ch.size = bp_cursor_u32(&c);
		ch.off = c.pos;
		if (c.err || !bp_cursor_take(&c, ch.zsize)) {
			uint64_t missing = off + size > c.len ? off + size - c.len : 0;

			if (!missing) {
				bp_reader_warn(r, "corrupt compressed data of CPU %d", cpu);
				break;
			}
			note_truncated(r, cpu, missing, size);
			break;
		}
		if (ch.size > MAX_CHUNK || ch.size % page_size) {
			bp_reader_warn(r, "corrupt compressed data of CPU %d", cpu);
			break;
		}
		if (!(s->nchunks & (s->nchunks - 1)) || !s->nchunks)
			s->chunks = xrealloc(s->chunks, (s->nchunks ? 2 * s->nchunks : 1) *
							sizeof(*s->chunks));
		s->chunks[s->nchunks++] = ch;
	}
	return 0;
}

int bp_stream_add(struct bp_reader *r, int cpu, int page_size, uint64_t off, uint64_t size)
{
	if (r->compressed)
		return add_zstd_stream(r, cpu, page_size, off, size);
	return add_plain_stream(r, cpu, page_size, off, size);
}

struct unzip {
	ZSTD_DCtx *zctx;
	void *dst;
	const void *src;
	size_t size, zsize, got;
};

static int unzip(void *arg)
{
	struct unzip *u = arg;

	u->got = ZSTD_decompressDCtx(u->zctx, u->dst, u->size, u->src, u->zsize);
	return 0;
}

/* Decompress the chunk into s->zbuf. 0, or -1 when it is corrupt (or was cut: r->shrank). */
static int load_chunk(struct bp_reader *r, struct stream *s)
{
	const struct chunk *ch = &s->chunks[s->next_chunk++];
	struct unzip u;
	size_t got;
	int unused;

	if (!r->zctx)
		r->zctx = ZSTD_createDCtx();
	if (s->zlen < ch->size) {
		free(s->zbuf);
		s->zbuf = xmalloc(ch->size);
	}
	u.zctx = r->zctx;
	u.dst = s->zbuf;
	u.src = r->map + ch->off;
	u.size = ch->size;
	u.zsize = ch->zsize;
	if (bp_guard_run(u.src, u.zsize, unzip, &u, &unused)) {
		r->shrank = 1;
		s->zlen = 0;
		return -1;
	}
	got = u.got;
	if (ZSTD_isError(got) || got != ch->size) {
		s->zlen = 0;
		return -1;
	}
	s->zlen = ch->size;
	s->pos = 0;
	return 0;
}

/* The next raw page of a stream, or NULL at its end. */
static const uint8_t *next_raw_page(struct bp_reader *r, struct stream *s)
{
	const uint8_t *page;

	if (!s->chunks) {
		if (s->pos + s->page_size > s->avail)
			return NULL;
		page = s->base + s->pos;
		s->pos += s->page_size;
		return page;
	}
	while (s->pos + s->page_size > s->zlen) {
		if (s->next_chunk >= s->nchunks)
			return NULL;
		if (load_chunk(r, s)) {
			if (!r->shrank && !r->scanning)
				bp_reader_warn(r, "corrupt compressed data of CPU %d", s->cpu);
			s->next_chunk = s->nchunks;
			return NULL;
		}
	}
	page = s->zbuf + s->pos;
	s->pos += s->page_size;
	return page;
}

/* Is the event kbuffer points at wholly inside the page? */
static int event_in_page(const struct stream *s, const void *rec, int size)
{
	const uint8_t *p = rec;

	return size >= 0 && p >= s->page &&
	       (uint64_t)(p - s->page) + (uint64_t)size <= (uint64_t)s->page_size;
}

static unsigned event_id(const struct bp_reader *r, const void *rec)
{
	uint16_t v;

	if (r->type_size == 2) {
		memcpy(&v, (const uint8_t *)rec + r->type_offset, 2);
		return r->swap ? (uint16_t)(v >> 8 | v << 8) : v;
	}
	return (unsigned)bp_reader_num(r, (const uint8_t *)rec + r->type_offset, r->type_size);
}

/*
 * Is the current event sound: inside its page, of an id some format
 * describes, and as long as that format's fields? A page holding one that
 * is not is corrupt (see bp_reader_next()).
 */
static int event_ok(const struct bp_reader *r, const struct stream *s)
{
	unsigned id;

	if (!event_in_page(s, s->rec, s->rec_size))
		return 0;
	if (!r->nids)
		return 1; /* no formats at all: nothing to check against */
	if (s->rec_size < r->type_offset + r->type_size)
		return 0;
	id = event_id(r, s->rec);
	return id < (unsigned)r->nids && r->by_id[id] && s->rec_size >= r->need[id];
}

static void corrupt_page(struct bp_reader *r)
{
	r->corrupt_pages++;
	r->stats.corrupt_pages++;
}

/* Load pages until one has an event; s->rec NULL at the end of the stream. */
static void load_next_page(struct bp_reader *r, struct stream *s)
{
	const int hdr = r->long_size == 4 ? 12 : 16;
	const uint8_t *raw;
	unsigned long long ts;

	s->rec = NULL;
	while (!r->shrank && (raw = next_raw_page(r, s))) {
		uint64_t commit;
		int missed;

		/* The only read of the mapped page: the file may be cut meanwhile. */
		if (bp_guard_copy(s->page, raw, s->page_size)) {
			r->shrank = 1;
			return;
		}
		commit = bp_reader_num(r, s->page + 8, r->long_size == 4 ? 4 : 8);
		r->stats.pages++;
		/* Low 27 bits: bytes of events; the top bits flag missed events. */
		if ((commit & ((1U << 27) - 1)) > (uint64_t)(s->page_size - hdr)) {
			corrupt_page(r);
			continue;
		}
		if (kbuffer_load_subbuffer(s->kbuf, s->page) < 0) {
			corrupt_page(r);
			continue;
		}
		missed = kbuffer_missed_events(s->kbuf);
		if (missed > 0)
			r->stats.missed_events += (uint64_t)missed;
		else if (missed < 0)
			r->stats.missed_pages++;
		s->rec = kbuffer_read_event(s->kbuf, &ts);
		if (!s->rec)
			continue;
		s->rec_size = kbuffer_event_size(s->kbuf);
		if (!event_ok(r, s)) {
			corrupt_page(r);
			s->rec = NULL;
			continue;
		}
		s->ts = ts;
		return;
	}
}

static void advance(struct bp_reader *r, struct stream *s)
{
	unsigned long long ts;

	s->rec = kbuffer_next_event(s->kbuf, &ts);
	if (s->rec) {
		s->rec_size = kbuffer_event_size(s->kbuf);
		if (event_ok(r, s)) {
			s->ts = ts;
			return;
		}
		corrupt_page(r);
	}
	load_next_page(r, s);
}

static int stream_less(const struct bp_reader *r, int a, int b)
{
	const struct stream *sa = &r->streams[a], *sb = &r->streams[b];

	if (sa->ts != sb->ts)
		return sa->ts < sb->ts;
	return sa->cpu < sb->cpu;
}

static void sift_down(struct bp_reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i, t;

		if (l < r->nheap && stream_less(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && stream_less(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

static void start_streams(struct bp_reader *r)
{
	int i;

	r->nheap = 0;
	r->last = -1;
	r->stats.corrupt_pages = 0;
	for (i = 0; i < r->nstreams; i++) {
		struct stream *s = &r->streams[i];

		s->pos = 0;
		s->next_chunk = 0;
		s->zlen = 0;
		load_next_page(r, s);
		if (s->rec)
			r->heap[r->nheap++] = i;
	}
	for (i = r->nheap / 2 - 1; i >= 0; i--)
		sift_down(r, i);
}

int bp_reader_next(struct bp_reader *r, struct bp_event *ev)
{
	struct stream *s;
	unsigned id;

	if (!r)
		return -1;
	if (r->last >= 0) {
		/* Only now may the previous event's page be replaced. */
		advance(r, &r->streams[r->last]);
		if (!r->streams[r->last].rec)
			r->heap[0] = r->heap[--r->nheap];
		r->last = -1;
		if (r->nheap)
			sift_down(r, 0);
	}
	if (r->shrank)
		return bp_reader_shrank(r, 0);
	if (!r->nheap)
		return 0;
	r->last = r->heap[0];
	s = &r->streams[r->last];
	ev->ts = s->ts;
	ev->cpu = s->cpu;
	ev->data = s->rec;
	ev->size = s->rec_size;
	id = event_id(r, s->rec);
	ev->id = (int)id;
	ev->format = id < (unsigned)r->nids ? r->by_id[id] : NULL;
	r->stats.events++;
	return 1;
}

int bp_reader_page_losses(struct bp_reader *r, uint64_t *events, uint64_t *pages)
{
	const int hdr = r->long_size == 4 ? 12 : 16;
	int i;

	*events = *pages = 0;
	r->scanning = 1;
	for (i = 0; i < r->nstreams && !r->shrank; i++) {
		struct stream *s = &r->streams[i];
		const uint8_t *raw;

		s->pos = 0;
		s->next_chunk = 0;
		s->zlen = 0;
		while ((raw = next_raw_page(r, s))) {
			int missed;

			/* As load_next_page() counts them: pages kbuffer loads. */
			if (bp_guard_copy(s->page, raw, s->page_size)) {
				r->shrank = 1;
				break;
			}
			if ((bp_reader_num(r, s->page + 8, r->long_size == 4 ? 4 : 8) &
			     ((1U << 27) - 1)) > (uint64_t)(s->page_size - hdr) ||
			    kbuffer_load_subbuffer(s->kbuf, s->page) < 0)
				continue;
			missed = kbuffer_missed_events(s->kbuf);
			if (missed > 0)
				*events += (uint64_t)missed;
			else if (missed < 0)
				(*pages)++;
		}
	}
	r->scanning = 0;
	/* Back to the first event; the pages counted above were not read. */
	return bp_reader_rewind(r);
}

int bp_reader_rewind(struct bp_reader *r)
{
	if (!r)
		return -1;
	r->stats.events = 0;
	r->stats.pages = 0;
	r->stats.missed_events = 0;
	r->stats.missed_pages = 0;
	start_streams(r);
	return r->shrank ? bp_reader_shrank(r, 0) : 0;
}

/* Bytes an event of this format spans at least: the end of its last fixed field. */
static int format_need(const struct tep_event *e)
{
	const struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };
	const struct tep_format_field *f;
	long need = 0;
	int i;

	for (i = 0; i < 2; i++) {
		for (f = lists[i]; f; f = f->next) {
			/* An absurd field makes every event of the format corrupt. */
			if (f->offset < 0 || f->size < 0 || f->offset > 65535 || f->size > 65535)
				return 1 << 30;
			if ((long)f->offset + f->size > need)
				need = (long)f->offset + f->size;
		}
	}
	return (int)need;
}

/* Index formats by id, find common_type, allocate the per-stream parsers. */
int bp_streams_setup(struct bp_reader *r)
{
	int i, n = tep_get_events_count(r->tep);

	r->type_offset = 0;
	r->type_size = 2;
	r->nids = 0;
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(r->tep, i);

		if (e && e->id >= r->nids && e->id < 65536)
			r->nids = e->id + 1;
	}
	r->by_id = xcalloc(r->nids ? r->nids : 1, sizeof(*r->by_id));
	r->need = xcalloc(r->nids ? r->nids : 1, sizeof(*r->need));
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(r->tep, i);
		struct tep_format_field *f;

		if (!e || e->id < 0 || e->id >= r->nids)
			continue;
		r->by_id[e->id] = e;
		r->need[e->id] = format_need(e);
		f = tep_find_common_field(e, "common_type");
		if (f && (f->size == 1 || f->size == 2 || f->size == 4) && f->offset >= 0 &&
		    f->offset + f->size <= 64) {
			r->type_offset = f->offset;
			r->type_size = f->size;
		}
	}
	if (r->ncpus <= 0) {
		for (i = 0; i < r->nstreams; i++) {
			if (r->streams[i].cpu >= r->ncpus)
				r->ncpus = r->streams[i].cpu + 1;
		}
	}
	tep_set_cpus(r->tep, r->ncpus);
	for (i = 0; i < r->nstreams; i++) {
		struct stream *s = &r->streams[i];

		s->kbuf = kbuffer_alloc(r->long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
					tep_is_file_bigendian(r->tep) ? KBUFFER_ENDIAN_BIG
								      : KBUFFER_ENDIAN_LITTLE);
		if (!s->kbuf) {
			bp_set_error("out of memory");
			return -1;
		}
		if (tep_is_old_format(r->tep))
			kbuffer_set_old_format(s->kbuf);
		s->page = xcalloc(1, (size_t)s->page_size + PAGE_PAD);
	}
	r->heap = xcalloc(r->nstreams ? r->nstreams : 1, sizeof(*r->heap));
	start_streams(r);
	return r->shrank ? bp_reader_shrank(r, 1) : 0;
}
