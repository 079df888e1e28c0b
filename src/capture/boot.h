/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_BOOT_H
#define BP_CAPTURE_BOOT_H

#include <stddef.h>

/*
 * Tracing from early boot (DESIGN §4 "From early boot"): which events the
 * kernel command line can enable on which kernel, and the words that do it.
 */

/* Kernels from this version on create instances from trace_instance=. */
#define BP_BOOT_INSTANCE_VERSION BP_KVER(6, 3)
#define BP_KVER(major, minor) ((major) * 1000 + (minor))

/* The default name of the instance the kernel creates at boot. */
#define BP_BOOT_INSTANCE "bootprof"

/* One event of the boot-time set and the first kernel known to have it. */
struct bp_boot_event {
	const char *name;     /* "system:event", or "system:*" */
	int since;            /* BP_KVER(); 0: in no released kernel known here */
	const char *instead;  /* an older event used when this one is absent */
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
 * The kernel command-line words that trace from before the first process:
 * trace_instance=INSTANCE,EVENTS on kernels >= 6.3, trace_event=EVENTS
 * (into the top-level buffer) and trace_clock=boot before, and
 * trace_buf_size=KBK. available is the live kernel's event list, or NULL
 * to go by bp_boot_events[].since. Events left out are appended to
 * *missing (a heap string of "system:event " words, or NULL when none;
 * the caller frees). Returns a heap string; the caller frees.
 */
char *bp_boot_cmdline(int version, const char *instance, const char *available,
		      size_t buffer_kb, char **missing);

#endif
