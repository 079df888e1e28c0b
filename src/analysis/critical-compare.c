// SPDX-License-Identifier: GPL-2.0
/*
 * Two critical paths side by side, by task (comm) and by file (path):
 * see critical-compare.h.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/critical-compare.h"
#include "util/xalloc.h"

struct changes {
	struct bp_crit_change *v;
	size_t n, cap;
};

/* Add ns to key's side (0: before, 1: after); linear, the lists are short. */
static void add(struct changes *c, const char *key, int side, uint64_t ns)
{
	struct bp_crit_change *ch = NULL;
	size_t i;

	for (i = 0; i < c->n && !ch; i++) {
		if (!strcmp(c->v[i].key, key))
			ch = &c->v[i];
	}
	if (!ch) {
		BP_GROW(c->v, c->n, c->cap);
		ch = &c->v[c->n++];
		memset(ch, 0, sizeof(*ch));
		ch->key = xstrdup(key);
	}
	if (side)
		ch->after_ns += ns;
	else
		ch->before_ns += ns;
}

static uint64_t delta(const struct bp_crit_change *c)
{
	return c->after_ns > c->before_ns ? c->after_ns - c->before_ns : c->before_ns - c->after_ns;
}

static int by_change(const void *pa, const void *pb)
{
	const struct bp_crit_change *a = pa, *b = pb;

	if (delta(a) != delta(b))
		return delta(a) > delta(b) ? -1 : 1;
	return strcmp(a->key, b->key);
}

static void gather(const struct bp_critical_path *p, int side, struct changes *tasks,
		   struct changes *files)
{
	size_t i;

	for (i = 0; i < p->nsegments; i++) {
		const struct bp_crit_segment *g = &p->segments[i];

		add(tasks, g->task.comm, side, g->end_ns - g->start_ns);
	}
	for (i = 0; i < p->nfiles; i++) {
		if (p->files[i].path)
			add(files, p->files[i].path, side, p->files[i].io_ns);
	}
}

void bp_crit_compare(const struct bp_critical_path *before, const struct bp_critical_path *after,
		     struct bp_crit_compare *out)
{
	struct changes tasks = { 0 }, files = { 0 };

	gather(before, 0, &tasks, &files);
	gather(after, 1, &tasks, &files);
	if (tasks.n)
		qsort(tasks.v, tasks.n, sizeof(*tasks.v), by_change);
	if (files.n)
		qsort(files.v, files.n, sizeof(*files.v), by_change);
	out->tasks = tasks.v;
	out->ntasks = tasks.n;
	out->files = files.v;
	out->nfiles = files.n;
}

void bp_crit_compare_release(struct bp_crit_compare *c)
{
	size_t i;

	for (i = 0; i < c->ntasks; i++)
		free(c->tasks[i].key);
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i].key);
	free(c->tasks);
	free(c->files);
	memset(c, 0, sizeof(*c));
}
