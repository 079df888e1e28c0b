// SPDX-License-Identifier: GPL-2.0
/*
 * zygote: Android's Zygote "preloading classes" in miniature. One process
 * maps a large archive (framework.jar) and reads thousands of small,
 * scattered pieces of it through the mapping, parsing each (CPU work)
 * before it faults in the next. Single-threaded, every fault is a wait on
 * storage with nothing else to do: the I/O wait and the idle CPU are the
 * boot-time story. --threads N splits the classes over N threads, so CPU
 * and I/O overlap.
 *
 *   zygote [--archive PATH] [--size MB] [--classes N] [--threads N]
 *
 * The archive (default ./framework.jar, 128 MiB) is created when missing.
 * Each run starts with the archive dropped from the page cache
 * (POSIX_FADV_DONTNEED), so it reads from storage without root.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096

struct job {
	const unsigned char *map;
	size_t size;
	long first, count;
	uint64_t sum;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static int create_archive(const char *path, long mb)
{
	static uint64_t buf[(1 << 20) / 8];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	long i;
	size_t j;

	if (fd < 0) {
		fprintf(stderr, "zygote: cannot create '%s': %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < mb; i++) {
		for (j = 0; j < sizeof(buf) / 8; j++)
			buf[j] = mix((uint64_t)i << 20 | j);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			fprintf(stderr, "zygote: cannot write '%s': %s\n", path, strerror(errno));
			close(fd);
			unlink(path);
			return -1;
		}
	}
	fsync(fd);
	close(fd);
	return 0;
}

/* "Load" one class: read its bytes through the mapping and parse them. */
static uint64_t load_class(const unsigned char *map, size_t size, long k)
{
	uint64_t h = mix((uint64_t)k * 7919 + 17), sum = h;
	size_t off = (size_t)(h % (size / PAGE)) * PAGE + (size_t)(h >> 40) % 512;
	size_t len = 1024 + (size_t)(h >> 20) % 3072, i;
	int round;

	if (off + len > size)
		len = size - off;
	/* parsing: a few passes over the bytes, like verifying a class file */
	for (round = 0; round < 40; round++)
		for (i = 0; i < len; i += 8)
			sum = (sum ^ map[off + i]) * 0x100000001b3ull + (uint64_t)round;
	return sum;
}

static void *worker(void *arg)
{
	struct job *j = arg;
	long k;

	for (k = j->first; k < j->first + j->count; k++)
		j->sum += load_class(j->map, j->size, k);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "archive", required_argument, NULL, 'a' },
		{ "size", required_argument, NULL, 's' },
		{ "classes", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *path = "framework.jar";
	long mb = 128, classes = 20000, threads = 1, i;
	struct job *jobs;
	pthread_t *tids;
	struct timespec t0, t1;
	struct stat st;
	uint64_t sum = 0;
	void *map;
	int c, fd;

	while ((c = getopt_long(argc, argv, "a:s:c:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': path = optarg; break;
		case 's': mb = atol(optarg); break;
		case 'c': classes = atol(optarg); break;
		case 't': threads = atol(optarg); break;
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: zygote [--archive PATH] [--size MB] [--classes N] [--threads N]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (mb < 1 || classes < 1 || threads < 1 || threads > 64) {
		fprintf(stderr, "zygote: invalid arguments\n");
		return 2;
	}
	if (access(path, F_OK) && create_archive(path, mb))
		return 1;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < PAGE) {
		fprintf(stderr, "zygote: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "zygote: cannot map '%s': %s\n", path, strerror(errno));
		return 1;
	}
	/* Classes are scattered: no read-around worth having. */
	madvise(map, (size_t)st.st_size, MADV_RANDOM);
	jobs = calloc((size_t)threads, sizeof(*jobs));
	tids = calloc((size_t)threads, sizeof(*tids));
	if (!jobs || !tids)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < threads; i++) {
		jobs[i].map = map;
		jobs[i].size = (size_t)st.st_size;
		jobs[i].first = classes * i / threads;
		jobs[i].count = classes * (i + 1) / threads - jobs[i].first;
		if (threads == 1)
			worker(&jobs[i]);
		else if (pthread_create(&tids[i], NULL, worker, &jobs[i]))
			return 1;
	}
	for (i = 0; i < threads; i++) {
		if (threads > 1)
			pthread_join(tids[i], NULL);
		sum += jobs[i].sum;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("zygote: preloaded %ld classes from %s with %ld thread%s in %.2f s (%016llx)\n",
	       classes, path, threads, threads == 1 ? "" : "s",
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       (unsigned long long)sum);
	free(jobs);
	free(tids);
	munmap(map, (size_t)st.st_size);
	close(fd);
	return 0;
}
