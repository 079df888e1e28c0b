// SPDX-License-Identifier: GPL-2.0
/*
 * Events -> model, in one streaming pass.
 *
 * Fields are read at offsets looked up once per event id (tep_find_field),
 * never by name per event. State is per task (tid), per file (dev, ino),
 * per 64-page chunk of a file and per (task, file) pair; nothing is kept
 * per event. After the pass, tasks are grouped into processes (see
 * resolve_groups) and everything is copied into the model's final arrays.
 *
 * I/O wait of a task (DESIGN §6): from a sched_switch that puts it to
 * sleep in TASK_UNINTERRUPTIBLE (prev_state & 0xff == 2, without the
 * preemption bit 0x100) to its sched_wakeup: that is where delay accounting
 * stops the blkio clock (see on_wake), so the run-queue delay after the
 * wakeup is not I/O wait. Against taskstats' blkio_delay_total: within 1 %
 * with sched_wakeup recorded, within 4 % with sched_waking only
 * (tests/shell/t3010-delayacct.sh). A D-sleep counts as I/O wait when the
 * task was, at that moment, in a file syscall (read, open/stat, exec,
 * getdents), in a page fault on a file, or had itself inserted pages /
 * queued block I/O since its last syscall boundary (fsync, writes).
 * Recordings without syscall events count every D-sleep.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/internal.h"
#include "analysis/model.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/map.h"
#include "util/xalloc.h"

#define NONE UINT32_MAX
#define TASK_UNINTERRUPTIBLE 2
#define TASK_REPORT_DEAD 0x10
#define TASK_REPORT_ZOMBIE 0x20
#define TASK_REPORT_PREEMPT 0x100
#define CLONE_THREAD 0x00010000ull
#define DEFAULT_BUCKET_NS 100000000ull
#define MAX_BUCKETS (1u << 20)   /* 29 hours of 100 ms buckets, 40 MiB */

enum kind {
	EV_NONE,
	EV_SWITCH,
	EV_FORK,
	EV_EXEC,
	EV_EXIT,
	EV_RQ_ISSUE,
	EV_BIO_QUEUE,
	EV_ADD,
	EV_DELETE,
	EV_FAULT,
	EV_GET_PAGES,
	EV_MAP_PAGES,
	EV_RA,
	EV_SYS_ENTER,
	EV_SYS_EXIT,
	EV_WAKING,
	EV_WAKEUP,
	EV_CGROUP,
	EV_NKINDS
};

/* Field slots per kind. Filemap kinds share: ino, index, dev, order/last. */
enum {
	F_PREV_PID = 0, F_PREV_STATE, F_NEXT_PID, F_PREV_COMM, F_NEXT_COMM,
};
enum { F_PARENT_PID = 0, F_CHILD_PID, F_CHILD_COMM };
enum { F_FILENAME = 0, F_EXEC_PID, F_OLD_PID };
enum { F_EXIT_PID = 0, F_GROUP_DEAD, F_EXIT_COMM };
enum { F_RQ_DEV = 0, F_NR_SECTOR, F_RWBS };
enum { F_INO = 0, F_INDEX, F_DEV, F_ORDER, F_LAST = F_ORDER };
enum { F_SYS_ID = 0, F_SYS_ARGS };
#define NFIELDS 5

struct fld {
	uint16_t off;
	uint8_t size;    /* 0: absent */
	uint8_t dyn;     /* __data_loc */
};

struct handler {
	uint8_t kind;
	uint16_t need;   /* record bytes the fields need */
	struct fld f[NFIELDS];
};

struct exec_rec {
	uint64_t ts;
	char *path;
};

/* Pages a task inserted, not yet known to be read or written. */
struct pend_insert {
	uint32_t file;
	uint64_t index, n, ts;
};

struct task {
	int tid;
	char comm[16];
	uint32_t parent;       /* forking task */
	uint32_t joined;       /* exec by a non-leader thread: the leader it replaced */
	int8_t clone_kind;     /* CK_* */
	int8_t group_dead;     /* -1 unknown */
	uint8_t self_exec;     /* exec'd as its own group leader */
	uint8_t in_fault;
	uint8_t activity;      /* inserted pages or queued I/O since the last syscall boundary */
	uint8_t waiting;       /* in a D-sleep */
	uint8_t io_wait;       /* ... that counts as I/O wait */
	uint8_t running;
	uint8_t seen;          /* any event in the window */
	uint8_t wait_cause;
	uint8_t sys_ctx;       /* it emitted syscall events: evidence lasts to a syscall boundary */
	uint8_t recorder;      /* bootprof's own recorder thread: attributed nothing */
	uint32_t meta_leader;  /* its group leader by the recording's task table, NONE */
	uint8_t span;          /* state of the open span + 1, 0: none (see span_to) */
	int16_t cpu;           /* CPU it runs on, -1 unknown */
	uint64_t span_start;
	int sys;               /* syscall class in progress, BP_SYS_NONE */
	uint64_t sys_arg0;
	uint32_t ctx_file;     /* file of the current syscall/fault */
	uint32_t last_file;    /* file it last read, across syscalls */
	uint32_t wait_file;
	uint32_t fault_file;
	uint64_t fault_index;
	uint32_t acc_file, acc_idx;   /* last (task, file) pair looked up */
	uint64_t wait_start, run_start;
	uint64_t woken;        /* sched_waking seen during the wait */
	uint64_t start, exit;
	uint32_t cgroup;       /* index in state.cgroups, NONE: unknown */
	struct exec_rec *exec;
	size_t nexec, cexec;
	struct pend_insert *pend;
	size_t npend, cpend;
	uint64_t wait_ns, wait_cause_ns[BP_NCAUSES], wait_unknown_ns, run_ns;
	uint64_t other_ns;     /* uninterruptible sleep without I/O evidence */
	uint64_t bytes, meta_bytes;
};

enum { CK_UNKNOWN, CK_PROCESS, CK_THREAD, CK_CLONE3 };

struct efile {
	uint32_t dev;
	uint64_t ino;
	uint8_t kind;
	uint8_t seen;
	int disk;
	uint64_t bytes, wait, used, never, reread, size_pages, first, last;
	uint64_t pending;      /* pages awaiting a first access */
};

struct eacc {
	uint32_t task, file;
	uint64_t wait, bytes, first, last;
};

struct ecount {
	char *path;
	uint64_t count;
};

enum devclass { DC_BLOCK = 1, DC_METADATA, DC_NONBLOCK };

/* The last files looked up, by a hash of (dev, ino): most events hit. */
#define FILE_CACHE 1024
struct file_cache {
	uint64_t ino;
	uint32_t dev;
	uint32_t file;    /* NONE: not on a block-backed filesystem */
	int valid;
};

/* The last event times of one CPU, newest at ring[(head - 1) % CPU_RING]. */
#define CPU_RING 8
struct cpu_times {
	uint64_t ring[CPU_RING];
	unsigned head;
	uint64_t idle_since;   /* when it last switched to its idle task */
};

struct state {
	const struct bp_meta *meta;
	struct tep_handle *tep;
	struct handler *h;
	int nh;
	struct fld common_pid;
	int swap;
	enum bp_arch arch;
	uint64_t since, until, bucket;
	unsigned ps;
	unsigned kinds_seen;        /* 1 << kind for every kind with a format */
	uint64_t kind_count[EV_NKINDS];

	struct task *tasks;
	size_t ntasks, ctasks;
	struct bp_map tids;         /* tid -> task index + 1 */
	uint32_t *cpu_task;         /* last task switched in per CPU (cache) */
	int *cpu_tid;

	struct efile *files;
	size_t nfiles, cfiles;
	struct bp_map filemap;      /* (dev, ino) -> file index */
	struct file_cache fcache[FILE_CACHE];
	struct eacc *acc;
	size_t nacc, cacc;
	struct bp_map accmap;       /* (task, file) -> acc index */
	struct bp_model_pages *pages;

	struct bp_disk_stat *disks;
	size_t ndisks, cdisks;
	struct bp_map devclass;     /* dev -> class | (disk + 1) << 8 */

	char **cgroups;             /* cgroup paths seen, interned */
	size_t ncgroups, ccgroups;
	struct bp_map cgroupmap;    /* (hash, probe) -> cgroup index */
	struct ecount *execs;
	size_t nexecs, cexecs;
	struct bp_map execmap;      /* (hash, probe) -> exec index */

	int ncpus;
	int8_t *cpu_idle;           /* -1 unknown, 0 busy, 1 idle */
	struct cpu_times *cpu_times;
	const struct bp_build_hooks *hooks;
	int nidle, nwaiting;
	int idle_on;
	uint64_t idle_since;

	struct bp_bucket *tl;
	size_t ntl, ctl;
	uint64_t t0;
	int t0_set;

	struct bp_totals tot;
	uint64_t last_ts;
};

/* ---- field access ---- */

static inline uint64_t rd(const struct state *s, const struct bp_event *ev, struct fld f)
{
	const unsigned char *p = (const unsigned char *)ev->data + f.off;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (f.size) {
	case 1:
		return *p;
	case 2:
		memcpy(&v16, p, 2);
		return s->swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return s->swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return s->swap ? __builtin_bswap64(v64) : v64;
	default:
		return 0;
	}
}

static inline int rd_int(const struct state *s, const struct bp_event *ev, struct fld f)
{
	return (int)(int32_t)rd(s, ev, f);
}

/* A string field (char[N] or __data_loc) copied into buf (NUL-terminated). */
static void rd_str(const struct state *s, const struct bp_event *ev, struct fld f, char *buf,
		   size_t len)
{
	const char *src;
	size_t n;

	buf[0] = 0;
	if (!f.size)
		return;
	if (f.dyn) {
		uint32_t loc = (uint32_t)rd(s, ev, f);
		size_t off = loc & 0xffff, l = loc >> 16;

		if (off > (size_t)ev->size || l > (size_t)ev->size - off)
			return;
		src = (const char *)ev->data + off;
		n = l;
	} else {
		src = (const char *)ev->data + f.off;
		n = f.size;
	}
	n = strnlen(src, n);
	if (n >= len)
		n = len - 1;
	memcpy(buf, src, n);
	buf[n] = 0;
}

static struct fld find_fld(struct tep_event *e, const char *name, const char *alt)
{
	struct tep_format_field *f = tep_find_field(e, name);
	struct fld r = { 0, 0, 0 };

