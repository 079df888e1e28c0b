// SPDX-License-Identifier: GPL-2.0
/*
 * Which of the pages a preloader asked for are really in the page cache:
 * readahead(2) returns once the reads are submitted, with the pages still
 * locked under I/O. mincore(2) counts a page only when it is up to date,
 * so "resident" here means a reader finds it without waiting.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "replay/preload.h"
#include "replay/resident.h"
#include "util/xalloc.h"

/*
 * Polling costs CPU the boot may need (a syscall per range and round):
 * every round without a range newly resident doubles the pause, up to
 * POLL_MAX_NS; a round with one goes back to POLL_NS.
 */
#define POLL_NS (2ull * 1000000ull)
#define POLL_MAX_NS (64ull * 1000000ull)
#define TRACEFS_INSTANCES "/sys/kernel/tracing/instances"
/* How often a range still missing is asked for again. */
#define REISSUE_NS (1000ull * 1000000ull)

/* One requested range, in bytes of its file. */
struct span {
	size_t file;           /* index into the mapped files */
	uint64_t off, len;
	uint64_t resident;     /* bytes resident at the last look */
	int done;
};

struct mapped {
	unsigned char *map;    /* the whole file, PROT_READ; NULL when it could not be mapped */
	size_t len;
	size_t pending;        /* spans not yet resident */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Bytes of [off, off + len) of a mapping that are resident and up to date. */
static uint64_t resident_bytes(const struct mapped *m, uint64_t off, uint64_t len,
			       unsigned char **vec, size_t *veccap)
{
	uint64_t sps = (uint64_t)sysconf(_SC_PAGESIZE), first = off / sps * sps, end = off + len;
	uint64_t n = (end - first + sps - 1) / sps, sum = 0, k;

	if (!m->map)
		return 0;
	if (n > *veccap) {
		free(*vec);
		*vec = xmalloc(n);
		*veccap = n;
	}
	if (mincore(m->map + first, end - first, *vec))
		return 0;
	for (k = 0; k < n; k++) {
		uint64_t a = first + k * sps, b = a + sps;

		if (!((*vec)[k] & 1))
			continue;
		if (a < off)
			a = off;
		if (b > end)
			b = end;
		sum += b - a;
	}
	return sum;
}

/*
 * Ask again for the pages of a span that are not resident, a chunk at a
 * time (bp_replay_chunk()). Pages under I/O or resident are left alone by
 * the kernel: this reads only what is gone.
 */
static void reissue(const struct mapped *m, const struct span *sp, uint64_t chunk,
		    unsigned char **vec, size_t *veccap)
{
	uint64_t sps = (uint64_t)sysconf(_SC_PAGESIZE), first = sp->off / sps * sps;
	uint64_t end = sp->off + sp->len, n = (end - first + sps - 1) / sps, k, run = 0;

	if (!m->map)
		return;
	resident_bytes(m, sp->off, sp->len, vec, veccap);  /* fills *vec */
	for (k = 0; k <= n; k++) {
		if (k < n && !((*vec)[k] & 1)) {
			run++;
			continue;
		}
		while (run) {
			uint64_t pages = run * sps > chunk ? chunk / sps : run;
			uint64_t at = first + (k - run) * sps;

			(void)madvise(m->map + at, pages * sps, MADV_WILLNEED);
			run -= pages;
		}
	}
}

int bp_replay_markers_open(const char *root, int *fds)
{
	struct dirent *e;
	char path[512];
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s" TRACEFS_INSTANCES, root);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < BP_REPLAY_MAX_MARKERS) {
		if (strcmp(e->d_name, "bootprof") && strncmp(e->d_name, "bootprof-", 9))
			continue;
		snprintf(path, sizeof(path), "%s" TRACEFS_INSTANCES "/%s/trace_marker", root,
			 e->d_name);
		fds[n] = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		n += fds[n] >= 0;
	}
	closedir(d);
	return n;
}

void bp_replay_mark(const int *fds, int n, const char *what, const struct bp_pack_file *f,
		    uint64_t first, uint64_t count)
{
	char line[160];
	int len, i;

	len = snprintf(line, sizeof(line), BP_REPLAY_COMM " %s %u:%u %" PRIu64 " %" PRIu64
		       "+%" PRIu64 "\n", what, f->major, f->minor, f->ino, first, count);
	for (i = 0; i < n; i++) {
		if (write(fds[i], line, (size_t)len) < 0) {
			/* A recording that stopped meanwhile: nothing to tell. */
		}
	}
}

