// SPDX-License-Identifier: GPL-2.0
/*
 * The critical path (see critical.h): what the model's pass records for
 * it -- the bp_crit_* hooks, called from tasks.c, waits.c, requests.c and
 * pages.c when the pass has a log -- and the walk back from an end point.
 *
 * Per task the log keeps every interval off a CPU: when the task left it
 * (preempted, asleep D or S, or created by a fork), when it became
 * runnable and by whom (a task, a block completion and its request, an
 * interrupt, nobody known), whether the I/O-wait rule counted the sleep
 * as I/O wait and on which file, and when it was switched in again.
 * Whether a waking came from a block completion is the pass's own
 * judgement (bp_note_waking), so the path and the report agree on what
 * was I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/build.h"
#include "analysis/critical-log.h"
#include "util/error.h"
#include "util/xalloc.h"

struct bp_critical_log *bp_critical_log_new(void)
{
	return xcalloc(1, sizeof(struct bp_critical_log));
}

static void log_release(struct bp_critical_log *L)
{
	size_t i;

	for (i = 0; i < L->ntasks; i++) {
		free(L->tasks[i].off);
		free(L->tasks[i].work);
	}
	free(L->tasks);
	bp_map_release(&L->wq_queued);
	free(L->wq);
	free(L->free_wq);
	free(L->reqs);
	free(L->flight);
	free(L->free_flight);
	bp_map_release(&L->inflight);
	free(L->remaps);
	free(L->free_remaps);
	bp_map_release(&L->remap_at);
	free(L->cpu_done);
	free(L->cpu_switched);
	bp_map_release(&L->unmet);
	free(L->unmet_wakes);
	bp_map_release(&L->requeues);
	free(L->rq_last);
	bp_map_release(&L->moved);
	free(L->moves);
	bp_map_release(&L->read_waits);
	bp_map_release(&L->rwsem_of);
	for (i = 0; i < L->nrwsems; i++)
		free(L->rwsems[i].grants);
	free(L->rwsems);
	for (i = 0; i < L->nexecs; i++)
		free(L->execs[i].path);
	free(L->execs);
	free(L->files);
	memset(L, 0, sizeof(*L));
}

void bp_critical_log_free(struct bp_critical_log *log)
{
	if (!log)
		return;
	log_release(log);
	free(log);
}

/* ---- recording, during the pass ---- */

/* A log is for one pass: what an earlier one left is dropped. */
void bp_crit_begin(struct state *s)
{
	struct bp_critical_log *L = s->crit;
	int i;

	log_release(L);
	L->ncpus = s->ncpus;
	L->cpu_done = xcalloc((size_t)s->ncpus, sizeof(*L->cpu_done));
	L->cpu_switched = xcalloc((size_t)s->ncpus, 1);
	for (i = 0; i < s->ncpus; i++)
		L->cpu_done[i].issuer = NONE;
}

/*
 * Whether the recording names wakers: sched_waking seen by now (it comes
 * before the sched_wakeup of the same waking). Then sched_wakeup is
 * ignored: it says nothing more.
 */
static int has_waking(const struct state *s)
{
	return s->kind_count[EV_WAKING] > 0;
}

/* The log's task ti, grown to it. */
static struct crit_task *ctask(struct bp_critical_log *L, uint32_t ti)
{
	if (ti >= L->ntasks) {
		size_t i;

		BP_GROW(L->tasks, ti, L->ctasks);
		memset(&L->tasks[L->ntasks], 0, (ti + 1 - L->ntasks) * sizeof(*L->tasks));
		for (i = L->ntasks; i <= ti; i++) {
			L->tasks[i].parent = NONE;
			L->tasks[i].done.issuer = NONE;
			L->tasks[i].futex_op = -1;
		}
		L->ntasks = ti + 1;
	}
	return &L->tasks[ti];
}

static struct crit_off *off_new(struct crit_task *t, uint64_t out, int how)
{
	struct crit_off *o;

	BP_GROW(t->off, t->noff, t->coff);
	o = &t->off[t->noff++];
	memset(o, 0, sizeof(*o));
	o->out = out;
	o->how = (uint8_t)how;
	o->waker = o->req = o->file = NONE;
	t->state = T_OFF;
	return o;
}

static struct crit_off *off_last(struct crit_task *t)
{
	return t->noff ? &t->off[t->noff - 1] : NULL;
}

static int cpu_ok(const struct bp_critical_log *L, int cpu)
{
	return cpu >= 0 && cpu < L->ncpus;
}

/* t, never met, runs on cpu at ts. */
static void met_running(struct bp_critical_log *L, struct crit_task *t, int cpu, uint64_t ts)
{
	if (t->state != T_UNMET)
		return;
	t->state = T_ON;
	t->met_ns = ts;
	t->since_start = cpu_ok(L, cpu) && !L->cpu_switched[cpu];
}

/* The task of the event's context, if the pass has met it (never added here). */
static uint32_t ctx_task(const struct state *s, const struct bp_event *ev)
{
	int pid = rd_int(s, ev, s->common_pid);
	uint64_t *slot;

	if (pid <= 0)
		return NONE;
	slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)pid, 0);
	return slot ? (uint32_t)*slot : NONE;
}

/*
 * lock:contention_begin of a sleeping rwsem (the recording keeps no
 * other): the task queued on it, for reading with LCB_F_READ alone.
 */
#define LCB_F_READ 2

void bp_crit_lock(struct state *s, uint32_t ti, uint64_t lock, unsigned flags)
{
	struct crit_task *t = ctask(s->crit, ti);

	t->lock = flags == LCB_F_READ ? lock : 0;
}

/* ti's last interval off a CPU is a reader's wait on the rwsem t->lock. */
static void read_wait(struct bp_critical_log *L, uint32_t ti, const struct crit_task *t)
{
	uint64_t *slot;
	int inserted;
	uint32_t i;

	slot = bp_map_put(&L->rwsem_of, t->lock, 0, &inserted);
	if (inserted) {
		BP_GROW(L->rwsems, L->nrwsems, L->crwsems);
		memset(&L->rwsems[L->nrwsems], 0, sizeof(*L->rwsems));
		*slot = L->nrwsems++;
	}
	i = (uint32_t)*slot;
	*bp_map_put(&L->read_waits, ti, t->noff - 1, NULL) = i;
}

/*
 * A reader queued on rwsem r is woken by w: the kernel grants the lock
 * to every queued reader it wakes (rwsem_mark_wake(), up to 256 at
 * once), so each waking is a grant; a waker's wakings in one run are
 * one batch, kept once.
 */
static void grant(struct bp_critical_log *L, struct crit_rwsem *r, const struct crit_wake *w)
{
	const struct crit_requeue *last = r->n ? &r->grants[r->n - 1] : NULL;

	if (last && last->task == w->waker &&
	    (w->waker == NONE || L->tasks[w->waker].last_on_ns < last->ns))
		return;
	BP_GROW(r->grants, r->n, r->c);
	r->grants[r->n].ns = w->ts;
	r->grants[r->n].task = w->waker;
	r->grants[r->n++].why = MOVED_RWSEM;
}

