// SPDX-License-Identifier: GPL-2.0
/*
 * Waits: the timeline, CPU idle while waiting, I/O wait and other
 * uninterruptible sleep, and the spans of every task's state.
 *
 * I/O wait of a task (DESIGN §6): from a sched_switch that puts it to
 * sleep in TASK_UNINTERRUPTIBLE (prev_state & 0xff == 2, without the
 * preemption bit 0x100) to the moment it is runnable again (see
 * bp_wake_time), when the D-sleep has I/O evidence (see wait_is_io).
 * Measured against schedstat's truth (wall - run - run-queue delay, see
 * tests/shell/t3010-truth.sh): within 1 %, idle or loaded, pinned or not.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/build.h"
#include "util/error.h"
#include "util/xalloc.h"

/*
 * The timeline bucket of ts (index into state.tl and every disk's
 * timeline): -1 before the first bucket, or at or past MAX_BUCKETS (a
 * corrupt timestamp: no timeline beyond).
 */
int bp_bucket_index(const struct state *s, uint64_t ts, size_t *i)
{
	if (!s->t0_set || ts < s->t0 || (ts - s->t0) / s->bucket >= MAX_BUCKETS)
		return -1;
	*i = (size_t)((ts - s->t0) / s->bucket);
	return 0;
}

/* The end of ts's bucket (ts >= t0): the start of the next one. */
uint64_t bp_bucket_end(const struct state *s, uint64_t ts)
{
	return s->t0 + ((ts - s->t0) / s->bucket + 1) * s->bucket;
}

struct bp_bucket *bp_bucket_at(struct state *s, uint64_t ts)
{
	size_t i;

	if (bp_bucket_index(s, ts, &i))
		return NULL;
	if (i >= s->ntl) {
		size_t old = s->ntl;

		BP_GROW(s->tl, i, s->ctl);
		memset(&s->tl[old], 0, (i + 1 - old) * sizeof(*s->tl));
		s->ntl = i + 1;
	}
	return &s->tl[i];
}

enum tl_field { TL_WAIT, TL_IDLE };

/* Clip [a, b) to the window, add it to the timeline; return the clipped length. */
static uint64_t add_interval(struct state *s, uint64_t a, uint64_t b, enum tl_field which)
{
	uint64_t len, t;

	if (a < s->since)
		a = s->since;
	if (b > s->until)
		b = s->until;
	if (b <= a)
		return 0;
	len = b - a;
	for (t = a; t < b;) {
		struct bp_bucket *bk = bp_bucket_at(s, t);
		uint64_t end = bp_bucket_end(s, t);

		if (end > b)
			end = b;
		if (bk) {
			if (which == TL_WAIT)
				bk->wait_ns += end - t;
			else
				bk->idle_wait_ns += end - t;
		} else {
			break;
		}
		t = end;
	}
	return len;
}

/*
 * CPU idle while waiting (DESIGN §6): the time in which at least one task
 * is inside an I/O wait -- exactly the intervals that make up wait_ns,
 * same start and end -- and every CPU runs its idle task.
 *
 * The pass cannot decide it as it goes: a task woken by sched_waking
 * stops waiting when it became runnable (bp_wake_time), which is only
 * known when it is switched in, and onto an idle CPU that is before the
 * switch-in by the CPU's wake-up latency. So while events are read, a
 * D-sleeper with I/O evidence counts as waiting until its wait is ended
 * (s->nwaiting), and the time every CPU is idle meanwhile is kept as a
 * candidate: it covers the answer. Each I/O wait that overlaps a
 * candidate is kept too, and bp_idle_finish cuts the candidates to the
 * waits once every wait has ended.
 */
void bp_idle_flush(struct state *s, uint64_t ts)
{
	uint64_t a = s->idle_since < s->since ? s->since : s->idle_since;
	uint64_t b = ts > s->until ? s->until : ts;

	if (s->idle_on && b > a) {
		struct interval *last = s->nidle_cand ? &s->idle_cand[s->nidle_cand - 1] : NULL;

		if (last && last->end == a) {
			last->end = b;
		} else {
			BP_GROW(s->idle_cand, s->nidle_cand, s->cidle_cand);
			s->idle_cand[s->nidle_cand].start = a;
			s->idle_cand[s->nidle_cand++].end = b;
		}
	}
	s->idle_since = ts;
}

/*
 * Keep the I/O wait [a, b) if it overlaps a candidate. It ends now or
 * before, and the candidates are flushed up to now: all it can overlap
 * is known.
 */
