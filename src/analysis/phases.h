/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_PHASES_H
#define BP_ANALYSIS_PHASES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model.h"

/*
 * Phases of a boot (docs/design.md, 'Phases'): named intervals bounded by events.
 *
 *  kernel     0 -> the first exec by PID 1 (only when the recording holds it)
 *  initramfs  -> the switch to the real root: PID 1 exec'ing again after a
 *             program other than bootprof's own wrapper (switch_root,
 *             run-init and systemd's switch-root all exec the real init;
 *             the exec of switch_root, run-init or pivot_root itself is not
 *             the switch, nor a re-exec through /proc: busybox runs its
 *             switch_root applet as /proc/self/exe). bp_pid1_exec_kind()
 *             is the rule.
 *  userspace  the end of the last of those (or the first event) -> the stop
 *             (the recording's stop time, else its last event)
 *
 * User-defined phases (NAME=exec:PROG, file:PATH, service:UNIT) end at the
 * first exec of PROG (exec'd filename, or its base name; fnmatch), the
 * first event on a file whose path matches PATH (fnmatch), or the first
 * cgroup_attach_task into a cgroup whose last component is UNIT (or
 * UNIT.service). Each starts where the latest phase ending before it
 * ended, so the user phases split user space in sequence: an Ubuntu
 * budget's platform / X / desktop.
 *
 * The numbers of a phase are those of the model built over its window
 * (bp_window, clipped waits), so they are exact: I/O wait, bytes read
 * from storage, CPU idle while waiting, of all tasks or, in a recording
 * of a command, of the command's tree (bp_model.command_totals).
 */

enum bp_phase_kind {
	BP_PHASE_BUILTIN,  /* kernel, initramfs, userspace */
	BP_PHASE_EXEC,
	BP_PHASE_FILE,
	BP_PHASE_SERVICE,
};

/**
 * struct bp_phase_spec - a user-defined phase
 * @name: its name (letters, digits, '-', '_', '.'); owned
 * @kind: BP_PHASE_EXEC, BP_PHASE_FILE or BP_PHASE_SERVICE
 * @arg: program, path or unit (fnmatch pattern); owned
 */
struct bp_phase_spec {
	char *name;
	enum bp_phase_kind kind;
	char *arg;
};

/**
 * bp_phase_spec_parse() - parse "NAME=exec:PROG", "NAME=file:PATH" or
 *                         "NAME=service:UNIT"
 * @text: the text
 * @out: filled on success (release with bp_phase_spec_release())
 *
 * Return: 0, or -1 with bp_set_error() saying what is wrong.
 */
int bp_phase_spec_parse(const char *text, struct bp_phase_spec *out);
void bp_phase_spec_release(struct bp_phase_spec *s);

struct bp_option;

/*
 * The phases of a repeatable --phase NAME=END option of an option table
 * (util/parse-options.h): each use parses one more spec into @specs, an
 * array of @max entries of the caller's, who releases the first @n.
 *
 *	OPT_CALLBACK(0, "phase", &list, "NAME=END", "...", bp_phase_spec_opt)
 */
struct bp_phase_spec_list {
	struct bp_phase_spec *specs;
	size_t n;
	size_t max;
};

/* The option callback: a bad spec, or one too many, is a usage error. */
int bp_phase_spec_opt(const struct bp_option *opt, const char *arg);

/**
 * struct bp_phase - one phase of a recording
 * @name: owned
 * @kind: how it ends
 * @reached: 1 when its end event is in the recording; 0: not reached
 *           (no numbers; views say "not reached")
 * @start_ns: start on the recording clock
 * @end_ns: end on the recording clock
 * @wait_ns: I/O wait inside [@start_ns, @end_ns] of all tasks, or of the
 *           command's tree (bp_phases_compute())
 * @read_bytes: bytes read from storage inside it
 * @idle_wait_ns: CPU idle while some task waited on I/O, inside it
 */
struct bp_phase {
	char *name;
	enum bp_phase_kind kind;
	int reached;
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t wait_ns;
	uint64_t read_bytes;
	uint64_t idle_wait_ns;
};

struct bp_phase_finder;

struct tep_handle;

