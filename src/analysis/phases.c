// SPDX-License-Identifier: GPL-2.0
/*
 * Phases: boundaries found in the model's one pass (exec of PID 1, the
 * switch to the real root, user-defined exec/file/service ends), then one
 * model per phase window for its exact numbers. See phases.h.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "analysis/phases.h"
#include "analysis/session.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/xalloc.h"

#define NO_TIME UINT64_MAX

struct field {
	int off, size, dyn;
};

struct bp_phase_finder {
	struct tep_handle *tep;
	int exec_id, attach_id;
	struct field exec_file, exec_pid, attach_path;
	struct bp_phase_spec *specs;
	size_t nspecs;
	uint64_t *spec_end;       /* per spec: first matching event, NO_TIME */
	uint64_t kernel_end;      /* first exec of PID 1 */
	uint64_t initramfs_end;   /* PID 1's exec of the real root's init */
	int pid1_wrapper;         /* PID 1's last exec was bootprof itself */
	int pid1_execs;
	struct bp_pid1_exec_at *execs; /* the first PID1_EXECS_KEPT of them */
	size_t nexecs;
};

/* PID 1 execs a handful of times per boot; a hard cap all the same. */
#define PID1_EXECS_KEPT 64

const char *bp_phase_kind_name(enum bp_phase_kind kind)
{
	switch (kind) {
	case BP_PHASE_BUILTIN:
		return "builtin";
	case BP_PHASE_EXEC:
		return "exec";
	case BP_PHASE_FILE:
		return "file";
	case BP_PHASE_SERVICE:
		return "service";
	}
	return "?";
}

int bp_phase_spec_parse(const char *text, struct bp_phase_spec *out)
{
	static const struct {
		const char *prefix;
		enum bp_phase_kind kind;
	} kinds[] = { { "exec:", BP_PHASE_EXEC },
		      { "file:", BP_PHASE_FILE },
		      { "service:", BP_PHASE_SERVICE } };
	const char *eq = strchr(text, '='), *p;
	size_t i;

	if (!eq || eq == text) {
		bp_set_error("phase '%s' is not NAME=exec:PROG, NAME=file:PATH or NAME=service:UNIT",
			     text);
		return -1;
	}
	for (p = text; p < eq; p++) {
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '-' && *p != '_' && *p != '.') {
			bp_set_error("phase name '%.*s' may hold only letters, digits, '-', '_' and '.'",
				     (int)(eq - text), text);
			return -1;
		}
	}
	if ((eq - text == 6 && !strncmp(text, "kernel", 6)) ||
	    (eq - text == 9 && !strncmp(text, "initramfs", 9)) ||
	    (eq - text == 9 && !strncmp(text, "userspace", 9))) {
		bp_set_error("phase '%.*s' is built in", (int)(eq - text), text);
		return -1;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (!strncmp(eq + 1, kinds[i].prefix, n)) {
			if (!eq[1 + n]) {
				bp_set_error("phase '%s' has an empty %.*s", text, (int)n - 1,
					     kinds[i].prefix);
				return -1;
			}
			out->name = xstrndup(text, (size_t)(eq - text));
			out->kind = kinds[i].kind;
			out->arg = xstrdup(eq + 1 + n);
			return 0;
		}
	}
	bp_set_error("phase '%s' does not end at exec:PROG, file:PATH or service:UNIT", text);
	return -1;
}

void bp_phase_spec_release(struct bp_phase_spec *s)
{
	free(s->name);
	free(s->arg);
	s->name = s->arg = NULL;
}

int bp_phase_spec_opt(const struct bp_option *opt, const char *arg)
{
	struct bp_phase_spec_list *list = opt->value;

	if (list->n == list->max)
		return bp_option_fail("too many --%s", opt->long_name);
	if (bp_phase_spec_parse(arg, &list->specs[list->n]))
		return -1;
	list->n++;
	return 0;
}

static struct field find_field(struct tep_event *e, const char *name, const char *alt)
{
	struct field r = { -1, 0, 0 };
	struct tep_format_field *f;

	if (!e)
		return r;
	f = tep_find_field(e, name);
	if (!f && alt)
		f = tep_find_field(e, alt);
	if (!f)
		return r;
	r.off = f->offset;
	r.size = f->size;
	r.dyn = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		r.dyn = 2;
	return r;
}

static int event_id(struct tep_handle *tep, const char *sys, const char *name, struct tep_event **e)
{
	*e = tep ? tep_find_event_by_name(tep, sys, name) : NULL;
	return *e ? (*e)->id : -1;
}

