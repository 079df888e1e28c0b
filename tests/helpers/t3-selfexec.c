// SPDX-License-Identifier: GPL-2.0
/*
 * Re-executes itself through /proc/self/exe, as busybox does:
 *   t3-selfexec A B   forks a child that re-execs itself to read A, then
 *                     re-execs itself to read B
 *   t3-selfexec read FILE   reads FILE whole and exits
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int read_whole(const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n < 0;
}

int main(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc == 3 && !strcmp(argv[1], "read"))
		return read_whole(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: t3-selfexec FILE-A FILE-B\n");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		execl("/proc/self/exe", "t3-selfexec", "read", argv[1], (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	execl("/proc/self/exe", "t3-selfexec", "read", argv[2], (char *)NULL);
	return 127;
}
