// SPDX-License-Identifier: GPL-2.0
/*
 * An LD_PRELOAD fault shim: writes to files whose path contains
 * $BP_FAULT_PATH fail with $BP_FAULT_ERRNO (default EIO) once
 * $BP_FAULT_AFTER bytes (default 0) have been written to such files, so
 * tests exercise the I/O error paths (a dying disk) of a real run.
 * Covered: write, pwrite, writev, splice, copy_file_range, sendfile, fsync.
 *
 *   BP_FAULT_PATH=/out.dat BP_FAULT_AFTER=200000 LD_PRELOAD=fault.so bootprof record ...
 *
 * With an ASan build also set ASAN_OPTIONS=verify_asan_link_order=0.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>

static atomic_ullong written;

/* Does fd name a file the fault applies to? */
static int faulty(int fd)
{
	const char *want = getenv("BP_FAULT_PATH");
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (!want || !*want || fd < 0)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	return strstr(path, want) != NULL;
}

/* 0: go ahead (then count()); -1: fail with the configured errno. */
static int check(int fd)
{
	const char *after = getenv("BP_FAULT_AFTER"), *err = getenv("BP_FAULT_ERRNO");

	if (!faulty(fd))
		return 0;
	if (atomic_load(&written) < strtoull(after ? after : "0", NULL, 10))
		return 0;
	errno = err ? atoi(err) : EIO;
	return -1;
}

static ssize_t count(int fd, ssize_t n)
{
	if (n > 0 && faulty(fd))
		atomic_fetch_add(&written, (unsigned long long)n);
	return n;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

ssize_t write(int fd, const void *buf, size_t len)
{
	if (check(fd))
		return -1;
	return count(fd, REAL(write)(fd, buf, len));
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (check(fd))
		return -1;
	return count(fd, REAL(pwrite)(fd, buf, len, off));
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	if (check(fd))
		return -1;
	return count(fd, REAL(pwrite64)(fd, buf, len, off));
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
	if (check(fd))
		return -1;
	return count(fd, REAL(writev)(fd, iov, n));
}

ssize_t splice(int in, loff_t *in_off, int out, loff_t *out_off, size_t len, unsigned flags)
{
	if (check(out))
		return -1;
	return count(out, REAL(splice)(in, in_off, out, out_off, len, flags));
}

ssize_t copy_file_range(int in, loff_t *in_off, int out, loff_t *out_off, size_t len,
			unsigned flags)
{
	if (check(out))
		return -1;
	return count(out, REAL(copy_file_range)(in, in_off, out, out_off, len, flags));
}

ssize_t sendfile(int out, int in, off_t *off, size_t len)
{
	if (check(out))
		return -1;
	return count(out, REAL(sendfile)(out, in, off, len));
}

int fsync(int fd)
{
	if (check(fd))
		return -1;
	return REAL(fsync)(fd);
}