struct bp_phase_finder *bp_phase_finder_new(struct tep_handle *tep,
					    const struct bp_phase_spec *specs, size_t nspecs)
{
	struct bp_phase_finder *f = xcalloc(1, sizeof(*f));
	struct tep_event *e;
	size_t i;

	f->tep = tep;
	f->exec_id = event_id(f->tep, "sched", "sched_process_exec", &e);
	f->exec_file = find_field(e, "filename", NULL);
	f->exec_pid = find_field(e, "pid", NULL);
	f->attach_id = event_id(f->tep, "cgroup", "cgroup_attach_task", &e);
	f->attach_path = find_field(e, "dst_path", "path");
	f->kernel_end = f->initramfs_end = NO_TIME;
	f->nspecs = nspecs;
	f->specs = xcalloc(nspecs ? nspecs : 1, sizeof(*f->specs));
	f->spec_end = xcalloc(nspecs ? nspecs : 1, sizeof(*f->spec_end));
	for (i = 0; i < nspecs; i++) {
		f->specs[i].name = xstrdup(specs[i].name);
		f->specs[i].kind = specs[i].kind;
		f->specs[i].arg = xstrdup(specs[i].arg);
		f->spec_end[i] = NO_TIME;
	}
	return f;
}

void bp_phase_finder_free(struct bp_phase_finder *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nspecs; i++)
		bp_phase_spec_release(&f->specs[i]);
	free(f->specs);
	free(f->spec_end);
	for (i = 0; i < f->nexecs; i++)
		free(f->execs[i].path);
	free(f->execs);
	free(f);
}

size_t bp_phase_finder_pid1_execs(const struct bp_phase_finder *f,
				  const struct bp_pid1_exec_at **out)
{
	*out = f->execs;
	return f->nexecs;
}

static long long read_int(struct bp_phase_finder *f, const struct bp_event *ev, struct field fl)
{
	unsigned long long v;

	if (fl.off < 0 || fl.size <= 0 || fl.size > 8 || fl.off > ev->size ||
	    fl.size > ev->size - fl.off)
		return -1;
	v = tep_read_number(f->tep, (const char *)ev->data + fl.off, fl.size);
	if (fl.size == 4)
		return (int)(unsigned)v;
	return (long long)v;
}

