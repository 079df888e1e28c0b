/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_SCHEDSTATS_H
#define BP_CAPTURE_SCHEDSTATS_H

#include "tracefile/meta.h"

/*
 * The kernel's own count of I/O wait. With schedstats on, each wake-up
 * reports, in the waker's context, sched:sched_stat_blocked (pid, delay)
 * for a sleep with TASK_UNINTERRUPTIBLE set and, for a sleep in
 * io_schedule() (the task's in_iowait), sched:sched_stat_iowait too.
 * The bookkeeping costs every sleep and wake-up a little, so kernels
 * start with it off; the sysctl exists only in a kernel built with
 * CONFIG_SCHEDSTATS (4.6 and later). Turned on for a recording, it is
 * turned off again on every way out.
 */
#define BP_SCHEDSTATS_KNOB "/proc/sys/kernel/sched_schedstats"

/**
 * struct bp_schedstats - schedstats while a recording holds them
 * @state: what the recording notes: BP_SCHEDSTATS_NONE, _OFF or _ON
 *         (BP_SCHEDSTATS_UNKNOWN when the knob could not be read)
 * @by: who turned them on, with BP_SCHEDSTATS_ON
 * @restore: 1 while bootprof has them on: bp_schedstats_restore() turns
 *           them off
 */
struct bp_schedstats {
	enum bp_schedstats_state state;
	enum bp_schedstats_by by;
	int restore;
};

#define BP_SCHEDSTATS_INIT { BP_SCHEDSTATS_UNKNOWN, BP_SCHEDSTATS_BY_UNKNOWN, 0 }

/**
 * bp_schedstats_look() - note the state of schedstats, changing nothing
 * @ss: gets @state and @by; on, they were turned on by the kernel
 *      command line (schedstats=enable) or by someone else
 *
 * For a buffer someone else set up (a boot recording), and for
 * record --no-schedstats.
 */
void bp_schedstats_look(struct bp_schedstats *ss);

/**
 * bp_schedstats_on() - turn schedstats on for a recording
 * @ss: as bp_schedstats_look() leaves it; @by is BP_SCHEDSTATS_BY_BOOTPROF
 *      and @restore 1 when this call turned them on
 *
 * Call before the events are enabled: a sleep that began while they were
 * off is never reported.
 *
 * Return: 0 (a kernel without schedstats is not an error: @state is then
 * BP_SCHEDSTATS_NONE), or -1 with bp_set_error() when the kernel has them
 * off and refuses to turn them on (a read-only /proc/sys in a container),
 * nothing changed.
 */
int bp_schedstats_on(struct bp_schedstats *ss);

/**
 * bp_schedstats_check() - at the stop: were they on all along?
 * @ss: as bp_schedstats_on() or bp_schedstats_look() left it
 *
 * Someone may have turned them off meanwhile (another recording that
 * turned them on and ended first): @state then becomes BP_SCHEDSTATS_OFF
 * and nothing is left to restore.
 *
 * Return: 0, or -1 with bp_set_error() when they went off.
 */
int bp_schedstats_check(struct bp_schedstats *ss);

/**
 * bp_schedstats_restore() - turn off what bp_schedstats_on() turned on
 * @ss: a no-op unless @restore is set; it is clear afterwards either way
 *
 * Return: 0, or -1 with bp_set_error().
 */
int bp_schedstats_restore(struct bp_schedstats *ss);

#endif
