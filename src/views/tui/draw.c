// SPDX-License-Identifier: GPL-2.0
/*
 * A whole frame for a screen of any size: title, timeline strip, totals,
 * the list, help and footer. curses.c draws frames; --batch prints them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/focus.h"
#include "doc/format.h"
#include "util/xalloc.h"
#include "views/tui/internal.h"

/* ---- header, timeline ---- */

uint64_t top_span_since(const struct top *t)
{
	return t->full->window.since_ns;
}

static uint64_t span_until(const struct top *t)
{
	return t->full->window.until_ns > t->full->window.since_ns ? t->full->window.until_ns :
	       t->full->window.since_ns + 1;
}

/* The time column c of n starts at. */
uint64_t top_col_time(const struct top *t, int c, int n)
{
	double span = (double)(span_until(t) - top_span_since(t));

	return top_span_since(t) + (uint64_t)(span * c / n);
}

/* The timeline column nearest to time @ns, of @n columns. */
static int time_col(const struct top *t, uint64_t ns, int n)
{
	double span = (double)(span_until(t) - top_span_since(t));

	if (ns <= top_span_since(t))
		return 0;
	if (ns >= span_until(t))
		return n;
	return (int)((double)(ns - top_span_since(t)) * n / span + 0.5);
}

static void put_title(struct top *t, struct top_frame *f)
{
	const struct bp_model_header *h = &t->win->header;
	struct top_line *l = top_new_line(f, TA_TITLE);
	int col;

	col = top_putf(f, l, 0, "bootprof top - %s", t->src->name);
	if (t->focus_pid)
		col = top_putf(f, l, col, "  command pid %d and its tree (--all: every process)",
			   t->focus_pid);
	if (h->hostname)
		col = top_putf(f, l, col, "  host %s", h->hostname);
	if (h->kernel_release)
		col = top_putf(f, l, col, "  kernel %s%s%s", h->kernel_release, h->machine ? " " : "",
			   h->machine ? h->machine : "");
	if (h->ncpus)
		col = top_putf(f, l, col, "  %d cpus", h->ncpus);
	if (t->win->totals.truncated)
		top_put_attr(f, l, col, "  TRUNCATED", TA_WARN);
}

static void put_span_line(struct top *t, struct top_frame *f)
{
	const struct bp_totals *tot = &t->win->totals;
	struct top_line *l = top_new_line(f, TA_NORMAL);
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN];
	uint64_t since = t->win->window.since_ns, until = t->win->window.until_ns;
	int col;

	if (!t->full->totals.events_total) {
		top_put(f, l, 0, t->src->update ? "no events yet" : "no events in the recording");
		return;
	}
	col = top_putf(f, l, 0, "span %s-%s s", bp_fmt_ts(a, top_span_since(t)), bp_fmt_ts(b, span_until(t)));
	if (t->src->update)
		col = top_putf(f, l, col, "  %s %s-%s s (%s)", t->cumulative ? "all" : "interval",
			   bp_fmt_ts(a, since), bp_fmt_ts(b, until), bp_fmt_ns(c, until - since));
	else
		col = top_putf(f, l, col, "  window %s-%s s (%s)", bp_fmt_ts(a, since), bp_fmt_ts(b, until),
			   bp_fmt_ns(c, until - since));
	col = top_put(f, l, col, "  ");
	if (tot->lost_events || tot->lost_pages) {
		snprintf(a, sizeof(a), "lost %" PRIu64 "%s", tot->lost_events,
			 tot->lost_pages ? "+" : "");
		col = top_put_attr(f, l, col, a, TA_WARN);
	} else {
		col = top_put(f, l, col, "lost 0");
	}
	if (t->rebuilding)
		top_put(f, l, col, "  (rebuilding...)");
	else if (!t->batch && t->rebuild_ms > 0)
		top_putf(f, l, col, "  (rebuilt in %.1f ms)", t->rebuild_ms);
}

static void put_totals(struct top *t, struct top_frame *f)
{
	const struct bp_totals *tot = bp_focus_totals_of(t->win, t->focus_pid);
	struct top_line *l = top_new_line(f, TA_NORMAL);
	unsigned miss = t->win->missing;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], d[BP_FMT_LEN];

	top_putf(f, l, 0, "read %s  I/O wait %s%s  CPU idle waiting %s  never used %s",
	     bp_fmt_bytes(a, tot->read_bytes), miss & BP_MISSING_SCHED ? "n/a" : bp_fmt_ns(b, tot->wait_ns),
	     miss & BP_MISSING_SCHED ? "" :
	     tot->iowait_source == BP_IOWAIT_KERNEL ? " (kernel)" : " (inferred)",
	     miss & BP_MISSING_SCHED ? "n/a" : bp_fmt_ns(c, tot->idle_wait_ns),
	     miss & BP_MISSING_ACCESS ? "n/a" : bp_fmt_bytes(d, tot->never_used_bytes));
}

