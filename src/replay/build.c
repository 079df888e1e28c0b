// SPDX-License-Identifier: GPL-2.0
/*
 * A pack from a recording: per regular file on a block device, the page
 * ranges used during the window, merged across small gaps, in order of
 * first use (physical order on rotational disks), or with the pages the
 * critical path waited on first (--order critical). What is left out is
 * counted by reason, so `readahead --explain` can say what the pack does
 * not preload and why.
 *
 * Pages mapped by fault-around but not known to be used (BP_PAGE_MAPPED),
 * and any state added after this code, are kept and counted as uncertain:
 * they were read and put in a page table, so some of them were likely
 * used; preloading a page too many costs a read, missing one costs a wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "analysis/focus.h"
#include "analysis/syscalls.h"
#include "analysis/session.h"
#include "replay/build.h"
#include "replay/order.h"
#include "replay/preload.h"
#include "replay/scan.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

#define CHUNK_PAGES 65536u
#define SLACK_NS 1000000000ll
#define SAME_BOOT_SLACK_NS 10000000ll

struct cand {
	struct bp_pack_file pf;
	uint64_t bytes;     /* page bytes of its ranges */
	int rot;
	uint32_t dev;
	uint64_t phys;      /* physical address of its first range (rotational) */
	int crit;           /* an entry of the critical path's pages */
};

/* Whether @path lies under directory @dir ("/var/log" covers "/var/log/x"). */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static int is_spool(const char *path)
{
	const char *base = strrchr(path, '/');

	return base && base[1] == '.' && strstr(base, ".spool-");
}

static const struct bp_mount *mount_of(const struct bp_meta *meta, uint32_t dev)
{
	size_t i;

	for (i = 0; meta && i < meta->nmounts; i++) {
		if (meta->mounts[i].dev == dev)
			return &meta->mounts[i];
	}
	return NULL;
}

static int nonblock_fs(const char *fstype)
{
	static const char *const names[] = { "tmpfs", "ramfs", "proc", "sysfs", "devtmpfs", NULL };
	const char *const *n;

	for (n = names; *n; n++) {
		if (!strcmp(*n, fstype))
			return 1;
	}
	return 0;
}

static int64_t timespec_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000ll + t->tv_nsec;
}

/*
 * The wall-clock time the recording started, minus a margin (a file
 * counts as written rather than not). A recording of this boot on a
 * since-boot clock gives it exactly: now minus the time since its start.
 * Otherwise it is estimated from the recording file's mtime (written at
 * the stop, or later when a boot's recording is saved) minus its length.
 */
static int64_t recording_start_real(const char *recording, const struct bp_model *m)
{
	uint64_t start = m->header.start_ns ? m->header.start_ns : m->totals.first_ns;
	uint64_t stop = m->header.stop_ns ? m->header.stop_ns : m->totals.last_ns;
	struct timespec real, boot;
	int64_t booted_real;
	struct stat st;

	if (stat(recording, &st))
		return INT64_MIN;  /* unknown: every file counts as written */
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	booted_real = timespec_ns(&real) - timespec_ns(&boot);
	if (m->header.clock && (!strcmp(m->header.clock, "boot") || !strcmp(m->header.clock, "local")) &&
	    start && (uint64_t)timespec_ns(&boot) > start && timespec_ns(&st.st_mtim) > booted_real)
		return booted_real + (int64_t)start - SAME_BOOT_SLACK_NS;
	return timespec_ns(&st.st_mtim) - (int64_t)(stop > start ? stop - start : 0) - SLACK_NS;
}

static void tally(struct bp_pack *p, enum bp_pack_count c, uint64_t bytes)
{
	p->counts[c].files++;
	p->counts[c].bytes += bytes;
}

struct runs {
	struct bp_pack_range *r;
	size_t n, cap;
	uint64_t gap;              /* merge gaps up to this many pages */
	uint64_t used, uncertain, never, gap_pages, gap_never;
	int have;
};

static void runs_page(struct runs *rs, uint64_t page, unsigned char state)
{
	switch (state) {
	case BP_PAGE_NONE:
		return;
	case BP_PAGE_NEVER_USED:
		rs->never++;
		return;
	case BP_PAGE_USED:
	case BP_PAGE_REREAD:
		rs->used++;
		break;
	case BP_PAGE_MAPPED:
	default:
		rs->uncertain++;
		break;
	}
	if (rs->have) {
		struct bp_pack_range *last = &rs->r[rs->n - 1];
		uint64_t end = last->start + last->count;

		if (page - end <= rs->gap) {
			rs->gap_pages += page - end;
			last->count = page + 1 - last->start;
			return;
		}
	}
	BP_GROW(rs->r, rs->n, rs->cap);
	rs->r[rs->n].start = page;
	rs->r[rs->n++].count = 1;
	rs->have = 1;
}

/* Never-used pages that ended up inside a merged gap are preloaded, not left out. */
static uint64_t never_in_ranges(const struct runs *rs, const unsigned char *st, uint64_t first,
				size_t n, size_t *ri)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t page = first + i;

		if (st[i] != BP_PAGE_NEVER_USED)
			continue;
		while (*ri < rs->n && rs->r[*ri].start + rs->r[*ri].count <= page)
			(*ri)++;
		if (*ri < rs->n && rs->r[*ri].start <= page)
			c++;
	}
	return c;
}

