/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_FOCUS_H
#define BP_ANALYSIS_FOCUS_H

#include <stdint.h>

#include "analysis/model.h"

/*
 * What a view is about. A recording of `bootprof record -- CMD` was made
 * to look at CMD: every view (report, top, chart, export, diff, check, db,
 * readahead) lists CMD's process tree unless the user asks for everything
 * (--all) or names other processes (--pid, --comm). A boot recording has
 * no command: its views show the whole system.
 *
 * The window the user asks for is given in seconds on the recording clock,
 * or after the recording's first event ("+S"); a filter or a window that
 * selects nothing is an error that says what the recording holds.
 */

struct bp_reader;

/**
 * bp_focus_command() - the default focus: the traced command's process tree
 * @m: the model
 * @all: --all given: every process
 * @f: the view's filter; when it names no process (no pid, no comm), @all
 *     is 0 and the command's process is in @m, set to select the command
 *     and its descendants
 *
 * Return: the command's pid when @f now selects its tree, else 0.
 */
int bp_focus_command(const struct bp_model *m, int all, struct bp_filter *f);

/**
 * struct bp_instant - a --since or --until value
 * @ns: seconds in ns
 * @relative: after the recording's first event ("+S"), else on the
 *            recording clock
 * @set: given
 */
struct bp_instant {
	uint64_t ns;
	int relative;
	int set;
};

/**
 * bp_focus_window() - the window of a recording that --since/--until name
 * @r: the recording (rewound when a bound is relative)
 * @since: start, or not set
 * @until: end, or not set
 * @w: its since_ns/until_ns are set on the recording clock (0: open)
 *
 * Return: 0, or -1 with bp_set_error() (unreadable recording, an end
 * before the start).
 */
int bp_focus_window(struct bp_reader *r, const struct bp_instant *since,
		    const struct bp_instant *until, struct bp_window *w);

/*
 * --since/--until of the commands that take a window on the recording
 * clock (report, top, readahead), for their option tables
 * (util/parse-options.h): one parser, one wording.
 */
struct bp_option;
int bp_focus_opt_instant(const struct bp_option *opt, const char *arg);
#define OPT_SINCE(v) \
	OPT_CALLBACK(0, "since", (v), "S", "start of the window: S seconds on the recording clock,\n" \
		     "or +S seconds after the recording's first event", bp_focus_opt_instant)
#define OPT_UNTIL(v) \
	OPT_CALLBACK(0, "until", (v), "S", "end of the window (S or +S, as --since)", \
		     bp_focus_opt_instant)

/**
 * bp_focus_check() - whether a filter and a window select something
 * @m: the model built over the window
 * @f: the filter the views use, or NULL
 * @windowed: the user gave --since or --until
 *
 * Return: 0, or -1 with bp_set_error() saying what is missing and what
 * exists ("no process 99999 in the recording (pids 1–31844)", "window
 * 0.5–1 s is outside the recording 837.8–839.5 s").
 */
int bp_focus_check(const struct bp_model *m, const struct bp_filter *f, int windowed);

/*
 * The --all option of the commands that read a recording, for their
 * option tables (util/parse-options.h): one wording of the focus rule.
 */
#define OPT_FOCUS_ALL(v) \
	OPT_FLAG(0, "all", (v), "every process of a `record -- CMD` recording, not only\n" \
		 "CMD's process tree (the default)")

#endif
