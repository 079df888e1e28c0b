// SPDX-License-Identifier: GPL-2.0
/* The stop-condition loop of every recorder (see stop.h). */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/stop.h"
#include "util/error.h"
#include "util/signals.h"
#include "util/xalloc.h"

/*
 * Polled conditions (a file appearing) are looked at this often. Each look
 * wakes the recorder: at boot under emulation about 0.3 ms of CPU, so 20
 * looks a second were a quarter of its whole cost over a boot.
 */
#define FILE_POLL_MS 200
/* With nothing to poll, how often write errors and progress are looked at. */
#define IDLE_MS 500

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int file_exists(const struct bp_stop *s)
{
	struct stat st;
	char *path;
	int ret;

	if (!s->root_prefix)
		return stat(s->until_file, &st) == 0;
	path = xasprintf("%s/%s", s->root_prefix, s->until_file);
	ret = stat(path, &st) == 0;
	free(path);
	return ret;
}

/* A descriptor readable once the child has exited, or -1 (then it is polled). */
static int child_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

char *bp_stop_wait(struct bp_stop *s)
{
	uint64_t start = mono_ms(), last_progress = start;
	struct bp_args *args = s->args;
	struct pollfd p[3];
	int np = 0, pidfd = -1, timeout;
	char *reason = NULL;

	if (s->child > 0) {
		pidfd = child_fd(s->child);
		if (pidfd >= 0) {
			p[np].fd = pidfd;
			p[np++].events = POLLIN;
		}
	}
	if (s->exec_watch) {
		p[np].fd = bp_exec_watch_fd(s->exec_watch);
		p[np++].events = POLLIN;
	}
	if (args) {
		p[np].fd = bp_args_fd(args);
		p[np++].events = POLLIN;
	}
	for (;;) {
		uint64_t now = mono_ms();

		/*
		 * A command line is read while the process still runs it: first.
		 * Without them the recording is still whole: a failing watch is
		 * only no longer polled (it is the last descriptor).
		 */
		if (args && bp_args_drain(args) < 0) {
			bp_warn("no more command lines: %s", bp_last_error());
			args = NULL;
			np--;
		}
		if (s->signal && *s->signal) {
			reason = xasprintf("signal %s", bp_signal_name(*s->signal));
			break;
		}
		if (s->capture && bp_capture_write_error(s->capture)) {
			reason = xstrdup("write error");
			break;
		}
		if (s->child > 0 &&
		    waitpid(s->child, &s->child_status, WNOHANG) == s->child) {
			s->child = 0;
			s->child_reaped = 1;
			reason = xstrdup("command exited");
			break;
		}
		if (s->duration > 0 && (double)(now - start) >= s->duration * 1000.0) {
			reason = xstrdup("duration");
			break;
		}
		if (s->until_file && file_exists(s)) {
			reason = xasprintf("file %s appeared", s->until_file);
			break;
		}
		if (s->exec_watch) {
			int seen = bp_exec_watch_seen(s->exec_watch);

			if (seen < 0)
				break;
			if (seen) {
				reason = xasprintf("exec of %s", s->until_exec ? s->until_exec : "");
				break;
			}
		}
		if (s->progress && now - last_progress >= IDLE_MS) {
			s->progress(s->arg);
			last_progress = now;
		}
		timeout = IDLE_MS;
		if (s->until_file || (s->child > 0 && pidfd < 0))
			timeout = FILE_POLL_MS;
		if (s->duration > 0) {
			double left = s->duration * 1000.0 - (double)(mono_ms() - start);

			if (left < timeout)
				timeout = left > 0 ? (int)left + 1 : 0;
		}
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			bp_set_error_errno("poll");
			break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return reason;
}
