/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_ERROR_H
#define BP_UTIL_ERROR_H

/*
 * Library layers never print: they record why they failed with
 * bp_set_error() and return -1 or NULL. Only cmd-*.c prints, with
 * bp_error() ("bootprof: <message>") and returns an exit status.
 */

#define BP_EXIT_FAILURE 1
#define BP_EXIT_USAGE 2

/* Record the reason for the current failure (thread-local, overwrites). */
void bp_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like bp_set_error(), appending ": strerror(errno)". Preserves errno. */
void bp_set_error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last recorded reason; "unknown error" when none. Never NULL. */
const char *bp_last_error(void);

/* Print "bootprof: <msg>" to stderr; return BP_EXIT_FAILURE. */
int bp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "bootprof: <last error>"; return BP_EXIT_FAILURE. */
int bp_error_last(void);
/* Print "bootprof: warning: <msg>" to stderr. */
void bp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "bootprof: <msg>" and a hint; return BP_EXIT_USAGE. */
int bp_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Flush stdout and report a write error (full disk, closed pipe) as failure. */
int bp_finish_stdout(int status);

#endif
