// SPDX-License-Identifier: GPL-2.0
/*
 * The totals of the traced command's process tree: the numbers a
 * `record -- CMD` recording is about (bp_model.command_totals). The pass
 * hands every I/O-wait span and every span of CPU idle while waiting to
 * the collector; after it, CPU idle while the command's tree waited is
 * their intersection, the same definition as the machine's total.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/focus.h"
#include "util/xalloc.h"

struct focus_span {
	int tid;
	uint64_t start, end;
};

struct bp_focus_spans {
	const struct bp_build_hooks *inner;
	struct focus_span *wait, *idle;
	size_t nwait, capwait, nidle, capidle;
};

static void collect_span(void *arg, const struct bp_span *sp)
{
	struct bp_focus_spans *c = arg;

	if (sp->state == BP_SPAN_IO_WAIT) {
		BP_GROW(c->wait, c->nwait, c->capwait);
		c->wait[c->nwait++] = (struct focus_span){ sp->tid, sp->start_ns, sp->end_ns };
	} else if (sp->state == BP_SPAN_IDLE_WAIT) {
		BP_GROW(c->idle, c->nidle, c->capidle);
		c->idle[c->nidle++] = (struct focus_span){ 0, sp->start_ns, sp->end_ns };
	}
	if (c->inner && c->inner->span)
		c->inner->span(c->inner->arg, sp);
}

struct bp_focus_spans *bp_focus_spans_new(const struct bp_build_hooks *inner,
					  struct bp_build_hooks *out)
{
	struct bp_focus_spans *c = xcalloc(1, sizeof(*c));

	c->inner = inner;
	memset(out, 0, sizeof(*out));
	out->span = collect_span;
	out->arg = c;
	out->critical = inner ? inner->critical : NULL;
	return c;
}

void bp_focus_spans_free(struct bp_focus_spans *c)
{
	if (!c)
		return;
	free(c->wait);
	free(c->idle);
	free(c);
}

static int by_start(const void *pa, const void *pb)
{
	const struct focus_span *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->end > b->end) - (a->end < b->end);
}

/* Add [a, b) to the @tl buckets' wait (@idle 0) or idle-while-waiting time. */
static void to_buckets(const struct bp_model *m, struct bp_bucket *tl, uint64_t a, uint64_t b,
		       int idle)
{
	uint64_t w = m->window.bucket_ns, t0 = m->timeline_start_ns;

	for (; tl && w && a < b && a >= t0;) {
		size_t k = (size_t)((a - t0) / w);
		uint64_t end = t0 + (k + 1) * w < b ? t0 + (k + 1) * w : b;

		if (k >= m->nbuckets)
			break;
		if (idle)
			tl[k].idle_wait_ns += end - a;
		else
			tl[k].wait_ns += end - a;
		a = end;
	}
}

/* The most of the tree's waits at once in each bucket [a, b] touches: raised to @n. */
static void waiting_in(const struct bp_model *m, struct bp_bucket *tl, uint64_t a, uint64_t b,
		       uint32_t n)
{
	uint64_t w = m->window.bucket_ns, t0 = m->timeline_start_ns;
	size_t k;

	if (!tl || !w || b < t0)
		return;
	for (k = a > t0 ? (size_t)((a - t0) / w) : 0; k < m->nbuckets && t0 + k * w <= b; k++)
		tl[k].waiting_max = tl[k].waiting_max > n ? tl[k].waiting_max : n;
}

static int by_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/* A sweep over the tree's waits (sorted by start); an end before a start at the same instant. */
static void waiting_max(const struct bp_model *m, struct bp_bucket *tl,
			const struct focus_span *v, size_t n)
{
	uint64_t *ends = xmalloc((n ? n : 1) * sizeof(*ends)), prev = 0;
	size_t i, k = 0;
	uint32_t cur = 0;

	for (i = 0; i < n; i++)
		ends[i] = v[i].end;
	if (n)
		qsort(ends, n, sizeof(*ends), by_u64);
	for (i = 0; i < n || k < n;) {
		int start = i < n && v[i].start < ends[k];
		uint64_t t = start ? v[i].start : ends[k];

		if (cur && t > prev)
			waiting_in(m, tl, prev, t - 1, cur);
		if (start) {
			i++;
			waiting_in(m, tl, t, t, ++cur);
		} else {
			k++;
			cur--;
		}
		prev = t;
	}
	free(ends);
}

/*
 * Σ over the union of the tree's waits ∩ the idle spans (both sorted,
 * then merged); the tree's timeline on the way.
 */