	if (!f && alt)
		f = tep_find_field(e, alt);
	if (!f || f->offset < 0 || f->offset > 0xffff)
		return r;
	r.off = (uint16_t)f->offset;
	r.dyn = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
	if (r.dyn)
		r.size = 4;
	else if (f->flags & TEP_FIELD_IS_ARRAY || f->flags & TEP_FIELD_IS_STRING)
		r.size = (uint8_t)(f->size > 255 ? 255 : f->size);
	else
		r.size = (uint8_t)f->size;
	if (!r.dyn && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) &&
	    r.size != 1 && r.size != 2 && r.size != 4 && r.size != 8)
		r.size = 0;
	return r;
}

struct kind_spec {
	const char *system, *name;
	uint8_t kind;
	const char *fields[NFIELDS][2]; /* name and an older kernel's name */
	uint8_t required;               /* fields that must exist */
};

static const struct kind_spec specs[] = {
	{ "sched", "sched_switch", EV_SWITCH,
	  { { "prev_pid" }, { "prev_state" }, { "next_pid" }, { "prev_comm" }, { "next_comm" } }, 3 },
	{ "sched", "sched_waking", EV_WAKING, { { "pid" }, { "target_cpu" } }, 1 },
	{ "sched", "sched_wakeup", EV_WAKEUP, { { "pid" }, { "target_cpu" } }, 1 },
	{ "sched", "sched_process_fork", EV_FORK,
	  { { "parent_pid" }, { "child_pid" }, { "child_comm" } }, 2 },
	{ "sched", "sched_process_exec", EV_EXEC, { { "filename" }, { "pid" }, { "old_pid" } }, 3 },
	{ "sched", "sched_process_exit", EV_EXIT, { { "pid" }, { "group_dead" }, { "comm" } }, 1 },
	{ "block", "block_rq_issue", EV_RQ_ISSUE, { { "dev" }, { "nr_sector" }, { "rwbs" } }, 3 },
	{ "block", "block_bio_queue", EV_BIO_QUEUE, { { "rwbs" } }, 1 },
	{ "filemap", "mm_filemap_add_to_page_cache", EV_ADD,
	  { { "i_ino" }, { "index" }, { "s_dev" }, { "order" } }, 3 },
	{ "filemap", "mm_filemap_delete_from_page_cache", EV_DELETE,
	  { { "i_ino" }, { "index" }, { "s_dev" }, { "order" } }, 3 },
	{ "filemap", "mm_filemap_fault", EV_FAULT, { { "i_ino" }, { "index" }, { "s_dev" } }, 3 },
	{ "filemap", "mm_filemap_get_pages", EV_GET_PAGES,
	  { { "i_ino" }, { "index", "start_index" }, { "s_dev" }, { "last_index", "end_index" } }, 4 },
	{ "filemap", "mm_filemap_map_pages", EV_MAP_PAGES,
	  { { "i_ino" }, { "index", "start_index" }, { "s_dev" }, { "last_index", "end_index" } }, 4 },
	{ "readahead", "page_cache_sync_ra", EV_RA, { { "i_ino" }, { "index" }, { "s_dev" } }, 3 },
	{ "readahead", "page_cache_async_ra", EV_RA, { { "i_ino" }, { "index" }, { "s_dev" } }, 3 },
	{ "raw_syscalls", "sys_enter", EV_SYS_ENTER, { { "id" }, { "args" } }, 1 },
	{ "raw_syscalls", "sys_exit", EV_SYS_EXIT, { { "id" } }, 1 },
	{ "cgroup", "cgroup_attach_task", EV_CGROUP, { { "pid" }, { "dst_path" } }, 2 },
};

static void setup_handlers(struct state *s)
{
	size_t i;
	int j, maxid = 0;
	struct tep_event *e;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		e = tep_find_event_by_name(s->tep, specs[i].system, specs[i].name);
		if (e && e->id > maxid)
			maxid = e->id;
	}
	s->nh = maxid + 1;
	s->h = xcalloc((size_t)s->nh, sizeof(*s->h));
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		const struct kind_spec *k = &specs[i];
		struct handler hd = { 0 };
		int ok = 1;

		e = tep_find_event_by_name(s->tep, k->system, k->name);
		if (!e || e->id < 0)
			continue;
		hd.kind = k->kind;
		for (j = 0; j < NFIELDS && k->fields[j][0]; j++) {
			hd.f[j] = find_fld(e, k->fields[j][0], k->fields[j][1]);
			if (j < k->required && !hd.f[j].size)
				ok = 0;
			if (hd.f[j].size && hd.f[j].off + hd.f[j].size > hd.need)
				hd.need = (uint16_t)(hd.f[j].off + hd.f[j].size);
		}
		if (!ok)
			continue;
		s->h[e->id] = hd;
		s->kinds_seen |= 1u << k->kind;
		if (!s->common_pid.size) {
			struct tep_format_field *cf = tep_find_common_field(e, "common_pid");

			if (cf && cf->size == 4 && cf->offset >= 0 && cf->offset < 0xffff) {
				s->common_pid.off = (uint16_t)cf->offset;
				s->common_pid.size = 4;
			}
		}
	}
}

/* ---- window and timeline ---- */

static inline int in_window(const struct state *s, uint64_t ts)
{
	return ts >= s->since && ts <= s->until;
}

static struct bp_bucket *bucket_at(struct state *s, uint64_t ts)
{
	size_t i;

	if (!s->t0_set || ts < s->t0)
		return NULL;
	i = (size_t)((ts - s->t0) / s->bucket);
	if (i >= s->ntl) {
		size_t old = s->ntl;

		if (i >= MAX_BUCKETS)   /* a corrupt timestamp: no timeline beyond */
			return NULL;
		BP_GROW(s->tl, i, s->ctl);
		memset(&s->tl[old], 0, (i + 1 - old) * sizeof(*s->tl));
		s->ntl = i + 1;
	}
	return &s->tl[i];
}

enum tl_field { TL_WAIT, TL_IDLE };

/* Clip [a, b) to the window, add it to the timeline; return the clipped length. */
static uint64_t add_interval(struct state *s, uint64_t a, uint64_t b, enum tl_field which)
{
	uint64_t len, t;

	if (a < s->since)
		a = s->since;
	if (b > s->until)
		b = s->until;
	if (b <= a)
		return 0;
	len = b - a;
	for (t = a; t < b;) {
		struct bp_bucket *bk = bucket_at(s, t);
		uint64_t end = s->t0 + ((t - s->t0) / s->bucket + 1) * s->bucket;

		if (end > b)
			end = b;
		if (bk) {
			if (which == TL_WAIT)
				bk->wait_ns += end - t;
			else
				bk->idle_wait_ns += end - t;
		} else {
			break;
		}
		t = end;
	}
	return len;
}

/* CPU idle while waiting: accumulate the interval since the last change. */
static void idle_flush(struct state *s, uint64_t ts)
{
	if (s->idle_on && ts > s->idle_since)
		s->tot.idle_wait_ns += add_interval(s, s->idle_since, ts, TL_IDLE);
	s->idle_since = ts;
}

static void idle_update(struct state *s)
{
	s->idle_on = s->nwaiting > 0 && s->nidle >= s->ncpus;
}

/* ---- tasks ---- */

static uint32_t task_new(struct state *s, int tid)
{
	struct task *t;
	uint64_t *slot;

	BP_GROW(s->tasks, s->ntasks, s->ctasks);
	t = &s->tasks[s->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->parent = NONE;
	t->joined = NONE;
	t->group_dead = -1;
	t->sys = BP_SYS_NONE;
	t->cpu = -1;
	t->meta_leader = NONE;
	t->ctx_file = t->last_file = t->wait_file = t->fault_file = t->acc_file = NONE;
	t->cgroup = NONE;
	slot = bp_map_put(&s->tids, (uint64_t)(uint32_t)tid, 0, NULL);
	*slot = s->ntasks;
	return (uint32_t)s->ntasks++;
}

static uint32_t task_of(struct state *s, int tid)
{
	uint64_t *slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)tid, 0);

	return slot ? (uint32_t)*slot : task_new(s, tid);
}

static void wait_end(struct state *s, struct task *t, uint64_t ts);
static uint64_t wake_time(const struct state *s, const struct task *t, int cpu, uint64_t ts);
static void span_to(struct state *s, struct task *t, int state, uint64_t ts);

/*
 * A task that emits an event is running on that CPU, whether or not its
 * sched_switch was recorded: on some kernels the switch away from the idle
 * task is not traced on every CPU. Treat the event as the switch-in.
 */
static void implicit_switch_in(struct state *s, uint32_t ti, const struct bp_event *ev)
{
	struct task *t = &s->tasks[ti];

	idle_flush(s, ev->ts);
	if (t->waiting)
		wait_end(s, t, wake_time(s, t, ev->cpu, ev->ts));
	if (!t->running) {
		t->running = 1;
		t->run_start = ev->ts;
		t->cpu = (int16_t)ev->cpu;
		span_to(s, t, BP_SPAN_RUN, ev->ts);
	}
	if (ev->cpu >= 0 && ev->cpu < s->ncpus) {
		if (s->cpu_idle[ev->cpu] == 1)
			s->nidle--;
		s->cpu_idle[ev->cpu] = 0;
		s->cpu_task[ev->cpu] = ti;
		s->cpu_tid[ev->cpu] = t->tid;
	}
	idle_update(s);
}

/* The task of an event's common_pid, through the per-CPU cache. */
static struct task *task_cur(struct state *s, const struct bp_event *ev)
{
	int pid = rd_int(s, ev, s->common_pid);
	uint32_t t;

	if (pid <= 0)
		return NULL;
	if (ev->cpu >= 0 && ev->cpu < s->ncpus && s->cpu_tid[ev->cpu] == pid) {
		t = s->cpu_task[ev->cpu];
	} else {
		t = task_of(s, pid);
		implicit_switch_in(s, t, ev);
	}
	if (in_window(s, ev->ts))
		s->tasks[t].seen = 1;
	return &s->tasks[t];
}

static void set_comm(struct task *t, const char *comm)
{
	size_t n = strnlen(comm, sizeof(t->comm) - 1);

	if (!n)
		return;
	memcpy(t->comm, comm, n);
	t->comm[n] = 0;
}

/* ---- devices, files, disks ---- */

static int disk_add(struct state *s, uint32_t dev, const char *name, int rotational,
		    uint64_t size)
{
	struct bp_disk_stat *d;

	BP_GROW(s->disks, s->ndisks, s->cdisks);
	d = &s->disks[s->ndisks];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->name = name ? xstrdup(name) : xasprintf("%u:%u", BP_DEV_MAJOR(dev), BP_DEV_MINOR(dev));
	d->rotational = rotational;
	d->size = size;
	return (int)s->ndisks++;
}

