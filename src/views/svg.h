/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_SVG_H
#define BP_VIEWS_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/model.h"
#include "views/marks.h"

struct bp_critical_path;

/*
 * The bootchart: one self-contained SVG (no scripts, fonts or links) of a
 * model — header, time axis with phase markers, CPU and disk strips (all
 * disks, then each disk read from: throughput and requests in flight, from
 * bp_disk_stat.timeline), initcall and service lanes, one lane per
 * process, legend.
 *
 * One pass over the recording, with a window whose bounds are known
 * before it (the recording's start and stop, or a first pass):
 *
 *   c = bp_chart_new(&window, ncpus, &opts);
 *   w.bucket_ns = bp_chart_bucket_ns(&window);     one timeline bucket per pixel column
 *   hooks.span = bp_chart_span; hooks.arg = c;
 *   m = bp_session_build(s, &window, &hooks, 1);   spans -> per-task pixel columns
 *   bp_chart_attach(c, m);                         tasks -> process lanes
 *   bp_chart_write(c, out);
 *   bp_chart_free(c); bp_model_free(m);
 *
 * Memory: per task, a few floats per pixel column of its life; never per
 * event. Output is deterministic (no dates, fixed number formats).
 */

/* Pixel columns of the time axis (and the width of one timeline bucket). */
#define BP_CHART_COLUMNS 1150

/**
 * struct bp_chart_opts - what the chart shows
 * @file: the recording's name, for the header
 * @origin_ns: the instant shown as 0 s (bp_timeline_origin())
 * @min_wait_ns: processes with less I/O wait ...
 * @min_bytes: ... or fewer bytes read are folded into one "others" lane
 * @marks: phases and initcalls, or NULL; borrowed until bp_chart_write()
 * @all: every process of a `record -- CMD` recording; 0: only CMD's
 *       process tree has lanes (analysis/focus.h); the CPU and disk strips
 *       are always the whole machine's
 * @critical: the critical path, outlined across the lanes, or NULL
 *            (bp_chart_set_critical())
 * @all_lanes: a lane for every process; 0: kernel threads that neither
 *             waited on I/O nor used 1 % of the CPU share one lane, and
 *             short-lived children (forked and exited in the window, no I/O
 *             wait, under 1 % of the CPU, nothing of their own drawn) one
 *             lane under their parent
 */
struct bp_chart_opts {
	const char *file;
	uint64_t origin_ns;
	uint64_t min_wait_ns;
	uint64_t min_bytes;
	const struct bp_marks *marks;
	int all;
	const struct bp_critical_path *critical;
	int all_lanes;
};

struct bp_chart;

/**
 * bp_chart_new() - a chart of a window
 * @w: the window the model will be built over (both bounds set)
 * @ncpus: CPUs of the recording
 * @o: options (copied)
 *
 * Return: a new chart (bp_chart_free()).
 */
struct bp_chart *bp_chart_new(const struct bp_window *w, int ncpus, const struct bp_chart_opts *o);

/* The timeline bucket width that gives one bucket per pixel column of w. */
uint64_t bp_chart_bucket_ns(const struct bp_window *w);

/**
 * bp_chart_span() - the span hook (bp_build_hooks.span; arg: the chart)
 * @arg: the chart
 * @span: one interval of one task
 */
void bp_chart_span(void *arg, const struct bp_span *span);

/**
 * bp_chart_attach() - lay out the lanes once the pass is over
 * @c: chart, fed by the pass
 * @m: the pass's model, borrowed until bp_chart_free()
 *
 * Each task's columns go to its process's lane (or "others"), within that
 * thread's life; the per-task columns are freed.
 */
void bp_chart_attach(struct bp_chart *c, const struct bp_model *m);

/**
 * bp_chart_write() - write the SVG
 * @c: an attached chart
 * @out: stream
 *
 * Return: 0, or -1 with bp_set_error() on a write error.
 */
int bp_chart_write(struct bp_chart *c, FILE *out);

/* Outline @p (borrowed until bp_chart_write(); NULL: none) across the lanes. */
void bp_chart_set_critical(struct bp_chart *c, const struct bp_critical_path *p);

struct bp_preloaded;
/*
 * A lane for the preloader (replay/build.h: its reads over time and the
 * late waits; borrowed until bp_chart_write(); NULL or no preloader: none).
 */
void bp_chart_set_preloaded(struct bp_chart *c, const struct bp_preloaded *p);

/* Free a chart; NULL is a no-op. */
void bp_chart_free(struct bp_chart *c);

#endif
