// SPDX-License-Identifier: GPL-2.0
/*
 * t3-lock READ WRITE DELAY_MS: one task waits for reads while holding an
 * inode lock, another waits on that lock.
 *
 * Task A maps READ, drops its pages from the page cache and write(2)s the
 * whole mapping into WRITE in one call. A buffered write (ext4) takes
 * WRITE's inode lock (i_rwsem) first and faults the source pages in under
 * it: A sleeps on READ's pages being read from storage, with the lock
 * held. Task B (A's child) opens WRITE with O_TRUNC DELAY_MS later:
 * truncating takes the same inode lock, so B sleeps uninterruptibly on it
 * until A's write() returns and A wakes it (process context, no I/O).
 *
 * Prints, with times on CLOCK_BOOTTIME (the recording clock, ns):
 *   "A PID START_NS END_NS BYTES RESIDENT_PAGES"   around the write(), and
 *                                                  READ's pages cached
 *                                                  before it (0: cold)
 *   "B PID START_NS END_NS"                        around the open()
 * Built by the test that uses it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t boottime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Pages of the mapping [p, p + len) in the page cache. */
static long resident(void *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;
	size_t i, npages = (len + (size_t)page - 1) / (size_t)page;
	unsigned char *vec = malloc(npages ? npages : 1);

	if (!vec || mincore(p, len, vec) < 0) {
		free(vec);
		return -1;
	}
	for (i = 0; i < npages; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

int main(int argc, char **argv)
{
	uint64_t t0, t1;
	struct stat st;
	int rfd, wfd, status;
	long cached;
	ssize_t n;
	pid_t b;
	void *p;

	if (argc != 4)
		return 2;
	rfd = open(argv[1], O_RDONLY);
	wfd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (rfd < 0 || wfd < 0 || fstat(rfd, &st) < 0 || st.st_size <= 0)
		return 1;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, rfd, 0);
	if (p == MAP_FAILED)
		return 1;
	/* Clean pages only are dropped: write any dirty ones first. */
	fsync(rfd);
	posix_fadvise(rfd, 0, 0, POSIX_FADV_DONTNEED);
	cached = resident(p, (size_t)st.st_size);

	b = fork();
	if (b < 0)
		return 1;
	if (b == 0) {
		int fd;

		usleep((useconds_t)atol(argv[3]) * 1000);
		t0 = boottime();
		fd = open(argv[2], O_WRONLY | O_TRUNC);
		t1 = boottime();
		if (fd < 0)
			_exit(1);
		printf("B %d %llu %llu\n", (int)getpid(), (unsigned long long)t0,
		       (unsigned long long)t1);
		_exit(fflush(stdout) ? 1 : 0);
	}
	t0 = boottime();
	n = write(wfd, p, (size_t)st.st_size);
	t1 = boottime();
	if (waitpid(b, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	if (n != st.st_size)
		return 1;
	printf("A %d %llu %llu %lld %ld\n", (int)getpid(), (unsigned long long)t0,
	       (unsigned long long)t1, (long long)n, cached);
	return fflush(stdout) ? 1 : 0;
}
