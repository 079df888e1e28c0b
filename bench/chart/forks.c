// SPDX-License-Identifier: GPL-2.0
/*
 * A boot-sized process tree for the chart benchmark: N children, JOBS at a
 * time, each doing READS small preads of a cached file (a sys_enter, a
 * get_pages and a sys_exit each) with a short sleep every 64, so that
 * every lane has runs and sleeps to draw.
 *
 * Usage: forks FILE N JOBS READS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int child(const char *path, long reads)
{
	static char buf[4096];
	struct timespec nap = { 0, 200000 };
	long i;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 1;
	for (i = 0; i < reads; i++) {
		if (pread(fd, buf, sizeof(buf), (i % 256) * 4096) < 0)
			return 1;
		if (!(i & 63))
			nanosleep(&nap, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n, jobs, reads, started = 0, running = 0;
	int status, failed = 0;

	if (argc != 5)
		return 2;
	n = atol(argv[2]);
	jobs = atol(argv[3]);
	reads = atol(argv[4]);
	while (started < n || running) {
		if (started < n && running < jobs) {
			pid_t pid = fork();

			if (pid < 0)
				return 1;
			if (!pid)
				_exit(child(argv[1], reads));
			started++;
			running++;
			continue;
		}
		if (wait(&status) > 0) {
			running--;
			failed |= !WIFEXITED(status) || WEXITSTATUS(status);
		}
	}
	return failed;
}