/* The first grant of r after ns, or NULL. */
static const struct crit_requeue *grant_after(const struct crit_rwsem *r, uint64_t ns)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->grants[mid].ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n ? &r->grants[lo] : NULL;
}

/* Sleep o of task ti: its hold-up ended at m, before its waking. */
static void moved(struct bp_critical_log *L, uint32_t ti, const struct crit_off *o,
		  const struct crit_requeue *m)
{
	uint64_t *slot = bp_map_put(&L->moved, ti, (uint64_t)(o - L->tasks[ti].off), NULL);

	BP_GROW(L->moves, L->nmoves, L->cmoves);
	L->moves[L->nmoves] = *m;
	*slot = L->nmoves++;
}

/*
 * A reader queued on an rwsem, woken by a task: readers never hold up
 * readers, so its wait was for the lock to turn reader-owned, at the
 * first grant since it queued (a writer's unlock waking the queued
 * readers). Woken later, by a reader (past the 256 of that grant, the
 * last of them to unlock, or one that queued while the lock was
 * reader-owned), its wait was on that grant's waker until then.
 */
static void note_read_wait(struct bp_critical_log *L, uint32_t ti, const struct crit_off *o,
			   const struct crit_wake *w)
{
	uint64_t *slot = bp_map_get(&L->read_waits, ti, (uint64_t)(o - L->tasks[ti].off));
	const struct crit_requeue *g;
	struct crit_rwsem *r;

	if (!slot)
		return;
	r = &L->rwsems[*slot];
	grant(L, r, w);
	if (w->by != BY_TASK)
		return;
	g = grant_after(r, o->out);
	if (g && g->ns < w->ts && g->task < L->ntasks && g->task != w->waker && g->task != ti)
		moved(L, ti, o, g);
}

void bp_crit_switch_out(struct state *s, uint32_t ti, int cpu, uint64_t ts, int how)
{
	struct bp_critical_log *L = s->crit;
	struct crit_task *t = ctask(L, ti);
	struct crit_off *o;

	met_running(L, t, cpu, ts);
	if (cpu_ok(L, cpu))
		L->cpu_switched[cpu] = 1;
	t->last_on_ns = ts;
	if (how == CRIT_DEAD) {
		t->state = T_DEAD;
		t->early = 0;
		return;
	}
	o = off_new(t, ts, how);
	/* Woken while still on its way to sleep: it never waited, it is runnable. */
	if (how == CRIT_PREEMPT || t->early)
		o->wake = ts;
	t->early = 0;
	if (how == CRIT_PREEMPT)
		return;   /* it may still go to sleep on the rwsem it queued on */
	if (t->lock && how == CRIT_SLEEP_D && !o->wake)
		read_wait(L, ti, t);
	t->lock = 0;
}

/* Keep the request of an I/O waking; its index in L->reqs. */
static uint32_t keep_req(struct bp_critical_log *L, const struct crit_req *rq)
{
	if (!rq->done_ns)
		return NONE;
	BP_GROW(L->reqs, L->nreqs, L->creqs);
	L->reqs[L->nreqs] = *rq;
	return (uint32_t)L->nreqs++;
}

/* o ends asleep at w: who made it runnable. */
static void off_woken(struct bp_critical_log *L, struct crit_off *o, const struct crit_wake *w)
{
	o->wake = w->ts ? w->ts : 1;
	o->by = w->by;
	o->irq = w->irq;
	o->waker = w->waker;
	o->req = keep_req(L, &w->rq);
}

/*
 * What a waking says: only sched_waking names the waker (it is traced in
 * the waker's context). by: the pass's word on whether a block
 * completion woke it (bp_note_waking): in an interrupt, that is I/O; in
 * process context the waker is a task (a worker finishing the request,
 * a reader passing the page on), which the walk follows unless the
 * I/O-wait rule counts the sleep as I/O wait. The request is kept when
 * it is known, for that case.
 */
static void describe(const struct state *s, const struct bp_event *ev, int kind, int by,
		     struct crit_wake *w)
{
	struct bp_critical_log *L = s->crit;
	int irq = bp_in_irq(s, ev);
	uint32_t waker;

	memset(w, 0, sizeof(*w));
	w->ts = ev->ts;
	w->irq = (uint8_t)irq;
	w->waker = NONE;
	w->rq.issuer = NONE;
	if (kind != EV_WAKING) {
		w->by = BY_UNKNOWN;
		return;
	}
	if (irq) {
		w->by = by ? BY_IO : BY_IRQ;
		if (by && cpu_ok(L, ev->cpu))
			w->rq = L->cpu_done[ev->cpu];
		return;
	}
	waker = ctx_task(s, ev);
	if (waker == NONE) {
		w->by = BY_IRQ;   /* the idle task */
		return;
	}
	w->by = BY_TASK;
	w->waker = waker;
	if (by == COMPLETED_ONE && waker < L->ntasks)
		w->rq = L->tasks[waker].done;
}

/* futex(2) commands (linux/futex.h), the op without its flags */
#define FUTEX_CMD(op) ((op) & 127)
enum {
	FX_WAIT = 0, FX_REQUEUE = 3, FX_CMP_REQUEUE = 4, FX_WAIT_BITSET = 9,
	FX_WAIT_REQUEUE_PI = 11, FX_CMP_REQUEUE_PI = 12,
};

static int futex_waits(int op)
{
	return op >= 0 && (FUTEX_CMD(op) == FX_WAIT || FUTEX_CMD(op) == FX_WAIT_BITSET ||
			   FUTEX_CMD(op) == FX_WAIT_REQUEUE_PI);
}

static int futex_requeues(int op)
{
	return op >= 0 && (FUTEX_CMD(op) == FX_REQUEUE || FUTEX_CMD(op) == FX_CMP_REQUEUE ||
			   FUTEX_CMD(op) == FX_CMP_REQUEUE_PI);
}

/*
 * A syscall boundary: the futex call ti is in, and a requeue, which moves
 * the waiters of uaddr onto another futex: whoever wakes them there later
 * ended a wait that, up to the requeue, was on the requeuer.
 */
void bp_crit_futex(struct state *s, const struct bp_event *ev, uint32_t ti, uint64_t uaddr,
		   int op)
{
	struct bp_critical_log *L = s->crit;
	struct crit_task *t = ctask(L, ti);
	uint64_t *slot;
	int inserted;

	t->lock = 0;   /* a syscall boundary: no longer on its way to an rwsem wait */
	t->futex = op >= 0 ? uaddr : 0;
	t->futex_op = (int8_t)(op >= 0 ? FUTEX_CMD(op) : -1);
	if (!futex_requeues(op) || !uaddr)
		return;
	slot = bp_map_put(&L->requeues, uaddr, 0, &inserted);
	if (inserted) {
		BP_GROW(L->rq_last, L->nrq_last, L->crq_last);
		*slot = L->nrq_last++;
	}
	L->rq_last[*slot].ns = ev->ts;
	L->rq_last[*slot].task = ti;
	L->rq_last[*slot].why = MOVED_REQUEUE;
}

