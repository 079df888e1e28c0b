// SPDX-License-Identifier: GPL-2.0
/*
 * After the pass: tasks grouped into processes, files, accesses, the
 * process tree, services, disks and totals copied into the model's final
 * arrays.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/build.h"
#include "util/error.h"
#include "util/words.h"
#include "util/xalloc.h"

static int is_thread(const struct task *t)
{
	switch (t->clone_kind) {
	case CK_THREAD:
		return 1;
	case CK_PROCESS:
		return 0;
	default:
		break;
	}
	if (t->group_dead >= 0)
		return !t->group_dead;
	return t->clone_kind == CK_CLONE3;
}

/*
 * Which task leads each task's thread group (see bp_process in model.h):
 * an exec names it exactly; then clone flags; then the exit's group_dead;
 * then clone3 without exec means a thread; else the task is its own process.
 */
static uint32_t *resolve_groups(struct state *s)
{
	uint32_t *up = xmalloc((s->ntasks + 1) * sizeof(*up));
	uint32_t *leader = xmalloc((s->ntasks + 1) * sizeof(*leader));
	size_t i;

	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];

		if (t->joined != NONE)
			up[i] = t->joined;
		else if (t->self_exec)
			up[i] = (uint32_t)i;
		else if (t->parent != NONE && is_thread(t))
			up[i] = t->parent;
		else if (t->parent == NONE && t->meta_leader != NONE)
			up[i] = t->meta_leader;
		else
			up[i] = (uint32_t)i;
	}
	for (i = 0; i < s->ntasks; i++) {
		uint32_t j = (uint32_t)i;
		int steps = 0;

		while (up[j] != j && steps++ < 1024)
			j = up[j];
		leader[i] = j;
	}
	free(up);
	return leader;
}

static void copy_header(struct bp_model *m, struct state *s, struct bp_reader *r)
{
	const struct bp_meta *mt = s->meta;
	struct bp_model_header *h = &m->header;
	const char *warn = r ? bp_reader_warnings(r) : NULL;
	size_t i;

#define DUP(x) ((x) ? xstrdup(x) : NULL)
	if (mt) {
		h->hostname = DUP(mt->hostname);
		h->kernel_release = DUP(mt->kernel_release);
		h->kernel_version = DUP(mt->kernel_version);
		h->machine = DUP(mt->machine);
		h->cmdline = DUP(mt->cmdline);
		h->clock = DUP(mt->clock);
		h->command = DUP(mt->command);
		h->command_pid = mt->command_pid > 0 ? mt->command_pid : 0;
		h->stop_reason = DUP(mt->stop_reason);
		h->bootprof_version = DUP(mt->bootprof_version);
		h->ncpus = mt->ncpus;
		h->start_ns = mt->start_ns;
		h->stop_ns = mt->stop_ns;
		h->recorder_cpu_ns = mt->recorder_cpu_ns;
		h->system_cpu_ns = mt->system_cpu_ns;
		h->fault_around_bytes = mt->fault_around_bytes;
		h->schedstats = mt->schedstats;
		h->schedstats_by = mt->schedstats_by;
		if (mt->nunavailable) {
			h->unavailable = xcalloc(mt->nunavailable, sizeof(char *));
			for (i = 0; i < mt->nunavailable; i++)
				h->unavailable[i] = xstrdup(mt->unavailable[i]);
			h->nunavailable = mt->nunavailable;
		}
	}
#undef DUP
	if (h->ncpus <= 0)
		h->ncpus = s->ncpus;
	h->page_size = s->ps;
	h->first_event_ns = s->first_ts;
	h->last_event_ns = s->last_ts;
	h->warnings = warn ? xstrdup(warn) : NULL;
}

/* 1: the recording has the event; 0: not recorded; -1: the kernel lacks it. */
static int recorded(const struct state *s, const char *name, int kind)
{
	char sys[64];
	const char *colon = strchr(name, ':');
	size_t i;

	if (s->meta && s->meta->nevents) {
		for (i = 0; i < s->meta->nunavailable; i++) {
			if (!strcmp(s->meta->unavailable[i], name))
				return -1;
		}
		for (i = 0; i < s->meta->nevents; i++) {
			if (!strcmp(s->meta->events[i], name))
				return 1;
		}
		return 0;
	}
	/*
	 * A trace-cmd file carries the formats of every event of the kernel,
	 * recorded or not: no format means the kernel lacks the event, no
	 * event of it means it was not recorded (or did not happen).
	 */
	if (!colon || (size_t)(colon - name) >= sizeof(sys))
		return 0;
	memcpy(sys, name, (size_t)(colon - name));
	sys[colon - name] = 0;
	if (!tep_find_event_by_name(s->tep, sys, colon + 1))
		return -1;
	return s->kind_count[kind] > 0;
}

