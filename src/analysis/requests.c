// SPDX-License-Identifier: GPL-2.0
/*
 * Block requests: block_rq_issue and block_rq_complete. Per disk, the
 * block layer's read and write totals, and on the disk's timeline the
 * bytes read and the requests in flight (see bp_disk_stat).
 *
 * In flight is counted per disk, not per request: only the requests now
 * outstanding are kept, by (dev, sector), so memory follows the queue
 * depth (plus requests whose completion was lost), never the events.
 */
#include <string.h>

#include "analysis/build.h"
#include "util/xalloc.h"

/* Disk di's bucket of ts, or NULL (outside the timeline, too many disks). */
static struct bp_disk_bucket *disk_bucket_at(struct state *s, size_t di, uint64_t ts)
{
	struct bp_disk_stat *d = &s->disks[di];
	struct disk_flight *fl = &s->flight[di];
	size_t i;

	if (bp_bucket_index(s, ts, &i))
		return NULL;
	if (!d->timeline) {
		if (s->ndisk_timelines >= MAX_DISK_TIMELINES)
			return NULL;
		s->ndisk_timelines++;
	}
	if (i >= d->ntimeline) {
		size_t old = d->ntimeline;

		BP_GROW(d->timeline, i, fl->ctimeline);
		memset(&d->timeline[old], 0, (i + 1 - old) * sizeof(*d->timeline));
		d->ntimeline = i + 1;
	}
	return &d->timeline[i];
}

/* Add disk di's requests in flight since their last change, up to ts, to its buckets. */
static void flight_to(struct state *s, size_t di, uint64_t ts)
{
	struct disk_flight *fl = &s->flight[di];
	uint64_t a = fl->since > s->since ? fl->since : s->since;
	uint64_t b = ts < s->until ? ts : s->until, t, end;

	if (ts > fl->since)
		fl->since = ts;
	if (!fl->n)
		return;
	for (t = a; t < b; t = end) {
		struct bp_disk_bucket *bk = disk_bucket_at(s, di, t);

		if (!bk)
			break;
		end = bp_bucket_end(s, t);
		if (end > b)
			end = b;
		bk->inflight_ns += (end - t) * fl->n;
		if (fl->n > bk->inflight_max)
			bk->inflight_max = fl->n;
	}
}

/* One more request of disk di in flight from ts. */
static void flight_start(struct state *s, size_t di, uint64_t ts)
{
	struct bp_disk_bucket *bk;

	flight_to(s, di, ts);
	s->flight[di].n++;
	/* The instant counts, even when the next change comes at the same ns. */
	if (in_window(s, ts) && (bk = disk_bucket_at(s, di, ts)) &&
	    s->flight[di].n > bk->inflight_max)
		bk->inflight_max = s->flight[di].n;
}

static void flight_end(struct state *s, size_t di, uint64_t ts)
{
	flight_to(s, di, ts);
	if (s->flight[di].n)
		s->flight[di].n--;
}

