// SPDX-License-Identifier: GPL-2.0
/*
 * The pack's view of the event stream: first use per file, last inserter
 * per page. Fields are looked up once per event id.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "replay/scan.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

enum { K_NONE, K_ACCESS, K_ADD };
/* Which access: what an I/O wait was for comes from a fault or a read. */
enum { A_MAP, A_FAULT, A_GET };

struct fld {
	int off, size;
};

struct scan_kind {
	int kind, access;
	struct fld dev, ino, index, last, order, pid;
};

/*
 * A task's last fault, its I/O wait in a read still waiting for its
 * pages, and the pages it inserted into one file since its last I/O wait
 * (the readahead a wait's requests carry).
 */
struct scan_task {
	uint32_t fault_dev;
	uint64_t fault_ino, fault_index, fault_ts;
	uint64_t wait_start, wait_ns;
	int waiting;
	uint32_t ins_dev;
	uint64_t ins_ino, ins_first, ins_last;
	int ins;                      /* inserted since the last wait */
	/* what was inserted before the wait a read has not got its pages for */
	int wait_ins;
	uint64_t wait_ins_first, wait_ins_last;
};

static struct fld field(struct tep_event *e, const char *name, const char *alt, int common)
{
	struct tep_format_field *f = common ? tep_find_common_field(e, name) : tep_find_field(e, name);
	struct fld r = { 0, 0 };

	if (!f && alt)
		f = tep_find_field(e, alt);
	if (!f || f->offset < 0 || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return r;
	r.off = f->offset;
	r.size = f->size;
	return r;
}

static int get(const struct bp_event *ev, struct fld f, uint64_t *v)
{
	if (!f.size || f.off + f.size > ev->size)
		return -1;
	*v = tep_read_number(ev->format->tep, (const char *)ev->data + f.off, f.size);
	return 0;
}

static const struct scan_kind *kind_of(struct bp_replay_scan *s, const struct bp_event *ev)
{
	struct tep_event *e = ev->format;
	struct scan_kind k = { K_NONE };
	uint64_t *slot;
	int inserted;

	slot = bp_map_put(&s->kinds, (uint64_t)(int64_t)ev->id, 0, &inserted);
	if (!inserted)
		return &s->k[*slot];
	if (e && e->system && e->name && !strcmp(e->system, "filemap")) {
		if (!strcmp(e->name, "mm_filemap_get_pages") || !strcmp(e->name, "mm_filemap_map_pages") ||
		    !strcmp(e->name, "mm_filemap_fault"))
			k.kind = K_ACCESS;
		else if (!strcmp(e->name, "mm_filemap_add_to_page_cache"))
			k.kind = K_ADD;
		k.access = !strcmp(e->name, "mm_filemap_get_pages") ? A_GET
			   : !strcmp(e->name, "mm_filemap_fault")   ? A_FAULT
								     : A_MAP;
		k.last = field(e, "last_index", NULL, 0);
		k.dev = field(e, "s_dev", NULL, 0);
		k.ino = field(e, "i_ino", NULL, 0);
		k.index = field(e, "index", "start_index", 0);
		k.order = field(e, "order", NULL, 0);
		k.pid = field(e, "common_pid", NULL, 1);
		if (!k.dev.size || !k.ino.size || !k.index.size)
			k.kind = K_NONE;
	}
	BP_GROW(s->k, s->nk, s->ck);
	s->k[s->nk] = k;
	slot = bp_map_get(&s->kinds, (uint64_t)(int64_t)ev->id, 0);
	*slot = s->nk++;
	return &s->k[*slot];
}

void bp_replay_scan_init(struct bp_replay_scan *s, uint64_t since_ns, uint64_t until_ns)
{
	memset(s, 0, sizeof(*s));
	s->since_ns = since_ns;
	s->until_ns = until_ns ? until_ns : UINT64_MAX;
	bp_map_init(&s->first_use);
	bp_map_init(&s->inserts);
	bp_map_init(&s->insert_ts);
	bp_map_init(&s->tasks);
	bp_map_init(&s->kinds);
}

void bp_replay_scan_release(struct bp_replay_scan *s)
{
	bp_map_release(&s->first_use);
	bp_map_release(&s->inserts);
	bp_map_release(&s->insert_ts);
	bp_map_release(&s->tasks);
	bp_map_release(&s->kinds);
	free(s->k);
	free(s->t);
	free(s->waits);
	s->k = NULL;
	s->t = NULL;
	s->waits = NULL;
}

static struct scan_task *task(struct bp_replay_scan *s, int tid)
{
	int inserted;
	uint64_t *slot = bp_map_put(&s->tasks, (uint64_t)(int64_t)tid, 0, &inserted);