/* A string field (fixed array or __data_loc/__rel_loc) into buf. */
static const char *read_str(struct bp_phase_finder *f, const struct bp_event *ev, struct field fl,
			    char *buf, size_t len)
{
	size_t off = (size_t)fl.off, n = (size_t)fl.size;

	buf[0] = 0;
	if (fl.off < 0 || fl.off > ev->size || (fl.dyn ? 4 : fl.size) > ev->size - fl.off)
		return buf;
	if (fl.dyn) {
		unsigned loc = (unsigned)tep_read_number(f->tep, (const char *)ev->data + fl.off, 4);

		off = loc & 0xffff;
		n = loc >> 16;
		if (fl.dyn == 2)
			off += (size_t)fl.off + 4;
	}
	if (off > (size_t)ev->size || n > (size_t)ev->size - off)
		return buf;
	n = strnlen((const char *)ev->data + off, n);
	if (n >= len)
		n = len - 1;
	memcpy(buf, (const char *)ev->data + off, n);
	buf[n] = 0;
	return buf;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int bp_exec_matches(const char *pattern, const char *path)
{
	return !fnmatch(pattern, path, 0) || !fnmatch(pattern, base_name(path), 0);
}

int bp_unit_matches(const char *pattern, const char *cgroup)
{
	const char *last = base_name(cgroup);
	size_t n = strlen(last);
	char stem[256];

	if (!fnmatch(pattern, cgroup, 0) || !fnmatch(pattern, last, 0))
		return 1;
	if (n > 8 && n - 8 < sizeof(stem) && !strcmp(last + n - 8, ".service")) {
		memcpy(stem, last, n - 8);
		stem[n - 8] = 0;
		return !fnmatch(pattern, stem, 0);
	}
	return 0;
}

enum bp_pid1_exec bp_pid1_exec_kind(const char *path)
{
	const char *prog = base_name(path);

	if (!strncmp(path, "/proc/", 6))
		return BP_PID1_REEXEC;
	/* "bootprof", "bootprof-init" */
	if (!strncmp(prog, "bootprof", 8))
		return BP_PID1_WRAPPER;
	if (strstr(prog, "switch_root") || strstr(prog, "run-init") || strstr(prog, "pivot_root"))
		return BP_PID1_SWITCH;
	if (!strcmp(path, "/init") || !strcmp(path, "/linuxrc"))
		return BP_PID1_INITRAMFS;
	return BP_PID1_INIT;
}

void bp_phase_finder_event(void *arg, const struct bp_event *ev)
{
	struct bp_phase_finder *f = arg;
	char buf[4096];
	size_t i;

	if (ev->id == f->exec_id && f->exec_id >= 0) {
		const char *path = read_str(f, ev, f->exec_file, buf, sizeof(buf));

		if (read_int(f, ev, f->exec_pid) == 1) {
			enum bp_pid1_exec kind = bp_pid1_exec_kind(path);

			if (f->nexecs < PID1_EXECS_KEPT) {
				f->execs = xrealloc(f->execs, (f->nexecs + 1) * sizeof(*f->execs));
				f->execs[f->nexecs++] = (struct bp_pid1_exec_at){ ev->ts, kind,
										  xstrdup(path) };
			}
			if (!f->pid1_execs++)
				f->kernel_end = ev->ts;
			else if (!f->pid1_wrapper && f->initramfs_end == NO_TIME &&
				 kind != BP_PID1_SWITCH && kind != BP_PID1_REEXEC)
				f->initramfs_end = ev->ts;
			/* bootprof's PID-1 wrapper hands over to the real init: no root switch. */
			f->pid1_wrapper = kind == BP_PID1_WRAPPER;
		}
		for (i = 0; i < f->nspecs; i++) {
			if (f->specs[i].kind == BP_PHASE_EXEC && f->spec_end[i] == NO_TIME &&
			    bp_exec_matches(f->specs[i].arg, path))
				f->spec_end[i] = ev->ts;
		}
	} else if (ev->id == f->attach_id && f->attach_id >= 0) {
		const char *path = read_str(f, ev, f->attach_path, buf, sizeof(buf));

		for (i = 0; i < f->nspecs; i++) {
			if (f->specs[i].kind == BP_PHASE_SERVICE && f->spec_end[i] == NO_TIME &&
			    bp_unit_matches(f->specs[i].arg, path))
				f->spec_end[i] = ev->ts;
		}
	}
}

void bp_phases_free(struct bp_phase *v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static void add_phase(struct bp_phase **v, size_t *n, size_t *cap, const char *name,
		      enum bp_phase_kind kind, uint64_t end)
{
	struct bp_phase *p;

	BP_GROW(*v, *n, *cap);
	p = &(*v)[(*n)++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	p->kind = kind;
	p->reached = end != NO_TIME;
	p->end_ns = p->reached ? end : 0;
}

static int cmp_end(const void *pa, const void *pb)
{
	const struct bp_phase *a = pa, *b = pb;

	if (a->reached != b->reached)
		return a->reached ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns ? -1 : 1;
	/* userspace, the widest, after the user phases ending with it */
	if ((a->kind == BP_PHASE_BUILTIN) != (b->kind == BP_PHASE_BUILTIN))
		return a->kind == BP_PHASE_BUILTIN ? 1 : -1;
	return 0;
}

const struct bp_file *bp_phase_first_file(const struct bp_model *m, const char *pattern)
{
	const struct bp_file *first = NULL;
	size_t i;

	for (i = 0; i < m->nfiles; i++) {
		const struct bp_file *file = &m->files[i];

		if (file->kind == BP_FILE_REGULAR && !fnmatch(pattern, file->path, 0) &&
		    (!first || file->first_ns < first->first_ns))
			first = file;
	}
	return first;
}

/* The first event on a file whose path matches, NO_TIME when none. */
static uint64_t file_first(const struct bp_model *m, const char *pattern)
{
	const struct bp_file *f = bp_phase_first_file(m, pattern);

	return f ? f->first_ns : NO_TIME;
}

/* A phase's numbers from the model over its window: everyone's, or the command's tree's. */
static void phase_numbers(struct bp_phase *p, const struct bp_model *pm, int all)
{
	const struct bp_totals *t = !all && pm->header.command_pid > 0 ? &pm->command_totals :
									  &pm->totals;

	p->wait_ns = t->wait_ns;
	p->read_bytes = t->read_bytes;
	p->idle_wait_ns = t->idle_wait_ns;
}

long bp_phases_compute(struct bp_phase_finder *f, struct bp_session *session,
		       const struct bp_model *m, int all, struct bp_phase **out)
{
	struct bp_phase *v = NULL;
	size_t n = 0, cap = 0, i, j;
	uint64_t first = m->totals.first_ns, stop, user_start;

	/*
	 * The recorder notes its stop on the boot clock; on any other trace
	 * clock (local at boot before 6.x) that instant is not comparable,
	 * so the recording ends at its last event.
	 */
	stop = m->totals.last_ns;
	if (m->header.clock && !strcmp(m->header.clock, "boot") && m->header.stop_ns > first)
		stop = m->header.stop_ns;
	if (f->kernel_end != NO_TIME)
		add_phase(&v, &n, &cap, "kernel", BP_PHASE_BUILTIN, f->kernel_end);
	if (f->initramfs_end != NO_TIME)
		add_phase(&v, &n, &cap, "initramfs", BP_PHASE_BUILTIN, f->initramfs_end);
	user_start = f->initramfs_end != NO_TIME ? f->initramfs_end :
		     f->kernel_end != NO_TIME    ? f->kernel_end :
						   first;
	for (i = 0; i < f->nspecs; i++) {
		uint64_t end = f->spec_end[i];

		if (f->specs[i].kind == BP_PHASE_FILE)
			end = file_first(m, f->specs[i].arg);
		add_phase(&v, &n, &cap, f->specs[i].name, f->specs[i].kind, end);
	}
	add_phase(&v, &n, &cap, "userspace", BP_PHASE_BUILTIN, stop);
	qsort(v, n, sizeof(*v), cmp_end);
	for (i = 0; i < n; i++) {
		struct bp_phase *p = &v[i];

		if (!p->reached)
			continue;
		if (!strcmp(p->name, "kernel") && p->kind == BP_PHASE_BUILTIN) {
			p->start_ns = 0;
		} else if (!strcmp(p->name, "userspace") && p->kind == BP_PHASE_BUILTIN) {
			p->start_ns = user_start;
		} else {
			/* Where the latest phase that ended before this one ended. */
			p->start_ns = f->kernel_end != NO_TIME ? 0 : first;
			for (j = 0; j < i; j++) {
				if (v[j].reached && v[j].end_ns <= p->end_ns &&
				    v[j].end_ns > p->start_ns)
					p->start_ns = v[j].end_ns;
			}
		}
	}
	for (i = 0; i < n; i++) {
		struct bp_phase *p = &v[i];
		struct bp_window w = { 0 };
		struct bp_model *pm;

		if (!session || !p->reached || p->end_ns <= p->start_ns)
			continue;
		/* A phase over every event of a whole-recording model: its numbers. */
		if (m->totals.events == m->totals.events_total && p->start_ns <= m->totals.first_ns &&
		    p->end_ns >= m->totals.last_ns) {
			phase_numbers(p, m, all);
			continue;
		}
		w.since_ns = p->start_ns ? p->start_ns : 1;
		w.until_ns = p->end_ns;
		pm = bp_session_build(session, &w, NULL, 0);
		if (!pm) {
			bp_phases_free(v, n);
			return -1;
		}
		phase_numbers(p, pm, all);
		bp_model_free(pm);
	}
	*out = v;
	return (long)n;
}

int bp_phase_window(struct bp_session *session, const char *phase, struct bp_window *w)
{
	struct bp_phase_spec spec = { 0 };
	struct bp_build_hooks hooks = { 0 };
	struct bp_phase_finder *finder;
	struct bp_phase *v = NULL;
	struct bp_model *m = NULL;
	const char *path = session->path;
	long n = -1, i;
	const char *name = phase;
	int ret = -1;

	/* NAME=END: a user-defined phase; NAME alone: a built-in one. */
	if (strchr(phase, '=')) {
		if (bp_phase_spec_parse(phase, &spec) < 0)
			return -1;
		name = spec.name;
	}
	finder = bp_phase_finder_new(bp_reader_tep(session->reader), spec.name ? &spec : NULL,
				     spec.name ? 1 : 0);
	hooks.event = bp_phase_finder_event;
	hooks.arg = finder;
	m = bp_session_build(session, NULL, &hooks, 1);
	if (m)
		n = bp_phases_compute(finder, NULL, m, 1, &v);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].name, name))
			continue;
		if (!v[i].reached) {
			bp_set_error("phase '%s' is not reached in '%s'", name, path);
			break;
		}
		w->since_ns = v[i].start_ns ? v[i].start_ns : 1;
		w->until_ns = v[i].end_ns;
		ret = 0;
		break;
	}
	if (n >= 0 && i == n)
		bp_set_error("no phase '%s' in '%s' (built in: kernel, initramfs, userspace; "
			     "or NAME=exec:PROG, file:PATH, service:UNIT)", name, path);
	bp_phases_free(v, n > 0 ? (size_t)n : 0);
	bp_model_free(m);
	bp_phase_finder_free(finder);
	bp_phase_spec_release(&spec);
	return ret;
}
