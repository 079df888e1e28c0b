/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_SVG_H
#define BP_VIEWS_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/model.h"
#include "views/marks.h"

/*
 * The bootchart: one self-contained SVG (no scripts, fonts or links) of a
 * model — header, time axis with phase markers, CPU and disk strips,
 * initcall and service lanes, one lane per process, legend.
 *
 * Two passes over the recording with the same window, so both models have
 * the same processes at the same indexes:
 *
 *   m1 = bp_model_build(r, &w, NULL);             lanes, tid -> process
 *   c = bp_chart_new(m1, &opts);
 *   w.bucket_ns = bp_chart_bucket_ns(m1);          one timeline bucket per pixel column
 *   hooks.span = bp_chart_span; hooks.arg = c;
 *   m2 = bp_model_build(r, &w, &hooks);            spans -> per-lane pixel runs
 *   bp_chart_write(c, out, m2);
 *   bp_chart_free(c);
 *
 * Memory: per process, a few floats per pixel column of its life; never
 * per event. Output is deterministic (no dates, fixed number formats).
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
 */
struct bp_chart_opts {
	const char *file;
	uint64_t origin_ns;
	uint64_t min_wait_ns;
	uint64_t min_bytes;
	const struct bp_marks *marks;
};

struct bp_chart;

/**
 * bp_chart_new() - lay out the lanes of a model
 * @m: the first pass's model; borrowed until bp_chart_free()
 * @o: options (copied)
 *
 * Return: a new chart (bp_chart_free()).
 */
struct bp_chart *bp_chart_new(const struct bp_model *m, const struct bp_chart_opts *o);

/* The timeline bucket width that gives one bucket per pixel column. */
uint64_t bp_chart_bucket_ns(const struct bp_model *m);

/**
 * bp_chart_span() - the span hook (bp_build_hooks.span; arg: the chart)
 * @arg: the chart
 * @span: one interval of one task
 */
void bp_chart_span(void *arg, const struct bp_span *span);

/**
 * bp_chart_write() - write the SVG
 * @c: chart, fed by the second pass
 * @out: stream
 * @m: the second pass's model (same window as bp_chart_new()'s)
 *
 * Return: 0, or -1 with bp_set_error() on a write error.
 */
int bp_chart_write(struct bp_chart *c, FILE *out, const struct bp_model *m);

/* Free a chart; NULL is a no-op. */
void bp_chart_free(struct bp_chart *c);

#endif
