// SPDX-License-Identifier: GPL-2.0
/*
 * package-scan: Android's package manager at boot in miniature. It maps
 * each of N packages (zip archives: local headers, stored entries, a
 * central directory at the end) to extract one small entry,
 * AndroidManifest.xml. The naive scan asks for the whole mapping up front
 * (MADV_WILLNEED) and walks the local headers from the start: every page
 * of every archive is read from storage, a few are used. --smart reads
 * the end-of-central-directory record, the central directory and that one
 * entry, with MADV_RANDOM: only those pages are read.
 *
 *   package-scan [--dir DIR] [--count N] [--size MB] [--smart]
 *
 * The packages (DIR/pkgNNN.apk, default ./packages, 20 of 6 MiB) are
 * created when missing, and dropped from the page cache at the start of
 * each run (POSIX_FADV_DONTNEED), so a run reads from storage without root.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST "AndroidManifest.xml"
#define LOCAL_SIG 0x04034b50u
#define CENTRAL_SIG 0x02014b50u
#define END_SIG 0x06054b50u
#define MAX_ENTRIES 16

/* ---- writing a zip (stored entries) ---- */

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t c, n, k;

	for (n = 0; n < 256; n++) {
		for (c = n, k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

static uint32_t crc32(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static unsigned get16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

struct entry {
	char name[64];
	size_t size;
	uint32_t crc, offset;
};

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static unsigned char *entry_data(const struct entry *e, unsigned seed)
{
	unsigned char *d = malloc(e->size ? e->size : 1);
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
	size_t i;

	if (!d)
		return NULL;
	if (!strcmp(e->name, MANIFEST)) {
		size_t n = 0;

		while (n + 64 < e->size)
			n += (size_t)snprintf((char *)d + n, e->size - n,
					      "<manifest package=\"org.example.app%u\"/>\n", seed);
		memset(d + n, ' ', e->size - n);
		return d;
	}
	for (i = 0; i < e->size; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		d[i] = (unsigned char)(x >> 56);
	}
	return d;
}

static int create_package(const char *path, unsigned seed, size_t total)
{
	struct entry e[MAX_ENTRIES];
	unsigned char h[46], *data;
	size_t n = 0, i, cd_size = 0;
	uint32_t off = 0, cd_off;
	int fd;

	/* classes.dex, resources.arsc, some raw resources, then the manifest. */
	snprintf(e[n].name, sizeof(e[n].name), "classes.dex");
	e[n++].size = total / 2;
	snprintf(e[n].name, sizeof(e[n].name), "resources.arsc");
	e[n++].size = total / 6;
	for (i = 0; i < 4; i++) {
		snprintf(e[n].name, sizeof(e[n].name), "res/raw/blob%zu.bin", i);
		e[n++].size = total / 12;
	}
	snprintf(e[n].name, sizeof(e[n].name), MANIFEST);
	e[n++].size = 2048 + seed % 1024;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return -1;
	for (i = 0; i < n; i++) {
		size_t nl = strlen(e[i].name);

		data = entry_data(&e[i], seed);
		if (!data)
			goto fail;
		e[i].crc = crc32(data, e[i].size);
		e[i].offset = off;
		memset(h, 0, 30);
		put32(h, LOCAL_SIG);
		put16(h + 4, 10);                        /* version needed */
		put16(h + 8, 0);                         /* stored */
		put16(h + 12, 0x21);                     /* 1980-01-01 */
		put32(h + 14, e[i].crc);
		put32(h + 18, (uint32_t)e[i].size);
		put32(h + 22, (uint32_t)e[i].size);
		put16(h + 26, (unsigned)nl);
		if (write_all(fd, h, 30) || write_all(fd, e[i].name, nl) ||
		    write_all(fd, data, e[i].size)) {
			free(data);
			goto fail;
		}
		free(data);
		off += (uint32_t)(30 + nl + e[i].size);
	}
	cd_off = off;
	for (i = 0; i < n; i++) {
		size_t nl = strlen(e[i].name);

		memset(h, 0, 46);
		put32(h, CENTRAL_SIG);
		put16(h + 4, 20);
		put16(h + 6, 10);
		put16(h + 14, 0x21);
		put32(h + 16, e[i].crc);
		put32(h + 20, (uint32_t)e[i].size);
		put32(h + 24, (uint32_t)e[i].size);
		put16(h + 28, (unsigned)nl);
		put32(h + 42, e[i].offset);
		if (write_all(fd, h, 46) || write_all(fd, e[i].name, nl))
			goto fail;
		cd_size += 46 + nl;
	}
	memset(h, 0, 22);
	put32(h, END_SIG);
	put16(h + 8, (unsigned)n);
	put16(h + 10, (unsigned)n);
	put32(h + 12, (uint32_t)cd_size);
	put32(h + 16, cd_off);
	if (write_all(fd, h, 22))
		goto fail;
	fsync(fd);
	close(fd);
	return 0;
fail:
	close(fd);
	unlink(path);
	return -1;
}

/* ---- reading ---- */

/* Walk the local headers from the start until the manifest. */
static long naive(const unsigned char *m, size_t size)
{
	size_t off = 0;

	while (off + 30 <= size && get32(m + off) == LOCAL_SIG) {
		size_t nl = get16(m + off + 26), xl = get16(m + off + 28);
		size_t len = get32(m + off + 18);

		if (off + 30 + nl + xl + len > size)
			return -1;
		if (nl == strlen(MANIFEST) && !memcmp(m + off + 30, MANIFEST, nl)) {
			const unsigned char *d = m + off + 30 + nl + xl;
			long sum = 0;
			size_t i;

			for (i = 0; i < len; i++)
				sum += d[i];
			return sum;
		}
		off += 30 + nl + xl + len;
	}
	return -1;
}

/* End of central directory, central directory, that entry. */
static long smart(const unsigned char *m, size_t size)
{
	size_t eocd, cd, i, n;

	if (size < 22)
		return -1;
	for (eocd = size - 22;; eocd--) {
		if (get32(m + eocd) == END_SIG)
			break;
		if (!eocd || size - eocd > 65557)
			return -1;
	}
	n = get16(m + eocd + 10);
	cd = get32(m + eocd + 16);
	for (i = 0; i < n && cd + 46 <= size; i++) {
		size_t nl = get16(m + cd + 28), xl = get16(m + cd + 30), cl = get16(m + cd + 32);

		if (get32(m + cd) != CENTRAL_SIG || cd + 46 + nl > size)
			return -1;
		if (nl == strlen(MANIFEST) && !memcmp(m + cd + 46, MANIFEST, nl)) {
			size_t lo = get32(m + cd + 42), len = get32(m + cd + 20), j;
			const unsigned char *d;
			long sum = 0;

			if (lo + 30 > size)
				return -1;
			d = m + lo + 30 + get16(m + lo + 26) + get16(m + lo + 28);
			if ((size_t)(d - m) + len > size)
				return -1;
			for (j = 0; j < len; j++)
				sum += d[j];
			return sum;
		}
		cd += 46 + nl + xl + cl;
	}
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "smart", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *dir = "packages";
	long count = 20, mb = 6, i, found = 0;
	int c, use_smart = 0;
	char path[4096];

	while ((c = getopt_long(argc, argv, "d:n:s:Sh", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'n': count = atol(optarg); break;
		case 's': mb = atol(optarg); break;
		case 'S': use_smart = 1; break;
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: package-scan [--dir DIR] [--count N] [--size MB] [--smart]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (count < 1 || count > 999 || mb < 1 || mb > 1024) {
		fprintf(stderr, "package-scan: invalid arguments\n");
		return 2;
	}
	crc_init();
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "package-scan: cannot create '%s': %s\n", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/pkg%03ld.apk", dir, i);
		if (access(path, F_OK) && create_package(path, (unsigned)i, (size_t)mb << 20)) {
			fprintf(stderr, "package-scan: cannot create '%s': %s\n", path, strerror(errno));
			return 1;
		}
	}
	for (i = 0; i < count; i++) {
		struct stat st;
		void *m;
		long sum;
		int fd;

		snprintf(path, sizeof(path), "%s/pkg%03ld.apk", dir, i);
		fd = open(path, O_RDONLY);
		if (fd < 0 || fstat(fd, &st) < 0) {
			fprintf(stderr, "package-scan: cannot open '%s': %s\n", path, strerror(errno));
			return 1;
		}
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "package-scan: cannot map '%s': %s\n", path, strerror(errno));
			return 1;
		}
		madvise(m, (size_t)st.st_size, use_smart ? MADV_RANDOM : MADV_WILLNEED);
		sum = use_smart ? smart(m, (size_t)st.st_size) : naive(m, (size_t)st.st_size);
		if (sum >= 0)
			found++;
		else
			fprintf(stderr, "package-scan: no %s in '%s'\n", MANIFEST, path);
		munmap(m, (size_t)st.st_size);
		close(fd);
	}
	printf("package-scan: %ld of %ld manifests read (%s)\n", found, count,
	       use_smart ? "smart" : "naive");
	return found == count ? 0 : 1;
}
