/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TRACEFILE_GUARD_H
#define BP_TRACEFILE_GUARD_H

#include <stddef.h>
#include <stdint.h>

/*
 * Reads of a mapped recording that survive the file being cut meanwhile.
 * A mapping's pages past the file's new end raise SIGBUS when touched; the
 * reader touches its mappings only inside these calls, and a SIGBUS whose
 * address lies in the range given makes the call return -1 instead of
 * killing the process. A SIGBUS anywhere else goes to the handler that was
 * there before (the default: the process dies as it would have).
 */

/* Copy n mapped bytes at src to dst. 0, or -1 when src faulted (partly copied). */
int bp_guard_copy(void *dst, const void *src, size_t n);

/*
 * Run fn(arg) and store its result in *ret. 0, or -1 when a read of
 * [lo, lo + len) faulted: then fn was cut short (what it allocated is
 * only freed if it hung it on arg first).
 */
int bp_guard_run(const void *lo, uint64_t len, int (*fn)(void *arg), void *arg, int *ret);

#endif
