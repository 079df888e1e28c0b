/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_MODEL_H
#define BP_ANALYSIS_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* BP_DEV_MAJOR/MINOR (device numbers as the model keeps them), the schedstats enums */
#include "tracefile/meta.h"

/*
 * The model: what a recording says about processes, files, disks and
 * waits over a time window. `report`, `top` and plugins all render the
 * same model; none of them parses events. Every number is defined in
 * docs/design.md, 'The model'; the choices made where it is silent are written here, next to
 * the field they affect.
 *
 * Building is one streaming pass over the reader (bp_reader_rewind() first),
 * so memory grows with tasks, files and pages, never with events. After
 * bp_model_build() returns, the model owns copies of everything it shows and
 * the reader may be freed. All arrays are final: pointers between model
 * objects (reader -> process, process -> file ...) stay valid until
 * bp_model_free().
 *
 * Units: times are ns on the recording's clock (boot clock: since boot),
 * sizes are bytes. Nothing here is rounded; views choose human units.
 */

struct bp_reader;
struct bp_event;
struct tep_handle;
struct bp_model;
struct bp_file;
struct bp_process;
struct bp_critical_log;

/* Why a task waited: what it was doing when it blocked (see bp_cause_name). */
enum bp_cause {
	/* read, pread64, readv, preadv(2), sendfile, splice, copy_file_range, readahead */
	BP_CAUSE_READ,
	BP_CAUSE_OPEN_STAT, /* open(at)(2), stat family, statx, access, readlink */
	BP_CAUSE_EXEC,      /* execve, execveat (loading the binary and its interpreter) */
	BP_CAUSE_GETDENTS,  /* getdents, getdents64 (directory walks) */
	/*
	 * A page fault on a file mapping (mm_filemap_fault). A fault taken
	 * inside a syscall (read() into a buffer that is itself a mapped file)
	 * is still a fault: the wait is for the mapped file's pages.
	 */
	BP_CAUSE_FAULT,
	/*
	 * Writeback and sync: a wait inside sync, syncfs, fsync, fdatasync,
	 * sync_file_range or msync, or a wait whose only I/O evidence is
	 * writing (page-cache pages the task created without reading them,
	 * write requests it queued: a buffered write throttled or waiting
	 * for the journal, a kernel thread writing back). Not a wait for a
	 * read: charged to no file, whatever the task read before.
	 */
	BP_CAUSE_SYNC,
	BP_CAUSE_OTHER,     /* another syscall, or no syscall events in the recording */
	BP_NCAUSES
};

/**
 * bp_cause_name() - short lowercase name of a cause
 * @cause: a bp_cause
 *
 * Return: "read", "open-stat", "exec", "getdents", "fault", "sync", "other";
 * "?" for an out-of-range value. Static storage.
 */
const char *bp_cause_name(enum bp_cause cause);

/**
 * struct bp_window - the time range a model covers
 * @since_ns: first instant counted (recording clock); 0 = from the start
 * @until_ns: last instant counted; 0 or UINT64_MAX = to the end
 * @bucket_ns: timeline bucket width; 0 = 100 ms
 *
 * Events before @since_ns still build state (the task tree, what is in the
 * page cache, waits in progress) but add to no counter. A wait that crosses
 * a bound is clipped to it. A page read from storage inside the window is
 * "used" when an access covers it before the end of the recording (not of
 * the window): a page read at 2 s and used at 9 s was not wasted.
 */
struct bp_window {
	uint64_t since_ns;
	uint64_t until_ns;
	uint64_t bucket_ns;
	int infer_iowait;   /* ignore the kernel's schedstats events: every D-sleep by how it ended */
};

/* What a task was doing during a bp_span. */
enum bp_span_state {
	BP_SPAN_RUN,        /* on a CPU (@cpu says which) */
	BP_SPAN_RUNNABLE,   /* preempted or woken, waiting for a CPU */
	BP_SPAN_IO_WAIT,    /* uninterruptible sleep that was I/O (waits.c, sleep_was_io) */
	BP_SPAN_OTHER_WAIT, /* any other uninterruptible sleep */
	BP_SPAN_SLEEP,      /* interruptible sleep */
	/*
	 * Not a task's: every CPU idle while some task was in an I/O wait
	 * (tid 0), i.e. inside one of the BP_SPAN_IO_WAIT spans. These
	 * spans sum to bp_totals.idle_wait_ns; their part covered by some
	 * tasks' BP_SPAN_IO_WAIT spans is the CPU idle while those tasks
	 * waited. They come after every task's spans, in time order.
	 */
	BP_SPAN_IDLE_WAIT,
};

/**
 * struct bp_span - one interval of one task's life, as the pass decided it
 * @tid: the task (thread id); map it to its process with the model built
 *       over the same window (threads are grouped after the pass); 0 for
 *       BP_SPAN_IDLE_WAIT
 * @cpu: the CPU for BP_SPAN_RUN, else -1
 * @state: what the task was doing
 * @cause: for BP_SPAN_IO_WAIT, what it was waiting in; else BP_CAUSE_OTHER
 * @dev: for BP_SPAN_IO_WAIT, the file charged (kernel encoding), 0 if none
 * @ino: its inode; with @dev 0 the wait was charged to no file
 * @start_ns: start, clipped to the window
 * @end_ns: end, clipped to the window (> @start_ns)
 *
 * Spans of one task never overlap and arrive in time order for that task;
 * spans of different tasks interleave. The I/O-wait spans of a task sum
 * exactly to its bp_thread.wait_ns.
 */
