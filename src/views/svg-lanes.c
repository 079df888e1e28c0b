// SPDX-License-Identifier: GPL-2.0
/*
 * The bootchart's data: the span hook's time per state in each pixel
 * column, by task during the pass, then by process lane once the model is
 * built. svg.c draws it.
 */
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "views/svg-lanes.h"

/* ---- geometry ---- */

static int col_of(const struct bp_chart *c, uint64_t ns)
{
	double x;

	if (ns <= c->since)
		return 0;
	x = (double)(ns - c->since) / c->col_ns;
	return x >= PLOT_W ? PLOT_W - 1 : (int)x;
}

double bp_chart_x(const struct bp_chart *c, uint64_t ns)
{
	if (ns <= c->since)
		return X0;
	if (ns >= c->until)
		return X0 + PLOT_W;
	return X0 + (double)(ns - c->since) / c->col_ns;
}

uint64_t bp_chart_bucket_ns(const struct bp_window *w)
{
	uint64_t span = w->until_ns > w->since_ns ? w->until_ns - w->since_ns : 1;

	return span / PLOT_W + 1;
}

/* ---- accumulating spans ---- */

/* Make a cover columns [k0, k1]; spans of a task come in time order: mostly rightwards. */
static void acc_cover(struct lane_acc *a, int k0, int k1)
{
	int lo, hi, n;

	if (!a->col) {
		a->c0 = k0;
		a->n = k1 - k0 + 1;
		a->cap = a->n < 8 ? 8 : a->n;
		a->col = xcalloc((size_t)a->cap, sizeof(*a->col));
		return;
	}
	lo = k0 < a->c0 ? k0 : a->c0;
	hi = k1 > a->c0 + a->n - 1 ? k1 : a->c0 + a->n - 1;
	n = hi - lo + 1;
	if (lo == a->c0 && n <= a->cap) {
		a->n = n;
		return;
	}
	if (n > a->cap || lo < a->c0) {
		int cap = n > 2 * a->cap ? n : 2 * a->cap;

		if (cap > PLOT_W)
			cap = PLOT_W > n ? PLOT_W : n;
		a->col = xrealloc(a->col, (size_t)cap * sizeof(*a->col));
		memset(a->col + a->cap, 0, (size_t)(cap - a->cap) * sizeof(*a->col));
		a->cap = cap;
	}
	if (lo < a->c0) {
		memmove(a->col + (a->c0 - lo), a->col, (size_t)a->n * sizeof(*a->col));
		memset(a->col, 0, (size_t)(a->c0 - lo) * sizeof(*a->col));
	}
	a->c0 = lo;
	a->n = n;
}

/* Add [start, end) of state st to a's columns. */
static void acc_add(const struct bp_chart *c, struct lane_acc *a, int st, uint64_t start,
		    uint64_t end)
{
	int k, k0 = col_of(c, start), k1 = col_of(c, end);

	acc_cover(a, k0, k1);
	for (k = k0; k <= k1; k++) {
		double lo = c->since + k * c->col_ns, hi = lo + c->col_ns;
		double s = (double)start > lo ? (double)start : lo;
		double e = (double)end < hi ? (double)end : hi;

		if (e > s)
			a->col[k - a->c0][st] += (float)(e - s);
	}
}

struct bp_chart *bp_chart_new(const struct bp_window *w, int ncpus, const struct bp_chart_opts *o)
{
	struct bp_chart *c = xcalloc(1, sizeof(*c));

	c->o = *o;
	c->since = w->since_ns;
	c->until = w->until_ns > c->since ? w->until_ns : c->since + 1;
	c->col_ns = (double)(c->until - c->since) / PLOT_W;
	c->ncpus = ncpus > 0 ? ncpus : 1;
	bp_map_init(&c->tids);
	return c;
}

