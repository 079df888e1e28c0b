// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.sched_schedstats (schedstats.h): on for a recording, back off on
 * every way out. The sysctl reads and takes "0" or "1".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/schedstats.h"
#include "util/error.h"

/* 1 on, 0 off, -1 with bp_set_error() (errno ENOENT: a kernel without schedstats). */
static int knob_read(void)
{
	char buf[16];
	ssize_t n;
	int fd, err;

	fd = open(BP_SCHEDSTATS_KNOB, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		bp_set_error_errno("cannot open '%s'", BP_SCHEDSTATS_KNOB);
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		bp_set_error_errno("cannot read '%s'", BP_SCHEDSTATS_KNOB);
		return -1;
	}
	buf[n] = '\0';
	if (!strcmp(buf, "0\n") || !strcmp(buf, "1\n"))
		return buf[0] - '0';
	bp_set_error("cannot read '%s': unexpected '%.*s'", BP_SCHEDSTATS_KNOB,
		     (int)(n && buf[n - 1] == '\n' ? n - 1 : n), buf);
	errno = EINVAL;
	return -1;
}

static int knob_write(int on)
{
	const char *value = on ? "1\n" : "0\n";
	int fd, ret = 0;

	fd = open(BP_SCHEDSTATS_KNOB, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, 2) != 2) {
		bp_set_error_errno("cannot write %d to '%s'", on, BP_SCHEDSTATS_KNOB);
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Whether the kernel command line turned them on: its last schedstats=
 * word (the kernel takes each in turn) is schedstats=enable.
 */
static int enabled_at_boot(void)
{
	char buf[4096], *word, *save = NULL;
	int on = 0;
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (word = strtok_r(buf, " \t\n", &save); word; word = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(word, "schedstats=", 11))
			on = !strcmp(word + 11, "enable");
	}
	return on;
}

void bp_schedstats_look(struct bp_schedstats *ss)
{
	int on = knob_read();

	ss->state = on < 0 ? (errno == ENOENT ? BP_SCHEDSTATS_NONE : BP_SCHEDSTATS_UNKNOWN)
		    : on ? BP_SCHEDSTATS_ON : BP_SCHEDSTATS_OFF;
	ss->by = BP_SCHEDSTATS_BY_UNKNOWN;
	if (on > 0)
		ss->by = enabled_at_boot() ? BP_SCHEDSTATS_BY_CMDLINE : BP_SCHEDSTATS_BY_SYSTEM;
}

int bp_schedstats_on(struct bp_schedstats *ss)
{
	bp_schedstats_look(ss);
	if (ss->state == BP_SCHEDSTATS_NONE || ss->state == BP_SCHEDSTATS_ON)
		return 0;
	/* Unreadable: the error is knob_read()'s. */
	if (ss->state == BP_SCHEDSTATS_UNKNOWN || knob_write(1) < 0)
		return -1;
	ss->state = BP_SCHEDSTATS_ON;
	ss->by = BP_SCHEDSTATS_BY_BOOTPROF;
	ss->restore = 1;
	return 0;
}

int bp_schedstats_check(struct bp_schedstats *ss)
{
	if (ss->state != BP_SCHEDSTATS_ON || knob_read() != 0)
		return 0;
	ss->state = BP_SCHEDSTATS_OFF;
	ss->by = BP_SCHEDSTATS_BY_UNKNOWN;
	ss->restore = 0;
	bp_set_error("schedstats were turned off while recording ('%s' is 0)",
		     BP_SCHEDSTATS_KNOB);
	return -1;
}

int bp_schedstats_restore(struct bp_schedstats *ss)
{
	if (!ss->restore)
		return 0;
	ss->restore = 0;
	return knob_write(0);
}
