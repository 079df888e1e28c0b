// SPDX-License-Identifier: GPL-2.0
/*
 * The critical order of a pack: which pages the critical path waited on,
 * in the order it waited for them. A path's I/O segment names its file
 * (the one I/O wait charges) but no page; the scan of the same pass
 * knows each I/O wait's pages (the fault's page, or the pages a read or
 * exec got once it had them), so a segment takes the pages of the wait
 * it lies in: same task, overlapping in time.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/order.h"
#include "util/xalloc.h"

static int by_task_start(const void *pa, const void *pb, void *arg)
{
	const struct bp_replay_scan *scan = arg;
	const struct bp_replay_wait *a = &scan->waits[*(const size_t *)pa];
	const struct bp_replay_wait *b = &scan->waits[*(const size_t *)pb];

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return 0;
}

/*
 * The wait of @tid that overlaps [start, end), or NULL. A task's waits
 * do not overlap, so by start they are also by end: the first whose end
 * is past @start is the one, if it began before @end.
 */
static const struct bp_replay_wait *wait_at(const struct bp_replay_scan *scan, const size_t *idx,
					    int tid, uint64_t start, uint64_t end)
{
	size_t lo = 0, hi = scan->nwaits, mid;
	const struct bp_replay_wait *w;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		w = &scan->waits[idx[mid]];
		if (w->tid < tid || (w->tid == tid && w->start_ns + w->ns <= start))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == scan->nwaits)
		return NULL;
	w = &scan->waits[idx[lo]];
	return w->tid == tid && w->start_ns < end ? w : NULL;
}

size_t bp_path_pages(const struct bp_critical_path *p, const struct bp_replay_scan *scan,
		     struct bp_path_pages **out)
{
	size_t *idx = xmalloc((scan->nwaits + 1) * sizeof(*idx));
	size_t i, n = 0, cap = 0;

	*out = NULL;
	for (i = 0; i < scan->nwaits; i++)
		idx[i] = i;
	qsort_r(idx, scan->nwaits, sizeof(*idx), by_task_start, (void *)scan);
	for (i = 0; i < p->nsegments; i++) {
		const struct bp_crit_segment *g = &p->segments[i];
		const struct bp_replay_wait *w;
		struct bp_path_pages *pp;

		if (g->state != BP_CRIT_IO)
			continue;
		w = wait_at(scan, idx, g->task.tid, g->start_ns, g->end_ns);
		if (!w && !g->path)
			continue;
		BP_GROW(*out, n, cap);
		pp = &(*out)[n++];
		if (w) {
			/* The pages name the file waited for, whatever the wait was charged to. */
			pp->dev = w->dev;
			pp->ino = w->ino;
			pp->first = w->first;
			pp->last = w->last;
			if (w->inserted) {
				/* Then the readahead its requests carried. */
				BP_GROW(*out, n, cap);
				pp = &(*out)[n++];
				*pp = (*out)[n - 2];
				pp->first = w->ins_first;
				pp->last = w->ins_last;
			}
		} else {
			pp->dev = g->dev;
			pp->ino = g->ino;
			pp->first = 0;
			pp->last = UINT64_MAX;
		}
	}
	free(idx);
	return n;
}

uint64_t bp_ranges_take(struct bp_pack_range **from, size_t *nfrom, uint64_t first,
			uint64_t last, struct bp_pack_range **to, size_t *nto, size_t *cto)
{
	/* Each range may split in two around the pages taken. */
	struct bp_pack_range *keep = xmalloc((*nfrom * 2 + 1) * sizeof(*keep));
	uint64_t moved = 0, a, b, lo, hi;
	size_t i, nk = 0;

	for (i = 0; i < *nfrom; i++) {
		const struct bp_pack_range *r = &(*from)[i];

		a = r->start;
		b = r->start + r->count - 1;
		if (b < first || a > last) {
			keep[nk++] = *r;
			continue;
		}
		lo = a > first ? a : first;
		hi = b < last ? b : last;
		if (a < lo)
			keep[nk++] = (struct bp_pack_range){ a, lo - a };
		BP_GROW(*to, *nto, *cto);
		(*to)[(*nto)++] = (struct bp_pack_range){ lo, hi - lo + 1 };
		moved += hi - lo + 1;
		if (hi < b)
			keep[nk++] = (struct bp_pack_range){ hi + 1, b - hi };
	}
	free(*from);
	*from = keep;
	*nfrom = nk;
	return moved;
}

static int by_start(const void *pa, const void *pb)
{
	const struct bp_pack_range *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

void bp_ranges_normalize(struct bp_pack_range *r, size_t *n)
{
	size_t i, k = 0;

	if (!*n)
		return;
	qsort(r, *n, sizeof(*r), by_start);
	for (i = 1; i < *n; i++) {
		if (r[i].start <= r[k].start + r[k].count) {
			uint64_t end = r[i].start + r[i].count;

			if (end > r[k].start + r[k].count)
				r[k].count = end - r[k].start;
		} else {
			r[++k] = r[i];
		}
	}
	*n = k + 1;
}