	if (inserted) {
		BP_GROW(s->t, s->nt, s->ct);
		memset(&s->t[s->nt], 0, sizeof(s->t[s->nt]));
		*slot = s->nt++;
	}
	return &s->t[*slot];
}

static struct bp_replay_wait *add_wait(struct bp_replay_scan *s, int tid, uint32_t dev,
				       uint64_t ino, uint64_t first, uint64_t last,
				       uint64_t start_ns, uint64_t ns)
{
	struct bp_replay_wait *w;

	BP_GROW(s->waits, s->nwaits, s->cwaits);
	w = &s->waits[s->nwaits++];
	w->tid = tid;
	w->dev = dev;
	w->ino = ino;
	w->first = first;
	w->last = last < first ? first : last;
	w->start_ns = start_ns;
	w->ns = ns;
	w->inserted = 0;
	return w;
}

/* A wait's inserted pages, when they are of its file. */
static void wait_inserted(struct bp_replay_wait *w, int ins, uint32_t dev, uint64_t ino,
			  uint64_t first, uint64_t last)
{
	if (!ins || dev != w->dev || ino != w->ino)
		return;
	w->inserted = 1;
	w->ins_first = first;
	w->ins_last = last;
}

/* The task's pages inserted since its last wait, handed to this one. */
static int take_inserted(struct scan_task *t)
{
	int had = t->ins;

	t->ins = 0;
	return had;
}

void bp_replay_scan_span(void *arg, const struct bp_span *span)
{
	struct bp_replay_scan *s = arg;
	struct bp_replay_wait *w;
	struct scan_task *t;
	int ins;

	if (!s->want_waits || span->state != BP_SPAN_IO_WAIT || span->tid <= 0)
		return;
	t = task(s, span->tid);
	ins = take_inserted(t);
	if (span->cause == BP_CAUSE_FAULT) {
		/* The fault event came at its entry, before the wait. */
		if (t->fault_dev == span->dev && t->fault_ino == span->ino &&
		    t->fault_ts <= span->start_ns) {
			w = add_wait(s, span->tid, span->dev, span->ino, t->fault_index,
				     t->fault_index, span->start_ns, span->end_ns - span->start_ns);
			wait_inserted(w, ins, t->ins_dev, t->ins_ino, t->ins_first, t->ins_last);
		}
		return;
	}
	/*
	 * A read or an exec: the kernel reports the pages it got
	 * (mm_filemap_get_pages) once it has them, after the wait, and they
	 * name the file it waited for (the wait may be charged to another one
	 * when the reader inserted nothing itself: bp_span). Waits in other
	 * syscalls (open, getdents: metadata) are for no page of a file.
	 */
	if (span->cause != BP_CAUSE_READ && span->cause != BP_CAUSE_EXEC)
		return;
	t->waiting = 1;
	t->wait_start = span->start_ns;
	t->wait_ns = span->end_ns - span->start_ns;
	t->wait_ins = ins;
	t->wait_ins_first = t->ins_first;
	t->wait_ins_last = t->ins_last;
}

/* A task's access: remember its fault, or give its pending wait its pages. */
static void access_seen(struct bp_replay_scan *s, const struct scan_kind *k,
			const struct bp_event *ev, uint32_t dev, uint64_t ino, uint64_t index)
{
	struct bp_replay_wait *w;
	struct scan_task *t;
	uint64_t pid, last = index;

	if (k->access == A_MAP || get(ev, k->pid, &pid) || (int)pid <= 0)
		return;
	t = task(s, (int)pid);
	if (k->access == A_FAULT) {
		t->fault_dev = dev;
		t->fault_ino = ino;
		t->fault_index = index;
		t->fault_ts = ev->ts;
		return;
	}
	if (!t->waiting)
		return;
	if (k->last.size && get(ev, k->last, &last))
		last = index;
	w = add_wait(s, (int)pid, dev, ino, index, last, t->wait_start, t->wait_ns);
	wait_inserted(w, t->wait_ins, t->ins_dev, t->ins_ino, t->wait_ins_first, t->wait_ins_last);
	t->waiting = 0;
}

/* A task's insertion: the pages of one file it put in the cache since its last wait. */
static void insert_seen(struct bp_replay_scan *s, int pid, uint32_t dev, uint64_t ino,
			uint64_t first, uint64_t last)
{
	struct scan_task *t = task(s, pid);

	if (!t->ins || t->ins_dev != dev || t->ins_ino != ino) {
		/* Another file: the readahead of a wait is of the wait's own file. */
		t->ins = 1;
		t->ins_dev = dev;
		t->ins_ino = ino;
		t->ins_first = first;
		t->ins_last = last;
		return;
	}
	if (first < t->ins_first)
		t->ins_first = first;
	if (last > t->ins_last)
		t->ins_last = last;
}

void bp_replay_scan_event(void *arg, const struct bp_event *ev)
{
	struct bp_replay_scan *s = arg;
	const struct scan_kind *k;
	uint64_t dev, ino, index, pid = 0, order = 0, *slot, k1, k2, i;
	int inserted;

	if (!ev->format)
		return;
	k = kind_of(s, ev);
	if (k->kind == K_NONE || get(ev, k->dev, &dev) || get(ev, k->ino, &ino) ||
	    get(ev, k->index, &index))
		return;
	if (k->kind == K_ACCESS) {
		if (s->want_waits)
			access_seen(s, k, ev, (uint32_t)dev, ino, index);
		/* The first access at or after the window's start: the file's first use. */
		if (ev->ts < s->since_ns)
			return;
		slot = bp_map_put(&s->first_use, (uint32_t)dev, ino, &inserted);
		if (inserted)
			*slot = ev->ts + 1;
		return;
	}
	if ((!s->want_inserts && !s->want_waits) || get(ev, k->pid, &pid))
		return;
	if (k->order.size && (get(ev, k->order, &order) || order > 9))
		return;  /* larger than a PMD folio: not a page-cache insertion we know */
	if (s->want_waits && (int)pid > 0)
		insert_seen(s, (int)pid, (uint32_t)dev, ino, index, index + (1ull << order) - 1);
	if (!s->want_inserts)
		return;
	for (i = 0; i < (1ull << order); i++) {
		bp_replay_page_key((uint32_t)dev, ino, index + i, &k1, &k2);
		*bp_map_put(&s->inserts, k1, k2, NULL) = pid;
		if (s->want_waits)
			*bp_map_put(&s->insert_ts, k1, k2, NULL) = ev->ts;
	}
}
