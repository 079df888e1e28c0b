// SPDX-License-Identifier: GPL-2.0
/*
 * Events -> model, in one streaming pass: the read loop, the handler
 * table (one handler per event, in tasks.c, pages.c) and the pass's
 * state. After the pass, assemble.c builds the model (see build.h).
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/build.h"
#include "analysis/focus.h"
#include "util/error.h"
#include "util/xalloc.h"

/* A string field (char[N] or __data_loc) copied into buf (NUL-terminated). */
void bp_rd_str(const struct state *s, const struct bp_event *ev, struct fld f, char *buf,
		   size_t len)
{
	const char *src;
	size_t n;

	buf[0] = 0;
	if (!f.size)
		return;
	if (f.dyn) {
		uint32_t loc = (uint32_t)rd(s, ev, f);
		size_t off = loc & 0xffff, l = loc >> 16;

		if (off > (size_t)ev->size || l > (size_t)ev->size - off)
			return;
		src = (const char *)ev->data + off;
		n = l;
	} else {
		src = (const char *)ev->data + f.off;
		n = f.size;
	}
	n = strnlen(src, n);
	if (n >= len)
		n = len - 1;
	memcpy(buf, src, n);
	buf[n] = 0;
}

static struct fld find_fld(struct tep_event *e, const char *name, const char *alt)
{
	struct tep_format_field *f = tep_find_field(e, name);
	struct fld r = { 0, 0, 0 };

	if (!f && alt)
		f = tep_find_field(e, alt);
	if (!f || f->offset < 0 || f->offset > 0xffff)
		return r;
	r.off = (uint16_t)f->offset;
	r.dyn = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
	if (r.dyn)
		r.size = 4;
	else if (f->flags & TEP_FIELD_IS_ARRAY || f->flags & TEP_FIELD_IS_STRING)
		r.size = (uint8_t)(f->size > 255 ? 255 : f->size);
	else
		r.size = (uint8_t)f->size;
	if (!r.dyn && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) &&
	    r.size != 1 && r.size != 2 && r.size != 4 && r.size != 8)
		r.size = 0;
	return r;
}

/* What the pass does with each event, as perf's builtin-sched tables it. */
struct kind_spec {
	const char *system, *name;
	uint8_t kind;
	bp_handler_fn on;
	const char *fields[NFIELDS][2]; /* name and an older kernel's name */
	uint8_t required;               /* fields that must exist */
};

