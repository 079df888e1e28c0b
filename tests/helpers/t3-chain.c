// SPDX-License-Identifier: GPL-2.0
/*
 * t3-chain: the links of a chain of tasks for the critical-path test.
 *
 *   t3-chain read FILE SPIN_MS   read FILE to its end, then spin SPIN_MS
 *                                of its own CPU time, then write one byte
 *                                to stdout and exit
 *   t3-chain wait SPIN_MS        read one byte from stdin, then spin
 *                                SPIN_MS of its own CPU time and exit
 *
 * With `t3-chain read F 300 | t3-chain wait 20`, the waiting side sleeps
 * on the pipe until the reading side has read F and spun, and exits last.
 * Built by the test that uses it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin(const char *ms)
{
	volatile uint64_t sink = 0;
	uint64_t until = cpu_ns() + strtoull(ms, NULL, 10) * 1000000ull;

	while (cpu_ns() < until)
		sink++;
}

static int read_all(int fd)
{
	static char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	char c;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "wait")) {
		if (read(0, &c, 1) != 1)
			return 1;
		spin(argv[2]);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "read")) {
		fprintf(stderr, "usage: t3-chain read FILE SPIN_MS | t3-chain wait SPIN_MS\n");
		return 2;
	}
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || read_all(fd)) {
		perror(argv[2]);
		return 1;
	}
	close(fd);
	spin(argv[3]);
	return write(1, "x", 1) == 1 ? 0 : 1;
}