/* The ranges of one file from its page states. */
static void file_runs(const struct bp_model *m, const struct bp_file *f, int inserted_only,
		      struct runs *rs)
{
	unsigned char *st = xmalloc(CHUNK_PAGES);
	uint64_t first;
	size_t n, i, ri = 0;

	for (first = 0; first < f->size_pages; first += n) {
		n = f->size_pages - first > CHUNK_PAGES ? CHUNK_PAGES : (size_t)(f->size_pages - first);
		bp_model_file_pages(m, f, first, n, st);
		for (i = 0; i < n; i++) {
			/* No access events: every page read is kept, as read. */
			if (inserted_only && st[i] == BP_PAGE_NEVER_USED)
				st[i] = BP_PAGE_USED;
			runs_page(rs, first + i, st[i]);
		}
	}
	/* Second pass for the never-used pages a merged gap swallowed. */
	for (first = 0; rs->n && first < f->size_pages; first += n) {
		n = f->size_pages - first > CHUNK_PAGES ? CHUNK_PAGES : (size_t)(f->size_pages - first);
		bp_model_file_pages(m, f, first, n, st);
		rs->gap_never += never_in_ranges(rs, st, first, n, &ri);
	}
	free(st);
}

/* Physical byte address of @off in the file, or UINT64_MAX when unknown. */
static uint64_t physical(const char *path, uint64_t off)
{
	union {
		struct fiemap fm;
		char buf[sizeof(struct fiemap) + sizeof(struct fiemap_extent)];
	} u;
	uint64_t phys = UINT64_MAX;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return phys;
	memset(&u, 0, sizeof(u));
	u.fm.fm_start = off;
	u.fm.fm_length = ~0ull - off;
	u.fm.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &u.fm) == 0 && u.fm.fm_mapped_extents == 1) {
		const struct fiemap_extent *e = &u.fm.fm_extents[0];

		phys = e->fe_physical + (off > e->fe_logical ? off - e->fe_logical : 0);
	}
	close(fd);
	return phys;
}

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	/* Files of non-rotational disks first, by first use; then each rotational disk in order. */
	if (x->rot != y->rot)
		return x->rot - y->rot;
	if (x->rot) {
		if (x->dev != y->dev)
			return x->dev < y->dev ? -1 : 1;
		if (x->phys != y->phys)
			return x->phys < y->phys ? -1 : 1;
	} else if (x->pf.first_ns != y->pf.first_ns) {
		return x->pf.first_ns < y->pf.first_ns ? -1 : 1;
	}
	return strcmp(x->pf.path, y->pf.path);
}

static uint64_t range_bytes(const struct bp_pack_file *f, unsigned ps)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < f->nranges; i++)
		n += f->ranges[i].count;
	return n * ps;
}

/*
 * The critical entry being filled ends: kept with its pages normalized,
 * or dropped when the path's pages were none of the file's ranges (the
 * file's never-used bytes then wait for its next entry).
 */
static void entry_end(struct cand *e, size_t *ne, char *given, size_t k, int was_given)
{
	struct cand *x = &e[*ne - 1];

	if (x->pf.nranges) {
		bp_ranges_normalize(x->pf.ranges, &x->pf.nranges);
		return;
	}
	free(x->pf.ranges);
	free(x->pf.path);
	given[k] = (char)was_given;
	(*ne)--;
}

/*
 * The entries of a pack in critical order, from the candidates in the
 * default order (@c, @nc, given up): first, per run of the path's I/O
 * segments on one file, the pages they waited on that the file's ranges
 * hold; then what is left of each file, in the default order. A file's
 * never-used bytes left out go with its first entry.
 */
static struct cand *critical_entries(struct cand *c, size_t nc, const struct bp_critical_path *path,
				     const struct bp_replay_scan *scan, unsigned ps, size_t *ne)
{
	struct bp_path_pages *pp;
	struct bp_map by_file;
	struct cand *e = NULL, *x;
	size_t n, i, ce = 0, last = SIZE_MAX, cr = 0;
	char *given = xcalloc(nc + 1, 1);
	int was_given = 0;
	uint64_t *k;

	*ne = 0;
	bp_map_init(&by_file);
	for (i = 0; i < nc; i++)
		*bp_map_put(&by_file, c[i].dev, c[i].pf.ino, NULL) = i;
	n = bp_path_pages(path, scan, &pp);
	for (i = 0; i < n; i++) {
		k = bp_map_get(&by_file, pp[i].dev, pp[i].ino);
		if (!k)
			continue;  /* not in the pack: metadata, gone, written ... */
		if (last != *k) {
			if (last != SIZE_MAX)
				entry_end(e, ne, given, last, was_given);
			BP_GROW(e, *ne, ce);
			x = &e[(*ne)++];
			*x = c[*k];
			x->pf.ranges = NULL;
			x->pf.nranges = cr = 0;
			x->pf.path = xstrdup(c[*k].pf.path);
			x->pf.left_bytes = given[*k] ? 0 : c[*k].pf.left_bytes;
			x->crit = 1;
			was_given = given[*k];
			given[*k] = 1;
			last = *k;
		}
		x = &e[*ne - 1];
		bp_ranges_take(&c[*k].pf.ranges, &c[*k].pf.nranges, pp[i].first, pp[i].last,
			       &x->pf.ranges, &x->pf.nranges, &cr);
	}
	if (last != SIZE_MAX)
		entry_end(e, ne, given, last, was_given);
	for (i = 0; i < nc; i++) {
		if (!c[i].pf.nranges) {
			free(c[i].pf.ranges);
			free(c[i].pf.path);
			continue;
		}
		BP_GROW(e, *ne, ce);
		e[*ne] = c[i];
		if (given[i])
			e[*ne].pf.left_bytes = 0;
		(*ne)++;
	}
	for (i = 0; i < *ne; i++)
		e[i].bytes = range_bytes(&e[i].pf, ps);
	free(pp);
	free(given);
	free(c);
	bp_map_release(&by_file);
	return e;
}

