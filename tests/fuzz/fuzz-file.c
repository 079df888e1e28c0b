// SPDX-License-Identifier: GPL-2.0
/* The fuzz input as a file: the reader maps a path, so give it one in memory. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

int bp_fuzz_file(const uint8_t *data, size_t size, char *path, size_t path_size)
{
	size_t done = 0;
	int fd = memfd_create("bootprof-fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}
