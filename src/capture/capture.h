/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_CAPTURE_H
#define BP_CAPTURE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracefile/meta.h"
#include "tracefile/tracefile.h"

/*
 * Live capture through a private tracefs instance (docs/design.md, 'What is recorded'). This is the
 * only code that includes <tracefs.h>. The instance is named by
 * bp_capture_instance_name(); bp_capture_free() removes it on every path.
 */

/* One requested tracepoint. */
struct bp_event_spec {
	const char *system;
	const char *event;
	const char *fallback; /* another event of the same system, or NULL */
	int syscall_filter;   /* restrict to bp_syscalls[] ids */
	const char *feature;  /* a file the kernel has when it has what the
				 event traces (/proc/modules), or NULL; without
				 it the event is neither recorded nor missed */
};

/* The default event set (docs/design.md, 'What is recorded'), terminated by { NULL }. */
extern const struct bp_event_spec bp_default_events[];

/* I/O-relevant syscalls recorded by raw_syscalls:sys_enter/sys_exit. */
struct bp_syscall {
	const char *name;
	int id;
};
extern const struct bp_syscall bp_syscalls[];
extern const size_t bp_nsyscalls;
/* The name of syscall id in bp_syscalls[] (this machine's numbers), or NULL. */
const char *bp_syscall_name(long id);

/*
 * Make sure tracefs is mounted (mounting it at /sys/kernel/tracing when it
 * is not). *mounted is set to 1 when this call mounted it. 0 or -1.
 */
int bp_tracefs_ready(int *mounted);

/* Number of per-CPU ring buffers (per_cpu/cpuN directories) and their page size. */
int bp_tracefs_ncpus(void);
int bp_tracefs_page_size(void);

/*
 * The name of this process's own instance: "bootprof-<pid>", or outside
 * the initial PID namespace "bootprof-<pid>-ns<namespace inode>" (a pid
 * alone is not unique on the machine). The recorder proves it alive by a
 * flock on /run/bootprof/<name>.lock held as long as the instance exists;
 * only an instance whose lock is free is ever removed by another recorder.
 */
void bp_capture_instance_name(char *buf, size_t size);

struct bp_capture_config {
	const char *name;       /* instance name, e.g. bootprof-1234 */
	char **events;          /* "system:event" list, or NULL for the defaults */
	size_t nevents;
	size_t buffer_kb;       /* per CPU */
	int buffer_percent;     /* when readers wake (0..100) */
	const char *clock;      /* "boot" */
};

struct bp_capture;

/*
 * Create and configure the instance and resolve the event list. A default
 * event this kernel lacks is recorded as unavailable and reported with
 * bp_capture_warnings(); an explicitly requested one fails. Returns NULL
 * with bp_set_error() and leaves no instance behind.
 */
struct bp_capture *bp_capture_new(const struct bp_capture_config *cfg);

/*
 * Attach to a buffer someone else set up, with the events it has enabled:
 * the instance name the kernel created from trace_instance= at boot, or
 * NULL for the top-level buffer (trace_event=). Nothing is created. At
 * bp_capture_free() the instance is removed (the top-level buffer's events
 * disabled), or with keep left tracing as it was. Default events this
 * kernel lacks are listed as unavailable. NULL with bp_set_error().
 */
struct bp_capture *bp_capture_attach(const char *name, int keep);

/* An attached buffer is left tracing at free (after a failure: keep the boot data). */
void bp_capture_keep(struct bp_capture *c);


/*
 * Start one recorder thread per CPU splicing into bp_writer_cpu_fd(w, cpu),
 * enable the events and turn tracing on. Nothing is filtered by task: the
 * recorder's own events are recorded, and its tids listed in the
 * metadata (bp_capture_fill_meta()). 0 or -1 (bp_set_error()).
 */
int bp_capture_start(struct bp_capture *c, struct bp_writer *w);

/*
 * Turn tracing off, wake the threads, drain every CPU completely and join
 * them. Returns 0, or -1 when a write failed during the run or the drain
 * (see bp_capture_write_error()).
 */
int bp_capture_stop(struct bp_capture *c);

/*
 * While tracing: make every recorder thread write out its full pages and
 * its partly filled page now, and wait (at most 2 s) until they have, so
 * the recording holds every event up to this call (for readers of a
 * recording that is still growing, e.g. top --live). 0 or -1.
 */
int bp_capture_flush(struct bp_capture *c);

/* errno of the first failed write into the recording (ENOSPC ...), or 0. */
int bp_capture_write_error(const struct bp_capture *c);