/*
 * o of task ti, in a futex wait, was woken by another task: when a
 * requeue of its futex by a third task came during the sleep (and the
 * waker did not wake that futex itself), the wait was moved, and was on
 * the requeuer until then. The requeue is matched by address here; the
 * walk checks that requeuer and sleeper are one process.
 */
static void note_requeued(struct bp_critical_log *L, uint32_t ti, const struct crit_off *o,
			  const struct crit_wake *w)
{
	const struct crit_task *t = &L->tasks[ti], *waker;
	const struct crit_requeue *r;
	uint64_t *slot;

	if (!futex_waits(t->futex_op) || !t->futex || w->waker >= L->ntasks)
		return;
	waker = &L->tasks[w->waker];
	if (waker->futex_op >= 0 && waker->futex == t->futex)
		return;   /* woken on that futex itself */
	slot = bp_map_get(&L->requeues, t->futex, 0);
	if (!slot)
		return;
	r = &L->rq_last[*slot];
	if (r->ns <= o->out || r->ns > w->ts || r->task == w->waker || r->task == ti)
		return;
	moved(L, ti, o, r);
}

void bp_crit_waking(struct state *s, const struct bp_event *ev, int kind, uint32_t ti, int by)
{
	struct bp_critical_log *L = s->crit;
	struct crit_wake w;
	struct crit_task *t;
	struct crit_off *o;

	if (kind != EV_WAKING && has_waking(s))
		return;
	describe(s, ev, kind, by, &w);
	t = ctask(L, ti);
	switch (t->state) {
	case T_ON:
		t->early = 1;
		return;
	case T_UNMET:
		/* Asleep since before the recording. */
		o = off_new(t, 0, CRIT_SLEEP_S);
		break;
	case T_OFF:
		o = off_last(t);
		if (o->wake)
			return;
		break;
	default:
		return;
	}
	off_woken(L, o, &w);
	note_read_wait(L, ti, o, &w);
	if (w.by == BY_TASK)
		note_requeued(L, ti, o, &w);
}

void bp_crit_waking_unmet(struct state *s, const struct bp_event *ev, int kind, int tid)
{
	struct bp_critical_log *L = s->crit;
	uint64_t *slot;
	int inserted;

	if (kind != EV_WAKING && has_waking(s))
		return;
	slot = bp_map_put(&L->unmet, (uint64_t)(uint32_t)tid, 0, &inserted);
	if (!inserted)
		return;
	BP_GROW(L->unmet_wakes, L->nunmet, L->cunmet);
	describe(s, ev, kind, bp_completion_waking_peek(s, ev), &L->unmet_wakes[L->nunmet]);
	*slot = L->nunmet++;
}

/*
 * ti runs on cpu from ts: switched in, or found running (an event in its
 * context without its switch: @found).
 */
void bp_crit_switch_in(struct state *s, uint32_t ti, int cpu, uint64_t ts, int found)
{
	struct bp_critical_log *L = s->crit;
	struct crit_task *t = ctask(L, ti);
	struct crit_off *o = NULL;
	uint64_t *slot = NULL;
	int was = t->state;

	if (found && was == T_UNMET) {
		met_running(L, t, cpu, ts);
		return;
	}
	if (cpu_ok(L, cpu))
		L->cpu_switched[cpu] = 1;
	switch (was) {
	case T_ON:
		return;
	case T_OFF:
		o = off_last(t);
		break;
	default:
		/*
		 * First met now, off since before the recording (or a tid
		 * that died and runs again: off since it died). A waking of
		 * it before the pass met it says who woke it.
		 */
		o = off_new(t, was == T_DEAD ? t->last_on_ns : 0, CRIT_SLEEP_S);
		if (was == T_UNMET)
			slot = bp_map_get(&L->unmet, (uint64_t)(uint32_t)s->tasks[ti].tid, 0);
		if (slot && L->unmet_wakes[*slot].ts <= ts) {
			off_woken(L, o, &L->unmet_wakes[*slot]);
			bp_map_del(&L->unmet, (uint64_t)(uint32_t)s->tasks[ti].tid, 0);
		}
		break;
	}
	if (!o->wake) {
		o->wake = ts;
		o->by = BY_UNKNOWN;
	}
	o->in = ts;
	t->state = T_ON;
	t->early = 0;
}

void bp_crit_sleep_judged(struct state *s, const struct task *task, int io, uint32_t file)
{
	struct crit_task *t = ctask(s->crit, (uint32_t)(task - s->tasks));
	struct crit_off *o = off_last(t);

	if (t->state != T_OFF || !o || o->how != CRIT_SLEEP_D || o->in)
		return;
	o->io = io ? JUDGED_IO : JUDGED_OTHER;
	o->file = io ? file : NONE;
}

void bp_crit_asleep_at_start(struct state *s, uint32_t ti, uint64_t ts)
{
	struct crit_task *t = ctask(s->crit, ti);

	(void)ts;   /* asleep since before the recording: out 0 */
	if (t->state == T_UNMET)
		off_new(t, 0, CRIT_SLEEP_D);
}

void bp_crit_fork(struct state *s, uint32_t parent, uint32_t child, int cpu, uint64_t ts)
{
	struct bp_critical_log *L = s->crit;
	struct crit_task *c;
	struct crit_off *o;

	if (parent != NONE)
		met_running(L, ctask(L, parent), cpu, ts);
	c = ctask(L, child);   /* after the parent: may move the array */
	c->fork_ns = ts;
	c->parent = parent;
	o = off_new(c, ts, CRIT_FORK);
	o->wake = ts;
}

void bp_crit_exit(struct state *s, uint32_t ti, uint64_t ts)
{
	ctask(s->crit, ti)->exit_ns = ts;
}

void bp_crit_exec(struct state *s, uint32_t ti, uint64_t ts, const char *path)
{
	struct bp_critical_log *L = s->crit;

	BP_GROW(L->execs, L->nexecs, L->cexecs);
	L->execs[L->nexecs].task = ti;
	L->execs[L->nexecs].ts = ts;
	L->execs[L->nexecs++].path = xstrdup(path);
}

/* A free entry of a pool (arr, n entries, cap) with a free list: its index. */
#define POOL_TAKE(arr, n, cap, free_list, nfree) \
	((nfree) ? (free_list)[--(nfree)] : (BP_GROW(arr, n, cap), (uint32_t)(n)++))

static struct crit_bio *bio_push(struct bp_critical_log *L)
{
	struct crit_bio *b = &L->bios[L->bio_head++ % BIO_RING];

	memset(b, 0, sizeof(*b));
	return b;
}

/* The newest bio of the ring on dev covering sector, not in a request yet; NULL when none. */
static const struct crit_bio *bio_find(const struct bp_critical_log *L, uint32_t dev,
				       uint64_t sector)
{
	unsigned k;

	for (k = 1; k <= BIO_RING && k <= L->bio_head; k++) {
		const struct crit_bio *b = &L->bios[(L->bio_head - k) % BIO_RING];

		if (b->dev == dev && !b->used && sector >= b->sector &&
		    sector < b->sector + (b->sectors ? b->sectors : 1))
			return b;
	}
	return NULL;
}

