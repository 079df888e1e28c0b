// SPDX-License-Identifier: GPL-2.0
/*
 * Waits: the timeline, CPU idle while waiting, I/O wait and other
 * uninterruptible sleep, and the spans of every task's state.
 *
 * I/O wait of a task: from a sched_switch that puts it to sleep in
 * TASK_UNINTERRUPTIBLE (prev_state & 0xff == 2, without the preemption
 * bit 0x100) to the moment it is runnable again (see bp_wake_time), when
 * the sleep was I/O by the kernel's own count, or else by how it ended
 * (see sleep_was_io). Every other D-sleep is other uninterruptible sleep.
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
 * CPU idle while waiting: the time in which at least one task is inside
 * an I/O wait -- exactly the intervals that make up wait_ns, same start
 * and end -- and every CPU runs its idle task.
 *
 * The pass cannot decide it as it goes: whether a D-sleep was I/O is
 * known when it ends (see sleep_was_io), and a task woken by
 * sched_waking stops waiting when it became runnable (bp_wake_time),
 * which is only known when it is switched in. So while events are read,
 * the time every CPU is idle while some task is in a D-sleep is kept as
 * a candidate: it covers the answer. Every I/O wait is kept too, and
 * bp_idle_finish cuts the candidates to the waits once every wait has
 * ended.
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

/* Keep the I/O wait [a, b), already clipped to the window. */
static void keep_io_wait(struct state *s, uint64_t a, uint64_t b)
{
	BP_GROW(s->io_waits, s->nio_waits, s->cio_waits);
	s->io_waits[s->nio_waits].start = a;
	s->io_waits[s->nio_waits++].end = b;
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

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Raise the most tasks waiting at once of the buckets of [a, b] to n. */
static void waiting_at_least(struct state *s, uint64_t a, uint64_t b, uint32_t n)
{
	size_t i, j;

	if (!n || bp_bucket_index(s, a, &i))
		return;
	if (bp_bucket_index(s, b, &j))
		j = MAX_BUCKETS - 1;
	for (; i <= j; i++) {
		struct bp_bucket *bk = bp_bucket_at(s, s->t0 + i * s->bucket);

		if (bk && bk->waiting_max < n)
			bk->waiting_max = n;
	}
}

/*
 * The most tasks in an I/O wait at once, per bucket: a sweep over the
 * waits' starts and ends (w sorted by start). An end at the same instant
 * as a start comes first: the two waits do not overlap.
 */
static void waiting_max(struct state *s, const struct interval *w, size_t n)
{
	uint64_t *ends = xmalloc((n ? n : 1) * sizeof(*ends)), prev = 0;
	size_t i = 0, k = 0;
	uint32_t cur = 0;

	for (i = 0; i < n; i++)
		ends[i] = w[i].end;
	qsort(ends, n, sizeof(*ends), by_u64);
	for (i = 0; i < n || k < n;) {
		uint64_t t;
		int start = i < n && w[i].start < ends[k];

		t = start ? w[i].start : ends[k];
		if (cur && t > prev)
			waiting_at_least(s, prev, t - 1, cur);
		if (start) {
			cur++;
			i++;
			waiting_at_least(s, t, t, cur);
		} else {
			cur--;
			k++;
		}
		prev = t;
	}
	free(ends);
}

/*
 * Once every wait has ended: CPU idle while waiting is the candidates
 * (every CPU idle, see bp_idle_flush) cut to the union of the I/O waits.
 * Its spans are handed out in time order, never overlapping.
 */
void bp_idle_finish(struct state *s)
{
	struct interval *w = s->io_waits, *c = s->idle_cand;
	size_t i, j, n = 0, k = 0;

	if (s->nio_waits)
		qsort(w, s->nio_waits, sizeof(*w), by_start);
	waiting_max(s, w, s->nio_waits);
	/* Overlapping waits merge into runs: each instant counts once. */
	for (i = 0; i < s->nio_waits; i++) {
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
	free(s->io_waits);
	free(s->idle_cand);
	s->io_waits = s->idle_cand = NULL;
	s->nio_waits = s->cio_waits = s->nidle_cand = s->cidle_cand = 0;
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
 * Whether a D-sleep starting now has I/O evidence: a file or sync
 * syscall in progress, a page fault on a file, or block I/O / page-cache
 * insertion by the sleeper since its last syscall boundary. A task
 * without syscall context (a kernel thread, or any task of a recording
 * without syscall events) has no boundaries: its evidence is what it did
 * since its last sleep. Evidence says which file and why (wait_cause);
 * it never says whether the sleep was I/O (see sleep_was_io).
 */
static int has_evidence(const struct task *t)
{
	return t->in_fault || t->activity || (t->sys >= 0 && t->sys < BP_CAUSE_OTHER);
}

/*
 * What a D-sleep starting now waits for, should it be I/O: a fault first
 * (its page is the wait, even inside a syscall), then the file syscall
 * in progress, then the evidence since the last boundary. A task that
 * read (a read request, pages read from storage) waits for that read.
 * One that only wrote (pages it created, write requests it queued) waits
 * for writeback or the journal: a buffered write throttled by
 * balance_dirty_pages, a kernel thread writing back. That is a sync
 * wait, like one inside sync() or fsync().
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

/*
 * How long after a block completion a waking in interrupt context on
 * the same CPU belongs to it, whatever happened between. A completion
 * wakes its waiters in the same interrupt, microseconds later. Under
 * emulation the gap can be tens of milliseconds (the virtual CPU not
 * running): a later waking still belongs to the completion when nothing
 * but wakings came between on that CPU.
 */
#define COMPLETION_WAKE_NS 1000000ull

/*
 * Every event, before its handler: per CPU, the last one in process
 * context, and whether only wakings came since the last completion
 * (see woken_by_completion).
 */
void bp_note_event(struct state *s, const struct bp_event *ev, int kind)
{
	struct cpu_times *c;
	int irq;

	if (ev->cpu < 0 || ev->cpu >= s->ncpus)
		return;
	c = &s->cpu_times[ev->cpu];
	irq = bp_in_irq(s, ev);
	if (!irq)
		c->task_ctx = ev->ts;
	if (!irq || (kind != EV_WAKING && kind != EV_WAKEUP))
		c->done_chain = 0;
}

/*
 * A block request completed (block_rq_complete), in an interrupt or in
 * the task that completes it (a threaded interrupt, loop, a dm or mmc
 * worker): the wakings that follow it there are its waiters'.
 */
void bp_note_completion(struct state *s, const struct bp_event *ev)
{
	struct task *t;

	if (ev->cpu < 0 || ev->cpu >= s->ncpus)
		return;
	if (bp_in_irq(s, ev)) {
		s->cpu_times[ev->cpu].irq_done = ev->ts;
		s->cpu_times[ev->cpu].done_ctx = (uint8_t)bp_in_irq(s, ev);
		s->cpu_times[ev->cpu].done_chain = 1;
		return;
	}
	t = bp_task_cur(s, ev);
	if (t)
		t->completing = COMPLETED_ONE;
}

/*
 * Whether a waking comes from a block completion: in interrupt context
 * right after a completion on that CPU (nothing in process context
 * between), or from a task that completes requests (see
 * bp_note_completion): COMPLETED_ONE. Or from a task woken by such a
 * completion to finish it (a kworker decrypting or verifying the pages
 * it read: woken once, it wakes the readers): WOKEN_BY_ONE. Or from a
 * reader such a completion woke, unlocking the page it read for the next
 * reader (I/O only for a sleeper reading data): PASSES_PAGE. Anything
 * else -- a timer, another interrupt, another task unlocking a mutex or
 * a directory -- is not I/O: 0.
 */
static int completion_waking(struct state *s, const struct bp_event *ev, int add_waker)
{
	const struct cpu_times *c;
	struct task *waker = NULL;
	uint64_t *slot;

	if (ev->cpu < 0 || ev->cpu >= s->ncpus)
		return 0;
	c = &s->cpu_times[ev->cpu];
	/*
	 * The same kind of interrupt: a timer softirq run on the way out of
	 * a completion's hard interrupt is not the completion.
	 */
	if (bp_in_irq(s, ev))
		return c->irq_done && c->irq_done >= c->task_ctx && bp_in_irq(s, ev) == c->done_ctx &&
		       (c->done_chain || ev->ts - c->irq_done <= COMPLETION_WAKE_NS);
	if (add_waker) {
		waker = bp_task_cur(s, ev);
	} else {
		slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)rd_int(s, ev, s->common_pid), 0);
		waker = slot ? &s->tasks[(uint32_t)*slot] : NULL;
	}
	return waker ? waker->completing : 0;
}

static int woken_by_completion(struct state *s, const struct bp_event *ev)
{
	return completion_waking(s, ev, 1);
}

/*
 * woken_by_completion() for a waking of a task the pass has not met
 * (asleep since before the recording): the waker is looked up, never
 * added, so the model is the same with or without the critical path.
 */
int bp_completion_waking_peek(struct state *s, const struct bp_event *ev)
{
	return completion_waking(s, ev, 0);
}

/* A D-sleep that waits for data it reads: in read or exec, or a fault on a file. */
static int reading_data(const struct task *t)
{
	return t->evidence && (t->wait_cause == BP_CAUSE_READ || t->wait_cause == BP_CAUSE_FAULT ||
			       t->wait_cause == BP_CAUSE_EXEC);
}

/*
 * A waking of t (sched_waking, or sched_wakeup without it). A D-sleeper
 * notes whether a completion woke it. Any other sleeper woken straight
 * by a completion may be the worker that finishes it: it counts as
 * completing until it sleeps again (one step: not the tasks it wakes).
 * Returns how a completion woke it (see woken_by_completion), 0: not one.
 */
int bp_note_waking(struct state *s, const struct bp_event *ev, uint32_t ti)
{
	int by = woken_by_completion(s, ev);   /* may add the waker: t after it */
	struct task *t = &s->tasks[ti];

	if (t->waiting) {
		if (!by || (by == PASSES_PAGE && !reading_data(t)))
			return 0;
		if (t->woken)
			return by;
		t->woken_by_io = 1;
		/*
		 * A reader a completion woke holds the page it waited for, and
		 * unlocking it wakes the next reader of that page.
		 */
		if (by == COMPLETED_ONE && !t->completing && reading_data(t))
			t->completing = PASSES_PAGE;
		return by;
	}
	/*
	 * A waking is traced only for a task whose state says it sleeps: one
	 * still on its CPU is on its way into schedule(), and the waker
	 * waits for it to get off. The sleep it switches out into has
	 * already been ended by this waking.
	 */
	if (t->running && !t->early_woken) {
		t->early_woken = ev->ts;
		t->early_by = (uint8_t)by;
	}
	if (by == COMPLETED_ONE && !t->completing)
		t->completing = WOKEN_BY_ONE;
	return by;
}

/*
 * sched_stat_blocked (every sleep with TASK_UNINTERRUPTIBLE) and
 * sched_stat_iowait (a sleep in io_schedule()): the kernel's word on the
 * sleep of pid, emitted in the waker's context when the sleeper is
 * enqueued again, with the sleep's length by the run-queue clock. A
 * report that starts before the task's D-sleep began is stale (a sleep
 * start left from before schedstats were turned on): not this sleep.
 * The length is the sched_switch interval's, not the report's: on
 * kernels that dequeue a sleeper late (DELAY_DEQUEUE) the kernel's
 * length is short of the sleep.
 */
#define STAT_SLACK_NS 1000000ull
void bp_on_stat_sleep(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[F_STAT_PID]);
	uint64_t delay = rd(s, ev, h->f[F_STAT_DELAY]);
	uint64_t *slot;
	struct task *t;

	if (pid <= 0)
		return;
	slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)pid, 0);
	if (!slot)
		return;
	t = &s->tasks[(uint32_t)*slot];
	if (!t->waiting || delay > ev->ts || ev->ts - delay + STAT_SLACK_NS < t->wait_start)
		return;
	if (h->kind == EV_STAT_IOWAIT)
		t->kernel_said = KS_IOWAIT;
	else if (t->kernel_said == KS_NONE)
		t->kernel_said = KS_BLOCKED;
}

