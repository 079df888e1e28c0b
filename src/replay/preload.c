// SPDX-License-Identifier: GPL-2.0
/*
 * The preloader: request a pack's ranges with readahead(2) (or
 * posix_fadvise(WILLNEED)) so the reads a boot makes find their pages in
 * the cache. Files on rotational disks go to one thread in pack order
 * (physical order: no seeking back and forth); the others are shared by
 * several threads, which keeps a flash device's queue full.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "replay/preload.h"
#include "replay/resident.h"
#include "util/error.h"
#include "util/xalloc.h"

#define DEFAULT_THREADS 4
#define MAX_THREADS 64
/* The init wrapper's preloader: never longer than this. */
#define SPAWN_DEADLINE_NS (60ull * 1000000000ull)
#define SPAWN_ROOT "/proc/1/root"

/* A readahead(2) chunk when the disk's queue says nothing (no such device in /sys). */
#define DEFAULT_CHUNK_KB 128
#define MIN_CHUNK_KB 16

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_BE 2
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_WHO_PROCESS 1

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One list of files (indices into the pack), taken in order by its threads. */
struct queue {
	size_t *idx;
	size_t n;
	atomic_size_t next;
};

struct run {
	const struct bp_pack *pack;
	const struct bp_replay_opts *o;
	const char *root;
	uint64_t start_ns, deadline_ns;
	atomic_uint_fast64_t preloaded, stale, missing, unreadable, cut, bytes;
	atomic_int deadline_hit;
	size_t *requested;         /* per file: ranges whose reads were started */
	uint64_t *chunk;           /* per file: bytes one readahead(2) reads at most */
	int markers[BP_REPLAY_MAX_MARKERS], nmarkers;
};

static int past_deadline(struct run *r)
{
	if (!r->deadline_ns || now_ns() < r->deadline_ns)
		return 0;
	atomic_store(&r->deadline_hit, 1);
	return 1;
}

static int same_identity(const struct bp_pack_file *f, const struct stat *st)
{
	return S_ISREG(st->st_mode) && major(st->st_dev) == f->major &&
	       minor(st->st_dev) == f->minor && (uint64_t)st->st_ino == f->ino &&
	       (uint64_t)st->st_size == f->size && st->st_mtim.tv_sec == f->mtime_sec &&
	       st->st_mtim.tv_nsec == f->mtime_nsec && st->st_ctim.tv_sec == f->ctime_sec &&
	       st->st_ctim.tv_nsec == f->ctime_nsec;
}

/* Open without following a final link, never blocking on a FIFO put in its place. */
static int open_entry(const char *root, const struct bp_pack_file *f)
{
	char path[4096];
	int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, fd;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", root, f->path) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, flags | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(path, flags);
	return fd;
}

int bp_replay_open(const char *root, const struct bp_pack_file *f)
{
	struct stat st;
	int fd = open_entry(root, f);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !same_identity(f, &st)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

static void preload_file(struct run *r, size_t idx)
{
	const struct bp_pack_file *f = &r->pack->files[idx];
	unsigned ps = r->pack->page_size;
	uint64_t done = 0;
	size_t i;
	int fd;

	fd = bp_replay_open(r->root, f);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			atomic_fetch_add(&r->missing, 1);
		else if (errno == ELOOP || errno == ESTALE)
			atomic_fetch_add(&r->stale, 1);  /* changed, or a link now stands there */
		else
			atomic_fetch_add(&r->unreadable, 1);
		return;
	}
	for (i = 0; i < f->nranges; i++) {
		uint64_t off = f->ranges[i].start * ps, len = f->ranges[i].count * ps;
		int rc;

		if (off >= f->size)
			break;
		if (len > f->size - off)
			len = f->size - off;
		if (past_deadline(r)) {
			atomic_fetch_add(&r->cut, 1);
			break;
		}
		/* Before the reads: the recording tells what the request found cached. */
		bp_replay_mark(r->markers, r->nmarkers, "request", f, f->ranges[i].start,
			       (len + ps - 1) / ps);
		rc = bp_replay_chunk(fd, off, len, r->chunk[idx], r->o->fadvise);
		if (rc) {
			atomic_fetch_add(&r->unreadable, 1);
			break;
		}
		done += len;
		r->requested[idx] = i + 1;
	}
	atomic_fetch_add(&r->bytes, done);
	if (i == f->nranges || f->ranges[i].start * ps >= f->size)
		atomic_fetch_add(&r->preloaded, 1);
	close(fd);
}