struct needed {
	unsigned bit;
	const char *name;
	int kind;
	int any;   /* one event of the group suffices */
};

static const struct needed needed[] = {
	{ BP_MISSING_SCHED, "sched:sched_switch", EV_SWITCH, 0 },
	{ BP_MISSING_WAKEUP, "sched:sched_waking", EV_WAKING, 1 },
	{ BP_MISSING_WAKEUP, "sched:sched_wakeup", EV_WAKEUP, 1 },
	{ BP_MISSING_FORK, "sched:sched_process_fork", EV_FORK, 0 },
	{ BP_MISSING_SYSCALLS, "raw_syscalls:sys_enter", EV_SYS_ENTER, 1 },
	{ BP_MISSING_SYSCALLS, "syscalls:sys_enter_read", EV_SYS_ENTER, 1 },
	{ BP_MISSING_FILEMAP, "filemap:mm_filemap_add_to_page_cache", EV_ADD, 0 },
	{ BP_MISSING_ACCESS, "filemap:mm_filemap_get_pages", EV_GET_PAGES, 1 },
	{ BP_MISSING_ACCESS, "filemap:mm_filemap_map_pages", EV_MAP_PAGES, 1 },
	{ BP_MISSING_ACCESS, "filemap:mm_filemap_fault", EV_FAULT, 1 },
	{ BP_MISSING_DELETE, "filemap:mm_filemap_delete_from_page_cache", EV_DELETE, 0 },
	{ BP_MISSING_BLOCK, "block:block_rq_issue", EV_RQ_ISSUE, 0 },
	{ BP_MISSING_RQ_COMPLETE, "block:block_rq_complete", EV_RQ_COMPLETE, 0 },
};

/*
 * Which measurements the recording cannot make, and of those, which because
 * the kernel lacks the events (*kernel). In a group marked "any", one
 * recorded event is enough; the kernel lacks the group when it lacks all.
 */
static unsigned missing_flags(const struct state *s, unsigned *kernel)
{
	unsigned have = 0, seen = 0, lacks = 0, all_lack = ~0u, m = 0;
	size_t i;

	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		const struct needed *n = &needed[i];
		int r = recorded(s, n->name, n->kind);

		seen |= n->bit;
		if (r > 0)
			have |= n->bit;
		else if (!n->any)
			m |= n->bit;
		if (r < 0)
			lacks |= n->bit;
		else
			all_lack &= ~n->bit;
	}
	m |= seen & ~have;
	*kernel = m & lacks & all_lack;
	return m;
}

static int cmp_proc_order(const void *pa, const void *pb)
{
	const struct bp_process *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

static int cmp_thread_order(const void *pa, const void *pb)
{
	const struct bp_thread *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

static int cmp_file_order(const void *pa, const void *pb)
{
	const struct efile *a = *(struct efile *const *)pa, *b = *(struct efile *const *)pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (a->ino > b->ino) - (a->ino < b->ino);
}

static int cmp_reader(const void *pa, const void *pb)
{
	const struct bp_access *a = *(struct bp_access *const *)pa;
	const struct bp_access *b = *(struct bp_access *const *)pb;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->bytes_read != b->bytes_read)
		return a->bytes_read > b->bytes_read ? -1 : 1;
	if (a->process->pid != b->process->pid)
		return a->process->pid < b->process->pid ? -1 : 1;
	return (a->process->start_ns > b->process->start_ns) -
	       (a->process->start_ns < b->process->start_ns);
}

static int cmp_proc_file(const void *pa, const void *pb)
{
	const struct bp_access *a = *(struct bp_access *const *)pa;
	const struct bp_access *b = *(struct bp_access *const *)pb;
	int c;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->bytes_read != b->bytes_read)
		return a->bytes_read > b->bytes_read ? -1 : 1;
	c = strcmp(a->file->path, b->file->path);
	if (c)
		return c;
	return (a->file > b->file) - (a->file < b->file);
}

