/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_CRITICAL_H
#define BP_ANALYSIS_CRITICAL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model.h"

/*
 * The critical path: what delayed an end point (a process's exit, an
 * exec, the recording's stop), as a chain of segments walked backwards
 * from it through wakeups.
 *
 * From the end task at the end time, going back in time: while the task
 * ran, CPU; while it was runnable, run-queue; while it slept, whatever
 * ended the sleep. A D-sleep the I/O-wait rule counts as I/O wait is an
 * I/O segment, with the request whose completion woke it (when known)
 * and the file the sleeper waited on. Any other sleep another task ended
 * in process context is not a segment: the walk goes on from the waker
 * at the waking (the sleep is kept as a wait handed over, see struct
 * bp_crit_wait). A timer or another interrupt that ended a sleep makes
 * an interrupt segment (other D-sleep for an uninterruptible one); when
 * that sleep is a waker's and began before the sleeper it woke fell
 * asleep, it is cut there and the walk goes on with the sleeper (what
 * the waker did before was not for it: a daemon's polling loop). A
 * task's start goes on from its parent at the fork, through the parent's
 * own time (no task it woke for) back to the exit of its last child
 * process before that fork, then from that child: a service manager
 * starts a unit when the one it is ordered after has ended, a shell its
 * next command when the last has (when the parent had no child end
 * before, the walk goes on with the parent as usual; kthreadd and the
 * kernel threads it made fork on request and are told of no exit). The
 * walk stops at the recording's first event. The segments tile [start, end] exactly:
 * no gap, no overlap.
 *
 * Who woke a task comes from sched_waking only (traced in the waker's
 * context); a recording without it names no waker, and its sleeps are
 * unknown (or other D-sleep, or I/O as the I/O-wait rule says).
 *
 * Building: the model's pass records what the walk needs when
 * bp_build_hooks.critical points to a log (bp_critical_log_new()): per
 * task, every interval off a CPU (switched out, made runnable, switched
 * in, and by whom), forks, exits and execs; per I/O wakeup the request.
 * Memory grows with tasks and their waits, not with the other events.
 */

struct bp_critical_log;

/* bp_critical_log_new() - an empty log for bp_build_hooks.critical; free with bp_critical_log_free(). */
struct bp_critical_log *bp_critical_log_new(void);
/* bp_critical_log_free() - free a log; NULL is a no-op. */
void bp_critical_log_free(struct bp_critical_log *log);

/* What a segment of the path is. */
enum bp_crit_state {
	BP_CRIT_CPU,          /* the task ran */
	BP_CRIT_RUNQ,         /* runnable, waiting for a CPU */
	BP_CRIT_IO,           /* asleep until a block completion ended it */
	BP_CRIT_INTERRUPT,    /* asleep (interruptible) until a timer or another interrupt */
	BP_CRIT_OTHER_DSLEEP, /* uninterruptible, not I/O wait, not ended by a task it can follow */
	/*
	 * Asleep until another task woke it, but the walk cannot go on from
	 * the waker: the end point fell inside the sleep, or it is the
	 * parent's own time between a child's exit and the fork that
	 * waited for it
	 */
	BP_CRIT_TASK_WAIT,
	BP_CRIT_UNKNOWN,      /* the recording does not say (see bp_crit_segment.reason) */
	BP_CRIT_NSTATES
};

/* Short lowercase name of a state ("cpu", "runq", "io", "interrupt", "other-dsleep", "task", "unknown"). */
const char *bp_crit_state_name(enum bp_crit_state s);
/* Its title in text ("CPU", "run-queue", "I/O", ...). */
const char *bp_crit_state_title(enum bp_crit_state s);

/**
 * struct bp_crit_task - a task as the path names it
 * @tid: thread id
 * @pid: its process (tgid), @tid when the model does not know it (the
 *       recorder's own threads)
 * @comm: its last comm
 */
struct bp_crit_task {
	int tid;
	int pid;
	char comm[16];
};

/* The files a request's bios carried that the path names (more are counted). */
#define BP_CRIT_RQ_FILES 4

/**
 * struct bp_crit_rq_file - a file whose pages a request carried
 * @dev: device (kernel encoding)
 * @ino: inode
 * @path: its path (owned by the path)
 */
struct bp_crit_rq_file {
	uint32_t dev;
	uint64_t ino;
	char *path;
};

