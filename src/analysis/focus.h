/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_FOCUS_H
#define BP_ANALYSIS_FOCUS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model.h"
#include "util/parse-options.h"

/*
 * What a view is about. A recording of `bootprof record -- CMD` was made
 * to look at CMD: every view (report, top, chart, export, diff, check, db,
 * readahead) lists CMD's process tree unless the user asks for everything
 * (--all) or names other processes (--pid, --comm). A boot recording has
 * no command: its views show the whole system.
 *
 * The window the user asks for (--since, --until) means the same in every
 * command: a time on the recording clock (seconds since boot, as every
 * report line and dmesg print it), or after the recording's first event
 * ("+T"). A filter or a window that selects nothing is an error that says
 * what the recording holds; a window that reaches past the recording is a
 * warning.
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
 * bp_focus_window_resolve() - the window --since/--until name, on the recording clock
 * @a: the window as given (util/parse-options.h: OPT_SINCE, OPT_UNTIL)
 * @first_ns: the recording's first event, from which "+T" counts
 * @w: its since_ns/until_ns are set on the recording clock (0: open)
 *
 * Return: 0, or -1 with bp_set_error() (a time past 2^64 ns, an end not
 * after the start).
 */
int bp_focus_window_resolve(const struct bp_window_arg *a, uint64_t first_ns,
			    struct bp_window *w);

/**
 * bp_focus_window() - bp_focus_window_resolve() on an open recording
 * @r: the recording (rewound, and its first event read, when a bound is "+T")
 * @a: the window as given
 * @w: as bp_focus_window_resolve()
 *
 * Return: 0, or -1 with bp_set_error() (also an unreadable recording).
 */
int bp_focus_window(struct bp_reader *r, const struct bp_window_arg *a, struct bp_window *w);

/* Whether --since or --until named a window (a resolved one: 0 is open). */
static inline int bp_focus_windowed(const struct bp_window *w)
{
	return w && (w->since_ns || w->until_ns);
}

/**
 * bp_focus_window_check() - whether a window holds any of the recording
 * @m: a model built over @w (its header has the recording's first and
 *     last events)
 * @w: the window asked for, resolved (0: open ends)
 *
 * Return: 0, or -1 with bp_set_error() printing both ranges in seconds on
 * the recording clock: "window 0.200-0.300 s is outside the recording
 * (866.700-871.731 s)", or "... holds no event of the recording (...)".
 */
int bp_focus_window_check(const struct bp_model *m, const struct bp_window *w);

/**
 * bp_focus_window_note() - the warning for a window that reaches past the recording
 * @w: the window asked for, resolved (0: open ends)
 * @covered: the recording's span (first to last event), or the part of it
 *           the window covers (a model's window: the same where @w reaches
 *           past it)
 * @buf: filled with one line, at most @len bytes
 *
 * Return: @buf ("window 0.200-871.731 s starts before the recording's
 * first event (866.700 s)"), or NULL when @w lies inside the recording or
 * misses it altogether (bp_focus_window_check() says so).
 */
const char *bp_focus_window_note(const struct bp_window *w, const struct bp_window *covered,
				 char *buf, size_t len);

/**
 * bp_focus_check() - whether a filter and a window select something
 * @m: the model built over the window
 * @f: the filter the views use, or NULL
 * @w: the window the user asked for (bp_focus_window()), or NULL
 *
 * Return: 0, or -1 with bp_set_error() saying what is missing and what
 * exists ("no process 99999 in the recording (pids 1–31844)", and those
 * of bp_focus_window_check()).
 */
int bp_focus_check(const struct bp_model *m, const struct bp_filter *f, const struct bp_window *w);

/*
 * The traced command's numbers (bp_model.command_totals), made by the
 * model's own pass: the pass gives a collector every I/O-wait span and
 * every span of CPU idle while waiting, and bp_focus_totals() sums the
 * tree's processes and files after it.
 */
struct bp_focus_spans;

/**
 * bp_focus_spans_new() - a collector of the spans the tree's totals need
 * @inner: the caller's hooks, whose span callback still sees every span,
 *         or NULL
 * @out: set to the hooks to give the pass (span: the collector; critical:
 *       @inner's). @inner's event callback is the caller's to run
 *
 * Return: the collector; free with bp_focus_spans_free().
 */
struct bp_focus_spans *bp_focus_spans_new(const struct bp_build_hooks *inner,
					  struct bp_build_hooks *out);
void bp_focus_spans_free(struct bp_focus_spans *c);

/**
 * bp_focus_totals() - fill @m's command_totals
 * @m: a model of a recording with a command (header.command_pid)
 * @c: the spans its pass gave, or NULL (then idle_wait_ns stays 0); its
 *     wait spans are reordered. Also fills @m's command_timeline from them
 *
 * Sums over the command's process and its descendants: read and metadata
 * bytes, I/O wait by cause, charged to metadata and to no file, other
 * D-sleep; CPU idle while one of them waited; of each file they read from
 * storage, used, never used, mapped and re-read bytes in proportion to
 * the bytes they read of it. The other fields are the machine's (bytes
 * written into the cache and on tmpfs are not kept per process). All
 * those sums are 0 when the command is not in the window.
 */
void bp_focus_totals(struct bp_model *m, struct bp_focus_spans *c);

/*
 * The totals a view shows: the command's tree when it is the focus
 * (@focus_pid as bp_focus_command() returned it), else the window's.
 */
static inline const struct bp_totals *bp_focus_totals_of(const struct bp_model *m, int focus_pid)
{
	return focus_pid > 0 && focus_pid == m->header.command_pid ? &m->command_totals :
								      &m->totals;
}

/* The timeline a view shows, by the same rule (bp_model.command_timeline). */
static inline const struct bp_bucket *bp_focus_timeline_of(const struct bp_model *m,
							   int focus_pid)
{
	return focus_pid > 0 && focus_pid == m->header.command_pid && m->command_timeline ?
		       m->command_timeline : m->timeline;
}

#endif
