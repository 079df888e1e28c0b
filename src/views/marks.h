/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_MARKS_H
#define BP_VIEWS_MARKS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model.h"

/*
 * What a timeline (chart, export) shows besides processes: the boot's
 * phase markers and the kernel's initcalls, from the model's pass, never
 * from parsing events here:
 *  - PID 1's execs (the initramfs's /init, switch_root/run-init/
 *    pivot_root, the real init) as the phase finder saw them
 *    (analysis/phases.h), plus the first service start from the model and
 *    the stop condition from the header;
 *  - the marks plugins give (host->mark): initcalls as spans, a plugin's
 *    own phase boundaries.
 *
 *   bp_marks_collect(finder, marks, nmarks, model, origin, &out);
 *   ...
 *   bp_marks_release(&out);
 */

struct bp_phase_finder;
struct bootprof_mark;

/* One phase marker: the instant a phase begins. */
struct bp_mark {
	uint64_t ns;    /* recording clock */
	char *name;     /* "kernel", "initramfs /init", "real root", "init /sbin/init" ...; owned */
};

/* One initcall, as the initcall plugin measured it. */
struct bp_initcall_bar {
	uint64_t start_ns;
	uint64_t duration_ns;
	char *name;            /* function name or address; owned */
	char *level;           /* initcall level, or "?"; owned */
};

struct bp_marks {
	struct bp_mark *phases;        /* by time */
	size_t nphases;
	struct bp_initcall_bar *calls; /* by start */
	size_t ncalls;
};

/**
 * bp_marks_collect() - phases and initcalls after the model's pass
 * @finder: a phase finder that saw the pass (its PID 1 execs), or NULL
 * @given: the marks plugins gave (bp_plugins_marks()), @ngiven of them
 * @m: the finished model
 * @origin_ns: the timeline's 0 (bp_timeline_origin()): a "kernel" phase
 *             from 0 when it is the kernel's start
 * @out: filled; release with bp_marks_release()
 */
void bp_marks_collect(const struct bp_phase_finder *finder, const struct bootprof_mark *given,
		      size_t ngiven, const struct bp_model *m, uint64_t origin_ns,
		      struct bp_marks *out);

/**
 * bp_marks_ends() - the boot's ends among the marks plugins gave
 * @given: the marks (bp_plugins_marks()), @ngiven of them
 * @by: the name of the plugin that gave mark i (bp_plugins_mark_by()), with @arg
 * @out: set to a new array (free()) of the END marks with a task, for
 *       struct bp_crit_end.marks; its strings are @given's and @by's
 *
 * Return: their number.
 */
struct bp_crit_mark;
size_t bp_marks_ends(const struct bootprof_mark *given, size_t ngiven,
		     const char *(*by)(const void *arg, size_t i), const void *arg,
		     struct bp_crit_mark **out);

/* Free what bp_marks_collect() filled; safe on a zeroed struct. */
void bp_marks_release(struct bp_marks *marks);

/**
 * bp_timeline_origin() - the instant a timeline's 0 stands for
 * @clock: the recording's trace clock ("boot", "local" ...), or NULL
 * @start_ns: the recording's start (metadata), 0 when unknown
 * @first_ns: its first event
 *
 * 0 (kernel start) for a recording on the boot or local clock (both count
 * from boot) that starts in the first two minutes after boot; else the
 * recording's start (its first event when that came earlier, as
 * boot-instance events do).
 */
uint64_t bp_timeline_origin(const char *clock, uint64_t start_ns, uint64_t first_ns);

#endif
