/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_CRITICAL_LOG_H
#define BP_ANALYSIS_CRITICAL_LOG_H
/*
 * The critical-path log as the pass records it (critical.c) and the walk
 * and its end points read it (critical.c, critical-end.c). Private to
 * those files.
 */
#include <stdint.h>

#include "analysis/build.h"
#include "analysis/critical.h"
#include "util/map.h"

/* What made a task runnable again. */
enum { BY_NONE, BY_TASK, BY_IO, BY_IRQ, BY_UNKNOWN };
/* A task as the log knows it. */
enum { T_UNMET, T_ON, T_OFF, T_DEAD };
/* crit_off.how besides CRIT_*: created by a fork, runnable until it first ran. */
#define CRIT_FORK 4
/* What the I/O-wait rule said of a D-sleep (the recorder's are not judged). */
enum { JUDGED_NOT, JUDGED_OTHER, JUDGED_IO };

/* A block request, for the I/O segment it ends. */
struct crit_req {
	uint32_t dev;
	uint32_t sectors;
	uint64_t sector;
	uint64_t issue_ns;    /* 0: issued before the recording */
	uint64_t done_ns;     /* 0: none */
	uint32_t issuer;      /* task index, NONE */
	uint32_t upper_dev;   /* remapped from this device (block_bio_remap), 0: not remapped */
	uint64_t upper_sector;
	uint32_t nfiles;      /* files its bios carried (see bp_crit_rq_issue) */
	uint32_t files[BP_CRIT_RQ_FILES];   /* the first of them: index in log->files */
};

/* One interval of a task off a CPU: [out, wake) asleep, [wake, in) runnable. */
struct crit_off {
	uint64_t out;     /* switched out or forked; 0: off since before the recording */
	uint64_t wake;    /* runnable from (out when preempted); 0: not yet */
	uint64_t in;      /* switched in again; 0: not yet */
	uint32_t waker;   /* BY_TASK: task index, NONE */
	uint32_t req;     /* the request whose completion woke it: index in log->reqs, NONE */
	uint32_t file;    /* an I/O wait's file: index in log->files, NONE */
	uint8_t how;      /* CRIT_PREEMPT, CRIT_SLEEP_D, CRIT_SLEEP_S, CRIT_FORK */
	uint8_t by;       /* BY_* */
	uint8_t io;       /* a D-sleep the I/O-wait rule judged: JUDGED_* */
	uint8_t irq;      /* BY_IRQ: the waking's IRQ_FLAGS bits; 0: the idle task's */
};

/* A waking, before it is known whose interval it ends. */
struct crit_wake {
	uint64_t ts;
	uint32_t waker;
	uint8_t by, irq;
	struct crit_req rq;   /* the request a completion woke it for, when rq.done_ns */
};

/* A work item a kworker began to run: who queued it, when. */
struct crit_work {
	uint64_t start;        /* workqueue_execute_start */
	uint64_t queued;       /* workqueue_queue_work */
	uint32_t queuer;       /* task index; NONE: queued in an interrupt */
};

struct crit_task {
	struct crit_off *off;  /* in time order */
	size_t noff, coff;
	struct crit_work *work; /* a kworker's work items, in time order */
	size_t nwork, cwork;
	uint8_t state;         /* T_* */
	/*
	 * Met running on a CPU that had switched no task before: it ran
	 * since the recording began (else only since met_ns)
	 */
	uint8_t since_start;
	uint8_t early;         /* woken while it still ran: on its way to sleep, it never waits */
	uint64_t met_ns;
	uint64_t fork_ns;      /* 0: not forked in the recording */
	uint32_t parent;       /* forking task, NONE */
	uint64_t exit_ns;      /* sched_process_exit, 0: none */
	uint64_t last_on_ns;   /* its last moment on a CPU, 0: never */
	uint64_t futex;        /* the futex(2) call in progress: its uaddr ... */
	int8_t futex_op;       /* ... and command (FUTEX_WAIT ...), -1: none */
	uint8_t lock_read;     /* queued on rwsem lock for reading, since its last sleep */
	uint64_t lock;
	struct crit_req done;  /* the last request it completed itself (process context) */
	int tid;               /* tid, comm, recorder: from the pass, at its end */
	char comm[16];
	uint8_t recorder;
};

