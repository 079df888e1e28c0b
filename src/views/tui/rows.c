// SPDX-License-Identifier: GPL-2.0
/*
 * top's views as rows: the columns of each view, which rows it lists in
 * which order, and the cells of a row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sort.h"
#include "doc/format.h"
#include "util/xalloc.h"
#include "views/tui/internal.h"

static const struct top_col file_cols[] = {
	{ "WAIT", "wait", NULL, 9, 1, BP_SORT_FILE_WAIT, 0 },
	{ "READ", "read", "bytes", 9, 1, BP_SORT_FILE_BYTES, 2 },
	{ "NEVER USED", "never-used", "never", 10, 1, BP_SORT_FILE_NEVER_USED, 4 },
	{ "RE-READ", "reread", "re-read", 9, 1, BP_SORT_FILE_REREAD, 5 },
	{ "READERS", "readers", NULL, 7, 1, BP_SORT_FILE_READERS, 3 },
	{ "PATH", "path", "name", 0, 0, BP_SORT_FILE_PATH, 0 },
};

static const struct top_col proc_cols[] = {
	{ "PID", "pid", NULL, 7, 1, BP_SORT_PROC_PID, 3 },
	{ "COMM", "comm", "name", 15, 0, PROC_ORDER_EXTRA + BP_ORDER_PROC_COMM, 0 },
	{ "WAIT", "wait", NULL, 9, 1, BP_SORT_PROC_WAIT, 0 },
	{ "TREE WAIT", "tree-wait", "tree", 9, 1, BP_SORT_PROC_TREE_WAIT, 5 },
	{ "CPU", "cpu", "run", 9, 1, BP_SORT_PROC_RUN, 4 },
	{ "READ", "read", "bytes", 9, 1, BP_SORT_PROC_BYTES, 2 },
	{ "FILES", "files", NULL, 5, 1, PROC_ORDER_EXTRA + BP_ORDER_PROC_FILES, 6 },
	{ "START", "start", NULL, 10, 1, BP_SORT_PROC_START, 7 },
	{ "WORST FILE", "worst", "worst-file", 0, 0, PROC_ORDER_EXTRA + BP_ORDER_PROC_WORST, 1 },
};

static const struct top_col reader_cols[] = {
	{ "PID", "pid", NULL, 7, 1, BP_ORDER_ACCESS_PID, 0 },
	{ "COMM", "comm", "name", 15, 0, BP_ORDER_ACCESS_COMM, 0 },
	{ "WAIT", "wait", NULL, 9, 1, BP_ORDER_ACCESS_WAIT, 0 },
	{ "READ", "read", "bytes", 9, 1, BP_ORDER_ACCESS_BYTES, 1 },
	{ "FIRST", "first", NULL, 10, 1, BP_ORDER_ACCESS_FIRST, 2 },
	{ "LAST", "last", NULL, 10, 1, BP_ORDER_ACCESS_LAST, 3 },
};

static const struct top_col access_cols[] = {
	{ "WAIT", "wait", NULL, 9, 1, BP_ORDER_ACCESS_WAIT, 0 },
	{ "READ", "read", "bytes", 9, 1, BP_ORDER_ACCESS_BYTES, 1 },
	{ "FIRST", "first", NULL, 10, 1, BP_ORDER_ACCESS_FIRST, 2 },
	{ "LAST", "last", NULL, 10, 1, BP_ORDER_ACCESS_LAST, 3 },
	{ "PATH", "path", "name", 0, 0, BP_ORDER_ACCESS_PATH, 0 },
};

/* The report's services section, as a list (views/services.c sorts it). */
static const struct top_col service_cols[] = {
	{ "WAIT", "wait", NULL, 9, 1, BP_ORDER_SVC_WAIT, 0 },
	{ "READ", "read", "bytes", 9, 1, BP_ORDER_SVC_BYTES, 2 },
	{ "CPU", "cpu", "run", 9, 1, BP_ORDER_SVC_RUN, 4 },
	{ "PROCS", "procs", "processes", 5, 1, BP_ORDER_SVC_PROCS, 3 },
	{ "STARTED", "start", "started", 9, 1, BP_ORDER_SVC_START, 6 },
	{ "FIRST EXEC", "exec", "first-exec", 10, 1, BP_ORDER_SVC_EXEC, 5 },
	{ "ENDED", "end", "ended", 9, 1, BP_ORDER_SVC_END, 7 },
	{ "SERVICE", "unit", "service", 0, 0, BP_ORDER_SVC_UNIT, 0 },
};