/*
 * Whether the D-sleep of t, ending at ts, was I/O wait: what the kernel
 * said of it (sched_stat_iowait, or sched_stat_blocked alone); else how
 * it ended (a block completion woke it). A sleep still open at the end
 * of the recording has no ending to judge: it is I/O when it began
 * reading data (in read or exec, or a fault on a file: a held throttled
 * read has no request at the disk yet), or with other I/O evidence
 * while a request was in flight. The one rule for every number called
 * I/O wait.
 */
static int sleep_was_io(struct state *s, const struct task *t, uint64_t ts)
{
	int in = in_window(s, ts) || in_window(s, t->wait_start);

	if (t->kernel_said != KS_NONE) {
		s->tot.sleeps_kernel += (uint64_t)in;
		return t->kernel_said == KS_IOWAIT;
	}
	s->tot.sleeps_inferred += (uint64_t)in;
	if (t->woken_by_io)
		return 1;
	if (t->woken || !s->at_end || !t->evidence)
		return 0;
	return t->wait_cause == BP_CAUSE_READ || t->wait_cause == BP_CAUSE_FAULT ||
	       t->wait_cause == BP_CAUSE_EXEC || bp_requests_in_flight(s);
}

void bp_wait_begin(struct state *s, struct task *t, uint64_t ts)
{
	int cause;

	t->waiting = 1;
	t->wait_start = ts;
	t->woken = t->early_woken ? ts : 0;
	t->kernel_said = KS_NONE;
	t->evidence = (uint8_t)has_evidence(t);
	bp_span_to(s, t, BP_SPAN_IO_WAIT, ts);
	t->span = 0;    /* wait_end emits it, as I/O wait or other D-sleep */
	cause = t->evidence ? wait_cause(t) : BP_CAUSE_OTHER;
	t->wait_cause = (uint8_t)cause;
	/*
	 * A sync wait is for writes reaching storage, not for a read: it is
	 * charged to no file, never to one the task read or wrote before.
	 */
	t->wait_file = cause == BP_CAUSE_SYNC || !t->evidence ? NONE : t->ctx_file;
	/*
	 * No page of its own in this syscall: a read that blocks on a page
	 * an earlier read's readahead is still fetching. Charge the file it
	 * was reading.
	 */
	if (t->wait_file == NONE && (cause == BP_CAUSE_READ || cause == BP_CAUSE_FAULT))
		t->wait_file = t->last_file;
	if (t->evidence && t->holder && cause != BP_CAUSE_SYNC)
		bp_held_waited(t);
	t->woken_by_io = t->early_woken && t->early_by &&
			 (t->early_by != PASSES_PAGE || reading_data(t));
	s->nwaiting++;
}

/* The D-sleep of t ended at ts (it became runnable then). */
void bp_wait_end(struct state *s, struct task *t, uint64_t ts)
{
	int io = sleep_was_io(s, t, ts);
	uint64_t d, a, b;

	t->waiting = 0;
	s->nwaiting--;
	if (s->crit)
		bp_crit_sleep_judged(s, t, io, t->wait_file);
	if (!io) {
		a = t->wait_start < s->since ? s->since : t->wait_start;
		b = ts > s->until ? s->until : ts;
		if (b > a) {
			t->other_ns += b - a;
			t->seen = 1;
		}
		span_emit(s, t, BP_SPAN_OTHER_WAIT, t->wait_start, ts, NONE);
		t->span = BP_SPAN_RUNNABLE + 1;
		t->span_start = ts;
		return;
	}
	span_emit(s, t, BP_SPAN_IO_WAIT, t->wait_start, ts, t->wait_file);
	t->span = BP_SPAN_RUNNABLE + 1;
	t->span_start = ts;
	d = add_interval(s, t->wait_start, ts, TL_WAIT);
	if (!d)
		return;
	a = t->wait_start < s->since ? s->since : t->wait_start;
	keep_io_wait(s, a, a + d);
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
