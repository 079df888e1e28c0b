/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_REPLAY_SCAN_H
#define BP_REPLAY_SCAN_H

#include <stdint.h>

#include "analysis/model.h"
#include "util/map.h"

/*
 * What the pack needs beyond the model, taken from the same one pass
 * (bp_build_hooks.event, beside the model's in bp_session_build()): when
 * each file was first used, and who inserted each page last (to tell a
 * preloader's reads from the boot's own).
 */
/*
 * An I/O wait and the pages it was for: a fault names its page at entry
 * (mm_filemap_fault, before the wait), a read the pages it got after it
 * (mm_filemap_get_pages). With them, the pages of that file the task
 * inserted into the page cache since its last I/O wait ended, up to this
 * one's end: the readahead the wait's requests carried (the task reads
 * on without waiting for the rest of them).
 */
struct bp_replay_wait {
	int tid;
	uint32_t dev;
	uint64_t ino;
	uint64_t first, last;         /* page indices */
	uint64_t start_ns, ns;
	int inserted;                 /* ins_first, ins_last are known */
	uint64_t ins_first, ins_last; /* page indices */
};

/*
 * One event of a page range's history (want_history), in the order of
 * the pass: what the verdict on each preloaded or read page is made of.
 */
enum bp_pev_kind {
	BP_PEV_INSERT,    /* mm_filemap_add_to_page_cache: a page put in the cache */
	BP_PEV_DELETE,    /* mm_filemap_delete_from_page_cache: evicted */
	BP_PEV_ACCESS,    /* mm_filemap_get_pages or mm_filemap_fault: a use */
	BP_PEV_MAP,       /* mm_filemap_map_pages: mapped by fault-around */
	BP_PEV_REQUEST,   /* the preloader's marker: about to ask for the range */
	BP_PEV_RESIDENT,  /* the preloader's marker: the range is resident */
	BP_PEV_READ,      /* a read syscall's end: @bytes returned, its get_pages span */
};

struct bp_replay_pev {
	uint64_t ts;
	uint64_t ino;
	uint64_t first, n;            /* pages [first, first + n) */
	uint64_t bytes;               /* BP_PEV_READ: what the syscall returned */
	uint32_t dev;
	int tid;
	int kind;                     /* enum bp_pev_kind */
};

struct bp_replay_scan {
	uint64_t since_ns, until_ns;  /* first uses are looked for inside these */
	int want_inserts;             /* fill @inserts (costs a slot per page) */
	int want_waits;               /* fill @insert_ts and @waits */
	int want_history;             /* fill @hist (needs want_waits) */
	int arch;                     /* enum bp_arch: syscall numbers */
	struct bp_map first_use;      /* (dev, ino) -> first access ts + 1 */
	struct bp_map inserts;        /* (ino, dev << 32 | index) -> inserting tid */
	struct bp_map insert_ts;      /* the same key -> the insertion's ts */
	struct bp_replay_wait *waits; /* I/O waits on a file, with their pages */
	size_t nwaits, cwaits;
	struct bp_replay_pev *hist;   /* page events and the preloader's markers */
	size_t nhist, chist;
	/* private: per tid, its last fault and its wait not yet given pages */
	struct bp_map tasks;
	struct scan_task *t;
	size_t nt, ct;
	/* private: per event id, how to read it */
	struct bp_map kinds;
	struct scan_kind *k;
	size_t nk, ck;
};

/* Zero it and set the window; release with bp_replay_scan_release(). */
void bp_replay_scan_init(struct bp_replay_scan *s, uint64_t since_ns, uint64_t until_ns);
void bp_replay_scan_release(struct bp_replay_scan *s);
/* The bp_build_hooks.event callback; arg is the struct bp_replay_scan. */
void bp_replay_scan_event(void *arg, const struct bp_event *ev);
/*
 * The bp_build_hooks.span callback (with want_waits): an I/O wait on a
 * file gets its pages from the task's fault before it or read after it.
 */
void bp_replay_scan_span(void *arg, const struct bp_span *span);
/* The key pair for bp_replay_scan.inserts. */
static inline void bp_replay_page_key(uint32_t dev, uint64_t ino, uint64_t index, uint64_t *k1,
				      uint64_t *k2)
{
	*k1 = ino;
	*k2 = (uint64_t)dev << 32 | (index & 0xffffffffu);
}

#endif
