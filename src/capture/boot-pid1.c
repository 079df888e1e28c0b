// SPDX-License-Identifier: GPL-2.0
/*
 * What PID 1 does to the boot buffer before it execs the real init: turn
 * on the per-syscall events of the I/O syscalls when the kernel command
 * line did not (words from an older bootprof, or written by hand), so the
 * recording has syscall context from the real init's first instruction.
 * Plain open/write on tracefs: this runs before init, and must take
 * microseconds, not the time libtracefs needs to find its mount point.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/boot.h"
#include "util/error.h"

#define TRACING "/sys/kernel/tracing"

/* 1 when the kernel command line has a trace_event= word. */
static int cmdline_has_trace_event(void)
{
	char buf[4096];
	ssize_t n = -1;
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return !strncmp(buf, "trace_event=", 12) || strstr(buf, " trace_event=");
}

static int file_is(const char *path, char want)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == want;
}

int bp_boot_enable_syscalls(const char *instance, int *enabled)
{
	char dir[256], path[320];
	const struct bp_boot_event *e;
	struct stat st;
	int fd, n = 0;

	*enabled = 0;
	if (stat(TRACING "/instances", &st) < 0 &&
	    mount("tracefs", TRACING, "tracefs", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL) < 0) {
		bp_set_error_errno("cannot mount tracefs at " TRACING);
		return -1;
	}
	snprintf(dir, sizeof(dir), TRACING "/instances/%s", instance);
	if (stat(dir, &st) < 0) {
		/* trace_event= (before 6.3) fills the top-level buffer. */
		if (!cmdline_has_trace_event())
			return 0; /* no boot buffer: the recorder makes its own */
		snprintf(dir, sizeof(dir), TRACING);
	}
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_read/enable", dir);
	if (file_is(path, '1'))
		return 0; /* the command line did it */
	snprintf(path, sizeof(path), "%s/set_event", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		return -1;
	}
	/* One event per write: the kernel takes one name per call. */
	for (e = bp_boot_events; e->name; e++) {
		size_t len = strlen(e->name);
		char word[128];

		if (strncmp(e->name, "syscalls:", 9) || len + 2 > sizeof(word))
			continue;
		memcpy(word, e->name, len);
		word[len] = '\n';
		if (write(fd, word, len + 1) == (ssize_t)len + 1)
			n++;
		/* A syscall this kernel lacks is left out, as on the command line. */
	}
	close(fd);
	*enabled = n;
	return 0;
}
