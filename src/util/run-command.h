/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_RUN_COMMAND_H
#define BP_UTIL_RUN_COMMAND_H

#include <sys/types.h>

#include "util/signals.h"

/*
 * A command bootprof runs and watches (git's run-command: start, then
 * finish). It is forked early and held before exec until
 * bp_command_start(), so it inherits none of the descriptors opened in
 * between (a daemon it leaves behind then holds nothing of bootprof's)
 * and starts only once everything is ready. A close-on-exec pipe reports
 * a failed exec, so "no such command" is an error, not status 127.
 */
struct bp_command {
	char **argv;                 /* NULL-terminated; argv[0] is looked up in PATH */
	const struct bp_stop_signals *signals; /* handlers put back in the child, or NULL */
	pid_t pid;                   /* > 0 from bp_command_prepare() until reaped */
	int status;                  /* wait status once reaped */
	int reaped;
	int exec_errno;              /* why exec failed (after bp_command_start() == -1) */
	int go_fd;                   /* private */
	int err_fd;                  /* private */
};

/* Fork the command, held before exec. 0, or -1 with bp_set_error(). */
int bp_command_prepare(struct bp_command *cmd);

/* Let it exec. 0 once it runs; -1 with bp_set_error() when exec failed. */
int bp_command_start(struct bp_command *cmd);

/*
 * Take the status of a command that has exited (status as waitpid() gives
 * it), e.g. when a wait loop reaped it.
 */
void bp_command_reaped(struct bp_command *cmd, int status);

/*
 * End the command: one never started exits without exec; one still running
 * gets SIGTERM and, after grace_ms, SIGKILL (as perf record does); then
 * it is reaped. Harmless to call twice.
 */
void bp_command_finish(struct bp_command *cmd, int grace_ms);

/*
 * The exit status a wrapper returns for it, as time(1) and the shell do:
 * its exit code, or 128 + N when signal N ended it.
 */
int bp_command_exit_code(const struct bp_command *cmd);

/*
 * Run argv to its end, its stdin /dev/null. With out, its stdout is read
 * into out (NUL-terminated, cut to size, trailing newlines dropped);
 * without, it shares bootprof's. Its stderr is bootprof's. Return: its
 * exit code as bp_command_exit_code() gives it, or -1 with bp_set_error()
 * when it could not be run.
 */
int bp_command_run(const char *const *argv, char *out, size_t size);

#endif