static const struct kind_spec specs[] = {
	{ "sched", "sched_switch", EV_SWITCH, bp_on_switch,
	  { { "prev_pid" }, { "prev_state" }, { "next_pid" }, { "prev_comm" }, { "next_comm" } }, 3 },
	{ "sched", "sched_waking", EV_WAKING, bp_on_wake, { { "pid" }, { "target_cpu" } }, 1 },
	{ "sched", "sched_wakeup", EV_WAKEUP, bp_on_wake, { { "pid" }, { "target_cpu" } }, 1 },
	{ "sched", "sched_process_fork", EV_FORK, bp_on_fork,
	  { { "parent_pid" }, { "child_pid" }, { "child_comm" } }, 2 },
	{ "sched", "sched_process_exec", EV_EXEC, bp_on_exec,
	  { { "filename" }, { "pid" }, { "old_pid" } }, 3 },
	{ "sched", "sched_process_exit", EV_EXIT, bp_on_process_exit,
	  { { "pid" }, { "group_dead" }, { "comm" } }, 1 },
	{ "block", "block_rq_issue", EV_RQ_ISSUE, bp_on_rq_issue,
	  { { "dev" }, { "nr_sector" }, { "rwbs" }, { "sector" } }, 3 },
	{ "block", "block_rq_complete", EV_RQ_COMPLETE, bp_on_rq_complete,
	  { { "dev" }, { "nr_sector" }, { "rwbs" }, { "sector" } }, 4 },
	{ "block", "block_bio_queue", EV_BIO_QUEUE, bp_on_bio_queue,
	  { { "rwbs" }, { "nr_sector" }, { "dev" }, { "sector" } }, 1 },
	{ "block", "block_bio_remap", EV_BIO_REMAP, bp_on_bio_remap,
	  { { "dev" }, { "sector" }, { "nr_sector" }, { "old_dev" }, { "old_sector" }, { "rwbs" } },
	  5 },
	{ "filemap", "mm_filemap_add_to_page_cache", EV_ADD, bp_on_add,
	  { { "i_ino" }, { "index" }, { "s_dev" }, { "order" } }, 3 },
	{ "filemap", "mm_filemap_delete_from_page_cache", EV_DELETE, bp_on_delete,
	  { { "i_ino" }, { "index" }, { "s_dev" }, { "order" } }, 3 },
	{ "filemap", "mm_filemap_fault", EV_FAULT, bp_on_fault,
	  { { "i_ino" }, { "index" }, { "s_dev" } }, 3 },
	{ "filemap", "mm_filemap_get_pages", EV_GET_PAGES, bp_on_access,
	  { { "i_ino" }, { "index", "start_index" }, { "s_dev" }, { "last_index", "end_index" } }, 4 },
	{ "filemap", "mm_filemap_map_pages", EV_MAP_PAGES, bp_on_map_pages,
	  { { "i_ino" }, { "index", "start_index" }, { "s_dev" }, { "last_index", "end_index" } }, 4 },
	{ "readahead", "page_cache_sync_ra", EV_RA, bp_on_ra,
	  { { "i_ino" }, { "index" }, { "s_dev" } }, 3 },
	{ "readahead", "page_cache_async_ra", EV_RA, bp_on_ra,
	  { { "i_ino" }, { "index" }, { "s_dev" } }, 3 },
	{ "raw_syscalls", "sys_enter", EV_SYS_ENTER, bp_on_sys_enter, { { "id" }, { "args" } }, 1 },
	{ "raw_syscalls", "sys_exit", EV_SYS_EXIT, bp_on_sys_exit, { { "id" } }, 1 },
	{ "cgroup", "cgroup_attach_task", EV_CGROUP, bp_on_cgroup, { { "pid" }, { "dst_path" } }, 2 },
	{ "lock", "contention_begin", EV_LOCK, bp_on_lock, { { "lock_addr" }, { "flags" } }, 2 },
	{ "sched", "sched_stat_iowait", EV_STAT_IOWAIT, bp_on_stat_sleep, { { "pid" }, { "delay" } }, 2 },
	{ "sched", "sched_stat_blocked", EV_STAT_BLOCKED, bp_on_stat_sleep,
	  { { "pid" }, { "delay" } }, 2 },
	/* trace_marker lines: the command lines bootprof record wrote (capture/args.c) */
	{ "ftrace", "print", EV_PRINT, bp_on_print, { { "buf" } }, 0 },
	/* Which task queued the work a kworker runs: the critical path follows it */
	{ "workqueue", "workqueue_queue_work", EV_WQ_QUEUE, bp_on_wq_queue, { { "work" } }, 1 },
	{ "workqueue", "workqueue_execute_start", EV_WQ_START, bp_on_wq_start, { { "work" } }, 1 },
};

static void set_handler(struct state *s, const struct tep_event *e, const struct handler *hd)
{
	s->h[e->id] = *hd;
	s->kinds_seen |= 1u << hd->kind;
	if (!s->common_pid.size) {
		struct tep_format_field *cf = tep_find_common_field((struct tep_event *)e, "common_pid");

		if (cf && cf->size == 4 && cf->offset >= 0 && cf->offset < 0xffff) {
			s->common_pid.off = (uint16_t)cf->offset;
			s->common_pid.size = 4;
		}
		cf = tep_find_common_field((struct tep_event *)e, "common_flags");
		if (cf && cf->size == 1 && cf->offset >= 0 && cf->offset < 0xffff) {
			s->common_flags.off = (uint16_t)cf->offset;
			s->common_flags.size = 1;
		}
	}
}

/*
 * Per-syscall events (syscalls:sys_enter_openat ...) name their syscall:
 * its class is the handler's, so no syscall number table is needed.
 */
