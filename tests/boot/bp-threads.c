// SPDX-License-Identifier: GPL-2.0
/*
 * A daemon with threads, for the systemd boot test: one thread per file
 * reads it whole, then the process stays running (a Type=simple service
 * that never exits). Its pid and its threads' tids are written to the
 * file given with -o: the ground truth for rolling threads up into their
 * process.
 *
 * Usage: bp-threads -o TIDFILE FILE...
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FILES 8

struct reader {
	const char *path;
	pthread_t thread;
	pid_t tid;
	long long bytes;
};

static void *read_whole(void *arg)
{
	struct reader *r = arg;
	char buf[65536];
	ssize_t n;
	int fd;

	r->tid = (pid_t)syscall(SYS_gettid);
	fd = open(r->path, O_RDONLY);
	if (fd < 0) {
		r->bytes = -1;
		return NULL;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		r->bytes += n;
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	struct reader readers[MAX_FILES];
	FILE *out;
	int i, n;

	if (argc < 4 || strcmp(argv[1], "-o") || argc - 3 > MAX_FILES) {
		fprintf(stderr, "usage: bp-threads -o TIDFILE FILE... (at most %d)\n", MAX_FILES);
		return 2;
	}
	n = argc - 3;
	memset(readers, 0, sizeof(readers));
	for (i = 0; i < n; i++) {
		readers[i].path = argv[i + 3];
		if (pthread_create(&readers[i].thread, NULL, read_whole, &readers[i])) {
			fprintf(stderr, "bp-threads: cannot start a thread\n");
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(readers[i].thread, NULL);
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	fprintf(out, "pid %d", (int)getpid());
	for (i = 0; i < n; i++)
		fprintf(out, " tid %d %s %lld", (int)readers[i].tid, readers[i].path, readers[i].bytes);
	fprintf(out, "\n");
	fclose(out);
	/* A daemon: it stays until the machine goes down. */
	for (;;)
		pause();
}