struct bp_span {
	int tid;
	int cpu;
	enum bp_span_state state;
	enum bp_cause cause;
	uint32_t dev;
	uint64_t ino;
	uint64_t start_ns;
	uint64_t end_ns;
};

/**
 * struct bp_build_hooks - optional callbacks run during the one pass
 * @event: called for every event after the model has consumed it (plugins
 *         see the same stream without a second pass); may be NULL
 * @span: called for every closed interval of a task's state inside the
 *        window (charts and exports stream these; nothing is kept); may
 *        be NULL
 * @arg: passed to @event and @span
 * @critical: when not NULL, the pass also records into it what the
 *            critical-path walk needs (analysis/critical.h)
 */
struct bp_build_hooks {
	void (*event)(void *arg, const struct bp_event *ev);
	void (*span)(void *arg, const struct bp_span *span);
	void *arg;
	struct bp_critical_log *critical;
};

/* What the recording could not measure; views say so instead of printing 0. */
enum bp_model_missing {
	BP_MISSING_SCHED = 1 << 0,    /* no sched_switch: no waits, no idle time */
	BP_MISSING_WAKEUP = 1 << 1,   /* no sched_waking/wakeup (waits end at switch-in anyway) */
	BP_MISSING_FORK = 1 << 2,     /* no sched_process_fork: every tid is its own process */
	/*
	 * No syscall events: causes are "other" except faults and sync, and
	 * a wait's file is what the task faulted on or inserted since it last
	 * slept; whether a D-sleep was I/O does not depend on them (waits.c,
	 * sleep_was_io)
	 */
	BP_MISSING_SYSCALLS = 1 << 3,
	BP_MISSING_FILEMAP = 1 << 4,  /* no mm_filemap_add_to_page_cache: no per-file bytes */
	/* no get_pages/map_pages/fault (kernel < 6.12): used/never-used unavailable */
	BP_MISSING_ACCESS = 1 << 5,
	BP_MISSING_DELETE = 1 << 6,   /* no delete_from_page_cache: re-read unavailable */
	BP_MISSING_BLOCK = 1 << 7,    /* no block_rq_issue: no block-layer totals, no attributed share */
	BP_MISSING_RQ_COMPLETE = 1 << 8, /* no block_rq_complete: no requests in flight */
	BP_MISSING_LAST = BP_MISSING_RQ_COMPLETE,
};

/**
 * struct bp_access - what one process did with one file
 * @process: the reader (a process, threads rolled up)
 * @file: the file
 * @wait_ns: I/O wait of @process charged to @file
 * @bytes_read: bytes of @file's pages @process inserted (read from storage)
 * @first_ns: first event of @process on @file (insert, fault, read or map)
 * @last_ns: last such event
 *
 * Shared by bp_file.readers and bp_process.files (the same object).
 */
struct bp_access {
	struct bp_process *process;
	struct bp_file *file;
	uint64_t wait_ns;
	uint64_t bytes_read;
	uint64_t first_ns;
	uint64_t last_ns;
};

/* What kind of thing a bp_file is. */
enum bp_file_kind {
	BP_FILE_REGULAR,  /* an inode on a block-backed filesystem */
	/*
	 * Filesystem metadata read through the block device's page cache:
	 * the pseudo-file on dev 0:3 whose inode number is the disk's dev_t.
	 */
	BP_FILE_METADATA,
};

/**
 * struct bp_file - one inode whose pages were read or accessed
 * @dev: filesystem device, kernel encoding (BP_DEV_MAJOR/MINOR)
 * @ino: inode number
 * @kind: regular file or metadata of a disk
 * @path: resolved path; "[unresolved MAJ:MIN:INO]" when the recording has
 *        no path for it; "[metadata NAME]" for metadata. Owned by the model
 * @resolved: 1 when @path came from the recording's inode table
 * @disk: index into bp_model.disks, or -1 when the disk is not known
 * @bytes_read: read from storage: bytes of pages inserted in the window
 *              (PAGE_SIZE << order per insertion; a page inserted twice
 *              counts twice) that the inserting task then read: it queued a
 *              read bio before its next syscall or fault. Pages a buffered
 *              write creates, and holes, are inserted without one
 *              (bp_totals.write_insert_bytes). Recordings without
 *              block_bio_queue count every insertion.
 * @wait_ns: I/O wait charged to this file (all readers)
 * @used_bytes: bytes read in the window that an access covered later: a
 *              read (get_pages) or the faulting page itself (fault)
 * @never_used_bytes: bytes read in the window that no access covered and no
 *                    fault-around mapped before they left the cache or the
 *                    recording ended
 * @mapped_unknown_bytes: bytes read in the window that fault-around
 *                        (map_pages) put into a page table but that no
 *                        fault or read is known to have touched: "mapped,
 *                        not known to be used". The kernel maps up to
 *                        fault_around_bytes (64 KiB) around a faulting
 *                        address and does not say which page faulted, so
 *                        these may or may not have been used; 0 when
 *                        recorded with fault-around at one page
 *                        (record --exact-mmap).
 *                    @used_bytes + @never_used_bytes + @mapped_unknown_bytes
 *                    == @bytes_read for a regular file when access events
 *                    exist (BP_MISSING_ACCESS clear); all are 0 for
 *                    metadata, whose buffer-head accesses no event reports
 * @reread_bytes: bytes read again after the same page, read before, was
 *                deleted (a page created by a write, dropped, then read
 *                is read once)
 * @size_pages: highest page index seen + 1 (a lower bound of the file size)
 * @first_ns: first event on the file in the window
 * @last_ns: last event on the file in the window
 * @readers: processes that inserted or accessed its pages, by wait, then
 *           bytes, then pid (descending, descending, ascending)
 * @nreaders: entries in @readers
 *
 * Files on filesystems that are not block-backed (tmpfs, proc, ramfs ...)
 * are not files of the model; their bytes go to bp_totals.nonblock_bytes.
 */
