/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_LIVE_H
#define BP_CAPTURE_LIVE_H

/*
 * A recording of the live system that can be read while it grows, for
 * `bootprof top --live`. It records exactly like `bootprof record` (its
 * own instance bootprof-<pid>, the default events, clock boot) into a
 * private temporary directory ($TMPDIR or /tmp). Each bp_live_update()
 * writes a complete recording of everything so far (the pages spooled
 * until then, the machine facts, the paths of the inodes seen, the
 * ring-buffer statistics) and opens a reader on it, so the model built
 * from it is the one `report` would build from the same recording.
 *
 * An update costs a copy of the pages it keeps and a scan of them for
 * new inodes (named by file handle only): with everything since the start
 * it grows with the length of the session; with the last few updates
 * only, it stays bounded. The spool itself grows like `bootprof record`'s.
 */

struct bp_live;
struct bp_reader;

/*
 * Create the instance and the temporary recording and start tracing.
 * Returns NULL with bp_set_error(), leaving no instance and no file.
 */
struct bp_live *bp_live_start(void);

/* Updates bp_live_update() can keep at most with @recent. */
#define BP_LIVE_MAX_RECENT 16

/*
 * Take in what was recorded since the last call: write the snapshot and
 * reopen the reader on it. The snapshot holds the pages recorded since
 * the start (@recent 0), or only since the @recent-th last update (at most
 * BP_LIVE_MAX_RECENT). 0, or -1 with bp_set_error() (the previous reader
 * stays usable).
 */
int bp_live_update(struct bp_live *l, unsigned recent);

/* The reader on the last snapshot (NULL before the first update). Owned by l. */
struct bp_reader *bp_live_reader(struct bp_live *l);

/* Stop tracing, remove the instance and every temporary file. NULL is a no-op. */
void bp_live_free(struct bp_live *l);

#endif