/**
 * struct bp_crit_request - the block request whose completion ended an I/O sleep
 * @dev: its device (kernel encoding): the one that issued and completed it
 * @sector: first sector
 * @sectors: 512-byte sectors
 * @issue_ns: block_rq_issue, 0 when issued before the recording
 * @done_ns: block_rq_complete
 * @issuer: the task that queued its bio (block_bio_queue), on the upper
 *          device when it was remapped; else the one in whose context it
 *          was issued; tid 0 when neither is known (an interrupt)
 * @upper_dev: the device the file system asked, when its first bio was
 *             remapped (block_bio_remap: a partition, device-mapper, md);
 *             through several layers, the top one; 0 when not remapped
 * @upper_sector: the sector there of the request's first sector
 * @nfiles: how many files the pages of its bios were of (the bio's file
 *          is the run of pages its queuer inserted and reads, as the
 *          byte accounting settles it); 2 or more: it spans files
 * @files: the first min(@nfiles, BP_CRIT_RQ_FILES), in sector order
 */
struct bp_crit_request {
	uint32_t dev;
	uint64_t sector;
	uint32_t sectors;
	uint64_t issue_ns;
	uint64_t done_ns;
	struct bp_crit_task issuer;
	uint32_t upper_dev;
	uint64_t upper_sector;
	size_t nfiles;
	struct bp_crit_rq_file files[BP_CRIT_RQ_FILES];
};

/* Why a segment is unknown, or what ended an interrupt or other D-sleep segment. */
enum bp_crit_reason {
	BP_CRIT_WHY_NONE,
	BP_CRIT_WHY_NOT_SEEN,   /* before the recording shows the task's state */
	BP_CRIT_WHY_NO_WAKER,   /* woken, but no sched_waking names by whom */
	BP_CRIT_WHY_AT_END,     /* still asleep at the end point, not woken yet */
	BP_CRIT_WHY_HARDIRQ,    /* ended by a hard interrupt (a timer, a device) */
	BP_CRIT_WHY_SOFTIRQ,    /* ended by a softirq (timers, network) */
	BP_CRIT_WHY_IDLE,       /* ended by the idle task (an IPI on an idle CPU) */
	BP_CRIT_WHY_LOOP,       /* the recording's wakeups go round in a circle (lost events) */
	BP_CRIT_WHY_KERNEL,     /* before the kernel (pid 0) forked the task: no task ran it */
};

/**
 * struct bp_crit_segment - one segment of the path
 * @start_ns: start (recording clock)
 * @end_ns: end; the next segment starts here
 * @task: the task it is on
 * @state: what the task was doing
 * @reason: for BP_CRIT_UNKNOWN, BP_CRIT_INTERRUPT and BP_CRIT_OTHER_DSLEEP
 * @uninterruptible: for the sleeping states: a D-sleep (else S)
 * @dev: BP_CRIT_IO: the file the sleeper waited on as I/O wait charges it
 *       (kernel encoding); 0 with @ino 0 when none
 * @ino: its inode
 * @path: its path (owned by the path), NULL when none
 * @has_request: BP_CRIT_IO: @request is known
 * @request: the request whose completion woke it
 * @waker: BP_CRIT_TASK_WAIT: the task that woke it later
 */
struct bp_crit_segment {
	uint64_t start_ns;
	uint64_t end_ns;
	struct bp_crit_task task;
	enum bp_crit_state state;
	enum bp_crit_reason reason;
	int uninterruptible;
	uint32_t dev;
	uint64_t ino;
	char *path;
	int has_request;
	struct bp_crit_request request;
	struct bp_crit_task waker;
};

/**
 * struct bp_crit_wait - a sleep the walk went around: another task ended it
 * @sleeper: the task that slept
 * @waker: the task that woke it; the path goes on from it
 * @start_ns: the sleep's start (0: before the recording), or where its
 *	hold-up ended (@via of the wait before it)
 * @end_ns: the waking, or where its hold-up ended (@via)
 * @uninterruptible: a D-sleep (else S)
 * @via: BP_CRIT_VIA_WAKING; or the part of a sleep up to where its
 *	hold-up ended, before another task woke it (the wait after it):
 *	BP_CRIT_VIA_REQUEUE, @waker's futex requeue moved it to the futex
 *	the other task woke; BP_CRIT_VIA_RWSEM, a reader queued on an
 *	rwsem, @waker's waking of the queued readers let readers have it
 *	(the other task: a reader, which never holds up readers)
 *
 * Its time is covered by the waker's segments: never added to a total.
 */