struct bp_file {
	uint32_t dev;
	uint64_t ino;
	enum bp_file_kind kind;
	char *path;
	int resolved;
	int disk;
	uint64_t bytes_read;
	uint64_t wait_ns;
	uint64_t used_bytes;
	uint64_t never_used_bytes;
	uint64_t mapped_unknown_bytes;
	uint64_t reread_bytes;
	uint64_t size_pages;
	uint64_t first_ns;
	uint64_t last_ns;
	struct bp_access **readers;
	size_t nreaders;
};

/**
 * struct bp_thread - one task (tid) of a process
 * @tid: thread id
 * @comm: last comm seen (NUL-terminated)
 * @process: the process it rolls up to
 * @start_ns: fork time, 0 when it existed before the recording
 * @exit_ns: exit time, 0 when still running at the end
 * @wait_ns: its I/O wait in the window
 * @other_wait_ns: its other uninterruptible sleep in the window (see
 *                 bp_process.other_wait_ns)
 * @run_ns: time it spent on a CPU in the window
 */
struct bp_thread {
	int tid;
	char comm[16];
	struct bp_process *process;
	uint64_t start_ns;
	uint64_t exit_ns;
	uint64_t wait_ns;
	uint64_t other_wait_ns;
	uint64_t run_ns;
};

/**
 * struct bp_service - a cgroup processes were moved into (cgroup_attach_task):
 *                     on a systemd machine, a service or a scope
 * @path: the cgroup's path, e.g. "/system.slice/udev.service"; owned
 * @nprocesses: processes of the window in it
 * @wait_ns: their I/O wait
 * @bytes_read: what they read from storage
 *
 * A process is in the last cgroup any of its tasks moved into, or its
 * parent's when it was forked after that; processes of unknown cgroup
 * (moved before the recording started) are in no service.
 */
struct bp_service {
	char *path;
	size_t nprocesses;
	uint64_t wait_ns;
	uint64_t bytes_read;
};

/**
 * struct bp_exec_part - what a process did while it ran one program
 * @ns: when the exec happened
 * @wait_ns: I/O wait from the start of its execve (loading the program is
 *           the program's) to the next exec or the end
 * @bytes_read: bytes read from storage over the same time
 *
 * The exec'ing thread is split at its execs; another thread counts in the
 * part its start falls in. What a process did before its first exec is in
 * no part: it ran the program it was forked with.
 */
struct bp_exec_part {
	uint64_t ns;
	uint64_t wait_ns;
	uint64_t bytes_read;
};