/* The path's end and its I/O per file of the pack, for --explain. */
static void critical_header(struct bp_pack *p, const struct bp_critical_path *path,
			    const struct bp_crit_end *to, size_t entries)
{
	size_t i, j;

	p->crit.set = 1;
	p->crit.entries = entries;
	p->crit.end_ns = path->end_ns;
	p->crit.len_ns = path->end_ns - path->start_ns;
	p->crit.what = xstrdup(path->end_what);
	p->crit.pid = path->end_task.pid;
	p->crit.to = bp_crit_end_spec(to);
	for (i = 0; i < path->nfiles; i++) {
		const struct bp_crit_file *f = &path->files[i];
		struct bp_pack_whatif *w;

		if (!f->path)
			continue;
		for (j = 0; j < p->nfiles; j++) {
			if (p->files[j].major == BP_DEV_MAJOR(f->dev) &&
			    p->files[j].minor == BP_DEV_MINOR(f->dev) && p->files[j].ino == f->ino)
				break;
		}
		if (j == p->nfiles)
			continue;
		w = bp_pack_add_whatif(p);
		w->major = p->files[j].major;
		w->minor = p->files[j].minor;
		w->ino = f->ino;
		w->io_ns = f->io_ns;
		w->segments = f->segments;
	}
}

static void add_notes(struct bp_pack *p, const struct bp_model *m)
{
	size_t i;

	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *d = &m->disks[i];

		if (d->metadata_bytes)
			bp_pack_note(p, "metadata %s: %llu bytes read through the block device, "
				     "%llu ns waited (directories, inodes: not preloadable as files)",
				     d->name ? d->name : "?", (unsigned long long)d->metadata_bytes,
				     (unsigned long long)d->metadata_wait_ns);
	}
	if (m->missing & BP_MISSING_ACCESS)
		bp_pack_note(p, "the recording has no page access events (kernel before 6.12): "
			     "every page read is kept, used or not");
}

struct bp_pack *bp_pack_build(struct bp_session *session, const struct bp_pack_build_opts *o)
{
	const char *root = o->root ? o->root : "", *recording = session->path;
	const struct bp_meta *meta = bp_reader_meta(session->reader);
	struct bp_build_hooks hooks[2] = { { .event = bp_replay_scan_event } };
	struct bp_crit_ends ends = { 0 };
	struct bp_critical_log *log = NULL;
	size_t nhooks = 1;
	struct bp_critical_path *path = NULL;
	struct bp_map on_path;
	struct bp_replay_scan scan;
	struct bp_model *m;
	struct bp_pack *p;
	struct stat rec_st;
	struct cand *c = NULL;
	size_t nc = 0, cc = 0, i;
	uint64_t total = 0;
	struct bp_filter filter = { 0 };
	int64_t start_real;
	int have_rec, use_filter;
	unsigned ps;

	bp_replay_scan_init(&scan, o->window.since_ns, o->window.until_ns);
	hooks[0].arg = &scan;
	bp_map_init(&on_path);
	if (o->to) {
		/* The walk's log and each I/O wait's pages, from the same pass. */
		log = bp_critical_log_new();
		hooks[0].critical = log;
		hooks[0].span = bp_replay_scan_span;
		scan.want_waits = 1;
		nhooks += (size_t)bp_crit_ends_begin(&ends, o->ends, o->to, session, &hooks[1]);
	}
	m = bp_session_build(session, &o->window, hooks, nhooks);
	if (m && o->to) {
		path = bp_critical_path_of(log, m, bp_crit_ends_end(&ends, m), recording);
		for (i = 0; path && i < path->nfiles; i++)
			*bp_map_put(&on_path, path->files[i].dev, path->files[i].ino, NULL) = 1;
	}
	bp_crit_ends_release(&ends);
	bp_critical_log_free(log);
	if (!m || (o->to && !path)) {
		bp_model_free(m);
		bp_map_release(&on_path);
		bp_replay_scan_release(&scan);
		return NULL;
	}
	ps = m->header.page_size ? m->header.page_size : 4096;
	p = bp_pack_new();
	p->page_size = ps;
	p->source = xstrdup(recording);
	p->since_ns = m->window.since_ns;
	p->until_ns = m->window.until_ns == UINT64_MAX ? m->totals.last_ns : m->window.until_ns;
	p->inserted_only = !!(m->missing & BP_MISSING_ACCESS);
	add_notes(p, m);
	use_filter = !!bp_focus_command(m, o->all, &filter);
	have_rec = stat(recording, &rec_st) == 0;
	start_real = recording_start_real(recording, m);
	if (m->totals.nonblock_bytes)
		p->counts[BP_PACK_NONBLOCK].bytes += m->totals.nonblock_bytes;