/* Take the remap still to be queued at (dev, sector) into *out; 0 when there is none. */
static int remap_take(struct bp_critical_log *L, uint32_t dev, uint64_t sector,
		      struct crit_bio *out)
{
	uint64_t *slot = bp_map_get(&L->remap_at, dev, sector);
	uint32_t i;

	if (!slot)
		return 0;
	i = (uint32_t)*slot;
	*out = L->remaps[i];
	bp_map_del(&L->remap_at, dev, sector);
	BP_GROW(L->free_remaps, L->nfree_remaps, L->cfree_remaps);
	L->free_remaps[L->nfree_remaps++] = i;
	return 1;
}

void bp_crit_bio(struct state *s, uint32_t ti, uint32_t dev, uint64_t sector, uint32_t sectors,
		 uint32_t file)
{
	struct bp_critical_log *L = s->crit;
	struct crit_bio r, *b;

	/* The queue of a bio remapped here: the remap said who and what. */
	if (remap_take(L, dev, sector, &r)) {
		*bio_push(L) = r;
		return;
	}
	b = bio_push(L);
	b->dev = dev;
	b->sector = sector;
	b->sectors = sectors;
	b->task = ti;
	b->file = file;
}

/*
 * A bio remapped from (old_dev, old_sector) to (dev, sector). When the
 * upper bio was queued (a stacked device), or remapped itself (a stacked
 * device on a partition), the lower one is its: the same queuer and
 * file, even when a worker remaps it (dm-crypt) or a throttle holds the
 * lower one; else (a partition) it is the remapping task's. Through
 * several layers the top device is kept.
 */
void bp_crit_bio_remap(struct state *s, uint32_t ti, uint32_t dev, uint64_t sector,
		       uint32_t sectors, uint32_t old_dev, uint64_t old_sector, uint32_t file)
{
	struct bp_critical_log *L = s->crit;
	const struct crit_bio *u;
	struct crit_bio up, *b;
	uint64_t *slot;
	int added;

	if (remap_take(L, old_dev, old_sector, &up))
		u = &up;
	else
		u = bio_find(L, old_dev, old_sector);
	slot = bp_map_put(&L->remap_at, dev, sector, &added);
	/* An earlier remap there never queued: this one instead. */
	if (added)
		*slot = POOL_TAKE(L->remaps, L->nremaps, L->cremaps, L->free_remaps,
				  L->nfree_remaps);
	b = &L->remaps[*slot];
	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->sector = sector;
	b->sectors = sectors;
	b->task = ti;
	b->file = file;
	b->upper_dev = old_dev;
	b->upper_sector = old_sector;
	if (!u)
		return;
	b->task = u->task;
	if (u->file != NONE || u->upper_dev)
		b->file = u->file;
	if (u->upper_dev) {
		b->upper_dev = u->upper_dev;
		b->upper_sector = u->upper_sector + (old_sector - u->sector);
	}
}

static int by_sector(const void *pa, const void *pb)
{
	const struct crit_bio *a = *(const struct crit_bio *const *)pa;
	const struct crit_bio *b = *(const struct crit_bio *const *)pb;

	return (a->sector > b->sector) - (a->sector < b->sector);
}

/*
 * The bios of a request issued on (dev, sector, sectors): those of the
 * ring on dev inside it, not in a request yet. Who queued the newest
 * (of any, for a request issued again) names the issuer; the first in sector order the upper device's
 * sector; their files, in sector order, what the request carried.
 */
static void rq_bios(struct bp_critical_log *L, struct crit_req *rq)
{
	struct crit_bio *in[BIO_RING], *newest = NULL;
	uint32_t seen[BIO_RING];
	size_t n = 0, i, j;
	unsigned k;

	for (k = 1; k <= BIO_RING && k <= L->bio_head; k++) {
		struct crit_bio *b = &L->bios[(L->bio_head - k) % BIO_RING];

		if (b->dev != rq->dev || b->sector < rq->sector ||
		    b->sector >= rq->sector + rq->sectors)
			continue;
		if (!newest)
			newest = b;
		if (!b->used)
			in[n++] = b;
	}
	/* Issued again (requeued): its bios were used, their queuer is still who it is for. */
	if (newest)
		rq->issuer = n ? in[0]->task : newest->task;
	if (!n)
		return;
	qsort(in, n, sizeof(*in), by_sector);
	if (in[0]->upper_dev && in[0]->upper_sector >= in[0]->sector - rq->sector) {
		rq->upper_dev = in[0]->upper_dev;
		rq->upper_sector = in[0]->upper_sector - (in[0]->sector - rq->sector);
	}
	for (i = 0; i < n; i++) {
		uint32_t f = in[i]->file;

		in[i]->used = 1;
		for (j = 0; j < rq->nfiles && seen[j] != f; j++)
			;
		if (f == NONE || j < rq->nfiles)
			continue;
		seen[rq->nfiles] = f;
		if (rq->nfiles < BP_CRIT_RQ_FILES)
			rq->files[rq->nfiles] = f;
		rq->nfiles++;
	}
}

void bp_crit_rq_issue(struct state *s, const struct bp_event *ev, const struct task *t,
		      uint32_t dev, uint64_t sector, uint32_t sectors)
{
	struct bp_critical_log *L = s->crit;
	struct crit_req *rq;
	uint64_t *slot;

	if (!sectors)
		return;   /* a flush: no data, wakes no reader */
	slot = bp_map_put(&L->inflight, dev, sector, NULL);
	*slot = POOL_TAKE(L->flight, L->nflight, L->cflight, L->free_flight, L->nfree);
	rq = &L->flight[*slot];
	memset(rq, 0, sizeof(*rq));
	rq->dev = dev;
	rq->sector = sector;
	rq->sectors = sectors;
	rq->issue_ns = ev->ts;
	/* Who queued its first bio, else in whose context it went to the disk. */
	rq->issuer = t && !bp_in_irq(s, ev) ? (uint32_t)(t - s->tasks) : NONE;
	rq_bios(L, rq);
}

void bp_crit_rq_complete(struct state *s, const struct bp_event *ev, uint32_t dev,
			 uint64_t sector, uint32_t sectors)
{
	struct bp_critical_log *L = s->crit;
	uint64_t *slot = bp_map_get(&L->inflight, dev, sector);
	struct crit_req rq = { .dev = dev, .sectors = sectors, .sector = sector, .issuer = NONE };
	uint32_t ti;

	if (slot) {
		uint32_t i = (uint32_t)*slot;

		rq = L->flight[i];
		bp_map_del(&L->inflight, dev, sector);
		BP_GROW(L->free_flight, L->nfree, L->cfree);
		L->free_flight[L->nfree++] = i;
	}
	rq.done_ns = ev->ts;
	if (bp_in_irq(s, ev)) {
		if (cpu_ok(L, ev->cpu))
			L->cpu_done[ev->cpu] = rq;
		return;
	}
	ti = ctx_task(s, ev);
	if (ti != NONE)
		ctask(L, ti)->done = rq;
}

