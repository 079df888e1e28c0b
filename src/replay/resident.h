/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_REPLAY_RESIDENT_H
#define BP_REPLAY_RESIDENT_H

#include <stddef.h>
#include <stdint.h>

#include "replay/pack.h"

/**
 * struct bp_settle_opts - what to look at, and whether to wait for it
 * @root: prefix of the pack's paths ("" for none)
 * @requested: per file of the pack, how many of its ranges reads were
 *             started for (0: none, the file was skipped); borrowed
 * @wait: poll until every requested page is resident and up to date
 * @deadline_ns: CLOCK_MONOTONIC time at which to stop waiting (0: none)
 * @markers: trace_marker files to tell when each range became resident
 *           (bp_replay_markers_open()); borrowed
 * @nmarkers: how many
 */
struct bp_settle_opts {
	const char *root;
	const size_t *requested;
	const uint64_t *chunk;
	int wait;
	uint64_t deadline_ns;
	const int *markers;
	int nmarkers;
};

/**
 * struct bp_settle - how much of what was requested is in the page cache
 * @bytes: bytes requested (ranges clipped to the file's size)
 * @resident: of those, bytes resident and up to date when it returned
 * @files: files with some range requested
 * @files_resident: of those, files whose requested ranges are all resident
 * @last_ns: CLOCK_MONOTONIC time the last range was seen resident (0: none)
 * @gave_up: 1 when waiting stopped with pages still missing (the deadline,
 *           or no progress for BP_SETTLE_STALL_NS)
 */
struct bp_settle {
	uint64_t bytes, resident;
	uint64_t files, files_resident;
	uint64_t last_ns;
	int gave_up;
};

/* Waiting gives up after this long without a single page more resident. */
#define BP_SETTLE_STALL_NS (30ull * 1000000000ull)

/**
 * bp_replay_settle() - count (and with @o->wait, wait for) resident pages
 * @p: the pack the reads were started for
 * @o: options
 * @s: filled
 *
 * Residency is mincore(2)'s: a page counts once it is in the page cache
 * and up to date, not while its read is still in flight. While waiting,
 * ranges not yet resident are asked for again now and then (a page the
 * kernel dropped, or never read under memory pressure, would otherwise
 * keep it waiting); asking for a page already in the cache or under I/O
 * reads nothing. Files whose identity changed since the reads started
 * count as not resident.
 *
 * Return: 0.
 */
int bp_replay_settle(const struct bp_pack *p, const struct bp_settle_opts *o, struct bp_settle *s);

#define BP_REPLAY_MAX_MARKERS 16

/**
 * bp_replay_markers_open() - the trace_marker of every bootprof recording running now
 * @root: the root tracefs is looked up under ("" for this process's own;
 *        at boot PID 1's, where the initramfs moved /sys to)
 * @fds: room for BP_REPLAY_MAX_MARKERS descriptors
 *
 * Their instances are "bootprof" at boot and "bootprof-PID" live: the
 * recordings then say when each range was asked for and when it became
 * resident (bp_replay_mark()).
 *
 * Return: how many were opened (close them).
 */
int bp_replay_markers_open(const char *root, int *fds);

/**
 * bp_replay_mark() - one trace marker line for a range of a pack's file
 * @fds: from bp_replay_markers_open()
 * @n: how many
 * @what: "request" (its reads are about to be started) or "resident"
 *        (every page of it is in the page cache and up to date)
 * @f: the file
 * @first: the range's first page (of the pack's page size)
 * @count: its pages
 *
 * The line is "bootprof-replay WHAT MAJ:MIN INO FIRST+COUNT": one write,
 * one ftrace print event, the preloader's own.
 */
void bp_replay_mark(const int *fds, int n, const char *what, const struct bp_pack_file *f,
		    uint64_t first, uint64_t count);

#endif
