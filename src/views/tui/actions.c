// SPDX-License-Identifier: GPL-2.0
/*
 * What each key and click does to top's state, from one key table that
 * also prints the help screen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/tui/internal.h"

/* ---- keys ---- */

static void move_sel(struct top *t, long delta)
{
	struct top_level *lv = top_cur(t);
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
	while (sel >= 0 && sel < n && !top_row_selectable(&t->rows[sel]))
		sel += step;
	if (sel < 0 || sel >= n) {
		sel = (long)lv->sel;
		while (sel >= 0 && sel < n && !top_row_selectable(&t->rows[sel]))
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
	lv->sort = top_wait_col(kind);
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
		 top_service_key(r));
}

/* A file of the path opens as a file, a task as its process, in the window's model. */
static void open_path_item(struct top *t, const struct top_path_item *it)
{
	const struct bp_process *p;

	if (it->section == TOP_PATH_FILE && it->has_file) {
		if (bp_model_find_file(t->win, it->dev, it->ino))
			push(t, LEVEL_FILE, it->dev, it->ino, NULL);
		else
			snprintf(t->message, sizeof(t->message), "%.100s: not in this window",
				 it->name);
	} else if (it->section == TOP_PATH_TASK) {
		p = bp_model_find_process(t->win, it->pid);
		if (p)
			push(t, LEVEL_PROC, 0, 0, p);
		else
			snprintf(t->message, sizeof(t->message), "%.100s: no process in this window",
				 it->name);
	}
}

static void open_selected(struct top *t)
{
	const struct top_row *r;
	const struct bp_access *x;
	const struct bp_file *file;
	const struct bp_process *p;

	if (t->rows_dirty)
		top_build_rows(t);
	if (top_cur(t)->sel >= t->nrows)
		return;
	r = &t->rows[top_cur(t)->sel];
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
	case ROW_PATH:
		open_path_item(t, r->obj);
		break;
	case ROW_TITLE:
	case ROW_HEAD:
	case ROW_SECTION:
		break;
	}
}

static void cycle_sort(struct top *t, int step)
{
	struct top_level *lv = top_cur(t);
	int n;

	top_level_cols(lv->kind, &n);
	lv->sort = (lv->sort + step + n) % n;
	lv->sel = lv->first = 0;
	t->rows_dirty = 1;
}

static void set_window_cols(struct top *t, int n, int c0, int c1)
{
	t->since_ns = c0 > 0 ? top_col_time(t, c0, n) : 0;
	t->until_ns = c1 < n ? top_col_time(t, c1, n) : 0;
	t->window_dirty = 1;
}

/* Move the window by @move columns of the timeline, or resize it by @grow. */
static void shift_window(struct top *t, int move, int grow)
{
	int n = t->strip_cols > 0 ? t->strip_cols : 80;
	int c0, c1, len;

	if (t->src->update && !t->cumulative)
		return; /* live, last interval: the window follows the clock */
	top_window_cols(t, n, &c0, &c1);
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
	top_cur(t)->sel = top_cur(t)->first = 0;
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
	struct top_level *lv = top_cur(t);

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
	lv = top_cur(t);
	lv->kind = kind;
	lv->sort = top_wait_col(lv->kind);
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

static int act_path(struct top *t)
{
	set_view(t, LEVEL_PATH);
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
	struct top_level *lv = top_cur(t);

	lv->reverse = !lv->reverse;
	lv->sel = lv->first = 0;
	t->rows_dirty = 1;
	return 0;
}

static int act_tree(struct top *t)
{
	t->tree = !t->tree;
	top_cur(t)->sel = top_cur(t)->first = 0;
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
	struct top_level *lv = top_cur(t);

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
	{ { 'p' }, "critical path", act_path },
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
		top_build_rows(t);
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
	return top_rebuild_window(t);
}

void top_click(struct top *t, int line, int col)
{
	struct top_level *lv = top_cur(t);

	if (t->help || t->editing)
		return;
	if (line >= t->strip_line && line < t->strip_line + 3 && col >= 6 && t->strip_cols > 0) {
		/* Centre the window on the clicked column. */
		int n = t->strip_cols, c0, c1, len;

		if (t->src->update && !t->cumulative)
			return;
		top_window_cols(t, n, &c0, &c1);
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

		if (i < t->nrows && top_row_selectable(&t->rows[i]))
			lv->sel = i;
	}
}