/* The critical path's sections (path.c); the detail drops first, the time never. */
static const struct top_col path_cols[] = {
	{ "MS", "ms", "time", 11, 1, TOP_PATH_BY_MS, 0 },
	{ "SHARE", "share", NULL, 6, 1, TOP_PATH_BY_MS, 2 },
	{ "SEGMENTS", "segments", "segs", 8, 1, TOP_PATH_BY_SEGMENTS, 3 },
	{ "DETAIL", "detail", NULL, 24, 0, TOP_PATH_BY_DETAIL, 4 },
	{ "NAME", "name", "path", 0, 0, TOP_PATH_BY_NAME, 0 },
};

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

const struct top_col *top_level_cols(enum top_level_kind kind, int *n)
{
	switch (kind) {
	case LEVEL_FILES:
		*n = NCOLS(file_cols);
		return file_cols;
	case LEVEL_PROCS:
	case LEVEL_SERVICE:
		*n = NCOLS(proc_cols);
		return proc_cols;
	case LEVEL_FILE:
		*n = NCOLS(reader_cols);
		return reader_cols;
	case LEVEL_SERVICES:
		*n = NCOLS(service_cols);
		return service_cols;
	case LEVEL_PATH:
		*n = NCOLS(path_cols);
		return path_cols;
	case LEVEL_PROC:
		break;
	}
	*n = NCOLS(access_cols);
	return access_cols;
}

/* The column index named @name, or -1. */
int top_find_col(enum top_level_kind kind, const char *name)
{
	const struct top_col *c;
	int n, i;

	c = top_level_cols(kind, &n);
	for (i = 0; name && i < n; i++) {
		if (!strcasecmp(name, c[i].name) || (c[i].alias && !strcasecmp(name, c[i].alias)))
			return i;
	}
	return -1;
}

int top_wait_col(enum top_level_kind kind)
{
	return top_find_col(kind, kind == LEVEL_PATH ? "ms" : "wait");
}

enum top_level_kind top_root_kind(enum bp_top_view v)
{
	if (v == BP_TOP_SERVICES)
		return LEVEL_SERVICES;
	if (v == BP_TOP_PATH)
		return LEVEL_PATH;
	return v == BP_TOP_PROCS ? LEVEL_PROCS : LEVEL_FILES;
}

int bp_top_sort_valid(enum bp_top_view view, const char *sort)
{
	return top_find_col(top_root_kind(view), sort) >= 0;
}

const char *bp_top_sort_names(enum bp_top_view view)
{
	if (view == BP_TOP_PROCS)
		return "pid, comm, wait, tree-wait, cpu, read, files, start, worst";
	if (view == BP_TOP_SERVICES)
		return "wait, read, cpu, procs, start, exec, end, unit";
	if (view == BP_TOP_PATH)
		return "ms, share, segments, detail, name";
	return "wait, read, never-used, reread, readers, path";
}

/* ---- rows ---- */

struct top_level *top_cur(struct top *t)
{
	return &t->stack[t->depth - 1];
}

static void add_row(struct top *t, enum top_row_kind kind, const void *obj)
{
	BP_GROW(t->rows, t->nrows, t->rows_cap);
	t->rows[t->nrows++] = (struct top_row){ kind, obj, 0 };
}

int top_row_selectable(const struct top_row *r)
{
	return r->kind != ROW_TITLE && r->kind != ROW_HEAD && r->kind != ROW_SECTION;
}

struct bp_file *top_level_file(const struct top *t, const struct top_level *lv)
{
	return bp_model_find_file(t->win, lv->dev, lv->ino);
}

/* The process a level names: same pid and start (pids are reused), else the latest with the pid. */
struct bp_process *top_level_proc(const struct top *t, const struct top_level *lv)
{
	size_t i;

	for (i = 0; i < t->win->nprocesses; i++) {
		struct bp_process *p = &t->win->processes[i];

		if (p->pid == lv->pid && p->start_ns == lv->start_ns)
			return p;
	}
	return bp_model_find_process(t->win, lv->pid);
}

/* What names a service row across rebuilds of the window (top_level.service). */
const char *top_service_key(const struct bp_service_row *r)
{
	return r->service ? r->service->path : r->unit;
}