/**
 * struct bp_process - a thread group (pid = tgid) with its threads rolled up
 * @pid: process id (tgid)
 * @comm: comm of the group leader, last seen
 * @exec: exec path history, oldest first (sched_process_exec filenames, with
 *        a re-exec through /proc/self/exe resolved to the program that
 *        made it); the last is the process's program
 * @exec_part: what it did under each of @exec, @nexec entries
 * @nexec: entries in @exec
 * @argv: its program's command line (argv[0] first) as /proc showed it
 *        when bootprof record marked it in the recording (at the start, or
 *        just after the exec); NULL when unknown: no marker since its last
 *        exec (it exited first, the recording has none, report --redact)
 * @nargv: entries in @argv
 * @exec_window: index in @exec of its first exec inside the window (the
 *               execs before it happened before the window: bp_model.execs
 *               leaves them out)
 * @first_exec_ns: time of its first exec (@exec[0]), 0 when it exec'd
 *                 nothing during the recording
 * @service_exec: index in @exec of its first exec made while it was in
 *                @service's cgroup; @nexec when none (no exec, or every
 *                exec happened before it was moved there, as the processes
 *                of a scope were)
 * @service_exec_ns: the time of that exec, 0 when none
 * @parent: the process that forked it, NULL when it existed before the
 *          recording or its parent is unknown
 * @ppid: @parent's pid, 0 when unknown
 * @start_ns: fork time, 0 when it existed before the recording
 * @exit_ns: time its last thread exited, 0 when it was alive at the end
 * @threads: its threads (pointers into bp_model.threads), by tid
 * @nthreads: entries in @threads
 * @wait_ns: I/O wait of all its threads in the window
 * @wait_by_cause: @wait_ns split by enum bp_cause (sums to @wait_ns)
 * @wait_unknown_ns: part of @wait_ns charged to no file (every sync wait,
 *                   and waits for reads of no known file)
 * @other_wait_ns: uninterruptible sleep of its threads without I/O
 *                 evidence (locks, module loading, another task's I/O ...):
 *                 never part of @wait_ns or of any file's wait. In a
 *                 recording without syscall events (BP_MISSING_SYSCALLS)
 *                 it also holds the sleeps that could not be classified
 * @run_ns: CPU time of all its threads in the window
 * @bytes_read: bytes its threads read from storage (files and metadata)
 * @metadata_bytes: part of @bytes_read that was filesystem metadata
 * @files: files it read or accessed, by wait, bytes, path
 * @nfiles: entries in @files ("files touched")
 * @worst_file: the file charged most of its wait (ties: more bytes, then
 *              path); the file with most bytes when it never waited; NULL
 *              when it touched no file
 * @children: processes it forked, by start time then pid
 * @nchildren: entries in @children
 * @tree_wait_ns: @wait_ns of itself and all descendants
 * @tree_bytes_read: @bytes_read of itself and all descendants
 * @tree_processes: itself plus its descendants
 * @service: its cgroup (see bp_service), or NULL when unknown
 *
 * Which tasks are threads of which process (6.18's sched_process_fork has
 * no tgid) is decided after the pass, from, in order: an exec (pid vs
 * old_pid names the group; an exec'ing task leads its own group), the
 * flags of the parent's clone() when clone is among the recorded syscalls
 * (CLONE_THREAD), the child's sched_process_exit (group_dead false: a
 * thread), clone3 without exec (a thread), else a process. Tasks that
 * existed before the recording and never exec'd are each their own process.
 */
struct bp_process {
	int pid;
	char comm[16];
	char **exec;
	struct bp_exec_part *exec_part;
	size_t nexec;
	char **argv;
	size_t nargv;
	size_t exec_window;
	uint64_t first_exec_ns;
	size_t service_exec;
	uint64_t service_exec_ns;
	struct bp_process *parent;
	int ppid;
	uint64_t start_ns;
	uint64_t exit_ns;
	struct bp_thread **threads;
	size_t nthreads;
	uint64_t wait_ns;
	uint64_t wait_by_cause[BP_NCAUSES];
	uint64_t wait_unknown_ns;
	uint64_t other_wait_ns;
	uint64_t run_ns;
	uint64_t bytes_read;
	uint64_t metadata_bytes;
	struct bp_access **files;
	size_t nfiles;
	struct bp_file *worst_file;
	struct bp_process **children;
	size_t nchildren;
	uint64_t tree_wait_ns;
	uint64_t tree_bytes_read;
	size_t tree_processes;
	struct bp_service *service;
};

/**
 * struct bp_disk_bucket - one disk in one timeline bucket (see bp_disk_stat.timeline)
 * @rq_read_bytes: block_rq_issue read bytes issued in the bucket
 * @rq_done_read_bytes: block_rq_complete read bytes completed in the bucket
 * @inflight_ns: requests in flight integrated over the bucket (requests x
 *               ns): / bucket width = the mean number in flight
 * @inflight_max: most requests in flight at once in the bucket
 */
struct bp_disk_bucket {
	uint64_t rq_read_bytes;
	uint64_t rq_done_read_bytes;
	uint64_t inflight_ns;
	uint32_t inflight_max;
};

/**
 * struct bp_disk_stat - one disk of the recording machine
 * @dev: whole-disk device, kernel encoding
 * @name: "vda", "sda" ...; owned by the model
 * @rotational: 1 rotating, 0 not, -1 unknown
 * @size: bytes, 0 when unknown
 * @metadata: its metadata pseudo-file in bp_model.files, or NULL
 * @metadata_bytes: filesystem metadata read through the block device
 * @metadata_wait_ns: I/O wait charged to that metadata
 * @file_bytes: bytes of regular files on filesystems of this disk
 * @rq_read_bytes: block_rq_issue read requests (rwbs has 'R'), nr_sector * 512
 * @rq_reads: number of those requests
 * @rq_write_bytes: block_rq_issue writes, for context
 * @rq_unfinished: requests in flight at the window's end that no
 *                 block_rq_complete ended before the recording did (a lost
 *                 completion, or still in flight at the stop): counted in
 *                 flight until the window's end
 * @timeline: per timeline bucket (bp_model.timeline_start_ns, bucket_ns),
 *            this disk's read bytes and requests in flight; NULL when the
 *            disk had no request in the window (and past the first 256
 *            disks that had one: only a corrupt recording has that many)
 * @ntimeline: entries in @timeline; later buckets had nothing (the count
 *             may differ from bp_model.nbuckets)
 *
 * A request is in flight from its block_rq_issue to the block_rq_complete
 * of the same (dev, sector): a partial completion moves it to the sector
 * after the part done, an issue of a request already in flight (requeued)
 * counts once, requests without sectors (flushes) are left out: their
 * sector says nothing. Requests issued before the window count from its
 * start. Reads and writes both count: the queue depth the disk sees.
 */