/*
 * A work item queued: by the task in whose context (process context), or
 * by an interrupt. Kept until a kworker starts it. The kernel traces only
 * a work that was not pending, so one already kept was cancelled (or its
 * start lost): the new queuing replaces it.
 */
void bp_on_wq_queue(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	struct bp_critical_log *L = s->crit;
	uint64_t *slot;
	uint32_t i;
	int fresh;

	if (!L)
		return;
	slot = bp_map_put(&L->wq_queued, rd(s, ev, h->f[0]), 0, &fresh);
	if (!fresh) {
		i = (uint32_t)*slot;
	} else if (L->nfree_wq) {
		i = L->free_wq[--L->nfree_wq];
	} else {
		BP_GROW(L->wq, L->nwq, L->cwq);
		i = (uint32_t)L->nwq++;
	}
	*slot = i;
	L->wq[i].queued = ev->ts;
	L->wq[i].queuer = bp_in_irq(s, ev) ? NONE : ctx_task(s, ev);
}

/* A kworker starts a work item: it runs for whoever queued it. */
void bp_on_wq_start(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	struct bp_critical_log *L = s->crit;
	uint64_t work, *slot;
	uint32_t ti, i;
	struct crit_task *t;
	struct crit_work *w;

	if (!L)
		return;
	work = rd(s, ev, h->f[0]);
	slot = bp_map_get(&L->wq_queued, work, 0);
	ti = ctx_task(s, ev);
	if (!slot)
		return;
	i = (uint32_t)*slot;
	bp_map_del(&L->wq_queued, work, 0);
	BP_GROW(L->free_wq, L->nfree_wq, L->cfree_wq);
	L->free_wq[L->nfree_wq++] = i;
	if (ti == NONE || bp_in_irq(s, ev))
		return;
	t = ctask(L, ti);
	BP_GROW(t->work, t->nwork, t->cwork);
	w = &t->work[t->nwork++];
	*w = L->wq[i];
	w->start = ev->ts;
}

void bp_crit_finish(struct state *s)
{
	struct bp_critical_log *L = s->crit;
	size_t i;

	if (s->ntasks)
		ctask(L, (uint32_t)(s->ntasks - 1));
	for (i = 0; i < s->ntasks; i++) {
		struct crit_task *t = &L->tasks[i];

		t->tid = s->tasks[i].tid;
		memcpy(t->comm, s->tasks[i].comm, sizeof(t->comm));
		t->recorder = s->tasks[i].recorder;
		if (t->state == T_ON)
			t->last_on_ns = s->last_ts;
	}
	L->files = xcalloc(s->nfiles ? s->nfiles : 1, sizeof(*L->files));
	for (i = 0; i < s->nfiles; i++) {
		L->files[i].dev = s->files[i].dev;
		L->files[i].ino = s->files[i].ino;
	}
	L->nfiles = s->nfiles;
	L->first_ns = s->first_ts;
	L->last_ns = s->last_ts;
	L->has_waking = has_waking(s);
}

/* ---- the walk, after the pass ---- */

static const char *const state_names[BP_CRIT_NSTATES] = {
	"cpu", "runq", "io", "interrupt", "other-dsleep", "task", "unknown",
};
static const char *const state_titles[BP_CRIT_NSTATES] = {
	"CPU", "run-queue", "I/O", "interrupt", "other D-sleep", "waiting on task", "unknown",
};

const char *bp_crit_state_name(enum bp_crit_state st)
{
	return (unsigned)st < BP_CRIT_NSTATES ? state_names[st] : "?";
}

const char *bp_crit_state_title(enum bp_crit_state st)
{
	return (unsigned)st < BP_CRIT_NSTATES ? state_titles[st] : "?";
}

/* A sleep the walk went around: the sleeper, asleep since. */
struct handoff {
	uint32_t sleeper;
	uint64_t since;
};

/*
 * A wait a futex requeue moved: once back at the requeue (ns), the walk
 * goes on from the requeuer, with the sleeps it went around and the fork
 * it was inside of as they were when it took that wait.
 */
struct redirect {
	const struct crit_off *o;   /* the moved wait */
	uint32_t sleeper, requeuer;
	uint64_t ns;
	int why;                    /* MOVED_* */
	size_t nhandoffs;
	uint32_t gate, gate_kid;
	uint64_t gate_ns;
};

struct walk {
	const struct bp_critical_log *L;
	const struct bp_model *m;
	struct bp_crit_segment *segs;   /* newest first while walking */
	size_t nsegs, csegs;
	uint32_t *seg_task;             /* the log's task of each segment */
	size_t cseg_task;
	struct bp_crit_wait *waits;     /* newest first while walking */
	size_t nwaits, cwaits;
	struct handoff *handoffs;       /* the sleeps the walk is inside of, latest last */
	size_t nhandoffs, chandoffs;
	struct redirect *redirects;     /* the moved waits the walk is inside of, latest last */
	size_t nredirects, credirects;
	/* Children's exits: of parent task p, kids[kid_at[p] .. kid_at[p + 1]), by exit time */
	uint32_t *kid_at, *kids;
};

/* kthreadd: the kernel's threads are its children, made on request. */
#define KTHREADD 2

/*
 * A process's exit its parent task is told of (SIGCHLD): the last thread
 * of a process it forked. Not a kernel thread's: kthreadd and the kernel
 * threads it made (a kworker running a user-mode helper) fork on request
 * and are told of nothing.
 */
static int exit_to_parent(const struct walk *w, const struct crit_task *t)
{
	const struct crit_task *parent;
	const struct bp_thread *th;

	if (!t->exit_ns || !t->fork_ns || t->parent >= w->L->ntasks || t->recorder)
		return 0;
	parent = &w->L->tasks[t->parent];
	if (parent->tid <= 0 || parent->tid == KTHREADD ||
	    (parent->parent < w->L->ntasks && w->L->tasks[parent->parent].tid == KTHREADD))
		return 0;
	th = bp_model_find_thread(w->m, t->tid, t->fork_ns);
	return th && th->process && th->process->pid == t->tid &&
	       th->process->exit_ns == t->exit_ns;
}

static int by_parent_exit(const void *pa, const void *pb, void *arg)
{
	const struct bp_critical_log *L = arg;
	const struct crit_task *a = &L->tasks[*(const uint32_t *)pa];
	const struct crit_task *b = &L->tasks[*(const uint32_t *)pb];

	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	return (a->exit_ns > b->exit_ns) - (a->exit_ns < b->exit_ns);
}

