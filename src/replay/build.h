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
 * struct bp_preloaded_file - what a preloader read of one file, and what became of it
 * @path: owned
 * @preloaded: bytes of pages a preloader inserted (read from storage)
 * @used: of those, bytes an access covered later
 * @never_used: of those, bytes no access covered
 * @mapped: of those, bytes fault-around mapped, not known to be used
 * @reread: of those, bytes evicted and read again
 * @other_read: bytes of the file the other processes still read from storage
 * @late_waits: I/O waits of other processes on pages of the file a
 *              preloader had inserted and was still reading (late)
 * @late_ns: their time
 */
struct bp_preloaded_file {
	char *path;
	uint64_t preloaded, used, never_used, mapped, reread, other_read;
	uint64_t late_waits, late_ns;
};

/**
 * struct bp_preloaded - the preloader's share of a recording
 * @replay_pids: processes named BP_REPLAY_COMM seen
 * @access_missing: 1 when the recording cannot tell used from never used
 * @files: files a preloader read, by bytes preloaded (descending), then path
 * @total: the sums over @files (path NULL)
 */
struct bp_preloaded {
	size_t replay_pids;
	int access_missing;
	struct bp_preloaded_file *files;
	size_t nfiles;
	struct bp_preloaded_file total;
};

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
 * bp_preloaded_build() - split a replayed boot's reads into preloaded-then-used
 *                        and preloaded-never-used, per file
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