	for (i = 0; i < m->nfiles; i++) {
		const struct bp_file *f = &m->files[i];
		const struct bp_mount *mnt;
		struct runs rs = { 0 };
		char full[4096];
		struct stat st;
		struct cand *x;
		uint64_t *fu;

		if (!f->bytes_read)
			continue;  /* only accessed: nothing read from storage */
		if (use_filter && !bp_file_matches(m, f, &filter) &&
		    !bp_map_get(&on_path, f->dev, f->ino))
			continue;  /* not the recorded command's, nor on its path */
		if (f->kind == BP_FILE_METADATA) {
			tally(p, BP_PACK_METADATA, f->bytes_read);
			continue;
		}
		mnt = mount_of(meta, f->dev);
		if (mnt && mnt->fstype && nonblock_fs(mnt->fstype)) {
			tally(p, BP_PACK_NONBLOCK, f->bytes_read);
			continue;
		}
		if (!f->resolved || f->path[0] != '/') {
			tally(p, BP_PACK_UNRESOLVED, f->bytes_read);
			continue;
		}
		if ((have_rec && BP_DEV_MAJOR(f->dev) == major(rec_st.st_dev) &&
		     BP_DEV_MINOR(f->dev) == minor(rec_st.st_dev) && f->ino == rec_st.st_ino) ||
		    is_spool(f->path) || under(f->path, "/var/log/bootprof")) {
			tally(p, BP_PACK_RECORDING, f->bytes_read);
			continue;
		}
		if (under(f->path, "/var/log")) {
			tally(p, BP_PACK_VAR_LOG, f->bytes_read);
			continue;
		}
		if ((size_t)snprintf(full, sizeof(full), "%s%s", root, f->path) >= sizeof(full) ||
		    lstat(full, &st) || !S_ISREG(st.st_mode)) {
			tally(p, BP_PACK_GONE, f->bytes_read);
			continue;
		}
		if (major(st.st_dev) != BP_DEV_MAJOR(f->dev) || minor(st.st_dev) != BP_DEV_MINOR(f->dev) ||
		    st.st_ino != f->ino) {
			tally(p, BP_PACK_REPLACED, f->bytes_read);
			continue;
		}
		if (timespec_ns(&st.st_mtim) >= start_real || timespec_ns(&st.st_ctim) >= start_real) {
			tally(p, BP_PACK_WRITTEN, f->bytes_read);
			continue;
		}
		rs.gap = o->gap_pages;
		file_runs(m, f, p->inserted_only, &rs);
		if (rs.never > rs.gap_never) {
			p->counts[BP_PACK_NEVER_USED].files++;
			p->counts[BP_PACK_NEVER_USED].bytes += (rs.never - rs.gap_never) * ps;
		}
		if (!rs.n) {
			free(rs.r);
			continue;
		}
		if (rs.gap_pages)
			tally(p, BP_PACK_GAP, rs.gap_pages * ps);
		if (rs.uncertain)
			tally(p, BP_PACK_UNCERTAIN, rs.uncertain * ps);
		BP_GROW(c, nc, cc);
		x = &c[nc++];
		memset(x, 0, sizeof(*x));
		x->pf.major = major(st.st_dev);
		x->pf.minor = minor(st.st_dev);
		x->pf.ino = st.st_ino;
		x->pf.size = (uint64_t)st.st_size;
		x->pf.mtime_sec = st.st_mtim.tv_sec;
		x->pf.mtime_nsec = st.st_mtim.tv_nsec;
		x->pf.ctime_sec = st.st_ctim.tv_sec;
		x->pf.ctime_nsec = st.st_ctim.tv_nsec;
		fu = bp_map_get(&scan.first_use, f->dev, f->ino);
		x->pf.first_ns = fu ? *fu - 1 : f->first_ns;
		x->pf.left_bytes = (rs.never - rs.gap_never) * ps;
		x->pf.ranges = rs.r;
		x->pf.nranges = rs.n;
		x->pf.path = xstrdup(f->path);
		x->bytes = (rs.used + rs.uncertain + rs.gap_pages) * ps;
		x->dev = f->dev;
		x->rot = f->disk >= 0 && (size_t)f->disk < m->ndisks && m->disks[f->disk].rotational == 1;
		if (x->rot) {
			x->phys = physical(full, rs.r[0].start * ps);
			p->disk_order = 1;
		}
	}
	if (nc)
		qsort(c, nc, sizeof(*c), cmp_cand);
	if (path)
		c = critical_entries(c, nc, path, &scan, ps, &nc);
	for (i = 0; i < nc; i++) {
		if (o->max_bytes && total + c[i].bytes > o->max_bytes) {
			tally(p, BP_PACK_OVER_CAP, c[i].bytes);
			free(c[i].pf.ranges);
			free(c[i].pf.path);
			continue;
		}
		total += c[i].bytes;
		*bp_pack_add(p) = c[i].pf;
		p->crit.entries += c[i].crit;
	}
	if (path)
		critical_header(p, path, o->to, p->crit.entries);
	free(c);
	bp_critical_path_free(path);
	bp_map_release(&on_path);
	bp_model_free(m);
	bp_replay_scan_release(&scan);
	return p;
}

/* ---- what became of a preloader's pages: the verdict ---- */

const char *const bp_verdict_names[BP_V_N] = {
	"preloaded", "hit", "late", "overtaken", "miss", "wasted", "read_again",
};

const char *const bp_verdict_heads[BP_V_N] = {
	"PRELOADED", "HIT", "LATE", "OVERTAKEN", "MISS", "WASTED", "READ AGAIN",
};

