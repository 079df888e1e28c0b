/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_REPLAY_BUILD_H
#define BP_REPLAY_BUILD_H

#include <stdint.h>

#include "analysis/critical.h"
#include "analysis/model.h"
#include "replay/pack.h"

/**
 * struct bp_pack_build_opts - how to make a pack from a recording
 * @window: the part of the recording to take reads from
 * @gap_pages: merge two used ranges separated by at most this many pages
 * @max_bytes: at most this many bytes of ranges (0: no cap); files past
 *             the cap, in pack order, are left out and counted
 * @root: prefix under which the recorded paths are looked up now (NULL: "")
 * @all: every process's reads; else, for a recording of a command
 *       (record -- CMD), only the files its process tree touched
 * @to: NULL: files in order of first use (physical on rotational disks);
 *      else the end point of a critical path: the pages the path waited
 *      on go first, in the order it waited for them, then the rest in
 *      that order (a file on the path counts whoever's tree it is in)
 * @ends: with @to the default end, where the boot's ends come from (a
 *        plugin's mark, as `bootprof critical` takes it), or NULL
 *
 * The pack takes each file's identity from the file as it is now: a
 * file that changed during or since the recording is left out.
 */
struct bp_pack_build_opts {
	struct bp_window window;
	uint64_t gap_pages;
	uint64_t max_bytes;
	const char *root;
	int all;
	const struct bp_crit_end *to;
	const struct bp_crit_end_source *ends;
};

struct bp_session;

/**
 * bp_pack_build() - the pack of a recording
 * @session: the recording (it and its spool are left out of the pack)
 * @o: options
 *
 * Return: a new pack, or NULL with bp_set_error().
 */
struct bp_pack *bp_pack_build(struct bp_session *session, const struct bp_pack_build_opts *o);

/**
 * struct bp_verdict - what became of the pages of a preloaded recording, in pages
 * @hit: used by the workload, preloaded before it needed them, never
 *       waited for
 * @late: used by the workload after an I/O wait on them while the
 *        preloader's read was still in flight (see @late_waits)
 * @overtaken: in the pack, read from storage by the workload itself
 *             before the preloader inserted them
 * @miss: read from storage by the workload, in no range of the pack
 * @wasted: preloaded, never used (evicted or not)
 * @read_again: preloaded, evicted before any use, read again from
 *              storage by the workload
 * @late_waits: the workload's I/O waits on pages the preloader had
 *              inserted and was still reading
 * @late_ns: their time
 *
 * "The workload" is every process but the preloader. Each page read from
 * storage or preloaded has one verdict; docs/design.md gives the rules.
 */
struct bp_verdict {
	uint64_t hit, late, overtaken, miss, wasted, read_again;
	uint64_t late_waits, late_ns;
};

/* Pages the preloader read from storage: hit + late + wasted + read again. */
static inline uint64_t bp_verdict_preloaded(const struct bp_verdict *v)
{
	return v->hit + v->late + v->wasted + v->read_again;
}

/* The verdict's page counts, in the order every view shows them. */
enum bp_verdict_kind {
	BP_V_PRELOADED,  /* hit + late + wasted + read again */
	BP_V_HIT,
	BP_V_LATE,
	BP_V_OVERTAKEN,
	BP_V_MISS,
	BP_V_WASTED,
	BP_V_READ_AGAIN,
	BP_V_N
};

/* Their names: JSON "NAME_bytes" and "NAME_pages", CSV columns alike. */
extern const char *const bp_verdict_names[BP_V_N];
/* Their column heads in text. */
extern const char *const bp_verdict_heads[BP_V_N];

uint64_t bp_verdict_pages(const struct bp_verdict *v, enum bp_verdict_kind k);

/**
 * struct bp_preloaded_range - one range of the pack, as the preloader's markers name it
 * @first: its first page
 * @count: its pages
 * @v: the verdict on its pages (a page in two ranges counts in the first)
 */
struct bp_preloaded_range {
	uint64_t first, count;
	struct bp_verdict v;
};

/**
 * struct bp_preloaded_file - the verdict on one file's pages
 * @path: owned
 * @dev: its device
 * @ino: its inode
 * @v: the file's verdict
 * @ranges: its ranges of the pack, by first page (none: not in the pack)
 */
struct bp_preloaded_file {
	char *path;
	uint32_t dev;
	uint64_t ino;
	struct bp_verdict v;
	struct bp_preloaded_range *ranges;
	size_t nranges;
};

/* The preloader's reads over time: @pages first inserted by it at @ts, inside the pack. */
struct bp_preload_read {
	uint64_t ts, pages;
};

/* A late wait: its task, when it began, how long, on which file (borrowed path). */
struct bp_late_wait {
	int tid;
	uint64_t start_ns, ns;
	const char *path;
};

/**
 * struct bp_preloaded - the verdict on a recording with a preloader in it
 * @replay_pids: processes named BP_REPLAY_COMM seen
 * @access_missing: 1 when the recording has no page access events: hit,
 *                  late and wasted cannot be told (unavailable)
 * @markers_missing: 1 when no preloader marker names a range: the pack is
 *                   not known, overtaken pages count as misses
 * @page_size: bytes of a page
 * @files: files with a verdict, by bytes preloaded (descending), then
 *         missed (descending), then path
 * @total: the sums over @files (path NULL, no ranges)
 * @reads: the pages counted preloaded, by the time of their insertion
 *         (not sorted); for the chart's preloader lane
 * @late: the late waits, in the recording's order; their paths are the
 *        files' (@files) or "?"
 */
struct bp_preloaded {
	size_t replay_pids;
	int access_missing, markers_missing;
	unsigned page_size;
	struct bp_preloaded_file *files;
	size_t nfiles;
	struct bp_preloaded_file total;
	struct bp_preload_read *reads;
	size_t nreads;
	struct bp_late_wait *late;
	size_t nlate;
};

/* Whether the recording tells @k (no page access events: not hit, late, wasted). */
int bp_verdict_known(const struct bp_preloaded *p, enum bp_verdict_kind k);

struct bp_map;

/**
 * bp_preloader_processes() - the processes of a model named BP_REPLAY_COMM
 * @m: a model
 * @tids: if not NULL, each of their threads' tid is put in it (value 1)
 *
 * A process counts when its comm or one of its threads' is the
 * preloader's: it names itself with prctl(), so it may have started
 * under its parent's name.
 *
 * Return: how many processes.
 */
size_t bp_preloader_processes(const struct bp_model *m, struct bp_map *tids);

/**
 * bp_preloaded_build() - the verdict on a replayed recording's pages, per
 *                        range, per file and in total
 * @session: a recording of a replayed boot
 * @w: window, or NULL
 *
 * A pass of its own over the recording.
 *
 * Return: a new result (free with bp_preloaded_free()), or NULL with
 * bp_set_error().
 */
struct bp_preloaded *bp_preloaded_build(struct bp_session *session, const struct bp_window *w);
void bp_preloaded_free(struct bp_preloaded *p);

#endif
