/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_SUMMARY_H
#define BP_ANALYSIS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/critical.h"
#include "analysis/phases.h"
#include "analysis/session.h"

/*
 * One recording reduced to rows that can be matched across recordings:
 * phases by name, processes by comm and exec path (never by pid), files by
 * path, services by cgroup path. `diff`, `check`, `db` and `report --boots`
 * all compare these; the numbers are the model's (docs/design.md, 'The model').
 *
 * Processes with the same comm and last exec path in one recording are one
 * row (blkid exec'd ten times is one row with count 10): their I/O wait,
 * bytes and wall spans are summed.
 */

enum bp_row_kind { BP_ROW_PHASE, BP_ROW_PROCESS, BP_ROW_FILE, BP_ROW_SERVICE, BP_NROW_KINDS };

/* "phase", "process", "file", "service" */
const char *bp_row_kind_name(enum bp_row_kind kind);

/**
 * struct bp_summary_row - one matched thing of a recording
 * @kind: what it is
 * @key: what it is matched by: phase name; "comm (exec path)" or "comm"
 *       for a process that never exec'd in the recording; file path;
 *       cgroup path. Owned
 * @comm: process comm, else NULL; owned
 * @exec: process exec path, else NULL; owned
 * @count: processes folded into the row (1 for the other kinds)
 * @reached: phases: 0 when the phase did not end in the recording (its
 *           numbers are 0); 1 otherwise
 * @span_ns: wall span: a phase's duration; a process's fork (or first
 *           event) to exit (or last event), summed over @count; a file's
 *           first to last event; 0 for services
 * @wait_ns: I/O wait (a file: charged to it; a phase: of all tasks in it)
 * @bytes: bytes read from storage
 * @never_used_bytes: files: bytes read and never used; 0 otherwise
 * @idle_wait_ns: phases: CPU idle while waiting; 0 otherwise
 */
struct bp_summary_row {
	enum bp_row_kind kind;
	char *key;
	char *comm;
	char *exec;
	uint64_t count;
	int reached;
	uint64_t span_ns;
	uint64_t wait_ns;
	uint64_t bytes;
	uint64_t never_used_bytes;
	uint64_t idle_wait_ns;
};

/**
 * struct bp_summary - one recording
 * @path: the file it was loaded from; owned
 * @hostname, @kernel_release, @machine, @cmdline, @bootprof_version:
 *        from the recording's metadata, NULL when missing; owned
 * @boot_ns: the recording's stop (its last event when the stop is unknown)
 *           on the recording clock: for a boot recording, seconds since boot
 * @lost_events: events the kernel dropped (bp_totals.lost_events)
 * @read_bytes, @wait_ns, @idle_wait_ns, @never_used_bytes, @used_bytes,
 * @mapped_unknown_bytes, @span_ns: the recording's bp_totals (of the
 *        window, when one was asked for); with @command_only, all but
 *        @span_ns are the command tree's (bp_model.command_totals)
 * @access_missing: the kernel has no access events: never-used unknown
 * @command_only: rows are the traced command's process tree only
 * @rows: by kind, then key
 * @nrows: entries
 * @critical: the critical path to the default end, when
 *            bp_summary_opts.critical asked for it and there is one
 * @critical_error: else, with .critical asked, why there is none (owned)
 * @warnings: what loading it found (truncated, lost events ...), for the
 *            command to print
 */
struct bp_summary {
	char *path;
	char *hostname;
	char *kernel_release;
	char *machine;
	char *cmdline;
	char *bootprof_version;
	uint64_t boot_ns;
	uint64_t lost_events;
	uint64_t read_bytes;
	uint64_t wait_ns;
	uint64_t idle_wait_ns;
	uint64_t never_used_bytes;
	uint64_t used_bytes;
	uint64_t mapped_unknown_bytes;
	uint64_t span_ns;
	int access_missing;
	int command_only;
	struct bp_summary_row *rows;
	size_t nrows;
	struct bp_critical_path *critical;
	char *critical_error;
	struct bp_warnings warnings;
};

