// SPDX-License-Identifier: GPL-2.0
/*
 * top's state and frames, without curses: what each key does, which rows
 * each view lists, and how a screen of any size looks. curses.c draws the
 * frames; --batch prints them.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/focus.h"
#include "analysis/sort.h"
#include "tracefile/meta.h"
#include "util/error.h"
#include "util/xalloc.h"
#include "util/printable.h"
#include "views/format.h"
#include "views/tui/screen.h"

#define CELL_LEN 256
/* A last column (a path) narrower than this is left out. */
#define MIN_LAST_COL 8

/* ---- columns ---- */

struct top_col {
	const char *head;
	const char *name;   /* for --sort */
	const char *alias;  /* another accepted name, or NULL */
	int width;          /* 0: what is left (the last column) */
	int right;
	int order;          /* the view's sort key */
};

/* Sort keys of the processes view: the model's, then sort.c's, offset. */
#define PROC_ORDER_EXTRA 100

static const struct top_col file_cols[] = {
	{ "WAIT", "wait", NULL, 9, 1, BP_SORT_FILE_WAIT },
	{ "READ", "read", "bytes", 9, 1, BP_SORT_FILE_BYTES },
	{ "NEVER USED", "never-used", "never", 10, 1, BP_SORT_FILE_NEVER_USED },
	{ "RE-READ", "reread", "re-read", 9, 1, BP_SORT_FILE_REREAD },
	{ "READERS", "readers", NULL, 7, 1, BP_SORT_FILE_READERS },
	{ "PATH", "path", "name", 0, 0, BP_SORT_FILE_PATH },
};

static const struct top_col proc_cols[] = {
	{ "PID", "pid", NULL, 7, 1, BP_SORT_PROC_PID },
	{ "COMM", "comm", "name", 15, 0, PROC_ORDER_EXTRA + BP_ORDER_PROC_COMM },
	{ "WAIT", "wait", NULL, 9, 1, BP_SORT_PROC_WAIT },
	{ "TREE WAIT", "tree-wait", "tree", 9, 1, BP_SORT_PROC_TREE_WAIT },
	{ "CPU", "cpu", "run", 9, 1, BP_SORT_PROC_RUN },
	{ "READ", "read", "bytes", 9, 1, BP_SORT_PROC_BYTES },
	{ "FILES", "files", NULL, 5, 1, PROC_ORDER_EXTRA + BP_ORDER_PROC_FILES },
	{ "START", "start", NULL, 10, 1, BP_SORT_PROC_START },
	{ "WORST FILE", "worst", "worst-file", 0, 0, PROC_ORDER_EXTRA + BP_ORDER_PROC_WORST },
};

static const struct top_col reader_cols[] = {
	{ "PID", "pid", NULL, 7, 1, BP_ORDER_ACCESS_PID },
	{ "COMM", "comm", "name", 15, 0, BP_ORDER_ACCESS_COMM },
	{ "WAIT", "wait", NULL, 9, 1, BP_ORDER_ACCESS_WAIT },
	{ "READ", "read", "bytes", 9, 1, BP_ORDER_ACCESS_BYTES },
	{ "FIRST", "first", NULL, 10, 1, BP_ORDER_ACCESS_FIRST },
	{ "LAST", "last", NULL, 10, 1, BP_ORDER_ACCESS_LAST },
};

static const struct top_col access_cols[] = {
	{ "WAIT", "wait", NULL, 9, 1, BP_ORDER_ACCESS_WAIT },
	{ "READ", "read", "bytes", 9, 1, BP_ORDER_ACCESS_BYTES },
	{ "FIRST", "first", NULL, 10, 1, BP_ORDER_ACCESS_FIRST },
	{ "LAST", "last", NULL, 10, 1, BP_ORDER_ACCESS_LAST },
	{ "PATH", "path", "name", 0, 0, BP_ORDER_ACCESS_PATH },
};

/* The report's services section, as a list (views/services.c sorts it). */
static const struct top_col service_cols[] = {
	{ "WAIT", "wait", NULL, 9, 1, BP_ORDER_SVC_WAIT },
	{ "READ", "read", "bytes", 9, 1, BP_ORDER_SVC_BYTES },
	{ "CPU", "cpu", "run", 9, 1, BP_ORDER_SVC_RUN },
	{ "PROCS", "procs", "processes", 5, 1, BP_ORDER_SVC_PROCS },
	{ "STARTED", "start", "started", 9, 1, BP_ORDER_SVC_START },
	{ "FIRST EXEC", "exec", "first-exec", 10, 1, BP_ORDER_SVC_EXEC },
	{ "ENDED", "end", "ended", 9, 1, BP_ORDER_SVC_END },
	{ "SERVICE", "unit", "service", 0, 0, BP_ORDER_SVC_UNIT },
};

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct top_col *level_cols(enum top_level_kind kind, int *n)
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
	case LEVEL_PROC:
		break;
	}
	*n = NCOLS(access_cols);
	return access_cols;
}

/* The column index named @name, or -1. */
static int find_col(enum top_level_kind kind, const char *name)
{
	const struct top_col *c;
	int n, i;

	c = level_cols(kind, &n);
	for (i = 0; name && i < n; i++) {
		if (!strcasecmp(name, c[i].name) || (c[i].alias && !strcasecmp(name, c[i].alias)))
			return i;
	}
	return -1;
}

static int wait_col(enum top_level_kind kind)
{
	return find_col(kind, "wait");
}

static enum top_level_kind root_kind(enum bp_top_view v)
{
	if (v == BP_TOP_SERVICES)
		return LEVEL_SERVICES;
	return v == BP_TOP_PROCS ? LEVEL_PROCS : LEVEL_FILES;
}

int bp_top_sort_valid(enum bp_top_view view, const char *sort)
{
	return find_col(root_kind(view), sort) >= 0;
}

const char *bp_top_sort_names(enum bp_top_view view)
{
	if (view == BP_TOP_PROCS)
		return "pid, comm, wait, tree-wait, cpu, read, files, start, worst";
	if (view == BP_TOP_SERVICES)
		return "wait, read, cpu, procs, start, exec, end, unit";
	return "wait, read, never-used, reread, readers, path";
}

/* ---- frames ---- */

/* A new line of the frame, blank to its width. */
static struct top_line *new_line(struct top_frame *f, enum top_attr attr)
{
	struct top_line *l;

	BP_GROW(f->lines, f->nlines, f->cap);
	l = &f->lines[f->nlines++];
	memset(l->text, ' ', (size_t)f->width);
	l->text[f->width] = '\0';
	l->attr = attr;
	l->nspans = 0;
	return l;
}

/*
 * Write s at column col, cut at the line's end; returns the column after
 * it. Control characters from the recording are shown as text (\x1b).
 */
static int put(struct top_frame *f, struct top_line *l, int col, const char *s)
{
	char shown[TOP_MAX_WIDTH * 4 + 1];
	size_t n = strlen(bp_printable(shown, sizeof(shown), s));

	if (col >= f->width)
		return col;
	if (n > (size_t)(f->width - col))
		n = (size_t)(f->width - col);
	memcpy(l->text + col, shown, n);
	return col + (int)n;
}