static int cmp_child(const void *pa, const void *pb)
{
	const struct bp_process *a = *(struct bp_process *const *)pa;
	const struct bp_process *b = *(struct bp_process *const *)pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int cmp_exec_rec(const void *pa, const void *pb)
{
	const struct exec_rec *a = pa, *b = pb;

	return (a->ts > b->ts) - (a->ts < b->ts);
}

/* The part of @p's execs running at @ns: the last exec at or before it, -1 before the first. */
static long exec_part_at(const struct bp_process *p, uint64_t ns)
{
	size_t lo = 0, hi = p->nexec;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->exec_part[mid].ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

static void charge_part(struct bp_process *p, long j, uint64_t wait_ns, uint64_t bytes)
{
	if (j < 0)
		return;
	p->exec_part[j].wait_ns += wait_ns;
	p->exec_part[j].bytes_read += bytes;
}

/*
 * Split @t's wait and bytes over @p's exec parts: at each of its own execs
 * (from the counters it had when the execve began), and what came before
 * its first one in the part its start falls in.
 */
static void charge_exec_parts(struct bp_process *p, const struct task *t)
{
	uint64_t wait = 0, bytes = 0;
	size_t k;

	if (!p->nexec)
		return;
	for (k = 0; k < t->nexec; k++) {
		const struct exec_rec *x = &t->exec[k];

		/* Counters only grow; a window clips them, never makes them smaller. */
		charge_part(p, k ? exec_part_at(p, t->exec[k - 1].ts) : exec_part_at(p, t->start),
			    x->wait0 - wait, x->bytes0 - bytes);
		wait = x->wait0;
		bytes = x->bytes0;
	}
	charge_part(p, t->nexec ? exec_part_at(p, t->exec[t->nexec - 1].ts) : exec_part_at(p, t->start),
		    t->wait_ns - wait, t->bytes - bytes);
}

/* Split escaped words into a vector; NULL when one is malformed. */
static char **split_words(const char *words, size_t *n)
{
	char *copy = xstrdup(words), *w, *save = NULL, **v = NULL;
	size_t cap = 0;

	*n = 0;
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (bp_word_unescape(w) < 0) {
			while (*n)
				free(v[--*n]);
			free(v);
			v = NULL;
			break;
		}
		BP_GROW(v, *n, cap);
		v[(*n)++] = xstrdup(w);
	}
	free(copy);
	return v;
}

/* Each process's command line: the latest marker among its tasks (see bp_on_print). */
static void set_argv(struct bp_model *m, const struct state *s, const uint32_t *proc_of_task)
{
	uint64_t *when = xcalloc(m->nprocesses + 1, sizeof(*when));
	const char **words = xcalloc(m->nprocesses + 1, sizeof(*words));
	size_t i;

	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];
		uint32_t pi = proc_of_task[i];

		if (pi != NONE && t->args && t->args_ts >= when[pi]) {
			when[pi] = t->args_ts;
			words[pi] = t->args;
		}
	}
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];

		if (words[i])
			p->argv = split_words(words[i], &p->nargv);
	}
	free(when);
	free(words);
}

