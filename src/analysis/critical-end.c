// SPDX-License-Identifier: GPL-2.0
/*
 * The end points of the critical path (critical.h): --to pid:N, and the
 * ends of user phases in their grammar (exec:PROG, file:PATH,
 * service:UNIT, analysis/phases.h), and the default end of a recording.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critical-log.h"
#include "analysis/phases.h"
#include "util/error.h"
#include "util/xalloc.h"

int bp_crit_end_parse(const char *spec, struct bp_crit_end *end)
{
	static const enum bp_crit_end_kind kinds[] = {
		[BP_PHASE_EXEC] = BP_CRIT_END_EXEC,
		[BP_PHASE_FILE] = BP_CRIT_END_FILE,
		[BP_PHASE_SERVICE] = BP_CRIT_END_SERVICE,
	};
	struct bp_phase_spec phase;
	char *e, *text;
	long v;
	int rc;

	memset(end, 0, sizeof(*end));
	if (!strncmp(spec, "pid:", 4)) {
		v = strtol(spec + 4, &e, 10);
		if (e == spec + 4 || *e || v <= 0 || v > 0x7fffffffL) {
			bp_set_error("invalid pid in '%s'", spec);
			return -1;
		}
		end->kind = BP_CRIT_END_EXIT;
		end->pid = (int)v;
		return 0;
	}
	/* The end of a user phase, in the phases' grammar. */
	text = xasprintf("end=%s", spec);
	rc = bp_phase_spec_parse(text, &phase);
	free(text);
	if (rc) {
		bp_set_error("invalid end '%s' (pid:N, exec:PROG, file:PATH or service:UNIT)", spec);
		return -1;
	}
	end->kind = kinds[phase.kind];
	end->prog = strchr(spec, ':') + 1;
	bp_phase_spec_release(&phase);
	return 0;
}

char *bp_crit_end_spec(const struct bp_crit_end *end)
{
	switch (end->kind) {
	case BP_CRIT_END_EXIT:
		return xasprintf("pid:%d", end->pid);
	case BP_CRIT_END_EXEC:
		return xasprintf("exec:%s", end->prog);
	case BP_CRIT_END_FILE:
		return xasprintf("file:%s", end->prog);
	case BP_CRIT_END_SERVICE:
		return xasprintf("service:%s", end->prog);
	case BP_CRIT_END_DEFAULT:
	default:
		return xstrdup("default");
	}
}

struct bp_critical_path *bp_critical_path_of(const struct bp_critical_log *log,
					     const struct bp_model *m, const struct bp_crit_end *end,
					     const char *file)
{
	struct bp_critical_path *p;
	char why[512];

	if (m->missing & BP_MISSING_SCHED) {
		bp_set_error("'%s' has no sched_switch events: no path to walk", file);
		return NULL;
	}
	p = bp_critical_walk(log, m, end);
	if (!p) {
		snprintf(why, sizeof(why), "%s", bp_last_error());
		bp_set_error("'%s': %s", file, why);
	}
	return p;
}

/* The log's task of process p that exits (at its exit), or runs at ns. */
static int task_of(const struct bp_critical_log *L, const struct bp_model *m,
		   const struct bp_process *p, uint64_t ns, uint32_t *ti)
{
	uint32_t any = NONE;
	size_t i;

	for (i = 0; i < L->ntasks; i++) {
		const struct crit_task *t = &L->tasks[i];
		const struct bp_thread *th;
		long k;

		if (t->recorder || (t->fork_ns && t->fork_ns > ns) || !t->last_on_ns)
			continue;
		th = bp_model_find_thread(m, t->tid, t->fork_ns ? t->fork_ns : ns);
		if (!th || th->process != p)
			continue;
		if (any == NONE || t->tid == p->pid)
			any = (uint32_t)i;
		/* On a CPU at ns: the interval off it before ns has ended by then. */
		k = bp_crit_off_before(t, ns + 1);
		if (k < 0 || (t->off[k].in && t->off[k].in <= ns)) {
			*ti = (uint32_t)i;
			return 0;
		}
	}
	*ti = any;
	return any == NONE ? -1 : 0;
}

/* The exit of process p: its last thread's sched_process_exit. */
static int end_exit_of(const struct bp_critical_log *L, const struct bp_model *m,
		       const struct bp_process *p, uint32_t *ti, uint64_t *ns)
{
	size_t i;

	for (i = 0; i < L->ntasks; i++) {
		const struct crit_task *t = &L->tasks[i];
		const struct bp_thread *th;

		if (t->exit_ns != p->exit_ns || t->recorder)
			continue;
		th = bp_model_find_thread(m, t->tid, t->fork_ns ? t->fork_ns : t->exit_ns);
		if (th && th->process == p) {
			*ti = (uint32_t)i;
			*ns = p->exit_ns;
			return 0;
		}
	}
	bp_set_error("process %d: no task of it exits in the recording", p->pid);
	return -1;
}

/* The exit of process pid. */
static int end_exit(const struct bp_critical_log *L, const struct bp_model *m, int pid,
		    uint32_t *ti, uint64_t *ns)
{
	const struct bp_process *p = bp_model_find_process(m, pid);

	if (!p) {
		bp_set_error("no process %d in the recording", pid);
		return -1;
	}
	if (!p->exit_ns) {
		bp_set_error("process %d did not exit during the recording", pid);
		return -1;
	}
	return end_exit_of(L, m, p, ti, ns);
}

