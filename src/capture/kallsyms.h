/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_KALLSYMS_H
#define BP_CAPTURE_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The lines of a kallsyms text (/proc/kallsyms) a recording keeps to name
 * the kernel addresses addrs[] (initcall functions): for each address, the
 * lines of the symbol at or below it and of the next symbol, which bounds
 * it (kallsyms has no sizes), so a reader names an address "sym+0xOFF"
 * only below that bound. Only the kernel image's own symbols are kept:
 * a module's symbols ("... [ext4]") are those of the moment the table is
 * read, not of the moment of the event (a module's init section is freed
 * after its init and its addresses reused), and an address with no symbol
 * above it (past the image: a module's) keeps nothing. Lines with address
 * 0 (kptr_restrict) are ignored.
 *
 * Returns the kept lines in address order, each ending in '\n', as a heap
 * string (*out_len its length; the caller frees), or NULL when none.
 */
char *bp_kallsyms_keep(const char *text, size_t len, const uint64_t *addrs, size_t naddrs,
		       size_t *out_len);

/*
 * The whole of /proc/kallsyms as a heap string (the caller frees; *len
 * its length), or NULL with bp_set_error() when it cannot be read.
 */
char *bp_kallsyms_read(size_t *len);

#endif