static void set_ioprio(enum bp_ioprio prio)
{
	int v;

	if (prio == BP_IOPRIO_NORMAL)
		return;
	v = prio == BP_IOPRIO_IDLE ? IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT
				   : (IOPRIO_CLASS_BE << IOPRIO_CLASS_SHIFT) | 7;
	/* Per thread: 0 is the calling thread. Failing leaves the priority as it was. */
	(void)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, v);
}

struct worker {
	struct run *run;
	struct queue *q;
	pthread_t thread;
	int started;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	size_t k;

	set_ioprio(r->o->ioprio);
	for (;;) {
		k = atomic_fetch_add(&w->q->next, 1);
		if (k >= w->q->n)
			break;
		if (past_deadline(r)) {
			atomic_fetch_add(&r->cut, 1);
			continue;
		}
		preload_file(r, w->q->idx[k]);
	}
	return NULL;
}

/* A number in the whole disk's queue/NAME (a partition's is one level up), or -1. */
static long queue_value(const char *root, unsigned maj, unsigned min, const char *name)
{
	char path[512], buf[24];
	int fd, i;
	ssize_t n;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u/%squeue/%s", root, maj, min,
			 i ? "../" : "", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			return strtol(buf, NULL, 10);
		}
	}
	return -1;
}

struct dev_queue {
	unsigned maj, min;
	int rot;
	uint64_t chunk;
};

/*
 * readahead(2) and WILLNEED read at most max(read_ahead_kb, max_sectors_kb)
 * of what they are asked for and drop the rest without a word
 * (force_page_cache_ra()): a range is asked for in pieces that size.
 */
static uint64_t chunk_bytes(const char *root, unsigned maj, unsigned min)
{
	long ra = queue_value(root, maj, min, "read_ahead_kb");
	long io = queue_value(root, maj, min, "max_sectors_kb");
	long kb = ra > io ? ra : io;

	return (uint64_t)(kb >= MIN_CHUNK_KB ? kb : DEFAULT_CHUNK_KB) * 1024u;
}

/* The file's disk: rotating or not, and its chunk (bp_replay_chunk()). */
static const struct dev_queue *file_queue(struct run *r, const struct bp_pack_file *f,
					  struct dev_queue **cache, size_t *n, size_t *cap)
{
	struct dev_queue *d;
	size_t i;

	for (i = 0; i < *n; i++) {
		if ((*cache)[i].maj == f->major && (*cache)[i].min == f->minor)
			return &(*cache)[i];
	}
	BP_GROW(*cache, *n, *cap);
	d = &(*cache)[(*n)++];
	d->maj = f->major;
	d->min = f->minor;
	d->rot = (int)queue_value(r->root, f->major, f->minor, "rotational");
	if (d->rot < 0)
		d->rot = r->pack->disk_order;  /* unknown here: trust the pack's maker */
	d->chunk = chunk_bytes(r->root, f->major, f->minor);
	return d;
}

int bp_replay_chunk(int fd, uint64_t off, uint64_t len, uint64_t chunk, int fadvise)
{
	while (len) {
		uint64_t n = len < chunk ? len : chunk;
		int rc;

		if (fadvise) {
			rc = posix_fadvise(fd, (off_t)off, (off_t)n, POSIX_FADV_WILLNEED);
		} else {
			rc = readahead(fd, (off64_t)off, (size_t)n) ? errno : 0;
			/* A filesystem without readahead support: the advice path. */
			if (rc == EINVAL)
				rc = posix_fadvise(fd, (off_t)off, (off_t)n, POSIX_FADV_WILLNEED);
		}
		if (rc)
			return rc;
		off += n;
		len -= n;
	}
	return 0;
}

/* What of the requested ranges is resident now, or, with --wait, once it all is. */
static void settle(struct run *r, struct bp_replay_stats *st)
{
	struct bp_settle_opts so = { r->root, r->requested, r->chunk, r->o->wait, r->deadline_ns,
				     r->markers, r->nmarkers };
	struct bp_settle s;

	bp_replay_settle(r->pack, &so, &s);
	st->resident = s.resident;
	st->resident_files = s.files_resident;
	st->waited = r->o->wait;
	st->wait_gave_up = s.gave_up;
	if (s.gave_up && r->deadline_ns && now_ns() >= r->deadline_ns)
		atomic_store(&r->deadline_hit, 1);
	/* Nothing became resident: it took as long as starting the reads. */
	st->resident_ns = s.last_ns > r->start_ns ? s.last_ns - r->start_ns : st->started_ns;
}