/**
 * struct bp_summary_opts - how to load a recording
 * @specs: user-defined phases
 * @nspecs: entries in @specs
 * @all: every process; 0: for a `record -- CMD` recording, only CMD's
 *       process tree and the files and services it touched (as the
 *       views show it); other recordings always give every process
 * @window: the part of the recording to sum up, as --since/--until give
 *          it (util/parse-options.h), unset for all of it; a window that
 *          misses the recording is an error, one that reaches past it a
 *          line in the summary's @warnings
 * @critical: also walk the critical path to the recording's default end
 *            (analysis/critical.h) into bp_summary.critical; when there
 *            is none, bp_summary.critical_error says why
 * @ends: with @critical, where the default end's boot ends come from
 *        (a plugin's mark, as `bootprof critical` takes it), or NULL
 */
struct bp_summary_opts {
	const struct bp_phase_spec *specs;
	size_t nspecs;
	int all;
	struct bp_window_arg window;
	int critical;
	const struct bp_crit_end_source *ends;
};

/**
 * bp_summary_load() - read a recording and reduce it to rows
 * @path: the recording
 * @o: options, or NULL for the defaults
 *
 * A corrupt recording (damaged pages) is an error, as in `report`; a
 * truncated one, or one that lost events, loads with @warnings.
 * Return: a new summary (free with bp_summary_free()), or NULL with
 * bp_set_error() naming @path.
 */
struct bp_summary *bp_summary_load(const char *path, const struct bp_summary_opts *o);
void bp_summary_free(struct bp_summary *s);

/* The row (kind, key), or NULL. */
const struct bp_summary_row *bp_summary_find(const struct bp_summary *s, enum bp_row_kind kind,
					     const char *key);

/* ---- many recordings ---- */

/**
 * bp_summaries_load() - load recordings named by files or glob patterns
 * @args: file names; with @glob, patterns (glob(3)) each matching at
 *        least one file
 * @nargs: entries in @args
 * @glob: expand @args as patterns
 * @o: load options
 * @n: set to the number loaded
 *
 * Return: a new array of summaries in argument (then name) order (free
 * with bp_summaries_free()), or NULL with bp_set_error() (a pattern that
 * matches nothing, a recording that cannot be read).
 */
struct bp_summary **bp_summaries_load(const char *const *args, size_t nargs, int glob,
				      const struct bp_summary_opts *o, size_t *n);
void bp_summaries_free(struct bp_summary **v, size_t n);

/* A statistic of one number over recordings. */
struct bp_stat {
	uint64_t median, min, max;
};

/**
 * struct bp_group_row - one row over a group of recordings
 * @kind, @key, @comm, @exec: as in bp_summary_row (borrowed from the
 *                            first summary that has it)
 * @boots: recordings it appeared in (a phase: was reached in)
 * @count: its count (processes folded into it) over those
 * @span, @wait, @bytes, @never_used: over the recordings it appeared in,
 *       or over all of them, counting 0 where it is absent (see
 *       bp_group_build)
 */
struct bp_group_row {
	enum bp_row_kind kind;
	const char *key;
	const char *comm;
	const char *exec;
	size_t boots;
	struct bp_stat count, span, wait, bytes, never_used;
};

struct bp_group {
	size_t nsummaries;
	struct bp_group_row *rows;  /* by kind, then key */
	size_t nrows;
};

/**
 * bp_group_build() - statistics per row over recordings
 * @g: filled (release with bp_group_release(); borrows the summaries'
 *     strings: free the summaries after it)
 * @s: the recordings
 * @n: how many
 * @absent_zero: 1: a row absent from a recording counts 0 there (group
 *               diffs: a file read in some boots only); 0: statistics
 *               over the recordings it appeared in (report --boots)
 *
 * The median of an even number of values is the mean of the middle two,
 * rounded down.
 */
void bp_group_build(struct bp_group *g, struct bp_summary *const *s, size_t n, int absent_zero);
void bp_group_release(struct bp_group *g);

/* The median/min/max of v[0..n) (v is sorted in place); all 0 when n is 0. */
struct bp_stat bp_stat_of(uint64_t *v, size_t n);

#endif