uint64_t bp_verdict_pages(const struct bp_verdict *v, enum bp_verdict_kind k)
{
	switch (k) {
	case BP_V_PRELOADED:
		return bp_verdict_preloaded(v);
	case BP_V_HIT:
		return v->hit;
	case BP_V_LATE:
		return v->late;
	case BP_V_OVERTAKEN:
		return v->overtaken;
	case BP_V_MISS:
		return v->miss;
	case BP_V_WASTED:
		return v->wasted;
	case BP_V_READ_AGAIN:
		return v->read_again;
	default:
		return 0;
	}
}

int bp_verdict_known(const struct bp_preloaded *p, enum bp_verdict_kind k)
{
	return !p->access_missing || (k != BP_V_HIT && k != BP_V_LATE && k != BP_V_WASTED);
}

static uint64_t file_rank(const struct bp_preloaded_file *f)
{
	return bp_verdict_preloaded(&f->v);
}

static int cmp_preloaded(const void *a, const void *b)
{
	const struct bp_preloaded_file *x = a, *y = b;

	if (file_rank(x) != file_rank(y))
		return file_rank(x) > file_rank(y) ? -1 : 1;
	if (x->v.miss != y->v.miss)
		return x->v.miss > y->v.miss ? -1 : 1;
	return strcmp(x->path, y->path);
}

size_t bp_preloader_processes(const struct bp_model *m, struct bp_map *tids)
{
	size_t i, j, n = 0;

	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *pr = &m->processes[i];
		int named = !strncmp(pr->comm, BP_REPLAY_COMM, sizeof(pr->comm) - 1);

		for (j = 0; j < pr->nthreads; j++) {
			if (named || !strncmp(pr->threads[j]->comm, BP_REPLAY_COMM,
					      sizeof(pr->threads[j]->comm) - 1)) {
				if (tids)
					*bp_map_put(tids, (uint64_t)pr->threads[j]->tid, 0, NULL) = 1;
				named = 1;
			}
		}
		n += named;
	}
	return n;
}

/* Pages of a wait looked at, at most: a read's range can be large. */
#define LATE_MAX_PAGES 4096
/* Pages of one file looked at, at most (64 GiB of 4 KiB pages). */
#define FILE_MAX_PAGES (1u << 24)

/* A late wait: its file and the first of its pages that makes it late. */
struct late_wait {
	uint32_t dev;
	uint64_t ino, page;
	int late;
};

/* The preloader's "resident" markers of one file: ranges and when they were written. */
struct resident_marks {
	const struct bp_replay_pev **m;
	size_t n, cap;
};

/* The resident markers per file ((dev, ino) -> index into @r, from 1), from the history. */
static struct resident_marks *resident_marks(const struct bp_replay_scan *scan, struct bp_map *files,
					     size_t *nr)
{
	struct resident_marks *r = NULL;
	size_t i, cap = 0;

	*nr = 0;
	for (i = 0; i < scan->nhist; i++) {
		const struct bp_replay_pev *e = &scan->hist[i];
		struct resident_marks *f;
		uint64_t *slot;
		int inserted;

		if (e->kind != BP_PEV_RESIDENT)
			continue;
		slot = bp_map_put(files, e->dev, e->ino, &inserted);
		if (inserted) {
			BP_GROW(r, *nr, cap);
			memset(&r[*nr], 0, sizeof(*r));
			*slot = ++*nr;
		}
		f = &r[*slot - 1];
		BP_GROW(f->m, f->n, f->cap);
		f->m[f->n++] = e;
	}
	return r;
}

/* Whether a resident marker said @page was up to date in (@after, @before). */
static int marked_resident(const struct resident_marks *r, uint64_t page, uint64_t after,
			   uint64_t before)
{
	size_t i;

	for (i = 0; r && i < r->n; i++) {
		const struct bp_replay_pev *e = r->m[i];

		if (page >= e->first && page - e->first < e->n && e->ts > after && e->ts < before)
			return 1;
	}
	return 0;
}

/*
 * Late waits: an I/O wait of another process on pages whose last
 * insertion, before the wait began, was a preloader's. The page was then
 * still being read: mincore would not have called it resident, the
 * reader waited for it. Not a page whose range the preloader's marker
 * called resident between that insertion and the wait: it was up to date,
 * the wait was for another page of the read. Each late page of the wait
 * is put in @pages (its verdict is late, not hit, once the workload uses
 * it); the wait is counted for its file in @files ((dev, ino) -> index
 * into @late, from 1).
 */
static struct late_wait *late_waits(const struct bp_replay_scan *scan,
				    const struct bp_map *replay_tids, struct bp_map *pages,
				    struct bp_map *files, struct bp_verdict **late, size_t *nlate)
{
	struct late_wait *lw = xcalloc(scan->nwaits + 1, sizeof(*lw));
	struct resident_marks *rm;
	struct bp_map rm_files;
	size_t i, nrm, cap = 0;