struct bp_disk_stat {
	uint32_t dev;
	char *name;
	int rotational;
	uint64_t size;
	struct bp_file *metadata;
	uint64_t metadata_bytes;
	uint64_t metadata_wait_ns;
	uint64_t file_bytes;
	uint64_t rq_read_bytes;
	uint64_t rq_reads;
	uint64_t rq_write_bytes;
	uint64_t rq_unfinished;
	struct bp_disk_bucket *timeline;
	size_t ntimeline;
};

/* Where the I/O-wait number comes from (bp_totals.iowait_source). */
enum bp_iowait_source { BP_IOWAIT_INFERRED, BP_IOWAIT_KERNEL };

/* "kernel" or "inferred": the word for it in every output. */
const char *bp_iowait_source_name(int source);

/**
 * struct bp_totals - the whole window
 * @read_bytes: read from storage, all files and metadata (Σ bp_file.bytes_read)
 * @metadata_bytes: part of @read_bytes that was metadata
 * @nonblock_bytes: pages inserted for tmpfs/proc/... (not storage; excluded)
 * @write_insert_bytes: pages inserted by buffered writes (no read request
 *                      of the inserting task followed them): created, not
 *                      read; excluded
 * @rq_read_bytes: block-layer read bytes (Σ bp_disk_stat.rq_read_bytes)
 * @attributed_permille: @read_bytes * 1000 / @rq_read_bytes, the share of
 *                       block-layer reads explained by files; -1 when no
 *                       block events (may exceed 1000: readahead of pages
 *                       served by a merged or cached request)
 * @wait_ns: I/O wait of all tasks (a sum over tasks: can exceed the span)
 * @wait_by_cause: @wait_ns split by cause
 * @wait_metadata_ns: part of @wait_ns charged to metadata
 * @wait_unknown_ns: part of @wait_ns charged to no file (every sync wait,
 *                   and waits for reads of no known file)
 * @other_wait_ns: other uninterruptible sleep of all tasks (Σ
 *                 bp_process.other_wait_ns); not I/O wait
 * @iowait_source: where the line between I/O wait and other D-sleep comes
 *                 from: BP_IOWAIT_KERNEL when the recording has the
 *                 kernel's schedstats events (sched_stat_iowait and
 *                 sched_stat_blocked), else BP_IOWAIT_INFERRED (from how
 *                 each sleep ended: woken by a block completion or not)
 * @sleeps_kernel: D-sleeps in the window the kernel's schedstats decided
 * @sleeps_inferred: D-sleeps in the window decided by how they ended (no
 *                   schedstats event named them: none recorded, the sleep
 *                   began before schedstats were on, or the kernel did
 *                   not report it)
 * @idle_wait_ns: wall time in which at least one task was in an I/O wait
 *                and every CPU ran its idle task — what readahead could win.
 *                The waits are exactly those that make up @wait_ns, with the
 *                same start and end: a task woken onto an idle CPU stops
 *                waiting at its wakeup, the CPU's wake-up latency after it
 *                is not counted
 * @never_used_bytes: Σ bp_file.never_used_bytes
 * @used_bytes: Σ bp_file.used_bytes
 * @mapped_unknown_bytes: Σ bp_file.mapped_unknown_bytes
 * @reread_bytes: Σ bp_file.reread_bytes
 * @events: events read in the window
 * @events_total: events read in the whole pass
 * @lost_events: events the kernel dropped or overwrote: the larger of the
 *               recording's per-CPU stats and the losses flagged in page
 *               headers (two views of the same losses); when non-zero every
 *               total is a lower bound
 * @lost_pages: pages flagged as having lost an unknown number of events
 * @truncated: the recording ends early (read up to its last complete page)
 * @first_ns: first event in the window
 * @last_ns: last event in the window
 * @span_ns: @last_ns - @first_ns
 * @recorder_run_ns: CPU time of bootprof's own recorder threads in the
 *                   window: what recording cost. The recorder is left out
 *                   of every other number (it is in no process or service)
 * @recorder_tasks: recorder threads seen (0: the recording names none)
 * @recorder_start_ns: the recorder's first fork, 0 when it was running
 *                     before the recording began
 */
struct bp_totals {
	uint64_t read_bytes;
	uint64_t metadata_bytes;
	uint64_t nonblock_bytes;
	uint64_t write_insert_bytes;
	uint64_t rq_read_bytes;
	int64_t attributed_permille;
	uint64_t wait_ns;
	uint64_t wait_by_cause[BP_NCAUSES];
	uint64_t wait_metadata_ns;
	uint64_t wait_unknown_ns;
	uint64_t other_wait_ns;
	int iowait_source;
	uint64_t sleeps_kernel;
	uint64_t sleeps_inferred;
	uint64_t idle_wait_ns;
	uint64_t never_used_bytes;
	uint64_t used_bytes;
	uint64_t mapped_unknown_bytes;
	uint64_t reread_bytes;
	uint64_t events;
	uint64_t events_total;
	uint64_t lost_events;
	uint64_t lost_pages;
	int truncated;
	uint64_t first_ns;
	uint64_t last_ns;
	uint64_t span_ns;
	uint64_t recorder_run_ns;
	uint64_t recorder_tasks;
	uint64_t recorder_start_ns;
};