/* The row of t->services a level names (a key cut to fit matches on what is left), or NULL. */
const struct bp_service_row *top_level_service(const struct top *t, const struct top_level *lv)
{
	size_t i;

	for (i = 0; i < t->nservices; i++) {
		if (!strncmp(top_service_key(&t->services[i]), lv->service, sizeof(lv->service) - 1))
			return &t->services[i];
	}
	return NULL;
}

/* A file's readers or a process's files; readers outside the focus are not listed. */
static void sorted_accesses(struct top *t, struct bp_access **src, size_t n, int order,
			    enum top_row_kind kind)
{
	struct bp_access **v;
	size_t i, k = 0;

	if (!n)
		return;
	v = xmalloc(n * sizeof(*v));
	for (i = 0; i < n; i++) {
		if (kind != ROW_READER || bp_reader_selected(src[i], &t->focus))
			v[k++] = src[i];
	}
	n = k;
	bp_sort_accesses(v, n, (enum bp_access_order)order);
	for (i = 0; i < n; i++)
		add_row(t, kind, v[i]);
	free(v);
}

/* Reverse v[0..n). */
void top_reverse_ptrs(void **v, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		void *tmp = v[i];

		v[i] = v[n - 1 - i];
		v[n - 1 - i] = tmp;
	}
}

static void reverse_rows(struct top_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		struct top_row tmp = rows[i];

		rows[i] = rows[n - 1 - i];
		rows[n - 1 - i] = tmp;
	}
}

/* A process of the list and where it is in the sort order. */
struct tree_rank {
	const struct bp_process *p;
	size_t i;
};

