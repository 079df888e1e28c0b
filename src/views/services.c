// SPDX-License-Identifier: GPL-2.0
/* Services as users know them: unit names and lifetimes, for every format. */
#include <stdlib.h>
#include <string.h>

#include "util/unit.h"
#include "util/xalloc.h"
#include "views/report.h"

struct bp_service_row *bp_view_services(const struct bp_model *m, const struct bp_filter *f,
					size_t *n)
{
	struct bp_service_row *v = xcalloc(m->nservices ? m->nservices : 1, sizeof(*v));
	size_t i, out = 0;

	for (i = 0; i < m->nservices; i++) {
		v[i].service = &m->services[i];
		v[i].first_start_ns = UINT64_MAX;
		if (bp_unit_of_cgroup(m->services[i].path, v[i].unit, sizeof(v[i].unit)))
			snprintf(v[i].unit, sizeof(v[i].unit), "%s", m->services[i].path);
	}
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		struct bp_service_row *r;

		if (!p->service || !bp_process_matches(m, p, f))
			continue;
		r = &v[p->service - m->services];
		r->nprocesses++;
		r->wait_ns += p->wait_ns;
		r->bytes_read += p->bytes_read;
		if (p->start_ns < r->first_start_ns)
			r->first_start_ns = p->start_ns;
		if (!p->exit_ns)
			r->running = 1;
		else if (p->exit_ns > r->last_exit_ns)
			r->last_exit_ns = p->exit_ns;
	}
	for (i = 0; i < m->nservices; i++) {
		/* A service none of whose processes is selected is not listed. */
		if (!v[i].nprocesses)
			continue;
		if (v[i].first_start_ns == UINT64_MAX)
			v[i].first_start_ns = 0;
		if (v[i].running)
			v[i].last_exit_ns = 0;
		v[out++] = v[i];
	}
	*n = out;
	return v;
}