static void setup_syscall_handlers(struct state *s, struct tep_event **all)
{
	size_t i;

	for (i = 0; all && all[i]; i++) {
		struct tep_event *e = all[i];
		struct handler hd = { 0 };
		int enter;

		if (e->id < 0 || e->id >= s->nh || !e->system || !e->name ||
		    strcmp(e->system, "syscalls"))
			continue;
		if (!strncmp(e->name, "sys_enter_", 10))
			enter = 1;
		else if (!strncmp(e->name, "sys_exit_", 9))
			enter = 0;
		else
			continue;
		hd.kind = enter ? EV_SYS_ENTER : EV_SYS_EXIT;
		hd.on = enter ? bp_on_sys_enter : bp_on_sys_exit;
		hd.sys = (int16_t)bp_syscall_class_name(e->name + (enter ? 10 : 9));
		hd.copies = (uint8_t)bp_syscall_copies_name(e->name + (enter ? 10 : 9));
		hd.prefetch = (uint8_t)bp_syscall_prefetch_name(e->name + (enter ? 10 : 9));
		if (enter && hd.sys == BP_SYS_CLONE) {
			hd.f[F_SYS_ARGS] = find_fld(e, "clone_flags", NULL);
			if (hd.f[F_SYS_ARGS].size != 8)
				hd.f[F_SYS_ARGS].size = 0;
			else
				hd.need = (uint16_t)(hd.f[F_SYS_ARGS].off + 8);
		}
		set_handler(s, e, &hd);
	}
}

static void setup_handlers(struct state *s, int infer_iowait)
{
	struct tep_event **all = tep_list_events(s->tep, TEP_EVENT_SORT_ID);
	size_t i;
	int j, maxid = 0;
	struct tep_event *e;

	for (i = 0; all && all[i]; i++) {
		if (all[i]->id > maxid && all[i]->id < (1 << 20))
			maxid = all[i]->id;
	}
	s->nh = maxid + 1;
	s->h = xcalloc((size_t)s->nh, sizeof(*s->h));
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		const struct kind_spec *k = &specs[i];
		struct handler hd = { 0 };
		int ok = 1;

		if (infer_iowait && (k->kind == EV_STAT_IOWAIT || k->kind == EV_STAT_BLOCKED))
			continue;
		e = tep_find_event_by_name(s->tep, k->system, k->name);
		if (!e || e->id < 0 || e->id >= s->nh)
			continue;
		hd.kind = k->kind;
		hd.on = k->on;
		hd.sys = SYS_BY_ID;
		for (j = 0; j < NFIELDS && k->fields[j][0]; j++) {
			hd.f[j] = find_fld(e, k->fields[j][0], k->fields[j][1]);
			if (j < k->required && !hd.f[j].size)
				ok = 0;
			if (hd.f[j].size && hd.f[j].off + hd.f[j].size > hd.need)
				hd.need = (uint16_t)(hd.f[j].off + hd.f[j].size);
		}
		if (ok)
			set_handler(s, e, &hd);
	}
	setup_syscall_handlers(s, all);
}

static void consume(struct state *s, const struct bp_event *ev)
{
	const struct handler *h;

	if (ev->cpu >= 0 && ev->cpu < s->ncpus) {
		struct cpu_times *c = &s->cpu_times[ev->cpu];

		c->ring[c->head++ % CPU_RING] = ev->ts;
	}
	h = ev->id >= 0 && ev->id < s->nh ? &s->h[ev->id] : NULL;
	if (ev->size >= s->common_flags.off + 1)
		bp_note_event(s, ev, h && h->on ? h->kind : EV_NONE);
	if (!h)
		return;
	if (!h->on || ev->size < h->need || ev->size < s->common_pid.off + 4)
		return;
	s->kind_count[h->kind]++;
	h->on(s, ev, h);
}