	bp_map_init(&rm_files);
	rm = resident_marks(scan, &rm_files, &nrm);
	for (i = 0; i < scan->nwaits; i++) {
		const struct bp_replay_wait *wt = &scan->waits[i];
		uint64_t page, k1, k2, *tid, *ts, *slot, *ri;
		int inserted;

		if (bp_map_get(replay_tids, (uint64_t)wt->tid, 0))
			continue;
		ri = bp_map_get(&rm_files, wt->dev, wt->ino);
		for (page = wt->first; page <= wt->last && page - wt->first < LATE_MAX_PAGES; page++) {
			bp_replay_page_key(wt->dev, wt->ino, page, &k1, &k2);
			tid = bp_map_get(&scan->inserts, k1, k2);
			ts = bp_map_get(&scan->insert_ts, k1, k2);
			if (!tid || !ts || *ts >= wt->start_ns || !bp_map_get(replay_tids, *tid, 0) ||
			    marked_resident(ri ? &rm[*ri - 1] : NULL, page, *ts, wt->start_ns))
				continue;
			*bp_map_put(pages, k1, k2, NULL) = 1;
			if (lw[i].late)
				continue;
			lw[i] = (struct late_wait){ wt->dev, wt->ino, page, 1 };
		}
		if (!lw[i].late)
			continue;
		slot = bp_map_put(files, wt->dev, wt->ino, &inserted);
		if (inserted) {
			BP_GROW(*late, *nlate, cap);
			memset(&(*late)[*nlate], 0, sizeof(**late));
			*slot = ++*nlate;
		}
		(*late)[*slot - 1].late_waits++;
		(*late)[*slot - 1].late_ns += wt->ns;
	}
	for (i = 0; i < nrm; i++)
		free(rm[i].m);
	free(rm);
	bp_map_release(&rm_files);
	return lw;
}

/* Where a page stands while its file's history is replayed. */
enum { PG_NONE, PG_PRELOADED, PG_EVICTED, PG_DONE };
enum { V_NONE, V_HIT, V_LATE, V_WORKLOAD, V_WASTED, V_READ_AGAIN };

struct page_st {
	uint8_t st, verdict;
	uint32_t range;          /* the first pack range holding it, from 1; 0: none */
};

/* What the verdict pass shares across files. */
struct verdict_ctx {
	const struct bp_model *m;
	const struct bp_replay_scan *scan;
	const struct bp_map *replay_tids;
	const struct bp_map *late_pages;
	const struct late_wait *lw;
	struct page_st *pg;
	size_t cpg;
	int markers;             /* the markers name the pack's ranges */
	unsigned page_size;
	struct bp_preloaded *res;
	size_t creads;
	unsigned char *model_st;
};

static int cmp_range(const void *a, const void *b)
{
	const struct bp_preloaded_range *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->count < y->count ? -1 : x->count > y->count;
}

/* The file's pack ranges, from its request and resident markers, deduplicated. */
static void file_ranges(struct bp_preloaded_file *pf, const struct bp_replay_pev *const *ev,
			size_t n)
{
	size_t i, k, cap = 0;

	for (i = 0; i < n; i++) {
		if (ev[i]->kind != BP_PEV_REQUEST && ev[i]->kind != BP_PEV_RESIDENT)
			continue;
		BP_GROW(pf->ranges, pf->nranges, cap);
		memset(&pf->ranges[pf->nranges], 0, sizeof(*pf->ranges));
		pf->ranges[pf->nranges].first = ev[i]->first;
		pf->ranges[pf->nranges++].count = ev[i]->n;
	}
	if (!pf->nranges)
		return;
	qsort(pf->ranges, pf->nranges, sizeof(*pf->ranges), cmp_range);
	for (i = k = 1; i < pf->nranges; i++) {
		if (pf->ranges[i].first != pf->ranges[k - 1].first ||
		    pf->ranges[i].count != pf->ranges[k - 1].count)
			pf->ranges[k++] = pf->ranges[i];
	}
	pf->nranges = k;
}

static void tally_page(struct bp_verdict *v, int verdict, int in_pack)
{
	switch (verdict) {
	case V_HIT:
		v->hit++;
		break;
	case V_LATE:
		v->late++;
		break;
	case V_WORKLOAD:
		if (in_pack)
			v->overtaken++;
		else
			v->miss++;
		break;
	case V_WASTED:
		v->wasted++;
		break;
	case V_READ_AGAIN:
		v->read_again++;
		break;
	}
}

/*
 * Replay one page's events (its file's history, in order). A page the
 * preloader inserted first is preloaded; the workload's first use of it
 * decides hit or late (it waited for it); evicted before any use and read
 * again by the workload, it is read again; never used, wasted. A page the
 * workload inserted first is its own read: overtaken when the pack holds
 * it, else a miss.
 */
static int page_event(struct verdict_ctx *c, struct page_st *p, const struct bp_replay_pev *e,
		      int preloader, uint32_t dev, uint64_t ino, uint64_t page)
{
	uint64_t k1, k2;
	int was = p->st;

	if (p->st == PG_DONE)
		return 0;
	switch (e->kind) {
	case BP_PEV_INSERT:
		if (preloader && !p->range && c->markers) {
			/* Its own reads (the pack file itself): no range of the pack. */
		} else if (preloader) {
			p->st = PG_PRELOADED;
		} else {
			p->verdict = p->st == PG_NONE ? V_WORKLOAD : V_READ_AGAIN;
			p->st = PG_DONE;
		}
		break;
	case BP_PEV_DELETE:
		if (p->st == PG_PRELOADED)
			p->st = PG_EVICTED;
		break;
	case BP_PEV_ACCESS:
	case BP_PEV_MAP:
	case BP_PEV_READ:
		if (preloader || p->st != PG_PRELOADED)
			break;
		bp_replay_page_key(dev, ino, page, &k1, &k2);
		p->verdict = bp_map_get(c->late_pages, k1, k2) ? V_LATE : V_HIT;
		p->st = PG_DONE;
		break;
	}
	return was == PG_NONE && p->st == PG_PRELOADED;
}

