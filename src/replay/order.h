/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_REPLAY_ORDER_H
#define BP_REPLAY_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/critical.h"
#include "replay/pack.h"
#include "replay/scan.h"

/*
 * A pack in critical order (readahead --order critical): the pages the
 * critical path waited on, in the order it waited for them, go first.
 */

/**
 * struct bp_path_pages - pages one I/O segment of the path waited on
 * @dev, @ino: their file (kernel encoding)
 * @first, @last: page indices; @last UINT64_MAX when the recording does
 *                not say which pages (every page of the file counts)
 */
struct bp_path_pages {
	uint32_t dev;
	uint64_t ino;
	uint64_t first, last;
};

/**
 * bp_path_pages() - the pages of a path's I/O segments, in path order
 * @p: the path
 * @scan: the same pass's scan, with its waits (want_waits): a segment
 *        takes the pages of the task's I/O wait it lies in (its fault's
 *        page, or what its read or exec got after it), and their file;
 *        a segment no wait matches takes its own file, every page
 * @out: set to a new array (free())
 *
 * Segments with no file are left out.
 *
 * Return: entries in @out.
 */
size_t bp_path_pages(const struct bp_critical_path *p, const struct bp_replay_scan *scan,
		     struct bp_path_pages **out);

/**
 * bp_ranges_take() - move the pages [@first, @last] out of ranges
 * @from: ranges by start, not overlapping; what stays of them stays
 * @nfrom: its entries, updated
 * @to, @nto, @cto: a growing array the moved pages are appended to
 *
 * Return: pages moved.
 */
uint64_t bp_ranges_take(struct bp_pack_range **from, size_t *nfrom, uint64_t first,
			uint64_t last, struct bp_pack_range **to, size_t *nto, size_t *cto);

/* bp_ranges_normalize() - sort ranges by start and join those that touch. */
void bp_ranges_normalize(struct bp_pack_range *r, size_t *n);

#endif