/* Processes and threads from the tasks seen in the window. */
static uint32_t *build_processes(struct bp_model *m, struct state *s)
{
	uint32_t *leader = resolve_groups(s);
	uint32_t *proc_of_leader = xmalloc((s->ntasks + 1) * sizeof(*proc_of_leader));
	uint32_t *proc_of_task = xmalloc((s->ntasks + 1) * sizeof(*proc_of_task));
	size_t i, np = 0, nt = 0;

	for (i = 0; i < s->ntasks; i++)
		proc_of_leader[i] = NONE;
	for (i = 0; i < s->ntasks; i++) {
		if (s->tasks[i].seen && proc_of_leader[leader[i]] == NONE)
			proc_of_leader[leader[i]] = (uint32_t)np++;
		if (s->tasks[i].seen)
			nt++;
	}
	m->processes = xcalloc(np + 1, sizeof(*m->processes));
	m->nprocesses = np;
	m->threads = xcalloc(nt + 1, sizeof(*m->threads));
	/* Leaders first, in task order, so their fields seed the process. */
	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];
		struct bp_process *p;

		if (proc_of_leader[i] == NONE)
			continue;
		p = &m->processes[proc_of_leader[i]];
		p->pid = t->tid;
		memcpy(p->comm, t->comm, sizeof(p->comm));
		p->start_ns = t->start;
		p->exit_ns = t->exit;
		p->ppid = -1;     /* resolved below */
		p->tree_processes = t->parent;  /* parent task, until resolved */
		/* cgroup index + 1 until build_services() */
		p->service = (struct bp_service *)(uintptr_t)(t->cgroup == NONE ? 0 : t->cgroup + 1);
	}
	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];
		uint32_t pi = proc_of_leader[leader[i]];
		struct bp_process *p;
		struct bp_thread *th;
		int c;

		proc_of_task[i] = pi;
		if (pi == NONE || !t->seen)
			continue;
		p = &m->processes[pi];
		th = &m->threads[m->nthreads++];
		th->tid = t->tid;
		memcpy(th->comm, t->comm, sizeof(th->comm));
		th->start_ns = t->start;
		th->exit_ns = t->exit;
		th->wait_ns = t->wait_ns;
		th->other_wait_ns = t->other_ns;
		th->run_ns = t->run_ns;
		th->process = (struct bp_process *)(uintptr_t)pi;  /* index until sorted */
		p->wait_ns += t->wait_ns;
		for (c = 0; c < BP_NCAUSES; c++)
			p->wait_by_cause[c] += t->wait_cause_ns[c];
		p->wait_unknown_ns += t->wait_unknown_ns;
		p->other_wait_ns += t->other_ns;
		p->run_ns += t->run_ns;
		if (!p->service && t->cgroup != NONE)
			p->service = (struct bp_service *)(uintptr_t)(t->cgroup + 1);
		p->bytes_read += t->bytes;
		p->metadata_bytes += t->meta_bytes;
		if (!t->exit)
			p->exit_ns = UINT64_MAX;      /* a thread still runs */
		else if (p->exit_ns != UINT64_MAX && t->exit > p->exit_ns)
			p->exit_ns = t->exit;
		/* The exec'ing member names the process. */
		if (t->nexec && t->comm[0] && (uint32_t)i != leader[i])
			memcpy(p->comm, t->comm, sizeof(p->comm));
		p->nthreads++;
	}
	/* Exec history of all members, in time order. */
	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];
		struct bp_process *p;
		size_t j;

		if (proc_of_task[i] == NONE || !t->nexec)
			continue;
		p = &m->processes[proc_of_task[i]];
		p->exec = xrealloc(p->exec, (p->nexec + t->nexec) * sizeof(char *));
		for (j = 0; j < t->nexec; j++)
			p->exec[p->nexec++] = (char *)&t->exec[j]; /* records until sorted */
	}
	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i];
		struct exec_rec *tmp;
		size_t j;

		if (p->exit_ns == UINT64_MAX)
			p->exit_ns = 0;
		if (!p->nexec)
			continue;
		tmp = xmalloc(p->nexec * sizeof(*tmp));
		for (j = 0; j < p->nexec; j++)
			tmp[j] = *(struct exec_rec *)p->exec[j];
		qsort(tmp, p->nexec, sizeof(*tmp), cmp_exec_rec);
		p->first_exec_ns = tmp[0].ts;
		p->service_exec = p->nexec;
		p->exec_part = xcalloc(p->nexec, sizeof(*p->exec_part));
		for (j = 0; j < p->nexec; j++) {
			p->exec[j] = xstrdup(tmp[j].path);
			p->exec_part[j].ns = tmp[j].ts;
			if (tmp[j].ts < s->since)
				p->exec_window = j + 1;
			/* p->service still holds its cgroup index + 1 */
			if (p->service_exec == p->nexec && tmp[j].cgroup != NONE &&
			    (uintptr_t)p->service == (uintptr_t)tmp[j].cgroup + 1) {
				p->service_exec = j;
				p->service_exec_ns = tmp[j].ts;
			}
		}
		free(tmp);
	}
	for (i = 0; i < s->ntasks; i++) {
		if (proc_of_task[i] != NONE && s->tasks[i].seen)
			charge_exec_parts(&m->processes[proc_of_task[i]], &s->tasks[i]);
	}
	set_argv(m, s, proc_of_task);
	free(leader);
	free(proc_of_leader);
	return proc_of_task;
}

/*
 * Sort processes and threads into their final order and turn the indices
 * parked in pointer fields into pointers. Returns old index -> new index.
 */
