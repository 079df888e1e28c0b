// SPDX-License-Identifier: GPL-2.0
/*
 * Ground truth for I/O wait from the scheduler's own clocks.
 *
 *   t3-truth create DIR N SIZE_MB      make DIR/rN (N files of SIZE_MB)
 *   t3-truth run DIR N SECONDS MODE [CPU]
 *                                      N concurrent readers, reader i reads
 *                                      DIR/ri sequentially for SECONDS (or
 *                                      to its end), MODE "read" (read() of
 *                                      64 KiB, no readahead) or "mmap"
 *                                      (touch every page of a shared
 *                                      mapping); with CPU, all
 *                                      readers are pinned to that CPU
 *   t3-truth hog SECONDS [CPU]         spin on one CPU (a loaded machine)
 *   t3-truth sync READ WRITE MB fsync|sync
 *                                      read READ through a mapping, create
 *                                      WRITE with MB MiB of buffered writes,
 *                                      then wait for it to reach storage in
 *                                      fsync(WRITE) or sync()
 *
 * A reader only reads, so every instant of its loop is running, runnable
 * or asleep in I/O: I/O wait = wall (CLOCK_BOOTTIME) - run time - run-queue
 * delay, the last two from /proc/thread-self/schedstat (fields 1 and 2,
 * ns), read at the loop's start (after two chunks) and end; BYTES are
 * those read in between. Each reader prints, when done:
 *   "PID START_NS END_NS TRUTH_NS BYTES"
 * with START/END on CLOCK_BOOTTIME (the recording clock). The sync task
 * prints the same line for its fsync() or sync() call, which only waits
 * for writeback and the journal, BYTES the bytes it wrote. Built by the
 * test that uses it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXN 16
#define CHUNK (64 * 1024)
#define WARMUP 2   /* chunks read before the window */

static uint64_t boottime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Run time and run-queue delay of the calling thread, ns. schedstat's run
 * time leaves out the slice in progress (added at the next tick or
 * switch: tens of ms late on a busy VM); reading the thread's CPU clock
 * makes the kernel bring it up to date first (task_sched_runtime).
 */
static int schedstat(uint64_t *run, uint64_t *delay)
{
	struct timespec cpu;
	char buf[128];
	unsigned long long a, b;
	ssize_t n;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY);

	if (fd < 0)
		return -1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &a, &b) != 2)
		return -1;
	*run = a;
	*delay = b;
	return 0;
}

/* The clocks of the calling thread now: wall, run time, run-queue delay. */
struct clocks {
	uint64_t wall, run, delay;
};

static int clocks_now(struct clocks *c)
{
	if (schedstat(&c->run, &c->delay) < 0)
		return -1;
	c->wall = boottime();
	return 0;
}

/* "PID START_NS END_NS TRUTH_NS BYTES": the wait between a and b. */
static void print_truth(const struct clocks *a, const struct clocks *b, uint64_t bytes)
{
	printf("%d %llu %llu %lld %llu\n", (int)getpid(), (unsigned long long)a->wall,
	       (unsigned long long)b->wall,
	       (long long)(b->wall - a->wall) - (long long)(b->run - a->run) -
		       (long long)(b->delay - a->delay),
	       (unsigned long long)bytes);
	fflush(stdout);
}

/* mb MiB of buffered writes to fd, tagged so no two files share blocks. */
static int write_mb(int fd, long mb, int tag)
{
	static char buf[1 << 20];
	long j;

	for (j = 0; j < (long)sizeof(buf); j++)
		buf[j] = (char)(j * 7 + 3);
	for (j = 0; j < mb; j++) {
		buf[0] = (char)j;
		buf[1] = (char)tag;
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return -1;
	}
	return 0;
}

static int create(const char *dir, int n, long mb)
{
	char path[4096];
	int i, fd;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/r%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write_mb(fd, mb, i) < 0) {
			perror(path);
			return 1;
		}
		if (fsync(fd) < 0 || close(fd) < 0)
			return 1;
	}
	return 0;
}

