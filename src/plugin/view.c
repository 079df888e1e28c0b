// SPDX-License-Identifier: GPL-2.0
/*
 * The model as plugins see it: the report's selection (the traced
 * command's tree by default, --pid, --comm, --file), so that their
 * sections follow the same filter as the report's own.
 */
#include <stdlib.h>
#include <string.h>

#include "plugin/internal.h"
#include "util/xalloc.h"

void bp_plugin_model_init(struct bp_plugin_model *v, const struct bp_model *m,
			  const struct bp_filter *f)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	v->m = m;
	if (f)
		v->filter = *f;
	v->filtered = f && (f->pid || f->comm || f->file);
	v->procs = xmalloc((m->nprocesses + 1) * sizeof(*v->procs));
	v->proc_slot = xmalloc((m->nprocesses + 1) * sizeof(*v->proc_slot));
	for (i = 0; i < m->nprocesses; i++) {
		v->proc_slot[i] = BOOTPROF_NONE;
		if (!bp_process_matches(m, &m->processes[i], &v->filter))
			continue;
		v->proc_slot[i] = v->nprocs;
		v->procs[v->nprocs++] = &m->processes[i];
	}
	v->files = xmalloc((m->nfiles + 1) * sizeof(*v->files));
	v->file_slot = xmalloc((m->nfiles + 1) * sizeof(*v->file_slot));
	for (i = 0; i < m->nfiles; i++) {
		v->file_slot[i] = BOOTPROF_NONE;
		if (!bp_file_matches(m, &m->files[i], &v->filter))
			continue;
		v->file_slot[i] = v->nfiles;
		v->files[v->nfiles++] = &m->files[i];
	}
	v->accesses = xmalloc((m->naccesses + 1) * sizeof(*v->accesses));
	for (i = 0; i < m->naccesses; i++) {
		const struct bp_access *a = &m->accesses[i];

		if (a->process && a->file && v->proc_slot[a->process - m->processes] != BOOTPROF_NONE &&
		    v->file_slot[a->file - m->files] != BOOTPROF_NONE)
			v->accesses[v->naccesses++] = &m->accesses[i];
	}
	v->threads = xmalloc((m->nthreads + 1) * sizeof(*v->threads));
	for (i = 0; i < m->nthreads; i++) {
		if (m->threads[i].process &&
		    v->proc_slot[m->threads[i].process - m->processes] != BOOTPROF_NONE)
			v->threads[v->nthreads++] = &m->threads[i];
	}
	v->nexecs = bp_model_select_execs(m, &v->filter, &v->execs);
}

void bp_plugin_model_release(struct bp_plugin_model *v)
{
	free(v->procs);
	free(v->proc_slot);
	free(v->files);
	free(v->file_slot);
	free(v->accesses);
	free(v->threads);
	free(v->execs);
	memset(v, 0, sizeof(*v));
}