static int disk_exact(struct state *s, uint32_t dev)
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
static int disk_of_dev(struct state *s, uint32_t dev)
{
	int d = disk_exact(s, dev), best = -1;
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
			disk = disk_of_dev(s, dev);
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
		f->disk = disk_of_dev(s, (uint32_t)ino);
		if (f->disk < 0)
			f->disk = disk_add(s, (uint32_t)ino, NULL, -1, 0);
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

static struct eacc *access_of(struct state *s, uint32_t task, uint32_t file, uint64_t ts)
{
	struct task *t = &s->tasks[task];
	uint64_t *slot;
	int inserted;
	struct eacc *a;

	if (t->acc_file == file && t->acc_file != NONE) {
		a = &s->acc[t->acc_idx];
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
		f->first = ts;
	}
	f->last = ts;
	if (!t)
		return NULL;
	return access_of(s, (uint32_t)(t - s->tasks), file, ts);
}

/* ---- pages ---- */

static inline uint64_t range_mask(uint64_t lo, uint64_t hi)
{
	/* bits lo..hi-1 of a 64-bit word, 0 <= lo < hi <= 64 */
	uint64_t m = hi == 64 ? ~0ull : (1ull << hi) - 1;

	return m & ~((1ull << lo) - 1);
}

/* Pages [first, first + n) were accessed: the pending ones become used. */
static void pages_access(struct state *s, uint32_t file, uint64_t first, uint64_t n)
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
			if (hit) {
				unsigned k = (unsigned)__builtin_popcountll(hit);

				c->pending &= ~hit;
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

static void pages_insert(struct state *s, uint32_t file, uint64_t first, uint64_t n, int inw)
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
			c->pending |= m;
			f->pending += (uint64_t)__builtin_popcountll(fresh);
		}
		c->deleted &= ~m;
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
			unsigned k = (unsigned)__builtin_popcountll(gone);

			c->pending &= ~gone;
			f->pending -= k;
			f->never += (uint64_t)k * s->ps;
		}
		c->deleted |= m;
		if ((p | 63) == UINT64_MAX)
			break;   /* the last chunk of the index space */
		p = (p | 63) + 1;
	}
}

/* ---- waits and spans ---- */

/*
 * Spans: t->span is the state of the interval open since t->span_start
 * (+ 1; 0: none open). Waits are emitted by wait_end, with their cause and
 * file, over exactly the interval added to the task's wait.
 */
static void span_emit(struct state *s, const struct task *t, int state, uint64_t a, uint64_t b,
		      uint32_t file)
{
	struct bp_span sp;

	if (!s->hooks || !s->hooks->span || t->tid <= 0 || t->recorder)
		return;
	if (a < s->since)
		a = s->since;
	if (b > s->until)
		b = s->until;
	if (b <= a)
		return;
	memset(&sp, 0, sizeof(sp));
	sp.tid = t->tid;
	sp.cpu = state == BP_SPAN_RUN ? t->cpu : -1;
	sp.state = (enum bp_span_state)state;
	sp.cause = state == BP_SPAN_IO_WAIT ? (enum bp_cause)t->wait_cause : BP_CAUSE_OTHER;
	if (state == BP_SPAN_IO_WAIT && file != NONE) {
		sp.dev = s->files[file].dev;
		sp.ino = s->files[file].ino;
	}
	sp.start_ns = a;
	sp.end_ns = b;
	s->hooks->span(s->hooks->arg, &sp);
}

/* Close t's open span at ts and open one in state (-1: none). */
static void span_to(struct state *s, struct task *t, int state, uint64_t ts)
{
	if (t->span && ts > t->span_start)
		span_emit(s, t, t->span - 1, t->span_start, ts, NONE);
	t->span = (uint8_t)(state + 1);
	t->span_start = ts;
}

/*
 * Whether a D-sleep starting now is I/O wait (DESIGN §6): a file syscall in
 * progress, a page fault on a file, or block I/O / page-cache insertion by
 * the sleeper since its last syscall boundary. A task without syscall
 * context (a kernel thread, or any task of a recording without syscall
 * events) has no boundaries: its evidence is what it did since its last
 * sleep, so a kworker counts its waits for the I/O it issued, and nothing
 * else.
 */
static int wait_is_io(const struct task *t)
{
	return t->in_fault || t->activity || (t->sys >= 0 && t->sys < BP_CAUSE_OTHER);
}

static void wait_begin(struct state *s, struct task *t, uint64_t ts)
{
	int cause;

	t->waiting = 1;
	t->wait_start = ts;
	t->woken = 0;
	t->io_wait = (uint8_t)wait_is_io(t);
	if (!t->io_wait) {
		span_to(s, t, BP_SPAN_OTHER_WAIT, ts);
		return;
	}
	span_to(s, t, BP_SPAN_IO_WAIT, ts);
	t->span = 0;    /* wait_end emits it, with its cause and file */
	if (t->in_fault)
		cause = BP_CAUSE_FAULT;
	else if (t->sys >= 0 && t->sys < BP_NCAUSES)
		cause = t->sys;
	else
		cause = BP_CAUSE_OTHER;
	t->wait_cause = (uint8_t)cause;
	t->wait_file = t->ctx_file;
	/*
	 * No page of its own in this syscall: a read that blocks on a page
	 * an earlier read's readahead is still fetching. Charge the file it
	 * was reading.
	 */
	if (t->wait_file == NONE && (cause == BP_CAUSE_READ || cause == BP_CAUSE_FAULT))
		t->wait_file = t->last_file;
	s->nwaiting++;
	if (in_window(s, ts)) {
		struct bp_bucket *b = bucket_at(s, ts);

		if (b && b->waiting_max < (uint32_t)s->nwaiting)
			b->waiting_max = (uint32_t)s->nwaiting;
	}
}

/* The D-sleep of t ended at ts (it became runnable then). */
static void wait_end(struct state *s, struct task *t, uint64_t ts)
{
	uint64_t d, a, b;

	t->waiting = 0;
	if (!t->io_wait) {
		a = t->wait_start < s->since ? s->since : t->wait_start;
		b = ts > s->until ? s->until : ts;
		if (b > a) {
			t->other_ns += b - a;
			t->seen = 1;
		}
		span_to(s, t, BP_SPAN_RUNNABLE, ts);
		return;
	}
	t->io_wait = 0;
	s->nwaiting--;
	span_emit(s, t, BP_SPAN_IO_WAIT, t->wait_start, ts, t->wait_file);
	t->span = BP_SPAN_RUNNABLE + 1;
	t->span_start = ts;
	d = add_interval(s, t->wait_start, ts, TL_WAIT);
	if (!d)
		return;
	t->seen = 1;
	t->wait_ns += d;
	t->wait_cause_ns[t->wait_cause] += d;
	if (t->wait_file != NONE) {
		struct efile *f = &s->files[t->wait_file];
		uint64_t at = ts > s->until ? s->until : ts;
		struct eacc *acc;

		f->wait += d;
		if (!f->seen) {
			f->seen = 1;
			f->first = f->last = at;
		}
		acc = access_of(s, (uint32_t)(t - s->tasks), t->wait_file, at);
		acc->wait += d;
	} else {
		t->wait_unknown_ns += d;
	}
}

/*
 * When a task woken at t->woken (sched_waking) became runnable, now that it
 * runs on cpu at ts. The run-queue clock starts when the task is enqueued
 * (ttwu_do_activate), which is at the waking unless the wakeup was queued
 * to an idle CPU (ttwu_queue_wakelist): then that CPU enqueues it when it
 * wakes up, at its first event after the waking (usually this switch). The
 * waking's target_cpu cannot tell which CPU that is (it is the task's
 * previous CPU, before select_task_rq), the CPU it runs on can. Without a
 * waking, the wait ends at the switch-in.
 */
static uint64_t wake_time(const struct state *s, const struct task *t, int cpu, uint64_t ts)
{
	const struct cpu_times *c;
	uint64_t w = t->woken, first = ts;
	unsigned i;

	if (!w || w > ts)
		return ts;
	if (cpu < 0 || cpu >= s->ncpus || s->cpu_idle[cpu] != 1)
		return w;
	c = &s->cpu_times[cpu];
	if (c->idle_since > w)
		return w;
	for (i = 1; i <= CPU_RING; i++) {
		uint64_t e = c->ring[(c->head - i) % CPU_RING];

		if (e < w)
			break;
		first = e;
	}
	return first;
}

/* ---- event handlers ---- */

static void on_switch(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int prev = rd_int(s, ev, h->f[F_PREV_PID]);
	int next = rd_int(s, ev, h->f[F_NEXT_PID]);
	uint64_t state = rd(s, ev, h->f[F_PREV_STATE]);
	int inw = in_window(s, ev->ts);
	char comm[16];
	uint32_t ti;
	struct task *t;

	idle_flush(s, ev->ts);
	if (prev > 0) {
		ti = (ev->cpu >= 0 && ev->cpu < s->ncpus && s->cpu_tid[ev->cpu] == prev) ?
			     s->cpu_task[ev->cpu] : task_of(s, prev);
		t = &s->tasks[ti];
		if (inw) {
			t->seen = 1;
			if (h->f[F_PREV_COMM].size) {
				rd_str(s, ev, h->f[F_PREV_COMM], comm, sizeof(comm));
				set_comm(t, comm);
			}
		}
		if (t->running) {
			uint64_t a = t->run_start < s->since ? s->since : t->run_start;
			uint64_t b = ev->ts > s->until ? s->until : ev->ts;

			if (b > a)
				t->run_ns += b - a;
			t->running = 0;
		}
		/* It ran, so an earlier wait whose end was not seen is over. */
		if (t->waiting)
			wait_end(s, t, t->woken ? t->woken : ev->ts);
		if ((state & TASK_REPORT_PREEMPT) || !(state & 0xff)) {
			span_to(s, t, BP_SPAN_RUNNABLE, ev->ts);
		} else {
			if ((state & 0xff) == TASK_UNINTERRUPTIBLE && !t->recorder)
				wait_begin(s, t, ev->ts);
			else if (state & (TASK_REPORT_DEAD | TASK_REPORT_ZOMBIE))
				span_to(s, t, -1, ev->ts);
			else
				span_to(s, t, BP_SPAN_SLEEP, ev->ts);
			/* Without syscall boundaries, evidence lasts until it sleeps. */
			if (!t->sys_ctx) {
				t->activity = 0;
				t->in_fault = 0;
			}
		}
	}
	if (next > 0) {
		ti = task_of(s, next);
		t = &s->tasks[ti];
		if (inw) {
			t->seen = 1;
			if (h->f[F_NEXT_COMM].size && !t->comm[0]) {
				rd_str(s, ev, h->f[F_NEXT_COMM], comm, sizeof(comm));
				set_comm(t, comm);
			}
		}
		if (t->waiting)
			wait_end(s, t, wake_time(s, t, ev->cpu, ev->ts));
		t->running = 1;
		t->run_start = ev->ts;
		t->cpu = (int16_t)ev->cpu;
		span_to(s, t, BP_SPAN_RUN, ev->ts);
	} else {
		ti = NONE;
	}
	if (ev->cpu >= 0 && ev->cpu < s->ncpus) {
		int idle = next == 0;

		s->cpu_task[ev->cpu] = ti;
		s->cpu_tid[ev->cpu] = next > 0 ? next : -1;
		if (s->cpu_idle[ev->cpu] == 1)
			s->nidle--;
		if (idle && s->cpu_idle[ev->cpu] != 1)
			s->cpu_times[ev->cpu].idle_since = ev->ts;
		s->cpu_idle[ev->cpu] = (int8_t)idle;
		if (idle)
			s->nidle++;
	}
	idle_update(s);
}