/* A span became resident: its pages, as the pack counts them. */
static void mark(const int *fds, int n, const struct bp_pack *p, const struct span *sp)
{
	uint64_t first = sp->off / p->page_size;
	uint64_t count = (sp->off + sp->len + p->page_size - 1) / p->page_size - first;

	bp_replay_mark(fds, n, "resident", &p->files[sp->file], first, count);
}

/* Map the files with requested ranges and list those ranges. */
static struct span *gather(const struct bp_pack *p, const struct bp_settle_opts *o,
			   struct mapped *files, size_t *nspans, struct bp_settle *s)
{
	struct span *spans = NULL;
	size_t i, k, n = 0, cap = 0;

	for (i = 0; i < p->nfiles; i++) {
		const struct bp_pack_file *f = &p->files[i];
		size_t had = n;
		int fd;

		if (!o->requested[i] || !f->size)
			continue;
		s->files++;
		for (k = 0; k < o->requested[i] && k < f->nranges; k++) {
			uint64_t off = f->ranges[k].start * p->page_size;
			uint64_t len = f->ranges[k].count * p->page_size;

			if (off >= f->size)
				break;
			if (len > f->size - off)
				len = f->size - off;
			BP_GROW(spans, n, cap);
			spans[n].file = i;
			spans[n].off = off;
			spans[n].len = len;
			spans[n].resident = 0;
			spans[n++].done = 0;
			s->bytes += len;
		}
		files[i].pending = n - had;
		fd = bp_replay_open(o->root, f);
		if (fd >= 0) {
			files[i].map = mmap(NULL, (size_t)f->size, PROT_READ, MAP_SHARED, fd, 0);
			close(fd);
		}
		if (fd < 0 || files[i].map == MAP_FAILED) {
			/* Changed or gone since its reads started: not resident, nothing to wait for. */
			files[i].map = NULL;
			for (k = had; k < n; k++)
				spans[k].done = 1;
			continue;
		}
		files[i].len = (size_t)f->size;
	}
	*nspans = n;
	return spans;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int bp_replay_settle(const struct bp_pack *p, const struct bp_settle_opts *o, struct bp_settle *s)
{
	struct mapped *files = xcalloc(p->nfiles + 1, sizeof(*files));
	unsigned char *vec = NULL;
	size_t nspans, left, veccap = 0, i;
	struct span *spans;
	uint64_t now, progress_ns, reissue_ns, total, pause = POLL_NS;
	const int *markers = o->markers;
	int nmarkers = o->nmarkers;

	memset(s, 0, sizeof(*s));
	spans = gather(p, o, files, &nspans, s);
	for (i = left = 0; i < nspans; i++)
		left += !spans[i].done;
	progress_ns = reissue_ns = mono_ns();
	total = 0;
	for (;;) {
		uint64_t before = total;
		size_t was_left = left;

		for (i = 0; i < nspans; i++) {
			struct span *sp = &spans[i];
			struct mapped *m = &files[sp->file];

			if (sp->done)
				continue;
			total -= sp->resident;
			sp->resident = resident_bytes(m, sp->off, sp->len, &vec, &veccap);
			total += sp->resident;
			if (sp->resident < sp->len)
				continue;
			sp->done = 1;
			left--;
			m->pending--;
			s->last_ns = mono_ns();
			mark(markers, nmarkers, p, sp);
		}
		if (!o->wait || !left)
			break;
		now = mono_ns();
		if (total > before)
			progress_ns = now;
		if ((o->deadline_ns && now >= o->deadline_ns) ||
		    now - progress_ns >= BP_SETTLE_STALL_NS) {
			s->gave_up = 1;
			break;
		}
		if (now - reissue_ns >= REISSUE_NS) {
			for (i = 0; i < nspans; i++) {
				if (!spans[i].done)
					reissue(&files[spans[i].file], &spans[i],
						o->chunk[spans[i].file], &vec, &veccap);
			}
			reissue_ns = now;
		}
		pause = left < was_left ? POLL_NS : pause * 2 > POLL_MAX_NS ? POLL_MAX_NS : pause * 2;
		sleep_ns(pause);
	}
	s->resident = total;
	for (i = 0; i < p->nfiles; i++) {
		if (o->requested[i] && p->files[i].size && !files[i].pending)
			s->files_resident++;
		if (files[i].map)
			munmap(files[i].map, files[i].len);
	}
	free(vec);
	free(spans);
	free(files);
	return 0;
}
