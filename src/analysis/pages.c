// SPDX-License-Identifier: GPL-2.0
/*
 * Pages: devices, files and disks; page-cache insertions (read from
 * storage or created by writes), deletions, faults, accesses, readahead
 * and bios (block requests: requests.c).
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/build.h"
#include "util/error.h"
#include "util/xalloc.h"

int bp_disk_add(struct state *s, uint32_t dev, const char *name, int rotational,
		    uint64_t size)
{
	struct bp_disk_stat *d;

	if (s->ndisks == s->cdisks) {
		size_t old = s->cdisks;

		BP_GROW(s->disks, s->ndisks, s->cdisks);
		s->flight = xrealloc(s->flight, s->cdisks * sizeof(*s->flight));
		memset(s->flight + old, 0, (s->cdisks - old) * sizeof(*s->flight));
	}
	d = &s->disks[s->ndisks];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->name = name ? xstrdup(name) : xasprintf("%u:%u", BP_DEV_MAJOR(dev), BP_DEV_MINOR(dev));
	d->rotational = rotational;
	d->size = size;
	return (int)s->ndisks++;
}

int bp_disk_exact(const struct state *s, uint32_t dev)
{
	size_t i;

	for (i = 0; i < s->ndisks; i++) {
		if (s->disks[i].dev == dev)
			return (int)i;
	}
	return -1;
}

/*
 * The disk a filesystem or partition device lives on: the disk with that
 * dev; else the disk whose name prefixes the mount source's name (vda1 ->
 * vda); else the same major with the nearest lower minor (8:1 -> 8:0).
 */
int bp_disk_of_dev(struct state *s, uint32_t dev)
{
	int d = bp_disk_exact(s, dev), best = -1;
	size_t i, bestlen = 0;

	if (d >= 0)
		return d;
	for (i = 0; s->meta && i < s->meta->nmounts; i++) {
		const struct bp_mount *mt = &s->meta->mounts[i];
		const char *src;
		size_t j;

		if (mt->dev != dev || !mt->source || strncmp(mt->source, "/dev/", 5))
			continue;
		src = mt->source + 5;
		for (j = 0; j < s->ndisks; j++) {
			size_t l = strlen(s->disks[j].name);

			if (l > bestlen && !strncmp(src, s->disks[j].name, l)) {
				best = (int)j;
				bestlen = l;
			}
		}
		if (best >= 0)
			return best;
	}
	for (i = 0; i < s->ndisks; i++) {
		uint32_t dd = s->disks[i].dev;

		if (BP_DEV_MAJOR(dd) == BP_DEV_MAJOR(dev) && dd <= dev &&
		    (best < 0 || dd > s->disks[best].dev))
			best = (int)i;
	}
	return best;
}

static const char *const nonblock_fs[] = {
	"tmpfs", "ramfs", "rootfs", "proc", "sysfs", "devtmpfs", "devpts", "debugfs",
	"tracefs", "securityfs", "cgroup", "cgroup2", "pstore", "bpf", "configfs",
	"hugetlbfs", "mqueue", "fusectl", "efivarfs", "binfmt_misc", "autofs", "nfs",
	"nfs4", "cifs", "smb3", "9p", "virtiofs", "fuse", "overlay", "nsfs", "pipefs",
	"sockfs", "anon_inodefs",
};

/* Whether dev holds a block-backed filesystem; cached per dev. */
static uint64_t dev_class(struct state *s, uint32_t dev)
{
	uint64_t *slot;
	int inserted, cls = 0, disk = -1;
	size_t i, j;

	slot = bp_map_put(&s->devclass, dev, 0, &inserted);
	if (!inserted)
		return *slot;
	if (dev == BP_DEV(0, 3)) {
		cls = DC_METADATA;
	} else {
		for (i = 0; s->meta && i < s->meta->nmounts && !cls; i++) {
			const struct bp_mount *mt = &s->meta->mounts[i];

			if (mt->dev != dev)
				continue;
			for (j = 0; mt->fstype && j < sizeof(nonblock_fs) / sizeof(nonblock_fs[0]); j++) {
				if (!strcmp(mt->fstype, nonblock_fs[j]))
					cls = DC_NONBLOCK;
			}
			if (!cls && mt->source && !strncmp(mt->source, "/dev/", 5))
				cls = DC_BLOCK;
		}
		if (!cls)
			cls = BP_DEV_MAJOR(dev) ? DC_BLOCK : DC_NONBLOCK;
		if (cls == DC_BLOCK)
			disk = bp_disk_of_dev(s, dev);
	}
	slot = bp_map_put(&s->devclass, dev, 0, NULL);
	*slot = (uint64_t)cls | (uint64_t)(disk + 1) << 8;
	return *slot;
}

