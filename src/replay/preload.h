/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_REPLAY_PRELOAD_H
#define BP_REPLAY_PRELOAD_H

#include <stddef.h>
#include <stdint.h>

#include "replay/pack.h"

/* The process name a preloader runs under, so recordings show its reads apart. */
#define BP_REPLAY_COMM "bootprof-replay"

enum bp_ioprio {
	BP_IOPRIO_NORMAL,  /* leave the I/O priority as inherited */
	BP_IOPRIO_LOW,     /* best-effort, lowest level (7) */
	BP_IOPRIO_IDLE,    /* idle class: only when the disk has nothing else to do */
};

/**
 * struct bp_replay_opts - how to preload
 * @threads: threads for files on non-rotational disks (0: 4); files on
 *           rotational disks are read by one thread in pack order
 * @ioprio: I/O priority of the preloading threads
 * @deadline_ns: stop issuing reads this long after the start (0: none)
 * @fadvise: use posix_fadvise(WILLNEED) instead of readahead(2)
 * @wait: return only once every requested page is resident and up to date
 *        (or the deadline passed, or no page more became resident for
 *        BP_SETTLE_STALL_NS)
 * @root: prefix of every path the pack names and of /sys (NULL: "");
 *        the init wrapper's preloader uses "/proc/1/root", so it follows
 *        PID 1 from the initramfs into the real root
 * @tracefs_root: prefix of /sys/kernel/tracing, where the recordings'
 *                markers are written (NULL: ""; the init wrapper's
 *                preloader: PID 1's root, as for @root)
 */
struct bp_replay_opts {
	int threads;
	enum bp_ioprio ioprio;
	uint64_t deadline_ns;
	int fadvise;
	int wait;
	const char *root;
	const char *tracefs_root;
};

/**
 * struct bp_replay_stats - what a replay did
 * @files: entries in the pack
 * @preloaded: files whose ranges were all requested (reads started)
 * @stale: identity changed (dev, ino, size, mtime or ctime): skipped
 * @missing: path gone: skipped
 * @unreadable: open or read refused (permissions, I/O error): skipped
 * @cut: files not (fully) requested because the deadline passed
 * @bytes: bytes requested
 * @rotational_files: files read by the one in-order thread
 * @threads: threads used for the other files
 * @started_ns: wall time until every read was started
 * @resident: bytes of the requested ranges resident and up to date at the end
 * @resident_files: files whose requested ranges were all resident at the end
 * @resident_ns: from the start until the last range was seen resident
 * @waited: 1 when asked to wait (bp_replay_opts.wait)
 * @wait_gave_up: 1 when waiting stopped with pages still not resident
 * @elapsed_ns: wall time of the replay
 * @deadline_hit: 1 when the deadline stopped it
 */
struct bp_replay_stats {
	uint64_t files;
	uint64_t preloaded;
	uint64_t stale;
	uint64_t missing;
	uint64_t unreadable;
	uint64_t cut;
	uint64_t bytes;
	uint64_t rotational_files;
	int threads;
	uint64_t started_ns;
	uint64_t resident, resident_files, resident_ns;
	int waited, wait_gave_up;
	uint64_t elapsed_ns;
	int deadline_hit;
};

/**
 * bp_replay_run() - preload a pack's ranges into the page cache
 * @p: the pack
 * @o: options, or NULL for the defaults
 * @st: filled
 *
 * Files whose identity no longer matches are skipped and counted, never
 * read. Returns when every range was requested or the deadline passed;
 * with @o->wait, once every requested page is resident. Either way @st
 * says how much of what was requested is resident (mincore(2)).
 *
 * When threads cannot be started, the calling thread does their share.
 *
 * Return: 0 (skipped files are counted in @st, not failures).
 */
int bp_replay_run(const struct bp_pack *p, const struct bp_replay_opts *o,
		  struct bp_replay_stats *st);

/**
 * bp_replay_open() - open a pack's file, if it is still the file of the pack
 * @root: prefix of its path ("" for none)
 * @f: the entry
 *
 * Does not follow a final link, never blocks on a FIFO.
 *
 * Return: a file descriptor, or -1 with errno (ESTALE: another file now).
 */
int bp_replay_open(const char *root, const struct bp_pack_file *f);

/**
 * bp_replay_chunk() - start reads of [off, off + len) of a file
 * @fd: the file
 * @off, @len: bytes
 * @chunk: bytes one call may ask for: readahead(2) and WILLNEED read at most
 *         max(read_ahead_kb, max_sectors_kb) of a request and drop the rest
 * @fadvise: posix_fadvise(WILLNEED) rather than readahead(2)
 *
 * Return: 0, or an errno value.
 */
int bp_replay_chunk(int fd, uint64_t off, uint64_t len, uint64_t chunk, int fadvise);

/**
 * bp_replay_summary() - the one-line summary of a replay
 * @st: the stats
 * @buf: filled, NUL-terminated
 * @size: of @buf
 */
void bp_replay_summary(const struct bp_replay_stats *st, char *buf, size_t size);

/**
 * bp_replay_spawn() - start a preloader process and return at once
 * @pack_path: the pack to replay
 *
 * For the init wrapper: forks a child named BP_REPLAY_COMM that loads the
 * pack, preloads it (one in-order thread on rotational disks, several
 * otherwise; a 60 s deadline), waits until the pages are resident and writes one summary line to /dev/kmsg,
 * then exits. The caller only pays for the fork; nothing the child meets
 * (missing or corrupt pack, unreadable files) reaches it.
 *
 * Return: the child's pid, or -1 when fork() failed.
 */
int bp_replay_spawn(const char *pack_path);

/**
 * bp_replay_boot() - bp_replay_spawn() for bootprof.replay=PACK
 *
 * For PID 1 right before it execs the real init: reads /proc/cmdline and
 * starts a preloader when it has bootprof.replay=PACK (an absolute path,
 * looked up in PID 1's root as it is then, or later once it appears: the
 * real root after an initramfs). Does nothing otherwise.
 */
void bp_replay_boot(void);

#endif
