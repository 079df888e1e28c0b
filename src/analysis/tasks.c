// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks: fork, exec, exit, context switches, wakeups, syscalls (what a
 * task is doing, for the cause of a wait) and cgroups.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/build.h"
#include "util/error.h"
#include "util/xalloc.h"

uint32_t bp_task_new(struct state *s, int tid)
{
	struct task *t;
	uint64_t *slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)tid, 0);
	uint8_t recorder = 0;

	/*
	 * The recorder's tids are those alive when it saved: the last task
	 * of that tid. At boot the recorder is forked after the recording
	 * began, so its fork (a new task) takes the flag.
	 */
	if (slot && s->tasks[*slot].recorder) {
		s->tasks[*slot].recorder = 0;
		recorder = 1;
	}
	BP_GROW(s->tasks, s->ntasks, s->ctasks);
	t = &s->tasks[s->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->recorder = recorder;
	t->parent = NONE;
	t->joined = NONE;
	t->group_dead = -1;
	t->sys = BP_SYS_NONE;
	t->cpu = -1;
	t->meta_leader = NONE;
	t->ctx_file = t->last_file = t->wait_file = t->fault_file = t->acc_file = NONE;
	t->sys_read_file = t->credit_file = NONE;
	t->cgroup = NONE;
	slot = bp_map_put(&s->tids, (uint64_t)(uint32_t)tid, 0, NULL);
	*slot = s->ntasks;
	return (uint32_t)s->ntasks++;
}

uint32_t bp_task_of(struct state *s, int tid)
{
	uint64_t *slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)tid, 0);

	return slot ? (uint32_t)*slot : bp_task_new(s, tid);
}

/*
 * ti runs on the event's CPU from now: a wait it was in is over (it became
 * runnable at its waking, see bp_wake_time). Implicit: seen running, not
 * switched in (see implicit_switch_in); one already running goes on.
 */
static void run_on(struct state *s, uint32_t ti, const struct bp_event *ev, int implicit)
{
	struct task *t = &s->tasks[ti];

	if (t->waiting)
		bp_wait_end(s, t, bp_wake_time(s, t, ev->cpu, ev->ts));
	if (implicit && t->running)
		return;
	t->running = 1;
	t->run_start = ev->ts;
	t->cpu = (int16_t)ev->cpu;
	bp_span_to(s, t, BP_SPAN_RUN, ev->ts);
	if (s->crit)
		bp_crit_switch_in(s, ti, ev->cpu, ev->ts, implicit);
}

/*
 * A task that emits an event is running on that CPU, whether or not its
 * sched_switch was recorded: on some kernels the switch away from the idle
 * task is not traced on every CPU. Treat the event as the switch-in.
 */
static void implicit_switch_in(struct state *s, uint32_t ti, const struct bp_event *ev)
{
	struct task *t = &s->tasks[ti];

	bp_idle_flush(s, ev->ts);
	if (!t->running || t->waiting)
		run_on(s, ti, ev, 1);
	if (ev->cpu >= 0 && ev->cpu < s->ncpus) {
		if (s->cpu_idle[ev->cpu] == 1)
			s->nidle--;
		s->cpu_idle[ev->cpu] = 0;
		s->cpu_task[ev->cpu] = ti;
		s->cpu_tid[ev->cpu] = t->tid;
	}
	bp_idle_update(s);
}

/* The task of an event's common_pid, through the per-CPU cache. */
struct task *bp_task_cur(struct state *s, const struct bp_event *ev)
{
	int pid = rd_int(s, ev, s->common_pid);
	uint32_t t;

	if (pid <= 0)
		return NULL;
	if (ev->cpu >= 0 && ev->cpu < s->ncpus && s->cpu_tid[ev->cpu] == pid) {
		t = s->cpu_task[ev->cpu];
	} else {
		t = bp_task_of(s, pid);
		implicit_switch_in(s, t, ev);
	}
	if (in_window(s, ev->ts))
		s->tasks[t].seen = 1;
	return &s->tasks[t];
}

static void set_comm(struct task *t, const char *comm)
{
	size_t n = strnlen(comm, sizeof(t->comm) - 1);

	if (!n)
		return;
	memcpy(t->comm, comm, n);
	t->comm[n] = 0;
}

