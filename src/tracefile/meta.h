/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TRACEFILE_META_H
#define BP_TRACEFILE_META_H

#include <stddef.h>
#include <stdint.h>

/*
 * What a recording knows about the machine it was made on, so analysis
 * never consults the live system (docs/design.md, 'Data flow'). bootprof writes all of it;
 * a trace.dat written by trace-cmd fills what its options carry (uname,
 * clock, cpustat, cpus, page size) and leaves the rest empty.
 *
 * Device numbers use the kernel's internal encoding, as filemap and block
 * tracepoints print them: dev = major << 20 | minor.
 */
#define BP_DEV(major, minor) (((uint32_t)(major) << 20) | ((uint32_t)(minor) & 0xfffff))
#define BP_DEV_MAJOR(dev) ((unsigned)((dev) >> 20))
#define BP_DEV_MINOR(dev) ((unsigned)((dev) & 0xfffff))

struct bp_mount {
	uint32_t dev;
	char *fstype;
	char *dir;     /* mount point */
	char *source;  /* e.g. /dev/vda */
};

struct bp_disk {
	uint32_t dev;
	char *name;        /* vda, sda, mmcblk0 */
	int rotational;    /* 1 rotating, 0 not, -1 unknown */
	uint64_t size;     /* bytes */
};

/* One resolved inode: filemap events name (dev, ino); this names the path. */
struct bp_path {
	uint32_t dev;
	uint64_t ino;
	char *path;
};

/*
 * The file an exec'd path runs, when it is another file: the interpreter
 * of a script ("#!"), with symbolic links followed (/bin/sh ->
 * /bin/busybox). Read at the recording's stop, where the path still exists.
 */
struct bp_program {
	char *path;        /* as sched_process_exec names it */
	char *program;
};

/*
 * One task alive at record start or stop, read from /proc: which process
 * (tgid) a thread belongs to, since 6.x sched_process_fork has no tgid.
 * One in an uninterruptible sleep (state D) as the recording started
 * emits no event until it wakes: asleep says so, with the syscall it
 * sleeps in and its name then.
 */
#define BP_TASK_RECORDER 1u  /* one of bootprof's own recorder threads */
#define BP_SYSCALL_NONE (-1)     /* asleep outside a syscall: a fault, a kernel thread */
#define BP_SYSCALL_UNKNOWN (-2)
struct bp_task_id {
	int tid;
	int tgid;
	unsigned flags;           /* BP_TASK_* */
	int asleep;               /* in state D when the recording started */
	int syscall;              /* ... in this syscall (its number), or BP_SYSCALL_* */
	char comm[16];            /* ... named so ("" unknown) */
};

/* Ring-buffer statistics of one CPU, read from per_cpu/cpuN/stats at stop. */
struct bp_cpu_stat {
	uint64_t entries;
	uint64_t overrun;         /* events overwritten (oldest lost) */
	uint64_t commit_overrun;
	uint64_t dropped;         /* events dropped (buffer full, no overwrite) */
	uint64_t read;
};

/*
 * Schedstats while recording: the kernel's sched:sched_stat_iowait and
 * sched_stat_blocked events fire only while they are on.
 */
enum bp_schedstats_state {
	BP_SCHEDSTATS_UNKNOWN = 0, /* not noted: older recordings, trace-cmd's */
	BP_SCHEDSTATS_NONE,        /* the kernel has none (no CONFIG_SCHEDSTATS) */
	BP_SCHEDSTATS_OFF,         /* it has them, off (or turned off before the stop) */
	BP_SCHEDSTATS_ON,          /* on until the stop; since when: enum bp_schedstats_by */
};

/* Who turned schedstats on (BP_SCHEDSTATS_ON only). */
enum bp_schedstats_by {
	BP_SCHEDSTATS_BY_UNKNOWN = 0,
	BP_SCHEDSTATS_BY_BOOTPROF, /* bootprof, for this recording (restored after) */
	BP_SCHEDSTATS_BY_CMDLINE,  /* schedstats=enable on the kernel command line: since boot */
	BP_SCHEDSTATS_BY_SYSTEM,   /* someone else (the sysctl): on when bootprof looked, at
				      a live recording's start or when a boot's was collected */
};

/* "none", "off", "on"; NULL for BP_SCHEDSTATS_UNKNOWN. */
const char *bp_schedstats_state_name(enum bp_schedstats_state state);
/* "bootprof", "cmdline", "system"; NULL for BP_SCHEDSTATS_BY_UNKNOWN. */
const char *bp_schedstats_by_name(enum bp_schedstats_by by);