/* The first exec of prog (a path or a file name; fnmatch, as a phase's exec:). */
static int end_exec(const struct bp_critical_log *L, const char *prog, uint32_t *ti,
		    uint64_t *ns)
{
	size_t i;

	for (i = 0; i < L->nexecs; i++) {
		if (bp_exec_matches(prog, L->execs[i].path)) {
			*ti = L->execs[i].task;
			*ns = L->execs[i].ts;
			return 0;
		}
	}
	bp_set_error("no exec of '%s' in the recording", prog);
	return -1;
}

/*
 * The first event on a file PATH matches (a phase's file:): the task of
 * the process that made it, the thread of it on a CPU then.
 */
static int end_file(const struct bp_critical_log *L, const struct bp_model *m, const char *path,
		    uint32_t *ti, struct bp_critical_path *out)
{
	const struct bp_file *f = bp_phase_first_file(m, path);
	const struct bp_process *p = NULL;
	size_t i;

	if (!f) {
		bp_set_error("no file '%s' in the recording", path);
		return -1;
	}
	for (i = 0; i < f->nreaders; i++) {
		if (f->readers[i]->first_ns == f->first_ns)
			p = f->readers[i]->process;
	}
	if (!p || task_of(L, m, p, f->first_ns, ti)) {
		bp_set_error("'%s': no task of the recording made its first event", f->path);
		return -1;
	}
	out->end_ns = f->first_ns;
	out->end_on = xstrdup(f->path);
	return 0;
}

/*
 * A unit's main process: of the processes in the cgroup UNIT names, the
 * first to exec there (systemd's ExecStart), else the first to start.
 */
static const struct bp_process *main_process(const struct bp_model *m, const char *unit)
{
	const struct bp_process *best = NULL;
	int matched = 0;
	size_t i;

	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		int exec = p->service_exec < p->nexec, best_exec;

		if (!p->service || !bp_unit_matches(unit, p->service->path))
			continue;
		matched = 1;
		if (!best) {
			best = p;
			continue;
		}
		best_exec = best->service_exec < best->nexec;
		if (exec != best_exec ? exec :
		    exec ? p->service_exec_ns < best->service_exec_ns : p->start_ns < best->start_ns)
			best = p;
	}
	if (!matched)
		bp_set_error("no unit '%s' in the recording (no process moved into its cgroup)",
			     unit);
	return best;
}

/* service:UNIT: its main process's exit, else its exec in the unit. */
static int end_service(const struct bp_critical_log *L, const struct bp_model *m,
		       const char *unit, struct bp_critical_path *path, uint32_t *ti)
{
	const struct bp_process *p = main_process(m, unit);

	if (!p)
		return -1;
	path->end_on = xstrdup(p->service->path);
	if (p->exit_ns) {
		path->end_what = "exit";
		return end_exit_of(L, m, p, ti, &path->end_ns);
	}
	path->end_what = "exec";
	path->end_ns = p->service_exec < p->nexec ? p->service_exec_ns : p->start_ns;
	if (!path->end_ns || task_of(L, m, p, path->end_ns, ti)) {
		bp_set_error("unit '%s': its process %d neither exits nor starts in the recording",
			     unit, p->pid);
		return -1;
	}
	return 0;
}

/* The last moment tid (any tid but the recorder's: 0) ran. */
static int end_last_run(const struct bp_critical_log *L, int tid, uint32_t *ti, uint64_t *ns)
{
	size_t i;

	*ti = NONE;
	for (i = 0; i < L->ntasks; i++) {
		const struct crit_task *t = &L->tasks[i];

		if (t->recorder || t->tid <= 0 || (tid && t->tid != tid) || !t->last_on_ns)
			continue;
		if (*ti == NONE || t->last_on_ns >= L->tasks[*ti].last_on_ns)
			*ti = (uint32_t)i;
	}
	if (*ti == NONE)
		return -1;
	*ns = L->tasks[*ti].last_on_ns;
	return 0;
}

int bp_crit_end_resolve(const struct bp_critical_log *L, const struct bp_model *m,
		       const struct bp_crit_end *e, struct bp_critical_path *p, uint32_t *ti)
{
	const char *stop = m->header.stop_reason;

	switch (e->kind) {
	case BP_CRIT_END_EXIT:
		p->end_what = "exit";
		p->end_why = "--to";
		return end_exit(L, m, e->pid, ti, &p->end_ns);
	case BP_CRIT_END_EXEC:
		p->end_what = "exec";
		p->end_why = "--to";
		return end_exec(L, e->prog, ti, &p->end_ns);
	case BP_CRIT_END_FILE:
		p->end_what = "file";
		p->end_why = "--to";
		return end_file(L, m, e->prog, ti, p);
	case BP_CRIT_END_SERVICE:
		p->end_why = "--to";
		return end_service(L, m, e->prog, p, ti);
	default:
		break;
	}
	if (m->header.command_pid > 0 && !end_exit(L, m, m->header.command_pid, ti, &p->end_ns)) {
		p->end_what = "exit";
		p->end_why = "the recorded command";
		return 0;
	}
	if (stop && !strncmp(stop, "exec of ", 8) && !end_exec(L, stop + 8, ti, &p->end_ns)) {
		p->end_what = "exec";
		p->end_why = "the recording's stop condition";
		return 0;
	}
	if (stop && (!strcmp(stop, "duration") || !strncmp(stop, "signal ", 7))) {
		bp_set_error("the recording stopped by %s: that instant is no end to walk back "
			     "from (name one with --to)", stop);
		return -1;
	}
	p->end_what = "last-run";
	if (!end_last_run(L, 1, ti, &p->end_ns)) {
		p->end_why = "PID 1's last run";
		return 0;
	}
	if (!end_last_run(L, 0, ti, &p->end_ns)) {
		p->end_why = "the last task to run";
		return 0;
	}
	bp_set_error("no task ran during the recording");
	return -1;
}