static uint32_t file_of(struct state *s, uint32_t dev, uint64_t ino, int cls, int disk)
{
	uint64_t *slot;
	int inserted;
	struct efile *f;

	slot = bp_map_put(&s->filemap, dev, ino, &inserted);
	if (!inserted)
		return (uint32_t)*slot;
	*slot = s->nfiles;
	BP_GROW(s->files, s->nfiles, s->cfiles);
	f = &s->files[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->dev = dev;
	f->ino = ino;
	f->disk = disk;
	if (cls == DC_METADATA) {
		f->kind = BP_FILE_METADATA;
		f->disk = bp_disk_of_dev(s, (uint32_t)ino);
		if (f->disk < 0)
			f->disk = bp_disk_add(s, (uint32_t)ino, NULL, -1, 0);
	}
	return (uint32_t)s->nfiles++;
}

/* The file of a filemap event, or NONE for a file on a non-block filesystem. */
static uint32_t event_file(struct state *s, const struct bp_event *ev, const struct handler *h,
			   uint64_t nonblock_bytes)
{
	uint32_t dev = (uint32_t)rd(s, ev, h->f[F_DEV]);
	uint64_t ino = rd(s, ev, h->f[F_INO]);
	struct file_cache *fc = &s->fcache[(ino * 0x9e3779b1u ^ dev) & (FILE_CACHE - 1)];
	uint64_t c;

	if (!fc->valid || fc->dev != dev || fc->ino != ino) {
		c = dev_class(s, dev);
		fc->valid = 1;
		fc->dev = dev;
		fc->ino = ino;
		fc->file = (c & 0xff) == DC_NONBLOCK ? NONE :
			   file_of(s, dev, ino, (int)(c & 0xff), (int)(c >> 8) - 1);
	}
	if (fc->file == NONE && nonblock_bytes && in_window(s, ev->ts))
		s->tot.nonblock_bytes += nonblock_bytes;
	return fc->file;
}

struct eacc *bp_access_of(struct state *s, uint32_t task, uint32_t file, uint64_t ts)
{
	struct task *t = &s->tasks[task];
	uint64_t *slot;
	int inserted;
	struct eacc *a;

	/*
	 * Insertions are settled after the fact (settle_read_bio,
	 * bp_settle_inserts), with their own earlier times: first and last
	 * are a min and a max.
	 */
	if (t->acc_file == file && t->acc_file != NONE) {
		a = &s->acc[t->acc_idx];
		if (ts < a->first)
			a->first = ts;
		if (ts > a->last)
			a->last = ts;
		return a;
	}
	slot = bp_map_put(&s->accmap, task, file, &inserted);
	if (inserted) {
		BP_GROW(s->acc, s->nacc, s->cacc);
		a = &s->acc[s->nacc];
		memset(a, 0, sizeof(*a));
		a->task = task;
		a->file = file;
		a->first = ts;
		*slot = s->nacc++;
	}
	a = &s->acc[*slot];
	if (ts < a->first)
		a->first = ts;
	if (ts > a->last)
		a->last = ts;
	t->acc_file = file;
	t->acc_idx = (uint32_t)*slot;
	return a;
}

/* An event of task t on file f inside the window: the file is touched. */
static struct eacc *touch(struct state *s, struct task *t, uint32_t file, uint64_t ts)
{
	struct efile *f = &s->files[file];

	if (!in_window(s, ts) || (t && t->recorder))
		return NULL;
	if (!f->seen) {
		f->seen = 1;
		f->first = f->last = ts;
	}
	if (ts < f->first)
		f->first = ts;
	if (ts > f->last)
		f->last = ts;
	if (!t)
		return NULL;
	return bp_access_of(s, (uint32_t)(t - s->tasks), file, ts);
}

static inline uint64_t range_mask(uint64_t lo, uint64_t hi)
{
	/* bits lo..hi-1 of a 64-bit word, 0 <= lo < hi <= 64 */
	uint64_t m = hi == 64 ? ~0ull : (1ull << hi) - 1;

	return m & ~((1ull << lo) - 1);
}

/*
 * Pages [first, first + n) were accessed (mapped 0): the pending ones
 * become used. Or they were mapped by fault-around (mapped 1): the kernel
 * put them in a page table around a faulting address without saying which
 * one faulted, so the pending ones stay pending, marked mapped - neither
 * used nor never used unless a later access or the end decides.
 */
static void pages_access(struct state *s, uint32_t file, uint64_t first, uint64_t n, int mapped)
{
	struct efile *f = &s->files[file];
	uint64_t p = first, end = first + n;

	/* No page at or past size_pages was read: a bogus range ends there. */
	if (end < first || end > f->size_pages)
		end = f->size_pages;
	while (p < end && f->pending) {
		struct bp_page_chunk *c = bp_pages_chunk(s->pages, file, p >> 6, 0);
		uint64_t lo = p & 63, hi = (end - (p & ~63ull)) > 64 ? 64 : end - (p & ~63ull);
		uint64_t m, hit;

		if (c) {
			m = range_mask(lo, hi);
			hit = c->pending & m;
			if (hit && mapped) {
				c->mapped |= hit;
			} else if (hit) {
				unsigned k = (unsigned)__builtin_popcountll(hit);

				c->pending &= ~hit;
				c->mapped &= ~hit;
				c->used |= hit;
				f->pending -= k;
				f->used += (uint64_t)k * s->ps;
			}
		}
		if ((p | 63) == UINT64_MAX)
			break;   /* the last chunk of the index space */
		p = (p | 63) + 1;
	}
}

/*
 * Pages [first, first + n) were inserted: read from storage (inw: inside
 * the window) or, with written, created by a buffered write. A written
 * page deleted and read again is read once, not re-read.
 */
static void pages_insert(struct state *s, uint32_t file, uint64_t first, uint64_t n, int inw,
			 int written)
{
	struct efile *f = &s->files[file];
	uint64_t p = first, end = first + n;

	while (p < end) {
		struct bp_page_chunk *c = bp_pages_chunk(s->pages, file, p >> 6, 1);
		uint64_t lo = p & 63, hi = (end - (p & ~63ull)) > 64 ? 64 : end - (p & ~63ull);
		uint64_t m = range_mask(lo, hi);

		if (inw) {
			uint64_t again = c->deleted & m, fresh = m & ~c->pending;

			c->reread |= again;
			f->reread += (uint64_t)__builtin_popcountll(again) * s->ps;
			c->read |= m;
			c->used &= ~m;
			c->mapped &= ~m;
			c->pending |= m;
			f->pending += (uint64_t)__builtin_popcountll(fresh);
		}
		c->deleted &= ~m;
		if (written)
			c->written |= m;
		else
			c->written &= ~m;
		if ((p | 63) == UINT64_MAX)
			break;   /* the last chunk of the index space */
		p = (p | 63) + 1;
	}
}

static void pages_delete(struct state *s, uint32_t file, uint64_t first, uint64_t n)
{
	struct efile *f = &s->files[file];
	uint64_t p = first, end = first + n;

	while (p < end) {
		struct bp_page_chunk *c = bp_pages_chunk(s->pages, file, p >> 6, 1);
		uint64_t lo = p & 63, hi = (end - (p & ~63ull)) > 64 ? 64 : end - (p & ~63ull);
		uint64_t m = range_mask(lo, hi), gone = c->pending & m;

		if (gone) {
			uint64_t mapped = gone & c->mapped;

			c->pending &= ~gone;
			f->pending -= (unsigned)__builtin_popcountll(gone);
			f->mapped += (uint64_t)__builtin_popcountll(mapped) * s->ps;
			f->never += (uint64_t)__builtin_popcountll(gone & ~mapped) * s->ps;
		}
		c->deleted |= m & ~c->written;
		c->written &= ~m;
		if ((p | 63) == UINT64_MAX)
			break;   /* the last chunk of the index space */
		p = (p | 63) + 1;
	}
}

/* Pages [index, index + n) of file fi were read from storage by t at ts. */
static void account_read(struct state *s, struct task *t, uint32_t fi, uint64_t index, uint64_t n,
			 uint64_t ts)
{
	struct efile *f = &s->files[fi];
	uint64_t bytes = n * s->ps;
	int inw = in_window(s, ts);

	pages_insert(s, fi, index, n, inw, 0);
	if (index + n > f->size_pages)
		f->size_pages = index + n;
	if (t) {
		t->read_io = 1;
		t->last_file = fi;
	}
	/* The fault that asked for this page came first: it uses it. */
	if (t && t->in_fault && t->fault_file == fi && t->fault_index >= index &&
	    t->fault_index < index + n)
		pages_access(s, fi, t->fault_index, 1, 0);
	if (inw && !(t && t->recorder)) {
		struct eacc *a = touch(s, t, fi, ts);
		struct bp_bucket *b = bp_bucket_at(s, ts);

		f->bytes += bytes;
		if (a)
			a->bytes += bytes;
		if (t) {
			t->bytes += bytes;
			if (f->kind == BP_FILE_METADATA)
				t->meta_bytes += bytes;
		}
		if (b)
			b->read_bytes += bytes;
	}
}

/*
 * Whether t inserts pages into file fi in a read context: inside a syscall
 * that only reads files (read, pread, readv, preadv, readahead(2)),
 * execve or getdents, in a page fault on that file, or in sendfile,
 * splice or copy_file_range on the file its readahead or reads named
 * (sys_read_file; the other file is the copy, created). There the kernel
 * inserts a page to read it - or to zero it, for a hole of a sparse file
 * or an unwritten extent, with no I/O at all. Elsewhere a page may be
 * created: a buffered write, a new directory or inode block in
 * open(O_CREAT), a kernel thread's work, a task without syscall events
 * (its fault context has no end).
 */
static int read_context(const struct task *t, uint32_t fi)
{
	if (!t->sys_ctx)
		return 0;
	if (t->in_fault && t->fault_file == fi)
		return 1;
	switch (t->sys) {
	case BP_CAUSE_READ:
		return !t->sys_copies || fi == t->sys_read_file;
	case BP_CAUSE_EXEC:
	case BP_CAUSE_GETDENTS:
		return 1;
	default:
		return 0;
	}
}

/* The pages of run p were created (a buffered write, a hole zeroed with no I/O): not read. */
static void account_created(struct state *s, const struct pend_insert *p)
{
	pages_insert(s, p->file, p->index, p->n, 0, 1);
	if (in_window(s, p->ts))
		s->tot.write_insert_bytes += p->n * s->ps;
}

/*
 * Settle t's inserted pages at a syscall boundary, a fault or (end) its
 * exit or the end of the pass. Unless the recording has no
 * block_bio_queue at all (then every insertion is a read), a run no read
 * bio of the task claimed (settle_read_bio) is read when the task waited
 * on it (bp_held_waited), else created by a buffered write or a hole (no
 * I/O). One of a read context may still be read: a throttle holds its
 * bio and a kworker queues it later, maybe after the syscall returned
 * (readahead the reader has not waited for yet). It is held until a wait
 * shows it read, a read bio of the task's own shows that nothing held it
 * (see bp_on_bio_queue), or the task ends. Runs readahead(2) inserted are
 * read then: it only starts reads and never waits (a preloader), and a
 * hole it zeroes is the rare exception.
 */
static void settle(struct state *s, struct task *t, int end)
{
	int read = !s->kind_count[EV_BIO_QUEUE];
	size_t i, keep = 0;

	for (i = 0; i < t->npend; i++) {
		struct pend_insert *p = &t->pend[i];

		if (read || p->waited || (end && p->prefetch && !p->bio_since)) {
			account_read(s, t, p->file, p->index, p->n, p->ts);
		} else if (!end && p->rctx && !p->bio_since) {
			BP_GROW(t->held, t->nheld, t->cheld);
			t->held[t->nheld++] = *p;
		} else {
			account_created(s, p);
		}
	}
	t->npend = 0;
	t->read_credit = 0;
	if (!end && !t->waited_runs)
		return;
	for (i = 0; i < t->nheld; i++) {
		struct pend_insert *p = &t->held[i];

		if (p->waited || (end && p->prefetch))
			account_read(s, t, p->file, p->index, p->n, p->ts);
		else if (end)
			account_created(s, p);
		else
			t->held[keep++] = *p;
	}
	t->nheld = keep;
	t->waited_runs = 0;
}

void bp_settle_inserts(struct state *s, struct task *t)
{
	settle(s, t, 0);
}

void bp_settle_end(struct state *s, struct task *t)
{
	if (t->npend || t->nheld)
		settle(s, t, 1);
}

/*
 * The runs t waited on are read (see bp_held_waited): settled before an
 * access of the task, so that it finds their pages. The others stay
 * where they are: a read bio of the task's own may still claim the last
 * one (settle_read_bio).
 */
static void settle_waited(struct state *s, struct task *t)
{
	struct pend_insert *runs[2] = { t->pend, t->held };
	size_t *n[2] = { &t->npend, &t->nheld }, i, k, keep;

	if (!t->waited_runs)
		return;
	for (k = 0; k < 2; k++) {
		for (i = keep = 0; i < *n[k]; i++) {
			struct pend_insert *p = &runs[k][i];

			if (p->waited)
				account_read(s, t, p->file, p->index, p->n, p->ts);
			else
				runs[k][keep++] = *p;
		}
		*n[k] = keep;
	}
	t->waited_runs = 0;
}

void bp_on_add(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint64_t order = h->f[F_ORDER].size ? rd(s, ev, h->f[F_ORDER]) : 0;
	uint64_t n = 1ull << (order > 20 ? 20 : order);
	uint64_t index = rd(s, ev, h->f[F_INDEX]);
	uint32_t fi = event_file(s, ev, h, n * s->ps);
	struct task *t = bp_task_cur(s, ev);
	struct pend_insert *last;
	uint8_t rctx;

	if (fi == NONE)
		return;
	if (!t || !(s->kinds_seen & (1u << EV_BIO_QUEUE))) {
		account_read(s, t, fi, index, n, ev->ts);
		if (t) {
			t->activity = 1;
			t->ctx_file = fi;
		}
		return;
	}
	t->activity = 1;
	t->ctx_file = fi;
	t->read_credit = 0;
	rctx = (uint8_t)read_context(t, fi);
	/*
	 * A buffered write inserts the pages it creates too, and so does a
	 * filesystem allocating new metadata blocks: wait for the read bio
	 * that shows these pages come from storage (settle_read_bio). Until
	 * then they are not the file it last read (last_file).
	 */
	last = t->npend ? &t->pend[t->npend - 1] : NULL;
	if (last && last->file == fi && last->index + last->n == index && last->rctx == rctx &&
	    last->prefetch == (rctx && t->sys_prefetch) && !last->waited && !last->bio_since && in_window(s, last->ts) == in_window(s, ev->ts)) {
		last->n += n;
		return;
	}
	BP_GROW(t->pend, t->npend, t->cpend);
	last = &t->pend[t->npend++];
	last->file = fi;
	last->rctx = rctx;
	last->prefetch = rctx && t->sys_prefetch;
	last->index = index;
	last->n = n;
	last->ts = ev->ts;
	last->waited = 0;
	last->bio_since = 0;
	if (rctx)
		t->holder = 1;
}

void bp_on_delete(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint64_t order = h->f[F_ORDER].size ? rd(s, ev, h->f[F_ORDER]) : 0;
	uint32_t fi = event_file(s, ev, h, 0);

	if (fi != NONE)
		pages_delete(s, fi, rd(s, ev, h->f[F_INDEX]), 1ull << (order > 20 ? 20 : order));
}

void bp_on_fault(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint64_t index = rd(s, ev, h->f[F_INDEX]);
	uint32_t fi = event_file(s, ev, h, 0);
	struct task *t = bp_task_cur(s, ev);

	if (t) {
		if (t->npend || t->waited_runs)
			bp_settle_inserts(s, t);
		t->in_fault = 1;
		t->ctx_file = fi;
		t->fault_file = fi;
		t->fault_index = index;
		if (fi != NONE)
			t->last_file = fi;
	}
	if (fi == NONE)
		return;
	pages_access(s, fi, index, 1, 0);
	touch(s, t, fi, ev->ts);
}

/*
 * t's readahead or a read names fi, the file its syscall reads. In a copy
 * (sendfile, splice, copy_file_range) the pages of fi it inserted before
 * are of a read context too: the file read, not the copy.
 */
static void name_read_file(struct task *t, uint32_t fi)
{
	size_t i;

	t->sys_read_file = fi;
	for (i = 0; t->sys_copies && i < t->npend; i++) {
		if (t->pend[i].file == fi && !t->pend[i].rctx) {
			t->pend[i].rctx = 1;
			t->holder = 1;
		}
	}
}

/* A read's pages (get_pages, mapped 0) or a fault-around window (map_pages, mapped 1). */
static void access_range(struct state *s, const struct bp_event *ev, const struct handler *h,
			 int mapped)
{
	uint64_t first = rd(s, ev, h->f[F_INDEX]), last = rd(s, ev, h->f[F_LAST]);
	uint32_t fi = event_file(s, ev, h, 0);
	struct task *t;

	if (fi == NONE)
		return;
	t = bp_task_cur(s, ev);
	if (t)
		settle_waited(s, t);
	/*
	 * One access spans at most what a read or mapping can (a corrupt
	 * index must not make a pass over 2^60 pages): 2^32 pages is 16 TiB.
	 */
	if (last >= first && last - first < (1ULL << 32))
		pages_access(s, fi, first, last - first + 1, mapped);
	if (t) {
		t->last_file = fi;
		if (!mapped)
			name_read_file(t, fi);
	}
	touch(s, t, fi, ev->ts);
}

void bp_on_access(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	access_range(s, ev, h, 0);
}

void bp_on_map_pages(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	access_range(s, ev, h, 1);
}

void bp_on_ra(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint32_t fi = event_file(s, ev, h, 0);
	struct task *t = bp_task_cur(s, ev);

	if (fi == NONE || !t)
		return;
	t->ctx_file = t->last_file = fi;
	name_read_file(t, fi);
	touch(s, t, fi, ev->ts);
}

/*
 * A read bio of t: the run of pages it inserted last is read from storage.
 * Readahead inserts a batch, then queues its bios; a write that must read
 * a partial page inserts it, then reads it; a metadata block is inserted,
 * then read. Earlier runs stay pending: a metadata read in the middle of
 * buffered writes does not make the pages written before it reads. One
 * batch may take several bios: the bytes of the run settled cover the
 * bios that follow it, until the task inserts again; a bio larger than
 * what is left is also for the run before (data pages inserted, then a
 * 1 KiB block of the extent tree inserted and read, then the data read).
 */
static void settle_read_bio(struct state *s, struct task *t, uint64_t bytes)
{
	const struct pend_insert *p;
	uint64_t run;

	if (t->read_credit && (!bytes || bytes <= t->read_credit)) {
		t->read_credit -= bytes;   /* a size of 0 is unknown: the run's */
		return;
	}
	bytes -= t->read_credit;
	t->read_credit = 0;
	if (!t->npend)
		return;
	p = &t->pend[--t->npend];
	account_read(s, t, p->file, p->index, p->n, p->ts);
	run = p->n * s->ps;
	t->read_credit = run > bytes ? run - bytes : 0;
	t->credit_file = p->file;
}

/*
 * The file whose pages a read bio queued now in t's context carries, as
 * settle_read_bio will take it: the run whose bytes its bios are still
 * meeting, else the run t inserted last; NONE when t inserted none.
 */
static uint32_t bio_file(const struct task *t, uint64_t bytes)
{
	if (t->read_credit && (!bytes || bytes <= t->read_credit))
		return t->credit_file;
	return t->npend ? t->pend[t->npend - 1].file : NONE;
}

/*
 * t begins an I/O wait on t->wait_file: its read-context runs of that file
 * (or of the file a copy reads) may be what a throttle holds; all of them
 * when the syscall inserted nothing (a read blocked on readahead an
 * earlier read started). Those are read, whoever queues their bio: a
 * hole or an unwritten extent is zeroed at once, no reader waits for it.
 * Not a run that a read bio of the task's own followed (see
 * bp_on_bio_queue): nothing held its bio, if it had one.
 */
void bp_held_waited(struct task *t)
{
	struct pend_insert *runs[2] = { t->held, t->pend };
	size_t n[2] = { t->nheld, t->npend }, i, k;
	int all = t->ctx_file == NONE;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < n[k]; i++) {
			struct pend_insert *p = &runs[k][i];

			if (p->rctx && !p->bio_since &&
			    (all || p->file == t->wait_file || p->file == t->sys_read_file)) {
				p->waited = 1;
				t->waited_runs = 1;
			}
		}
	}
}

