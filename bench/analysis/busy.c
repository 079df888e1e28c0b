// SPDX-License-Identifier: GPL-2.0
/*
 * A busy, event-dense workload for the analysis benchmark: N small preads
 * over a cached file (each is a sys_enter, a get_pages and a sys_exit),
 * with a fault on a mapping every 64 reads.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[4096];
	volatile const char *map;
	unsigned long sum = 0;
	long i, n;
	int fd;

	if (argc != 3)
		return 2;
	n = atol(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 1;
	map = mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++) {
		if (pread(fd, buf, sizeof(buf), (i % 256) * 4096) < 0)
			return 1;
		if (!(i & 63)) {
			sum += (unsigned char)map[(i >> 6) % 256 * 4096];
			madvise((void *)map, 1 << 20, MADV_DONTNEED);
		}
	}
	printf("%lu\n", sum);
	return 0;
}