static void on_fork(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int ppid = rd_int(s, ev, h->f[F_PARENT_PID]);
	int cpid = rd_int(s, ev, h->f[F_CHILD_PID]);
	uint32_t pi = ppid > 0 ? task_of(s, ppid) : NONE, ci;
	struct task *p, *c;
	char comm[16];

	if (cpid <= 0)
		return;
	ci = task_new(s, cpid);
	c = &s->tasks[ci];
	c->start = ev->ts;
	c->parent = pi;
	if (pi != NONE)
		c->cgroup = s->tasks[pi].cgroup;   /* a child starts in its parent's cgroup */
	c->seen = (uint8_t)in_window(s, ev->ts);
	rd_str(s, ev, h->f[F_CHILD_COMM], comm, sizeof(comm));
	if (pi == NONE)
		return;
	p = &s->tasks[pi];
	if (!comm[0])
		memcpy(comm, p->comm, sizeof(comm));
	set_comm(c, comm);
	switch (p->sys) {
	case BP_SYS_CLONE:
		c->clone_kind = (p->sys_arg0 & CLONE_THREAD) ? CK_THREAD : CK_PROCESS;
		break;
	case BP_SYS_CLONE3:
		c->clone_kind = CK_CLONE3;
		break;
	case BP_SYS_FORK:
		c->clone_kind = CK_PROCESS;
		break;
	default:
		break;
	}
}

static uint64_t str_hash(const char *str)
{
	uint64_t h = 1469598103934665603ull;

	for (; *str; str++)
		h = (h ^ (unsigned char)*str) * 1099511628211ull;
	return h;
}

static void count_exec(struct state *s, const char *path)
{
	uint64_t h = str_hash(path), probe;

	for (probe = 0;; probe++) {
		int inserted;
		uint64_t *slot = bp_map_put(&s->execmap, h, probe, &inserted);

		if (inserted) {
			BP_GROW(s->execs, s->nexecs, s->cexecs);
			s->execs[s->nexecs].path = xstrdup(path);
			s->execs[s->nexecs].count = 1;
			*slot = s->nexecs++;
			return;
		}
		if (!strcmp(s->execs[*slot].path, path)) {
			s->execs[*slot].count++;
			return;
		}
	}
}

static void on_exec(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[F_EXEC_PID]);
	int old = rd_int(s, ev, h->f[F_OLD_PID]);
	char path[4096];
	const char *base;
	uint32_t ti;
	struct task *t;

	if (pid <= 0 || old <= 0)
		return;
	ti = task_of(s, old);
	t = &s->tasks[ti];
	if (pid != old) {
		uint64_t *slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)pid, 0);

		/* A thread exec'd: it takes over its leader's pid. */
		if (slot && (uint32_t)*slot != ti)
			t->joined = (uint32_t)*slot;
		slot = bp_map_put(&s->tids, (uint64_t)(uint32_t)pid, 0, NULL);
		*slot = ti;
		t->tid = pid;
	} else {
		t->self_exec = 1;
	}
	rd_str(s, ev, h->f[F_FILENAME], path, sizeof(path));
	if (!path[0] || ev->ts > s->until)
		return;
	base = strrchr(path, '/');
	set_comm(t, base ? base + 1 : path);
	BP_GROW(t->exec, t->nexec, t->cexec);
	t->exec[t->nexec].ts = ev->ts;
	t->exec[t->nexec].path = xstrdup(path);
	t->nexec++;
	if (in_window(s, ev->ts)) {
		t->seen = 1;
		count_exec(s, path);
	}
}

static void on_process_exit(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[F_EXIT_PID]);
	uint32_t ti;
	struct task *t;

	if (pid <= 0)
		return;
	ti = task_of(s, pid);   /* may grow s->tasks: index first */
	t = &s->tasks[ti];
	t->exit = ev->ts;
	if (h->f[F_GROUP_DEAD].size)
		t->group_dead = (int8_t)!!rd(s, ev, h->f[F_GROUP_DEAD]);
}

static void on_rq_issue(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint32_t dev = (uint32_t)rd(s, ev, h->f[F_RQ_DEV]);
	uint64_t bytes = rd(s, ev, h->f[F_NR_SECTOR]) * 512;
	char rwbs[16];
	struct task *t = task_cur(s, ev);
	struct bp_disk_stat *d;
	int di;

	if (t)
		t->activity = 1;
	if (!in_window(s, ev->ts))
		return;
	rd_str(s, ev, h->f[F_RWBS], rwbs, sizeof(rwbs));
	di = disk_exact(s, dev);
	if (di < 0)
		di = disk_add(s, dev, NULL, -1, 0);
	d = &s->disks[di];
	if (strchr(rwbs, 'R')) {
		struct bp_bucket *b = bucket_at(s, ev->ts);

		d->rq_read_bytes += bytes;
		d->rq_reads++;
		if (b)
			b->rq_read_bytes += bytes;
	} else if (strchr(rwbs, 'W')) {
		d->rq_write_bytes += bytes;
	}
}

/* Pages [index, index + n) of file fi were read from storage by t at ts. */
static void account_read(struct state *s, struct task *t, uint32_t fi, uint64_t index, uint64_t n,
			 uint64_t ts)
{
	struct efile *f = &s->files[fi];
	uint64_t bytes = n * s->ps;
	int inw = in_window(s, ts);

	pages_insert(s, fi, index, n, inw);
	if (index + n > f->size_pages)
		f->size_pages = index + n;
	/* The fault that asked for this page came first: it uses it. */
	if (t && t->in_fault && t->fault_file == fi && t->fault_index >= index &&
	    t->fault_index < index + n)
		pages_access(s, fi, t->fault_index, 1);
	if (inw && !(t && t->recorder)) {
		struct eacc *a = touch(s, t, fi, ts);
		struct bp_bucket *b = bucket_at(s, ts);

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
 * Settle t's inserted pages: read from storage when the task then queued
 * a read bio, else created by a buffered write (or a hole: no I/O) - unless
 * the recording has no block_bio_queue at all, when every insertion is a read.
 */
static void settle_inserts(struct state *s, struct task *t, int read)
{
	size_t i;

	if (!read && !s->kind_count[EV_BIO_QUEUE])
		read = 1;
	for (i = 0; i < t->npend; i++) {
		const struct pend_insert *p = &t->pend[i];

		if (read) {
			account_read(s, t, p->file, p->index, p->n, p->ts);
		} else {
			pages_insert(s, p->file, p->index, p->n, 0);
			if (in_window(s, p->ts))
				s->tot.write_insert_bytes += p->n * s->ps;
		}
	}
	t->npend = 0;
}

static void on_add(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint64_t order = h->f[F_ORDER].size ? rd(s, ev, h->f[F_ORDER]) : 0;
	uint64_t n = 1ull << (order > 20 ? 20 : order);
	uint64_t index = rd(s, ev, h->f[F_INDEX]);
	uint32_t fi = event_file(s, ev, h, n * s->ps);
	struct task *t = task_cur(s, ev);
	struct pend_insert *last;

	if (fi == NONE)
		return;
	if (!t || !(s->kinds_seen & (1u << EV_BIO_QUEUE))) {
		account_read(s, t, fi, index, n, ev->ts);
		if (t) {
			t->activity = 1;
			t->ctx_file = t->last_file = fi;
		}
		return;
	}
	t->activity = 1;
	t->ctx_file = t->last_file = fi;
	/*
	 * A buffered write inserts the pages it creates too, and so does a
	 * filesystem allocating new metadata blocks: wait for the read bio
	 * that shows these pages come from storage (settle_inserts).
	 */
	last = t->npend ? &t->pend[t->npend - 1] : NULL;
	if (last && last->file == fi && last->index + last->n == index &&
	    in_window(s, last->ts) == in_window(s, ev->ts)) {
		last->n += n;
		return;
	}
	BP_GROW(t->pend, t->npend, t->cpend);
	t->pend[t->npend].file = fi;
	t->pend[t->npend].index = index;
	t->pend[t->npend].n = n;
	t->pend[t->npend].ts = ev->ts;
	t->npend++;
}

static void on_delete(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint64_t order = h->f[F_ORDER].size ? rd(s, ev, h->f[F_ORDER]) : 0;
	uint32_t fi = event_file(s, ev, h, 0);

	if (fi != NONE)
		pages_delete(s, fi, rd(s, ev, h->f[F_INDEX]), 1ull << (order > 20 ? 20 : order));
}

static void on_fault(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint64_t index = rd(s, ev, h->f[F_INDEX]);
	uint32_t fi = event_file(s, ev, h, 0);
	struct task *t = task_cur(s, ev);

	if (t) {
		if (t->npend)
			settle_inserts(s, t, 0);
		t->in_fault = 1;
		t->ctx_file = fi;
		t->fault_file = fi;
		t->fault_index = index;
		if (fi != NONE)
			t->last_file = fi;
	}
	if (fi == NONE)
		return;
	pages_access(s, fi, index, 1);
	touch(s, t, fi, ev->ts);
}

static void on_access(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint64_t first = rd(s, ev, h->f[F_INDEX]), last = rd(s, ev, h->f[F_LAST]);
	uint32_t fi = event_file(s, ev, h, 0);
	struct task *t;

	if (fi == NONE)
		return;
	t = task_cur(s, ev);
	/*
	 * One access spans at most what a read or mapping can (a corrupt
	 * index must not make a pass over 2^60 pages): 2^32 pages is 16 TiB.
	 */
	if (last >= first && last - first < (1ULL << 32))
		pages_access(s, fi, first, last - first + 1);
	if (t)
		t->last_file = fi;
	touch(s, t, fi, ev->ts);
}

static void on_ra(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	uint32_t fi = event_file(s, ev, h, 0);
	struct task *t = task_cur(s, ev);

	if (fi == NONE || !t)
		return;
	t->ctx_file = t->last_file = fi;
	touch(s, t, fi, ev->ts);
}

static void on_sys(struct state *s, const struct bp_event *ev, const struct handler *h,
		   int enter)
{
	struct task *t = task_cur(s, ev);

	if (!t)
		return;
	if (t->npend)
		settle_inserts(s, t, 0);
	t->sys_ctx = 1;
	if (enter) {
		t->sys = bp_syscall_class(s->arch, (long)rd(s, ev, h->f[F_SYS_ID]));
		t->sys_arg0 = h->f[F_SYS_ARGS].size ? rd(s, ev, (struct fld){ h->f[F_SYS_ARGS].off, 8, 0 }) : 0;
	} else {
		t->sys = BP_SYS_NONE;
	}
	t->in_fault = 0;
	t->activity = 0;
	t->ctx_file = NONE;
}

/*
 * sched_wakeup is traced where the task is enqueued (ttwu_do_activate): the
 * wait ends there. sched_waking is traced before the kernel picks the CPU:
 * the wait ends when the task becomes runnable, which wake_time() decides
 * at its switch-in. A task that is not in a D-sleep only becomes runnable
 * (spans).
 */
static void on_wake(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[0]);
	uint64_t *slot;
	struct task *t;

	if (pid <= 0)
		return;
	slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)pid, 0);
	if (!slot)
		return;
	t = &s->tasks[(uint32_t)*slot];
	if (!t->waiting) {
		if (t->span == BP_SPAN_SLEEP + 1)
			span_to(s, t, BP_SPAN_RUNNABLE, ev->ts);
		return;
	}
	if (h->kind == EV_WAKING) {
		if (!t->woken)
			t->woken = ev->ts;
		return;
	}
	idle_flush(s, ev->ts);
	wait_end(s, t, ev->ts);
	idle_update(s);
}

