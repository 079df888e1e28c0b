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

#include "util/compare.h"
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

/* The service manager's first placement ends the initramfs stage. */
static uint64_t manager_start(const struct bp_model *m)
{
	uint64_t manager = UINT64_MAX;
	size_t i;

	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		if (p->service && p->pid != 1 && p->start_ns && p->start_ns < manager)
			manager = p->start_ns;
	}
	return manager;
}

/*
 * The row that counts @p: its service's index in @m->services, or
 * m->nservices + ROW_PID1 / ROW_INITRAMFS; -1 when none does.
 */
static long row_of(const struct bp_model *m, const struct bp_process *p, uint64_t manager)
{
	if (p->pid == 1)
		return (long)(m->nservices + ROW_PID1);
	if (p->service)
		return (long)(p->service - m->services);
	if (p->start_ns && p->start_ns < manager && below_init(p))
		return (long)(m->nservices + ROW_INITRAMFS);
	return -1;
}

/* An exec of the row's at @ns, program @path: kept when it is the first. */
static void add_exec(struct bp_service_row *r, uint64_t ns, const char *path)
{
	if (ns && (!r->first_exec || ns < r->first_exec_ns)) {
		r->first_exec_ns = ns;
		r->first_exec = path;
	}
}

/* @in_cgroup: the row is @p's cgroup, whose execs count from when @p was in it. */
static void add_process(struct bp_service_row *r, const struct bp_process *p, int in_cgroup)
{
	if (!r->nprocesses++ || p->start_ns < r->first_start_ns)
		r->first_start_ns = p->start_ns;
	if (!in_cgroup && p->nexec)
		add_exec(r, p->first_exec_ns, p->exec[0]);
	else if (in_cgroup && p->service_exec < p->nexec)
		add_exec(r, p->service_exec_ns, p->exec[p->service_exec]);
	if (!p->exit_ns)
		r->running = 1;
	else if (p->exit_ns > r->last_exit_ns)
		r->last_exit_ns = p->exit_ns;
	r->wait_ns += p->wait_ns;
	r->bytes_read += p->bytes_read;
	r->run_ns += p->run_ns;
}

/* Last resort: the unit, then the cgroup (two slices may hold a unit of one name). */
static int cmp_identity(const struct bp_service_row *a, const struct bp_service_row *b)
{
	int c = strcmp(a->unit, b->unit);

	if (c || !a->service || !b->service)
		return c ? c : CMP_ASC(!a->service, !b->service);
	return strcmp(a->service->path, b->service->path);
}

static int cmp_key(const struct bp_service_row *a, const struct bp_service_row *b,
		   enum bp_service_order order)
{
	int c = 0;

	switch (order) {
	case BP_ORDER_SVC_WAIT:
		c = CMP_DESC(a->wait_ns, b->wait_ns);
		return c ? c : CMP_DESC(a->bytes_read, b->bytes_read);
	case BP_ORDER_SVC_BYTES:
		c = CMP_DESC(a->bytes_read, b->bytes_read);
		return c ? c : CMP_DESC(a->wait_ns, b->wait_ns);
	case BP_ORDER_SVC_RUN:
		return CMP_DESC(a->run_ns, b->run_ns);
	case BP_ORDER_SVC_PROCS:
		return CMP_DESC(a->nprocesses, b->nprocesses);
	case BP_ORDER_SVC_START:
		return CMP_ASC(a->first_start_ns, b->first_start_ns);
	case BP_ORDER_SVC_EXEC:
		c = CMP_ASC(!a->first_exec, !b->first_exec);
		return c ? c : CMP_ASC(a->first_exec_ns, b->first_exec_ns);
	case BP_ORDER_SVC_END:
		c = CMP_ASC(a->running, b->running);
		return c ? c : CMP_ASC(a->last_exit_ns, b->last_exit_ns);
	case BP_ORDER_SVC_UNIT:
		break;
	}
	return c;
}

/* qsort has no context argument; sorting happens on one thread. */
static enum bp_service_order sort_order;

static int cmp_row(const void *pa, const void *pb)
{
	const struct bp_service_row *a = pa, *b = pb;
	int c = cmp_key(a, b, sort_order);

	return c ? c : cmp_identity(a, b);
}

void bp_sort_services(struct bp_service_row *v, size_t n, enum bp_service_order order)
{
	sort_order = order;
	qsort(v, n, sizeof(*v), cmp_row);
}

struct bp_service_row *bp_view_services(const struct bp_model *m, const struct bp_filter *f,
					size_t *n)
{
	struct bp_service_row *v = xcalloc(m->nservices + NEXTRA, sizeof(*v));
	struct bp_service_row *extra = v + m->nservices;
	uint64_t manager;
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
	manager = manager_start(m);
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		long row = row_of(m, p, manager);

		/* A row none of whose processes is selected is not listed. */
		if (row < 0 || !bp_process_matches(m, p, f))
			continue;
		add_process(&v[row], p, (size_t)row < m->nservices);
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
	for (i = 0; i < *n; i++) {
		if (v[i].running)
			v[i].last_exit_ns = 0;
	}
	bp_sort_services(v, *n, BP_ORDER_SVC_WAIT);
	return v;
}

size_t bp_service_select(const struct bp_model *m, const struct bp_service_row *r,
			 struct bp_process **v, size_t n)
{
	uint64_t manager = manager_start(m);
	long want = -1;
	size_t i, kept = 0;
	int k;

	if (r->service) {
		want = (long)(r->service - m->services);
	} else {
		for (k = 0; k < NEXTRA; k++) {
			if (!strcmp(r->unit, extra_unit[k]))
				want = (long)m->nservices + k;
		}
	}
	/* The recorder's tasks are no process of the model: nothing to keep. */
	for (i = 0; i < n; i++) {
		if (want >= 0 && want != (long)m->nservices + ROW_RECORDER &&
		    row_of(m, v[i], manager) == want)
			v[kept++] = v[i];
	}
	return kept;
}