void bp_chart_span(void *arg, const struct bp_span *span)
{
	static const int state_of[] = {
		[BP_SPAN_RUN] = ST_RUN,
		[BP_SPAN_RUNNABLE] = ST_RUNNABLE,
		[BP_SPAN_IO_WAIT] = ST_IO,
		[BP_SPAN_OTHER_WAIT] = ST_OTHER,
		[BP_SPAN_SLEEP] = ST_SLEEP,
	};
	struct bp_chart *c = arg;
	uint64_t *slot;
	int k, k0, k1, inserted;

	if (span->tid <= 0 || (unsigned)span->state > BP_SPAN_SLEEP || span->end_ns <= span->start_ns)
		return;
	if (span->state == BP_SPAN_RUN && span->cpu >= 0 && span->cpu < MAX_CPUS) {
		if (span->cpu >= c->nbusy) {
			c->busy = xrealloc(c->busy, (size_t)(span->cpu + 1) * sizeof(*c->busy));
			memset(c->busy + c->nbusy, 0, (size_t)(span->cpu + 1 - c->nbusy) * sizeof(*c->busy));
			c->nbusy = span->cpu + 1;
		}
		k0 = col_of(c, span->start_ns);
		k1 = col_of(c, span->end_ns);
		for (k = k0; k <= k1; k++) {
			double lo = c->since + k * c->col_ns, hi = lo + c->col_ns;
			double s = (double)span->start_ns > lo ? (double)span->start_ns : lo;
			double e = (double)span->end_ns < hi ? (double)span->end_ns : hi;

			if (e > s)
				c->busy[span->cpu][k] += (float)(e - s);
		}
	}
	slot = bp_map_put(&c->tids, (uint64_t)span->tid, 0, &inserted);
	if (inserted) {
		if (c->ntacc == c->tcap) {
			c->tcap = c->tcap ? 2 * c->tcap : 64;
			c->tacc = xrealloc(c->tacc, c->tcap * sizeof(*c->tacc));
		}
		memset(&c->tacc[c->ntacc], 0, sizeof(*c->tacc));
		*slot = c->ntacc++;
	}
	acc_add(c, &c->tacc[*slot], state_of[span->state], span->start_ns, span->end_ns);
}


static enum lane lane_of(const struct bp_chart *c, const struct bp_process *p)
{
	if (!bp_process_matches(c->m, p, &c->focus))
		return LANE_NONE;
	return p->wait_ns >= c->o.min_wait_ns && p->bytes_read >= c->o.min_bytes ? LANE_OWN :
										  LANE_OTHERS;
}

/* Add the columns of task acc t inside [k0, k1] to lane acc a. */
static void acc_merge(struct lane_acc *a, const struct lane_acc *t, int k0, int k1)
{
	int k, s;

	if (!t->col)
		return;
	if (k0 < t->c0)
		k0 = t->c0;
	if (k1 > t->c0 + t->n - 1)
		k1 = t->c0 + t->n - 1;
	if (k1 < k0)
		return;
	acc_cover(a, k0, k1);
	for (k = k0; k <= k1; k++) {
		for (s = 0; s < NST; s++)
			a->col[k - a->c0][s] += t->col[k - t->c0][s];
	}
}

void bp_chart_attach(struct bp_chart *c, const struct bp_model *m)
{
	size_t i, j;

	c->m = m;
	if (m->header.ncpus > c->ncpus)
		c->ncpus = m->header.ncpus;
	if (c->nbusy > c->ncpus)
		c->ncpus = c->nbusy;
	c->shown = xcalloc(m->nprocesses + 1, 1);
	c->acc = xcalloc(m->nprocesses + 1, sizeof(*c->acc));
	c->focus_pid = bp_focus_command(m, c->o.all, &c->focus);
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		struct lane_acc *lane;

		c->shown[i] = (unsigned char)lane_of(c, p);
		if (c->shown[i] == LANE_NONE)
			continue;
		c->nothers += c->shown[i] == LANE_OTHERS;
		lane = c->shown[i] == LANE_OWN ? &c->acc[i] : &c->others;
		/* A thread's columns only: a reused tid's other tasks belong elsewhere. */
		for (j = 0; j < p->nthreads; j++) {
			const struct bp_thread *t = p->threads[j];
			const uint64_t *slot = bp_map_get(&c->tids, (uint64_t)t->tid, 0);

			if (slot)
				acc_merge(lane, &c->tacc[*slot], col_of(c, t->start_ns),
					  t->exit_ns ? col_of(c, t->exit_ns) : PLOT_W - 1);
		}
	}
	/* The task columns are merged into lanes: free them now. */
	for (i = 0; i < c->ntacc; i++)
		free(c->tacc[i].col);
	free(c->tacc);
	c->tacc = NULL;
	c->ntacc = c->tcap = 0;
	bp_map_release(&c->tids);
	bp_map_init(&c->tids);
}

void bp_chart_free(struct bp_chart *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; c->m && i < c->m->nprocesses; i++)
		free(c->acc[i].col);
	for (i = 0; i < c->ntacc; i++)
		free(c->tacc[i].col);
	free(c->tacc);
	bp_map_release(&c->tids);
	free(c->acc);
	free(c->others.col);
	free(c->shown);
	free(c->busy);
	free(c);
}
