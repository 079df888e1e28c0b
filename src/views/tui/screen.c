// SPDX-License-Identifier: GPL-2.0
/*
 * top's state, without curses: the whole recording's model and the
 * window's, rebuilt when keys move the window or a live update arrives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/focus.h"
#include "util/error.h"
#include "views/tui/internal.h"

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
	return (!t->since_ns || t->since_ns <= top_span_since(t)) &&
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
int top_rebuild_window(struct top *t)
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
	if (o->filter)
		snprintf(t->filter, sizeof(t->filter), "%s", o->filter);
	t->cumulative = o->cumulative;
	t->since_ns = o->since_ns;
	t->until_ns = o->until_ns;
	t->depth = 1;
	lv = &t->stack[0];
	lv->kind = top_root_kind(o->view);
	lv->sort = o->sort ? top_find_col(lv->kind, o->sort) : top_wait_col(lv->kind);
	if (lv->sort < 0)
		lv->sort = top_wait_col(lv->kind);
	lv->reverse = o->reverse;
	t->full = src->build(src->arg, NULL);
	if (!t->full)
		return -1;
	t->focus_pid = bp_focus_command(t->full, o->all, &t->focus);
	t->interval_since_ns = top_span_since(t);
	if (top_rebuild_window(t) < 0) {
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
	top_path_release(t);
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
	return top_rebuild_window(t);
}