int bp_replay_run(const struct bp_pack *p, const struct bp_replay_opts *o,
		  struct bp_replay_stats *st)
{
	static const struct bp_replay_opts defaults = { 0 };
	struct queue seq = { 0 }, par = { 0 };
	struct dev_queue *devs = NULL;
	size_t ndevs = 0, cdevs = 0, i, nworkers;
	struct worker *w;
	struct run r;
	int nthreads, started = 0;

	if (!o)
		o = &defaults;
	memset(st, 0, sizeof(*st));
	memset(&r, 0, sizeof(r));
	r.pack = p;
	r.o = o;
	r.root = o->root ? o->root : "";
	r.start_ns = now_ns();
	r.deadline_ns = o->deadline_ns ? r.start_ns + o->deadline_ns : 0;
	r.requested = xcalloc(p->nfiles + 1, sizeof(*r.requested));
	r.chunk = xcalloc(p->nfiles + 1, sizeof(*r.chunk));
	r.nmarkers = bp_replay_markers_open(o->tracefs_root ? o->tracefs_root : "", r.markers);
	seq.idx = xcalloc(p->nfiles + 1, sizeof(*seq.idx));
	par.idx = xcalloc(p->nfiles + 1, sizeof(*par.idx));
	for (i = 0; i < p->nfiles; i++) {
		const struct dev_queue *d = file_queue(&r, &p->files[i], &devs, &ndevs, &cdevs);

		r.chunk[i] = d->chunk;
		if (d->rot > 0)
			seq.idx[seq.n++] = i;
		else
			par.idx[par.n++] = i;
	}
	free(devs);
	nthreads = o->threads > 0 ? o->threads : DEFAULT_THREADS;
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	if ((size_t)nthreads > par.n)
		nthreads = (int)par.n;
	nworkers = (size_t)nthreads + (seq.n ? 1 : 0);
	w = xcalloc(nworkers + 1, sizeof(*w));
	for (i = 0; i < nworkers; i++) {
		w[i].run = &r;
		w[i].q = seq.n && i == nworkers - 1 ? &seq : &par;
		w[i].started = !pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
		started += w[i].started;
	}
	if (nworkers && !started) {
		/* No thread at all: do it here, in order, rather than not at all. */
		w[0].q = &seq;
		worker_main(&w[0]);
		w[0].q = &par;
		worker_main(&w[0]);
	} else if (started < (int)nworkers) {
		/* A queue whose thread did not start is drained here. */
		for (i = 0; i < nworkers; i++) {
			if (!w[i].started)
				worker_main(&w[i]);
		}
	}
	for (i = 0; i < nworkers; i++) {
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
	}
	st->files = p->nfiles;
	st->preloaded = atomic_load(&r.preloaded);
	st->stale = atomic_load(&r.stale);
	st->missing = atomic_load(&r.missing);
	st->unreadable = atomic_load(&r.unreadable);
	st->cut = atomic_load(&r.cut);
	st->bytes = atomic_load(&r.bytes);
	st->rotational_files = seq.n;
	st->threads = nthreads + (seq.n ? 1 : 0);
	st->started_ns = now_ns() - r.start_ns;
	settle(&r, st);
	st->elapsed_ns = now_ns() - r.start_ns;
	st->deadline_hit = atomic_load(&r.deadline_hit);
	while (r.nmarkers > 0)
		close(r.markers[--r.nmarkers]);
	free(r.requested);
	free(r.chunk);
	free(w);
	free(seq.idx);
	free(par.idx);
	return 0;
}

/* "S.mmm": seconds with milliseconds. */
static void secs(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%03" PRIu64, ns / 1000000000u, ns / 1000000u % 1000u);
}

