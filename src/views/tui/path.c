// SPDX-License-Identifier: GPL-2.0
/*
 * top's path view: the critical path of the whole recording (the walk
 * `bootprof critical` prints, to the same default end) as a list in three
 * sections: its time by category, the files its I/O was on, and the
 * tasks it went through, each with the time of the path it holds. The
 * path is asked of the source once, the first time the view is shown;
 * the window does not change it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/format.h"
#include "util/error.h"
#include "util/printable.h"
#include "util/xalloc.h"
#include "views/tui/internal.h"

static const char *const section_title[TOP_PATH_NSECTIONS] = {
	"By category",
	"Files (the path's I/O on each)",
	"Tasks (the path's time on each)",
};

/* The state a task's share of the path was most in. */
static enum bp_crit_state most_of(const uint64_t *ns)
{
	int st, top = 0;

	for (st = 1; st < BP_CRIT_NSTATES; st++)
		top = ns[st] > ns[top] ? st : top;
	return (enum bp_crit_state)top;
}

static struct top_path_item *add_item(struct top *t, enum top_path_section section, char *name)
{
	struct top_path_item *it;

	BP_GROW(t->path_items, t->npath_items, t->path_items_cap);
	it = &t->path_items[t->npath_items++];
	memset(it, 0, sizeof(*it));
	it->section = section;
	it->name = name;
	return it;
}