/*
 * When a wait's hold-up ended, by whom (a task index): a futex requeue
 * (MOVED_REQUEUE), or the waking that first let readers have the rwsem a
 * reader queued on (MOVED_RWSEM).
 */
enum { MOVED_REQUEUE = 1, MOVED_RWSEM };
struct crit_requeue {
	uint64_t ns;
	uint32_t task;
	uint8_t why;   /* MOVED_* */
};

/* The wakings of an rwsem's queued readers (each a batch of them): in time order. */
struct crit_rwsem {
	struct crit_requeue *grants;
	size_t n, c;
};

struct crit_exec {
	uint32_t task;
	uint64_t ts;
	char *path;
};

/*
 * The last bios queued or remapped, to name who queued a request's
 * first bio, what file system sector it was asked for and which files
 * its bios carried. A request merges at most max_sectors_kb of them
 * (512 KiB: 128 bios of a page each).
 */
#define BIO_RING 256
struct crit_bio {
	uint32_t dev, sectors;
	uint32_t task;          /* who queued it, or the bio it was remapped from */
	uint32_t file;          /* the file its pages are of (the pass's index), NONE */
	uint64_t sector;
	uint32_t upper_dev;     /* the top device it was remapped from, 0: none */
	uint64_t upper_sector;
	uint8_t used;           /* a request was issued with it */
};

struct crit_file {
	uint32_t dev;
	uint64_t ino;
};

struct bp_critical_log {
	struct crit_task *tasks;       /* by the pass's task index */
	size_t ntasks, ctasks;
	struct crit_req *reqs;         /* requests that ended an I/O sleep */
	size_t nreqs, creqs;
	struct crit_req *flight;       /* requests in flight: a pool */
	size_t nflight, cflight;
	uint32_t *free_flight;         /* free entries of the pool */
	size_t nfree, cfree;
	struct bp_map inflight;        /* (dev, sector) -> index in flight */
	struct crit_bio bios[BIO_RING];
	unsigned bio_head;
	/*
	 * Bios remapped, not queued on their new device yet: a throttle may
	 * hold one for seconds, while other disks' bios pass the ring
	 */
	struct crit_bio *remaps;       /* a pool */
	size_t nremaps, cremaps;
	uint32_t *free_remaps;
	size_t nfree_remaps, cfree_remaps;
	struct bp_map remap_at;        /* (dev, sector) -> index in remaps */
	int ncpus;
	struct crit_req *cpu_done;     /* per CPU: its last completion in an interrupt */
	uint8_t *cpu_switched;         /* per CPU: it switched some task already */
	struct bp_map unmet;           /* tid -> index in unmet_wakes */
	struct crit_wake *unmet_wakes; /* the first waking of tasks the pass had not met */
	size_t nunmet, cunmet;
	struct bp_map requeues;        /* futex uaddr -> its last requeue, index in rq_last */
	struct crit_requeue *rq_last;
	size_t nrq_last, crq_last;
	struct bp_map moved;           /* (task, off) -> index in moves */
	struct crit_requeue *moves;    /* waits whose hold-up ended before their waking */
	size_t nmoves, cmoves;
	struct bp_map read_waits;      /* (task, off) -> rwsem index: a reader queued on it */
	struct bp_map rwsem_of;        /* rwsem address -> index in rwsems */
	struct crit_rwsem *rwsems;
	size_t nrwsems, crwsems;
	struct bp_map wq_queued;       /* work struct address -> index in wq */
	struct crit_work *wq;          /* queued work not started yet (start unused) */
	size_t nwq, cwq;
	uint32_t *free_wq;             /* free entries of wq */
	size_t nfree_wq, cfree_wq;
	struct crit_exec *execs;       /* in time order */
	size_t nexecs, cexecs;
	struct crit_file *files;       /* the pass's files, at its end */
	size_t nfiles;
	uint64_t first_ns, last_ns;
	int has_waking;
};

/* The last interval of t that began before ts, or -1. */
long bp_crit_off_before(const struct crit_task *t, uint64_t ts);

/*
 * bp_crit_end_resolve() - the end point @e names in the recording: sets
 * @p->end_ns, end_what, end_why and *@ti, the log's task that reached it.
 * Return: 0, or -1 with bp_set_error() (see bp_critical_walk()).
 */
int bp_crit_end_resolve(const struct bp_critical_log *L, const struct bp_model *m,
			const struct bp_crit_end *e, struct bp_critical_path *p, uint32_t *ti);

#endif