static uint32_t *order_processes(struct bp_model *m, struct state *s, uint32_t *proc_of_task)
{
	size_t np = m->nprocesses, i;
	uint32_t *newpos = xmalloc((np + 1) * sizeof(*newpos));
	struct bp_process *sorted;
	size_t *key = xmalloc((np + 1) * sizeof(*key));

	/* Remember each process's old index in a field qsort carries along. */
	for (i = 0; i < np; i++) {
		key[i] = m->processes[i].tree_processes;        /* parent task */
		m->processes[i].tree_processes = i;
	}
	sorted = m->processes;
	qsort(sorted, np, sizeof(*sorted), cmp_proc_order);
	for (i = 0; i < np; i++)
		newpos[sorted[i].tree_processes] = (uint32_t)i;
	for (i = 0; i < np; i++) {
		struct bp_process *p = &sorted[i];
		size_t parent_task = key[p->tree_processes];
		uint32_t pp = parent_task == NONE ? NONE : proc_of_task[parent_task];

		p->tree_processes = 0;
		if (pp != NONE && newpos[pp] != i) {
			p->parent = &sorted[newpos[pp]];
			p->ppid = p->parent->pid;
		} else {
			p->parent = NULL;
			p->ppid = parent_task == NONE ? 0 : s->tasks[parent_task].tid;
		}
	}
	for (i = 0; i < m->nthreads; i++) {
		struct bp_thread *th = &m->threads[i];

		th->process = &sorted[newpos[(uintptr_t)th->process]];
	}
	qsort(m->threads, m->nthreads, sizeof(*m->threads), cmp_thread_order);
	for (i = 0; i < np; i++) {
		sorted[i].threads = xcalloc(sorted[i].nthreads + 1, sizeof(struct bp_thread *));
		sorted[i].nthreads = 0;
	}
	for (i = 0; i < m->nthreads; i++) {
		struct bp_process *p = m->threads[i].process;

		p->threads[p->nthreads++] = &m->threads[i];
	}
	free(key);
	return newpos;
}

static char *file_path(const struct state *s, const struct efile *f)
{
	const char *p;

	if (f->kind == BP_FILE_METADATA)
		return xasprintf("[metadata %s]", f->disk >= 0 ? s->disks[f->disk].name : "?");
	p = s->meta ? bp_meta_find_path(s->meta, f->dev, f->ino) : NULL;
	if (p)
		return xstrdup(p);
	return xasprintf("[unresolved %u:%u:%llu]", BP_DEV_MAJOR(f->dev), BP_DEV_MINOR(f->dev),
			 (unsigned long long)f->ino);
}

/* Files seen in the window, by (dev, ino); returns engine file -> model position. */
static uint32_t *build_files(struct bp_model *m, struct state *s)
{
	struct efile **v = xmalloc((s->nfiles + 1) * sizeof(*v));
	uint32_t *pos = xmalloc((s->nfiles + 1) * sizeof(*pos));
	size_t i, n = 0;

	for (i = 0; i < s->nfiles; i++) {
		pos[i] = NONE;
		if (s->files[i].seen)
			v[n++] = &s->files[i];
	}
	qsort(v, n, sizeof(*v), cmp_file_order);
	m->files = xcalloc(n + 1, sizeof(*m->files));
	m->nfiles = n;
	m->pages->file_ids = xmalloc((n + 1) * sizeof(uint32_t));
	m->pages->nfile_ids = n;
	for (i = 0; i < n; i++) {
		const struct efile *e = v[i];
		struct bp_file *f = &m->files[i];
		uint32_t id = (uint32_t)(e - s->files);

		pos[id] = (uint32_t)i;
		m->pages->file_ids[i] = id;
		f->dev = e->dev;
		f->ino = e->ino;
		f->kind = e->kind;
		f->path = file_path(s, e);
		f->resolved = e->kind == BP_FILE_REGULAR && f->path[0] != '[';
		/* Disks seen only in later block events count too. */
		f->disk = e->kind == BP_FILE_METADATA ? e->disk : bp_disk_of_dev(s, e->dev);
		f->bytes_read = e->bytes;
		f->wait_ns = e->wait;
		if (!(m->missing & BP_MISSING_ACCESS) && e->kind == BP_FILE_REGULAR) {
			f->used_bytes = e->used;
			f->never_used_bytes = e->never;
			f->mapped_unknown_bytes = e->mapped;
		}
		f->reread_bytes = e->reread;
		f->size_pages = e->size_pages;
		f->first_ns = e->first;
		f->last_ns = e->last;
	}
	free(v);
	return pos;
}