/* Index the children's exits by parent (w->kid_at, w->kids). */
static void index_exits(struct walk *w)
{
	const struct bp_critical_log *L = w->L;
	size_t i, n = 0;

	w->kids = xcalloc(L->ntasks ? L->ntasks : 1, sizeof(*w->kids));
	w->kid_at = xcalloc(L->ntasks + 1, sizeof(*w->kid_at));
	for (i = 0; i < L->ntasks; i++) {
		if (exit_to_parent(w, &L->tasks[i]))
			w->kids[n++] = (uint32_t)i;
	}
	qsort_r(w->kids, n, sizeof(*w->kids), by_parent_exit, (void *)L);
	for (i = 0; i < n; i++)
		w->kid_at[L->tasks[w->kids[i]].parent + 1]++;
	for (i = 0; i < L->ntasks; i++)
		w->kid_at[i + 1] += w->kid_at[i];
}

/* The last exit of a child of p in (a, b), NONE when none. */
static uint32_t kid_exit(const struct walk *w, uint32_t p, uint64_t a, uint64_t b)
{
	uint32_t i, found = NONE;

	for (i = w->kid_at[p]; i < w->kid_at[p + 1]; i++) {
		uint64_t x = w->L->tasks[w->kids[i]].exit_ns;

		if (x >= b)
			break;
		if (x > a)
			found = w->kids[i];
	}
	return found;
}

static void name_task(const struct walk *w, uint32_t ti, uint64_t at, struct bp_crit_task *out)
{
	const struct crit_task *t = &w->L->tasks[ti];
	const struct bp_thread *th;

	memset(out, 0, sizeof(*out));
	out->tid = out->pid = t->tid;
	memcpy(out->comm, t->comm, sizeof(out->comm));
	out->comm[sizeof(out->comm) - 1] = 0;
	th = t->recorder ? NULL : bp_model_find_thread(w->m, t->tid, t->fork_ns ? t->fork_ns : at);
	if (th && th->process)
		out->pid = th->process->pid;
}

static char *file_path(const struct walk *w, uint32_t dev, uint64_t ino)
{
	const struct bp_file *f = bp_model_find_file(w->m, dev, ino);

	if (f && f->path)
		return xstrdup(f->path);
	return xasprintf("[unresolved %u:%u:%llu]", BP_DEV_MAJOR(dev), BP_DEV_MINOR(dev),
			 (unsigned long long)ino);
}

/* A new segment [a, b) of task ti, before the ones already walked. */
static struct bp_crit_segment *push(struct walk *w, uint32_t ti, enum bp_crit_state st,
				    uint64_t a, uint64_t b)
{
	struct bp_crit_segment *g;

	if (w->nsegs) {
		g = &w->segs[w->nsegs - 1];
		/* Runs of one state on one task are one segment (I/O: one per request). */
		if (w->seg_task[w->nsegs - 1] == ti && g->state == st && st != BP_CRIT_IO &&
		    g->start_ns == b && g->reason == BP_CRIT_WHY_NONE) {
			g->start_ns = a;
			return NULL;
		}
	}
	BP_GROW(w->segs, w->nsegs, w->csegs);
	BP_GROW(w->seg_task, w->nsegs, w->cseg_task);
	g = &w->segs[w->nsegs];
	memset(g, 0, sizeof(*g));
	g->start_ns = a;
	g->end_ns = b;
	g->state = st;
	name_task(w, ti, a, &g->task);
	w->seg_task[w->nsegs++] = ti;
	return g;
}

/* [a, b) of task ti that the recording cannot explain, and why. */
static void push_unknown(struct walk *w, uint32_t ti, uint64_t a, uint64_t b,
			 enum bp_crit_reason why)
{
	struct bp_crit_segment *g = push(w, ti, BP_CRIT_UNKNOWN, a, b);

	if (g)
		g->reason = why;
}

/* A sleep the walk does not go around, [a, b) of o: what ended it. */
static void push_sleep(struct walk *w, uint32_t ti, const struct crit_off *o, uint64_t a,
		       uint64_t b)
{
	int d = o->how == CRIT_SLEEP_D;
	struct bp_crit_segment *g;
	enum bp_crit_state st;
	enum bp_crit_reason why = BP_CRIT_WHY_NONE;
	size_t k;

	if (o->io == JUDGED_IO || (d && !o->io && o->by == BY_IO))
		st = BP_CRIT_IO;
	else if (!o->wake)
		st = d ? BP_CRIT_OTHER_DSLEEP : BP_CRIT_UNKNOWN, why = BP_CRIT_WHY_AT_END;
	else if (o->by == BY_TASK)
		st = BP_CRIT_TASK_WAIT;
	else if (o->by == BY_IRQ || o->by == BY_IO)
		st = d ? BP_CRIT_OTHER_DSLEEP : BP_CRIT_INTERRUPT,
		why = o->irq & IRQ_HARD ? BP_CRIT_WHY_HARDIRQ :
		      o->irq & IRQ_SOFT ? BP_CRIT_WHY_SOFTIRQ :
		      o->irq ? BP_CRIT_WHY_HARDIRQ : BP_CRIT_WHY_IDLE;
	else
		st = d ? BP_CRIT_OTHER_DSLEEP : BP_CRIT_UNKNOWN,
		why = !o->out && w->L->has_waking ? BP_CRIT_WHY_NOT_SEEN : BP_CRIT_WHY_NO_WAKER;
	if (b <= a)
		return;
	g = push(w, ti, st, a, b);
	if (!g)
		return;
	g->reason = why;
	g->uninterruptible = d;
	if (st == BP_CRIT_TASK_WAIT && o->waker < w->L->ntasks)
		name_task(w, o->waker, o->wake, &g->waker);
	if (st != BP_CRIT_IO)
		return;
	if (o->io == JUDGED_IO && o->file < w->L->nfiles) {
		g->dev = w->L->files[o->file].dev;
		g->ino = w->L->files[o->file].ino;
		g->path = file_path(w, g->dev, g->ino);
	}
	if (o->req < w->L->nreqs) {
		const struct crit_req *rq = &w->L->reqs[o->req];

		g->has_request = 1;
		g->request.dev = rq->dev;
		g->request.sector = rq->sector;
		g->request.sectors = rq->sectors;
		g->request.issue_ns = rq->issue_ns;
		g->request.done_ns = rq->done_ns;
		if (rq->issuer < w->L->ntasks)
			name_task(w, rq->issuer, rq->issue_ns, &g->request.issuer);
		g->request.upper_dev = rq->upper_dev;
		g->request.upper_sector = rq->upper_sector;
		g->request.nfiles = rq->nfiles;
		for (k = 0; k < rq->nfiles && k < BP_CRIT_RQ_FILES; k++) {
			struct bp_crit_rq_file *rf = &g->request.files[k];
			const struct crit_file *cf;

			if (rq->files[k] >= w->L->nfiles)
				continue;
			cf = &w->L->files[rq->files[k]];
			rf->dev = cf->dev;
			rf->ino = cf->ino;
			rf->path = file_path(w, cf->dev, cf->ino);
		}
	}
}

