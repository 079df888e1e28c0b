/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_INTERNAL_H
#define BP_ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "analysis/model.h"
#include "analysis/syscalls.h"
#include "util/map.h"

/*
 * Page state of every file, in chunks of 64 pages: one bit per page in
 * each mask. Keyed by (engine file id, page index / 64); the model keeps
 * it for bp_model_file_pages().
 */
struct bp_page_chunk {
	uint64_t read;     /* inserted in the window (at least once) */
	uint64_t used;     /* the last insertion was accessed */
	uint64_t pending;  /* inserted in the window, not accessed yet */
	/*
	 * The last insertion was mapped by fault-around (map_pages) and no
	 * access is known: exclusive with used; stays set after a deletion,
	 * for the page map.
	 */
	uint64_t mapped;
	uint64_t deleted;  /* deleted from the cache since its last insertion, which was a read */
	uint64_t written;  /* its last insertion was a buffered write: created, not read */
	uint64_t reread;   /* inserted again after a deletion, in the window */
};

struct bp_model_pages {
	struct bp_map map;            /* (file id, chunk) -> index in chunks */
	struct bp_page_chunk *chunks;
	size_t nchunks, cap;
	uint32_t *file_ids;           /* model file position -> file id */
	size_t nfile_ids;
};

struct bp_page_chunk *bp_pages_chunk(struct bp_model_pages *p, uint32_t file, uint64_t chunk,
				     int create);
void bp_pages_release(struct bp_model_pages *p);

/* qsort order of bp_model.execs: by count (descending), then path. */
int bp_cmp_exec_count(const void *pa, const void *pb);

struct tep_handle;
/**
 * bp_page_size_of() - the recorded kernel's memory page size, in bytes
 * @tep: the recording's event formats
 *
 * From the PAGE_SHIFT in the filemap events' print formats; 0 when no
 * filemap format says it (then the ring buffer's page is the best guess).
 */
unsigned bp_page_size_of(struct tep_handle *tep);

#endif