/* (process, file) pairs from the (task, file) pairs. */
static void build_accesses(struct bp_model *m, struct state *s, const uint32_t *proc_of_task,
			   const uint32_t *procpos, const uint32_t *filepos)
{
	struct bp_map map;
	size_t i;

	bp_map_init(&map);
	m->accesses = xcalloc(s->nacc + 1, sizeof(*m->accesses));
	for (i = 0; i < s->nacc; i++) {
		const struct eacc *e = &s->acc[i];
		uint32_t pi = proc_of_task[e->task], fi = filepos[e->file];
		struct bp_access *a;
		uint64_t *slot;
		int inserted;

		if (pi == NONE || fi == NONE)
			continue;
		pi = procpos[pi];
		slot = bp_map_put(&map, pi, fi, &inserted);
		if (inserted) {
			*slot = m->naccesses++;
			a = &m->accesses[*slot];
			a->process = &m->processes[pi];
			a->file = &m->files[fi];
			a->first_ns = e->first;
			a->last_ns = e->last;
			a->process->nfiles++;
			a->file->nreaders++;
		}
		a = &m->accesses[*slot];
		a->wait_ns += e->wait;
		a->bytes_read += e->bytes;
		if (e->first < a->first_ns)
			a->first_ns = e->first;
		if (e->last > a->last_ns)
			a->last_ns = e->last;
	}
	bp_map_release(&map);
	for (i = 0; i < m->nprocesses; i++) {
		m->processes[i].files = xcalloc(m->processes[i].nfiles + 1, sizeof(void *));
		m->processes[i].nfiles = 0;
	}
	for (i = 0; i < m->nfiles; i++) {
		m->files[i].readers = xcalloc(m->files[i].nreaders + 1, sizeof(void *));
		m->files[i].nreaders = 0;
	}
	for (i = 0; i < m->naccesses; i++) {
		struct bp_access *a = &m->accesses[i];

		a->process->files[a->process->nfiles++] = a;
		a->file->readers[a->file->nreaders++] = a;
	}
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];

		qsort(p->files, p->nfiles, sizeof(*p->files), cmp_proc_file);
		p->worst_file = p->nfiles ? p->files[0]->file : NULL;
	}
	for (i = 0; i < m->nfiles; i++)
		qsort(m->files[i].readers, m->files[i].nreaders, sizeof(void *), cmp_reader);
}

static void build_tree(struct bp_model *m)
{
	size_t np = m->nprocesses, i;
	size_t *depth = xcalloc(np + 1, sizeof(*depth));
	struct bp_process **order = xmalloc((np + 1) * sizeof(*order));

	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i], *a;
		size_t d = 0;

		for (a = p->parent; a && d < np; a = a->parent)
			d++;
		depth[i] = d;
		if (p->parent)
			p->parent->nchildren++;
	}
	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i];

		p->children = xcalloc(p->nchildren + 1, sizeof(*p->children));
		p->nchildren = 0;
		p->tree_wait_ns = p->wait_ns;
		p->tree_bytes_read = p->bytes_read;
		p->tree_processes = 1;
	}
	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i];

		if (p->parent)
			p->parent->children[p->parent->nchildren++] = p;
	}
	/* Deepest first, so every child is complete before its parent adds it. */
	{
		size_t maxd = 0, d, n = 0;

		for (i = 0; i < np; i++)
			if (depth[i] > maxd)
				maxd = depth[i];
		for (d = maxd + 1; d-- > 0;) {
			for (i = 0; i < np; i++)
				if (depth[i] == d)
					order[n++] = &m->processes[i];
		}
		for (i = 0; i < n; i++) {
			struct bp_process *p = order[i];

			if (p->parent) {
				p->parent->tree_wait_ns += p->tree_wait_ns;
				p->parent->tree_bytes_read += p->tree_bytes_read;
				p->parent->tree_processes += p->tree_processes;
			}
		}
	}
	for (i = 0; i < np; i++)
		qsort(m->processes[i].children, m->processes[i].nchildren,
		      sizeof(struct bp_process *), cmp_child);
	free(depth);
	free(order);
}

