/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_BUILD_H
#define BP_ANALYSIS_BUILD_H
/*
 * The state of the one pass from events to model, shared by its files:
 * build.c (the read loop, the handler table, state), tasks.c, pages.c,
 * waits.c (the event handlers by job) and assemble.c (the model, after
 * the pass). Nothing here is seen outside src/analysis/.
 *
 * Fields are read at offsets looked up once per event id (tep_find_field),
 * never by name per event. State is per task (tid), per file (dev, ino),
 * per 64-page chunk of a file and per (task, file) pair; nothing is kept
 * per event.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/model.h"
#include "tracefile/tracefile.h"
#include "util/map.h"

#define NONE UINT32_MAX
#define TASK_UNINTERRUPTIBLE 2
#define TASK_REPORT_DEAD 0x10
#define TASK_REPORT_ZOMBIE 0x20
#define TASK_REPORT_PREEMPT 0x100
#define CLONE_THREAD 0x00010000ull
#define DEFAULT_BUCKET_NS 100000000ull
#define MAX_BUCKETS (1u << 20)   /* 29 hours of 100 ms buckets, 40 MiB */
#define MAX_DISK_TIMELINES 256   /* disks with a timeline of their own (corrupt devs: no more) */

enum kind {
	EV_NONE,
	EV_SWITCH,
	EV_FORK,
	EV_EXEC,
	EV_EXIT,
	EV_RQ_ISSUE,
	EV_RQ_COMPLETE,
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
	EV_STAT_IOWAIT,
	EV_STAT_BLOCKED,
	EV_PRINT,
	EV_WQ_QUEUE,
	EV_WQ_START,
	EV_LOCK,
	EV_BIO_REMAP,
	EV_NKINDS
};

/* Field slots per kind. Filemap kinds share: ino, index, dev, order/last. */
enum {
	F_PREV_PID = 0, F_PREV_STATE, F_NEXT_PID, F_PREV_COMM, F_NEXT_COMM,
};
enum { F_PARENT_PID = 0, F_CHILD_PID, F_CHILD_COMM };
enum { F_FILENAME = 0, F_EXEC_PID, F_OLD_PID };
enum { F_EXIT_PID = 0, F_GROUP_DEAD, F_EXIT_COMM };
enum { F_RQ_DEV = 0, F_NR_SECTOR, F_RWBS, F_SECTOR };
enum { F_BIO_RWBS = 0, F_BIO_NR_SECTOR, F_BIO_DEV, F_BIO_SECTOR };
enum { F_RM_DEV = 0, F_RM_SECTOR, F_RM_NR_SECTOR, F_RM_OLD_DEV, F_RM_OLD_SECTOR, F_RM_RWBS };
enum { F_INO = 0, F_INDEX, F_DEV, F_ORDER, F_LAST = F_ORDER };
enum { F_SYS_ID = 0, F_SYS_ARGS };
enum { F_STAT_PID = 0, F_STAT_DELAY };
#define NFIELDS 6

struct fld {
	uint16_t off;
	uint8_t size;    /* 0: absent */
	uint8_t dyn;     /* __data_loc */
};

struct state;
struct handler;
/* An event handler: the spec table (build.c) names one per event. */
typedef void (*bp_handler_fn)(struct state *s, const struct bp_event *ev, const struct handler *h);

#define SYS_BY_ID INT16_MIN
struct handler {
	bp_handler_fn on;
	uint8_t kind;
	int16_t sys;     /* per-syscall events: the syscall's class; SYS_BY_ID: raw_syscalls */
	uint8_t copies;  /* per-syscall events: it reads one file into another */
	uint8_t prefetch; /* per-syscall events: readahead(2) (bp_syscall_prefetch) */
	uint16_t need;   /* record bytes the fields need */
	struct fld f[NFIELDS];
};

struct exec_rec {
	uint64_t ts;
	char *path;       /* /proc/self/exe resolved (see bp_on_exec) */
	uint32_t cgroup;  /* the task's cgroup when it exec'd, NONE when unknown */
	uint64_t wait0, bytes0;  /* the task's wait_ns and bytes when the exec began */
};

