/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_RESOLVE_RESOLVE_H
#define BP_RESOLVE_RESOLVE_H

#include <signal.h>

#include "tracefile/meta.h"
#include "tracefile/tracefile.h"

/*
 * What the recording needs to know about this machine, gathered at record
 * time so analysis never consults the live system (docs/design.md, 'Data flow').
 */

/*
 * Fill hostname, uname, /proc/cmdline, the mount table
 * (/proc/self/mountinfo) and the block devices (/sys/class/block).
 * 0, or -1 with bp_set_error() when /proc/self/mountinfo cannot be read.
 */
int bp_resolve_system(struct bp_meta *m);

/*
 * Add every task alive now to m->tasks as (tid, tgid), read from proc
 * (normally "/proc"): threads are then known to belong to their process
 * even when they were created before the recording started. Call at
 * record start and at stop; the list stays sorted by (tid, tgid) without
 * duplicates (flags of equal pairs or'ed). 0, or -1 with bp_set_error().
 */
int bp_resolve_tasks(struct bp_meta *m, const char *proc);

/*
 * Mark the tasks of m->tasks (bp_resolve_tasks() first) that are in an
 * uninterruptible sleep (state D) now, with the syscall they sleep in
 * and their name; not the recorder's (this process). With only_marked,
 * read again only the tasks marked so, and unmark those awake: called
 * before tracing starts (its reads of /proc are not recorded) and again
 * once it runs, a task still marked has been asleep since before the
 * first event, or fell asleep again a moment after, which its own events
 * then show.
 */
void bp_resolve_asleep(struct bp_meta *m, const char *proc, int only_marked);

/* Parse one mountinfo line into its parts; exposed for unit tests. */
struct bp_mountinfo {
	uint32_t dev;   /* kernel encoding */
	char *root;     /* root of the mount within its filesystem */
	char *dir;      /* mount point, unescaped */
	char *fstype;
	char *source;
};
int bp_mountinfo_parse_line(char *line, struct bp_mountinfo *mi);

/*
 * Name the inodes that filemap and readahead events mention: scan r for
 * every (s_dev, i_ino) pair, then find each one's path on its mounted
 * filesystem, never crossing into other mounts, stopping as soon as all
 * are found. Adds to m->paths (sorted at the end) and counts the rest in
 * m->unresolved. Needs m->mounts (bp_resolve_system() first). The pseudo
 * device 0:3 (metadata read through a block device) is skipped and not
 * counted. When *stop (may be NULL) becomes non-zero, e.g. from a signal
 * handler, the search ends early and the rest counts as unresolved.
 * The same pass names the file each exec'd path runs when it is another
 * one (a script's interpreter, links followed: m->programs).
 * 0 or -1.
 */
int bp_resolve_paths(struct bp_meta *m, struct bp_reader *r, const volatile sig_atomic_t *stop);

/*
 * The same, choosing the means: without BP_RESOLVE_WALK only file handles
 * are used (ext2/3/4: one open_by_handle_at per inode), never a walk of a
 * whole filesystem, for callers that resolve again every few seconds
 * (top --live); what handles cannot name stays unresolved. Both skip the
 * pairs m already names (sorted), so calling again with the same m only
 * looks up new inodes (reset m->unresolved first: it is added to).
 */
#define BP_RESOLVE_WALK 1
int bp_resolve_paths_how(struct bp_meta *m, struct bp_reader *r,
			 const volatile sig_atomic_t *stop, int how);

/* The pseudo device whose "inodes" are block devices (kernel encoding). */
#define BP_DEV_BDEV BP_DEV(0, 3)

#endif
