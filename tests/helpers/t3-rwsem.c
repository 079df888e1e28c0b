// SPDX-License-Identifier: GPL-2.0
/*
 * t3-rwsem: readers of an rwsem woken by other readers, for the
 * critical-path test.
 *
 *   t3-rwsem READ TARGET DELAY_MS NAP_MS AFTER [PROCS]
 *
 * t3-writer joins the cgroup whose cgroup.procs file is PROCS (a blkio
 * throttle: the readers stay out of it, their reads wait for no one),
 * maps READ, drops its pages from the page cache and write(2)s
 * the mapping into TARGET: ext4's buffered write holds TARGET's inode
 * lock (i_rwsem) for writing while it faults READ's pages in from
 * storage. From DELAY_MS on, until the writer has exited and for AFTER
 * more, this process starts a reader every 0.2 ms (t3-reader, at most
 * 8192): each sleeps NAP_MS, opens TARGET and lseek(SEEK_DATA)s in it,
 * which takes the same lock for reading, so those that get there during
 * the write queue behind the writer.
 * When the write ends the kernel wakes the queued readers, at most 256
 * per waking (MAX_READERS_WAKEUP in kernel/locking/rwsem.c); the rest
 * are woken by a reader: the last of those to unlock, or one that
 * queues while the lock is reader-owned (rwsem_cond_wake_waiter()), a
 * reader whose nap ended after the write: the timer, not the writer, is
 * what that one waited for. Every queued reader waited for the
 * writer's reads.
 *
 * Prints "writer PID". Built by the test that uses it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * A reader: a process of its own on this process's memory (clone
 * CLONE_VM): its exit unmaps nothing, where the exits of forked children
 * queue on the rwsems of what they share with their parent (anon_vma's,
 * mapped files'), and one exec'd would queue on the mapped libraries'.
 * Its stack is a slice of one mapping made up front, so that no mmap
 * holds the memory's lock meanwhile.
 */
#define STACK (16 << 10)
#define MAX_READERS 8192
static char *stacks;
static int nreaders;
static long nap_ms;

static int read_target(void *path)
{
	struct timespec ts = { nap_ms / 1000, nap_ms % 1000 * 1000000L };
	int fd;

	prctl(PR_SET_NAME, "t3-reader");
	nanosleep(&ts, NULL);
	fd = open(path, O_RDONLY);
	syscall(SYS_exit_group, fd < 0 || lseek(fd, 0, SEEK_DATA) < 0);
	return 0;
}

static int reader(char *path)
{
	if (nreaders == MAX_READERS)
		return 0;
	usleep(200);
	return clone(read_target, stacks + (size_t)++nreaders * STACK, CLONE_VM | SIGCHLD,
		     path) < 0;
}

int main(int argc, char **argv)
{
	int rfd, wfd, i, status, bad = 0;
	struct stat st;
	pid_t w;
	void *p;

	if (argc != 6 && argc != 7)
		return 2;
	nap_ms = atol(argv[4]);
	stacks = mmap(NULL, (size_t)(MAX_READERS + 1) * STACK, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (stacks == MAP_FAILED)
		return 1;
	rfd = open(argv[1], O_RDONLY);
	wfd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (rfd < 0 || wfd < 0 || fstat(rfd, &st) < 0 || st.st_size <= 0)
		return 1;
	w = fork();
	if (w < 0)
		return 1;
	if (w == 0) {
		prctl(PR_SET_NAME, "t3-writer");
		if (argc == 7) {
			FILE *f = fopen(argv[6], "w");

			if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
				_exit(1);
		}
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, rfd, 0);
		if (p == MAP_FAILED)
			_exit(1);
		posix_fadvise(rfd, 0, 0, POSIX_FADV_DONTNEED);
		_exit(write(wfd, p, (size_t)st.st_size) == st.st_size ? 0 : 1);
	}
	printf("writer %d\n", (int)w);
	fflush(stdout);
	usleep((useconds_t)atoi(argv[3]) * 1000);
	while (waitpid(w, &status, WNOHANG) == 0)
		bad |= reader(argv[2]);
	bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	for (i = 0; i < atoi(argv[5]); i++)
		bad |= reader(argv[2]);
	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	return bad;
}
