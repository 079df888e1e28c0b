// SPDX-License-Identifier: GPL-2.0
/*
 * The fault-around knob (fault-around.h): set to one page for an exact
 * recording of mmap'd pages, restored on every way out.
 *
 * The knob is a debugfs "simple attribute": opened non-seekable, read
 * once (right after open), written whole at any time, so one descriptor
 * serves from the set to the restore.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "capture/fault-around.h"
#include "util/error.h"

#define DEBUGFS "/sys/kernel/debug"
#define DEBUGFS_MAGIC 0x64626720

static int knob_open(void)
{
	struct statfs sfs;
	int fd, err;

	fd = open(BP_FAULT_AROUND_KNOB, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0)
		return fd;
	if (errno != ENOENT || (statfs(DEBUGFS, &sfs) == 0 && sfs.f_type == DEBUGFS_MAGIC)) {
		bp_set_error_errno("cannot open '%s'", BP_FAULT_AROUND_KNOB);
		return -1;
	}
	/*
	 * Nothing mounted there: mount debugfs for the open only. The open
	 * descriptor keeps the knob usable once the mount is detached.
	 */
	if (mount("debugfs", DEBUGFS, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		bp_set_error_errno("cannot mount debugfs on '%s'", DEBUGFS);
		return -1;
	}
	fd = open(BP_FAULT_AROUND_KNOB, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	err = errno;
	umount2(DEBUGFS, MNT_DETACH);
	if (fd < 0) {
		errno = err;
		bp_set_error_errno("cannot open '%s'", BP_FAULT_AROUND_KNOB);
	}
	return fd;
}

static int knob_write(int fd, unsigned long bytes)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%lu\n", bytes);

	if (write(fd, buf, (size_t)n) != n) {
		bp_set_error_errno("cannot write %lu to '%s'", bytes, BP_FAULT_AROUND_KNOB);
		return -1;
	}
	return 0;
}

long bp_fault_around_exact(struct bp_fault_around *fa)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long v;
	char buf[32], *end;
	ssize_t n;

	fa->fd = knob_open();
	if (fa->fd < 0)
		return -1;
	n = read(fa->fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		bp_set_error_errno("cannot read '%s'", BP_FAULT_AROUND_KNOB);
		goto fail;
	}
	buf[n] = '\0';
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || !v) {
		bp_set_error("cannot read '%s': unexpected '%.*s'", BP_FAULT_AROUND_KNOB,
			     (int)(n && buf[n - 1] == '\n' ? n - 1 : n), buf);
		goto fail;
	}
	if (knob_write(fa->fd, (unsigned long)page) < 0)
		goto fail;
	fa->saved = v;
	return page;
fail:
	close(fa->fd);
	fa->fd = -1;
	return -1;
}

int bp_fault_around_restore(struct bp_fault_around *fa)
{
	int ret = 0;

	if (fa->saved) {
		if (fa->fd < 0)
			fa->fd = knob_open();
		ret = fa->fd < 0 ? -1 : knob_write(fa->fd, fa->saved);
		fa->saved = 0;
	}
	if (fa->fd >= 0)
		close(fa->fd);
	fa->fd = -1;
	return ret;
}
