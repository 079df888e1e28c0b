// SPDX-License-Identifier: GPL-2.0
/*
 * The boot tests' reader with its own ground truth: read FILE from a cold
 * cache in 64 KiB read() calls (no readahead) and print, for that loop,
 * the I/O wait the scheduler's clocks imply. A task that only reads is at
 * every instant running, runnable or asleep on I/O, so
 *   truth = wall (CLOCK_BOOTTIME) - run time - run-queue delay
 * with run time and run-queue delay from /proc/thread-self/schedstat
 * (fields 1 and 2, ns) at the loop's start and end.
 *
 * The boot buffer's clock need not be CLOCK_BOOTTIME ("local" in an
 * instance made by trace_instance=), so the loop's ends are also written
 * to the buffer itself through trace_marker (MARKER, e.g.
 * /sys/kernel/tracing/instances/bootprof/trace_marker): the recording
 * then carries "boot-reader start"/"boot-reader end" on its own clock.
 *
 * With delayacct on the kernel command line, the kernel's blkio delay of
 * the loop is a second truth: /proc/thread-self/stat field 42, in clock
 * ticks (USER_HZ), 0 without delayacct.
 *
 *   boot-reader FILE [MARKER]
 * prints "boot-reader pid PID truth_ns T wall_ns W bytes B blkio_ticks K".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

static uint64_t boottime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Run time and run-queue delay of this thread, ns. Reading the thread's
 * CPU clock first makes the kernel account the slice in progress.
 */
static int schedstat(uint64_t *run, uint64_t *delay)
{
	struct timespec cpu;
	unsigned long long a, b;
	char buf[128];
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

/* Field 42 of /proc/thread-self/stat (delayacct_blkio_ticks), or -1. */
static long long blkio_ticks(void)
{
	char buf[1024], *p;
	long long v = -1;
	ssize_t n;
	int fd = open("/proc/thread-self/stat", O_RDONLY), field;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* The comm (field 2) may hold spaces: count from its closing ')'. */
	p = strrchr(buf, ')');
	for (field = 2; p && field < 42; field++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%lld", &v);
	return v;
}

static void mark(int fd, const char *what)
{
	if (fd >= 0 && write(fd, what, strlen(what)) < 0)
		perror("trace_marker");
}

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	uint64_t run0, rq0, run1, rq1, t0, t1, bytes = 0, wall, busy;
	long long blk0, blk1;
	int fd, marker = -1;
	ssize_t n;

	if (argc < 2) {
		fprintf(stderr, "usage: boot-reader FILE [MARKER]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM); /* no readahead: one wait per read */
	if (argc > 2)
		marker = open(argv[2], O_WRONLY);
	mark(marker, "boot-reader start");
	if (schedstat(&run0, &rq0) < 0) {
		perror("schedstat");
		return 1;
	}
	blk0 = blkio_ticks();
	t0 = boottime();
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		bytes += (uint64_t)n;
	t1 = boottime();
	blk1 = blkio_ticks();
	if (schedstat(&run1, &rq1) < 0) {
		perror("schedstat");
		return 1;
	}
	mark(marker, "boot-reader end");
	wall = t1 - t0;
	busy = (run1 - run0) + (rq1 - rq0);
	printf("boot-reader pid %d truth_ns %llu wall_ns %llu bytes %llu blkio_ticks %lld\n",
	       (int)getpid(), (unsigned long long)(wall > busy ? wall - busy : 0),
	       (unsigned long long)wall, (unsigned long long)bytes,
	       blk0 >= 0 && blk1 >= 0 ? blk1 - blk0 : -1);
	return n < 0;
}
