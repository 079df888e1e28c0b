/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_REPLAY_MEASURE_H
#define BP_REPLAY_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/critical.h"
#include "replay/pack.h"

/**
 * struct bp_pack_measured - a critical-order pack's prediction, measured
 * @left_ns: per entry of pack->crit.files: the path's I/O time on that
 *           file in the recording of a replay
 * @left_segments: its I/O segments there
 * @len_ns: that path's length
 * @io_ns: its I/O time, on any file or none
 * @replay_pids: preloader processes in the recording
 *
 * What the replay saved on a file, measured: its what-if (the path's I/O
 * on it in the recording the pack was made from) minus @left_ns.
 */
struct bp_pack_measured {
	uint64_t *left_ns;
	uint64_t *left_segments;
	uint64_t len_ns;
	uint64_t io_ns;
	size_t replay_pids;
};

struct bp_session;

/**
 * bp_pack_measure() - the path's I/O left on a pack's files after a replay
 * @session: a recording made with a replay of the pack in it (a
 *           process named BP_REPLAY_COMM)
 * @p: a pack in critical order
 * @to: the end point to walk back from (the pack's own, as a rule)
 *
 * Return: a new result (free with bp_pack_measured_free()), or NULL with
 * bp_set_error(): no replay in the recording, or the end point not in it.
 */
struct bp_pack_measured *bp_pack_measure(struct bp_session *session, const struct bp_pack *p,
					 const struct bp_crit_end *to);
void bp_pack_measured_free(struct bp_pack_measured *r);

#endif