/* The cgroup a task moved into: its service, on a systemd machine. */
static void on_cgroup(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	int pid = rd_int(s, ev, h->f[0]);
	char path[4096];
	uint64_t hash, probe;

	if (pid <= 0)
		return;
	rd_str(s, ev, h->f[1], path, sizeof(path));
	if (!path[0])
		return;
	hash = str_hash(path);
	for (probe = 0;; probe++) {
		int inserted;
		uint64_t *slot = bp_map_put(&s->cgroupmap, hash, probe, &inserted);

		if (inserted) {
			BP_GROW(s->cgroups, s->ncgroups, s->ccgroups);
			s->cgroups[s->ncgroups] = xstrdup(path);
			*slot = s->ncgroups++;
		}
		if (!strcmp(s->cgroups[*slot], path)) {
			uint32_t cg = (uint32_t)*slot, ti = task_of(s, pid);

			s->tasks[ti].cgroup = cg;
			return;
		}
	}
}

static void on_bio_queue(struct state *s, const struct bp_event *ev, const struct handler *h)
{
	struct task *t = task_cur(s, ev);
	char rwbs[16];

	if (!t)
		return;
	t->activity = 1;
	if (!t->npend)
		return;
	rd_str(s, ev, h->f[0], rwbs, sizeof(rwbs));
	if (strchr(rwbs, 'R'))
		settle_inserts(s, t, 1);
}

static void consume(struct state *s, const struct bp_event *ev)
{
	const struct handler *h;

	if (ev->cpu >= 0 && ev->cpu < s->ncpus) {
		struct cpu_times *c = &s->cpu_times[ev->cpu];

		c->ring[c->head++ % CPU_RING] = ev->ts;
	}
	if (ev->id < 0 || ev->id >= s->nh)
		return;
	h = &s->h[ev->id];
	if (!h->kind || ev->size < h->need || ev->size < s->common_pid.off + 4)
		return;
	s->kind_count[h->kind]++;
	switch (h->kind) {
	case EV_SWITCH:
		on_switch(s, ev, h);
		break;
	case EV_SYS_ENTER:
		on_sys(s, ev, h, 1);
		break;
	case EV_SYS_EXIT:
		on_sys(s, ev, h, 0);
		break;
	case EV_GET_PAGES:
	case EV_MAP_PAGES:
		on_access(s, ev, h);
		break;
	case EV_ADD:
		on_add(s, ev, h);
		break;
	case EV_DELETE:
		on_delete(s, ev, h);
		break;
	case EV_FAULT:
		on_fault(s, ev, h);
		break;
	case EV_RA:
		on_ra(s, ev, h);
		break;
	case EV_RQ_ISSUE:
		on_rq_issue(s, ev, h);
		break;
	case EV_BIO_QUEUE:
		on_bio_queue(s, ev, h);
		break;
	case EV_FORK:
		on_fork(s, ev, h);
		break;
	case EV_EXEC:
		on_exec(s, ev, h);
		break;
	case EV_EXIT:
		on_process_exit(s, ev, h);
		break;
	case EV_WAKING:
	case EV_WAKEUP:
		on_wake(s, ev, h);
		break;
	case EV_CGROUP:
		on_cgroup(s, ev, h);
		break;
	default:
		break;
	}
}

/* ---- after the pass ---- */

/* Close what is still open at the end: waits, run slices, idle time, pages. */
static void finish_pass(struct state *s)
{
	uint64_t end = s->last_ts < s->until ? s->last_ts : s->until;
	struct bp_map_slot const *slot;
	size_t i;

	idle_flush(s, end);
	for (i = 0; i < s->ntasks; i++) {
		struct task *t = &s->tasks[i];

		if (t->npend)
			settle_inserts(s, t, 0);
		if (t->waiting)
			wait_end(s, t, t->woken && t->woken < end ? t->woken : end);
		if (t->running) {
			uint64_t a = t->run_start < s->since ? s->since : t->run_start;

			if (end > a)
				t->run_ns += end - a;
			t->running = 0;
		}
		span_to(s, t, -1, end);
		if (t->recorder)
			t->seen = 0;
	}
	for (i = 0; bp_map_next(&s->pages->map, &i, &slot);) {
		const struct bp_page_chunk *c = &s->pages->chunks[slot->value];

		if (c->pending)
			s->files[slot->k1].never +=
				(uint64_t)__builtin_popcountll(c->pending) * s->ps;
	}
}

static int is_thread(const struct task *t)
{
	switch (t->clone_kind) {
	case CK_THREAD:
		return 1;
	case CK_PROCESS:
		return 0;
	default:
		break;
	}
	if (t->group_dead >= 0)
		return !t->group_dead;
	return t->clone_kind == CK_CLONE3;
}

/*
 * Which task leads each task's thread group (see bp_process in model.h):
 * an exec names it exactly; then clone flags; then the exit's group_dead;
 * then clone3 without exec means a thread; else the task is its own process.
 */
static uint32_t *resolve_groups(struct state *s)
{
	uint32_t *up = xmalloc((s->ntasks + 1) * sizeof(*up));
	uint32_t *leader = xmalloc((s->ntasks + 1) * sizeof(*leader));
	size_t i;

	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];

		if (t->joined != NONE)
			up[i] = t->joined;
		else if (t->self_exec)
			up[i] = (uint32_t)i;
		else if (t->parent != NONE && is_thread(t))
			up[i] = t->parent;
		else if (t->parent == NONE && t->meta_leader != NONE)
			up[i] = t->meta_leader;
		else
			up[i] = (uint32_t)i;
	}
	for (i = 0; i < s->ntasks; i++) {
		uint32_t j = (uint32_t)i;
		int steps = 0;

		while (up[j] != j && steps++ < 1024)
			j = up[j];
		leader[i] = j;
	}
	free(up);
	return leader;
}

static void copy_header(struct bp_model *m, struct state *s, struct bp_reader *r)
{
	const struct bp_meta *mt = s->meta;
	struct bp_model_header *h = &m->header;
	const char *warn = r ? bp_reader_warnings(r) : NULL;
	size_t i;

#define DUP(x) ((x) ? xstrdup(x) : NULL)
	if (mt) {
		h->hostname = DUP(mt->hostname);
		h->kernel_release = DUP(mt->kernel_release);
		h->kernel_version = DUP(mt->kernel_version);
		h->machine = DUP(mt->machine);
		h->cmdline = DUP(mt->cmdline);
		h->clock = DUP(mt->clock);
		h->command = DUP(mt->command);
		h->stop_reason = DUP(mt->stop_reason);
		h->bootprof_version = DUP(mt->bootprof_version);
		h->ncpus = mt->ncpus;
		h->start_ns = mt->start_ns;
		h->stop_ns = mt->stop_ns;
		if (mt->nunavailable) {
			h->unavailable = xcalloc(mt->nunavailable, sizeof(char *));
			for (i = 0; i < mt->nunavailable; i++)
				h->unavailable[i] = xstrdup(mt->unavailable[i]);
			h->nunavailable = mt->nunavailable;
		}
	}
#undef DUP
	if (h->ncpus <= 0)
		h->ncpus = s->ncpus;
	h->page_size = s->ps;
	h->warnings = warn ? xstrdup(warn) : NULL;
}

/* 1: the recording has the event; 0: not recorded; -1: the kernel lacks it. */
static int recorded(const struct state *s, const char *name, int kind)
{
	char sys[64];
	const char *colon = strchr(name, ':');
	size_t i;

	if (s->meta && s->meta->nevents) {
		for (i = 0; i < s->meta->nunavailable; i++) {
			if (!strcmp(s->meta->unavailable[i], name))
				return -1;
		}
		for (i = 0; i < s->meta->nevents; i++) {
			if (!strcmp(s->meta->events[i], name))
				return 1;
		}
		return 0;
	}
	/*
	 * A trace-cmd file carries the formats of every event of the kernel,
	 * recorded or not: no format means the kernel lacks the event, no
	 * event of it means it was not recorded (or did not happen).
	 */
	if (!colon || (size_t)(colon - name) >= sizeof(sys))
		return 0;
	memcpy(sys, name, (size_t)(colon - name));
	sys[colon - name] = 0;
	if (!tep_find_event_by_name(s->tep, sys, colon + 1))
		return -1;
	return s->kind_count[kind] > 0;
}

