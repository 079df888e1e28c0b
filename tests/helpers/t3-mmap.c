// SPDX-License-Identifier: GPL-2.0
/*
 * t3-mmap FILE STEP: map FILE and touch one byte every STEP bytes; print
 * the number of pages touched. Built by the test that uses it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	volatile const char *p;
	unsigned long sum = 0;
	struct stat st;
	off_t off, step;
	long touched = 0;
	int fd;

	if (argc != 3)
		return 2;
	step = atol(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || step <= 0)
		return 1;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	for (off = 0; off < st.st_size; off += step, touched++)
		sum += (unsigned char)p[off];
	printf("%ld %lu\n", touched, sum & 1);
	return 0;
}
