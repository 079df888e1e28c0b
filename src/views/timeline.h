/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_TIMELINE_H
#define BP_VIEWS_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/model.h"
#include "util/parse-options.h"
#include "views/marks.h"

/*
 * How a timeline (chart, export) reads a recording:
 *
 *   bp_timeline_open(&t, file, &range)    the reader, the timeline's 0, the window
 *   bp_timeline_resolve(&t)               a pass only when the window's end is not
 *                                         known (no stop time in the recording)
 *   m = bp_timeline_pass(&t, bucket_ns, span_hook, arg)
 *                                         a pass with the span hook; the first one
 *                                         also finds the phases and runs
 *                                         t.source's hook (t.marks)
 *   ...
 *   bp_model_free(m); bp_timeline_release(&t);
 *
 * Every pass builds the model over the same explicit window, so two
 * passes' process, thread and file arrays match index for index. The
 * passes are the session's (analysis/session.h): its checks, its warnings
 * (t.session->warnings).
 */

struct bp_session;
struct bp_phase_finder;
struct bootprof_mark;
struct bp_critical_log;

/*
 * Marks from outside the analysis (the plugins' host->mark), set by the
 * caller after bp_timeline_open(): a hook of the first pass, then the marks
 * once its model exists, and who gave mark i (a plugin's name, or NULL);
 * @release frees @arg with the timeline.
 */
struct bp_mark_source {
	struct bp_build_hooks hooks;
	size_t (*marks)(void *arg, const struct bp_model *m, const struct bootprof_mark **out);
	const char *(*by)(const void *arg, size_t i);
	void (*release)(void *arg);
	void *arg;
};

struct bp_timeline {
	struct bp_session *session;
	const char *file;              /* borrowed */
	struct bp_window window;       /* the part of the recording shown (until_ns 0: open) */
	int known;                     /* @window is known (no pass needed to find it) */
	uint64_t origin_ns;            /* the timeline's 0, recording clock */
	int ncpus;
	struct bp_phase_finder *finder; /* PID 1's execs, fed by the first pass */
	struct bp_mark_source source;  /* optional */
	int marks_fed;                 /* the first pass ran */
	struct bp_marks marks;         /* after the first pass */
	struct bp_crit_mark *ends;     /* the boot's ends among the source's marks (the path's) */
	size_t nends;
	/* Given to every pass (bp_build_hooks.critical), or NULL; borrowed. */
	struct bp_critical_log *critical;
};

/**
 * bp_timeline_open() - open a recording and set the window
 * @t: filled; release with bp_timeline_release() (also on failure)
 * @file: the recording (borrowed)
 * @range: --since and --until, as every command takes them
 *         (util/parse-options.h): the session's window (t->session->window)
 *
 * Return: 0, or -1 with bp_set_error() when the recording cannot be read
 * or the window is not one (a time past the end of time).
 */
int bp_timeline_open(struct bp_timeline *t, const char *file, const struct bp_window_arg *range);

/**
 * bp_timeline_resolve() - know the window's end before the pass that needs it
 * @t: an opened timeline
 *
 * A pass without hooks when the window's end is not known before one:
 * the recording has no stop time on its events' clock (trace-cmd files)
 * and no --until was given, or the window may reach past the recording
 * (then t->window is the part it covers).
 *
 * Return: 0, or -1 with bp_set_error() (unreadable or corrupt recording,
 * a window outside the recording or without events).
 */
int bp_timeline_resolve(struct bp_timeline *t);

/**
 * bp_timeline_pass() - one pass over the window, with a span hook
 * @t: an opened timeline
 * @bucket_ns: timeline bucket width of the model (0: the model's default)
 * @span: the span hook, or NULL
 * @arg: its argument
 *
 * Return: the model (bp_model_free()), or NULL with bp_set_error()
 * (unreadable or corrupt recording, a window outside the recording or
 * without events).
 */
struct bp_model *bp_timeline_pass(struct bp_timeline *t, uint64_t bucket_ns,
				  void (*span)(void *arg, const struct bp_span *span), void *arg);

/**
 * bp_timeline_critical() - the critical path to the default end point
 * @t: a timeline whose pass filled @t->critical (bp_critical_log_new())
 * @m: that pass's model
 *
 * The walk of analysis/critical.h, ended where `bootprof critical` ends it
 * by default (with the source's END marks). Timelines draw it when it can be walked, and say nothing
 * otherwise: a recording without sched_switch, or no end point.
 *
 * Return: the path (bp_critical_path_free()), or NULL with bp_set_error().
 */
struct bp_critical_path *bp_timeline_critical(const struct bp_timeline *t,
					      const struct bp_model *m);

/* Free what bp_timeline_open() made; safe after a failed open. */
void bp_timeline_release(struct bp_timeline *t);

/**
 * bp_output_open() - the stream a view writes to
 * @path: "-" for stdout, else a file created 0644 (a picture or trace to
 *        share, unlike the recording), never through a symbolic link
 * @force: overwrite an existing file
 *
 * Return: the stream, or NULL with bp_set_error().
 */
FILE *bp_output_open(const char *path, int force);

/**
 * bp_output_close() - close what bp_output_open() opened
 * @f: the stream (stdout is left open)
 * @path: its path
 * @failed: writing already failed: the file is removed
 *
 * Return: 0, or -1 (with bp_set_error() when closing failed); a failed
 * file is removed.
 */
int bp_output_close(FILE *f, const char *path, int failed);

#endif