/*
 * A read bio of t's own on disk (-1: unknown) passed the throttle: a
 * throttle keeps a cgroup's bios in order, so none of t's bios queued
 * before it is held now. Its runs on that disk that no bio claimed yet
 * are not held: a later wait is not for them. A held run (its syscall
 * over, no bio of its own can claim it) is created; a pending one may
 * still get the next bio of the task (settle_read_bio).
 */
static void bio_passed(struct state *s, struct task *t, int disk)
{
	size_t i, keep = 0;

	for (i = 0; i < t->npend; i++) {
		int d = s->files[t->pend[i].file].disk;

		if (disk < 0 || d < 0 || d == disk)
			t->pend[i].bio_since = 1;
	}
	for (i = 0; i < t->nheld; i++) {
		struct pend_insert *p = &t->held[i];
		int d = s->files[p->file].disk;

		if (p->waited || (disk >= 0 && d >= 0 && d != disk))
			t->held[keep++] = *p;
		else
			account_created(s, p);
	}
	t->nheld = keep;
}

/*
 * A read bio: the task's own settles its runs (settle_read_bio). One a
 * kernel thread queues for no page of its own is one a throttle held
 * (cgroup v1 blkio.throttle.read_bps_device, v2 io.max, systemd's
 * IOReadBandwidthMax=), dispatched by a kworker when its cgroup may read
 * again, so it never comes in the reader's context; which cgroup's it is,
 * the event does not say, so it settles nothing: the reader's wait did
 * (bp_held_waited).
 */