struct bp_crit_wait {
	struct bp_crit_task sleeper;
	struct bp_crit_task waker;
	uint64_t start_ns;
	uint64_t end_ns;
	int uninterruptible;
	int via;
};

enum { BP_CRIT_VIA_WAKING, BP_CRIT_VIA_REQUEUE, BP_CRIT_VIA_RWSEM };

/**
 * struct bp_crit_file - I/O time on the path charged to one file
 * @dev: device (kernel encoding), 0 with @ino 0: no file known
 * @ino: inode
 * @path: path (owned by the path), NULL for no file
 * @io_ns: Σ of its I/O segments
 * @segments: how many
 */
struct bp_crit_file {
	uint32_t dev;
	uint64_t ino;
	char *path;
	uint64_t io_ns;
	size_t segments;
};

/* What the path ends at. */
enum bp_crit_end_kind {
	BP_CRIT_END_DEFAULT,  /* see bp_critical_walk() */
	BP_CRIT_END_EXIT,     /* pid:N: process N's exit */
	BP_CRIT_END_EXEC,     /* exec:PROG: the first exec of PROG */
	BP_CRIT_END_FILE,     /* file:PATH: the first event on a file PATH matches */
	BP_CRIT_END_SERVICE,  /* service:UNIT: its main process's exit, else its exec */
};

/**
 * struct bp_crit_mark - the boot's end as something outside the analysis
 *                       tells it (a plugin's mark: Android's boot completed)
 * @ns: when (recording clock)
 * @pid: the task whose event it is (wrote the line, exited)
 * @name: what it is ("boot completed"), borrowed
 * @by: who told it (a plugin's name), borrowed
 */
struct bp_crit_mark {
	uint64_t ns;
	int pid;
	const char *name;
	const char *by;
};

/**
 * struct bp_crit_end_source - the boot's ends told from outside the
 *                             analysis, for a pass that walks the path
 * @open: join the pass over session @s (its hooks into *@hooks); a state
 *        for @ends and @release, or NULL (no ends)
 * @ends: from the pass's finished model: *@out a new array (free()) of
 *        the ends, valid until @release; their number
 * @release: free the state
 *
 * The plugins' END marks (bp_plugin_end_source, src/builtin.c): the
 * analysis never sees the plugin host.
 */
struct bp_session;
struct bp_crit_end_source {
	void *(*open)(struct bp_session *s, struct bp_build_hooks *hooks);
	size_t (*ends)(void *state, const struct bp_model *m, struct bp_crit_mark **out);
	void (*release)(void *state);
};

/**
 * struct bp_crit_end - an end point, as --to names it
 * @kind: which
 * @pid: BP_CRIT_END_EXIT: the process
 * @prog: BP_CRIT_END_EXEC, _FILE, _SERVICE: the fnmatch pattern of the
 *        user phases (analysis/phases.h): a program's path or file name,
 *        a file's path, a unit (borrowed)
 * @marks: BP_CRIT_END_DEFAULT: the boot's ends told from outside, any
 *         order, @nmarks of them (borrowed; NULL: none)
 */
struct bp_crit_end {
	enum bp_crit_end_kind kind;
	int pid;
	const char *prog;
	const struct bp_crit_mark *marks;
	size_t nmarks;
};

/**
 * bp_crit_end_parse() - an end point from "pid:N", or the end of a user
 *                       phase: "exec:PROG", "file:PATH", "service:UNIT"
 * @spec: the text
 * @end: filled (@end->prog points into @spec)
 *
 * Return: 0, or -1 with bp_set_error().
 */
int bp_crit_end_parse(const char *spec, struct bp_crit_end *end);

/*
 * A pass that walks to an end point with a source of ends:
 *
 *   struct bp_crit_ends e;
 *   n += bp_crit_ends_begin(&e, src, to, session, &hooks[n]);   0 or 1 hook
 *   m = bp_session_build(session, window, hooks, n);
 *   path = bp_critical_walk(log, m, bp_crit_ends_end(&e, m));
 *   bp_crit_ends_release(&e);
 *
 * The source joins only a pass to the default end (--to names its own);
 * @src NULL: the end is @to as it is.
 */
struct bp_crit_ends {
	const struct bp_crit_end_source *src;
	void *state;
	struct bp_crit_mark *marks;
	struct bp_crit_end end;
};
int bp_crit_ends_begin(struct bp_crit_ends *e, const struct bp_crit_end_source *src,
		       const struct bp_crit_end *to, struct bp_session *s,
		       struct bp_build_hooks *hook);
