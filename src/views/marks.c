// SPDX-License-Identifier: GPL-2.0
/*
 * Phase markers and initcalls for timelines (see marks.h): PID 1's execs
 * as the phase finder saw them, and the marks plugins gave (host->mark).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critical.h"
#include "analysis/phases.h"
#include "bootprof/plugin.h"
#include "util/xalloc.h"
#include "views/marks.h"

#define BOOT_WINDOW_NS (120ull * 1000000000ull)

/* What an exec of PID 1 begins; NULL for one that begins nothing (a wrapper, a re-exec). */
static const char *phase_of(enum bp_pid1_exec kind)
{
	switch (kind) {
	case BP_PID1_SWITCH:
		return "real root";
	case BP_PID1_INITRAMFS:
		return "initramfs";
	case BP_PID1_INIT:
		return "init";
	default:
		return NULL;
	}
}

static void add_mark(struct bp_marks *out, uint64_t ns, char *name)
{
	out->phases = xrealloc(out->phases, (out->nphases + 1) * sizeof(*out->phases));
	out->phases[out->nphases].ns = ns;
	out->phases[out->nphases].name = name;
	out->nphases++;
}

static int by_mark(const void *a, const void *b)
{
	const struct bp_mark *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_call(const void *a, const void *b)
{
	const struct bp_initcall_bar *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->duration_ns != y->duration_ns)
		return x->duration_ns > y->duration_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The first start of a process in a service: systemd starting units. */
static uint64_t first_service_start(const struct bp_model *m)
{
	uint64_t first = 0;
	size_t i;

	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		if (p->service && p->start_ns && (!first || p->start_ns < first))
			first = p->start_ns;
	}
	return first;
}

static void add_call(struct bp_marks *out, const struct bootprof_mark *span)
{
	struct bp_initcall_bar *b;

	out->calls = xrealloc(out->calls, (out->ncalls + 1) * sizeof(*out->calls));
	b = &out->calls[out->ncalls++];
	b->start_ns = span->ns;
	b->duration_ns = span->duration_ns;
	b->name = xstrdup(span->name);
	b->level = xstrdup(span->detail ? span->detail : "-");
}

void bp_marks_collect(const struct bp_phase_finder *finder, const struct bootprof_mark *given,
		      size_t ngiven, const struct bp_model *m, uint64_t origin_ns,
		      struct bp_marks *out)
{
	const struct bp_pid1_exec_at *x = NULL;
	size_t i, nx = finder ? bp_phase_finder_pid1_execs(finder, &x) : 0;
	uint64_t ns;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nx; i++) {
		const char *phase = phase_of(x[i].kind);

		if (phase)
			add_mark(out, x[i].ns, x[i].kind == BP_PID1_SWITCH ?
					       xstrdup(phase) : xasprintf("%s %s", phase, x[i].path));
	}
	for (i = 0; i < ngiven; i++) {
		if (given[i].kind == BOOTPROF_MARK_PHASE || given[i].kind == BOOTPROF_MARK_END)
			add_mark(out, given[i].ns, xstrdup(given[i].name));
		else
			add_call(out, &given[i]);
	}
	/* The kernel phase: from boot to PID 1's first exec (boot recordings only). */
	if (out->nphases && origin_ns == 0)
		add_mark(out, 0, xstrdup("kernel"));
	ns = first_service_start(m);
	if (ns)
		add_mark(out, ns, xstrdup("services"));
	/* The recorder's stop time is on the boot clock; other clocks stop at the last event. */
	ns = m->header.clock && !strcmp(m->header.clock, "boot") && m->header.stop_ns &&
			     m->header.stop_ns <= m->window.until_ns ? m->header.stop_ns :
								       m->totals.last_ns;
	if (m->header.stop_reason)
		add_mark(out, ns, xasprintf("stop: %s", m->header.stop_reason));
	if (out->nphases)
		qsort(out->phases, out->nphases, sizeof(*out->phases), by_mark);
	if (out->ncalls)
		qsort(out->calls, out->ncalls, sizeof(*out->calls), by_call);
}

size_t bp_marks_ends(const struct bootprof_mark *given, size_t ngiven,
		     const char *(*by)(const void *arg, size_t i), const void *arg,
		     struct bp_crit_mark **out)
{
	size_t i, n = 0;

	*out = xcalloc(ngiven ? ngiven : 1, sizeof(**out));
	for (i = 0; i < ngiven; i++) {
		if (given[i].kind != BOOTPROF_MARK_END || given[i].pid <= 0)
			continue;
		(*out)[n++] = (struct bp_crit_mark){ given[i].ns, given[i].pid, given[i].name,
						     by ? by(arg, i) : NULL };
	}
	return n;
}

void bp_marks_release(struct bp_marks *marks)
{
	size_t i;

	for (i = 0; i < marks->nphases; i++)
		free(marks->phases[i].name);
	for (i = 0; i < marks->ncalls; i++) {
		free(marks->calls[i].name);
		free(marks->calls[i].level);
	}
	free(marks->phases);
	free(marks->calls);
	memset(marks, 0, sizeof(*marks));
}

uint64_t bp_timeline_origin(const char *clock, uint64_t start_ns, uint64_t first_ns)
{
	uint64_t start = start_ns && start_ns < first_ns ? start_ns : first_ns;

	/* Both count from boot: "local" is sched_clock, what early-boot events use. */
	if (clock && (!strcmp(clock, "boot") || !strcmp(clock, "local")) && start < BOOT_WINDOW_NS)
		return 0;
	return start;
}
