// SPDX-License-Identifier: GPL-2.0
/*
 * Command lines into the recording (see capture.h, bp_args_new()): the
 * argument markers, from /proc at the start and at each exec.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "util/error.h"
#include "util/words.h"
#include "util/xalloc.h"

/* Bytes of marker lines per write(): one ftrace:print event each. */
#define MARKER_WRITE 4000

struct bp_args {
	struct bp_exec_watch *watch;
	int marker_fd;
	int self;
	char *pending;            /* marker lines not written yet */
	size_t npending, cpending;
};

/* Read /proc/PID/cmdline into buf (NUL-separated); its length, 0 when none. */
static size_t read_cmdline(int pid, char *buf, size_t len)
{
	char path[64];
	size_t n = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (n < len && (r = read(fd, buf + n, len - n)) > 0)
		n += (size_t)r;
	close(fd);
	return n;
}

/* Queue the marker line of pid (see capture.h) for the next flush. */
static void mark_at(struct bp_args *a, int pid, uint64_t read_ns)
{
	char cmdline[BP_ARGS_MARK_MAX];
	size_t n, at, len;

	/* Kernel threads and zombies have none; bootprof's own are no one's. */
	if (pid == a->self)
		return;
	n = read_cmdline(pid, cmdline, sizeof(cmdline) - 1);
	if (!n)
		return;
	cmdline[n] = 0;
	if (a->npending + BP_ARGS_MARK_MAX + 2 > a->cpending) {
		a->cpending = a->cpending * 2 + 2 * BP_ARGS_MARK_MAX;
		a->pending = xrealloc(a->pending, a->cpending);
	}
	len = a->npending;
	if (read_ns)
		len += (size_t)sprintf(a->pending + len, "bootprof-args-at %llu %d",
				       (unsigned long long)read_ns, pid);
	else
		len += (size_t)sprintf(a->pending + len, "bootprof-args %d", pid);
	for (at = 0; at < n; at += strlen(cmdline + at) + 1) {
		size_t room = BP_WORD_MAX(strlen(cmdline + at));
		char *w = xmalloc(room);
		size_t wl = bp_word_escape(w, room, cmdline + at);

		if (len - a->npending + 1 + wl > BP_ARGS_MARK_MAX) {
			free(w);
			break;
		}
		a->pending[len++] = ' ';
		memcpy(a->pending + len, w, wl);
		len += wl;
		free(w);
	}
	a->pending[len++] = '\n';
	a->npending = len;
}

static void mark(int pid, void *arg)
{
	mark_at(arg, pid, 0);
}

/*
 * Write the queued lines, whole lines at most MARKER_WRITE bytes a write:
 * a kernel that takes less (older ones cut a marker at 1 KiB) says so,
 * and the cut line is written again. A full or stopped buffer just has
 * no marker.
 */
static void flush(struct bp_args *a)
{
	size_t at = 0;

	while (at < a->npending) {
		size_t len = a->npending - at, end;
		ssize_t w;

		if (len > MARKER_WRITE) {
			for (end = at + MARKER_WRITE; end > at && a->pending[end - 1] != '\n'; end--)
				;
			len = end > at ? end - at : MARKER_WRITE;
		}
		w = write(a->marker_fd, a->pending + at, len);
		if (w <= 0)
			break;
		/* Back to the start of the line the kernel cut, if it cut one. */
		end = at + (size_t)w;
		while ((size_t)w < len && end > at && a->pending[end - 1] != '\n')
			end--;
		if (end == at)
			break;
		at = end;
	}
	a->npending = 0;
}

/*
 * The events name tasks by their pid in the initial PID namespace: /proc
 * must count in it too, and this process be in it to tell.
 */
static int proc_is_initial(void)
{
	char self[32];
	struct stat st;
	ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);

	if (n <= 0 || stat("/proc/self/ns/pid", &st) < 0)
		return 0;
	self[n] = 0;
	return st.st_ino == 0xEFFFFFFCu && atoi(self) == (int)getpid();
}

struct bp_args *bp_args_new(struct bp_capture *c, const char *watch_instance)
{
	struct bp_args *a;

	if (!proc_is_initial()) {
		bp_set_error("/proc is not the initial PID namespace's");
		return NULL;
	}
	a = xcalloc(1, sizeof(*a));
	a->self = (int)getpid();
	a->marker_fd = bp_capture_marker_open(c);
	if (a->marker_fd < 0)
		goto out_free;
	a->watch = bp_exec_watch_all(watch_instance);
	if (!a->watch)
		goto out_free;
	return a;

out_free:
	bp_args_free(a);
	return NULL;
}

void bp_args_snapshot(struct bp_args *a, uint64_t now_ns)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (isdigit((unsigned char)e->d_name[0]) && !*end && pid > 0)
			mark_at(a, (int)pid, now_ns);
	}
	if (d)
		closedir(d);
}

int bp_args_fd(const struct bp_args *a)
{
	return bp_exec_watch_fd(a->watch);
}

int bp_args_drain(struct bp_args *a)
{
	int ret = bp_exec_watch_pids(a->watch, mark, a);

	flush(a);
	return ret;
}

void bp_args_free(struct bp_args *a)
{
	if (!a)
		return;
	bp_exec_watch_free(a->watch);
	if (a->marker_fd >= 0)
		close(a->marker_fd);
	free(a->pending);
	free(a);
}
