// SPDX-License-Identifier: GPL-2.0
/*
 * What PID 1 does to the boot buffer before it execs the real init: make
 * the per-syscall events of the I/O syscalls work, so the recording has
 * syscall context from the real init's first instruction.
 *
 * Enabled from the kernel command line, syscall events record nothing
 * (seen on 6.12): a task emits them only with its SYSCALL_TRACEPOINT flag,
 * which the kernel sets on every thread alive when the first syscall
 * event is registered and new tasks inherit at fork; registered that
 * early, no thread but the idle task exists, which is skipped, so no task
 * ever gets the flag. Turning the events off and on again registers them
 * anew with PID 1 alive: it and every task it forks get the flag. When
 * the words had no syscall events (an older bootprof, written by hand)
 * they are simply turned on.
 *
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

/*
 * Write prefix + name for every syscall event of bp_boot_events[] to
 * set_event (fd), one per write: the kernel takes one name per call. A
 * syscall this kernel lacks is left out, as on the command line. Returns
 * how many were accepted.
 */
static int set_syscall_events(int fd, const char *prefix)
{
	const struct bp_boot_event *e;
	char word[128];
	int n = 0, len;

	for (e = bp_boot_events; e->name; e++) {
		if (strncmp(e->name, "syscalls:", 9))
			continue;
		len = snprintf(word, sizeof(word), "%s%s\n", prefix, e->name);
		if (len > 0 && len < (int)sizeof(word) && write(fd, word, (size_t)len) == len)
			n++;
	}
	return n;
}

int bp_boot_enable_syscalls(const char *instance, int *enabled)
{
	char dir[256], path[320];
	struct stat st;
	int fd, n, on;

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
	on = file_is(path, '1');
	snprintf(path, sizeof(path), "%s/set_event", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		return -1;
	}
	/* Off first when the command line turned them on (see above), then on. */
	if (on)
		set_syscall_events(fd, "!");
	n = set_syscall_events(fd, "");
	close(fd);
	*enabled = n;
	return 0;
}