/* The window in timeline columns: [*c0, *c1) of n. */
void top_window_cols(const struct top *t, int n, int *c0, int *c1)
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
	const struct bp_bucket *tl = bp_focus_timeline_of(m, t->focus_pid);
	int block = !(m->missing & BP_MISSING_BLOCK);
	double *wait = xcalloc((size_t)n, sizeof(*wait)), *disk = xcalloc((size_t)n, sizeof(*disk));
	double maxw = 0, maxd = 0;
	uint64_t bucket = m->window.bucket_ns ? m->window.bucket_ns : 1;
	struct top_line *lw, *ld, *lm;
	int c, c0, c1;

	for (c = 0; c < n && m->nbuckets; c++) {
		uint64_t t0 = top_col_time(t, c, n), t1 = top_col_time(t, c + 1, n);
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
			wait[c] += (double)tl[b].wait_ns;
			disk[c] += (double)(block ? tl[b].rq_read_bytes : tl[b].read_bytes);
		}
		wait[c] /= (double)(b1 - b0);
		disk[c] /= (double)(b1 - b0);
		if (wait[c] > maxw)
			maxw = wait[c];
		if (disk[c] > maxd)
			maxd = disk[c];
	}
	lw = top_new_line(f, TA_NORMAL);
	ld = top_new_line(f, TA_NORMAL);
	lm = top_new_line(f, TA_NORMAL);
	top_put(f, lw, 0, "wait");
	top_put(f, ld, 0, block ? "disk" : "read");
	for (c = 0; c < n; c++) {
		int lvw = wait[c] > 0 ? 1 + (int)(wait[c] * (NLEVELS - 1) / maxw + 0.5) : 0;
		int lvd = disk[c] > 0 ? 1 + (int)(disk[c] * (NLEVELS - 1) / maxd + 0.5) : 0;

		lw->text[6 + c] = strip_levels[lvw];
		ld->text[6 + c] = strip_levels[lvd];
	}
	top_put_span(f, lw, 6, n, TA_STRIP);
	top_put_span(f, ld, 6, n, TA_STRIP);
	if (t->rebuilding) {
		/* The window asked for, while its model is being built. */
		top_window_cols(t, n, &c0, &c1);
		for (c = c0; c < c1; c++)
			lm->text[6 + c] = c == c0 ? '[' : c == c1 - 1 ? ']' : '-';
	} else {
		marker_cols(t, n, &c0, &c1);
		for (c = c0; c < c1; c++)
			lm->text[6 + c] = c == c0 ? '[' : c == c1 - 1 ? ']' : '=';
	}
	top_put_span(f, lm, 6 + c0, c1 - c0, TA_WINDOW);
	top_put(f, lm, 0, t->src->update ? "shown" : "window");
	/* The legend: what the two levels and the marker are. */
	top_putf(f, top_new_line(f, TA_NORMAL), 6, "wait: tasks in I/O wait  %s  [==]: %s",
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
		top_putf(f, l, col, "first exec %s %s", bp_fmt_ts(ts, r->first_exec_ns), r->first_exec);
	else
		top_put(f, l, col, "no exec");
}

/* ", reversed" and the other ways a list is shown, after its title. */
static int put_list_modes(struct top *t, struct top_frame *f, struct top_line *l, int col)
{
	const struct top_level *lv = top_cur(t);

	if (lv->reverse)
		col = top_put(f, l, col, ", reversed");
	if (t->tree && (lv->kind == LEVEL_PROCS || lv->kind == LEVEL_SERVICE))
		col = top_put(f, l, col, ", as a tree");
	if (lv->kind == LEVEL_SERVICES && !t->win->nservices)
		col = top_put(f, l, col, "  (no process of the recording was in a known cgroup)");
	if (t->active_only)
		col = top_put(f, l, col, "  waiting or reading only");
	return col;
}