struct needed {
	unsigned bit;
	const char *name;
	int kind;
	int any;   /* one event of the group suffices */
};

static const struct needed needed[] = {
	{ BP_MISSING_SCHED, "sched:sched_switch", EV_SWITCH, 0 },
	{ BP_MISSING_WAKEUP, "sched:sched_waking", EV_WAKING, 1 },
	{ BP_MISSING_WAKEUP, "sched:sched_wakeup", EV_WAKEUP, 1 },
	{ BP_MISSING_FORK, "sched:sched_process_fork", EV_FORK, 0 },
	{ BP_MISSING_SYSCALLS, "raw_syscalls:sys_enter", EV_SYS_ENTER, 0 },
	{ BP_MISSING_FILEMAP, "filemap:mm_filemap_add_to_page_cache", EV_ADD, 0 },
	{ BP_MISSING_ACCESS, "filemap:mm_filemap_get_pages", EV_GET_PAGES, 1 },
	{ BP_MISSING_ACCESS, "filemap:mm_filemap_map_pages", EV_MAP_PAGES, 1 },
	{ BP_MISSING_ACCESS, "filemap:mm_filemap_fault", EV_FAULT, 1 },
	{ BP_MISSING_DELETE, "filemap:mm_filemap_delete_from_page_cache", EV_DELETE, 0 },
	{ BP_MISSING_BLOCK, "block:block_rq_issue", EV_RQ_ISSUE, 0 },
};

/*
 * Which measurements the recording cannot make, and of those, which because
 * the kernel lacks the events (*kernel). In a group marked "any", one
 * recorded event is enough; the kernel lacks the group when it lacks all.
 */
static unsigned missing_flags(const struct state *s, unsigned *kernel)
{
	unsigned have = 0, seen = 0, lacks = 0, all_lack = ~0u, m = 0;
	size_t i;

	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		const struct needed *n = &needed[i];
		int r = recorded(s, n->name, n->kind);

		seen |= n->bit;
		if (r > 0)
			have |= n->bit;
		else if (!n->any)
			m |= n->bit;
		if (r < 0)
			lacks |= n->bit;
		else
			all_lack &= ~n->bit;
	}
	m |= seen & ~have;
	*kernel = m & lacks & all_lack;
	return m;
}

static int cmp_proc_order(const void *pa, const void *pb)
{
	const struct bp_process *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

static int cmp_thread_order(const void *pa, const void *pb)
{
	const struct bp_thread *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

static int cmp_file_order(const void *pa, const void *pb)
{
	const struct efile *a = *(struct efile *const *)pa, *b = *(struct efile *const *)pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (a->ino > b->ino) - (a->ino < b->ino);
}

static int cmp_reader(const void *pa, const void *pb)
{
	const struct bp_access *a = *(struct bp_access *const *)pa;
	const struct bp_access *b = *(struct bp_access *const *)pb;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->bytes_read != b->bytes_read)
		return a->bytes_read > b->bytes_read ? -1 : 1;
	if (a->process->pid != b->process->pid)
		return a->process->pid < b->process->pid ? -1 : 1;
	return (a->process->start_ns > b->process->start_ns) -
	       (a->process->start_ns < b->process->start_ns);
}

static int cmp_proc_file(const void *pa, const void *pb)
{
	const struct bp_access *a = *(struct bp_access *const *)pa;
	const struct bp_access *b = *(struct bp_access *const *)pb;
	int c;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->bytes_read != b->bytes_read)
		return a->bytes_read > b->bytes_read ? -1 : 1;
	c = strcmp(a->file->path, b->file->path);
	if (c)
		return c;
	return (a->file > b->file) - (a->file < b->file);
}

static int cmp_child(const void *pa, const void *pb)
{
	const struct bp_process *a = *(struct bp_process *const *)pa;
	const struct bp_process *b = *(struct bp_process *const *)pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int cmp_exec_rec(const void *pa, const void *pb)
{
	const struct exec_rec *a = pa, *b = pb;

	return (a->ts > b->ts) - (a->ts < b->ts);
}

static int cmp_exec_count(const void *pa, const void *pb)
{
	const struct bp_exec_count *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Processes and threads from the tasks seen in the window. */
static uint32_t *build_processes(struct bp_model *m, struct state *s)
{
	uint32_t *leader = resolve_groups(s);
	uint32_t *proc_of_leader = xmalloc((s->ntasks + 1) * sizeof(*proc_of_leader));
	uint32_t *proc_of_task = xmalloc((s->ntasks + 1) * sizeof(*proc_of_task));
	size_t i, np = 0, nt = 0;

	for (i = 0; i < s->ntasks; i++)
		proc_of_leader[i] = NONE;
	for (i = 0; i < s->ntasks; i++) {
		if (s->tasks[i].seen && proc_of_leader[leader[i]] == NONE)
			proc_of_leader[leader[i]] = (uint32_t)np++;
		if (s->tasks[i].seen)
			nt++;
	}
	m->processes = xcalloc(np + 1, sizeof(*m->processes));
	m->nprocesses = np;
	m->threads = xcalloc(nt + 1, sizeof(*m->threads));
	/* Leaders first, in task order, so their fields seed the process. */
	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];
		struct bp_process *p;

		if (proc_of_leader[i] == NONE)
			continue;
		p = &m->processes[proc_of_leader[i]];
		p->pid = t->tid;
		memcpy(p->comm, t->comm, sizeof(p->comm));
		p->start_ns = t->start;
		p->exit_ns = t->exit;
		p->ppid = -1;     /* resolved below */
		p->tree_processes = t->parent;  /* parent task, until resolved */
		/* cgroup index + 1 until build_services() */
		p->service = (struct bp_service *)(uintptr_t)(t->cgroup == NONE ? 0 : t->cgroup + 1);
	}
	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];
		uint32_t pi = proc_of_leader[leader[i]];
		struct bp_process *p;
		struct bp_thread *th;
		int c;

		proc_of_task[i] = pi;
		if (pi == NONE || !t->seen)
			continue;
		p = &m->processes[pi];
		th = &m->threads[m->nthreads++];
		th->tid = t->tid;
		memcpy(th->comm, t->comm, sizeof(th->comm));
		th->start_ns = t->start;
		th->exit_ns = t->exit;
		th->wait_ns = t->wait_ns;
		th->other_wait_ns = t->other_ns;
		th->run_ns = t->run_ns;
		th->process = (struct bp_process *)(uintptr_t)pi;  /* index until sorted */
		p->wait_ns += t->wait_ns;
		for (c = 0; c < BP_NCAUSES; c++)
			p->wait_by_cause[c] += t->wait_cause_ns[c];
		p->wait_unknown_ns += t->wait_unknown_ns;
		p->other_wait_ns += t->other_ns;
		p->run_ns += t->run_ns;
		if (!p->service && t->cgroup != NONE)
			p->service = (struct bp_service *)(uintptr_t)(t->cgroup + 1);
		p->bytes_read += t->bytes;
		p->metadata_bytes += t->meta_bytes;
		if (!t->exit)
			p->exit_ns = UINT64_MAX;      /* a thread still runs */
		else if (p->exit_ns != UINT64_MAX && t->exit > p->exit_ns)
			p->exit_ns = t->exit;
		/* The exec'ing member names the process. */
		if (t->nexec && t->comm[0] && (uint32_t)i != leader[i])
			memcpy(p->comm, t->comm, sizeof(p->comm));
		p->nthreads++;
	}
	/* Exec history of all members, in time order. */
	for (i = 0; i < s->ntasks; i++) {
		const struct task *t = &s->tasks[i];
		struct bp_process *p;
		size_t j;

		if (proc_of_task[i] == NONE || !t->nexec)
			continue;
		p = &m->processes[proc_of_task[i]];
		p->exec = xrealloc(p->exec, (p->nexec + t->nexec) * sizeof(char *));
		for (j = 0; j < t->nexec; j++)
			p->exec[p->nexec++] = (char *)&t->exec[j]; /* records until sorted */
	}
	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i];
		struct exec_rec *tmp;
		size_t j;

		if (p->exit_ns == UINT64_MAX)
			p->exit_ns = 0;
		if (!p->nexec)
			continue;
		tmp = xmalloc(p->nexec * sizeof(*tmp));
		for (j = 0; j < p->nexec; j++)
			tmp[j] = *(struct exec_rec *)p->exec[j];
		qsort(tmp, p->nexec, sizeof(*tmp), cmp_exec_rec);
		for (j = 0; j < p->nexec; j++)
			p->exec[j] = xstrdup(tmp[j].path);
		free(tmp);
	}
	free(leader);
	free(proc_of_leader);
	return proc_of_task;
}

/*
 * Sort processes and threads into their final order and turn the indices
 * parked in pointer fields into pointers. Returns old index -> new index.
 */
static uint32_t *order_processes(struct bp_model *m, struct state *s, uint32_t *proc_of_task)
{
	size_t np = m->nprocesses, i;
	uint32_t *newpos = xmalloc((np + 1) * sizeof(*newpos));
	struct bp_process *sorted;
	size_t *key = xmalloc((np + 1) * sizeof(*key));

	/* Remember each process's old index in a field qsort carries along. */
	for (i = 0; i < np; i++) {
		key[i] = m->processes[i].tree_processes;        /* parent task */
		m->processes[i].tree_processes = i;
	}
	sorted = m->processes;
	qsort(sorted, np, sizeof(*sorted), cmp_proc_order);
	for (i = 0; i < np; i++)
		newpos[sorted[i].tree_processes] = (uint32_t)i;
	for (i = 0; i < np; i++) {
		struct bp_process *p = &sorted[i];
		size_t parent_task = key[p->tree_processes];
		uint32_t pp = parent_task == NONE ? NONE : proc_of_task[parent_task];

		p->tree_processes = 0;
		if (pp != NONE && newpos[pp] != i) {
			p->parent = &sorted[newpos[pp]];
			p->ppid = p->parent->pid;
		} else {
			p->parent = NULL;
			p->ppid = parent_task == NONE ? 0 : s->tasks[parent_task].tid;
		}
	}
	for (i = 0; i < m->nthreads; i++) {
		struct bp_thread *th = &m->threads[i];

		th->process = &sorted[newpos[(uintptr_t)th->process]];
	}
	qsort(m->threads, m->nthreads, sizeof(*m->threads), cmp_thread_order);
	for (i = 0; i < np; i++) {
		sorted[i].threads = xcalloc(sorted[i].nthreads + 1, sizeof(struct bp_thread *));
		sorted[i].nthreads = 0;
	}
	for (i = 0; i < m->nthreads; i++) {
		struct bp_process *p = m->threads[i].process;

		p->threads[p->nthreads++] = &m->threads[i];
	}
	free(key);
	return newpos;
}

