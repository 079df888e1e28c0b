// SPDX-License-Identifier: GPL-2.0
/*
 * The pack's view of the event stream: first use per file, last inserter
 * per page. Fields are looked up once per event id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/syscalls.h"
#include "replay/preload.h"
#include "replay/scan.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

enum { K_NONE, K_ACCESS, K_ADD, K_DELETE, K_PRINT, K_SYS_ENTER, K_SYS_EXIT };
/* Which access: what an I/O wait was for comes from a fault or a read. */
enum { A_MAP, A_FAULT, A_GET };

struct fld {
	int off, size;
};

struct scan_kind {
	int kind, access;
	struct fld dev, ino, index, last, order, pid, id, ret;
	int buf_off;                  /* K_PRINT: where its text starts */
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
	/* want_history: a read syscall's pages, as its get_pages events name them */
	int in_read, rd_have, rd_mixed;
	uint32_t rd_dev;
	uint64_t rd_ino, rd_lo, rd_hi;
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
		else if (!strcmp(e->name, "mm_filemap_delete_from_page_cache"))
			k.kind = K_DELETE;
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
	} else if (e && e->system && e->name && !strcmp(e->system, "raw_syscalls") &&
		   (!strcmp(e->name, "sys_enter") || !strcmp(e->name, "sys_exit"))) {
		k.kind = !strcmp(e->name, "sys_enter") ? K_SYS_ENTER : K_SYS_EXIT;
		k.id = field(e, "id", NULL, 0);
		k.ret = field(e, "ret", NULL, 0);
		k.pid = field(e, "common_pid", NULL, 1);
		if (!k.id.size || !k.pid.size || (k.kind == K_SYS_EXIT && !k.ret.size))
			k.kind = K_NONE;
	} else if (e && e->system && e->name && !strcmp(e->system, "ftrace") &&
		   !strcmp(e->name, "print")) {
		struct tep_format_field *f = tep_find_field(e, "buf");

		k.pid = field(e, "common_pid", NULL, 1);
		if (f && f->offset > 0 && k.pid.size) {
			k.kind = K_PRINT;
			k.buf_off = f->offset;
		}
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
	free(s->hist);
	s->hist = NULL;
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
	if (k->access == A_GET && t->in_read) {
		uint64_t hi = index;

		if (k->last.size && (get(ev, k->last, &hi) || hi < index))
			hi = index;
		if (!t->rd_have) {
			t->rd_have = 1;
			t->rd_dev = dev;
			t->rd_ino = ino;
			t->rd_lo = index;
			t->rd_hi = hi;
		} else if (t->rd_dev == dev && t->rd_ino == ino) {
			t->rd_lo = index < t->rd_lo ? index : t->rd_lo;
			t->rd_hi = hi > t->rd_hi ? hi : t->rd_hi;
		} else {
			t->rd_mixed = 1;
		}
	}
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

static void add_hist(struct bp_replay_scan *s, const struct bp_event *ev, int kind, int tid,
		     uint32_t dev, uint64_t ino, uint64_t first, uint64_t n)
{
	struct bp_replay_pev *h = s->nhist ? &s->hist[s->nhist - 1] : NULL;

	/* Readahead inserts a batch page by page: one entry for the run. */
	if (h && h->kind == kind && kind == BP_PEV_INSERT && h->tid == tid && h->dev == dev &&
	    h->ino == ino && h->first + h->n == first) {
		h->n += n;
		return;
	}
	BP_GROW(s->hist, s->nhist, s->chist);
	h = &s->hist[s->nhist++];
	h->ts = ev->ts;
	h->kind = kind;
	h->tid = tid;
	h->dev = dev;
	h->ino = ino;
	h->first = first;
	h->n = n;
}

/*
 * A read syscall's end: the span of pages its mm_filemap_get_pages
 * events named on one file, and the bytes it returned (BP_PEV_READ; what
 * the events left out is worked out from them, see bp_replay_pev).
 */
static void syscall_seen(struct bp_replay_scan *s, const struct scan_kind *k,
			 const struct bp_event *ev)
{
	uint64_t pid, id, ret;
	struct scan_task *t;

	if (get(ev, k->pid, &pid) || (int)pid <= 0 || get(ev, k->id, &id))
		return;
	t = task(s, (int)pid);
	if (k->kind == K_SYS_ENTER) {
		int c = bp_syscall_class(s->arch, (long)id);

		t->in_read = c == BP_CAUSE_READ && !bp_syscall_copies(s->arch, (long)id) &&
			     !bp_syscall_prefetch(s->arch, (long)id);
		t->rd_have = t->rd_mixed = 0;
		return;
	}
	if (t->in_read && t->rd_have && !t->rd_mixed && !get(ev, k->ret, &ret) &&
	    (int64_t)ret > 0) {
		add_hist(s, ev, BP_PEV_READ, (int)pid, t->rd_dev, t->rd_ino, t->rd_lo,
			 t->rd_hi - t->rd_lo + 1);
		s->hist[s->nhist - 1].bytes = ret;
	}
	t->in_read = t->rd_have = 0;
}

/* "bootprof-replay request|resident MAJ:MIN INO FIRST+COUNT", the preloader's markers. */
static void marker(struct bp_replay_scan *s, const struct scan_kind *k, const struct bp_event *ev)
{
	char text[160], what[16];
	unsigned maj, min;
	unsigned long long ino, first, count;
	uint64_t pid;
	size_t n;

	if (k->buf_off >= ev->size || get(ev, k->pid, &pid))
		return;
	n = (size_t)(ev->size - k->buf_off);
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	memcpy(text, (const char *)ev->data + k->buf_off, n);
	text[n] = '\0';
	if (sscanf(text, BP_REPLAY_COMM " %15s %u:%u %llu %llu+%llu", what, &maj, &min, &ino,
		   &first, &count) != 6 || !count)
		return;
	if (!strcmp(what, "request"))
		add_hist(s, ev, BP_PEV_REQUEST, (int)pid, BP_DEV(maj, min), ino, first, count);
	else if (!strcmp(what, "resident"))
		add_hist(s, ev, BP_PEV_RESIDENT, (int)pid, BP_DEV(maj, min), ino, first, count);
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
	if (k->kind == K_PRINT) {
		if (s->want_history)
			marker(s, k, ev);
		return;
	}
	if (k->kind == K_SYS_ENTER || k->kind == K_SYS_EXIT) {
		if (s->want_history)
			syscall_seen(s, k, ev);
		return;
	}
	if (k->kind == K_NONE || get(ev, k->dev, &dev) || get(ev, k->ino, &ino) ||
	    get(ev, k->index, &index))
		return;
	if (k->kind == K_ACCESS) {
		if (s->want_waits)
			access_seen(s, k, ev, (uint32_t)dev, ino, index);
		if (s->want_history && !get(ev, k->pid, &pid)) {
			uint64_t last = index;

			if (k->last.size && (get(ev, k->last, &last) || last < index ||
					     last - index >= (1ull << 32)))
				last = index;
			add_hist(s, ev, k->access == A_MAP ? BP_PEV_MAP : BP_PEV_ACCESS, (int)pid,
				 (uint32_t)dev, ino, index, last - index + 1);
		}
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
	if (s->want_history)
		add_hist(s, ev, k->kind == K_DELETE ? BP_PEV_DELETE : BP_PEV_INSERT, (int)pid,
			 (uint32_t)dev, ino, index, 1ull << order);
	if (k->kind == K_DELETE)
		return;
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