void bp_on_bio_queue(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	struct task *t = bp_task_cur(s, ev);
	uint64_t bytes = rd(s, ev, h->f[F_BIO_NR_SECTOR]) * 512;
	uint32_t dev = (uint32_t)rd(s, ev, h->f[F_BIO_DEV]);
	uint64_t sector = rd(s, ev, h->f[F_BIO_SECTOR]);
	char rwbs[16];
	int lower;

	if (!t)
		return;
	t->activity = 1;
	bp_rd_str(s, ev, h->f[F_BIO_RWBS], rwbs, sizeof(rwbs));
	if (s->crit && h->f[F_BIO_SECTOR].size)
		bp_crit_bio(s, (uint32_t)(t - s->tasks), dev, sector, (uint32_t)(bytes / 512),
			    strchr(rwbs, 'R') ? bio_file(t, bytes) : NONE);
	/*
	 * A stacked device (device-mapper, md) queues the file system's bio
	 * on itself, remaps it and queues it again on the device below, in
	 * the same context when nothing holds it: one read, not two.
	 */
	lower = t->remap_dev && t->remap_dev == dev && t->remap_sector == sector;
	t->remap_dev = 0;
	if (!lower) {
		t->bio_dev = dev;
		t->bio_sector = sector;
		t->bio_sectors = (uint32_t)(bytes / 512);
	}
	if (!strchr(rwbs, 'R') || lower)
		return;
	t->read_io = 1;
	settle_read_bio(s, t, bytes);
	if (t->npend || t->nheld)
		bio_passed(s, t, h->f[F_BIO_DEV].size ?
				 bp_disk_of_dev(s, (uint32_t)rd(s, ev, h->f[F_BIO_DEV])) : -1);
}