void bp_on_switch(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int prev = rd_int(s, ev, h->f[F_PREV_PID]);
	int next = rd_int(s, ev, h->f[F_NEXT_PID]);
	uint64_t state = rd(s, ev, h->f[F_PREV_STATE]);
	int inw = in_window(s, ev->ts);
	char comm[16];
	uint32_t ti;
	struct task *t;

	bp_idle_flush(s, ev->ts);
	if (prev > 0) {
		ti = (ev->cpu >= 0 && ev->cpu < s->ncpus && s->cpu_tid[ev->cpu] == prev) ?
			     s->cpu_task[ev->cpu] : bp_task_of(s, prev);
		t = &s->tasks[ti];
		if (inw) {
			t->seen = 1;
			if (h->f[F_PREV_COMM].size) {
				bp_rd_str(s, ev, h->f[F_PREV_COMM], comm, sizeof(comm));
				set_comm(t, comm);
			}
		}
		if (t->running) {
			uint64_t a = t->run_start < s->since ? s->since : t->run_start;
			uint64_t b = ev->ts > s->until ? s->until : ev->ts;

			if (b > a)
				t->run_ns += b - a;
			t->running = 0;
		}
		/* It ran, so an earlier wait whose end was not seen is over. */
		if (t->waiting)
			bp_wait_end(s, t, t->woken ? t->woken : ev->ts);
		if (s->crit)
			bp_crit_switch_out(s, ti, ev->cpu, ev->ts,
					   (state & TASK_REPORT_PREEMPT) || !(state & 0xff) ? CRIT_PREEMPT :
					   (state & 0xff) == TASK_UNINTERRUPTIBLE ? CRIT_SLEEP_D :
					   state & (TASK_REPORT_DEAD | TASK_REPORT_ZOMBIE) ? CRIT_DEAD :
					   CRIT_SLEEP_S);
		if ((state & TASK_REPORT_PREEMPT) || !(state & 0xff)) {
			bp_span_to(s, t, BP_SPAN_RUNNABLE, ev->ts);
		} else {
			if ((state & 0xff) == TASK_UNINTERRUPTIBLE && !t->recorder)
				bp_wait_begin(s, t, ev->ts);
			else if (state & (TASK_REPORT_DEAD | TASK_REPORT_ZOMBIE))
				bp_span_to(s, t, -1, ev->ts);
			else
				bp_span_to(s, t, BP_SPAN_SLEEP, ev->ts);
			t->completing = 0;
			/* Without syscall boundaries, evidence lasts until it sleeps. */
			if (!t->sys_ctx) {
				t->activity = 0;
				t->read_io = 0;
				t->in_fault = 0;
			}
		}
		t->early_woken = 0;   /* used by the sleep it began, or none */
	}
	if (next > 0) {
		ti = bp_task_of(s, next);
		t = &s->tasks[ti];
		if (inw) {
			t->seen = 1;
			if (h->f[F_NEXT_COMM].size && !t->comm[0]) {
				bp_rd_str(s, ev, h->f[F_NEXT_COMM], comm, sizeof(comm));
				set_comm(t, comm);
			}
		}
		run_on(s, ti, ev, 0);
	} else {
		ti = NONE;
	}
	if (ev->cpu >= 0 && ev->cpu < s->ncpus) {
		int idle = next == 0;

		s->cpu_task[ev->cpu] = ti;
		s->cpu_tid[ev->cpu] = next > 0 ? next : -1;
		if (s->cpu_idle[ev->cpu] == 1)
			s->nidle--;
		if (idle && s->cpu_idle[ev->cpu] != 1)
			s->cpu_times[ev->cpu].idle_since = ev->ts;
		s->cpu_idle[ev->cpu] = (int8_t)idle;
		if (idle)
			s->nidle++;
	}
	bp_idle_update(s);
}

void bp_on_fork(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int ppid = rd_int(s, ev, h->f[F_PARENT_PID]);
	int cpid = rd_int(s, ev, h->f[F_CHILD_PID]);
	uint32_t pi = ppid > 0 ? bp_task_of(s, ppid) : NONE, ci;
	struct task *p, *c;
	char comm[16];

	if (cpid <= 0)
		return;
	ci = bp_task_new(s, cpid);
	c = &s->tasks[ci];
	c->start = ev->ts;
	c->parent = pi;
	if (pi != NONE)
		c->cgroup = s->tasks[pi].cgroup;   /* a child starts in its parent's cgroup */
	c->seen = (uint8_t)in_window(s, ev->ts);
	if (s->crit)
		bp_crit_fork(s, pi, ci, ev->cpu, ev->ts);
	bp_rd_str(s, ev, h->f[F_CHILD_COMM], comm, sizeof(comm));
	if (pi == NONE)
		return;
	p = &s->tasks[pi];
	if (!comm[0])
		memcpy(comm, p->comm, sizeof(comm));
	c->prog = p->prog;
	set_comm(c, comm);
	switch (p->sys) {
	case BP_SYS_CLONE:
		c->clone_kind = (p->sys_arg0 & CLONE_THREAD) ? CK_THREAD : CK_PROCESS;
		break;
	case BP_SYS_CLONE3:
		c->clone_kind = CK_CLONE3;
		break;
	case BP_SYS_FORK:
		c->clone_kind = CK_PROCESS;
		break;
	default:
		break;
	}
}