/* sleeper's sleep o, over [a, b) a wait on waker (BP_CRIT_VIA_*: see bp_crit_wait). */
static void push_wait(struct walk *w, uint32_t sleeper, const struct crit_off *o,
		      uint32_t waker, uint64_t a, uint64_t b, int via)
{
	struct bp_crit_wait *k;

	BP_GROW(w->waits, w->nwaits, w->cwaits);
	k = &w->waits[w->nwaits++];
	memset(k, 0, sizeof(*k));
	name_task(w, sleeper, o->out, &k->sleeper);
	name_task(w, waker, b, &k->waker);
	k->start_ns = a;
	k->end_ns = b;
	k->uninterruptible = o->how == CRIT_SLEEP_D;
	k->via = via;
}

/*
 * Where the hold-up of sleep k of task ti ended before its waking: a
 * requeue (by a thread of its process: futex addresses are per process)
 * or an rwsem's grant.
 */
static const struct crit_requeue *moved_by(const struct walk *w, uint32_t ti, long k)
{
	const struct bp_critical_log *L = w->L;
	const struct crit_requeue *r;
	const struct bp_thread *a, *b;
	uint64_t *slot = bp_map_get(&L->moved, ti, (uint64_t)k);

	if (!slot)
		return NULL;
	r = &L->moves[*slot];
	if (r->why == MOVED_RWSEM)
		return r;
	a = bp_model_find_thread(w->m, L->tasks[ti].tid, r->ns);
	b = bp_model_find_thread(w->m, L->tasks[r->task].tid, r->ns);
	return a && b && a->process && a->process == b->process ? r : NULL;
}

