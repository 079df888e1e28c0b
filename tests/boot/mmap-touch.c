// SPDX-License-Identifier: GPL-2.0
/*
 * The package scanner's pattern, for the boot tests: mmap a whole archive
 * and touch only its first and last pages (a zip's local header and central
 * directory). Readahead around the two faults reads pages nobody uses.
 * With a STRIDE, touch every STRIDE-th page instead (a sparse mmap: the
 * ground truth of pages used is the count printed).
 * Without arguments it just exits 0 (an exec to stop on).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	volatile const unsigned char *p;
	unsigned sum = 0;
	struct stat st;
	int fd;

	if (argc < 2)
		return 0;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 4096) {
		perror(argv[1]);
		return 1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (argc > 2) {
		long stride = atol(argv[2]), page = sysconf(_SC_PAGESIZE), n = 0;
		off_t off;

		if (stride <= 0)
			return 2;
		for (off = 0; off < st.st_size; off += (off_t)stride * page, n++)
			sum += p[off];
		printf("mmap-touch: %s %lld bytes, touched %ld pages, every %ld (%u)\n", argv[1],
		       (long long)st.st_size, n, stride, sum & 1);
		return 0;
	}
	sum += p[0];
	sum += p[st.st_size - 1];
	printf("mmap-touch: %s %lld bytes, touched 2 pages (%u)\n", argv[1], (long long)st.st_size,
	       sum);
	return 0;
}