/* Close what is still open at the end: waits, run slices, idle time, pages. */
static void finish_pass(struct state *s)
{
	uint64_t end = s->last_ts < s->until ? s->last_ts : s->until;
	struct bp_map_slot const *slot;
	size_t i;

	s->at_end = 1;
	bp_idle_flush(s, end);
	for (i = 0; i < s->ntasks; i++) {
		struct task *t = &s->tasks[i];

		bp_settle_end(s, t);
		if (t->waiting)
			bp_wait_end(s, t, t->woken && t->woken < end ? t->woken : end);
		if (t->running) {
			uint64_t a = t->run_start < s->since ? s->since : t->run_start;

			if (end > a)
				t->run_ns += end - a;
			t->running = 0;
		}
		bp_span_to(s, t, -1, end);
		if (t->recorder) {
			/* Left out of the model; only what it cost is kept. */
			if (!s->tot.recorder_tasks++ || t->start < s->tot.recorder_start_ns)
				s->tot.recorder_start_ns = t->start;
			s->tot.recorder_run_ns += t->run_ns;
			t->seen = 0;
		}
	}
	if (s->crit)
		bp_crit_finish(s);    /* after the waits: it keeps how each one ended */
	bp_requests_finish(s, end);   /* after the waits: they ask what is in flight */
	bp_idle_finish(s);   /* every wait has ended */
	for (i = 0; bp_map_next(&s->pages->map, &i, &slot);) {
		const struct bp_page_chunk *c = &s->pages->chunks[slot->value];

		if (c->pending) {
			struct efile *f = &s->files[slot->k1];

			f->mapped += (uint64_t)__builtin_popcountll(c->pending & c->mapped) * s->ps;
			f->never += (uint64_t)__builtin_popcountll(c->pending & ~c->mapped) * s->ps;
		}
	}
}

static void state_release(struct state *s)
{
	size_t i, j;

	free(s->h);
	for (i = 0; i < s->ntasks; i++) {
		for (j = 0; j < s->tasks[i].nexec; j++)
			free(s->tasks[i].exec[j].path);
		free(s->tasks[i].exec);
		free(s->tasks[i].args);
		free(s->tasks[i].pend);
		free(s->tasks[i].held);
	}
	free(s->tasks);
	bp_map_release(&s->tids);
	free(s->cpu_task);
	free(s->cpu_tid);
	free(s->cpu_idle);
	free(s->cpu_times);
	free(s->files);
	bp_map_release(&s->filemap);
	free(s->acc);
	bp_map_release(&s->accmap);
	if (s->pages) {
		bp_pages_release(s->pages);
		free(s->pages);
	}
	for (i = 0; i < s->ndisks; i++) {
		free(s->disks[i].name);
		free(s->disks[i].timeline);
	}
	free(s->disks);
	free(s->flight);
	bp_map_release(&s->rqs);
	bp_map_release(&s->devclass);
	for (i = 0; i < s->nexecs; i++)
		free(s->execs[i].path);
	free(s->execs);
	bp_map_release(&s->execmap);
	for (i = 0; i < s->ncgroups; i++)
		free(s->cgroups[i]);
	free(s->cgroups);
	bp_map_release(&s->cgroupmap);
	free(s->tl);
	free(s->idle_cand);
	free(s->io_waits);
}

static int state_init(struct state *s, struct tep_handle *tep, const struct bp_meta *meta,
		      const struct bp_window *w, const struct bp_build_hooks *hooks)
{
	int ps, i;
	size_t d;

	memset(s, 0, sizeof(*s));
	s->meta = meta;
	s->tep = tep;
	s->hooks = hooks;
	s->crit = hooks ? hooks->critical : NULL;
	if (!s->tep) {
		bp_set_error("the recording has no event formats");
		return -1;
	}
	s->since = w ? w->since_ns : 0;
	s->until = w && w->until_ns ? w->until_ns : UINT64_MAX;
	s->bucket = w && w->bucket_ns ? w->bucket_ns : DEFAULT_BUCKET_NS;
	/* The page cache's page, not the ring buffer's (page-size.c). */
	ps = (int)bp_page_size_of(s->tep);
	if (!ps)
		ps = tep_get_page_size(s->tep);
	s->ps = ps >= 1024 && ps <= (1 << 20) && !(ps & (ps - 1)) ? (unsigned)ps : 4096;
	s->swap = tep_is_file_bigendian(s->tep) != tep_is_local_bigendian(s->tep);
	s->arch = bp_arch_of(s->meta ? s->meta->machine : NULL);
	s->ncpus = s->meta && s->meta->ncpus > 0 ? s->meta->ncpus : tep_get_cpus(s->tep);
	if (s->ncpus <= 0 || s->ncpus > 65536)
		s->ncpus = 1;
	s->cpu_task = xmalloc((size_t)s->ncpus * sizeof(*s->cpu_task));
	s->cpu_tid = xmalloc((size_t)s->ncpus * sizeof(*s->cpu_tid));
	s->cpu_idle = xmalloc((size_t)s->ncpus);
	s->cpu_times = xcalloc((size_t)s->ncpus, sizeof(*s->cpu_times));
	for (i = 0; i < s->ncpus; i++) {
		s->cpu_task[i] = NONE;
		s->cpu_tid[i] = -1;
		s->cpu_idle[i] = -1;
	}
	s->pages = xcalloc(1, sizeof(*s->pages));
	for (d = 0; s->meta && d < s->meta->ndisks; d++) {
		const struct bp_disk *dk = &s->meta->disks[d];

		bp_disk_add(s, dk->dev, dk->name, dk->rotational, dk->size);
	}
	setup_handlers(s, w && w->infer_iowait);
	if (s->crit)
		bp_crit_begin(s);
	for (d = 0; s->meta && d < s->meta->ntasks; d++) {
		const struct bp_task_id *ti = &s->meta->tasks[d];

		uint32_t t;

		if (!(ti->flags & BP_TASK_RECORDER) || ti->tid <= 0)
			continue;
		t = bp_task_of(s, ti->tid);   /* may grow s->tasks: index first */
		s->tasks[t].recorder = 1;
	}
	return 0;
}