static uint64_t str_hash(const char *str)
{
	uint64_t h = 1469598103934665603ull;

	for (; *str; str++)
		h = (h ^ (unsigned char)*str) * 1099511628211ull;
	return h;
}

static void count_exec(struct state *s, const char *path)
{
	uint64_t h = str_hash(path), probe;

	for (probe = 0;; probe++) {
		int inserted;
		uint64_t *slot = bp_map_put(&s->execmap, h, probe, &inserted);

		if (inserted) {
			BP_GROW(s->execs, s->nexecs, s->cexecs);
			s->execs[s->nexecs].path = xstrdup(path);
			s->execs[s->nexecs].count = 1;
			*slot = s->nexecs++;
			return;
		}
		if (!strcmp(s->execs[*slot].path, path)) {
			s->execs[*slot].count++;
			return;
		}
	}
}

/*
 * Whether @path names the exec'ing process's own program through /proc
 * (busybox and others re-executing themselves): /proc/self/exe,
 * /proc/thread-self/exe, /proc/PID/exe with its own pid or tid.
 */
static int is_own_exe(const char *path, int pid, int old)
{
	const char *rest;
	char *end;
	long n;

	if (strncmp(path, "/proc/", 6))
		return 0;
	rest = path + 6;
	if (!strcmp(rest, "self/exe") || !strcmp(rest, "thread-self/exe"))
		return 1;
	n = strtol(rest, &end, 10);
	return end != rest && !strcmp(end, "/exe") && (n == pid || n == old);
}

void bp_on_exec(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[F_EXEC_PID]);
	int old = rd_int(s, ev, h->f[F_OLD_PID]);
	char path[4096];
	const char *base;
	uint32_t ti;
	struct task *t;
	struct exec_rec *x;
	char comm[16];

	if (pid <= 0 || old <= 0)
		return;
	ti = bp_task_of(s, old);
	t = &s->tasks[ti];
	t->exec_ts = ev->ts;
	if (pid != old) {
		uint64_t *slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)pid, 0);

		/* A thread exec'd: it takes over its leader's pid. */
		if (slot && (uint32_t)*slot != ti)
			t->joined = (uint32_t)*slot;
		slot = bp_map_put(&s->tids, (uint64_t)(uint32_t)pid, 0, NULL);
		*slot = ti;
		t->tid = pid;
	} else {
		t->self_exec = 1;
	}
	bp_rd_str(s, ev, h->f[F_FILENAME], path, sizeof(path));
	/* The kernel names the comm after the path as given ("exe"); the program is the file. */
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	memcpy(comm, base, strnlen(base, sizeof(comm) - 1));
	comm[strnlen(base, sizeof(comm) - 1)] = '\0';
	if (t->prog && is_own_exe(path, pid, old))
		snprintf(path, sizeof(path), "%s", t->prog);
	if (s->crit && path[0])
		bp_crit_exec(s, ti, ev->ts, path);
	if (!path[0] || ev->ts > s->until)
		return;
	set_comm(t, comm);
	/* The arguments read before this exec were the old program's. */
	free(t->args);
	t->args = NULL;
	BP_GROW(t->exec, t->nexec, t->cexec);
	x = &t->exec[t->nexec++];
	x->ts = ev->ts;
	x->path = xstrdup(path);
	x->cgroup = t->cgroup;
	x->wait0 = t->in_execve ? t->exec_wait0 : t->wait_ns;
	x->bytes0 = t->in_execve ? t->exec_bytes0 : t->bytes;
	/* A script runs its interpreter, a link the file behind it: /proc/self/exe is that. */
	t->prog = s->meta ? bp_meta_find_program(s->meta, x->path) : NULL;
	if (!t->prog)
		t->prog = x->path;
	if (in_window(s, ev->ts)) {
		t->seen = 1;
		count_exec(s, path);
	}
}

/*
 * "bootprof-args PID WORDS\n", one or more to a marker: the command line
 * of process PID as /proc showed it when the line was read, just after the
 * exec it belongs to. It goes to the task that is PID then (a later
 * process reusing the pid is another task). "bootprof-args-at NS PID
 * WORDS" was read at NS, before the marker was written: a task that
 * exec'd after NS runs another program than the line says. A line the
 * kernel cut (no newline) is no line.
 */
