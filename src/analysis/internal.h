/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_INTERNAL_H
#define BP_ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "analysis/model.h"
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
	uint64_t deleted;  /* deleted from the cache since its last insertion */
	uint64_t reread;   /* inserted again after a deletion, in the window */
};

struct bp_model_pages {
	struct bp_map map;            /* (file id, chunk) -> index in chunks */
	struct bp_page_chunk *chunks;
	size_t nchunks, cap;
	uint32_t *file_ids;           /* model file position -> file id */
	size_t nfile_ids;
};

/* Syscall classes, per architecture (x86_64 and aarch64 numbers). */
enum bp_sys_class {
	BP_SYS_NONE = -1,
	BP_SYS_CLONE = BP_NCAUSES, /* clone(): flags in args[0] */
	BP_SYS_CLONE3,             /* clone3(): flags behind a pointer */
	BP_SYS_FORK,               /* fork, vfork */
};

enum bp_arch { BP_ARCH_X86_64, BP_ARCH_AARCH64 };

enum bp_arch bp_arch_of(const char *machine);
/* enum bp_cause for I/O syscalls, a bp_sys_class for clone/fork, else BP_CAUSE_OTHER. */
int bp_syscall_class(enum bp_arch arch, long nr);
/* The same, by name ("read", "openat" ...: a syscalls:sys_enter_NAME event). */
int bp_syscall_class_name(const char *name);

struct bp_page_chunk *bp_pages_chunk(struct bp_model_pages *p, uint32_t file, uint64_t chunk,
				     int create);
void bp_pages_release(struct bp_model_pages *p);

#endif