/* Where the pass reads its events: a recording, or an array (tests). */
struct source {
	struct bp_reader *reader;
	const struct bp_event *events;
	size_t n, next;
};

static int source_next(struct source *src, struct bp_event *ev)
{
	if (src->reader)
		return bp_reader_next(src->reader, ev);
	if (src->next >= src->n)
		return 0;
	*ev = src->events[src->next++];
	return 1;
}

static struct bp_model *build(struct source *src, struct tep_handle *tep,
			      const struct bp_meta *meta, const struct bp_window *window,
			      const struct bp_build_hooks *hooks)
{
	struct bp_focus_spans *focus = NULL;
	struct bp_build_hooks with_focus;
	struct state s;
	struct bp_event ev;
	struct bp_model *m;
	int rc;

	/* A command's recording: its tree's totals need the pass's waits. */
	if (meta && meta->command_pid > 0)
		focus = bp_focus_spans_new(hooks, &with_focus);
	if (state_init(&s, tep, meta, window, focus ? &with_focus : hooks) < 0 ||
	    (src->reader && bp_reader_rewind(src->reader) < 0)) {
		state_release(&s);
		bp_focus_spans_free(focus);
		return NULL;
	}
	while ((rc = source_next(src, &ev)) == 1) {
		if (!s.t0_set) {
			s.first_ts = ev.ts;
			s.t0 = s.since > ev.ts ? s.since : ev.ts;
			s.t0_set = 1;
			bp_tasks_asleep_at_start(&s, ev.ts);
		}
		s.tot.events_total++;
		if (in_window(&s, ev.ts)) {
			if (!s.tot.events++)
				s.tot.first_ns = ev.ts;
			s.tot.last_ns = ev.ts;
		}
		if (ev.ts > s.last_ts)
			s.last_ts = ev.ts;
		consume(&s, &ev);
		if (hooks && hooks->event)
			hooks->event(hooks->arg, &ev);
	}
	if (rc < 0) {
		state_release(&s);
		bp_focus_spans_free(focus);
		return NULL;
	}
	finish_pass(&s);
	m = bp_build_assemble(&s, src->reader);
	state_release(&s);
	if (m && focus)
		bp_focus_totals(m, focus);
	bp_focus_spans_free(focus);
	return m;
}

struct bp_model *bp_model_build(struct bp_reader *reader, const struct bp_window *window,
				const struct bp_build_hooks *hooks)
{
	struct source src = { .reader = reader };

	return build(&src, bp_reader_tep(reader), bp_reader_meta(reader), window, hooks);
}

struct bp_model *bp_model_build_events(struct tep_handle *tep, const struct bp_meta *meta,
				       const struct bp_event *events, size_t n,
				       const struct bp_window *window,
				       const struct bp_build_hooks *hooks)
{
	struct source src = { .events = events, .n = n };

	return build(&src, tep, meta, window, hooks);
}
