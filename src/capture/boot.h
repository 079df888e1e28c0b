/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_BOOT_H
#define BP_CAPTURE_BOOT_H

#include <stddef.h>

/*
 * Tracing from early boot (bootprof-cmdline(1), bootprof-init(1)): which events the
 * kernel command line can enable on which kernel, and the words that do it.
 */

/* Kernels from this version on create instances from trace_instance=. */
#define BP_BOOT_INSTANCE_VERSION BP_KVER(6, 3)
#define BP_KVER(major, minor) ((major) * 1000 + (minor))
/* Kernels from this version on start with schedstats off (schedstats=enable turns them on). */
#define BP_SCHEDSTATS_WORD_VERSION BP_KVER(4, 6)

/* The default name of the instance the kernel creates at boot. */
#define BP_BOOT_INSTANCE "bootprof"

/* One event of the boot-time set and the first kernel known to have it. */
struct bp_boot_event {
	const char *name;     /* "system:event", or "system:*" */
	int since;            /* BP_KVER(); 0: in no released kernel known here */
	const char *instead;  /* an older event used when this one is absent */
	int schedstats;       /* only in a kernel built with CONFIG_SCHEDSTATS */
};

/* The boot-time event set, { NULL }-terminated. */
extern const struct bp_boot_event bp_boot_events[];

/*
 * "6.1.0-50-amd64", "6.12", "6.12.95+deb12-amd64" → BP_KVER(6, 1) ...;
 * -1 when release does not start with MAJOR.MINOR.
 */
int bp_kernel_version(const char *release);

/*
 * The live kernel's available_events (tracefs), one "system:event" per
 * line, as a heap string the caller frees; NULL with bp_set_error() when
 * tracefs cannot be read.
 */
char *bp_boot_available_events(void);

/* 1 when "system:event" (or, for "system:*", any event of system) is in list. */
int bp_boot_event_listed(const char *list, const char *name);

/*
 * Whether the kernel of this release was built with CONFIG_SCHEDSTATS:
 * for the running kernel (live), whether it has the sysctl; for another,
 * what /boot/config-RELEASE says, or, without that file, yes (Debian's,
 * Ubuntu's and Fedora's kernels have them). 1 or 0.
 */
int bp_boot_kernel_schedstats(const char *release, int live);

/*
 * The kernel command-line words that trace from before the first process:
 * trace_instance=INSTANCE,EVENTS on kernels >= 6.3, trace_event=EVENTS
 * (into the top-level buffer) and trace_clock=boot before, and
 * trace_buf_size=KBK; with schedstats (bp_boot_kernel_schedstats()) the
 * schedstats events and schedstats=enable too. available is the live
 * kernel's event list, or NULL to go by bp_boot_events[].since. arch
 * (bp_boot_arch()'s name, or NULL: any) leaves out, unmissed, the syscall
 * events its syscall table lacks (open and access on arm64). Events
 * left out are appended to *missing (a heap string of "system:event "
 * words, or NULL when none; the caller frees), except the schedstats
 * events of a kernel without schedstats: nothing to miss there. Returns a
 * heap string; the caller frees.
 */
char *bp_boot_cmdline(int version, const char *instance, const char *available,
		      const char *arch, int schedstats, size_t buffer_kb, char **missing);

/*
 * bp_boot_arch() - the architecture NAME means ("x86_64", "arm64", "i386",
 * "arm", "riscv64"), from uname -m's, Debian's or a kernel flavour's name
 * (aarch64, amd64, i686, 686-pae, armmp...), or NULL when unknown.
 * bp_boot_release_arch() - the same from a Debian kernel release's flavour
 * suffix (6.12.38+deb12-arm64), or NULL. Static strings.
 */
const char *bp_boot_arch(const char *name);
const char *bp_boot_release_arch(const char *release);

/*
 * bp_boot_cmdline() for kernel release (MAJOR.MINOR...) of arch: with live (it is
 * the running kernel), by the live event list; when that cannot be read,
 * *no_list is set to why (a heap string) and the known versions are used.
 * NULL with bp_set_error() for a release that is no version.
 */
char *bp_boot_cmdline_for(const char *release, int live, const char *instance,
			  const char *arch, size_t buffer_kb, char **missing, char **no_list);



#include <signal.h>
#include <stdint.h>

/*
 * One boot recording: drain the boot-time buffer (or, with create, a new
 * instance started now), optionally keep recording until a stop condition,
 * then write the recording with its metadata. Shared by `bootprof collect`
 * and the recorder `bootprof init` forks.
 */
struct bp_boot_run {
	/* what to read */
	const char *instance;   /* NULL: "bootprof" if the kernel made it, else the top level */
	int create;             /* no boot buffer: record into bootprof-PID from now */
	int keep;               /* leave the boot buffer tracing instead of removing it */
	size_t buffer_kb;       /* per CPU, for create */
	/* when to stop (none set: drain what is there and stop) */
	double duration;        /* seconds */
	const char *until_exec; /* program name */
	const char *until_file; /* path, looked up under root_prefix when set */
	const char *root_prefix;/* e.g. "/proc/1/root": PID 1's view of the file system */
	volatile sig_atomic_t *stop_signal; /* nonzero: stop (the signal number) */
	/* where to write */
	const char *output;
	int force;
	uint64_t fault_around_bytes; /* noted in the recording: set for it (bootprof.exact-mmap=1), 0 */
	/* called after tracing stopped, before paths are resolved; -1 aborts */
	int (*before_save)(void *arg);
	void *arg;
	/* each warning, one line without "bootprof: " */
	void (*warn)(void *arg, const char *msg);

	/* results */
	char *buffer;           /* which buffer was read: "instance bootprof", "top level" ... */
	char *stop_reason;
	uint64_t bytes;         /* raw event data written */
	uint64_t lost;          /* events overwritten or dropped (per_cpu stats) */
	int attached;           /* read a boot-time buffer (events from before PID 1) */
};

/* Where boot recordings go: LOG_DIR/boot-YYYYMMDD-HHMMSS.dat, LOG_DIR/latest.dat. */
#define BP_BOOT_LOG_DIR "/var/log/bootprof"

/*
 * Create the next BP_BOOT_LOG_DIR/boot-YYYYMMDD-HHMMSS[-N].dat (UTC, 0600,
 * O_EXCL|O_NOFOLLOW; the directory is made 0700 when missing) and return
 * its descriptor, its path in path. -1 with bp_set_error().
 */
int bp_boot_log_create(char *path, size_t size);
/* Point BP_BOOT_LOG_DIR/latest.dat at path (atomically). 0 or -1. */
int bp_boot_log_link_latest(const char *path);

/* 0, or -1 with bp_set_error(); free the results with bp_boot_run_release(). */
int bp_boot_record(struct bp_boot_run *r);

/*
 * As PID 1, before exec'ing the real init: make the per-syscall events of
 * bp_boot_events[] record on the boot buffer (the instance of that name,
 * else the top level after trace_event=), mounting tracefs if needed:
 * enabled from the command line they are turned off and on again (only
 * then do tasks emit them), else just turned on. *enabled is how many are
 * on (0: no boot buffer). Plain syscalls only. 0, or -1 with bp_set_error().
 */
int bp_boot_enable_syscalls(const char *instance, int *enabled);
void bp_boot_run_release(struct bp_boot_run *r);
#endif