/* The decimal number at line[*k], then one space; 0 when there is none. */
static int line_number(const char *line, size_t n, size_t *k, uint64_t *v)
{
	size_t i = *k;

	*v = 0;
	while (i < n && line[i] >= '0' && line[i] <= '9' && i - *k < 19)
		*v = *v * 10 + (uint64_t)(line[i++] - '0');
	if (i == *k || i >= n || line[i] != ' ')
		return 0;
	*k = i + 1;
	return 1;
}

static void args_line(struct state *s, const char *line, size_t n, uint64_t ts)
{
	static const char plain[] = "bootprof-args ", at[] = "bootprof-args-at ";
	uint64_t read_ns = ts, pid;
	size_t k;
	uint32_t ti;
	struct task *t;

	if (n > sizeof(at) - 1 && !memcmp(line, at, sizeof(at) - 1)) {
		k = sizeof(at) - 1;
		if (!line_number(line, n, &k, &read_ns) || !read_ns)
			return;
	} else if (n > sizeof(plain) - 1 && !memcmp(line, plain, sizeof(plain) - 1)) {
		k = sizeof(plain) - 1;
	} else {
		return;
	}
	if (!line_number(line, n, &k, &pid) || !pid || pid > INT32_MAX || k >= n)
		return;
	ti = bp_task_of(s, (int)pid);  /* may move s->tasks */
	t = &s->tasks[ti];
	if (t->exec_ts > read_ns)
		return;
	free(t->args);
	t->args = xstrndup(line + k, n - k);
	t->args_ts = read_ns;
}

void bp_on_print(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	size_t off = h->f[0].off, n;
	const char *buf, *nl;

	if (!off || off >= (size_t)ev->size || ev->ts > s->until)
		return;
	buf = (const char *)ev->data + off;
	n = strnlen(buf, (size_t)ev->size - off);
	while (n && (nl = memchr(buf, '\n', n))) {
		args_line(s, buf, (size_t)(nl - buf), ev->ts);
		n -= (size_t)(nl - buf) + 1;
		buf = nl + 1;
	}
}

void bp_on_process_exit(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[F_EXIT_PID]);
	uint32_t ti;
	struct task *t;

	if (pid <= 0)
		return;
	ti = bp_task_of(s, pid);   /* may grow s->tasks: index first */
	t = &s->tasks[ti];
	t->exit = ev->ts;
	if (s->crit)
		bp_crit_exit(s, ti, ev->ts);
	/*
	 * Its runs it waited on are read, even if a throttle lets their bio
	 * go after its end; the others were created (or are holes).
	 */
	bp_settle_end(s, t);
	if (h->f[F_GROUP_DEAD].size)
		t->group_dead = (int8_t)!!rd(s, ev, h->f[F_GROUP_DEAD]);
}

/*
 * The tasks the recording found in an uninterruptible sleep as it started
 * (bp_task_id.asleep) emit no event until they wake, maybe never within
 * the recording: their sleep is begun at ts, the first event, inside the
 * syscall they were in when the recording has syscall events (a sleep
 * outside one has no evidence of I/O).
 */
void bp_tasks_asleep_at_start(struct state *s, uint64_t ts)
{
	size_t i;

	for (i = 0; s->meta && i < s->meta->ntasks; i++) {
		const struct bp_task_id *ti = &s->meta->tasks[i];
		struct task *t;
		uint32_t k;

		if (!ti->asleep || ti->tid <= 0 || (ti->flags & BP_TASK_RECORDER))
			continue;
		k = bp_task_of(s, ti->tid);   /* may grow s->tasks: index first */
		t = &s->tasks[k];
		if (t->waiting || t->recorder)
			continue;
		if (!t->comm[0])
			set_comm(t, ti->comm);
		if (ti->syscall >= 0 && (s->kinds_seen & (1u << EV_SYS_EXIT))) {
			t->sys_ctx = 1;
			t->sys = bp_syscall_class(s->arch, ti->syscall);
			t->sys_copies = (uint8_t)bp_syscall_copies(s->arch, ti->syscall);
			t->sys_prefetch = (uint8_t)bp_syscall_prefetch(s->arch, ti->syscall);
		}
		bp_wait_begin(s, t, ts);
		if (s->crit)
			bp_crit_asleep_at_start(s, k, ts);
	}
	bp_idle_update(s);
}