static void build_disks_execs_totals(struct bp_model *m, struct state *s, struct bp_reader *r)
{
	struct bp_totals *tot = &m->totals;
	const struct bp_read_stats *rs = r ? bp_reader_stats(r) : NULL;
	size_t i, j, k;

	m->disks = s->disks;
	m->ndisks = s->ndisks;
	s->disks = NULL;
	s->ndisks = 0;
	for (i = 0; i < m->nfiles; i++) {
		struct bp_file *f = &m->files[i];

		tot->read_bytes += f->bytes_read;
		tot->never_used_bytes += f->never_used_bytes;
		tot->used_bytes += f->used_bytes;
		tot->mapped_unknown_bytes += f->mapped_unknown_bytes;
		tot->reread_bytes += f->reread_bytes;
		if (f->kind == BP_FILE_METADATA) {
			tot->metadata_bytes += f->bytes_read;
			tot->wait_metadata_ns += f->wait_ns;
		}
		if (f->disk < 0 || (size_t)f->disk >= m->ndisks)
			continue;
		if (f->kind == BP_FILE_METADATA) {
			struct bp_disk_stat *d = &m->disks[f->disk];

			d->metadata = f;
			d->metadata_bytes += f->bytes_read;
			d->metadata_wait_ns += f->wait_ns;
		} else {
			m->disks[f->disk].file_bytes += f->bytes_read;
		}
	}
	for (i = 0; i < m->ndisks; i++)
		tot->rq_read_bytes += m->disks[i].rq_read_bytes;
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		int c;

		tot->wait_ns += p->wait_ns;
		tot->wait_unknown_ns += p->wait_unknown_ns;
		tot->other_wait_ns += p->other_wait_ns;
		for (c = 0; c < BP_NCAUSES; c++)
			tot->wait_by_cause[c] += p->wait_by_cause[c];
	}
	if (m->missing & BP_MISSING_BLOCK)
		tot->attributed_permille = -1;
	else if (tot->rq_read_bytes)
		tot->attributed_permille = (int64_t)(tot->read_bytes * 1000 / tot->rq_read_bytes);
	else
		tot->attributed_permille = tot->read_bytes ? 1000 : -1;
	/*
	 * The ring buffer's own count (overrun + dropped, at stop) and the
	 * losses flagged in page headers describe the same events: the larger
	 * is the better lower bound.
	 */
	tot->lost_events = s->meta ? bp_meta_lost_events(s->meta) : 0;
	if (rs && rs->missed_events > tot->lost_events)
		tot->lost_events = rs->missed_events;
	tot->lost_pages = rs ? rs->missed_pages : 0;
	tot->truncated = rs ? rs->truncated : 0;
	tot->span_ns = tot->last_ns - tot->first_ns;

	m->execs = xcalloc(s->nexecs + 1, sizeof(*m->execs));
	for (i = 0; i < s->nexecs; i++) {
		m->execs[i].path = s->execs[i].path;
		m->execs[i].count = s->execs[i].count;
		s->execs[i].path = NULL;
	}
	m->nexecs = s->nexecs;
	qsort(m->execs, m->nexecs, sizeof(*m->execs), bp_cmp_exec_count);
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		for (j = 0; j < m->nexecs; j++) {
			for (k = 0; k < p->nexec; k++) {
				if (!strcmp(p->exec[k], m->execs[j].path)) {
					m->execs[j].wait_ns += p->exec_part[k].wait_ns;
					m->execs[j].bytes_read += p->exec_part[k].bytes_read;
				}
			}
		}
	}
}

static int cmp_service(const void *pa, const void *pb)
{
	const struct bp_service *a = *(struct bp_service *const *)pa;
	const struct bp_service *b = *(struct bp_service *const *)pb;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->bytes_read != b->bytes_read)
		return a->bytes_read > b->bytes_read ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Services from the cgroup indices parked in bp_process.service. */