static void idle_keep_wait(struct state *s, uint64_t a, uint64_t b)
{
	size_t lo = 0, hi = s->nidle_cand;

	/* The first candidate ending after a. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->idle_cand[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->nidle_cand || s->idle_cand[lo].start >= b)
		return;
	BP_GROW(s->idle_waits, s->nidle_waits, s->cidle_waits);
	s->idle_waits[s->nidle_waits].start = a;
	s->idle_waits[s->nidle_waits++].end = b;
}

/*
 * [a, b) was CPU idle while waiting: into the totals and the timeline,
 * and to the span hook (tid 0: the machine), so that a consumer can
 * intersect it with the I/O-wait spans of the tasks it cares about.
 */
static void idle_add(struct state *s, uint64_t a, uint64_t b)
{
	uint64_t len = add_interval(s, a, b, TL_IDLE);
	struct bp_span sp;

	s->tot.idle_wait_ns += len;
	if (!len || !s->hooks || !s->hooks->span)
		return;
	memset(&sp, 0, sizeof(sp));
	sp.cpu = -1;
	sp.state = BP_SPAN_IDLE_WAIT;
	sp.cause = BP_CAUSE_OTHER;
	sp.start_ns = a;
	sp.end_ns = b;
	s->hooks->span(s->hooks->arg, &sp);
}

static int by_start(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/*
 * Once every wait has ended: CPU idle while waiting is the candidates
 * (every CPU idle, see bp_idle_flush) cut to the union of the I/O waits.
 * Its spans are handed out in time order, never overlapping.
 */
void bp_idle_finish(struct state *s)
{
	struct interval *w = s->idle_waits, *c = s->idle_cand;
	size_t i, j, n = 0, k = 0;

	if (s->nidle_waits)
		qsort(w, s->nidle_waits, sizeof(*w), by_start);
	/* Overlapping waits merge into runs: each instant counts once. */
	for (i = 0; i < s->nidle_waits; i++) {
		if (n && w[i].start <= w[n - 1].end) {
			if (w[i].end > w[n - 1].end)
				w[n - 1].end = w[i].end;
		} else {
			w[n++] = w[i];
		}
	}
	/* Runs and candidates are both in time order and disjoint. */
	for (i = 0; i < n; i++) {
		while (k < s->nidle_cand && c[k].end <= w[i].start)
			k++;
		for (j = k; j < s->nidle_cand && c[j].start < w[i].end; j++) {
			uint64_t a = c[j].start > w[i].start ? c[j].start : w[i].start;
			uint64_t b = c[j].end < w[i].end ? c[j].end : w[i].end;

			if (b > a)
				idle_add(s, a, b);
		}
	}
	free(s->idle_waits);
	free(s->idle_cand);
	s->idle_waits = s->idle_cand = NULL;
	s->nidle_waits = s->cidle_waits = s->nidle_cand = s->cidle_cand = 0;
}

void bp_idle_update(struct state *s)
{
	s->idle_on = s->nwaiting > 0 && s->nidle >= s->ncpus;
}

/*
 * Spans: t->span is the state of the interval open since t->span_start
 * (+ 1; 0: none open). Waits are emitted by wait_end, with their cause and
 * file, over exactly the interval added to the task's wait.
 */
static void span_emit(struct state *s, const struct task *t, int state, uint64_t a, uint64_t b,
		      uint32_t file)
{
	struct bp_span sp;

	if (!s->hooks || !s->hooks->span || t->tid <= 0 || t->recorder)
		return;
	if (a < s->since)
		a = s->since;
	if (b > s->until)
		b = s->until;
	if (b <= a)
		return;
	memset(&sp, 0, sizeof(sp));
	sp.tid = t->tid;
	sp.cpu = state == BP_SPAN_RUN ? t->cpu : -1;
	sp.state = (enum bp_span_state)state;
	sp.cause = state == BP_SPAN_IO_WAIT ? (enum bp_cause)t->wait_cause : BP_CAUSE_OTHER;
	if (state == BP_SPAN_IO_WAIT && file != NONE) {
		sp.dev = s->files[file].dev;
		sp.ino = s->files[file].ino;
	}
	sp.start_ns = a;
	sp.end_ns = b;
	s->hooks->span(s->hooks->arg, &sp);
}

/* Close t's open span at ts and open one in state (-1: none). */
void bp_span_to(struct state *s, struct task *t, int state, uint64_t ts)
{
	if (t->span && ts > t->span_start)
		span_emit(s, t, t->span - 1, t->span_start, ts, NONE);
	t->span = (uint8_t)(state + 1);
	t->span_start = ts;
}

/*
 * Whether a D-sleep starting now is I/O wait (DESIGN §6): a file or sync
 * syscall in progress, a page fault on a file, or block I/O / page-cache
 * insertion by the sleeper since its last syscall boundary. A task without syscall
 * context (a kernel thread, or any task of a recording without syscall
 * events) has no boundaries: its evidence is what it did since its last
 * sleep, so a kworker counts its waits for the I/O it issued, and nothing
 * else.
 */
static int wait_is_io(const struct task *t)
{
	return t->in_fault || t->activity || (t->sys >= 0 && t->sys < BP_CAUSE_OTHER);
}

/*
 * What an I/O wait starting now waits for: a fault first (its page is the
 * wait, even inside a syscall), then the file syscall in progress, then
 * the evidence since the last boundary. A task that read (a read request,
 * pages read from storage) waits for that read. One that only wrote
 * (pages it created, write requests it queued) waits for writeback or
 * the journal: a buffered write throttled by balance_dirty_pages or
 * stuck behind a commit, a kernel thread writing back. That is a sync
 * wait, like one inside sync() or fsync(). A write into pages already
 * cached leaves no evidence: its D-sleep is other uninterruptible sleep.
 */
static int wait_cause(const struct task *t)
{
	if (t->in_fault)
		return BP_CAUSE_FAULT;
	if (t->sys >= 0 && t->sys < BP_CAUSE_OTHER)
		return t->sys;
	if (t->activity && !t->read_io)
		return BP_CAUSE_SYNC;
	return BP_CAUSE_OTHER;
}

void bp_wait_begin(struct state *s, struct task *t, uint64_t ts)
{
	int cause;

	t->waiting = 1;
	t->wait_start = ts;
	t->woken = 0;
	t->io_wait = (uint8_t)wait_is_io(t);
	if (!t->io_wait) {
		bp_span_to(s, t, BP_SPAN_OTHER_WAIT, ts);
		return;
	}
	bp_span_to(s, t, BP_SPAN_IO_WAIT, ts);
	t->span = 0;    /* wait_end emits it, with its cause and file */
	cause = wait_cause(t);
	t->wait_cause = (uint8_t)cause;
	/*
	 * A sync wait is for writes reaching storage, not for a read: it is
	 * charged to no file, never to one the task read or wrote before.
	 */
	t->wait_file = cause == BP_CAUSE_SYNC ? NONE : t->ctx_file;
	/*
	 * No page of its own in this syscall: a read that blocks on a page
	 * an earlier read's readahead is still fetching. Charge the file it
	 * was reading.
	 */
	if (t->wait_file == NONE && (cause == BP_CAUSE_READ || cause == BP_CAUSE_FAULT))
		t->wait_file = t->last_file;
	if (t->holder && cause != BP_CAUSE_SYNC)
		bp_held_waited(t);
	s->nwaiting++;
	if (in_window(s, ts)) {
		struct bp_bucket *b = bp_bucket_at(s, ts);

		if (b && b->waiting_max < (uint32_t)s->nwaiting)
			b->waiting_max = (uint32_t)s->nwaiting;
	}
}

/* The D-sleep of t ended at ts (it became runnable then). */
void bp_wait_end(struct state *s, struct task *t, uint64_t ts)
{
	uint64_t d, a, b;

	t->waiting = 0;
	if (!t->io_wait) {
		a = t->wait_start < s->since ? s->since : t->wait_start;
		b = ts > s->until ? s->until : ts;
		if (b > a) {
			t->other_ns += b - a;
			t->seen = 1;
		}
		bp_span_to(s, t, BP_SPAN_RUNNABLE, ts);
		return;
	}
	t->io_wait = 0;
	s->nwaiting--;
	span_emit(s, t, BP_SPAN_IO_WAIT, t->wait_start, ts, t->wait_file);
	t->span = BP_SPAN_RUNNABLE + 1;
	t->span_start = ts;
	d = add_interval(s, t->wait_start, ts, TL_WAIT);
	if (!d)
		return;
	idle_keep_wait(s, t->wait_start, ts);
	t->seen = 1;
	t->wait_ns += d;
	t->wait_cause_ns[t->wait_cause] += d;
	if (t->wait_file != NONE) {
		struct efile *f = &s->files[t->wait_file];
		uint64_t at = ts > s->until ? s->until : ts;
		struct eacc *acc;

		f->wait += d;
		if (!f->seen) {
			f->seen = 1;
			f->first = f->last = at;
		}
		acc = bp_access_of(s, (uint32_t)(t - s->tasks), t->wait_file, at);
		acc->wait += d;
	} else {
		t->wait_unknown_ns += d;
	}
}

/*
 * When a task woken at t->woken (sched_waking) became runnable, now that it
 * runs on cpu at ts. The run-queue clock starts when the task is enqueued
 * (ttwu_do_activate), which is at the waking unless the wakeup was queued
 * to an idle CPU (ttwu_queue_wakelist): then that CPU enqueues it when it
 * wakes up, at its first event after the waking (usually this switch). The
 * waking's target_cpu cannot tell which CPU that is (it is the task's
 * previous CPU, before select_task_rq), the CPU it runs on can. Without a
 * waking, the wait ends at the switch-in.
 */
uint64_t bp_wake_time(const struct state *s, const struct task *t, int cpu, uint64_t ts)
{
	const struct cpu_times *c;
	uint64_t w = t->woken, first = ts;
	unsigned i;

	if (!w || w > ts)
		return ts;
	if (cpu < 0 || cpu >= s->ncpus || s->cpu_idle[cpu] != 1)
		return w;
	c = &s->cpu_times[cpu];
	if (c->idle_since > w)
		return w;
	for (i = 1; i <= CPU_RING; i++) {
		uint64_t e = c->ring[(c->head - i) % CPU_RING];

		if (e < w)
			break;
		first = e;
	}
	return first;
}