/**
 * bp_phase_finder_new() - watch a pass for phase boundaries
 * @tep: the event formats of the recording the pass reads
 *       (bp_reader_tep()); NULL: no event marks a boundary
 * @specs: user-defined phases (copied), or NULL
 * @nspecs: entries in @specs
 *
 * Run bp_phase_finder_event() on every event of the model's pass (as a
 * bp_build_hooks.event), then bp_phases_compute().
 * Return: a finder (free with bp_phase_finder_free()).
 */
struct bp_phase_finder *bp_phase_finder_new(struct tep_handle *tep,
					    const struct bp_phase_spec *specs, size_t nspecs);
void bp_phase_finder_event(void *finder, const struct bp_event *ev);
void bp_phase_finder_free(struct bp_phase_finder *f);

/**
 * bp_phases_compute() - the phases of a recording, with their numbers
 * @f: a finder that saw the whole pass
 * @session: the same recording (read again: one pass per phase), or NULL
 *           for the boundaries alone (the numbers stay 0)
 * @m: the model of the whole recording
 * @all: the numbers of every task; 0: in a recording of a command, those
 *       of the command's tree (bp_model.command_totals), else every task's
 * @out: set to a new array of phases by end time, the ones not reached last
 *       (free with bp_phases_free())
 *
 * Return: number of phases, or -1 with bp_set_error() when the recording
 * cannot be read again.
 */
struct bp_session;
long bp_phases_compute(struct bp_phase_finder *f, struct bp_session *session,
		       const struct bp_model *m, int all, struct bp_phase **out);
void bp_phases_free(struct bp_phase *v, size_t n);

/*
 * bp_phase_window() - the time window of one phase of the recording of
 * @session: a built-in phase by name (kernel, initramfs, userspace) or a
 * user-defined one, "NAME=exec:PROG" etc. Sets @w's since/until.
 * Return: 0, or -1 with bp_set_error() (no such phase, not reached, the
 * recording unreadable).
 */
int bp_phase_window(struct bp_session *session, const char *phase, struct bp_window *w);

/*
 * Does an exec'd @path match a phase's exec:PROG? The fnmatch pattern
 * matches the path or its file name.
 */
int bp_exec_matches(const char *pattern, const char *path);

/*
 * The file a phase's file:PATH ends at: of the regular files whose path
 * matches the fnmatch pattern, the one with the first event; NULL when none.
 */
const struct bp_file *bp_phase_first_file(const struct bp_model *m, const char *pattern);

/*
 * Does a cgroup path name UNIT? The whole path, its last component, or
 * that component without ".service" matches the fnmatch pattern.
 */
int bp_unit_matches(const char *pattern, const char *cgroup);

/*
 * What an exec by PID 1 is, judged by its path: the one rule behind the
 * phases above and the timelines' phase marks.
 */
enum bp_pid1_exec {
	BP_PID1_INIT,       /* an init: the real root's, or an initramfs's by another name */
	BP_PID1_INITRAMFS,  /* /init or /linuxrc: an initramfs's init */
	BP_PID1_SWITCH,     /* switch_root, run-init or pivot_root itself: the real root's
			     * init is the exec after it */
	BP_PID1_REEXEC,     /* a re-exec through /proc (/proc/self/exe): busybox running its
			     * switch_root applet, or bootprof's wrapper re-executing itself */
	BP_PID1_WRAPPER,    /* bootprof's own init wrapper, handing over to the real init */
};

/* Classify @path, the filename of an exec by PID 1 (sched_process_exec). */
enum bp_pid1_exec bp_pid1_exec_kind(const char *path);

/* One exec by PID 1, as a finder saw it. */
struct bp_pid1_exec_at {
	uint64_t ns;
	enum bp_pid1_exec kind;
	char *path;  /* owned by the finder */
};

/*
 * bp_phase_finder_pid1_execs() - PID 1's execs in the pass (the first 64),
 * oldest first: the timelines' phase marks. Set *@out; return the count.
 */
size_t bp_phase_finder_pid1_execs(const struct bp_phase_finder *f,
				  const struct bp_pid1_exec_at **out);

/* "kernel", "initramfs", "userspace", "exec", "file", "service" */
const char *bp_phase_kind_name(enum bp_phase_kind kind);

#endif
