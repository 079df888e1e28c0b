/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_CPU_USE_H
#define BP_CAPTURE_CPU_USE_H

#include <stdint.h>

struct bp_meta;

/*
 * What the recorder costs: its own CPU time (every thread of the calling
 * process) beside the CPU time the whole system spent busy, both in ns,
 * read at start and stop. The difference goes into the recording, so a
 * report can say which share of the machine the recorder took.
 */
struct bp_cpu_use {
	uint64_t self_ns; /* user + system time of this process */
	uint64_t busy_ns; /* all CPUs, /proc/stat: everything but idle and iowait (in ticks) */
};

/* Now; a part that cannot be read is 0. */
void bp_cpu_use_now(struct bp_cpu_use *u);

/*
 * meta->recorder_cpu_ns and meta->system_cpu_ns from @start to now. A
 * recording of the boot buffer passes a zeroed @start: the system's time
 * counts from boot.
 */
void bp_cpu_use_to_meta(struct bp_meta *meta, const struct bp_cpu_use *start);

#endif