static int by_tid(const void *a, const void *b)
{
	const struct bp_crit_segment *x = *(const struct bp_crit_segment *const *)a;
	const struct bp_crit_segment *y = *(const struct bp_crit_segment *const *)b;

	if (x->task.tid != y->task.tid)
		return x->task.tid < y->task.tid ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* One row per task on the path: its segments summed, by tid. */
static void task_items(struct top *t, const struct bp_critical_path *p)
{
	const struct bp_crit_segment **v = xmalloc((p->nsegments ? p->nsegments : 1) * sizeof(*v));
	size_t i, j;

	for (i = 0; i < p->nsegments; i++)
		v[i] = &p->segments[i];
	qsort(v, p->nsegments, sizeof(*v), by_tid);
	for (i = 0; i < p->nsegments; i = j) {
		uint64_t ns[BP_CRIT_NSTATES] = { 0 };
		struct top_path_item *it;
		char comm[64];

		for (j = i; j < p->nsegments && v[j]->task.tid == v[i]->task.tid; j++)
			ns[v[j]->state] += v[j]->end_ns - v[j]->start_ns;
		/* The last segment's comm: the one the task had at the end of its part. */
		bp_printable(comm, sizeof(comm), v[j - 1]->task.comm[0] ? v[j - 1]->task.comm : "?");
		it = add_item(t, TOP_PATH_TASK, xasprintf("%s[%d]", comm, v[i]->task.tid));
		it->segments = j - i;
		it->pid = v[i]->task.pid;
		for (j = i; j < i + it->segments; j++)
			it->ns += v[j]->end_ns - v[j]->start_ns;
		it->state = most_of(ns);
		snprintf(it->detail, sizeof(it->detail), "pid %d, most %s", it->pid,
			 bp_crit_state_name(it->state));
	}
	free(v);
}

/* The rows of every section, from the path; none when there is no path. */
static void build_items(struct top *t, const struct bp_critical_path *p)
{
	size_t seg[BP_CRIT_NSTATES] = { 0 }, i;
	struct top_path_item *it;
	int st;

	for (i = 0; i < p->nsegments; i++)
		seg[p->segments[i].state]++;
	for (st = 0; st < BP_CRIT_NSTATES; st++) {
		it = add_item(t, TOP_PATH_CATEGORY, xstrdup(bp_crit_state_title((enum bp_crit_state)st)));
		it->ns = p->state_ns[st];
		it->segments = seg[st];
		it->state = (enum bp_crit_state)st;
		snprintf(it->detail, sizeof(it->detail), "%s", bp_crit_state_name(it->state));
	}
	for (i = 0; i < p->nfiles; i++) {
		const struct bp_crit_file *f = &p->files[i];

		it = add_item(t, TOP_PATH_FILE, xstrdup(f->path ? f->path : "(no file known)"));
		it->ns = f->io_ns;
		it->segments = f->segments;
		it->dev = f->dev;
		it->ino = f->ino;
		it->has_file = f->path != NULL;
		if (it->has_file)
			snprintf(it->detail, sizeof(it->detail), "%u:%u ino %" PRIu64,
				 BP_DEV_MAJOR(f->dev), BP_DEV_MINOR(f->dev), f->ino);
		else
			snprintf(it->detail, sizeof(it->detail), "-");
	}
	task_items(t, p);
}

/* The path, asked of the source the first time; NULL with t->path_error when there is none. */
const struct bp_critical_path *top_path(struct top *t)
{
	if (t->path_tried)
		return t->path;
	t->path_tried = 1;
	if (!t->src->critical) {
		snprintf(t->path_error, sizeof(t->path_error),
			 "none live (record, then bootprof top FILE)");
		return NULL;
	}
	t->path = t->src->critical(t->src->arg);
	if (!t->path) {
		snprintf(t->path_error, sizeof(t->path_error), "%.150s", bp_last_error());
		return NULL;
	}
	build_items(t, t->path);
	return t->path;
}

void top_path_release(struct top *t)
{
	size_t i;

	for (i = 0; i < t->npath_items; i++)
		free(t->path_items[i].name);
	free(t->path_items);
	bp_critical_path_free(t->path);
}

/* ---- rows ---- */

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Numbers most first, text in order; ties by name. */
static int item_cmp(const struct top_path_item *a, const struct top_path_item *b, int order)
{
	int c = 0;

	switch (order) {
	case TOP_PATH_BY_MS:
		c = -cmp_u64(a->ns, b->ns);
		break;
	case TOP_PATH_BY_SEGMENTS:
		c = -cmp_u64(a->segments, b->segments);
		break;
	case TOP_PATH_BY_DETAIL:
		c = strcmp(a->detail, b->detail);
		break;
	default:
		break;
	}
	return c ? c : strcmp(a->name, b->name);
}

static int by_order(const void *pa, const void *pb, void *order)
{
	return item_cmp(*(const struct top_path_item *const *)pa,
			*(const struct top_path_item *const *)pb, *(const int *)order);
}

static void add_path_row(struct top *t, enum top_row_kind kind, const void *obj)
{
	BP_GROW(t->rows, t->nrows, t->rows_cap);
	t->rows[t->nrows++] = (struct top_row){ kind, obj, 0 };
}

/* The level's rows: each section's title, then its items the filter and o keep, in order. */
void top_path_rows(struct top *t, int order, int reverse)
{
	struct top_path_item **v;
	size_t i, k, n;
	int s;

	memset(t->path_shown, 0, sizeof(t->path_shown));
	if (!top_path(t))
		return;
	v = xmalloc((t->npath_items ? t->npath_items : 1) * sizeof(*v));
	for (s = 0; s < TOP_PATH_NSECTIONS; s++) {
		for (i = 0, n = 0; i < t->npath_items; i++) {
			struct top_path_item *it = &t->path_items[i];

			if (it->section != (enum top_path_section)s ||
			    (t->filter[0] && !strstr(it->name, t->filter)) ||
			    (t->active_only && !it->ns))
				continue;
			v[n++] = it;
		}
		qsort_r(v, n, sizeof(*v), by_order, &order);
		if (reverse)
			top_reverse_ptrs((void **)v, n);
		t->path_shown[s] = n;
		add_path_row(t, ROW_SECTION, &section_title[s]);
		for (k = 0; k < n; k++)
			add_path_row(t, ROW_PATH, v[k]);
	}
	free(v);
}

/* The cells of an item: ms to the µs, share of the path, segments, detail, name. */
void top_path_cells(const struct top *t, const struct top_path_item *it, char c[][CELL_LEN])
{
	char a[BP_FMT_LEN];

	snprintf(c[0], CELL_LEN, "%" PRIu64 ".%03" PRIu64, it->ns / 1000000,
		 it->ns / 1000 % 1000);
	snprintf(c[1], CELL_LEN, "%s", bp_fmt_pct(a, it->ns, t->path->end_ns - t->path->start_ns));
	snprintf(c[2], CELL_LEN, "%zu", it->segments);
	snprintf(c[3], CELL_LEN, "%s", it->detail);
	snprintf(c[4], CELL_LEN, "%s", it->name);
}

/* A section's title row: its name and how many of its rows are shown. */
void top_path_section(const struct top *t, struct top_frame *f, struct top_line *l,
		      const void *obj)
{
	size_t s = (size_t)((const char *const *)obj - section_title);
	size_t all = 0, i;

	for (i = 0; i < t->npath_items; i++)
		all += t->path_items[i].section == (enum top_path_section)s;
	l->attr = TA_TITLE;
	top_putf(f, l, 0, "%s: %zu of %zu", section_title[s], t->path_shown[s], all);
}

/* The title's second line: where the path ends and why, its length. */
void top_path_title(struct top *t, struct top_frame *f, struct top_line *l)
{
	const struct bp_critical_path *p = top_path(t);
	char comm[64], at[BP_FMT_LEN], len[BP_FMT_LEN];

	if (!p) {
		top_putf(f, l, 0, "no critical path: %s", t->path_error);
		return;
	}
	bp_printable(comm, sizeof(comm), p->end_task.comm[0] ? p->end_task.comm : "?");
	top_putf(f, l, 0, "to %s%s%s of %s[%d] at %s (%s%s), %s, %zu segments",
		       !strcmp(p->end_what, "last-run") ? "last run" :
		       !strcmp(p->end_what, "file") ? "first event on" : p->end_what,
		       p->end_on ? " " : "", p->end_on ? p->end_on : "", comm,
		       p->end_task.tid, bp_fmt_ts(at, p->end_ns), p->end_by ? "plugin " : "",
		       p->end_by ? p->end_by : p->end_why, bp_fmt_ns(len, p->end_ns - p->start_ns),
		       p->nsegments);
}