/*
 * The pages a read syscall returned that no mm_filemap_get_pages event
 * named: a read is contiguous, and its events name the pages from the
 * file position each batch started at. One is missing when a batch's last
 * folio was locked under I/O (filemap_get_pages() waits for it, drops it
 * and returns the others without the event; the next call names the
 * rest): the read returned more pages than its events span, the ones
 * just before the first page they name. Those were up to date (a batch
 * ends at the first page that is not). Counted from the bytes it
 * returned, so never too many (a read not starting on a page boundary
 * may span one page more than its bytes). Returns how many; *first: the
 * first of them.
 */
static uint64_t read_head(const struct bp_replay_pev *e, unsigned ps, uint64_t *first)
{
	uint64_t need = (e->bytes + ps - 1) / ps, head = need > e->n ? need - e->n : 0;

	if (head > e->first)
		head = e->first;
	*first = e->first - head;
	return head;
}

/* The verdict on one file: @ev are its events, in order. */
static void file_verdict(struct verdict_ctx *c, const struct bp_file *f,
			 const struct bp_replay_pev *const *ev, size_t n, struct bp_preloaded_file *pf)
{
	uint64_t end = 0, page, i, r;
	size_t w;

	file_ranges(pf, ev, n);
	for (i = 0; i < n; i++) {
		if (ev[i]->first + ev[i]->n > end)
			end = ev[i]->first + ev[i]->n;
	}
	if (end > FILE_MAX_PAGES)
		end = FILE_MAX_PAGES;  /* beyond 64 GiB of pages: not a file a preloader reads */
	if (end > c->cpg) {
		c->cpg = end;
		c->pg = xrealloc(c->pg, end * sizeof(*c->pg));
		c->model_st = xrealloc(c->model_st, end);
	}
	memset(c->pg, 0, end * sizeof(*c->pg));
	bp_model_file_pages(c->m, f, 0, (size_t)end, c->model_st);
	for (r = pf->nranges; r-- > 0;) {
		for (page = pf->ranges[r].first; page < end && page - pf->ranges[r].first <
		     pf->ranges[r].count; page++)
			c->pg[page].range = (uint32_t)r + 1;
	}
	for (i = 0; i < n; i++) {
		const struct bp_replay_pev *e = ev[i];
		int pre = !!bp_map_get(c->replay_tids, (uint64_t)e->tid, 0);
		uint64_t first = e->first, count = e->n;

		if (e->kind == BP_PEV_REQUEST || e->kind == BP_PEV_RESIDENT)
			continue;
		uint64_t fresh = 0;

		if (e->kind == BP_PEV_READ)
			count = read_head(e, c->page_size, &first);
		for (page = first; page < end && page - first < count; page++)
			fresh += (uint64_t)page_event(c, &c->pg[page], e, pre, f->dev, f->ino, page);
		if (fresh) {
			BP_GROW(c->res->reads, c->res->nreads, c->creads);
			c->res->reads[c->res->nreads++] = (struct bp_preload_read){ e->ts, fresh };
		}
	}
	for (page = 0; page < end; page++) {
		struct page_st *p = &c->pg[page];

		if (p->st == PG_PRELOADED || p->st == PG_EVICTED)
			p->verdict = V_WASTED;
		/* The workload's insertion of a page it created (a write) is no read. */
		if ((p->verdict == V_WORKLOAD || p->verdict == V_READ_AGAIN) &&
		    c->model_st[page] == BP_PAGE_NONE)
			continue;
		tally_page(&pf->v, p->verdict, p->range != 0);
		if (p->range)
			tally_page(&pf->ranges[p->range - 1].v, p->verdict, 1);
	}
	/* Each late wait goes to the range of its first late page. */
	for (w = 0; w < c->scan->nwaits; w++) {
		const struct late_wait *l = &c->lw[w];

		if (!l->late || l->dev != f->dev || l->ino != f->ino || l->page >= end ||
		    !c->pg[l->page].range)
			continue;
		pf->ranges[c->pg[l->page].range - 1].v.late_waits++;
		pf->ranges[c->pg[l->page].range - 1].v.late_ns += c->scan->waits[w].ns;
	}
}

/* The late waits one by one, for the chart, each with its file's path. */
static void late_marks(struct bp_preloaded *res, const struct bp_replay_scan *scan,
		       const struct late_wait *lw)
{
	struct bp_map paths;
	size_t i, n = 0;

	bp_map_init(&paths);
	for (i = 0; i < scan->nwaits; i++)
		n += lw[i].late;
	for (i = 0; n && i < res->nfiles; i++) {
		const struct bp_preloaded_file *f = &res->files[i];

		if (f->v.late_waits)
			*bp_map_put(&paths, f->dev, f->ino, NULL) = i + 1;
	}
	res->late = xcalloc(n + 1, sizeof(*res->late));
	for (i = 0; i < scan->nwaits; i++) {
		const struct bp_replay_wait *wt = &scan->waits[i];
		uint64_t *fi;

		if (!lw[i].late)
			continue;
		fi = bp_map_get(&paths, lw[i].dev, lw[i].ino);
		res->late[res->nlate++] = (struct bp_late_wait){ wt->tid, wt->start_ns, wt->ns,
								 fi ? res->files[*fi - 1].path : "?" };
	}
	bp_map_release(&paths);
}

