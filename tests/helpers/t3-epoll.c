// SPDX-License-Identifier: GPL-2.0
/*
 * t3-epoll: a wake through an event loop, for the critical-path test.
 *
 *   t3-epoll SLEEP_MS SPIN_MS
 *
 * The server (this process, comm t3-server) waits in epoll_wait on two
 * pipes. t3-noise writes a byte to the first every 10 ms, waking it
 * again and again for nothing; t3-producer sleeps SLEEP_MS, spins
 * SPIN_MS of its own CPU time and writes one byte to the second. The
 * server exits once that byte came, after 20 ms of CPU: its exit waited
 * for the producer, never for the noise. The noise dies of SIGPIPE at
 * its next write after the server is gone (no one waits for it).
 * Built by the test that uses it.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin(long ms)
{
	volatile uint64_t sink = 0;
	uint64_t until = cpu_ns() + (uint64_t)ms * 1000000ull;

	while (cpu_ns() < until)
		sink++;
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	struct epoll_event ev, got;
	int noise[2], ready[2], ep;
	char c = 'x';

	if (argc != 3 || pipe(noise) || pipe(ready))
		return 2;
	if (fork() == 0) {
		prctl(PR_SET_NAME, "t3-noise");
		close(noise[0]);
		close(ready[0]);
		close(ready[1]);
		for (;;) {
			nap(10);
			if (write(noise[1], &c, 1) != 1)
				return 0;
		}
	}
	if (fork() == 0) {
		prctl(PR_SET_NAME, "t3-producer");
		close(noise[0]);
		close(noise[1]);
		close(ready[0]);
		nap(atol(argv[1]));
		spin(atol(argv[2]));
		return write(ready[1], &c, 1) == 1 ? 0 : 1;
	}
	prctl(PR_SET_NAME, "t3-server");
	close(noise[1]);
	close(ready[1]);
	ep = epoll_create1(0);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.fd = noise[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, noise[0], &ev);
	ev.data.fd = ready[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, ready[0], &ev);
	for (;;) {
		if (epoll_wait(ep, &got, 1, -1) != 1)
			continue;
		if (read(got.data.fd, &c, 1) != 1)
			return 1;
		if (got.data.fd == ready[0])
			break;
	}
	spin(20);
	return 0;
}
