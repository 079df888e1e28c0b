// SPDX-License-Identifier: GPL-2.0
/*
 * When a set of processes waited on I/O, for host->waiting: the model's
 * own I/O-wait spans and its "every CPU idle while someone waited"
 * intervals, kept from the pass (the span hook), merged over the set's
 * threads once the model says which tids are whose. Nothing here decides
 * what a wait is: that is analysis/waits.c's alone.
 */
#include <stdlib.h>
#include <string.h>

#include "plugin/internal.h"
#include "util/xalloc.h"

void bp_plugin_waits_span(struct bp_plugin_waits *w, const struct bp_span *sp)
{
	if (sp->end_ns <= sp->start_ns)
		return;
	if (sp->state == BP_SPAN_IO_WAIT && sp->tid > 0) {
		BP_GROW(w->io, w->nio, w->cio);
		w->io[w->nio].tid = sp->tid;
		w->io[w->nio].start_ns = sp->start_ns;
		w->io[w->nio++].end_ns = sp->end_ns;
	} else if (sp->state == BP_SPAN_IDLE_WAIT) {
		/* The pass emits these in time order, never overlapping. */
		BP_GROW(w->idle, w->nidle, w->cidle);
		w->idle[w->nidle].tid = 0;
		w->idle[w->nidle].start_ns = sp->start_ns;
		w->idle[w->nidle++].end_ns = sp->end_ns;
	}
}

void bp_plugin_waits_release(struct bp_plugin_waits *w)
{
	free(w->io);
	free(w->idle);
	memset(w, 0, sizeof(*w));
}

static int by_start(const void *a, const void *b)
{
	const struct bp_wait_span *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return (x->end_ns > y->end_ns) - (x->end_ns < y->end_ns);
}

/* The part of [a, b) covered by the idle intervals from *k on (all starting before b). */
static uint64_t idle_within(const struct bp_plugin_waits *w, size_t *k, uint64_t a, uint64_t b)
{
	uint64_t sum = 0;
	size_t i;

	while (*k < w->nidle && w->idle[*k].end_ns <= a)
		++*k;
	for (i = *k; i < w->nidle && w->idle[i].start_ns < b; i++) {
		uint64_t lo = w->idle[i].start_ns > a ? w->idle[i].start_ns : a;
		uint64_t hi = w->idle[i].end_ns < b ? w->idle[i].end_ns : b;

		if (hi > lo)
			sum += hi - lo;
	}
	return sum;
}

int bp_plugin_waits_of(const struct bp_plugin_waits *w, const struct bp_plugin_model *v,
		       const unsigned char *in, struct bootprof_waiting *out)
{
	struct bp_wait_span *sel;
	size_t i, n = 0, k = 0;
	uint64_t a = 0, b = 0;

	memset(out, 0, sizeof(*out));
	if (!w->fed)
		return -1;
	sel = xmalloc((w->nio + 1) * sizeof(*sel));
	for (i = 0; i < w->nio; i++) {
		const struct bp_thread *t = bp_model_find_thread(v->m, w->io[i].tid, w->io[i].start_ns);
		size_t slot;

		if (!t || !t->process)
			continue;
		slot = v->proc_slot[t->process - v->m->processes];
		if (slot != BOOTPROF_NONE && in[slot])
			sel[n++] = w->io[i];
	}
	qsort(sel, n, sizeof(*sel), by_start);
	/* Merge overlapping waits into [a, b) runs; each run counts once. */
	for (i = 0; i <= n; i++) {
		if (i < n && b > a && sel[i].start_ns <= b) {
			if (sel[i].end_ns > b)
				b = sel[i].end_ns;
			continue;
		}
		if (b > a) {
			out->wall_ns += b - a;
			out->idle_ns += idle_within(w, &k, a, b);
		}
		if (i < n) {
			a = sel[i].start_ns;
			b = sel[i].end_ns;
		}
	}
	free(sel);
	return 0;
}