void bp_replay_summary(const struct bp_replay_stats *st, char *buf, size_t size)
{
	char started[32], resident[32], elapsed[32];
	size_t n;

	secs(started, sizeof(started), st->started_ns);
	secs(resident, sizeof(resident), st->resident_ns);
	secs(elapsed, sizeof(elapsed), st->elapsed_ns);
	/* "preloaded" only for pages a reader finds without waiting. */
	if (st->waited && !st->wait_gave_up)
		snprintf(buf, size,
			 "preloaded %" PRIu64 " of %" PRIu64 " files, %" PRIu64
			 " bytes resident in %s s (reads started in %s s",
			 st->resident_files, st->files, st->resident, resident, started);
	else
		snprintf(buf, size,
			 "started reads of %" PRIu64 " of %" PRIu64 " files, %" PRIu64
			 " bytes in %s s; %" PRIu64 " bytes resident %s %s s (",
			 st->preloaded, st->files, st->bytes, started, st->resident,
			 st->waited ? "when waiting stopped after" : "at exit, after", elapsed);
	n = strlen(buf);
	snprintf(buf + n, size > n ? size - n : 0,
		 "%sthreads %d, %" PRIu64 " files in disk order); skipped %" PRIu64
		 " stale, %" PRIu64 " missing, %" PRIu64 " unreadable; %s",
		 st->waited && !st->wait_gave_up ? "; " : "", st->threads, st->rotational_files,
		 st->stale, st->missing, st->unreadable,
		 st->deadline_hit ? "stopped at the deadline" : "deadline not reached");
	if (st->deadline_hit && size > 0) {
		n = strlen(buf);
		snprintf(buf + n, size - n, " (%" PRIu64 " files not preloaded)", st->cut);
	}
}

static void kmsg_line(const char *what, const char *msg)
{
	char line[1024];
	int fd, n;

	snprintf(line, sizeof(line) - 1, "<5>" BP_REPLAY_COMM ": %s%s", what, msg);
	n = (int)strlen(line);
	line[n++] = '\n';
	/* PID 1's /dev: an initramfs moves its /dev to the real root. */
	fd = open(SPAWN_ROOT "/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) < 0) {
		/* Nowhere else to say it: a preloader has no console of its own. */
	}
	close(fd);
}

/*
 * Wait for the pack to appear in PID 1's root: while PID 1 is still in the
 * initramfs the pack (on the real root) is not there yet. Once PID 1's root
 * changed, or the deadline passed, look once more and take the answer.
 */
static struct bp_pack *wait_for_pack(const char *path, uint64_t deadline)
{
	char full[4096];
	struct stat first, now;
	int have_first;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", SPAWN_ROOT, path) >= sizeof(full)) {
		bp_set_error("pack path too long");
		return NULL;
	}
	have_first = stat(SPAWN_ROOT "/", &first) == 0;
	while (access(full, F_OK) && have_first && now_ns() < deadline) {
		if (stat(SPAWN_ROOT "/", &now) == 0 &&
		    (now.st_dev != first.st_dev || now.st_ino != first.st_ino)) {
			usleep(100000);  /* the new root's mounts settle */
			break;
		}
		usleep(20000);
	}
	return bp_pack_load(full);
}

int bp_replay_spawn(const char *pack_path)
{
	struct bp_replay_opts o = { 0 };
	struct bp_replay_stats st;
	struct bp_pack *p;
	char line[512];
	uint64_t deadline;
	pid_t pid;

	pid = fork();
	if (pid != 0)
		return pid < 0 ? -1 : (int)pid;
	/* The child: its own process, named so a recording tells its reads apart. */
	prctl(PR_SET_NAME, BP_REPLAY_COMM, 0, 0, 0);
	signal(SIGPIPE, SIG_IGN);
	setsid();
	if (chdir("/") < 0) {
		/* "/" always exists. */
	}
	deadline = now_ns() + SPAWN_DEADLINE_NS;
	p = wait_for_pack(pack_path, deadline);
	if (!p) {
		kmsg_line("not replaying: ", bp_last_error());
		_exit(0);
	}
	o.root = SPAWN_ROOT;
	/* The initramfs moved /sys into the real root: the recording's tracefs is there. */
	o.tracefs_root = SPAWN_ROOT;
	/* Waiting costs PID 1 nothing and makes the summary say what is resident. */
	o.wait = 1;
	o.deadline_ns = deadline - now_ns();
	bp_replay_run(p, &o, &st);
	bp_replay_summary(&st, line, sizeof(line));
	kmsg_line("", line);
	bp_pack_free(p);
	_exit(0);
}

void bp_replay_boot(void)
{
	char cmdline[4096], *word, *save = NULL;
	ssize_t n = -1;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	if (n <= 0)
		return;
	cmdline[n] = '\0';
	for (word = strtok_r(cmdline, " \t\n", &save); word; word = strtok_r(NULL, " \t\n", &save)) {
		if (strncmp(word, "bootprof.replay=", 16))
			continue;
		if (word[16] != '/') {
			kmsg_line("not replaying: the pack must be an absolute path: ", word + 16);
			return;
		}
		bp_replay_spawn(word + 16);
		return;
	}
}