static int __attribute__((format(printf, 4, 5)))
putf(struct top_frame *f, struct top_line *l, int col, const char *fmt, ...)
{
	char buf[TOP_MAX_WIDTH + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return put(f, l, col, buf);
}

static void span(struct top_frame *f, struct top_line *l, int start, int len, enum top_attr attr)
{
	if (start >= f->width || len <= 0 || l->nspans == TOP_MAX_SPANS)
		return;
	if (start + len > f->width)
		len = f->width - start;
	l->spans[l->nspans++] = (struct top_span){ start, len, attr };
}

/* Write s at col in attr; returns the column after it. */
static int put_attr(struct top_frame *f, struct top_line *l, int col, const char *s,
		    enum top_attr attr)
{
	int end = put(f, l, col, s);

	span(f, l, col, end - col, attr);
	return end;
}

void top_frame_release(struct top_frame *f)
{
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

/*
 * One table row: cells laid out by the columns, separated by one space;
 * the last column takes the rest of the width (paths keep their ends).
 */
static void put_cells(struct top_frame *f, struct top_line *l, const struct top_col *cols,
		      int ncols, char cells[][CELL_LEN])
{
	char buf[TOP_MAX_WIDTH + 1];
	int col = 0, i;

	for (i = 0; i < ncols && col < f->width; i++) {
		int w = cols[i].width;

		if (!w) {
			w = f->width - col;
			if (w < MIN_LAST_COL)
				break;
			bp_fmt_path(buf, sizeof(buf), cells[i], (size_t)w);
		} else {
			/* printf's "%*.*s" or "%-*.*s", without printf: a row per file adds up. */
			size_t n = strnlen(cells[i], (size_t)w), pad = (size_t)w - n;

			memset(buf, ' ', (size_t)w);
			memcpy(buf + (cols[i].right ? pad : 0), cells[i], n);
			buf[w] = '\0';
		}
		col = put(f, l, col, buf) + 1;
	}
}

static void put_head(struct top_frame *f, struct top_line *l, const struct top_col *cols,
		     int ncols, int sort)
{
	char cells[16][CELL_LEN];
	int col = 0, i;

	for (i = 0; i < ncols; i++)
		snprintf(cells[i], CELL_LEN, "%s", cols[i].head);
	put_cells(f, l, cols, ncols, cells);
	for (i = 0; i < ncols; i++) {
		int w = cols[i].width ? cols[i].width : f->width - col;

		if (!cols[i].width && w < MIN_LAST_COL)
			break;
		if (i == sort)
			span(f, l, col, w, TA_SORT);
		col += w + 1;
	}
}

/* ---- rows ---- */

static struct top_level *cur(struct top *t)
{
	return &t->stack[t->depth - 1];
}

static void add_row(struct top *t, enum top_row_kind kind, const void *obj)
{
	BP_GROW(t->rows, t->nrows, t->rows_cap);
	t->rows[t->nrows++] = (struct top_row){ kind, obj, 0 };
}

static int selectable(const struct top_row *r)
{
	return r->kind != ROW_TITLE && r->kind != ROW_HEAD;
}

static struct bp_file *level_file(const struct top *t, const struct top_level *lv)
{
	return bp_model_find_file(t->win, lv->dev, lv->ino);
}

/* The process a level names: same pid and start (pids are reused), else the latest with the pid. */
static struct bp_process *level_proc(const struct top *t, const struct top_level *lv)
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
static const char *service_key(const struct bp_service_row *r)
{
	return r->service ? r->service->path : r->unit;
}

/* The row of t->services a level names (a key cut to fit matches on what is left), or NULL. */
static const struct bp_service_row *level_service(const struct top *t, const struct top_level *lv)
{
	size_t i;

	for (i = 0; i < t->nservices; i++) {
		if (!strncmp(service_key(&t->services[i]), lv->service, sizeof(lv->service) - 1))
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
static void reverse_ptrs(void **v, size_t n)
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
static void build_rows(struct top *t)
{
	struct top_level *lv = cur(t);
	struct bp_filter filter = t->focus;
	const struct top_col *cols;
	int ncols, order;
	size_t i, n;

	t->nrows = 0;
	t->rows_dirty = 0;
	cols = level_cols(lv->kind, &ncols);
	order = cols[lv->sort].order;
	switch (lv->kind) {
	case LEVEL_FILES: {
		struct bp_file **v;

		if (t->filter[0])
			filter.file = t->filter;
		n = bp_model_select_files(t->win, &filter, (enum bp_file_sort)order, &v);
		if (lv->reverse)
			reverse_ptrs((void **)v, n);
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
			service = level_service(t, lv);
		} else if (t->filter[0]) {
			filter.comm = t->filter;
		}
		n = bp_model_select_processes(t->win, &filter,
					      order < PROC_ORDER_EXTRA ? (enum bp_process_sort)order :
					      BP_SORT_PROC_PID, &v);
		if (lv->kind == LEVEL_SERVICE)
			n = service ? bp_service_select(t->win, service, v, n) : 0;
		if (order >= PROC_ORDER_EXTRA)
			bp_sort_processes(v, n, (enum bp_process_order)(order - PROC_ORDER_EXTRA));
		if (lv->reverse)
			reverse_ptrs((void **)v, n);
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
	case LEVEL_FILE: {
		struct bp_file *file = level_file(t, lv);

		if (file)
			sorted_accesses(t, file->readers, file->nreaders, order, ROW_READER);
		if (lv->reverse)
			reverse_rows(t->rows, t->nrows);
		break;
	}
	case LEVEL_PROC: {
		struct bp_process *p = level_proc(t, lv);

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
	while (lv->sel < t->nrows && !selectable(&t->rows[lv->sel]))
		lv->sel++;
	if (lv->sel >= t->nrows) {
		/* Nothing selectable after it: the last selectable row, if any. */
		lv->sel = t->nrows;
		while (lv->sel > 0 && !selectable(&t->rows[lv->sel - 1]))
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

/* @depth: the tree view's indentation of the command (two columns a generation). */
static void proc_cells(const struct top *t, const struct bp_process *p, int depth,
		       char c[][CELL_LEN])
{
	char a[BP_FMT_LEN];
	unsigned miss = t->win->missing;

	snprintf(c[0], CELL_LEN, "%d", p->pid);
	snprintf(c[1], CELL_LEN, "%*s%s", 2 * (depth < 8 ? depth : 8), "",
		 p->comm[0] ? p->comm : "?");
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

static void put_row(struct top *t, struct top_frame *f, const struct top_row *r, int selected)
{
	struct top_line *l = new_line(f, selected ? TA_SEL : TA_NORMAL);
	char cells[16][CELL_LEN];
	const struct bp_process *p;

	switch (r->kind) {
	case ROW_FILE:
		file_cells(t, r->obj, cells);
		put_cells(f, l, file_cols, NCOLS(file_cols), cells);
		break;
	case ROW_PROC:
		proc_cells(t, r->obj, r->depth, cells);
		put_cells(f, l, proc_cols, NCOLS(proc_cols), cells);
		break;
	case ROW_READER:
		reader_cells(t, r->obj, cells);
		put_cells(f, l, reader_cols, NCOLS(reader_cols), cells);
		break;
	case ROW_ACCESS:
		access_cells(t, r->obj, cells);
		put_cells(f, l, access_cols, NCOLS(access_cols), cells);
		break;
	case ROW_SERVICE:
		service_cells(t, r->obj, cells);
		put_cells(f, l, service_cols, NCOLS(service_cols), cells);
		break;
	case ROW_TITLE:
		p = r->obj;
		l->attr = TA_TITLE;
		putf(f, l, 0, "Children of %s[%d]: %zu", p->comm, p->pid, p->nchildren);
		break;
	case ROW_HEAD:
		l->attr = TA_HEAD;
		put_head(f, l, proc_cols, NCOLS(proc_cols), -1);
		break;
	}
}

/* ---- header, timeline ---- */

static uint64_t span_since(const struct top *t)
{
	return t->full->window.since_ns;
}

static uint64_t span_until(const struct top *t)
{
	return t->full->window.until_ns > t->full->window.since_ns ? t->full->window.until_ns :
	       t->full->window.since_ns + 1;
}

/* The time column c of n starts at. */
static uint64_t col_time(const struct top *t, int c, int n)
{
	double span = (double)(span_until(t) - span_since(t));

	return span_since(t) + (uint64_t)(span * c / n);
}

/* The timeline column nearest to time @ns, of @n columns. */
static int time_col(const struct top *t, uint64_t ns, int n)
{
	double span = (double)(span_until(t) - span_since(t));

	if (ns <= span_since(t))
		return 0;
	if (ns >= span_until(t))
		return n;
	return (int)((double)(ns - span_since(t)) * n / span + 0.5);
}

static void put_title(struct top *t, struct top_frame *f)
{
	const struct bp_model_header *h = &t->win->header;
	struct top_line *l = new_line(f, TA_TITLE);
	int col;

	col = putf(f, l, 0, "bootprof top - %s", t->src->name);
	if (t->focus_pid)
		col = putf(f, l, col, "  command pid %d and its tree (--all: every process)",
			   t->focus_pid);
	if (h->hostname)
		col = putf(f, l, col, "  host %s", h->hostname);
	if (h->kernel_release)
		col = putf(f, l, col, "  kernel %s%s%s", h->kernel_release, h->machine ? " " : "",
			   h->machine ? h->machine : "");
	if (h->ncpus)
		col = putf(f, l, col, "  %d cpus", h->ncpus);
	if (t->win->totals.truncated)
		put_attr(f, l, col, "  TRUNCATED", TA_WARN);
}

static void put_span_line(struct top *t, struct top_frame *f)
{
	const struct bp_totals *tot = &t->win->totals;
	struct top_line *l = new_line(f, TA_NORMAL);
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN];
	uint64_t since = t->win->window.since_ns, until = t->win->window.until_ns;
	int col;

	if (!t->full->totals.events_total) {
		put(f, l, 0, t->src->update ? "no events yet" : "no events in the recording");
		return;
	}
	col = putf(f, l, 0, "span %s-%s s", bp_fmt_ts(a, span_since(t)), bp_fmt_ts(b, span_until(t)));
	if (t->src->update)
		col = putf(f, l, col, "  %s %s-%s s (%s)", t->cumulative ? "all" : "interval",
			   bp_fmt_ts(a, since), bp_fmt_ts(b, until), bp_fmt_ns(c, until - since));
	else
		col = putf(f, l, col, "  window %s-%s s (%s)", bp_fmt_ts(a, since), bp_fmt_ts(b, until),
			   bp_fmt_ns(c, until - since));
	col = put(f, l, col, "  ");
	if (tot->lost_events || tot->lost_pages) {
		snprintf(a, sizeof(a), "lost %" PRIu64 "%s", tot->lost_events,
			 tot->lost_pages ? "+" : "");
		col = put_attr(f, l, col, a, TA_WARN);
	} else {
		col = put(f, l, col, "lost 0");
	}
	if (t->rebuilding)
		put(f, l, col, "  (rebuilding...)");
	else if (!t->batch && t->rebuild_ms > 0)
		putf(f, l, col, "  (rebuilt in %.1f ms)", t->rebuild_ms);
}

static void put_totals(struct top *t, struct top_frame *f)
{
	const struct bp_totals *tot = &t->win->totals;
	struct top_line *l = new_line(f, TA_NORMAL);
	unsigned miss = t->win->missing;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], d[BP_FMT_LEN];

	putf(f, l, 0, "read %s  I/O wait %s%s  CPU idle waiting %s  never used %s",
	     bp_fmt_bytes(a, tot->read_bytes), miss & BP_MISSING_SCHED ? "n/a" : bp_fmt_ns(b, tot->wait_ns),
	     miss & BP_MISSING_SCHED ? "" :
	     tot->iowait_source == BP_IOWAIT_KERNEL ? " (kernel)" : " (inferred)",
	     miss & BP_MISSING_SCHED ? "n/a" : bp_fmt_ns(c, tot->idle_wait_ns),
	     miss & BP_MISSING_ACCESS ? "n/a" : bp_fmt_bytes(d, tot->never_used_bytes));
}

/* The window in timeline columns: [*c0, *c1) of n. */
static void window_cols(const struct top *t, int n, int *c0, int *c1)
{
	*c0 = t->since_ns ? time_col(t, t->since_ns, n) : 0;
	*c1 = t->until_ns ? time_col(t, t->until_ns, n) : n;
	if (*c1 <= *c0)
		*c1 = *c0 + 1 <= n ? *c0 + 1 : n;
}

/* The columns of the window the model was built for (not the one being chosen). */
static void marker_cols(const struct top *t, int n, int *c0, int *c1)
{
	*c0 = time_col(t, t->win->window.since_ns, n);
	*c1 = time_col(t, t->win->window.until_ns, n);
	if (*c0 >= n)
		*c0 = n - 1;
	if (*c1 <= *c0)
		*c1 = *c0 + 1;
}

/* Levels of the timeline strip, from nothing to the busiest column. */
static const char strip_levels[] = " .:-=+*#@";
#define NLEVELS ((int)sizeof(strip_levels) - 2)

/*
 * The whole recording in n columns: per column the mean over its buckets
 * of I/O wait (tasks waiting) and of disk reads, each scaled to its
 * busiest column.
 */
static void put_strip(struct top *t, struct top_frame *f, int n)
{
	const struct bp_model *m = t->full;
	int block = !(m->missing & BP_MISSING_BLOCK);
	double *wait = xcalloc((size_t)n, sizeof(*wait)), *disk = xcalloc((size_t)n, sizeof(*disk));
	double maxw = 0, maxd = 0;
	uint64_t bucket = m->window.bucket_ns ? m->window.bucket_ns : 1;
	struct top_line *lw, *ld, *lm;
	int c, c0, c1;

	for (c = 0; c < n && m->nbuckets; c++) {
		uint64_t t0 = col_time(t, c, n), t1 = col_time(t, c + 1, n);
		size_t b0, b1, b;

		b0 = t0 > m->timeline_start_ns ? (t0 - m->timeline_start_ns) / bucket : 0;
		b1 = t1 > m->timeline_start_ns ? (t1 - m->timeline_start_ns + bucket - 1) / bucket : 0;
		if (b0 >= m->nbuckets)
			b0 = m->nbuckets - 1;
		if (b1 > m->nbuckets)
			b1 = m->nbuckets;
		if (b1 <= b0)
			b1 = b0 + 1;
		for (b = b0; b < b1; b++) {
			wait[c] += (double)m->timeline[b].wait_ns;
			disk[c] += (double)(block ? m->timeline[b].rq_read_bytes :
					    m->timeline[b].read_bytes);
		}
		wait[c] /= (double)(b1 - b0);
		disk[c] /= (double)(b1 - b0);
		if (wait[c] > maxw)
			maxw = wait[c];
		if (disk[c] > maxd)
			maxd = disk[c];
	}
	lw = new_line(f, TA_NORMAL);
	ld = new_line(f, TA_NORMAL);
	lm = new_line(f, TA_NORMAL);
	put(f, lw, 0, "wait");
	put(f, ld, 0, block ? "disk" : "read");
	for (c = 0; c < n; c++) {
		int lvw = wait[c] > 0 ? 1 + (int)(wait[c] * (NLEVELS - 1) / maxw + 0.5) : 0;
		int lvd = disk[c] > 0 ? 1 + (int)(disk[c] * (NLEVELS - 1) / maxd + 0.5) : 0;

		lw->text[6 + c] = strip_levels[lvw];
		ld->text[6 + c] = strip_levels[lvd];
	}
	span(f, lw, 6, n, TA_STRIP);
	span(f, ld, 6, n, TA_STRIP);
	if (t->rebuilding) {
		/* The window asked for, while its model is being built. */
		window_cols(t, n, &c0, &c1);
		for (c = c0; c < c1; c++)
			lm->text[6 + c] = c == c0 ? '[' : c == c1 - 1 ? ']' : '-';
	} else {
		marker_cols(t, n, &c0, &c1);
		for (c = c0; c < c1; c++)
			lm->text[6 + c] = c == c0 ? '[' : c == c1 - 1 ? ']' : '=';
	}
	span(f, lm, 6 + c0, c1 - c0, TA_WINDOW);
	put(f, lm, 0, t->src->update ? "shown" : "window");
	/* The legend: what the two levels and the marker are. */
	putf(f, new_line(f, TA_NORMAL), 6, "wait: tasks in I/O wait  %s  [==]: %s",
	     block ? "disk: bytes the disk read" : "read: bytes read into the cache",
	     t->src->update ? "what is shown" : "the window");
	t->strip_cols = n;
	free(wait);
	free(disk);
}

/* A service's first exec with its program, which its row has no room for. */
static void put_service_exec(struct top_frame *f, struct top_line *l, int col,
			     const struct bp_service_row *r)
{
	char ts[BP_FMT_LEN];

	if (r->first_exec)
		putf(f, l, col, "first exec %s %s", bp_fmt_ts(ts, r->first_exec_ns), r->first_exec);
	else
		put(f, l, col, "no exec");
}

/* ", reversed" and the other ways a list is shown, after its title. */
static int put_list_modes(struct top *t, struct top_frame *f, struct top_line *l, int col)
{
	const struct top_level *lv = cur(t);

	if (lv->reverse)
		col = put(f, l, col, ", reversed");
	if (t->tree && (lv->kind == LEVEL_PROCS || lv->kind == LEVEL_SERVICE))
		col = put(f, l, col, ", as a tree");
	if (lv->kind == LEVEL_SERVICES && !t->win->nservices)
		col = put(f, l, col, "  (no process of the recording was in a known cgroup)");
	if (t->active_only)
		col = put(f, l, col, "  waiting or reading only");
	return col;
}

static void put_list_title(struct top *t, struct top_frame *f, const struct top_col *cols)
{
	const struct top_level *lv = cur(t);
	struct top_line *l = new_line(f, TA_TITLE), *l2;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], d[BP_FMT_LEN], e[BP_FMT_LEN],
		ts[BP_FMT_LEN];
	int col;

	switch (lv->kind) {
	case LEVEL_FILES:
	case LEVEL_PROCS:
	case LEVEL_SERVICES:
		col = putf(f, l, 0, "%s: %zu of %zu, by %s", lv->kind == LEVEL_FILES ? "Files" :
			   lv->kind == LEVEL_PROCS ? "Processes" : "Services", t->nrows,
			   lv->kind == LEVEL_FILES ? t->win->nfiles : lv->kind == LEVEL_PROCS ?
			   t->win->nprocesses : t->nservices, cols[lv->sort].head);
		col = put_list_modes(t, f, l, col);
		if (t->filter[0] || t->editing)
			putf(f, l, col, "  filter: %s%s", t->filter, t->editing ? "_" : "");
		/* The selected service's program, as htop shows a command. */
		if (lv->kind == LEVEL_SERVICES && lv->sel < t->nrows) {
			const struct bp_service_row *r = t->rows[lv->sel].obj;

			l2 = new_line(f, TA_NORMAL);
			put_service_exec(f, l2, putf(f, l2, 0, "%s: ", r->unit), r);
		}
		break;
	case LEVEL_SERVICE: {
		const struct bp_service_row *r = level_service(t, lv);

		l2 = new_line(f, TA_NORMAL);
		if (!r) {
			putf(f, l, 0, "Service %s: not in this window", lv->service);
			break;
		}
		col = putf(f, l, 0, "Processes of %s: %zu of %zu, by %s", r->unit, t->nrows,
			   r->nprocesses, cols[lv->sort].head);
		put_list_modes(t, f, l, col);
		col = r->service ? putf(f, l2, 0, "cgroup %s  ", r->service->path) : 0;
		put_service_exec(f, l2, col, r);
		break;
	}
	case LEVEL_FILE: {
		const struct bp_file *file = level_file(t, lv);

		l2 = new_line(f, TA_NORMAL);
		if (!file) {
			putf(f, l, 0, "File %u:%u ino %" PRIu64 ": not in this window",
			     BP_DEV_MAJOR(lv->dev), BP_DEV_MINOR(lv->dev), lv->ino);
			break;
		}
		putf(f, l, 0, "File %s  (%u:%u ino %" PRIu64 ")", file->path,
		     BP_DEV_MAJOR(file->dev), BP_DEV_MINOR(file->dev), file->ino);
		/* mapped: by fault-around, not known to be used (bp_file) */
		putf(f, l2, 0, "read %s  wait %s  never used %s  mapped %s  re-read %s  "
		     "readers %zu  first %s", bp_fmt_bytes(a, file->bytes_read),
		     bp_fmt_ns(b, file->wait_ns), bp_fmt_bytes(c, file->never_used_bytes),
		     bp_fmt_bytes(e, file->mapped_unknown_bytes), bp_fmt_bytes(d, file->reread_bytes),
		     file->nreaders, bp_fmt_ts(ts, file->first_ns));
		break;
	}
	case LEVEL_PROC: {
		const struct bp_process *p = level_proc(t, lv);
		char causes[160] = "";
		size_t len = 0;
		int i;

		l2 = new_line(f, TA_NORMAL);
		if (!p) {
			putf(f, l, 0, "Process %d: not in this window", lv->pid);
			break;
		}
		col = putf(f, l, 0, "Process %s[%d]", p->comm, p->pid);
		if (p->nexec)
			col = putf(f, l, col, " %s", p->exec[p->nexec - 1]);
		if (p->parent)
			col = putf(f, l, col, "  parent %s[%d]", p->parent->comm, p->parent->pid);
		if (p->start_ns)
			col = putf(f, l, col, "  start %s", bp_fmt_ts(a, p->start_ns));
		if (p->exit_ns)
			putf(f, l, col, "  exit %s", bp_fmt_ts(a, p->exit_ns));
		for (i = 0; i < BP_NCAUSES && len < sizeof(causes) - 40; i++) {
			if (p->wait_by_cause[i])
				len += (size_t)snprintf(causes + len, sizeof(causes) - len, "%s%s %s",
							len ? ", " : " (", bp_cause_name(i),
							bp_fmt_ns(a, p->wait_by_cause[i]));
		}
		if (len)
			snprintf(causes + len, sizeof(causes) - len, ")");
		putf(f, l2, 0, "wait %s%s  cpu %s  read %s  files %zu  children %zu",
		     bp_fmt_ns(b, p->wait_ns), causes, bp_fmt_ns(c, p->run_ns),
		     bp_fmt_bytes(d, p->bytes_read), p->nfiles, p->nchildren);
		break;
	}
	}
}

/* ---- help ---- */

/* The help screen: the key table in two columns (one when narrow). */
static void put_help(struct top_frame *f)
{
	static const char *const notes[] = {
		"Every number on screen is for the window (the [====] under the timeline);",
		"the timeline strip shows the whole recording: I/O wait (tasks waiting) and",
		"disk reads, each scaled to its busiest column.",
	};
	char keys[64];
	const char *help;
	size_t i, n = top_key_help(0, keys, sizeof(keys), &help), rows;
	int ncols = f->width >= 80 ? 2 : 1, c;

	put(f, new_line(f, TA_TITLE), 0,
	    "bootprof top: I/O wait and reads per file and per process, over a window of time");
	new_line(f, TA_NORMAL);
	rows = (n + (size_t)ncols - 1) / (size_t)ncols;
	for (i = 0; i < rows; i++) {
		struct top_line *l = new_line(f, TA_NORMAL);

		for (c = 0; c < ncols && i + (size_t)c * rows < n; c++) {
			top_key_help(i + (size_t)c * rows, keys, sizeof(keys), &help);
			put_attr(f, l, 2 + 40 * c, keys, TA_KEY);
			put(f, l, 2 + 40 * c + 15, help);
		}
	}
	new_line(f, TA_NORMAL);
	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		put(f, new_line(f, TA_NORMAL), 0, notes[i]);
	new_line(f, TA_NORMAL);
	put(f, new_line(f, TA_NORMAL), 0, "q, Q or F10 quits; any other key returns.");
}

/* ---- footer ---- */

struct footer_key {
	const char *key;
	const char *label;
};

static void put_footer(struct top *t, struct top_frame *f)
{
	struct top_line *l = new_line(f, TA_FOOTER);
	const struct top_level *lv = cur(t);
	struct footer_key keys[] = {
		{ "F1", "Help" },
		{ "/", "Filter" },
		{ "s", "Sort" },
		{ "Tab", lv->kind == LEVEL_FILES ? "Procs" : "Files" },
		{ "u", "Services" },
		{ "Enter", "Open" },
		{ "Bksp", "Back" },
		{ "<-->", "Move" },
		{ "[]", "Size" },
		{ "q", "Quit" },
	};
	size_t i, n = sizeof(keys) / sizeof(keys[0]);
	int col = 0;

	if (t->editing) {
		col = put_attr(f, l, 0, "Filter:", TA_KEY);
		putf(f, l, col, " %s_   Enter: keep  Esc: cancel", t->filter);
		return;
	}
	if (t->message[0]) {
		put_attr(f, l, 0, t->message, TA_WARN);
		return;
	}
	if (t->depth == 1)
		keys[6] = (struct footer_key){ "Esc", "Clear" };
	for (i = 0; i < n && col < f->width; i++) {
		col = put_attr(f, l, col, keys[i].key, TA_KEY);
		col = put(f, l, col, keys[i].label) + 1;
	}
}

/* ---- the frame ---- */

/* Keep the selection among the @rows rows shown, and no blank rows after the last. */
static void scroll_to_selection(struct top *t, size_t rows)
{
	struct top_level *lv = cur(t);

	if (lv->sel < lv->first)
		lv->first = lv->sel;
	if (lv->sel >= lv->first + rows)
		lv->first = lv->sel - rows + 1;
	if (lv->first > 0 && lv->first + rows > t->nrows)
		lv->first = t->nrows > rows ? t->nrows - rows : 0;
}

/* The frame down to the list's column headers: 1, or 0 when it is done without a list. */
static int render_head(struct top *t, struct top_frame *f, int width, int height)
{
	const struct top_level *lv;
	const struct top_col *cols;
	int ncols;

	if (width > TOP_MAX_WIDTH)
		width = TOP_MAX_WIDTH;
	if (width < 1)
		width = 1;
	f->nlines = 0;
	f->width = width;
	if (t->rows_dirty)
		build_rows(t);
	lv = cur(t);
	if (width < TOP_MIN_WIDTH || (height && height < TOP_MIN_HEIGHT)) {
		putf(f, new_line(f, TA_WARN), 0, "too small (%dx%d < %dx%d)", width, height,
		     TOP_MIN_WIDTH, TOP_MIN_HEIGHT);
		return 0;
	}
	if (t->help) {
		put_help(f);
		return 0;
	}
	put_title(t, f);
	put_span_line(t, f);
	put_totals(t, f);
	t->strip_line = (int)f->nlines;
	put_strip(t, f, width - 6);
	cols = level_cols(lv->kind, &ncols);
	put_list_title(t, f, cols);
	put_head(f, new_line(f, TA_HEAD), cols, ncols, lv->sort);
	t->list_top = (int)f->nlines;
	return 1;
}

int top_render_head(struct top *t, struct top_frame *f, int width)
{
	return render_head(t, f, width, 0);
}

size_t top_render_rows(struct top *t, struct top_frame *f, size_t first, size_t n)
{
	size_t shown = t->max_rows && t->max_rows < t->nrows ? t->max_rows : t->nrows, i;

	for (i = first; i < shown && i - first < n; i++)
		put_row(t, f, &t->rows[i], 0);
	if (i == shown && i > first && shown < t->nrows)
		putf(f, new_line(f, TA_NORMAL), 0, "... %zu more (use --top 0)", t->nrows - shown);
	return i > first ? i - first : 0;
}

void top_render(struct top *t, struct top_frame *f, int width, int height)
{
	const struct top_level *lv;
	int list_height;
	size_t i;

	if (!render_head(t, f, width, height))
		return;
	if (!height) {
		top_render_rows(t, f, 0, SIZE_MAX);
		return;
	}
	lv = cur(t);
	list_height = height - (int)f->nlines - 1;
	if (list_height < 1)
		list_height = 1;
	t->list_height = list_height;
	scroll_to_selection(t, (size_t)list_height);
	for (i = lv->first; i < t->nrows && i < lv->first + (size_t)list_height; i++)
		put_row(t, f, &t->rows[i], i == lv->sel);
	while ((int)f->nlines < height - 1)
		new_line(f, TA_NORMAL);
	put_footer(t, f);
}

/* ---- models ---- */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void set_message(struct top *t, const char *what)
{
	snprintf(t->message, sizeof(t->message), "%s: %.100s", what, bp_last_error());
}

static void drop_window(struct top *t)
{
	if (t->win != t->full)
		bp_model_free(t->win);
	t->win = NULL;
}

/* Whether the selected window covers the whole recording. */
static int window_is_whole(const struct top *t)
{
	return (!t->since_ns || t->since_ns <= span_since(t)) &&
	       (!t->until_ns || t->until_ns >= t->full->window.until_ns);
}

int top_window_wanted(struct top *t, struct bp_window *w)
{
	t->window_dirty = 0;
	t->rows_dirty = 1;
	if (window_is_whole(t)) {
		drop_window(t);
		t->win = t->full;
		t->rebuild_ms = 0;
		t->rebuilding = 0;
		return 0;
	}
	*w = (struct bp_window){ .since_ns = t->since_ns, .until_ns = t->until_ns };
	return 1;
}

void top_window_built(struct top *t, struct bp_model *m, double ms)
{
	drop_window(t);
	t->win = m;
	t->rebuild_ms = ms;
	t->rebuilding = 0;
	t->rows_dirty = 1;
}

/* Build the window's model now; on failure keep the old one. 0 or -1. */
static int rebuild_window(struct top *t)
{
	struct bp_window w;
	struct bp_model *m;
	double start = now_ms();

	if (!top_window_wanted(t, &w))
		return 0;
	m = t->src->build(t->src->arg, &w);
	if (!m) {
		set_message(t, "cannot rebuild the window");
		return -1;
	}
	top_window_built(t, m, now_ms() - start);
	return 0;
}

int top_init(struct top *t, const struct bp_top_source *src, const struct bp_top_opts *o,
	     int batch)
{
	struct bp_window asked;
	struct top_level *lv;

	memset(t, 0, sizeof(*t));
	t->src = src;
	t->batch = batch;
	t->max_rows = batch && o->rows > 0 ? (size_t)o->rows : 0;
	t->tree = o->tree;
	t->cumulative = o->cumulative;
	t->since_ns = o->since_ns;
	t->until_ns = o->until_ns;
	t->depth = 1;
	lv = &t->stack[0];
	lv->kind = root_kind(o->view);
	lv->sort = o->sort ? find_col(lv->kind, o->sort) : wait_col(lv->kind);
	if (lv->sort < 0)
		lv->sort = wait_col(lv->kind);
	lv->reverse = o->reverse;
	t->full = src->build(src->arg, NULL);
	if (!t->full)
		return -1;
	t->focus_pid = bp_focus_command(t->full, o->all, &t->focus);
	t->interval_since_ns = span_since(t);
	if (rebuild_window(t) < 0) {
		bp_set_error("%s", t->message + strlen("cannot rebuild the window: "));
		bp_model_free(t->full);
		t->full = NULL;
		return -1;
	}
	/* A recording's filter or window that selects nothing is an error, as in report. */
	asked = (struct bp_window){ .since_ns = t->since_ns, .until_ns = t->until_ns };
	if (!src->update && bp_focus_check(t->win ? t->win : t->full, &t->focus, &asked)) {
		top_release(t);
		return -1;
	}
	return 0;
}

void top_release(struct top *t)
{
	drop_window(t);
	bp_model_free(t->full);
	free(t->rows);
	free(t->services);
	memset(t, 0, sizeof(*t));
}

int top_update(struct top *t)
{
	struct bp_model *full;
	uint64_t last_end;

	if (!t->src->update)
		return 0;
	last_end = t->full->window.until_ns;
	t->update_now = 0;
	if (t->src->update(t->src->arg, t->cumulative) < 0) {
		set_message(t, "cannot read new events");
		return -1;
	}
	full = t->src->build(t->src->arg, NULL);
	if (!full) {
		set_message(t, "cannot rebuild");
		return -1;
	}
	drop_window(t);
	bp_model_free(t->full);
	t->full = full;
	t->updates++;
	t->interval_since_ns = last_end;
	t->message[0] = '\0';
	if (t->cumulative) {
		t->since_ns = t->until_ns = 0;
	} else {
		t->since_ns = t->interval_since_ns;
		t->until_ns = 0;
	}
	return rebuild_window(t);
}

/* ---- keys ---- */

static void move_sel(struct top *t, long delta)
{
	struct top_level *lv = cur(t);
	long sel = (long)lv->sel, step = delta < 0 ? -1 : 1;
	long n = (long)t->nrows;

	if (!n)
		return;
	sel += delta;
	if (sel < 0)
		sel = 0;
	if (sel >= n)
		sel = n - 1;
	/* Land on a selectable row, looking in the direction of travel first. */
	while (sel >= 0 && sel < n && !selectable(&t->rows[sel]))
		sel += step;
	if (sel < 0 || sel >= n) {
		sel = (long)lv->sel;
		while (sel >= 0 && sel < n && !selectable(&t->rows[sel]))
			sel -= step;
	}
	if (sel >= 0 && sel < n)
		lv->sel = (size_t)sel;
}

/* A level of @kind pushed and shown; the caller names its object. */
static struct top_level *push(struct top *t, enum top_level_kind kind, uint32_t dev, uint64_t ino,
			      const struct bp_process *p)
{
	struct top_level *lv;

	if (t->depth == TOP_MAX_DEPTH) {
		memmove(&t->stack[1], &t->stack[2], sizeof(t->stack[0]) * (TOP_MAX_DEPTH - 2));
		t->depth--;
	}
	lv = &t->stack[t->depth++];
	memset(lv, 0, sizeof(*lv));
	lv->kind = kind;
	lv->dev = dev;
	lv->ino = ino;
	lv->pid = p ? p->pid : 0;
	lv->start_ns = p ? p->start_ns : 0;
	lv->sort = wait_col(kind);
	t->rows_dirty = 1;
	return lv;
}

/* A service's processes; the recorder's tasks are none of the recording's, so nothing opens. */
static void open_service(struct top *t, const struct bp_service_row *r)
{
	struct bp_process **v;
	size_t n = bp_model_select_processes(t->win, &t->focus, BP_SORT_PROC_PID, &v);

	n = bp_service_select(t->win, r, v, n);
	free(v);
	if (!n) {
		snprintf(t->message, sizeof(t->message), "%.100s: no process of the recording to list",
			 r->unit);
		return;
	}
	snprintf(push(t, LEVEL_SERVICE, 0, 0, NULL)->service, TOP_SERVICE_LEN, "%s",
		 service_key(r));
}

static void open_selected(struct top *t)
{
	const struct top_row *r;
	const struct bp_access *x;
	const struct bp_file *file;
	const struct bp_process *p;

	if (t->rows_dirty)
		build_rows(t);
	if (cur(t)->sel >= t->nrows)
		return;
	r = &t->rows[cur(t)->sel];
	switch (r->kind) {
	case ROW_FILE:
		file = r->obj;
		push(t, LEVEL_FILE, file->dev, file->ino, NULL);
		break;
	case ROW_ACCESS:
		x = r->obj;
		push(t, LEVEL_FILE, x->file->dev, x->file->ino, NULL);
		break;
	case ROW_READER:
		x = r->obj;
		push(t, LEVEL_PROC, 0, 0, x->process);
		break;
	case ROW_PROC:
		p = r->obj;
		push(t, LEVEL_PROC, 0, 0, p);
		break;
	case ROW_SERVICE:
		open_service(t, r->obj);
		break;
	case ROW_TITLE:
	case ROW_HEAD:
		break;
	}
}

static void cycle_sort(struct top *t, int step)
{
	struct top_level *lv = cur(t);
	int n;

	level_cols(lv->kind, &n);
	lv->sort = (lv->sort + step + n) % n;
	lv->sel = lv->first = 0;
	t->rows_dirty = 1;
}

static void set_window_cols(struct top *t, int n, int c0, int c1)
{
	t->since_ns = c0 > 0 ? col_time(t, c0, n) : 0;
	t->until_ns = c1 < n ? col_time(t, c1, n) : 0;
	t->window_dirty = 1;
}

/* Move the window by @move columns of the timeline, or resize it by @grow. */
static void shift_window(struct top *t, int move, int grow)
{
	int n = t->strip_cols > 0 ? t->strip_cols : 80;
	int c0, c1, len;

	if (t->src->update && !t->cumulative)
		return; /* live, last interval: the window follows the clock */
	window_cols(t, n, &c0, &c1);
	len = c1 - c0;
	if (move) {
		c0 += move;
		if (c0 + len > n)
			c0 = n - len;
		if (c0 < 0)
			c0 = 0;
		c1 = c0 + len;
	} else {
		c1 += grow;
		if (c1 > n)
			c1 = n;
		if (c1 < c0 + 1)
			c1 = c0 + 1;
	}
	set_window_cols(t, n, c0, c1);
}

static int filter_key(struct top *t, int key)
{
	size_t n = strlen(t->filter);

	switch (key) {
	case TOP_KEY_ENTER:
		t->editing = 0;
		return 0;
	case TOP_KEY_ESC:
		t->editing = 0;
		snprintf(t->filter, sizeof(t->filter), "%s", t->saved_filter);
		break;
	case TOP_KEY_BACKSPACE:
		if (n)
			t->filter[n - 1] = '\0';
		break;
	default:
		if (key >= 0x20 && key < 0x7f && n + 1 < sizeof(t->filter)) {
			t->filter[n] = (char)key;
			t->filter[n + 1] = '\0';
		}
		break;
	}
	cur(t)->sel = cur(t)->first = 0;
	t->rows_dirty = 1;
	return 0;
}

/* ---- the key table: dispatch and the help screen ---- */

static int page_rows(const struct top *t)
{
	return t->list_height > 1 ? t->list_height - 1 : 1;
}

static int act_quit(struct top *t)
{
	(void)t;
	return 1;
}

static int act_up(struct top *t)
{
	move_sel(t, -1);
	return 0;
}

static int act_down(struct top *t)
{
	move_sel(t, 1);
	return 0;
}

static int act_page_up(struct top *t)
{
	move_sel(t, -page_rows(t));
	return 0;
}

static int act_page_down(struct top *t)
{
	move_sel(t, page_rows(t));
	return 0;
}

static int act_first(struct top *t)
{
	move_sel(t, -(long)t->nrows);
	return 0;
}

static int act_last(struct top *t)
{
	move_sel(t, (long)t->nrows);
	return 0;
}

static int act_open(struct top *t)
{
	open_selected(t);
	return 0;
}

static int act_back(struct top *t)
{
	if (t->depth > 1) {
		t->depth--;
		t->rows_dirty = 1;
	}
	return 0;
}

/* Esc: back, and at the top, clear the filter. */
static int act_escape(struct top *t)
{
	struct top_level *lv = cur(t);

	if (t->depth > 1)
		return act_back(t);
	if (t->filter[0]) {
		t->filter[0] = '\0';
		lv->sel = lv->first = 0;
		t->rows_dirty = 1;
	}
	return 0;
}

/* Show the list of @kind, by wait, from its top. */
static void set_view(struct top *t, enum top_level_kind kind)
{
	struct top_level *lv;

	t->depth = 1;
	lv = cur(t);
	lv->kind = kind;
	lv->sort = wait_col(lv->kind);
	lv->reverse = 0;
	lv->sel = lv->first = 0;
	t->rows_dirty = 1;
}

static int act_switch_view(struct top *t)
{
	set_view(t, t->stack[0].kind == LEVEL_FILES ? LEVEL_PROCS : LEVEL_FILES);
	return 0;
}

static int act_services(struct top *t)
{
	set_view(t, LEVEL_SERVICES);
	return 0;
}

static int act_sort_next(struct top *t)
{
	cycle_sort(t, 1);
	return 0;
}

static int act_sort_prev(struct top *t)
{
	cycle_sort(t, -1);
	return 0;
}

static int act_reverse(struct top *t)
{
	struct top_level *lv = cur(t);

	lv->reverse = !lv->reverse;
	lv->sel = lv->first = 0;
	t->rows_dirty = 1;
	return 0;
}

static int act_tree(struct top *t)
{
	t->tree = !t->tree;
	cur(t)->sel = cur(t)->first = 0;
	t->rows_dirty = 1;
	return 0;
}

static int act_filter(struct top *t)
{
	t->editing = 1;
	snprintf(t->saved_filter, sizeof(t->saved_filter), "%s", t->filter);
	if (t->depth > 1) {
		t->depth = 1;
		t->rows_dirty = 1;
	}
	return 0;
}

static int act_help(struct top *t)
{
	t->help = 1;
	return 0;
}

static int act_left(struct top *t)
{
	shift_window(t, -1, 0);
	return 0;
}

static int act_right(struct top *t)
{
	shift_window(t, 1, 0);
	return 0;
}

static int act_left10(struct top *t)
{
	shift_window(t, -10, 0);
	return 0;
}

static int act_right10(struct top *t)
{
	shift_window(t, 10, 0);
	return 0;
}

static int act_narrower(struct top *t)
{
	shift_window(t, 0, -1);
	return 0;
}

static int act_wider(struct top *t)
{
	shift_window(t, 0, 1);
	return 0;
}

static int act_narrower10(struct top *t)
{
	shift_window(t, 0, -10);
	return 0;
}

static int act_wider10(struct top *t)
{
	shift_window(t, 0, 10);
	return 0;
}

static int act_whole(struct top *t)
{
	if (!t->src->update || t->cumulative) {
		t->since_ns = t->until_ns = 0;
		t->window_dirty = 1;
	}
	return 0;
}

static int act_active_only(struct top *t)
{
	struct top_level *lv = cur(t);

	t->active_only = !t->active_only;
	lv->sel = lv->first = 0;
	t->rows_dirty = 1;
	return 0;
}

static int act_cumulative(struct top *t)
{
	if (t->src->update) {
		t->cumulative = !t->cumulative;
		t->since_ns = t->cumulative ? 0 : t->interval_since_ns;
		t->until_ns = 0;
		t->window_dirty = 1;
		/* Cumulative needs the pages the last update did not keep. */
		t->update_now = 1;
	}
	return 0;
}

#define TOP_MAX_KEYS 5

/*
 * Every key top knows (htop's Action.c): the help screen is printed from
 * this table, so it cannot forget a key. An action returns 1 to quit.
 */
static const struct top_action {
	int keys[TOP_MAX_KEYS]; /* 0-terminated */
	const char *help;       /* at most 23 columns: the help has two columns */
	int (*run)(struct top *t);
} top_actions[] = {
	{ { TOP_KEY_UP, 'k' }, "selection up", act_up },
	{ { TOP_KEY_DOWN, 'j' }, "selection down", act_down },
	{ { TOP_KEY_PGUP }, "page up", act_page_up },
	{ { TOP_KEY_PGDN, ' ' }, "page down", act_page_down },
	{ { TOP_KEY_HOME, 'g' }, "first row", act_first },
	{ { TOP_KEY_END, 'G' }, "last row", act_last },
	{ { TOP_KEY_ENTER }, "open the selected row", act_open },
	{ { TOP_KEY_BACKSPACE }, "back", act_back },
	{ { TOP_KEY_ESC }, "back, or clear filter", act_escape },
	{ { TOP_KEY_TAB }, "files / processes", act_switch_view },
	{ { 'u' }, "services (units)", act_services },
	{ { 's', '>', '.', TOP_KEY_F6 }, "sort: next column", act_sort_next },
	{ { 'S', '<', ',' }, "sort: previous column", act_sort_prev },
	{ { 'r', 'I' }, "sort: reverse order", act_reverse },
	{ { 't', TOP_KEY_F5 }, "processes as a tree", act_tree },
	{ { '/', TOP_KEY_F3, TOP_KEY_F4 }, "filter path/comm/unit", act_filter },
	{ { 'o' }, "only waiting or reading", act_active_only },
	{ { TOP_KEY_LEFT }, "window: left", act_left },
	{ { TOP_KEY_RIGHT }, "window: right", act_right },
	{ { TOP_KEY_SLEFT }, "window: 10 left", act_left10 },
	{ { TOP_KEY_SRIGHT }, "window: 10 right", act_right10 },
	{ { '[' }, "window: narrower", act_narrower },
	{ { ']' }, "window: wider", act_wider },
	{ { '{' }, "window: 10 narrower", act_narrower10 },
	{ { '}' }, "window: 10 wider", act_wider10 },
	{ { 'w' }, "window: everything", act_whole },
	{ { 'c' }, "live: all / interval", act_cumulative },
	{ { '?', 'h', TOP_KEY_F1 }, "this help", act_help },
	{ { 'q', 'Q', TOP_KEY_F10 }, "quit", act_quit },
};

#define NACTIONS (sizeof(top_actions) / sizeof(top_actions[0]))

static const char *key_name(int key, char buf[8])
{
	static const char *const names[] = {
		[TOP_KEY_UP - TOP_KEY_UP] = "Up",
		[TOP_KEY_DOWN - TOP_KEY_UP] = "Down",
		[TOP_KEY_PGUP - TOP_KEY_UP] = "PgUp",
		[TOP_KEY_PGDN - TOP_KEY_UP] = "PgDn",
		[TOP_KEY_HOME - TOP_KEY_UP] = "Home",
		[TOP_KEY_END - TOP_KEY_UP] = "End",
		[TOP_KEY_LEFT - TOP_KEY_UP] = "Left",
		[TOP_KEY_RIGHT - TOP_KEY_UP] = "Right",
		[TOP_KEY_SLEFT - TOP_KEY_UP] = "S-Left",
		[TOP_KEY_SRIGHT - TOP_KEY_UP] = "S-Right",
		[TOP_KEY_ENTER - TOP_KEY_UP] = "Enter",
		[TOP_KEY_BACKSPACE - TOP_KEY_UP] = "Backspace",
		[TOP_KEY_ESC - TOP_KEY_UP] = "Esc",
		[TOP_KEY_TAB - TOP_KEY_UP] = "Tab",
		[TOP_KEY_F1 - TOP_KEY_UP] = "F1",
		[TOP_KEY_F3 - TOP_KEY_UP] = "F3",
		[TOP_KEY_F4 - TOP_KEY_UP] = "F4",
		[TOP_KEY_F5 - TOP_KEY_UP] = "F5",
		[TOP_KEY_F6 - TOP_KEY_UP] = "F6",
		[TOP_KEY_F10 - TOP_KEY_UP] = "F10",
	};

	if (key == ' ')
		return "Space";
	if (key >= TOP_KEY_UP && key <= TOP_KEY_F10 && names[key - TOP_KEY_UP])
		return names[key - TOP_KEY_UP];
	buf[0] = (char)key;
	buf[1] = '\0';
	return buf;
}

size_t top_key_help(size_t i, char *keys, size_t size, const char **help)
{
	const struct top_action *a;
	char buf[8];
	size_t len = 0;
	int k;

	if (i >= NACTIONS)
		return 0;
	a = &top_actions[i];
	keys[0] = '\0';
	for (k = 0; k < TOP_MAX_KEYS && a->keys[k]; k++)
		len += (size_t)snprintf(keys + len, len < size ? size - len : 0, "%s%s", k ? " " : "",
					key_name(a->keys[k], buf));
	*help = a->help;
	return NACTIONS;
}

int top_key(struct top *t, int key)
{
	size_t i;
	int k;

	t->message[0] = '\0';
	if (t->editing)
		return filter_key(t, key);
	if (t->help) {
		/* Help: the quit keys quit, any other key returns. */
		t->help = 0;
		for (k = 0; k < TOP_MAX_KEYS && top_actions[NACTIONS - 1].keys[k]; k++)
			if (top_actions[NACTIONS - 1].keys[k] == key)
				return 1;
		return 0;
	}
	if (t->rows_dirty)
		build_rows(t);
	for (i = 0; i < NACTIONS; i++) {
		for (k = 0; k < TOP_MAX_KEYS && top_actions[i].keys[k]; k++) {
			if (top_actions[i].keys[k] == key)
				return top_actions[i].run(t);
		}
	}
	return 0;
}

int top_apply(struct top *t)
{
	if (!t->window_dirty)
		return 0;
	return rebuild_window(t);
}

void top_click(struct top *t, int line, int col)
{
	struct top_level *lv = cur(t);

	if (t->help || t->editing)
		return;
	if (line >= t->strip_line && line < t->strip_line + 3 && col >= 6 && t->strip_cols > 0) {
		/* Centre the window on the clicked column. */
		int n = t->strip_cols, c0, c1, len;

		if (t->src->update && !t->cumulative)
			return;
		window_cols(t, n, &c0, &c1);
		len = c1 - c0;
		c0 = col - 6 - len / 2;
		if (c0 + len > n)
			c0 = n - len;
		if (c0 < 0)
			c0 = 0;
		set_window_cols(t, n, c0, c0 + len);
		return;
	}
	if (line >= t->list_top && line < t->list_top + t->list_height) {
		size_t i = lv->first + (size_t)(line - t->list_top);

		if (i < t->nrows && selectable(&t->rows[i]))
			lv->sel = i;
	}
}