/* Bytes spliced into the recording so far (all CPUs). */
uint64_t bp_capture_bytes(const struct bp_capture *c);

/* 1 when system:event is among the events recorded, else 0. */
int bp_capture_has_event(const struct bp_capture *c, const char *system, const char *event);

/*
 * Events so far (entries + read over all CPUs) and lost ones (overrun +
 * dropped). Reads per_cpu/cpuN/stats. 0 or -1.
 */
int bp_capture_counts(struct bp_capture *c, uint64_t *events, uint64_t *lost);

/*
 * Fill meta->cpu_stats, meta->events/unavailable, and add the recorder's
 * own tasks (the calling thread's process and the per-CPU threads) to
 * meta->tasks with BP_TASK_RECORDER. Call from the thread that started
 * the capture. 0 or -1.
 */
int bp_capture_fill_meta(struct bp_capture *c, struct bp_meta *meta);

/*
 * Copy the tracefs texts the raw pages need: header_page, header_event,
 * the format of every recorded event and of the ftrace system,
 * printk_formats, saved_cmdlines, saved_tgids. kallsyms is left NULL.
 * Release with bp_trace_headers_release(). 0 or -1.
 */
int bp_capture_headers(struct bp_capture *c, struct bp_trace_headers *h);

/* The trace clock in use: the configured one, or a fallback (warned about). */
const char *bp_capture_clock(const struct bp_capture *c);

/* The buffer's trace_marker, opened for writing; -1 with bp_set_error(). */
int bp_capture_marker_open(struct bp_capture *c);

/*
 * Warnings gathered while configuring (missing events), one per line, or
 * NULL. Owned by c.
 */
const char *bp_capture_warnings(const struct bp_capture *c);

/* Disable everything and remove the instance. NULL is a no-op. */
void bp_capture_free(struct bp_capture *c);

/*
 * Watch for an exec of a program named name (basename of the executed
 * path) with a second tiny instance ("<instance>-exec") holding only
 * sched:sched_process_exec filtered in the kernel, so short-lived
 * processes are never missed and nothing polls /proc.
 */
struct bp_exec_watch;
struct bp_exec_watch *bp_exec_watch_new(const char *instance, const char *name);
/* 1 when such an exec happened since the last call, 0 not yet, -1 error. */
int bp_exec_watch_seen(struct bp_exec_watch *x);
/* A descriptor poll() finds readable once such an exec happened. */
int bp_exec_watch_fd(const struct bp_exec_watch *x);
/* Remove the instance. NULL is a no-op. */
void bp_exec_watch_free(struct bp_exec_watch *x);
/* A watch on every exec ("<instance>-args"). NULL with bp_set_error(). */
struct bp_exec_watch *bp_exec_watch_all(const char *instance);
/* Call fn for the pid of each exec watched since the last call. 0, or -1 (bp_set_error()). */
int bp_exec_watch_pids(struct bp_exec_watch *x, void (*fn)(int pid, void *arg), void *arg);

/*
 * Command lines: the kernel's events name the program exec'd, never its
 * arguments. For each process alive as the recording starts, and for each
 * exec while it runs (an exec watch), its /proc/PID/cmdline is written into
 * the recording's own buffer as a marker (ftrace:print):
 *
 *   bootprof-args PID ARG0 ARG1 ...
 *
 * with each argument an escaped word (util/words.h), at most
 * BP_ARGS_MARK_MAX bytes a line (cut after a whole word), each line ended
 * by a newline, one or more lines to a marker. A process that exits
 * before its /proc entry is read gets no line. NULL with
 * bp_set_error() when the buffer's trace_marker cannot be opened.
 */
#define BP_ARGS_MARK_MAX 1000
struct bp_args;
struct bp_args *bp_args_new(struct bp_capture *c, const char *watch_instance);
/*
 * Read the command line of every process alive now; they are written at
 * the next bp_args_drain(), many to a marker. Called before tracing
 * starts, the reads are not recorded; so that a line written after an
 * exec that followed its read is known stale, it says when it was read
 * on the trace clock, @now_ns (0: that clock cannot be read here):
 *
 *   bootprof-args-at NS PID ARG0 ARG1 ...
 */
void bp_args_snapshot(struct bp_args *a, uint64_t now_ns);
/* A descriptor poll() finds readable once a process exec'd. */
int bp_args_fd(const struct bp_args *a);
/* Mark the processes that exec'd since the last call. 0, or -1 (bp_set_error()). */
int bp_args_drain(struct bp_args *a);
/* Remove the watch (bp_args_drain() first to mark what is left). NULL is a no-op. */
void bp_args_free(struct bp_args *a);

#endif
