/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_TUI_TOP_H
#define BP_VIEWS_TUI_TOP_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/model.h"

/*
 * `bootprof top`: the interactive view of the model, and its --batch form.
 * Both print the same frames (draw.c builds them; curses.c only draws
 * them), so golden tests of --batch test what the screen shows.
 *
 * The view never reads events: it asks its source for models, of the whole
 * recording (the timeline strip) and of the selected window (every other
 * number), and asks a live source to take in new events every interval.
 */

/**
 * struct bp_top_source - where models come from
 * @build: a new model over @window (NULL: the whole recording), or NULL
 *         with bp_set_error(); the caller frees it with bp_model_free()
 * @update: live only: take in the events recorded since the last call,
 *          keeping everything since the start (@cumulative) or only
 *          enough for the last interval; 0, or -1 with bp_set_error();
 *          NULL for a recording
 * @arg: passed to both
 * @name: shown in the title (a file name, or "live")
 * @delay_ns: live only: interval between updates
 * @critical: the whole recording's critical path to its default end (as
 *            `bootprof critical`), or NULL with bp_set_error(); the
 *            caller frees it with bp_critical_path_free(); NULL: live, none
 */
struct bp_critical_path;
struct bp_top_source {
	struct bp_model *(*build)(void *arg, const struct bp_window *window);
	int (*update)(void *arg, int cumulative);
	void *arg;
	const char *name;
	uint64_t delay_ns;
	struct bp_critical_path *(*critical)(void *arg);
};

enum bp_top_view { BP_TOP_FILES, BP_TOP_PROCS, BP_TOP_SERVICES, BP_TOP_PATH };

/* The longest filter (key /, --filter), in characters. */
#define BP_TOP_FILTER_MAX 127

/**
 * struct bp_top_opts - how top starts
 * @view: files, processes, services or the critical path
 * @sort: a column name of that view (bp_top_sort_valid()), or NULL for wait
 * @since_ns: window start on the recording clock, 0: the start
 * @until_ns: window end, 0: the end
 * @cumulative: live: show everything since the start instead of the last
 *              interval
 * @iterations: --batch: frames to print (live: one per interval)
 * @width: --batch: columns of the frame
 * @rows: --batch: rows of the list (0: all)
 * @reverse: the sort order reversed
 * @tree: the processes view as a tree
 * @all: every process of a `record -- CMD` recording, not only CMD's tree
 * @filter: the filter to start with (key /), or NULL; printable ASCII, at
 *          most BP_TOP_FILTER_MAX characters
 * @stop: set asynchronously (signals) to leave at once; may be NULL
 */
struct bp_top_opts {
	enum bp_top_view view;
	const char *sort;
	uint64_t since_ns;
	uint64_t until_ns;
	int cumulative;
	int iterations;
	int width;
	int rows;
	int reverse;
	int tree;
	int all;
	const char *filter;
	volatile sig_atomic_t *stop;
};

/* Whether @sort names a column of @view (case-insensitive, aliases too). */
int bp_top_sort_valid(enum bp_top_view view, const char *sort);

/* The column names bp_top_sort_valid() accepts for @view, for messages. */
const char *bp_top_sort_names(enum bp_top_view view);

/**
 * bp_top_batch() - print what the screen would show, without a terminal
 * @out: where to print
 * @src: the models
 * @o: options
 *
 * Return: 0, or -1 with bp_set_error() when a model cannot be built.
 */
int bp_top_batch(FILE *out, const struct bp_top_source *src, const struct bp_top_opts *o);

/**
 * bp_top_interactive() - run the full-screen view until q or *o->stop
 * @src: the models
 * @o: options
 *
 * The first models are built before the terminal is touched, so a failure
 * prints one line on a normal terminal; the terminal is restored on every
 * return.
 *
 * Return: 0, or -1 with bp_set_error().
 */
int bp_top_interactive(const struct bp_top_source *src, const struct bp_top_opts *o);

#endif
