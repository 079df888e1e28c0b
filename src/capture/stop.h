/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_STOP_H
#define BP_CAPTURE_STOP_H

#include <signal.h>
#include <sys/types.h>

struct bp_capture;
struct bp_exec_watch;

/*
 * When a recording stops: the one loop every recorder (record, collect,
 * the boot recorder) waits in. Unset conditions are ignored. The loop
 * sleeps in poll() on the child's pidfd and the exec watch, so it wakes
 * at once for those and for signals (handlers without SA_RESTART), and
 * otherwise only a few times a second: a recorder that wakes often fills
 * the trace with its own switches.
 */
struct bp_stop {
	const volatile sig_atomic_t *signal; /* nonzero: stop, "signal SIGINT" */
	struct bp_capture *capture;     /* a write error in the recording stops */
	double duration;                /* seconds from the call; 0: none */
	const char *until_file;         /* stop when it exists, or NULL */
	const char *root_prefix;        /* until_file is looked up under it, or NULL */
	struct bp_exec_watch *exec_watch; /* stop at an exec it watches, or NULL */
	const char *until_exec;         /* the watched program's name (for the reason) */
	struct bp_args *args;           /* marks the command lines of execs, or NULL */
	pid_t child;                    /* > 0: stop when it exits; it is reaped */
	int child_status;               /* out: its wait status, when child_reaped */
	int child_reaped;               /* out */
	void (*progress)(void *arg);    /* called about twice a second, or NULL */
	void *arg;
};

/*
 * Wait for the first condition of s. Returns the reason as a heap string
 * ("command exited", "duration", "exec of NAME", "file PATH appeared",
 * "signal SIGTERM", "write error"), or NULL with bp_set_error() when
 * watching itself failed.
 */
char *bp_stop_wait(struct bp_stop *s);

#endif