/*
 * A bio moved to the device below: a partition's to its disk (before
 * its only block_bio_queue), a stacked device's (device-mapper, md) to
 * the device it maps to (after the upper device's block_bio_queue; the
 * lower one follows). In the queuer's context unless a stacked device
 * remaps in a worker (dm-crypt). The critical path names the upper
 * device and sector a lower request was asked for (bp_crit_bio_remap).
 */
void bp_on_bio_remap(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	struct task *t = bp_task_cur(s, ev);
	uint32_t dev = (uint32_t)rd(s, ev, h->f[F_RM_DEV]);
	uint64_t sector = rd(s, ev, h->f[F_RM_SECTOR]);
	uint32_t old_dev = (uint32_t)rd(s, ev, h->f[F_RM_OLD_DEV]);
	uint64_t old_sector = rd(s, ev, h->f[F_RM_OLD_SECTOR]);
	uint32_t sectors = (uint32_t)rd(s, ev, h->f[F_RM_NR_SECTOR]);
	char rwbs[16];

	if (!t)
		return;
	/* A stacked device may split the bio: each part is remapped, then queued. */
	if (t->bio_dev == old_dev && old_sector >= t->bio_sector &&
	    old_sector - t->bio_sector < (t->bio_sectors ? t->bio_sectors : 1)) {
		t->remap_dev = dev;
		t->remap_sector = sector;
	}
	bp_rd_str(s, ev, h->f[F_RM_RWBS], rwbs, sizeof(rwbs));
	if (s->crit)
		bp_crit_bio_remap(s, (uint32_t)(t - s->tasks), dev, sector, sectors, old_dev,
				  old_sector, strchr(rwbs, 'R') ? bio_file(t, (uint64_t)sectors * 512) :
				  NONE);
}