static uint64_t idle_of_tree(struct bp_model *m, struct bp_focus_spans *c,
			     const struct bp_filter *f)
{
	struct bp_bucket *tl = m->command_timeline;
	size_t i, n = 0, k = 0;
	uint64_t sum = 0;

	for (i = 0; i < c->nwait; i++) {
		const struct bp_thread *t = bp_model_find_thread(m, c->wait[i].tid, c->wait[i].start);

		if (t && t->process && bp_process_matches(m, t->process, f)) {
			c->wait[n++] = c->wait[i];
			to_buckets(m, tl, c->wait[i].start, c->wait[i].end, 0);
		}
	}
	if (n)
		qsort(c->wait, n, sizeof(*c->wait), by_start);
	if (c->nidle)
		qsort(c->idle, c->nidle, sizeof(*c->idle), by_start);
	waiting_max(m, tl, c->wait, n);
	for (i = 0; i < n;) {
		uint64_t a = c->wait[i].start, b = c->wait[i].end;

		/* One merged interval of the tree waiting: [a, b). */
		for (i++; i < n && c->wait[i].start <= b; i++)
			b = c->wait[i].end > b ? c->wait[i].end : b;
		while (k < c->nidle && c->idle[k].end <= a)
			k++;
		for (size_t j = k; j < c->nidle && c->idle[j].start < b; j++) {
			uint64_t s = c->idle[j].start > a ? c->idle[j].start : a;
			uint64_t e = c->idle[j].end < b ? c->idle[j].end : b;

			if (e > s) {
				sum += e - s;
				to_buckets(m, tl, s, e, 1);
			}
		}
	}
	return sum;
}

/* @part of @whole, of @v: v * part / whole without overflow. */
static uint64_t share(uint64_t v, uint64_t part, uint64_t whole)
{
	if (!whole || part >= whole)
		return v;
	return (uint64_t)((unsigned __int128)v * part / whole);
}

void bp_focus_totals(struct bp_model *m, struct bp_focus_spans *c)
{
	struct bp_totals *t = &m->command_totals;
	struct bp_filter f = { .pid = m->header.command_pid, .tree = 1 };
	size_t i, j;

	*t = m->totals;
	t->read_bytes = t->metadata_bytes = t->wait_ns = t->wait_metadata_ns = 0;
	t->wait_unknown_ns = t->other_wait_ns = t->idle_wait_ns = 0;
	t->never_used_bytes = t->used_bytes = t->mapped_unknown_bytes = t->reread_bytes = 0;
	memset(t->wait_by_cause, 0, sizeof(t->wait_by_cause));
	if (m->nbuckets) {
		m->command_timeline = xcalloc(m->nbuckets, sizeof(*m->command_timeline));
		for (i = 0; i < m->nbuckets; i++) {
			m->command_timeline[i].read_bytes = m->timeline[i].read_bytes;
			m->command_timeline[i].rq_read_bytes = m->timeline[i].rq_read_bytes;
		}
	}
	if (f.pid <= 0 || !bp_model_find_process(m, f.pid))
		return;
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		if (!bp_process_matches(m, p, &f))
			continue;
		t->read_bytes += p->bytes_read;
		t->metadata_bytes += p->metadata_bytes;
		t->wait_ns += p->wait_ns;
		t->wait_unknown_ns += p->wait_unknown_ns;
		t->other_wait_ns += p->other_wait_ns;
		for (j = 0; j < BP_NCAUSES; j++)
			t->wait_by_cause[j] += p->wait_by_cause[j];
	}
	for (i = 0; i < m->nfiles; i++) {
		const struct bp_file *file = &m->files[i];
		struct bp_file_part part;

		bp_file_part(m, file, &f, &part);
		if (file->kind == BP_FILE_METADATA)
			t->wait_metadata_ns += part.wait_ns;
		if (!part.bytes_read)
			continue;
		/* A file several processes read: the tree's share of its pages' fate. */
		t->never_used_bytes += share(file->never_used_bytes, part.bytes_read, file->bytes_read);
		t->used_bytes += share(file->used_bytes, part.bytes_read, file->bytes_read);
		t->mapped_unknown_bytes +=
			share(file->mapped_unknown_bytes, part.bytes_read, file->bytes_read);
		t->reread_bytes += share(file->reread_bytes, part.bytes_read, file->bytes_read);
	}
	if (c)
		t->idle_wait_ns = idle_of_tree(m, c, &f);
}