static int reader(const char *path, double seconds, int mmap_mode)
{
	static char buf[CHUNK];
	struct clocks c0 = { 0, 0, 0 }, c1;
	uint64_t limit = 0, bytes = 0;
	volatile const char *map = NULL;
	unsigned long sum = 0;
	struct stat st;
	off_t off = 0;
	ssize_t n;
	long chunks;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0)
		return 1;
	/*
	 * read(): no readahead, so each read waits for its own 64 KiB and the
	 * loop ends on time under a throttle; mmap: the kernel's fault-around
	 * and readahead, as programs get them.
	 */
	if (!mmap_mode)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	if (mmap_mode) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			return 1;
	}
	/*
	 * The window starts after the first two chunks: the first snapshot
	 * of a fresh reader has been seen (6.18) to miss run-queue delay that
	 * its first waits add later, by up to tens of ms.
	 */
	for (chunks = 0;;) {
		if (mmap_mode) {
			if (off >= st.st_size)
				break;
			sum += (unsigned char)map[off];
			off += 4096;
			bytes += 4096;
			if (off % CHUNK)
				continue;
		} else {
			n = read(fd, buf, sizeof(buf));
			if (n <= 0)
				break;
			bytes += (uint64_t)n;
		}
		if (++chunks == WARMUP) {
			if (clocks_now(&c0) < 0)
				return 1;
			limit = c0.wall + (uint64_t)(seconds * 1e9);
			bytes = 0;
		} else if (chunks > WARMUP && boottime() >= limit) {
			break;
		}
	}
	if (chunks <= WARMUP)
		return 1;
	c1.wall = boottime();
	if (schedstat(&c1.run, &c1.delay) < 0)
		return 1;
	print_truth(&c0, &c1, bytes + (sum & 0));
	return 0;
}

/*
 * Read rpath through a mapping (its last file read, in page faults), create
 * wpath with buffered writes, then wait in fsync(wpath) or sync(): a wait
 * for writeback and the journal only. Just before the call it writes to
 * its private mapping of rpath: a copy-on-write fault on a cached page
 * (mm_filemap_fault, no wait), so the last thing it did before the wait
 * was a fault on the file it read. madvise() is the syscall before it.
 */
static int write_sync(const char *rpath, const char *wpath, long mb, const char *how)
{
	volatile char *map;
	unsigned long sum = 0;
	struct clocks c0, c1;
	struct stat st;
	int rfd = open(rpath, O_RDONLY);
	int wfd = open(wpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	off_t off;

	if (rfd < 0 || wfd < 0 || fstat(rfd, &st) < 0 || !st.st_size)
		return 1;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, rfd, 0);
	if (map == MAP_FAILED)
		return 1;
	for (off = 0; off < st.st_size; off += 4096)
		sum += (unsigned char)map[off];
	if (write_mb(wfd, mb, 0) < 0 || clocks_now(&c0) < 0)
		return 1;
	/* Unmapped first: a write to a mapped page is no file fault. */
	if (madvise((void *)map, 4096, MADV_DONTNEED) < 0)
		return 1;
	map[0] = 1;
	if (!strcmp(how, "sync"))
		sync();
	else if (fsync(wfd) < 0)
		return 1;
	c1.wall = boottime();
	if (schedstat(&c1.run, &c1.delay) < 0)
		return 1;
	print_truth(&c0, &c1, (uint64_t)mb << 20 | (sum & 0));
	return close(wfd) < 0;
}

static void pin(const char *cpu)
{
	cpu_set_t set;

	if (!cpu)
		return;
	CPU_ZERO(&set);
	CPU_SET(atoi(cpu), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int run(const char *dir, int n, double seconds, const char *mode, const char *cpu)
{
	char path[4096];
	pid_t pids[MAXN];
	int i, st, bad = 0;

	if (n < 1 || n > MAXN)
		return 2;
	pin(cpu);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/r%d", dir, i);
		pids[i] = fork();
		if (pids[i] < 0)
			return 1;
		if (!pids[i])
			_exit(reader(path, seconds, !strcmp(mode, "mmap")));
	}
	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	return bad;
}

static int hog(double seconds, const char *cpu)
{
	uint64_t end;
	volatile unsigned long x = 0;

	pin(cpu);
	end = boottime() + (uint64_t)(seconds * 1e9);
	while (boottime() < end)
		for (int i = 0; i < 100000; i++)
			x++;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "hog"))
		return hog(atof(argv[2]), argc > 3 ? argv[3] : NULL);
	if (argc == 5 && !strcmp(argv[1], "create"))
		return create(argv[2], atoi(argv[3]), atol(argv[4]));
	if (argc == 6 && !strcmp(argv[1], "sync"))
		return write_sync(argv[2], argv[3], atol(argv[4]), argv[5]);
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "run"))
		return run(argv[2], atoi(argv[3]), atof(argv[4]), argv[5], argc > 6 ? argv[6] : NULL);
	fprintf(stderr, "usage: t3-truth create DIR N MB | run DIR N SECONDS read|mmap [CPU] |"
			" hog SECONDS [CPU] | sync READ WRITE MB fsync|sync\n");
	return 2;
}