static char *file_path(const struct state *s, const struct efile *f)
{
	const char *p;

	if (f->kind == BP_FILE_METADATA)
		return xasprintf("[metadata %s]", f->disk >= 0 ? s->disks[f->disk].name : "?");
	p = s->meta ? bp_meta_find_path(s->meta, f->dev, f->ino) : NULL;
	if (p)
		return xstrdup(p);
	return xasprintf("[unresolved %u:%u:%llu]", BP_DEV_MAJOR(f->dev), BP_DEV_MINOR(f->dev),
			 (unsigned long long)f->ino);
}

/* Files seen in the window, by (dev, ino); returns engine file -> model position. */
static uint32_t *build_files(struct bp_model *m, struct state *s)
{
	struct efile **v = xmalloc((s->nfiles + 1) * sizeof(*v));
	uint32_t *pos = xmalloc((s->nfiles + 1) * sizeof(*pos));
	size_t i, n = 0;

	for (i = 0; i < s->nfiles; i++) {
		pos[i] = NONE;
		if (s->files[i].seen)
			v[n++] = &s->files[i];
	}
	qsort(v, n, sizeof(*v), cmp_file_order);
	m->files = xcalloc(n + 1, sizeof(*m->files));
	m->nfiles = n;
	m->pages->file_ids = xmalloc((n + 1) * sizeof(uint32_t));
	m->pages->nfile_ids = n;
	for (i = 0; i < n; i++) {
		const struct efile *e = v[i];
		struct bp_file *f = &m->files[i];
		uint32_t id = (uint32_t)(e - s->files);

		pos[id] = (uint32_t)i;
		m->pages->file_ids[i] = id;
		f->dev = e->dev;
		f->ino = e->ino;
		f->kind = e->kind;
		f->path = file_path(s, e);
		f->resolved = e->kind == BP_FILE_REGULAR && f->path[0] != '[';
		/* Disks seen only in later block events count too. */
		f->disk = e->kind == BP_FILE_METADATA ? e->disk : disk_of_dev(s, e->dev);
		f->bytes_read = e->bytes;
		f->wait_ns = e->wait;
		if (!(m->missing & BP_MISSING_ACCESS) && e->kind == BP_FILE_REGULAR) {
			f->used_bytes = e->used;
			f->never_used_bytes = e->never;
		}
		f->reread_bytes = e->reread;
		f->size_pages = e->size_pages;
		f->first_ns = e->first;
		f->last_ns = e->last;
	}
	free(v);
	return pos;
}

/* (process, file) pairs from the (task, file) pairs. */
static void build_accesses(struct bp_model *m, struct state *s, const uint32_t *proc_of_task,
			   const uint32_t *procpos, const uint32_t *filepos)
{
	struct bp_map map;
	size_t i;

	bp_map_init(&map);
	m->accesses = xcalloc(s->nacc + 1, sizeof(*m->accesses));
	for (i = 0; i < s->nacc; i++) {
		const struct eacc *e = &s->acc[i];
		uint32_t pi = proc_of_task[e->task], fi = filepos[e->file];
		struct bp_access *a;
		uint64_t *slot;
		int inserted;

		if (pi == NONE || fi == NONE)
			continue;
		pi = procpos[pi];
		slot = bp_map_put(&map, pi, fi, &inserted);
		if (inserted) {
			*slot = m->naccesses++;
			a = &m->accesses[*slot];
			a->process = &m->processes[pi];
			a->file = &m->files[fi];
			a->first_ns = e->first;
			a->last_ns = e->last;
			a->process->nfiles++;
			a->file->nreaders++;
		}
		a = &m->accesses[*slot];
		a->wait_ns += e->wait;
		a->bytes_read += e->bytes;
		if (e->first < a->first_ns)
			a->first_ns = e->first;
		if (e->last > a->last_ns)
			a->last_ns = e->last;
	}
	bp_map_release(&map);
	for (i = 0; i < m->nprocesses; i++) {
		m->processes[i].files = xcalloc(m->processes[i].nfiles + 1, sizeof(void *));
		m->processes[i].nfiles = 0;
	}
	for (i = 0; i < m->nfiles; i++) {
		m->files[i].readers = xcalloc(m->files[i].nreaders + 1, sizeof(void *));
		m->files[i].nreaders = 0;
	}
	for (i = 0; i < m->naccesses; i++) {
		struct bp_access *a = &m->accesses[i];

		a->process->files[a->process->nfiles++] = a;
		a->file->readers[a->file->nreaders++] = a;
	}
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];

		qsort(p->files, p->nfiles, sizeof(*p->files), cmp_proc_file);
		p->worst_file = p->nfiles ? p->files[0]->file : NULL;
	}
	for (i = 0; i < m->nfiles; i++)
		qsort(m->files[i].readers, m->files[i].nreaders, sizeof(void *), cmp_reader);
}

static void build_tree(struct bp_model *m)
{
	size_t np = m->nprocesses, i;
	size_t *depth = xcalloc(np + 1, sizeof(*depth));
	struct bp_process **order = xmalloc((np + 1) * sizeof(*order));

	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i], *a;
		size_t d = 0;

		for (a = p->parent; a && d < np; a = a->parent)
			d++;
		depth[i] = d;
		if (p->parent)
			p->parent->nchildren++;
	}
	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i];

		p->children = xcalloc(p->nchildren + 1, sizeof(*p->children));
		p->nchildren = 0;
		p->tree_wait_ns = p->wait_ns;
		p->tree_bytes_read = p->bytes_read;
		p->tree_processes = 1;
	}
	for (i = 0; i < np; i++) {
		struct bp_process *p = &m->processes[i];

		if (p->parent)
			p->parent->children[p->parent->nchildren++] = p;
	}
	/* Deepest first, so every child is complete before its parent adds it. */
	{
		size_t maxd = 0, d, n = 0;

		for (i = 0; i < np; i++)
			if (depth[i] > maxd)
				maxd = depth[i];
		for (d = maxd + 1; d-- > 0;) {
			for (i = 0; i < np; i++)
				if (depth[i] == d)
					order[n++] = &m->processes[i];
		}
		for (i = 0; i < n; i++) {
			struct bp_process *p = order[i];

			if (p->parent) {
				p->parent->tree_wait_ns += p->tree_wait_ns;
				p->parent->tree_bytes_read += p->tree_bytes_read;
				p->parent->tree_processes += p->tree_processes;
			}
		}
	}
	for (i = 0; i < np; i++)
		qsort(m->processes[i].children, m->processes[i].nchildren,
		      sizeof(struct bp_process *), cmp_child);
	free(depth);
	free(order);
}

static void build_disks_execs_totals(struct bp_model *m, struct state *s, struct bp_reader *r)
{
	struct bp_totals *tot = &m->totals;
	const struct bp_read_stats *rs = r ? bp_reader_stats(r) : NULL;
	size_t i, j, k;

	m->disks = s->disks;
	m->ndisks = s->ndisks;
	s->disks = NULL;
	s->ndisks = 0;
	for (i = 0; i < m->nfiles; i++) {
		struct bp_file *f = &m->files[i];

		tot->read_bytes += f->bytes_read;
		tot->never_used_bytes += f->never_used_bytes;
		tot->used_bytes += f->used_bytes;
		tot->reread_bytes += f->reread_bytes;
		if (f->kind == BP_FILE_METADATA) {
			tot->metadata_bytes += f->bytes_read;
			tot->wait_metadata_ns += f->wait_ns;
		}
		if (f->disk < 0 || (size_t)f->disk >= m->ndisks)
			continue;
		if (f->kind == BP_FILE_METADATA) {
			struct bp_disk_stat *d = &m->disks[f->disk];

			d->metadata = f;
			d->metadata_bytes += f->bytes_read;
			d->metadata_wait_ns += f->wait_ns;
		} else {
			m->disks[f->disk].file_bytes += f->bytes_read;
		}
	}
	for (i = 0; i < m->ndisks; i++)
		tot->rq_read_bytes += m->disks[i].rq_read_bytes;
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		int c;

		tot->wait_ns += p->wait_ns;
		tot->wait_unknown_ns += p->wait_unknown_ns;
		tot->other_wait_ns += p->other_wait_ns;
		for (c = 0; c < BP_NCAUSES; c++)
			tot->wait_by_cause[c] += p->wait_by_cause[c];
	}
	if (m->missing & BP_MISSING_BLOCK)
		tot->attributed_permille = -1;
	else if (tot->rq_read_bytes)
		tot->attributed_permille = (int64_t)(tot->read_bytes * 1000 / tot->rq_read_bytes);
	else
		tot->attributed_permille = tot->read_bytes ? 1000 : -1;
	/*
	 * The ring buffer's own count (overrun + dropped, at stop) and the
	 * losses flagged in page headers describe the same events: the larger
	 * is the better lower bound.
	 */
	tot->lost_events = s->meta ? bp_meta_lost_events(s->meta) : 0;
	if (rs && rs->missed_events > tot->lost_events)
		tot->lost_events = rs->missed_events;
	tot->lost_pages = rs ? rs->missed_pages : 0;
	tot->truncated = rs ? rs->truncated : 0;
	tot->span_ns = tot->last_ns - tot->first_ns;

	m->execs = xcalloc(s->nexecs + 1, sizeof(*m->execs));
	for (i = 0; i < s->nexecs; i++) {
		m->execs[i].path = s->execs[i].path;
		m->execs[i].count = s->execs[i].count;
		s->execs[i].path = NULL;
	}
	m->nexecs = s->nexecs;
	qsort(m->execs, m->nexecs, sizeof(*m->execs), cmp_exec_count);
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		for (j = 0; j < m->nexecs; j++) {
			for (k = 0; k < p->nexec; k++) {
				if (!strcmp(p->exec[k], m->execs[j].path)) {
					m->execs[j].wait_ns += p->wait_ns;
					m->execs[j].bytes_read += p->bytes_read;
					break;
				}
			}
		}
	}
}

