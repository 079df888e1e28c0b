// SPDX-License-Identifier: GPL-2.0
/* A live recording readable while it grows (see live.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/live.h"
#include "resolve/resolve.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

#define LIVE_BUFFER_KB 8192
#define LIVE_BUFFER_PERCENT 25

struct bp_live {
	char *dir;              /* private temporary directory */
	char *spool_path;       /* the growing recording (never finished) */
	char *snap_path[2];     /* complete snapshots, used in turn */
	int snap;               /* the one the reader is on */
	struct bp_writer *w;
	struct bp_capture *c;
	struct bp_reader *reader;
	struct bp_meta known;   /* paths found so far (only paths), looked up once */
	/* Spooled bytes per CPU at each update: marks[u % (MAX_RECENT + 1)][cpu]. */
	uint64_t *marks[BP_LIVE_MAX_RECENT + 1];
	uint64_t updates;
	int ncpus;
	int page_size;
	uint64_t start_ns;
};

static uint64_t boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct bp_live *bp_live_start(void)
{
	struct bp_capture_config cfg = { 0 };
	const char *tmp = getenv("TMPDIR");
	struct bp_live *l;
	char name[64];
	int mounted, i;

	if (bp_tracefs_ready(&mounted) < 0)
		return NULL;
	l = xcalloc(1, sizeof(*l));
	bp_meta_init(&l->known);
	l->ncpus = bp_tracefs_ncpus();
	l->page_size = bp_tracefs_page_size();
	if (l->ncpus < 0)
		goto out_free;
	for (i = 0; i <= BP_LIVE_MAX_RECENT; i++)
		l->marks[i] = xcalloc((size_t)l->ncpus, sizeof(*l->marks[i]));
	l->dir = xasprintf("%s/bootprof-top-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(l->dir)) {
		bp_set_error_errno("cannot create a directory like '%s'", l->dir);
		goto out_free;
	}
	l->spool_path = xasprintf("%s/live.dat", l->dir);
	l->snap_path[0] = xasprintf("%s/snapshot-0.dat", l->dir);
	l->snap_path[1] = xasprintf("%s/snapshot-1.dat", l->dir);
	l->w = bp_writer_create(l->spool_path, 0, l->ncpus, l->page_size);
	if (!l->w)
		goto out_free;
	bp_capture_instance_name(name, sizeof(name));
	cfg.name = name;
	cfg.buffer_kb = LIVE_BUFFER_KB;
	cfg.buffer_percent = LIVE_BUFFER_PERCENT;
	cfg.clock = "boot";
	l->c = bp_capture_new(&cfg);
	if (!l->c)
		goto out_free;
	if (bp_capture_start(l->c, l->w) < 0)
		goto out_free;
	l->start_ns = boot_ns();
	return l;

out_free:
	bp_live_free(l);
	return NULL;
}

/* The whole pages spooled so far for one CPU (bytes). */
static int spooled(int fd, int page_size, uint64_t *len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	*len = (uint64_t)st.st_size / (uint64_t)page_size * (uint64_t)page_size;
	return 0;
}

/* Append bytes [from, len) of one CPU's spool to the snapshot's. */
static int copy_cpu(int in, int out, uint64_t from, uint64_t len)
{
	loff_t off = (loff_t)from;

	while (off < (loff_t)len) {
		ssize_t n = copy_file_range(in, &off, out, NULL, len - (uint64_t)off, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			char buf[65536];

			/* Not supported across these files: copy through memory. */
			n = pread(in, buf, sizeof(buf) < len - (uint64_t)off ? sizeof(buf) :
				  len - (uint64_t)off, off);
			if (n <= 0 || write(out, buf, (size_t)n) != n)
				return -1;
			off += n;
		}
	}
	return 0;
}