/**
 * struct bp_exec_count - repeated work: one program exec'd in the window
 * @path: the exec'd filename (as bp_process.exec); owned
 * @count: number of execs
 * @wait_ns: I/O wait of the processes while they ran @path, summed over
 *           their exec parts (bp_exec_part): a shell that exec'd another
 *           program is charged only until that exec
 * @bytes_read: bytes read from storage, summed likewise
 */
struct bp_exec_count {
	char *path;
	uint64_t count;
	uint64_t wait_ns;
	uint64_t bytes_read;
};

/**
 * struct bp_bucket - one timeline bucket of bp_window.bucket_ns
 * @wait_ns: I/O wait of all tasks inside the bucket (may exceed its width)
 * @idle_wait_ns: CPU-idle-while-waiting time inside the bucket
 * @read_bytes: bytes read from storage (page-cache insertions)
 * @rq_read_bytes: block-layer read bytes issued
 * @rq_done_read_bytes: block-layer read bytes completed (block_rq_complete:
 *                      what the disks delivered in the bucket)
 * @waiting_max: most tasks in an I/O wait at once
 */
struct bp_bucket {
	uint64_t wait_ns;
	uint64_t idle_wait_ns;
	uint64_t read_bytes;
	uint64_t rq_read_bytes;
	uint64_t rq_done_read_bytes;
	uint32_t waiting_max;
};

/**
 * struct bp_model_header - about the recording (copied from its metadata)
 *
 * Strings are owned by the model; any may be NULL when the recording does
 * not carry it (a trace-cmd file has no cmdline or disk table).
 */
struct bp_model_header {
	char *hostname;
	char *kernel_release;
	char *kernel_version;
	char *machine;
	char *cmdline;
	char *clock;
	char *command;
	int command_pid;             /* the command's pid (record -- CMD), 0 when none */
	char *stop_reason;
	char *bootprof_version;
	int ncpus;
	unsigned page_size;          /* memory page size (from the filemap formats), bytes */
	uint64_t start_ns;           /* recording start, 0 when unknown */
	uint64_t stop_ns;            /* recording stop, 0 when unknown */
	uint64_t recorder_cpu_ns;    /* the recorder's CPU time, 0 when unknown */
	uint64_t system_cpu_ns;      /* all CPUs' busy time while recording, 0 when unknown */
	/* The recording's first and last event, whatever the window; 0 when it has none. */
	uint64_t first_event_ns;
	uint64_t last_event_ns;
	uint64_t fault_around_bytes; /* set by record --exact-mmap (one page), 0 unknown */
	/*
	 * Schedstats while recording (the kernel's sched_stat_iowait and
	 * sched_stat_blocked fire only then), and who turned them on;
	 * BP_SCHEDSTATS_UNKNOWN for recordings that do not say.
	 */
	enum bp_schedstats_state schedstats;
	enum bp_schedstats_by schedstats_by;
	char **unavailable;          /* events requested but missing on that kernel */
	size_t nunavailable;
	char *warnings;              /* reader warnings, one per line, or NULL */
};

/**
 * struct bp_model - everything a view renders
 * @header: the recording
 * @window: the window actually built (bounds resolved: since/until are
 *          never 0/UINT64_MAX here; bucket_ns set)
 * @missing: enum bp_model_missing bits: what the recording cannot measure
 * @missing_on_kernel: the subset of @missing whose events the recording
 *                     kernel lacks (else they were just not recorded)
 * @totals: the window's totals
 * @command_totals: the same for the traced command's process tree
 *                  (@header.command_pid and its descendants; see
 *                  bp_focus_totals() for which fields are the tree's):
 *                  what the views show unless asked for every process.
 *                  Undefined when @header.command_pid is 0
 * @processes: all processes alive in the window, by pid then start time
 * @nprocesses: entries
 * @threads: all threads of those processes, by tid then start time
 * @nthreads: entries
 * @files: every file with a page inserted or accessed in the window, by
 *         (dev, ino)
 * @nfiles: entries
 * @accesses: the (process, file) pairs (bp_process.files/bp_file.readers
 *            point here)
 * @naccesses: entries
 * @disks: the recording's disks, by dev
 * @ndisks: entries
 * @services: cgroups with processes in the window, by wait, bytes, path
 * @nservices: entries (0 when the recording has no cgroup events)
 * @execs: programs exec'd in the window, by count (descending) then path
 * @nexecs: entries
 * @timeline: buckets from @timeline_start_ns, @window.bucket_ns wide
 * @nbuckets: entries
 * @timeline_start_ns: start of bucket 0 (the window's first instant)
 * @command_timeline: @timeline for the command's tree (as @command_totals):
 *                    its I/O wait, CPU idle while it waited and most of
 *                    its tasks waiting at once; read_bytes and
 *                    rq_read_bytes are the machine's. NULL when
 *                    @header.command_pid is 0 or there are no buckets
 */