static void put_list_title(struct top *t, struct top_frame *f, const struct top_col *cols)
{
	const struct top_level *lv = top_cur(t);
	struct top_line *l = top_new_line(f, TA_TITLE), *l2;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], d[BP_FMT_LEN], e[BP_FMT_LEN],
		ts[BP_FMT_LEN];
	int col;

	switch (lv->kind) {
	case LEVEL_FILES:
	case LEVEL_PROCS:
	case LEVEL_SERVICES:
		col = top_putf(f, l, 0, "%s: %zu of %zu, by %s", lv->kind == LEVEL_FILES ? "Files" :
			   lv->kind == LEVEL_PROCS ? "Processes" : "Services", t->nrows,
			   lv->kind == LEVEL_FILES ? t->win->nfiles : lv->kind == LEVEL_PROCS ?
			   t->win->nprocesses : t->nservices, cols[lv->sort].head);
		col = put_list_modes(t, f, l, col);
		if (t->filter[0] || t->editing)
			top_putf(f, l, col, "  filter: %s%s", t->filter, t->editing ? "_" : "");
		/* The selected service's program, as htop shows a command. */
		if (lv->kind == LEVEL_SERVICES && lv->sel < t->nrows) {
			const struct bp_service_row *r = t->rows[lv->sel].obj;

			l2 = top_new_line(f, TA_NORMAL);
			put_service_exec(f, l2, top_putf(f, l2, 0, "%s: ", r->unit), r);
		}
		break;
	case LEVEL_PATH:
		col = top_putf(f, l, 0, "Critical path of the whole recording: %zu rows, by %s", t->path_shown[TOP_PATH_CATEGORY] +
			       t->path_shown[TOP_PATH_FILE] + t->path_shown[TOP_PATH_TASK],
			       cols[lv->sort].head);
		col = put_list_modes(t, f, l, col);
		if (t->filter[0] || t->editing)
			top_putf(f, l, col, "  filter: %s%s", t->filter, t->editing ? "_" : "");
		top_path_title(t, f, top_new_line(f, TA_NORMAL));
		break;
	case LEVEL_SERVICE: {
		const struct bp_service_row *r = top_level_service(t, lv);

		l2 = top_new_line(f, TA_NORMAL);
		if (!r) {
			top_putf(f, l, 0, "Service %s: not in this window", lv->service);
			break;
		}
		col = top_putf(f, l, 0, "Processes of %s: %zu of %zu, by %s", r->unit, t->nrows,
			   r->nprocesses, cols[lv->sort].head);
		put_list_modes(t, f, l, col);
		col = r->service ? top_putf(f, l2, 0, "cgroup %s  ", r->service->path) : 0;
		put_service_exec(f, l2, col, r);
		break;
	}
	case LEVEL_FILE: {
		const struct bp_file *file = top_level_file(t, lv);

		l2 = top_new_line(f, TA_NORMAL);
		if (!file) {
			top_putf(f, l, 0, "File %u:%u ino %" PRIu64 ": not in this window",
			     BP_DEV_MAJOR(lv->dev), BP_DEV_MINOR(lv->dev), lv->ino);
			break;
		}
		top_putf(f, l, 0, "File %s  (%u:%u ino %" PRIu64 ")", file->path,
		     BP_DEV_MAJOR(file->dev), BP_DEV_MINOR(file->dev), file->ino);
		/* mapped: by fault-around, not known to be used (bp_file) */
		top_putf(f, l2, 0, "read %s  wait %s  never used %s  mapped %s  re-read %s  "
		     "readers %zu  first %s", bp_fmt_bytes(a, file->bytes_read),
		     bp_fmt_ns(b, file->wait_ns), bp_fmt_bytes(c, file->never_used_bytes),
		     bp_fmt_bytes(e, file->mapped_unknown_bytes), bp_fmt_bytes(d, file->reread_bytes),
		     file->nreaders, bp_fmt_ts(ts, file->first_ns));
		break;
	}
	case LEVEL_PROC: {
		const struct bp_process *p = top_level_proc(t, lv);
		char causes[160] = "";
		size_t len = 0;
		int i;

		l2 = top_new_line(f, TA_NORMAL);
		if (!p) {
			top_putf(f, l, 0, "Process %d: not in this window", lv->pid);
			break;
		}
		col = top_putf(f, l, 0, "Process %s[%d]", p->comm, p->pid);
		if (p->nexec)
			col = top_putf(f, l, col, " %s", p->exec[p->nexec - 1]);
		if (p->parent)
			col = top_putf(f, l, col, "  parent %s[%d]", p->parent->comm, p->parent->pid);
		if (p->start_ns)
			col = top_putf(f, l, col, "  start %s", bp_fmt_ts(a, p->start_ns));
		if (p->exit_ns)
			top_putf(f, l, col, "  exit %s", bp_fmt_ts(a, p->exit_ns));
		for (i = 0; i < BP_NCAUSES && len < sizeof(causes) - 40; i++) {
			if (p->wait_by_cause[i])
				len += (size_t)snprintf(causes + len, sizeof(causes) - len, "%s%s %s",
							len ? ", " : " (", bp_cause_name(i),
							bp_fmt_ns(a, p->wait_by_cause[i]));
		}
		if (len)
			snprintf(causes + len, sizeof(causes) - len, ")");
		top_putf(f, l2, 0, "wait %s%s  cpu %s  read %s  files %zu  children %zu",
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

	top_put(f, top_new_line(f, TA_TITLE), 0,
	    "bootprof top: I/O wait and reads per file and per process, over a window of time");
	top_new_line(f, TA_NORMAL);
	rows = (n + (size_t)ncols - 1) / (size_t)ncols;
	for (i = 0; i < rows; i++) {
		struct top_line *l = top_new_line(f, TA_NORMAL);

		for (c = 0; c < ncols && i + (size_t)c * rows < n; c++) {
			top_key_help(i + (size_t)c * rows, keys, sizeof(keys), &help);
			top_put_attr(f, l, 2 + 40 * c, keys, TA_KEY);
			top_put(f, l, 2 + 40 * c + 15, help);
		}
	}
	top_new_line(f, TA_NORMAL);
	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		top_put(f, top_new_line(f, TA_NORMAL), 0, notes[i]);
	top_new_line(f, TA_NORMAL);
	top_put(f, top_new_line(f, TA_NORMAL), 0, "q, Q or F10 quits; any other key returns.");
}

/* ---- footer ---- */

struct footer_key {
	const char *key;
	const char *label;
};

static void put_footer(struct top *t, struct top_frame *f)
{
	struct top_line *l = top_new_line(f, TA_FOOTER);
	const struct top_level *lv = top_cur(t);
	struct footer_key keys[] = {
		{ "F1", "Help" },
		{ "/", "Filter" },
		{ "s", "Sort" },
		{ "Tab", lv->kind == LEVEL_FILES ? "Procs" : "Files" },
		{ "u", "Services" },
		{ "p", "Path" },
		{ "Enter", "Open" },
		{ "Bksp", "Back" },
		{ "<-->", "Move" },
		{ "[]", "Size" },
		{ "q", "Quit" },
	};
	size_t i, n = sizeof(keys) / sizeof(keys[0]);
	int col = 0;

	if (t->editing) {
		col = top_put_attr(f, l, 0, "Filter:", TA_KEY);
		top_putf(f, l, col, " %s_   Enter: keep  Esc: cancel", t->filter);
		return;
	}
	if (t->message[0]) {
		top_put_attr(f, l, 0, t->message, TA_WARN);
		return;
	}
	if (t->depth == 1)
		keys[7] = (struct footer_key){ "Esc", "Clear" };
	for (i = 0; i < n && col < f->width; i++) {
		col = top_put_attr(f, l, col, keys[i].key, TA_KEY);
		col = top_put(f, l, col, keys[i].label) + 1;
	}
}

/* ---- the frame ---- */

/* Keep the selection among the @rows rows shown, and no blank rows after the last. */
static void scroll_to_selection(struct top *t, size_t rows)
{
	struct top_level *lv = top_cur(t);

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
		top_build_rows(t);
	lv = top_cur(t);
	if (width < TOP_MIN_WIDTH || (height && height < TOP_MIN_HEIGHT)) {
		top_putf(f, top_new_line(f, TA_WARN), 0, "too small (%dx%d < %dx%d)", width, height,
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
	cols = top_level_cols(lv->kind, &ncols);
	put_list_title(t, f, cols);
	top_put_head(f, top_new_line(f, TA_HEAD), cols, ncols, lv->sort);
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
		top_put_row(t, f, &t->rows[i], 0);
	if (i == shown && i > first && shown < t->nrows)
		top_putf(f, top_new_line(f, TA_NORMAL), 0, "... %zu more (use --top 0)", t->nrows - shown);
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
	lv = top_cur(t);
	list_height = height - (int)f->nlines - 1;
	if (list_height < 1)
		list_height = 1;
	t->list_height = list_height;
	scroll_to_selection(t, (size_t)list_height);
	for (i = lv->first; i < t->nrows && i < lv->first + (size_t)list_height; i++)
		top_put_row(t, f, &t->rows[i], i == lv->sel);
	while ((int)f->nlines < height - 1)
		top_new_line(f, TA_NORMAL);
	put_footer(t, f);
}
