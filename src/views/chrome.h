/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_CHROME_H
#define BP_VIEWS_CHROME_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/model.h"
#include "views/marks.h"

struct bp_critical_path;

/*
 * The Trace Event Format (Chrome's JSON trace, which Perfetto UI,
 * chrome://tracing and speedscope open), written as the recording streams:
 *
 *   x = bp_chrome_begin(out, m1, &opts);   header, process and thread names
 *   hooks.span = bp_chrome_span; hooks.arg = x;
 *   m2 = bp_session_build(s, ...same window..., &hooks, 1);   one X event per span
 *   bp_chrome_end(x, m2);                  counters, first reads, phases; frees x
 *
 * Timestamps are microseconds (with ns decimals) from the timeline's 0.
 * Events: "M" process_name / thread_name; "X" running / I/O wait (args
 * cause, file, bytes) / other uninterruptible sleep, per thread; "C"
 * counters "disk read" (MB/s, all disks) and "tasks in I/O wait", and per
 * disk read from, "disk read NAME" (MB/s) and "in flight NAME" (most
 * requests in flight in the bucket), on pid 0; "i"
 * instants: each file's first read (thread scope, on its first reader)
 * and each phase (global scope); "s" and "f" flow events (cat "critical",
 * name "critical path", one id per pair) from each waker to the task it
 * woke, for every wait the critical path went around (struct
 * bp_crit_wait) between two tasks in the trace, both at the waking: the
 * "s" binds to the waker's running slice, the "f" to the woken's next
 * one, so Perfetto UI draws the chain as arrows.
 */

struct bp_chrome_opts {
	const char *file;          /* the recording's name, for otherData */
	uint64_t origin_ns;        /* the timeline's 0 (bp_timeline_origin()) */
	const struct bp_marks *marks; /* phases, or NULL; borrowed until bp_chrome_end() */
	int all;                   /* every process; 0: a `record -- CMD` recording's CMD tree */
	/* The critical path whose wakings become flow events, or NULL; borrowed likewise. */
	const struct bp_critical_path *critical;
};

struct bp_chrome;

/**
 * bp_chrome_begin() - start the trace
 * @out: stream
 * @m: the first pass's model; borrowed until bp_chrome_end()
 * @o: options (copied)
 *
 * Return: the writer (freed by bp_chrome_end()).
 */
struct bp_chrome *bp_chrome_begin(FILE *out, const struct bp_model *m,
				  const struct bp_chrome_opts *o);

/* The span hook (bp_build_hooks.span; arg: the writer). */
void bp_chrome_span(void *arg, const struct bp_span *span);

/**
 * bp_chrome_end() - finish the trace and free the writer
 * @x: writer, or NULL (no-op, returns -1)
 * @m: the second pass's model (its timeline makes the counters), or NULL
 *     to only close the JSON
 *
 * Return: 0, or -1 with bp_set_error() on a write error.
 */
int bp_chrome_end(struct bp_chrome *x, const struct bp_model *m);

#endif
