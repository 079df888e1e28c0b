// SPDX-License-Identifier: GPL-2.0
/*
 * Services as users know them: unit names and lifetimes, for every format.
 * PID 1, the initramfs stage and the recorder are rows of their own, so a
 * boot's early user space and what recording it cost are not lost inside
 * init.scope or left out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/unit.h"
#include "util/xalloc.h"
#include "views/report.h"

/* Extra rows after the model's services. */
enum { ROW_PID1, ROW_INITRAMFS, ROW_RECORDER, NEXTRA };
static const char *const extra_unit[NEXTRA] = { "[PID 1]", "[initramfs]", "[recorder]" };

/* A process forked, directly or not, by PID 1 (not a kernel thread). */
static int below_init(const struct bp_process *p)
{
	int steps = 0;

	for (p = p->parent; p && steps++ < 4096; p = p->parent) {
		if (p->pid == 1)
			return 1;
	}
	return 0;
}

static void add_process(struct bp_service_row *r, const struct bp_process *p)
{
	if (!r->nprocesses++ || p->start_ns < r->first_start_ns)
		r->first_start_ns = p->start_ns;
	if (!p->exit_ns)
		r->running = 1;
	else if (p->exit_ns > r->last_exit_ns)
		r->last_exit_ns = p->exit_ns;
	r->wait_ns += p->wait_ns;
	r->bytes_read += p->bytes_read;
	r->run_ns += p->run_ns;
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct bp_service_row *a = pa, *b = pb;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->bytes_read != b->bytes_read)
		return a->bytes_read > b->bytes_read ? -1 : 1;
	return strcmp(a->unit, b->unit);
}

struct bp_service_row *bp_view_services(const struct bp_model *m, const struct bp_filter *f,
					size_t *n)
{
	struct bp_service_row *v = xcalloc(m->nservices + NEXTRA, sizeof(*v));
	struct bp_service_row *extra = v + m->nservices;
	uint64_t manager = UINT64_MAX;
	size_t i, k;

	*n = 0;
	/* Without cgroups there are no services to set these apart from. */
	if (!m->nservices)
		return v;
	for (i = 0; i < m->nservices; i++) {
		v[i].service = &m->services[i];
		if (bp_unit_of_cgroup(m->services[i].path, v[i].unit, sizeof(v[i].unit)))
			snprintf(v[i].unit, sizeof(v[i].unit), "%s", m->services[i].path);
	}
	for (k = 0; k < NEXTRA; k++)
		snprintf(extra[k].unit, sizeof(extra[k].unit), "%s", extra_unit[k]);
	/* The service manager's first placement ends the initramfs stage. */
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		if (p->service && p->pid != 1 && p->start_ns && p->start_ns < manager)
			manager = p->start_ns;
	}
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		/* A row none of whose processes is selected is not listed. */
		if (!bp_process_matches(m, p, f))
			continue;
		if (p->pid == 1)
			add_process(&extra[ROW_PID1], p);
		else if (p->service)
			add_process(&v[p->service - m->services], p);
		else if (p->start_ns && p->start_ns < manager && below_init(p))
			add_process(&extra[ROW_INITRAMFS], p);
	}
	/* The recorder is no process of a selection: a row of the whole system. */
	if (m->totals.recorder_tasks && !(f && (f->pid || f->comm || f->file))) {
		extra[ROW_RECORDER].nprocesses = 1;
		extra[ROW_RECORDER].first_start_ns = m->totals.recorder_start_ns;
		extra[ROW_RECORDER].run_ns = m->totals.recorder_run_ns;
		extra[ROW_RECORDER].running = 1;
	}
	/* Rows left empty (init.scope without PID 1, no initramfs) go. */
	for (i = 0; i < m->nservices + NEXTRA; i++) {
		if (v[i].nprocesses)
			v[(*n)++] = v[i];
	}
	qsort(v, *n, sizeof(*v), cmp_row);
	for (i = 0; i < *n; i++) {
		if (v[i].running)
			v[i].last_exit_ns = 0;
	}
	return v;
}