/* Pages a task inserted, not yet known to be read or written. */
struct pend_insert {
	uint32_t file;
	uint8_t rctx;      /* inserted in a read context (see read_context in pages.c) */
	uint8_t waited;    /* ... and the task waited on its file since: read (bp_held_waited) */
	uint8_t bio_since; /* a read bio of the task's own passed since: not held (bio_passed) */
	uint8_t prefetch;  /* inserted by readahead(2): read even if no one waits (settle) */
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
	uint8_t read_io;       /* ... of which a read: a read request, pages read from storage */
	uint8_t waiting;       /* in a D-sleep */
	uint8_t evidence;      /* ... begun with I/O evidence (names its cause and file, see wait_cause) */
	uint8_t kernel_said;   /* ... the kernel's schedstats reported it: KS_* */
	uint8_t woken_by_io;   /* ... its waking came from a block completion (see bp_note_waking) */
	uint8_t completing;    /* since it last slept: COMPLETED_ONE, WOKEN_BY_ONE, PASSES_PAGE or 0 */
	uint8_t early_by;      /* ... what the early waking came from (woken_by_completion) */
	uint64_t early_woken;  /* woken while still on its CPU, before its switch-out: the sleep it enters */
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
	uint8_t sys_copies;    /* ... a read that writes another file (bp_syscall_copies) */
	uint8_t sys_prefetch;  /* ... readahead(2): starts reads, never waits (bp_syscall_prefetch) */
	uint32_t sys_read_file;   /* file its readahead or reads named in this syscall, NONE */
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
	const char *prog;      /* the file it runs: its last exec's (bp_meta_find_program), or
				* its parent's at the fork; borrowed from an exec_rec or the
				* metadata, NULL when unknown */
	char *args;            /* its command line as the last argument marker gave it (escaped
				* words), NULL: none since its last exec */
	uint64_t args_ts;      /* ... the marker's time */
	uint64_t exec_ts;      /* its last exec, 0: none seen */
	uint64_t exec_wait0, exec_bytes0; /* wait_ns and bytes at the entry of its execve */
	uint8_t in_execve;     /* exec_*0 hold the entry of the execve in progress */
	struct pend_insert *pend;
	size_t npend, cpend;
	struct pend_insert *held;   /* read-context runs its syscall left unsettled: a throttle may hold them */
	size_t nheld, cheld;
	uint8_t holder;        /* it inserted pages in a read context: a wait may show them read */
	uint8_t waited_runs;   /* some of its runs are waited, not settled yet */
	uint64_t read_credit;  /* bytes of its last run settled as read, not yet met by its bios */
	uint32_t credit_file;  /* ... that run's file */
	uint32_t bio_dev;      /* the last bio queued in its context (block_bio_queue), */
	uint64_t bio_sector;   /* not counting a lower one of a stacked device */
	uint32_t bio_sectors;
	uint32_t remap_dev;    /* (part of) that bio remapped to a lower device (block_bio_remap), */
	uint64_t remap_sector; /* 0: none: the lower bio's queue is the same I/O again */
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
	uint64_t mapped;       /* bytes mapped by fault-around, no access known */
	uint64_t pending;      /* pages awaiting a first access (mapped ones too) */
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

/* Block requests of one disk in flight now (index as state.disks). */
struct disk_flight {
	uint32_t n;            /* requests issued, not completed */
	uint64_t since;        /* when n last changed */
	size_t ctimeline;      /* entries allocated in bp_disk_stat.timeline */
};

/* The last files looked up, by a hash of (dev, ino): most events hit. */
#define FILE_CACHE 1024
struct file_cache {
	uint64_t ino;
	uint32_t dev;
	uint32_t file;    /* NONE: not on a block-backed filesystem */
	int valid;
};

/* What the kernel's schedstats said of a D-sleep (sched_stat_blocked/iowait). */
enum { KS_NONE, KS_BLOCKED, KS_IOWAIT };
/* A task's part in block completions (see bp_note_completion, bp_note_waking). */
enum { COMPLETED_ONE = 1, WOKEN_BY_ONE = 2, PASSES_PAGE = 3 };

/* The last event times of one CPU, newest at ring[(head - 1) % CPU_RING]. */
#define CPU_RING 8
struct cpu_times {
	uint64_t ring[CPU_RING];
	unsigned head;
	uint64_t idle_since;   /* when it last switched to its idle task */
	uint64_t irq_done;     /* its last block completion in interrupt context */
	uint64_t task_ctx;     /* its last event in process context */
	uint8_t done_chain;    /* nothing but wakings since its last completion in an interrupt */
	uint8_t done_ctx;      /* ... which kind of interrupt that was (IRQ_FLAGS bits) */
};

/* [start, end) in ns. */
struct interval {
	uint64_t start, end;
};

struct state {
	const struct bp_meta *meta;
	struct tep_handle *tep;
	struct handler *h;
	int nh;
	struct fld common_pid;
	struct fld common_flags;
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
	struct disk_flight *flight; /* by disk, cdisks entries */
	size_t ndisk_timelines;
	/* requests in flight: (dev, sector) -> disk << 32 | sectors left */
	struct bp_map rqs;
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
	struct bp_critical_log *crit;   /* hooks->critical: what the critical path needs, or NULL */
	int nidle, nwaiting;        /* CPUs idle; tasks in a D-sleep */
	int at_end;                 /* finish_pass: closing what is still open */
	int idle_on;
	uint64_t idle_since;
	/*
	 * Whether a D-sleep was I/O is known when it ends, so CPU idle while
	 * waiting and the most tasks waiting at once are only known at the
	 * end of the pass (see bp_idle_finish): every CPU idle while some
	 * task was in a D-sleep, in time order, clipped to the window; and
	 * every I/O wait.
	 */
	struct interval *idle_cand;
	size_t nidle_cand, cidle_cand;
	struct interval *io_waits;
	size_t nio_waits, cio_waits;