static void on_sys(struct state *s, const struct bp_event *ev, const struct handler *h,
		   int enter)
{
	struct task *t = bp_task_cur(s, ev);
	int futex = 0;

	if (!t)
		return;
	if (t->npend)
		bp_settle_inserts(s, t);
	t->sys_ctx = 1;
	if (!enter) {
		t->sys = BP_SYS_NONE;
		t->sys_copies = 0;
		t->sys_prefetch = 0;
	} else if (h->sys != SYS_BY_ID) {
		t->sys = h->sys;
		t->sys_copies = h->copies;
		t->sys_prefetch = h->prefetch;
	} else {
		long nr = (long)rd(s, ev, h->f[F_SYS_ID]);

		t->sys = bp_syscall_class(s->arch, nr);
		t->sys_copies = (uint8_t)bp_syscall_copies(s->arch, nr);
		t->sys_prefetch = (uint8_t)bp_syscall_prefetch(s->arch, nr);
		futex = enter && bp_syscall_futex(s->arch, nr) && h->f[F_SYS_ARGS].size >= 16;
	}
	if (enter)
		t->sys_arg0 = h->f[F_SYS_ARGS].size ? rd(s, ev, (struct fld){ h->f[F_SYS_ARGS].off, 8, 0 }) : 0;
	if (s->crit)
		bp_crit_futex(s, ev, (uint32_t)(t - s->tasks), futex ? t->sys_arg0 : 0,
			      futex ? (int)rd(s, ev, (struct fld){ h->f[F_SYS_ARGS].off + 8, 8, 0 }) : -1);
	/* What an exec reads and waits for belongs to the program it loads (see bp_on_exec). */
	t->in_execve = enter && t->sys == BP_CAUSE_EXEC;
	if (t->in_execve) {
		t->exec_wait0 = t->wait_ns;
		t->exec_bytes0 = t->bytes;
	}
	t->sys_read_file = NONE;
	t->in_fault = 0;
	t->activity = 0;
	t->read_io = 0;
	t->ctx_file = NONE;
}

void bp_on_sys_enter(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	on_sys(s, ev, h, 1);
}

void bp_on_sys_exit(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	on_sys(s, ev, h, 0);
}

/*
 * sched_wakeup is traced where the task is enqueued (ttwu_do_activate): the
 * wait ends there. sched_waking is traced before the kernel picks the CPU:
 * the wait ends when the task becomes runnable, which bp_wake_time() decides
 * at its switch-in. A task that is not in a D-sleep only becomes runnable
 * (spans).
 */
void bp_on_wake(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[0]), by;
	uint64_t *slot;
	uint32_t ti;
	struct task *t;

	if (pid <= 0)
		return;
	slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)pid, 0);
	if (!slot) {
		if (s->crit)
			bp_crit_waking_unmet(s, ev, h->kind, pid);
		return;
	}
	ti = (uint32_t)*slot;
	by = bp_note_waking(s, ev, ti);   /* may add the waker: slot and t after it */
	if (s->crit)
		bp_crit_waking(s, ev, h->kind, ti, by);
	t = &s->tasks[ti];
	if (!t->waiting) {
		if (t->span == BP_SPAN_SLEEP + 1)
			bp_span_to(s, t, BP_SPAN_RUNNABLE, ev->ts);
		return;
	}
	if (h->kind == EV_WAKING) {
		if (!t->woken)
			t->woken = ev->ts;
		return;
	}
	bp_idle_flush(s, ev->ts);
	bp_wait_end(s, t, ev->ts);
	bp_idle_update(s);
}

/* A task queues on a sleeping rwsem (the recording filters the others out): the critical path's. */
void bp_on_lock(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	struct task *t;

	if (!s->crit)
		return;
	t = bp_task_cur(s, ev);
	if (t)
		bp_crit_lock(s, (uint32_t)(t - s->tasks), rd(s, ev, h->f[0]), (unsigned)rd(s, ev, h->f[1]));
}

/* The cgroup a task moved into: its service, on a systemd machine. */
void bp_on_cgroup(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[0]);
	char path[4096];
	uint64_t hash, probe;

	if (pid <= 0)
		return;
	bp_rd_str(s, ev, h->f[1], path, sizeof(path));
	if (!path[0])
		return;
	hash = str_hash(path);
	for (probe = 0;; probe++) {
		int inserted;
		uint64_t *slot = bp_map_put(&s->cgroupmap, hash, probe, &inserted);

		if (inserted) {
			BP_GROW(s->cgroups, s->ncgroups, s->ccgroups);
			s->cgroups[s->ncgroups] = xstrdup(path);
			*slot = s->ncgroups++;
		}
		if (!strcmp(s->cgroups[*slot], path)) {
			uint32_t cg = (uint32_t)*slot, ti = bp_task_of(s, pid);

			s->tasks[ti].cgroup = cg;
			return;
		}
	}
}