/* The machine facts, the paths of the inodes seen, the statistics so far. */
static int fill_meta(struct bp_live *l, struct bp_meta *m, struct bp_writer *snap,
		     const struct bp_trace_headers *h)
{
	struct bp_reader *pages;
	size_t i;
	int ret;

	m->bootprof_version = xstrdup(BOOTPROF_VERSION);
	m->clock = xstrdup("boot");
	m->stop_reason = xstrdup("live");
	m->ncpus = l->ncpus;
	m->page_size = l->page_size;
	m->start_ns = l->start_ns;
	m->stop_ns = boot_ns();
	if (bp_capture_fill_meta(l->c, m) < 0)
		return -1;
	/* The threads alive now: which process each belongs to. */
	if (bp_resolve_tasks(m, "/proc") < 0 || bp_resolve_system(m) < 0)
		return -1;
	/* The snapshot's pages only: what is older was looked up before. */
	pages = bp_writer_reader(snap, h);
	if (!pages)
		return -1;
	/* New inodes only, by handle: a walk of the whole disk every interval would never end. */
	l->known.unresolved = 0;
	ret = bp_resolve_paths_how(&l->known, pages, NULL, 0);
	bp_reader_free(pages);
	for (i = 0; i < l->known.npaths; i++)
		bp_meta_add_path(m, l->known.paths[i].dev, l->known.paths[i].ino,
				 l->known.paths[i].path);
	m->unresolved = l->known.unresolved;
	bp_meta_sort_paths(m);
	return ret;
}

int bp_live_update(struct bp_live *l, unsigned recent)
{
	struct bp_trace_headers h = { 0 };
	uint64_t *now, *from = NULL;
	struct bp_writer *snap;
	struct bp_reader *r;
	struct bp_meta m;
	int cpu, ret = -1, next = !l->snap;

	if (bp_capture_write_error(l->c)) {
		errno = bp_capture_write_error(l->c);
		bp_set_error_errno("cannot write the live recording");
		return -1;
	}
	bp_meta_init(&m);
	if (bp_capture_flush(l->c) < 0)
		goto out_meta;
	if (bp_capture_headers(l->c, &h) < 0)
		goto out_meta;
	now = l->marks[l->updates % (BP_LIVE_MAX_RECENT + 1)];
	for (cpu = 0; cpu < l->ncpus; cpu++) {
		if (spooled(bp_writer_cpu_fd(l->w, cpu), l->page_size, &now[cpu]) < 0) {
			bp_set_error_errno("cannot read the live recording");
			goto out_headers;
		}
	}
	if (recent > BP_LIVE_MAX_RECENT)
		recent = BP_LIVE_MAX_RECENT;
	if (recent && l->updates >= recent)
		from = l->marks[(l->updates - recent) % (BP_LIVE_MAX_RECENT + 1)];
	/* Not the file the reader maps: a failed update leaves it usable. */
	snap = bp_writer_create(l->snap_path[next], 1, l->ncpus, l->page_size);
	if (!snap)
		goto out_headers;
	for (cpu = 0; cpu < l->ncpus; cpu++) {
		if (copy_cpu(bp_writer_cpu_fd(l->w, cpu), bp_writer_cpu_fd(snap, cpu),
			     from ? from[cpu] : 0, now[cpu]) < 0) {
			bp_set_error_errno("cannot copy the live recording");
			goto out_abort;
		}
	}
	if (fill_meta(l, &m, snap, &h) < 0)
		goto out_abort;
	ret = bp_writer_finish(snap, &h, &m);
	bp_writer_free(snap);
	if (ret < 0)
		goto out_headers;
	r = bp_reader_open(l->snap_path[next]);
	if (!r) {
		ret = -1;
		goto out_headers;
	}
	bp_reader_free(l->reader);
	l->reader = r;
	l->snap = next;
	l->updates++;
	goto out_headers;

out_abort:
	bp_writer_abort(snap);
	bp_writer_free(snap);
out_headers:
	bp_trace_headers_release(&h);
out_meta:
	bp_meta_release(&m);
	return ret;
}

struct bp_reader *bp_live_reader(struct bp_live *l)
{
	if (!l->reader)
		bp_set_error("nothing recorded yet");
	return l->reader;
}

void bp_live_free(struct bp_live *l)
{
	int i;

	if (!l)
		return;
	if (l->c) {
		bp_capture_stop(l->c);
		bp_capture_free(l->c);
	}
	bp_reader_free(l->reader);
	bp_meta_release(&l->known);
	for (i = 0; i <= BP_LIVE_MAX_RECENT; i++)
		free(l->marks[i]);
	if (l->w) {
		bp_writer_abort(l->w);
		bp_writer_free(l->w);
	}
	for (i = 0; i < 2; i++) {
		if (l->snap_path[i])
			unlink(l->snap_path[i]);
		free(l->snap_path[i]);
	}
	if (l->dir)
		rmdir(l->dir);
	free(l->spool_path);
	free(l->dir);
	free(l);
}