static void build_services(struct bp_model *m, struct state *s)
{
	uint32_t *pos = xmalloc((s->ncgroups + 1) * sizeof(*pos));
	struct bp_service *svc = xcalloc(s->ncgroups + 1, sizeof(*svc)), **v;
	size_t *rank, i, n = 0;

	for (i = 0; i < s->ncgroups; i++)
		pos[i] = NONE;
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];
		size_t cg = (uintptr_t)p->service;

		if (!cg)
			continue;
		if (pos[cg - 1] == NONE) {
			pos[cg - 1] = (uint32_t)n;
			svc[n++].path = xstrdup(s->cgroups[cg - 1]);
		}
		svc[pos[cg - 1]].nprocesses++;
		svc[pos[cg - 1]].wait_ns += p->wait_ns;
		svc[pos[cg - 1]].bytes_read += p->bytes_read;
	}
	/* Sort, then point every process at its service's final place. */
	v = xmalloc((n + 1) * sizeof(*v));
	rank = xmalloc((n + 1) * sizeof(*rank));
	for (i = 0; i < n; i++)
		v[i] = &svc[i];
	qsort(v, n, sizeof(*v), cmp_service);
	m->services = xcalloc(n + 1, sizeof(*m->services));
	m->nservices = n;
	for (i = 0; i < n; i++) {
		m->services[i] = *v[i];
		rank[v[i] - svc] = i;
	}
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];
		size_t cg = (uintptr_t)p->service;

		p->service = cg ? &m->services[rank[pos[cg - 1]]] : NULL;
	}
	free(v);
	free(rank);
	free(svc);
	free(pos);
}

/*
 * Threads that existed before the recording and never forked, exec'd or
 * exited in it: the recording's task table (read from /proc at its start
 * and stop) names their process. Their leader gets a task of its own when
 * it had no event.
 */
static void meta_groups(struct state *s)
{
	size_t i;

	for (i = 0; s->meta && i < s->meta->ntasks; i++) {
		const struct bp_task_id *ti = &s->meta->tasks[i];
		uint64_t *slot;
		uint32_t t, leader;

		if (ti->tid <= 0 || ti->tgid <= 0 || ti->tid == ti->tgid)
			continue;
		slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)ti->tid, 0);
		if (!slot)
			continue;
		t = (uint32_t)*slot;
		if (s->tasks[t].parent != NONE || s->tasks[t].self_exec || s->tasks[t].joined != NONE)
			continue;
		leader = bp_task_of(s, ti->tgid);
		if (leader != t) {
			s->tasks[t].meta_leader = leader;
			if (!s->tasks[leader].comm[0])
				memcpy(s->tasks[leader].comm, s->tasks[t].comm, sizeof(s->tasks[t].comm));
		}
	}
}

/**
 * bp_build_assemble() - the model of a finished pass
 * @s: the state after the pass (its tail, timeline and page chunks move
 *     into the model)
 * @r: the recording, for its warnings and read statistics; NULL for events
 *     fed without one
 */
struct bp_model *bp_build_assemble(struct state *s, struct bp_reader *r)
{
	struct bp_model *m;
	uint32_t *proc_of_task, *procpos, *filepos;

	meta_groups(s);
	m = bp_model_new();
	m->missing = missing_flags(s, &m->missing_on_kernel);
	copy_header(m, s, r);
	m->totals = s->tot;
	m->totals.attributed_permille = -1;
	m->totals.iowait_source = s->kind_count[EV_STAT_IOWAIT] || s->kind_count[EV_STAT_BLOCKED] ?
					  BP_IOWAIT_KERNEL : BP_IOWAIT_INFERRED;
	/* The part of the recording the window covers; one that misses it stays as asked. */
	m->window.since_ns = s->since > s->first_ts ? s->since : s->first_ts;
	m->window.until_ns = s->until < s->last_ts ? s->until : s->last_ts;
	if (m->window.until_ns < m->window.since_ns) {
		m->window.since_ns = s->since;
		m->window.until_ns = s->until != UINT64_MAX ? s->until : s->since;
	}
	m->window.bucket_ns = s->bucket;
	proc_of_task = build_processes(m, s);
	procpos = order_processes(m, s, proc_of_task);
	filepos = build_files(m, s);
	build_accesses(m, s, proc_of_task, procpos, filepos);
	build_tree(m);
	build_services(m, s);
	build_disks_execs_totals(m, s, r);
	m->timeline = s->tl;
	m->nbuckets = s->ntl;
	m->timeline_start_ns = s->t0;
	s->tl = NULL;
	/* The page chunks move to the model, for bp_model_file_pages(). */
	s->pages->file_ids = m->pages->file_ids;
	s->pages->nfile_ids = m->pages->nfile_ids;
	free(m->pages);
	m->pages = s->pages;
	s->pages = NULL;
	free(proc_of_task);
	free(procpos);
	free(filepos);
	return m;
}