static int cmp_service(const void *pa, const void *pb)
{
	const struct bp_service *a = *(struct bp_service *const *)pa;
	const struct bp_service *b = *(struct bp_service *const *)pb;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->bytes_read != b->bytes_read)
		return a->bytes_read > b->bytes_read ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Services from the cgroup indices parked in bp_process.service. */
static void build_services(struct bp_model *m, struct state *s)
{
	uint32_t *pos = xmalloc((s->ncgroups + 1) * sizeof(*pos));
	struct bp_service *svc = xcalloc(s->ncgroups + 1, sizeof(*svc)), **v;
	size_t *rank, i, n = 0;

	for (i = 0; i < s->ncgroups; i++)
		pos[i] = NONE;
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];
		size_t cg = (uintptr_t)p->service;

		if (!cg)
			continue;
		if (pos[cg - 1] == NONE) {
			pos[cg - 1] = (uint32_t)n;
			svc[n++].path = xstrdup(s->cgroups[cg - 1]);
		}
		svc[pos[cg - 1]].nprocesses++;
		svc[pos[cg - 1]].wait_ns += p->wait_ns;
		svc[pos[cg - 1]].bytes_read += p->bytes_read;
	}
	/* Sort, then point every process at its service's final place. */
	v = xmalloc((n + 1) * sizeof(*v));
	rank = xmalloc((n + 1) * sizeof(*rank));
	for (i = 0; i < n; i++)
		v[i] = &svc[i];
	qsort(v, n, sizeof(*v), cmp_service);
	m->services = xcalloc(n + 1, sizeof(*m->services));
	m->nservices = n;
	for (i = 0; i < n; i++) {
		m->services[i] = *v[i];
		rank[v[i] - svc] = i;
	}
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];
		size_t cg = (uintptr_t)p->service;

		p->service = cg ? &m->services[rank[pos[cg - 1]]] : NULL;
	}
	free(v);
	free(rank);
	free(svc);
	free(pos);
}

static void state_release(struct state *s)
{
	size_t i, j;

	free(s->h);
	for (i = 0; i < s->ntasks; i++) {
		for (j = 0; j < s->tasks[i].nexec; j++)
			free(s->tasks[i].exec[j].path);
		free(s->tasks[i].exec);
		free(s->tasks[i].pend);
	}
	free(s->tasks);
	bp_map_release(&s->tids);
	free(s->cpu_task);
	free(s->cpu_tid);
	free(s->cpu_idle);
	free(s->cpu_times);
	free(s->files);
	bp_map_release(&s->filemap);
	free(s->acc);
	bp_map_release(&s->accmap);
	if (s->pages) {
		bp_pages_release(s->pages);
		free(s->pages);
	}
	for (i = 0; i < s->ndisks; i++)
		free(s->disks[i].name);
	free(s->disks);
	bp_map_release(&s->devclass);
	for (i = 0; i < s->nexecs; i++)
		free(s->execs[i].path);
	free(s->execs);
	bp_map_release(&s->execmap);
	for (i = 0; i < s->ncgroups; i++)
		free(s->cgroups[i]);
	free(s->cgroups);
	bp_map_release(&s->cgroupmap);
	free(s->tl);
}

static int state_init(struct state *s, struct tep_handle *tep, const struct bp_meta *meta,
		      const struct bp_window *w, const struct bp_build_hooks *hooks)
{
	int ps, i;
	size_t d;

	memset(s, 0, sizeof(*s));
	s->meta = meta;
	s->tep = tep;
	s->hooks = hooks;
	if (!s->tep) {
		bp_set_error("the recording has no event formats");
		return -1;
	}
	s->since = w ? w->since_ns : 0;
	s->until = w && w->until_ns ? w->until_ns : UINT64_MAX;
	s->bucket = w && w->bucket_ns ? w->bucket_ns : DEFAULT_BUCKET_NS;
	ps = tep_get_page_size(s->tep);
	s->ps = ps >= 1024 && ps <= (1 << 20) && !(ps & (ps - 1)) ? (unsigned)ps : 4096;
	s->swap = tep_is_file_bigendian(s->tep) != tep_is_local_bigendian(s->tep);
	s->arch = bp_arch_of(s->meta ? s->meta->machine : NULL);
	s->ncpus = s->meta && s->meta->ncpus > 0 ? s->meta->ncpus : tep_get_cpus(s->tep);
	if (s->ncpus <= 0 || s->ncpus > 65536)
		s->ncpus = 1;
	s->cpu_task = xmalloc((size_t)s->ncpus * sizeof(*s->cpu_task));
	s->cpu_tid = xmalloc((size_t)s->ncpus * sizeof(*s->cpu_tid));
	s->cpu_idle = xmalloc((size_t)s->ncpus);
	s->cpu_times = xcalloc((size_t)s->ncpus, sizeof(*s->cpu_times));
	for (i = 0; i < s->ncpus; i++) {
		s->cpu_task[i] = NONE;
		s->cpu_tid[i] = -1;
		s->cpu_idle[i] = -1;
	}
	s->pages = xcalloc(1, sizeof(*s->pages));
	for (d = 0; s->meta && d < s->meta->ndisks; d++) {
		const struct bp_disk *dk = &s->meta->disks[d];

		disk_add(s, dk->dev, dk->name, dk->rotational, dk->size);
	}
	setup_handlers(s);
	for (d = 0; s->meta && d < s->meta->ntasks; d++) {
		const struct bp_task_id *ti = &s->meta->tasks[d];

		uint32_t t;

		if (!(ti->flags & BP_TASK_RECORDER) || ti->tid <= 0)
			continue;
		t = task_of(s, ti->tid);   /* may grow s->tasks: index first */
		s->tasks[t].recorder = 1;
	}
	return 0;
}

/*
 * Threads that existed before the recording and never forked, exec'd or
 * exited in it: the recording's task table (read from /proc at its start
 * and stop) names their process. Their leader gets a task of its own when
 * it had no event.
 */
static void meta_groups(struct state *s)
{
	size_t i;

	for (i = 0; s->meta && i < s->meta->ntasks; i++) {
		const struct bp_task_id *ti = &s->meta->tasks[i];
		uint64_t *slot;
		uint32_t t, leader;

		if (ti->tid <= 0 || ti->tgid <= 0 || ti->tid == ti->tgid)
			continue;
		slot = bp_map_get(&s->tids, (uint64_t)(uint32_t)ti->tid, 0);
		if (!slot)
			continue;
		t = (uint32_t)*slot;
		if (s->tasks[t].parent != NONE || s->tasks[t].self_exec || s->tasks[t].joined != NONE)
			continue;
		leader = task_of(s, ti->tgid);
		if (leader != t) {
			s->tasks[t].meta_leader = leader;
			if (!s->tasks[leader].comm[0])
				memcpy(s->tasks[leader].comm, s->tasks[t].comm, sizeof(s->tasks[t].comm));
		}
	}
}

/* Where the pass reads its events: a recording, or an array (tests). */
struct source {
	struct bp_reader *reader;
	const struct bp_event *events;
	size_t n, next;
};

static int source_next(struct source *src, struct bp_event *ev)
{
	if (src->reader)
		return bp_reader_next(src->reader, ev);
	if (src->next >= src->n)
		return 0;
	*ev = src->events[src->next++];
	return 1;
}

static struct bp_model *build(struct source *src, struct tep_handle *tep,
			      const struct bp_meta *meta, const struct bp_window *window,
			      const struct bp_build_hooks *hooks)
{
	struct state s;
	struct bp_event ev;
	struct bp_model *m;
	uint32_t *proc_of_task, *procpos, *filepos;
	int rc;

	if (state_init(&s, tep, meta, window, hooks) < 0 ||
	    (src->reader && bp_reader_rewind(src->reader) < 0)) {
		state_release(&s);
		return NULL;
	}
	while ((rc = source_next(src, &ev)) == 1) {
		if (!s.t0_set) {
			s.t0 = s.since ? s.since : ev.ts;
			s.t0_set = 1;
		}
		s.tot.events_total++;
		if (in_window(&s, ev.ts)) {
			if (!s.tot.events++)
				s.tot.first_ns = ev.ts;
			s.tot.last_ns = ev.ts;
		}
		if (ev.ts > s.last_ts)
			s.last_ts = ev.ts;
		consume(&s, &ev);
		if (hooks && hooks->event)
			hooks->event(hooks->arg, &ev);
	}
	if (rc < 0) {
		state_release(&s);
		return NULL;
	}
	finish_pass(&s);
	meta_groups(&s);

	m = bp_model_new();
	m->missing = missing_flags(&s, &m->missing_on_kernel);
	copy_header(m, &s, src->reader);
	m->totals = s.tot;
	m->totals.attributed_permille = -1;
	m->window.since_ns = s.since ? s.since : s.tot.first_ns;
	m->window.until_ns = s.until != UINT64_MAX ? s.until : s.tot.last_ns;
	m->window.bucket_ns = s.bucket;
	proc_of_task = build_processes(m, &s);
	procpos = order_processes(m, &s, proc_of_task);
	filepos = build_files(m, &s);
	build_accesses(m, &s, proc_of_task, procpos, filepos);
	build_tree(m);
	build_services(m, &s);
	build_disks_execs_totals(m, &s, src->reader);
	m->timeline = s.tl;
	m->nbuckets = s.ntl;
	m->timeline_start_ns = s.t0;
	s.tl = NULL;
	/* The page chunks move to the model, for bp_model_file_pages(). */
	s.pages->file_ids = m->pages->file_ids;
	s.pages->nfile_ids = m->pages->nfile_ids;
	free(m->pages);
	m->pages = s.pages;
	s.pages = NULL;
	free(proc_of_task);
	free(procpos);
	free(filepos);
	state_release(&s);
	return m;
}

struct bp_model *bp_model_build(struct bp_reader *reader, const struct bp_window *window,
				const struct bp_build_hooks *hooks)
{
	struct source src = { .reader = reader };

	return build(&src, bp_reader_tep(reader), bp_reader_meta(reader), window, hooks);
}

struct bp_model *bp_model_build_events(struct tep_handle *tep, const struct bp_meta *meta,
				       const struct bp_event *events, size_t n,
				       const struct bp_window *window,
				       const struct bp_build_hooks *hooks)
{
	struct source src = { .events = events, .n = n };

	return build(&src, tep, meta, window, hooks);
}