struct bp_model {
	struct bp_model_header header;
	struct bp_window window;
	unsigned missing;
	unsigned missing_on_kernel;
	struct bp_totals totals;
	struct bp_totals command_totals;
	struct bp_process *processes;
	size_t nprocesses;
	struct bp_thread *threads;
	size_t nthreads;
	struct bp_file *files;
	size_t nfiles;
	struct bp_access *accesses;
	size_t naccesses;
	struct bp_disk_stat *disks;
	size_t ndisks;
	struct bp_service *services;
	size_t nservices;
	struct bp_exec_count *execs;
	size_t nexecs;
	struct bp_bucket *timeline;
	size_t nbuckets;
	uint64_t timeline_start_ns;
	struct bp_bucket *command_timeline;
	/* private: page state for bp_model_file_pages() */
	struct bp_model_pages *pages;
};

/**
 * bp_model_build() - compute the model of a recording over a time window
 * @reader: an open recording; rewound first, read to its end
 * @window: the window, or NULL for the whole recording
 * @hooks: optional per-event callbacks, or NULL
 *
 * One pass, ~10 M events/s; the TUI calls it again when the window changes.
 * Commands build through a session (analysis/session.h), which adds the
 * checks every reader makes (corrupt, truncated, lost events).
 *
 * Return: a new model (free with bp_model_free()), or NULL with
 * bp_set_error() when the recording cannot be read.
 */
struct bp_model *bp_model_build(struct bp_reader *reader, const struct bp_window *window,
				const struct bp_build_hooks *hooks);

/**
 * bp_model_build_events() - the model of an array of events, without a recording
 * @tep: the event formats the events' ids refer to
 * @meta: the recording's metadata, or NULL
 * @events: events in time order (ts, cpu, id, data, size)
 * @n: entries in @events
 * @window: the window, or NULL for all events
 * @hooks: optional callbacks, or NULL
 *
 * The same pass as bp_model_build(), for tests that generate event
 * sequences; the model has no reader warnings or read statistics.
 *
 * Return: a new model, or NULL with bp_set_error().
 */
struct bp_model *bp_model_build_events(struct tep_handle *tep, const struct bp_meta *meta,
				       const struct bp_event *events, size_t n,
				       const struct bp_window *window,
				       const struct bp_build_hooks *hooks);

/**
 * bp_model_new() - an empty model (no processes, no files)
 *
 * For views and tests that fill a model by hand. Free with bp_model_free().
 */
struct bp_model *bp_model_new(void);

/**
 * bp_model_free() - free a model and everything it owns
 * @m: the model, or NULL (no-op)
 */
void bp_model_free(struct bp_model *m);

/* ---- lookups ---- */

/**
 * bp_model_find_process() - the process with this pid
 * @m: model
 * @pid: tgid
 *
 * Return: the latest process with @pid (pids can be reused), or NULL.
 */
struct bp_process *bp_model_find_process(const struct bp_model *m, int pid);

/**
 * bp_model_find_thread() - the thread a span of @tid at @ns belongs to
 * @m: a model of the same window as the pass that emitted the span
 * @tid: the span's task
 * @ns: the span's start
 *
 * Tids are reused: the latest thread with @tid started by @ns (the first
 * one when none had started).
 *
 * Return: the thread, or NULL when @m has no task @tid.
 */
const struct bp_thread *bp_model_find_thread(const struct bp_model *m, int tid, uint64_t ns);

/**
 * bp_model_find_file() - the file (dev, ino)
 * @m: model
 * @dev: device, kernel encoding
 * @ino: inode number
 *
 * Return: the file, or NULL when it is not in the model.
 */
struct bp_file *bp_model_find_file(const struct bp_model *m, uint32_t dev, uint64_t ino);

/* The state of one page of a file, as bp_model_file_pages() reports it. */
enum bp_page_state {
	BP_PAGE_NONE,       /* not read from storage in the window */
	BP_PAGE_USED,       /* read, then accessed */
	BP_PAGE_NEVER_USED, /* read, never accessed */
	BP_PAGE_REREAD,     /* read more than once (deleted in between) */
	BP_PAGE_MAPPED,     /* read, mapped by fault-around, not known to be used */
};

/**
 * bp_model_file_pages() - per-page states of a file, for a page map
 * @m: model
 * @f: a file of @m
 * @first: first page index
 * @n: number of pages
 * @out: @n states, filled
 *
 * A page inserted several times reports its last insertion (REREAD wins
 * over USED/MAPPED/NEVER_USED). Cost: O(@n / 64) lookups.
 */
void bp_model_file_pages(const struct bp_model *m, const struct bp_file *f, uint64_t first,
			 size_t n, unsigned char *out);

/* ---- selection: what views list ---- */

/**
 * struct bp_filter - which processes and files a view lists
 * @comm: substring of a process's comm or of one of its exec paths; NULL: any
 * @pid: only this process (0: any)
 * @tree: with @pid or @comm, also every descendant of a matching process
 * @file: substring of a file's path; NULL: any
 *
 * A process matches when it matches @comm/@pid (or descends from one that
 * does, with @tree) and, with @file, touched a matching file. A file
 * matches when its path matches @file and, with @comm/@pid, a matching
 * process touched it. Totals are never filtered; a file's numbers are,
 * through bp_file_part().
 */
