/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_INTERNAL_H
#define BP_CAPTURE_INTERNAL_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

#include <tracefs.h>

#include "capture/capture.h"

/*
 * What the parts of the live recorder share: the instance and its event
 * list (instance.c), the per-CPU threads (recorder.c), the exec watch
 * (exec-watch.c).
 */

struct recorded_event {
	char *system;
	char *event;
	int filter;   /* BP_FILTER_* */
};

struct cpu_recorder {
	struct bp_capture *capture;
	int cpu;
	int raw_fd;              /* per_cpu/cpuN/trace_pipe_raw, non-blocking */
	struct tracefs_cpu *tcpu;
	int out_fd;              /* borrowed from the writer */
	int flush_fd;            /* eventfd: write out the partly filled page now */
	int pipe_fd[2];          /* the splice pipe: ring-buffer pages -> recording */
	size_t pipe_size;        /* bytes it holds: how much one splice moves at most */
	pthread_t thread;
	int running;
	pid_t tid;
	_Atomic uint64_t bytes;
};

struct bp_capture {
	struct tracefs_instance *instance;
	int ncpus;
	struct recorded_event *events;
	size_t nevents, cap_events;
	char **unavailable;
	size_t nunavailable, cap_unavailable;
	char *warnings;
	struct cpu_recorder *cpus;
	int stop_fd;             /* eventfd: the threads stop and drain when readable */
	sem_t ready;             /* each thread posts once it knows its tid */
	sem_t flushed;           /* each thread posts once it has flushed */
	_Atomic int write_error;
	const char *clock;       /* the trace clock in use (static, or clock_owned) */
	char *clock_owned;       /* attached: the clock the kernel's instance uses */
	int attached;            /* an instance made by someone else (the kernel at boot) */
	int keep;                /* attached: leave it tracing at free */
	int lock_fd;             /* flock held on the instance's lock file, or -1 */
	char *lock_name;         /* the instance that lock is for */
};

/* instance.c */

/* Write @val into the instance's @file. 0, or -1 with bp_set_error(). */
int bp_instance_write(struct tracefs_instance *inst, const char *file, const char *val);
/* Stop, remove and free an instance we created (retrying while the kernel says EBUSY). */
void bp_instance_remove(struct tracefs_instance *inst);
/*
 * Take the lock of instance @name and remove what a dead owner left of it.
 * Returns the lock's descriptor, -2 (bp_set_error) when a live recorder
 * holds it, -1 when there is no lock to take; warnings go to @c (or
 * nowhere when NULL).
 */
int bp_instance_own(struct bp_capture *c, const char *name);
/* Release the lock bp_instance_own() took: unlink its file, close @fd. */
void bp_instance_unlock(const char *instance, int fd);
/*
 * Set the events' filters (BP_FILTER_*): raw_syscalls to the syscall ids of
 * bp_syscalls[], lock:contention_begin to a sleeping rwsem's waits. 0 or -1.
 */
int bp_capture_set_filters(struct bp_capture *c);

/* recorder.c */

/* This thread's id as /proc counts it (the first NSpid), not its namespace's. */
pid_t bp_outer_tid(void);

#endif