struct bp_meta {
	char *bootprof_version;  /* NULL: not written by bootprof */
	char *hostname;
	char *kernel_release;    /* uname -r */
	char *kernel_version;    /* uname -v */
	char *machine;           /* uname -m */
	char *cmdline;           /* /proc/cmdline */
	char *clock;             /* trace clock: boot, local, ... */
	char *stop_reason;       /* "command exited", "duration", "signal SIGINT", ... */
	char *command;           /* what was recorded (record -- CMD), or NULL */
	int ncpus;
	int page_size;           /* ring-buffer page (sub-buffer) size */
	uint64_t start_ns;       /* recording clock at start, 0 if unknown */
	uint64_t stop_ns;        /* recording clock at stop, 0 if unknown */
	/*
	 * The kernel's fault_around_bytes while recording, when bootprof set
	 * it (record --exact-mmap: one page); 0 when unknown (the default,
	 * 64 KiB, on most kernels).
	 */
	uint64_t fault_around_bytes;
	enum bp_schedstats_state schedstats; /* BP_SCHEDSTATS_UNKNOWN when not noted */
	enum bp_schedstats_by schedstats_by; /* who turned them on, with BP_SCHEDSTATS_ON */

	char **events;           /* "system:event" recorded */
	size_t nevents;
	char **unavailable;      /* requested but missing on this kernel */
	size_t nunavailable;

	struct bp_mount *mounts;
	size_t nmounts;
	struct bp_disk *disks;
	size_t ndisks;
	struct bp_path *paths;   /* sorted by (dev, ino) after bp_meta_sort_paths() */
	size_t npaths;
	uint64_t unresolved;     /* (dev, ino) pairs seen in events but not resolved */
	struct bp_program *programs; /* exec'd paths that run another file */
	size_t nprograms;

	struct bp_cpu_stat *cpu_stats; /* ncpus entries, or NULL when unknown */

	struct bp_task_id *tasks; /* tid -> tgid known at record time, and the recorder's tids */
	size_t ntasks;

	/* The traced command of `record -- CMD`; command_pid 0 when none. */
	int command_pid;
	int command_status;        /* wait status as waitpid() gave it; -1 unknown */
	uint64_t command_start_ns; /* recording clock at fork, 0 unknown */
	uint64_t command_end_ns;   /* recording clock at exit, 0 unknown */

	/* What recording cost: the recorder's CPU time, and all CPUs' busy time meanwhile. */
	uint64_t recorder_cpu_ns;  /* 0 unknown */
	uint64_t system_cpu_ns;    /* 0 unknown */
};

void bp_meta_init(struct bp_meta *m);
/* Free everything the struct owns (it owns every pointer in it). */
void bp_meta_release(struct bp_meta *m);

/* Append helpers: copy their string arguments. */
void bp_meta_add_event(struct bp_meta *m, const char *name, int available);
void bp_meta_add_mount(struct bp_meta *m, uint32_t dev, const char *fstype, const char *dir,
		       const char *source);
void bp_meta_add_disk(struct bp_meta *m, uint32_t dev, const char *name, int rotational,
		      uint64_t size);
void bp_meta_add_path(struct bp_meta *m, uint32_t dev, uint64_t ino, const char *path);
void bp_meta_add_task(struct bp_meta *m, int tid, int tgid, unsigned flags);
void bp_meta_add_program(struct bp_meta *m, const char *path, const char *program);
/*
 * The last task added with tid was asleep (state D) when the recording
 * started, in syscall (or BP_SYSCALL_*), named comm (may be NULL).
 * 0, or -1 when m has no such task.
 */
int bp_meta_task_asleep(struct bp_meta *m, int tid, int syscall, const char *comm);

/* Sort paths by (dev, ino) so bp_meta_find_path() can bisect. */
void bp_meta_sort_paths(struct bp_meta *m);
/* The path of (dev, ino), or NULL. Needs bp_meta_sort_paths() first. */
const char *bp_meta_find_path(const struct bp_meta *m, uint32_t dev, uint64_t ino);
/* The file exec'd @path runs (struct bp_program), or NULL when it is @path itself or unknown. */
const char *bp_meta_find_program(const struct bp_meta *m, const char *path);
/* The disk with this device number, or NULL. */
const struct bp_disk *bp_meta_find_disk(const struct bp_meta *m, uint32_t dev);

/* Total lost events over all CPUs (overrun + dropped); 0 when unknown. */
uint64_t bp_meta_lost_events(const struct bp_meta *m);

/*
 * Serialize to a text blob stored inside the trace.dat (see tracefile.h),
 * and parse it back. The parser treats the blob as untrusted: any malformed
 * line fails with bp_set_error() and returns -1.
 * bp_meta_serialize returns a heap buffer (caller frees), *len set.
 */
char *bp_meta_serialize(const struct bp_meta *m, size_t *len);
int bp_meta_parse(struct bp_meta *m, const char *buf, size_t len);

#endif