static int by_process(const void *a, const void *b)
{
	const struct tree_rank *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The position of @p in the list, or -1 when it is not listed. */
static long tree_find(const struct tree_rank *r, size_t n, const struct bp_process *p)
{
	struct tree_rank key = { p, 0 }, *hit;

	if (!p)
		return -1;
	hit = bsearch(&key, r, n, sizeof(*r), by_process);
	return hit ? (long)hit->i : -1;
}

/* Deeper trees are shown flat from there: an untrusted recording may nest any depth. */
#define TREE_MAX_DEPTH 64

static void add_subtree(struct top *t, struct bp_process **v, const struct tree_rank *r, size_t n,
			size_t i, int depth, unsigned char *done)
{
	const struct bp_process *p = v[i];
	size_t *kids, nkids = 0, k;
	long j;

	done[i] = 1;
	add_row(t, ROW_PROC, p);
	t->rows[t->nrows - 1].depth = depth;
	if (depth >= TREE_MAX_DEPTH || !p->nchildren)
		return;
	kids = xmalloc(p->nchildren * sizeof(*kids));
	for (k = 0; k < p->nchildren; k++) {
		j = tree_find(r, n, p->children[k]);
		if (j >= 0 && !done[j])
			kids[nkids++] = (size_t)j;
	}
	/* Siblings in the list's (sort) order. */
	qsort(kids, nkids, sizeof(*kids), by_index);
	for (k = 0; k < nkids; k++) {
		if (!done[kids[k]])
			add_subtree(t, v, r, n, kids[k], depth + 1, done);
	}
	free(kids);
}

/*
 * The processes v[0..n) (sorted) as a tree: each process whose parent is
 * not listed, then its listed descendants depth-first, siblings in order.
 */
static void add_tree(struct top *t, struct bp_process **v, size_t n)
{
	struct tree_rank *r = xmalloc((n ? n : 1) * sizeof(*r));
	unsigned char *done = xcalloc(n ? n : 1, 1);
	size_t i;

	for (i = 0; i < n; i++)
		r[i] = (struct tree_rank){ v[i], i };
	qsort(r, n, sizeof(*r), by_process);
	for (i = 0; i < n; i++) {
		if (!done[i] && tree_find(r, n, v[i]->parent) < 0)
			add_subtree(t, v, r, n, i, 0, done);
	}
	/* What a cycle or the depth limit left out, as roots. */
	for (i = 0; i < n; i++) {
		if (!done[i])
			add_subtree(t, v, r, n, i, 0, done);
	}
	free(done);
	free(r);
}

/* The rows of the current level, in its sort order. */
void top_build_rows(struct top *t)
{
	struct top_level *lv = top_cur(t);
	struct bp_filter filter = t->focus;
	const struct top_col *cols;
	int ncols, order;
	size_t i, n;

	t->nrows = 0;
	t->rows_dirty = 0;
	cols = top_level_cols(lv->kind, &ncols);
	order = cols[lv->sort].order;
	switch (lv->kind) {
	case LEVEL_FILES: {
		struct bp_file **v;

		if (t->filter[0])
			filter.file = t->filter;
		n = bp_model_select_files(t->win, &filter, (enum bp_file_sort)order, &v);
		if (lv->reverse)
			top_reverse_ptrs((void **)v, n);
		for (i = 0; i < n; i++) {
			struct bp_file_part part;

			/* The focus's part of the file: asked for only to hide idle rows. */
			if (t->active_only) {
				bp_file_part(t->win, v[i], &filter, &part);
				if (!part.wait_ns && !part.bytes_read)
					continue;
			}
			add_row(t, ROW_FILE, v[i]);
		}
		free(v);
		break;
	}
	case LEVEL_PROCS:
	case LEVEL_SERVICE: {
		struct bp_process **v;
		const struct bp_service_row *service = NULL;

		if (lv->kind == LEVEL_SERVICE) {
			/* The service's rows as the services view counts them (the focus only). */
			free(t->services);
			t->services = bp_view_services(t->win, &t->focus, &t->nservices);
			service = top_level_service(t, lv);
		}
		n = bp_model_select_processes(t->win, &filter,
					      order < PROC_ORDER_EXTRA ? (enum bp_process_sort)order :
					      BP_SORT_PROC_PID, &v);
		if (lv->kind == LEVEL_SERVICE)
			n = service ? bp_service_select(t->win, service, v, n) : 0;
		/*
		 * The filter picks among the focus's rows: the focus names a tree, the
		 * filter a row. A service's processes are what its numbers add up.
		 */
		if (t->filter[0] && lv->kind == LEVEL_PROCS) {
			struct bp_filter by_name = { .comm = t->filter };
			size_t kept = 0;

			for (i = 0; i < n; i++) {
				if (bp_process_matches(t->win, v[i], &by_name))
					v[kept++] = v[i];
			}
			n = kept;
		}
		if (order >= PROC_ORDER_EXTRA)
			bp_sort_processes(v, n, (enum bp_process_order)(order - PROC_ORDER_EXTRA));
		if (lv->reverse)
			top_reverse_ptrs((void **)v, n);
		if (t->active_only) {
			size_t kept = 0;

			for (i = 0; i < n; i++) {
				if (v[i]->wait_ns || v[i]->bytes_read)
					v[kept++] = v[i];
			}
			n = kept;
		}
		if (t->tree) {
			add_tree(t, v, n);
		} else {
			for (i = 0; i < n; i++)
				add_row(t, ROW_PROC, v[i]);
		}
		free(v);
		break;
	}
	case LEVEL_SERVICES:
		free(t->services);
		t->services = bp_view_services(t->win, &filter, &t->nservices);
		bp_sort_services(t->services, t->nservices, (enum bp_service_order)order);
		for (i = 0; i < t->nservices; i++) {
			const struct bp_service_row *r = &t->services[i];

			if (t->filter[0] && !strstr(r->unit, t->filter) &&
			    !(r->service && strstr(r->service->path, t->filter)))
				continue;
			if (!t->active_only || r->wait_ns || r->bytes_read)
				add_row(t, ROW_SERVICE, r);
		}
		if (lv->reverse)
			reverse_rows(t->rows, t->nrows);
		break;
	case LEVEL_PATH:
		top_path_rows(t, order, lv->reverse);
		break;
	case LEVEL_FILE: {
		struct bp_file *file = top_level_file(t, lv);

		if (file)
			sorted_accesses(t, file->readers, file->nreaders, order, ROW_READER);
		if (lv->reverse)
			reverse_rows(t->rows, t->nrows);
		break;
	}
	case LEVEL_PROC: {
		struct bp_process *p = top_level_proc(t, lv);

		if (!p)
			break;
		sorted_accesses(t, p->files, p->nfiles, order, ROW_ACCESS);
		if (lv->reverse)
			reverse_rows(t->rows, t->nrows);
		add_row(t, ROW_TITLE, p);
		if (p->nchildren)
			add_row(t, ROW_HEAD, NULL);
		for (i = 0; i < p->nchildren; i++)
			add_row(t, ROW_PROC, p->children[i]);
		break;
	}
	}
	if (lv->sel >= t->nrows)
		lv->sel = t->nrows ? t->nrows - 1 : 0;
	while (lv->sel < t->nrows && !top_row_selectable(&t->rows[lv->sel]))
		lv->sel++;
	if (lv->sel >= t->nrows) {
		/* Nothing selectable after it: the last selectable row, if any. */
		lv->sel = t->nrows;
		while (lv->sel > 0 && !top_row_selectable(&t->rows[lv->sel - 1]))
			lv->sel--;
		lv->sel = lv->sel ? lv->sel - 1 : 0;
	}
}

/* ---- cells ---- */

static char *na_or(char *buf, int missing, const char *value)
{
	snprintf(buf, CELL_LEN, "%s", missing ? "n/a" : value);
	return buf;
}

static void file_cells(const struct top *t, const struct bp_file *file, char c[][CELL_LEN])
{
	char a[BP_FMT_LEN];
	unsigned miss = t->win->missing;
	struct bp_file_part part;

	/* The focus's part of the file, as the report lists it. */
	bp_file_part(t->win, file, &t->focus, &part);
	na_or(c[0], miss & BP_MISSING_SCHED, bp_fmt_ns(a, part.wait_ns));
	snprintf(c[1], CELL_LEN, "%s", bp_fmt_bytes(a, part.bytes_read));
	na_or(c[2], (miss & BP_MISSING_ACCESS) || file->kind == BP_FILE_METADATA,
	      bp_fmt_bytes(a, file->never_used_bytes));
	na_or(c[3], miss & BP_MISSING_DELETE, bp_fmt_bytes(a, file->reread_bytes));
	snprintf(c[4], CELL_LEN, "%zu", part.nreaders);
	snprintf(c[5], CELL_LEN, "%s", file->path);
}

/*
 * The tree view's indentation of a name at @depth in a column @width wide:
 * two columns a generation, then one, then what the name leaves; the name
 * is never cut for it.
 */
static int tree_indent(int depth, int len, int width)
{
	if (2 * depth + len <= width)
		return 2 * depth;
	if (depth + len <= width)
		return depth;
	return len < width ? width - len : 0;
}

/* @depth: the command's generation in the tree view (0: a root, or no tree). */
static void proc_cells(const struct top *t, const struct bp_process *p, int depth,
		       char c[][CELL_LEN])
{
	char a[BP_FMT_LEN];
	unsigned miss = t->win->missing;
	const char *name = p->comm[0] ? p->comm : "?";

	snprintf(c[0], CELL_LEN, "%d", p->pid);
	snprintf(c[1], CELL_LEN, "%*s%s", tree_indent(depth, (int)strlen(name), proc_cols[1].width),
		 "", name);
	na_or(c[2], miss & BP_MISSING_SCHED, bp_fmt_ns(a, p->wait_ns));
	na_or(c[3], miss & BP_MISSING_SCHED, bp_fmt_ns(a, p->tree_wait_ns));
	na_or(c[4], miss & BP_MISSING_SCHED, bp_fmt_ns(a, p->run_ns));
	snprintf(c[5], CELL_LEN, "%s", bp_fmt_bytes(a, p->bytes_read));
	snprintf(c[6], CELL_LEN, "%zu", p->nfiles);
	snprintf(c[7], CELL_LEN, "%s", p->start_ns ? bp_fmt_ts(a, p->start_ns) : "-");
	snprintf(c[8], CELL_LEN, "%s", p->worst_file ? p->worst_file->path : "-");
}

static void reader_cells(const struct top *t, const struct bp_access *x, char c[][CELL_LEN])
{
	char a[BP_FMT_LEN];

	snprintf(c[0], CELL_LEN, "%d", x->process->pid);
	snprintf(c[1], CELL_LEN, "%s", x->process->comm[0] ? x->process->comm : "?");
	na_or(c[2], t->win->missing & BP_MISSING_SCHED, bp_fmt_ns(a, x->wait_ns));
	snprintf(c[3], CELL_LEN, "%s", bp_fmt_bytes(a, x->bytes_read));
	snprintf(c[4], CELL_LEN, "%s", bp_fmt_ts(a, x->first_ns));
	snprintf(c[5], CELL_LEN, "%s", bp_fmt_ts(a, x->last_ns));
}

static void access_cells(const struct top *t, const struct bp_access *x, char c[][CELL_LEN])
{
	char a[BP_FMT_LEN];

	na_or(c[0], t->win->missing & BP_MISSING_SCHED, bp_fmt_ns(a, x->wait_ns));
	snprintf(c[1], CELL_LEN, "%s", bp_fmt_bytes(a, x->bytes_read));
	snprintf(c[2], CELL_LEN, "%s", bp_fmt_ts(a, x->first_ns));
	snprintf(c[3], CELL_LEN, "%s", bp_fmt_ts(a, x->last_ns));
	snprintf(c[4], CELL_LEN, "%s", x->file->path);
}

static void service_cells(const struct top *t, const struct bp_service_row *r, char c[][CELL_LEN])
{
	char a[BP_FMT_LEN];
	unsigned miss = t->win->missing;

	na_or(c[0], miss & BP_MISSING_SCHED, bp_fmt_ns(a, r->wait_ns));
	snprintf(c[1], CELL_LEN, "%s", bp_fmt_bytes(a, r->bytes_read));
	na_or(c[2], miss & BP_MISSING_SCHED, bp_fmt_ns(a, r->run_ns));
	snprintf(c[3], CELL_LEN, "%zu", r->nprocesses);
	snprintf(c[4], CELL_LEN, "%s", r->first_start_ns ? bp_fmt_ts(a, r->first_start_ns) : "before");
	snprintf(c[5], CELL_LEN, "%s", r->first_exec ? bp_fmt_ts(a, r->first_exec_ns) : "-");
	snprintf(c[6], CELL_LEN, "%s", r->running ? "running" : bp_fmt_ts(a, r->last_exit_ns));
	snprintf(c[7], CELL_LEN, "%s", r->unit);
}

/* The columns a row of @kind is laid out in, or NULL. */
static const struct top_col *row_cols(enum top_row_kind kind)
{
	switch (kind) {
	case ROW_FILE:
		return file_cols;
	case ROW_PROC:
		return proc_cols;
	case ROW_READER:
		return reader_cols;
	case ROW_ACCESS:
		return access_cols;
	case ROW_SERVICE:
		return service_cols;
	case ROW_PATH:
		return path_cols;
	default:
		return NULL;
	}
}

void top_put_row(struct top *t, struct top_frame *f, const struct top_row *r, int selected)
{
	struct top_line *l = top_new_line(f, selected ? TA_SEL : TA_NORMAL);
	char cells[TOP_MAX_COLS][CELL_LEN];
	const struct bp_process *p;
	int ncols, keep;

	/* The sort column stays in the level's own rows (a process's children are not). */
	keep = top_level_cols(top_cur(t)->kind, &ncols) == row_cols(r->kind) ? top_cur(t)->sort : -1;

	switch (r->kind) {
	case ROW_FILE:
		file_cells(t, r->obj, cells);
		top_put_cells(f, l, file_cols, NCOLS(file_cols), keep, cells);
		break;
	case ROW_PROC:
		proc_cells(t, r->obj, r->depth, cells);
		top_put_cells(f, l, proc_cols, NCOLS(proc_cols), keep, cells);
		break;
	case ROW_READER:
		reader_cells(t, r->obj, cells);
		top_put_cells(f, l, reader_cols, NCOLS(reader_cols), keep, cells);
		break;
	case ROW_ACCESS:
		access_cells(t, r->obj, cells);
		top_put_cells(f, l, access_cols, NCOLS(access_cols), keep, cells);
		break;
	case ROW_SERVICE:
		service_cells(t, r->obj, cells);
		top_put_cells(f, l, service_cols, NCOLS(service_cols), keep, cells);
		break;
	case ROW_PATH:
		top_path_cells(t, r->obj, cells);
		top_put_cells(f, l, path_cols, NCOLS(path_cols), keep, cells);
		break;
	case ROW_SECTION:
		top_path_section(t, f, l, r->obj);
		break;
	case ROW_TITLE:
		p = r->obj;
		l->attr = TA_TITLE;
		top_putf(f, l, 0, "Children of %s[%d]: %zu", p->comm, p->pid, p->nchildren);
		break;
	case ROW_HEAD:
		l->attr = TA_HEAD;
		top_put_head(f, l, proc_cols, NCOLS(proc_cols), -1);
		break;
	}
}
