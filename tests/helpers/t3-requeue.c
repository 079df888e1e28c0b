// SPDX-License-Identifier: GPL-2.0
/*
 * t3-requeue: a wait moved by FUTEX_CMP_REQUEUE, for the critical-path test.
 *
 *   t3-requeue FILE
 *
 * The main thread (t3-requeue) waits on futex A until a condition holds.
 * t3-signaler reads FILE (cold, under a throttle: its I/O is what the
 * condition waits for), sets the condition, marks futex B (a lock word)
 * contended and requeues the waiters of A onto B with FUTEX_CMP_REQUEUE,
 * waking none of them. t3-unlocker, a loop that releases B every 10 ms,
 * wakes one waiter of B whenever it was marked contended: it is the task
 * whose waking ends the main thread's wait, though all it did was the
 * last few milliseconds. The main thread exits once woken.
 *
 * Prints "requeue TID NS" (the signaler's tid, CLOCK_BOOTTIME just
 * before its futex call) and "unlock TID".
 * Built by the test that uses it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint32_t futex_a, futex_b;
static volatile int cond;
static const char *path;

static long futex(uint32_t *uaddr, int op, uint32_t val, unsigned long val2, uint32_t *uaddr2,
		  uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, val2, uaddr2, val3);
}

static uint64_t boottime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *signaler(void *arg)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY);
	uint64_t ns;

	(void)arg;
	prctl(PR_SET_NAME, "t3-signaler");
	if (fd < 0)
		exit(1);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	cond = 1;
	__atomic_store_n(&futex_b, 2, __ATOMIC_SEQ_CST);
	ns = boottime();
	/* Wake none, move every waiter of A (still 0) onto B. */
	if (futex(&futex_a, FUTEX_CMP_REQUEUE_PRIVATE, 0, INT_MAX, &futex_b, 0) < 0)
		exit(1);
	printf("requeue %ld %llu\n", (long)syscall(SYS_gettid), (unsigned long long)ns);
	fflush(stdout);
	return NULL;
}

static void *unlocker(void *arg)
{
	struct timespec ts = { 0, 10000000L };

	(void)arg;
	prctl(PR_SET_NAME, "t3-unlocker");
	printf("unlock %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (;;) {
		nanosleep(&ts, NULL);
		if (__atomic_exchange_n(&futex_b, 0, __ATOMIC_SEQ_CST) == 2)
			futex(&futex_b, FUTEX_WAKE_PRIVATE, 1, 0, NULL, 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t s, u;

	if (argc != 2)
		return 2;
	path = argv[1];
	if (pthread_create(&u, NULL, unlocker, NULL) || pthread_create(&s, NULL, signaler, NULL))
		return 1;
	while (!cond)
		futex(&futex_a, FUTEX_WAIT_PRIVATE, 0, 0, NULL, 0);
	return 0;
}