void bp_on_rq_issue(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint32_t dev = (uint32_t)rd(s, ev, h->f[F_RQ_DEV]);
	uint64_t sectors = rd(s, ev, h->f[F_NR_SECTOR]);
	uint64_t sector = rd(s, ev, h->f[F_SECTOR]);
	char rwbs[16];
	struct task *t = bp_task_cur(s, ev);
	struct bp_disk_stat *d;
	uint64_t *slot;
	int di, inserted;

	bp_rd_str(s, ev, h->f[F_RWBS], rwbs, sizeof(rwbs));
	if (s->crit && h->f[F_SECTOR].size)
		bp_crit_rq_issue(s, ev, t, dev, sector, (uint32_t)sectors);
	if (t) {
		t->activity = 1;
		if (strchr(rwbs, 'R'))
			t->read_io = 1;
	}
	if (ev->ts > s->until)
		return;
	/*
	 * Before the window only requests in flight matter, and only on a
	 * known disk: an unknown device becomes a disk of the model once it
	 * has a request inside the window.
	 */
	di = bp_disk_exact(s, dev);
	if (di < 0 && in_window(s, ev->ts))
		di = bp_disk_add(s, dev, NULL, -1, 0);
	if (di < 0)
		return;
	/* In flight needs completions to end it, and a sector to match them by. */
	if (sectors && h->f[F_SECTOR].size && (s->kinds_seen & (1u << EV_RQ_COMPLETE))) {
		slot = bp_map_put(&s->rqs, dev, sector, &inserted);
		*slot = (uint64_t)di << 32 | (uint32_t)sectors;
		if (inserted)
			flight_start(s, (size_t)di, ev->ts);
	}
	if (!in_window(s, ev->ts))
		return;
	d = &s->disks[di];
	if (strchr(rwbs, 'R')) {
		struct bp_bucket *b = bp_bucket_at(s, ev->ts);
		struct bp_disk_bucket *db = disk_bucket_at(s, (size_t)di, ev->ts);

		d->rq_read_bytes += sectors * 512;
		d->rq_reads++;
		if (b)
			b->rq_read_bytes += sectors * 512;
		if (db)
			db->rq_read_bytes += sectors * 512;
	} else if (strchr(rwbs, 'W')) {
		d->rq_write_bytes += sectors * 512;
	}
}

void bp_on_rq_complete(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint32_t dev = (uint32_t)rd(s, ev, h->f[F_RQ_DEV]);
	uint64_t done = rd(s, ev, h->f[F_NR_SECTOR]);
	uint64_t sector = rd(s, ev, h->f[F_SECTOR]);
	uint64_t *slot = bp_map_get(&s->rqs, dev, sector), v;
	uint32_t left;
	size_t di;
	int inserted, known;
	char rwbs[16];

	bp_note_completion(s, ev);
	if (s->crit)
		bp_crit_rq_complete(s, ev, dev, sector, (uint32_t)done);
	/* Read bytes delivered: nr_sector of a completion is what it completed. */
	bp_rd_str(s, ev, h->f[F_RWBS], rwbs, sizeof(rwbs));
	if (strchr(rwbs, 'R') && in_window(s, ev->ts)) {
		struct bp_bucket *b = bp_bucket_at(s, ev->ts);
		struct bp_disk_bucket *db;

		known = bp_disk_exact(s, dev);
		if (b)
			b->rq_done_read_bytes += done * 512;
		if (known >= 0 && (db = disk_bucket_at(s, (size_t)known, ev->ts)))
			db->rq_done_read_bytes += done * 512;
	}
	/* Not in flight: issued before the recording, a flush, or completed already. */
	if (!slot)
		return;
	v = *slot;
	di = (size_t)(v >> 32);
	left = (uint32_t)v;
	bp_map_del(&s->rqs, dev, sector);
	if (di >= s->ndisks)
		return;
	/* A partial completion: the rest of the request goes on from the next sector. */
	if (done && done < left) {
		slot = bp_map_put(&s->rqs, dev, sector + done, &inserted);
		if (inserted) {
			*slot = (uint64_t)di << 32 | (left - (uint32_t)done);
			return;
		}
		/* Another request is in flight there: count one of the two. */
	}
	flight_end(s, di, ev->ts);
}

/* Whether any disk has a request in flight now. */
int bp_requests_in_flight(const struct state *s)
{
	size_t i;

	for (i = 0; i < s->ndisks; i++) {
		if (s->flight[i].n)
			return 1;
	}
	return 0;
}

void bp_requests_finish(struct state *s, uint64_t end)
{
	const struct bp_map_slot *slot;
	size_t i;

	for (i = 0; i < s->ndisks; i++)
		flight_to(s, i, end);
	for (i = 0; bp_map_next(&s->rqs, &i, &slot);) {
		size_t di = (size_t)(slot->value >> 32);

		if (di < s->ndisks)
			s->disks[di].rq_unfinished++;
	}
}