const struct bp_crit_end *bp_crit_ends_end(struct bp_crit_ends *e, const struct bp_model *m);
void bp_crit_ends_release(struct bp_crit_ends *e);

/*
 * bp_crit_end_spec() - an end point as --to writes it ("pid:N",
 * "exec:PROG" ...), "default" for BP_CRIT_END_DEFAULT. Free the result.
 */
char *bp_crit_end_spec(const struct bp_crit_end *end);

/**
 * struct bp_critical_path - the walk's result
 * @end_task: the task the path ends on
 * @end_what: what the end is ("exit", "exec", "file", "mark", "last-run")
 * @end_on: the file a "file" end is the first event on, the cgroup of
 *          the unit a service:UNIT end is of, the name of a "mark" end
 *          ("boot completed"); NULL otherwise (owned)
 * @end_why: why this end: "--to", "the recorded command", "the
 *           recording's stop condition", "a plugin's mark", "PID 1's
 *           last run", "the last task to run" (static storage)
 * @end_by: a "mark" end: who told it (the plugin's name); NULL otherwise (owned)
 * @start_ns: the recording's first event
 * @end_ns: the end point
 * @segments: in time order, tiling [@start_ns, @end_ns]
 * @nsegments: entries
 * @waits: sleeps handed over to their wakers, in time order of the waking
 * @nwaits: entries
 * @state_ns: Σ of the segments' lengths per state; sums to @end_ns - @start_ns
 * @files: I/O time by file, most first (then path, dev, ino); the I/O
 *         with no file known last
 * @nfiles: entries
 * @pack_files: files with a known path among @files
 * @pack_ns: Σ of their I/O on the path: how much earlier the end comes,
 *           about, with all of them in the page cache at the start (the
 *           segments do not overlap; an estimate, not a bound: the
 *           other readers share the disk, and another chain may then
 *           be the longest)
 * @wakers_known: the recording has sched_waking (who woke whom)
 */
struct bp_critical_path {
	struct bp_crit_task end_task;
	const char *end_what;
	char *end_on;
	const char *end_why;
	char *end_by;
	uint64_t start_ns;
	uint64_t end_ns;
	struct bp_crit_segment *segments;
	size_t nsegments;
	struct bp_crit_wait *waits;
	size_t nwaits;
	uint64_t state_ns[BP_CRIT_NSTATES];
	struct bp_crit_file *files;
	size_t nfiles;
	size_t pack_files;
	uint64_t pack_ns;
	int wakers_known;
};

/**
 * bp_critical_walk() - the critical path of a recording to an end point
 * @log: what the model's pass recorded (bp_build_hooks.critical)
 * @m: the model of that pass (paths of files, processes of tasks)
 * @end: the end point; BP_CRIT_END_DEFAULT: for a `record -- CMD`
 *       recording the command's exit; else, when the recording stopped
 *       at the exec of a program, that exec; else the latest of
 *       @end->marks whose task is in the recording (a boot's end a
 *       plugin told: Android's boot completed); else, when it stopped
 *       by its duration or a signal, none (refused: the path to an
 *       arbitrary instant means nothing); else the last moment PID 1
 *       ran; else the last moment any task (but the recorder) ran
 *
 * Return: a new path (free with bp_critical_path_free()), or NULL with
 * bp_set_error() when the end point is not in the recording.
 */
struct bp_critical_path *bp_critical_walk(const struct bp_critical_log *log,
					  const struct bp_model *m, const struct bp_crit_end *end);

/**
 * bp_critical_path_of() - bp_critical_walk() with the refusals every
 *                         command that walks a path gives, in one wording
 * @log, @m: a recording's pass, as bp_critical_walk() takes them
 * @end: the end point
 * @file: the recording's name, for the message
 *
 * Return: a new path, or NULL with bp_set_error() ("'FILE' has no
 * sched_switch events: no path to walk", "'FILE': why the end point is
 * not in it").
 */
struct bp_critical_path *bp_critical_path_of(const struct bp_critical_log *log,
					     const struct bp_model *m, const struct bp_crit_end *end,
					     const char *file);

/* bp_critical_path_free() - free a path; NULL is a no-op. */
void bp_critical_path_free(struct bp_critical_path *p);

#endif