long bp_crit_off_before(const struct crit_task *t, uint64_t ts)
{
	size_t lo = 0, hi = t->noff;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->off[mid].out < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

#define MAX_U64 UINT64_MAX

/* A sleep only time passing ended (a timer, an interrupt that was not a completion). */
static int passive(const struct crit_off *o)
{
	return o->io != JUDGED_IO &&
	       (o->by == BY_IRQ || (o->by == BY_IO && o->how != CRIT_SLEEP_D));
}

/*
 * The work item task cur (a kworker) was running at t, when it started
 * within its run [a, t) and another task queued it inside the recording;
 * else NULL (the walk goes on as for any task).
 */
static const struct crit_work *work_for(const struct bp_critical_log *L,
					const struct crit_task *ct, uint32_t cur, uint64_t a,
					uint64_t t)
{
	size_t lo = 0, hi = ct->nwork;
	const struct crit_work *wk;

	/* The last work started before t. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ct->work[mid].start < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	wk = &ct->work[lo - 1];
	if (wk->start < a || wk->queuer >= L->ntasks || wk->queuer == cur ||
	    wk->queued < L->first_ns || wk->queued >= wk->start)
		return NULL;
	return wk;
}

/*
 * A kworker running a work item since a (its run began there) runs for
 * whoever queued it: the item's own run is CPU, and before it the item
 * waited for its worker (busy with other items, or asleep), run-queue
 * from its queuing; the walk goes on with the queuer there. 0 when *cur
 * ran no such item at *t.
 */
static int follow_work(struct walk *w, uint32_t *cur, uint64_t *t, uint64_t a, uint64_t floor)
{
	const struct crit_work *wk = work_for(w->L, &w->L->tasks[*cur], *cur, a, *t);
	uint64_t queued;

	if (!wk)
		return 0;
	/* No further back than the walk may go (a moved wait's hold-up: see walk_back()). */
	queued = wk->queued > floor ? wk->queued : floor;
	push(w, *cur, BP_CRIT_CPU, wk->start, *t);
	if (queued < wk->start)
		push(w, *cur, BP_CRIT_RUNQ, queued, wk->start);
	*t = queued;
	*cur = wk->queuer;
	return 1;
}

/*
 * From task cur at time t back to the recording's start: each step adds
 * the segment that ends at t and moves t back to its start, or moves to
 * another task at the same t (its waker, its parent).
 *
 * A waker followed back into a sleep of its own that only time ended (a
 * timer) and that began before the sleeper it woke fell asleep is cut
 * there: what it did before was not for that sleeper, which was running
 * until then; the path goes on with the sleeper. (A daemon's polling
 * loop would otherwise fill the path with its timers.)
 */
static void walk_back(struct walk *w, uint32_t cur, uint64_t t)
{
	const struct bp_critical_log *L = w->L;
	uint64_t start, a;
	size_t steps = 0, limit = 64 + 2 * L->ntasks, i, still = 0;
	uint32_t gate = NONE, gate_kid = NONE;
	uint64_t gate_ns = 0;

	/*
	 * Time only goes back: each interval off a CPU gives at most its
	 * sleep, its run-queue delay, the run before it and one jump (two
	 * for a moved wait); each work item a kworker ran, one more.
	 */
	for (i = 0; i < L->ntasks; i++)
		limit += 5 * L->tasks[i].noff + L->tasks[i].nwork;
	for (;;) {
		const struct crit_task *ct;
		const struct crit_off *o;
		const struct crit_requeue *mv;
		struct redirect *rd;
		uint64_t in, wake;
		long k;

		/* Inside a moved wait, the walk goes no further back than its requeue. */
		start = w->nredirects ? w->redirects[w->nredirects - 1].ns : L->first_ns;
		if (t <= start) {
			if (!w->nredirects)
				break;
			/* Back at the requeue: the wait was on the requeuer until then. */
			rd = &w->redirects[--w->nredirects];
			push_wait(w, rd->sleeper, rd->o, rd->requeuer, rd->o->out, rd->ns,
				  rd->why == MOVED_REQUEUE ? BP_CRIT_VIA_REQUEUE : BP_CRIT_VIA_RWSEM);
			w->nhandoffs = rd->nhandoffs;
			gate = rd->gate;
			gate_kid = rd->gate_kid;
			gate_ns = rd->gate_ns;
			cur = rd->requeuer;
			still++;
			continue;
		}
		ct = &L->tasks[cur];
		if (++steps > limit || still > L->ntasks + 1) {
			/* Wakeups in a circle: only lost events make one. */
			push_unknown(w, cur, start, t, BP_CRIT_WHY_LOOP);
			return;
		}
		while (w->nhandoffs && w->handoffs[w->nhandoffs - 1].since >= t)
			w->nhandoffs--;   /* passed: the walk went on before that sleep */
		if (cur == gate && t <= gate_ns) {
			cur = gate_kid;   /* back at the exit the fork waited for */
			gate = NONE;
			continue;
		}
		k = bp_crit_off_before(ct, t);
		if (k < 0) {
			if (ct->fork_ns && ct->parent < L->ntasks) {
				/*
				 * Created by a fork: its parent made it, once its
				 * last child before had ended (a service manager
				 * starting the unit ordered after that one's, a
				 * shell its next command): the path is the
				 * parent's own time back to that exit, then the
				 * child's.
				 */
				cur = ct->parent;
				gate_kid = kid_exit(w, cur, start, t);
				gate = gate_kid != NONE ? cur : NONE;
				gate_ns = gate != NONE ? L->tasks[gate_kid].exit_ns : 0;
				still++;
				continue;
			}
			if (ct->fork_ns) {
				/* Forked by the kernel itself (pid 0): no task before it. */
				push_unknown(w, cur, start, t, BP_CRIT_WHY_KERNEL);
				t = start;
				continue;
			}
			/* Met running: it ran since then, or since the start. */
			a = ct->since_start || ct->met_ns < start ? start : ct->met_ns;
			if (a < t && follow_work(w, &cur, &t, a, start))
				continue;
			if (a < t)
				push(w, cur, BP_CRIT_CPU, a, t);
			else
				a = t;
			if (a > start)
				push_unknown(w, cur, start, a, BP_CRIT_WHY_NOT_SEEN);
			t = start;
			continue;
		}
		still = 0;
		o = &ct->off[k];
		in = o->in ? o->in : MAX_U64;
		wake = o->wake ? o->wake : MAX_U64;   /* never after in */
		if (t > wake) {
			/* Running since it was switched in, runnable since it was woken. */
			a = t > in ? in : wake;
			a = a > start ? a : start;
			if (cur == gate && a < gate_ns)
				a = gate_ns;
			if (t > in && cur != gate && follow_work(w, &cur, &t, a, start))
				continue;
			push(w, cur, t > in ? BP_CRIT_CPU : BP_CRIT_RUNQ, a, t);
			t = a;
			continue;
		}
		/* Asleep over (out, t]. */
		if (cur == gate) {
			/* The parent's own time before a fork: no task it woke for. */
			a = o->out > gate_ns ? o->out : gate_ns;
			a = a > start ? a : start;
			push_sleep(w, cur, o, a, t);
			t = a;
			continue;
		}
		if (o->by == BY_TASK && o->io != JUDGED_IO && t == wake && o->waker < L->ntasks) {
			mv = moved_by(w, cur, k);
			push_wait(w, cur, o, o->waker, mv ? mv->ns : o->out, o->wake, 0);
			BP_GROW(w->handoffs, w->nhandoffs, w->chandoffs);
			w->handoffs[w->nhandoffs].sleeper = cur;
			w->handoffs[w->nhandoffs++].since = o->out;
			if (mv && mv->ns > start) {
				BP_GROW(w->redirects, w->nredirects, w->credirects);
				rd = &w->redirects[w->nredirects++];
				rd->o = o;
				rd->sleeper = cur;
				rd->requeuer = mv->task;
				rd->ns = mv->ns;
				rd->why = mv->why;
				rd->nhandoffs = w->nhandoffs;
				rd->gate = gate;
				rd->gate_kid = gate_kid;
				rd->gate_ns = gate_ns;
			}
			cur = o->waker;
			still++;
			continue;
		}
		a = o->out > start ? o->out : start;
		if (passive(o) && w->nhandoffs && w->handoffs[w->nhandoffs - 1].since > a) {
			const struct handoff *h = &w->handoffs[--w->nhandoffs];

			push_sleep(w, cur, o, h->since, t);
			t = h->since;
			cur = h->sleeper;
			continue;
		}
		push_sleep(w, cur, o, a, t);
		t = a;
	}
}

static int by_io(const void *pa, const void *pb)
{
	const struct bp_crit_file *a = pa, *b = pb;
	int c;

	if (!a->path != !b->path)
		return a->path ? -1 : 1;   /* no file known: last */
	if (a->io_ns != b->io_ns)
		return a->io_ns > b->io_ns ? -1 : 1;
	c = a->path ? strcmp(a->path, b->path) : 0;
	if (c)
		return c;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (a->ino > b->ino) - (a->ino < b->ino);
}

/* Reverse n elements of size bytes in place (the walk finds them newest first). */
static void *reverse(void *arr, size_t n, size_t size)
{
	unsigned char *a = arr, *b, *tmp = xmalloc(size);
	size_t i;

	for (i = 0; i < n / 2; i++) {
		b = a + (n - 1 - i) * size;
		memcpy(tmp, a + i * size, size);
		memcpy(a + i * size, b, size);
		memcpy(b, tmp, size);
	}
	free(tmp);
	return arr;
}

/* The segments in time order, the totals per state and per file. */
static void sum_up(struct walk *w, struct bp_critical_path *p)
{
	struct bp_map by_file;   /* (dev, ino) -> index in p->files */
	size_t i;

	bp_map_init(&by_file);
	p->segments = reverse(w->segs, w->nsegs, sizeof(*w->segs));
	p->nsegments = w->nsegs;
	p->waits = reverse(w->waits, w->nwaits, sizeof(*w->waits));
	p->nwaits = w->nwaits;
	for (i = 0; i < p->nsegments; i++) {
		const struct bp_crit_segment *g = &p->segments[i];
		struct bp_crit_file *f;
		uint64_t *slot;
		int added;

		p->state_ns[g->state] += g->end_ns - g->start_ns;
		if (g->state != BP_CRIT_IO)
			continue;
		slot = bp_map_put(&by_file, g->dev, g->ino, &added);
		if (added) {
			p->files = xrealloc(p->files, (p->nfiles + 1) * sizeof(*p->files));
			*slot = p->nfiles;
			f = &p->files[p->nfiles++];
			memset(f, 0, sizeof(*f));
			f->dev = g->dev;
			f->ino = g->ino;
			f->path = g->path ? xstrdup(g->path) : NULL;
		}
		f = &p->files[*slot];
		f->io_ns += g->end_ns - g->start_ns;
		f->segments++;
	}
	bp_map_release(&by_file);
	if (p->nfiles)
		qsort(p->files, p->nfiles, sizeof(*p->files), by_io);
	for (i = 0; i < p->nfiles; i++) {
		if (p->files[i].path) {
			p->pack_files++;
			p->pack_ns += p->files[i].io_ns;
		}
	}
}

struct bp_critical_path *bp_critical_walk(const struct bp_critical_log *log,
					  const struct bp_model *m, const struct bp_crit_end *end)
{
	struct bp_critical_path *p = xcalloc(1, sizeof(*p));
	struct walk w = { .L = log, .m = m };
	uint32_t ti;

	p->start_ns = log->first_ns;
	p->wakers_known = log->has_waking;
	if (!log->ntasks) {
		bp_set_error("the recording has no task switches (sched:sched_switch)");
		free(p);
		return NULL;
	}
	if (bp_crit_end_resolve(log, m, end, p, &ti)) {
		free(p);
		return NULL;
	}
	name_task(&w, ti, p->end_ns, &p->end_task);
	index_exits(&w);
	walk_back(&w, ti, p->end_ns);
	free(w.seg_task);
	free(w.handoffs);
	free(w.redirects);
	free(w.kid_at);
	free(w.kids);
	sum_up(&w, p);
	return p;
}

void bp_critical_path_free(struct bp_critical_path *p)
{
	size_t i, k;

	if (!p)
		return;
	for (i = 0; i < p->nsegments; i++) {
		free(p->segments[i].path);
		for (k = 0; k < p->segments[i].request.nfiles && k < BP_CRIT_RQ_FILES; k++)
			free(p->segments[i].request.files[k].path);
	}
	for (i = 0; i < p->nfiles; i++)
		free(p->files[i].path);
	free(p->end_on);
	free(p->end_by);
	free(p->segments);
	free(p->waits);
	free(p->files);
	free(p);
}
