// SPDX-License-Identifier: GPL-2.0
/*
 * The recorded kernel's memory page size, from its own event formats.
 *
 * The filemap events count pages (index, order) and print byte offsets as
 * "REC->index << 12": the shift is the kernel's PAGE_SHIFT, compiled into
 * the format. That is the page the page cache holds (16 KiB on Android's
 * arm64 kernels, 4 KiB on x86), whatever machine reads the recording. The
 * trace.dat header's page size is the ring buffer's sub-buffer, which only
 * by default equals it (buffer_subbuf_size_kb, Linux 6.7+, changes it).
 */
#include <string.h>

#include <event-parse.h>

#include "analysis/internal.h"

/* The N of "index << N" (or start_index) in ARG's tree, or -1. */
static int index_shift(const struct tep_print_arg *arg, int depth)
{
	const struct tep_print_arg *l, *r;
	int n;

	if (!arg || depth > 16)
		return -1;
	switch (arg->type) {
	case TEP_PRINT_TYPE:
		return index_shift(arg->typecast.item, depth + 1);
	case TEP_PRINT_OP:
		l = arg->op.left;
		r = arg->op.right;
		while (l && l->type == TEP_PRINT_TYPE)
			l = l->typecast.item;
		if (arg->op.op && !strcmp(arg->op.op, "<<") && l && l->type == TEP_PRINT_FIELD &&
		    l->field.name &&
		    (!strcmp(l->field.name, "index") || !strcmp(l->field.name, "start_index")) && r &&
		    r->type == TEP_PRINT_ATOM && r->atom.atom) {
			n = 0;
			for (const char *p = r->atom.atom; *p >= '0' && *p <= '9' && n < 64; p++)
				n = n * 10 + (*p - '0');
			return n >= 10 && n <= 20 ? n : -1;
		}
		n = index_shift(arg->op.left, depth + 1);
		return n >= 0 ? n : index_shift(arg->op.right, depth + 1);
	default:
		return -1;
	}
}

unsigned bp_page_size_of(struct tep_handle *tep)
{
	static const char *const events[] = { "mm_filemap_add_to_page_cache",
					      "mm_filemap_delete_from_page_cache",
					      "mm_filemap_fault", "mm_filemap_map_pages", NULL };
	const struct tep_print_arg *arg;
	struct tep_event *e;
	size_t i;
	int n;

	for (i = 0; tep && events[i]; i++) {
		e = tep_find_event_by_name(tep, "filemap", events[i]);
		for (arg = e ? e->print_fmt.args : NULL; arg; arg = arg->next) {
			n = index_shift(arg, 0);
			if (n >= 0)
				return 1u << n;
		}
	}
	return 0;
}