	struct bp_bucket *tl;
	size_t ntl, ctl;
	uint64_t t0;
	int t0_set;

	struct bp_totals tot;
	uint64_t first_ts;   /* the first event of the pass, whatever the window */
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

static inline int in_window(const struct state *s, uint64_t ts)
{
	return ts >= s->since && ts <= s->until;
}

/* Interrupt context (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ | TRACE_FLAG_NMI). */
#define IRQ_FLAGS 0x58
#define IRQ_HARD 0x08
#define IRQ_SOFT 0x10

/* The event's interrupt context: its IRQ_FLAGS bits, 0 in process context. */
static inline int bp_in_irq(const struct state *s, const struct bp_event *ev)
{
	return s->common_flags.size ? (int)(rd(s, ev, s->common_flags) & IRQ_FLAGS) : 0;
}

/* build.c */
void bp_rd_str(const struct state *s, const struct bp_event *ev, struct fld f, char *buf,
	       size_t len);

/* waits.c: window, timeline, CPU idle while waiting, waits and spans */
int bp_bucket_index(const struct state *s, uint64_t ts, size_t *i);
uint64_t bp_bucket_end(const struct state *s, uint64_t ts);
struct bp_bucket *bp_bucket_at(struct state *s, uint64_t ts);
void bp_idle_flush(struct state *s, uint64_t ts);
void bp_idle_update(struct state *s);
void bp_idle_finish(struct state *s);
void bp_span_to(struct state *s, struct task *t, int state, uint64_t ts);
void bp_wait_begin(struct state *s, struct task *t, uint64_t ts);
void bp_wait_end(struct state *s, struct task *t, uint64_t ts);
uint64_t bp_wake_time(const struct state *s, const struct task *t, int cpu, uint64_t ts);
void bp_note_event(struct state *s, const struct bp_event *ev, int kind);
void bp_note_completion(struct state *s, const struct bp_event *ev);
int bp_note_waking(struct state *s, const struct bp_event *ev, uint32_t ti);
int bp_completion_waking_peek(struct state *s, const struct bp_event *ev);
void bp_on_stat_sleep(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_print(struct state *s, const struct bp_event *ev, const struct handler *h);

/* tasks.c: fork, exec, exit, switch, wake, syscalls, cgroups */
uint32_t bp_task_new(struct state *s, int tid);
uint32_t bp_task_of(struct state *s, int tid);
struct task *bp_task_cur(struct state *s, const struct bp_event *ev);
void bp_on_switch(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_fork(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_exec(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_process_exit(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_sys_enter(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_sys_exit(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_wake(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_cgroup(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_lock(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_tasks_asleep_at_start(struct state *s, uint64_t ts);

/* pages.c: devices, files, disks, page states; insert, delete, fault, access, readahead, bios */
int bp_disk_add(struct state *s, uint32_t dev, const char *name, int rotational, uint64_t size);
int bp_disk_exact(const struct state *s, uint32_t dev);
int bp_disk_of_dev(struct state *s, uint32_t dev);
struct eacc *bp_access_of(struct state *s, uint32_t task, uint32_t file, uint64_t ts);
void bp_settle_inserts(struct state *s, struct task *t);
void bp_settle_end(struct state *s, struct task *t);
void bp_held_waited(struct task *t);
void bp_on_bio_queue(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_bio_remap(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_add(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_delete(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_fault(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_access(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_map_pages(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_ra(struct state *s, const struct bp_event *ev, const struct handler *h);

/* requests.c: block requests: per-disk read bytes and requests in flight */
void bp_on_rq_issue(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_rq_complete(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_requests_finish(struct state *s, uint64_t end);
int bp_requests_in_flight(const struct state *s);

/*
 * critical.c: what the critical-path walk needs, recorded as the pass
 * goes when s->crit is set (callers check it: no cost otherwise). ti are
 * task indexes; how a task left its CPU is one of CRIT_*.
 */
enum { CRIT_PREEMPT, CRIT_SLEEP_D, CRIT_SLEEP_S, CRIT_DEAD };
void bp_crit_begin(struct state *s);
void bp_crit_switch_out(struct state *s, uint32_t ti, int cpu, uint64_t ts, int how);
void bp_crit_switch_in(struct state *s, uint32_t ti, int cpu, uint64_t ts, int found);
void bp_crit_waking(struct state *s, const struct bp_event *ev, int kind, uint32_t ti, int by);
void bp_crit_waking_unmet(struct state *s, const struct bp_event *ev, int kind, int tid);
void bp_crit_sleep_judged(struct state *s, const struct task *t, int io, uint32_t file);
void bp_crit_asleep_at_start(struct state *s, uint32_t ti, uint64_t ts);
void bp_crit_fork(struct state *s, uint32_t parent, uint32_t child, int cpu, uint64_t ts);
void bp_crit_exit(struct state *s, uint32_t ti, uint64_t ts);
void bp_crit_exec(struct state *s, uint32_t ti, uint64_t ts, const char *path);
/* ti queues on a sleeping rwsem: lock:contention_begin (LCB_F_* flags). */
void bp_crit_lock(struct state *s, uint32_t ti, uint64_t lock, unsigned flags);
/* A syscall boundary of ti: futex(uaddr, op ...) entered, else op -1 (none, or left). */
void bp_crit_futex(struct state *s, const struct bp_event *ev, uint32_t ti, uint64_t uaddr,
		   int op);
void bp_crit_bio(struct state *s, uint32_t ti, uint32_t dev, uint64_t sector, uint32_t sectors,
		 uint32_t file);
void bp_crit_bio_remap(struct state *s, uint32_t ti, uint32_t dev, uint64_t sector,
		       uint32_t sectors, uint32_t old_dev, uint64_t old_sector, uint32_t file);
void bp_crit_rq_issue(struct state *s, const struct bp_event *ev, const struct task *t,
		      uint32_t dev, uint64_t sector, uint32_t sectors);
void bp_crit_rq_complete(struct state *s, const struct bp_event *ev, uint32_t dev,
			 uint64_t sector, uint32_t sectors);
void bp_crit_finish(struct state *s);
/* Handlers of workqueue_queue_work and workqueue_execute_start (only the walk uses them). */
void bp_on_wq_queue(struct state *s, const struct bp_event *ev, const struct handler *h);
void bp_on_wq_start(struct state *s, const struct bp_event *ev, const struct handler *h);

/* assemble.c: the model from the state, after the pass */
struct bp_model *bp_build_assemble(struct state *s, struct bp_reader *r);

#endif