struct bp_filter {
	const char *comm;
	int pid;
	int tree;
	const char *file;
};

/* Sort keys for processes; ties always fall back to pid, then start. */
enum bp_process_sort {
	BP_SORT_PROC_WAIT,       /* wait_ns desc */
	BP_SORT_PROC_BYTES,      /* bytes_read desc */
	BP_SORT_PROC_TREE_WAIT,  /* tree_wait_ns desc */
	BP_SORT_PROC_RUN,        /* run_ns desc */
	BP_SORT_PROC_PID,        /* pid asc */
	BP_SORT_PROC_START,      /* start_ns asc */
	BP_SORT_PROC_OTHER_WAIT, /* other_wait_ns desc: the top other sleepers */
};

/* Sort keys for files; ties fall back to the next key, then path, then (dev, ino). */
enum bp_file_sort {
	BP_SORT_FILE_WAIT,       /* wait_ns desc, bytes desc */
	BP_SORT_FILE_BYTES,      /* bytes_read desc, wait desc */
	BP_SORT_FILE_NEVER_USED, /* never_used_bytes desc, bytes desc */
	BP_SORT_FILE_REREAD,     /* reread_bytes desc, bytes desc */
	BP_SORT_FILE_READERS,    /* nreaders desc, bytes desc */
	BP_SORT_FILE_PATH,       /* path asc */
	BP_SORT_FILE_MAPPED,     /* mapped_unknown_bytes desc, bytes desc */
};

/**
 * bp_process_matches() - whether a process passes a filter
 * @m: model
 * @p: a process of @m
 * @f: filter, or NULL (everything matches)
 */
int bp_process_matches(const struct bp_model *m, const struct bp_process *p,
		       const struct bp_filter *f);

/**
 * bp_process_args() - a process's arguments (argv[1] on) as one line
 * @p: process
 * @buf: where the line goes, "" when there are none or they are unknown
 * @len: size of @buf; a longer line is cut after a whole UTF-8 character
 *
 * Arguments are joined by one space, as ps(1) shows them. Returns @buf.
 */
char *bp_process_args(const struct bp_process *p, char *buf, size_t len);

/**
 * bp_file_matches() - whether a file passes a filter
 * @m: model
 * @file: a file of @m
 * @f: filter, or NULL (everything matches)
 */
int bp_file_matches(const struct bp_model *m, const struct bp_file *file,
		    const struct bp_filter *f);

/**
 * struct bp_file_part - what the selected processes did with a file
 * @wait_ns: their I/O wait charged to it
 * @bytes_read: what they read of it from storage
 * @nreaders: how many of them touched it
 * @nstorage_readers: how many of them read some of it from storage
 *
 * A file read by a process outside the selection (another reader of a
 * shared library) is not the selection's: views list these numbers, not
 * the file's, under a process filter.
 */
struct bp_file_part {
	uint64_t wait_ns;
	uint64_t bytes_read;
	size_t nreaders;
	size_t nstorage_readers;
};

/**
 * bp_file_part() - the selected processes' part of a file
 * @m: model
 * @file: a file of @m
 * @f: filter, or NULL; without --pid/--comm every reader is selected and
 *     the part is the whole file
 * @out: filled
 */
void bp_file_part(const struct bp_model *m, const struct bp_file *file, const struct bp_filter *f,
		  struct bp_file_part *out);

/**
 * bp_reader_selected() - whether a reader of a file is among the selected processes
 * @a: an access of the model
 * @f: filter, or NULL (every reader is)
 *
 * Only the process part of @f counts (--pid, --comm, with descendants):
 * a reader is listed beside a file whatever --file says.
 */
int bp_reader_selected(const struct bp_access *a, const struct bp_filter *f);

/**
 * bp_model_select_processes() - the processes a view lists, sorted
 * @m: model
 * @f: filter, or NULL
 * @key: sort key
 * @out: set to a new array of pointers into @m (caller frees the array)
 *
 * Return: number of entries in *@out (0 with *@out NULL when none).
 */
size_t bp_model_select_processes(const struct bp_model *m, const struct bp_filter *f,
				 enum bp_process_sort key, struct bp_process ***out);

/**
 * bp_model_select_files() - the files a view lists, sorted
 * @m: model
 * @f: filter, or NULL
 * @key: sort key
 * @out: set to a new array of pointers into @m (caller frees the array)
 *
 * Return: number of entries in *@out (0 with *@out NULL when none).
 */
size_t bp_model_select_files(const struct bp_model *m, const struct bp_filter *f,
			     enum bp_file_sort key, struct bp_file ***out);

/**
 * bp_model_select_execs() - the programs the selected processes exec'd in the window
 * @m: model
 * @f: filter, or NULL
 * @out: set to a new array (caller frees the array; the paths are the
 *       model's), by count (descending) then path, as bp_model.execs
 *
 * Without a filter, a copy of bp_model.execs; with one, the execs of the
 * processes bp_process_matches() selects, counted alike.
 *
 * Return: number of entries in *@out (0 with *@out NULL when none).
 */
size_t bp_model_select_execs(const struct bp_model *m, const struct bp_filter *f,
			     struct bp_exec_count **out);

#endif