static void verdict_add(struct bp_verdict *t, const struct bp_verdict *v)
{
	t->hit += v->hit;
	t->late += v->late;
	t->overtaken += v->overtaken;
	t->miss += v->miss;
	t->wasted += v->wasted;
	t->read_again += v->read_again;
	t->late_waits += v->late_waits;
	t->late_ns += v->late_ns;
}

static int cmp_hist(const void *a, const void *b)
{
	const struct bp_replay_pev *x = *(const struct bp_replay_pev *const *)a;
	const struct bp_replay_pev *y = *(const struct bp_replay_pev *const *)b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x < y ? -1 : x > y;  /* the pass's order */
}

struct bp_preloaded *bp_preloaded_build(struct bp_session *session, const struct bp_window *w)
{
	struct bp_build_hooks hooks = { .event = bp_replay_scan_event, .span = bp_replay_scan_span };
	struct bp_verdict *late = NULL;
	struct bp_map late_files, late_pages, model_files, replay_tids;
	const struct bp_replay_pev **ev;
	struct verdict_ctx c = { 0 };
	struct bp_replay_scan scan;
	struct bp_preloaded *res;
	const struct bp_meta *meta;
	struct bp_model *m;
	size_t nlate = 0, i, j, cap = 0, markers = 0;

	bp_replay_scan_init(&scan, w ? w->since_ns : 0, w ? w->until_ns : 0);
	scan.want_inserts = 1;
	scan.want_waits = 1;
	scan.want_history = 1;
	meta = bp_reader_meta(session->reader);
	scan.arch = bp_arch_of(meta ? meta->machine : NULL);
	hooks.arg = &scan;
	m = bp_session_build(session, w, &hooks, 1);
	if (!m) {
		bp_replay_scan_release(&scan);
		return NULL;
	}
	res = xcalloc(1, sizeof(*res));
	res->page_size = m->header.page_size ? m->header.page_size : 4096;
	res->access_missing = !!(m->missing & BP_MISSING_ACCESS);
	bp_map_init(&replay_tids);
	res->replay_pids = bp_preloader_processes(m, &replay_tids);
	bp_map_init(&late_files);
	bp_map_init(&late_pages);
	bp_map_init(&model_files);
	c.lw = late_waits(&scan, &replay_tids, &late_pages, &late_files, &late, &nlate);
	c.m = m;
	c.scan = &scan;
	c.replay_tids = &replay_tids;
	c.late_pages = &late_pages;
	for (i = 0; i < m->nfiles; i++)
		*bp_map_put(&model_files, m->files[i].dev, m->files[i].ino, NULL) = i + 1;
	ev = xcalloc(scan.nhist + 1, sizeof(*ev));
	for (i = 0; i < scan.nhist; i++) {
		ev[i] = &scan.hist[i];
		markers += ev[i]->kind == BP_PEV_REQUEST || ev[i]->kind == BP_PEV_RESIDENT;
	}
	res->markers_missing = !markers && res->replay_pids;
	c.markers = !!markers;
	c.page_size = res->page_size;
	c.res = res;
	qsort(ev, scan.nhist, sizeof(*ev), cmp_hist);
	for (i = 0; replay_tids.count && i < scan.nhist; i = j) {
		struct bp_preloaded_file pf = { 0 };
		const struct bp_file *f;
		uint64_t *fi, *li;

		for (j = i + 1; j < scan.nhist && ev[j]->dev == ev[i]->dev && ev[j]->ino == ev[i]->ino; j++)
			;
		fi = bp_map_get(&model_files, ev[i]->dev, ev[i]->ino);
		if (!fi || m->files[*fi - 1].kind != BP_FILE_REGULAR)
			continue;
		f = &m->files[*fi - 1];
		file_verdict(&c, f, ev + i, j - i, &pf);
		li = bp_map_get(&late_files, f->dev, f->ino);
		if (li) {
			pf.v.late_waits = late[*li - 1].late_waits;
			pf.v.late_ns = late[*li - 1].late_ns;
		}
		if (!bp_verdict_preloaded(&pf.v) && !pf.v.overtaken && !pf.v.miss && !pf.v.late_waits) {
			free(pf.ranges);
			continue;
		}
		pf.path = xstrdup(f->path ? f->path : "?");
		pf.dev = f->dev;
		pf.ino = f->ino;
		BP_GROW(res->files, res->nfiles, cap);
		res->files[res->nfiles++] = pf;
		verdict_add(&res->total.v, &pf.v);
	}
	if (res->nfiles)
		qsort(res->files, res->nfiles, sizeof(*res->files), cmp_preloaded);
	late_marks(res, &scan, c.lw);
	free(ev);
	free(c.pg);
	free(c.model_st);
	free((void *)c.lw);
	free(late);
	bp_map_release(&model_files);
	bp_map_release(&late_pages);
	bp_map_release(&late_files);
	bp_map_release(&replay_tids);
	bp_model_free(m);
	bp_replay_scan_release(&scan);
	return res;
}

void bp_preloaded_free(struct bp_preloaded *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nfiles; i++) {
		free(p->files[i].path);
		free(p->files[i].ranges);
	}
	free(p->files);
	free(p->reads);
	free(p->late);
	free(p);
}
