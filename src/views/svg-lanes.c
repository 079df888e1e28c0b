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


/* Under 1 % of the window's CPU time and no I/O wait: nothing worth a lane of its own. */
static int idle(const struct bp_chart *c, const struct bp_process *p)
{
	return !p->wait_ns && p->run_ns * 100 < c->until - c->since;
}

/* A kernel thread: kthreadd or one of its children that never exec'd. */
static int kernel_thread(const struct bp_process *p)
{
	return !p->nexec && (p->pid == 2 || p->ppid == 2);
}

static enum lane lane_of(const struct bp_chart *c, const struct bp_process *p)
{
	if (!bp_process_matches(c->m, p, &c->focus))
		return LANE_NONE;
	if (p->wait_ns < c->o.min_wait_ns || p->bytes_read < c->o.min_bytes)
		return LANE_OTHERS;
	if (!c->o.all_lanes && kernel_thread(p) && idle(c, p))
		return LANE_KTHREAD;
	return LANE_OWN;
}

static int by_start_desc(const void *a, const void *b, void *arg)
{
	const struct bp_model *m = arg;
	uint64_t x = m->processes[*(const size_t *)a].start_ns;
	uint64_t y = m->processes[*(const size_t *)b].start_ns;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * Short-lived children into their parent's lane: a process with a lane of
 * its own that was forked and exited inside the window, idle, and whose
 * children would not be drawn either, goes to the "short-lived" lane of
 * its nearest ancestor that keeps its own.
 */
static void collapse(struct bp_chart *c)
{
	const struct bp_model *m = c->m;
	size_t n = m->nprocesses, i, k, *order = xcalloc(n + 1, sizeof(*order));
	unsigned char *can = xcalloc(n + 1, 1);

	/* Children start after their parent: latest first, each child is known before its parent. */
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_start_desc, (void *)m);
	for (k = 0; k < n; k++) {
		const struct bp_process *p = &m->processes[order[k]];
		size_t j;

		if (c->shown[order[k]] != LANE_OWN || !p->exit_ns || p->exit_ns > c->until ||
		    p->start_ns <= c->since || !p->parent || !idle(c, p))
			continue;
		can[order[k]] = 1;
		for (j = 0; j < p->nchildren; j++) {
			size_t ch = (size_t)(p->children[j] - m->processes);

			if (ch < n && c->shown[ch] == LANE_OWN && !can[ch])
				can[order[k]] = 0;
		}
	}
	for (i = 0; i < n; i++) {
		const struct bp_process *a;
		int guard = 0;

		if (!can[i])
			continue;
		for (a = m->processes[i].parent; a && guard < 100000; a = a->parent, guard++) {
			size_t ai = (size_t)(a - m->processes);

			if (ai < n && c->shown[ai] == LANE_OWN && !can[ai]) {
				c->shown[i] = LANE_COLLAPSED;
				c->into[i] = ai;
				c->ncollapsed[ai]++;
				break;
			}
		}
	}
	free(can);
	free(order);
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
	c->collapsed = xcalloc(m->nprocesses + 1, sizeof(*c->collapsed));
	c->ncollapsed = xcalloc(m->nprocesses + 1, sizeof(*c->ncollapsed));
	c->into = xcalloc(m->nprocesses + 1, sizeof(*c->into));
	c->focus_pid = bp_focus_command(m, c->o.all, &c->focus);
	for (i = 0; i < m->nprocesses; i++)
		c->shown[i] = (unsigned char)lane_of(c, &m->processes[i]);
	if (!c->o.all_lanes)
		collapse(c);
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		struct lane_acc *lane;

		switch (c->shown[i]) {
		case LANE_NONE:
			continue;
		case LANE_OWN:
			lane = &c->acc[i];
			break;
		case LANE_KTHREAD:
			lane = &c->kthreads;
			c->nkthreads++;
			break;
		case LANE_COLLAPSED:
			lane = &c->collapsed[c->into[i]];
			break;
		default:
			lane = &c->others;
			c->nothers++;
		}
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
	for (i = 0; c->m && i < c->m->nprocesses; i++) {
		free(c->acc[i].col);
		free(c->collapsed[i].col);
	}
	free(c->collapsed);
	free(c->ncollapsed);
	free(c->into);
	free(c->kthreads.col);
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
