/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TRACEFILE_INTERNAL_H
#define BP_TRACEFILE_INTERNAL_H

#include <stdint.h>

#include "tracefile/tracefile.h"

/* Shared by the writer and the reader; not for other layers. */

/* trace-cmd's option ids (lib/trace-cmd/include/private/trace-cmd-private.h). */
enum {
	BP_OPT_DONE = 0,
	BP_OPT_DATE = 1,
	BP_OPT_CPUSTAT = 2,
	BP_OPT_BUFFER = 3,
	BP_OPT_TRACECLOCK = 4,
	BP_OPT_UNAME = 5,
	BP_OPT_HOOK = 6,
	BP_OPT_OFFSET = 7,
	BP_OPT_CPUCOUNT = 8,
	BP_OPT_VERSION = 9,
	BP_OPT_PROCMAPS = 10,
	BP_OPT_TRACEID = 11,
	BP_OPT_TIME_SHIFT = 12,
	BP_OPT_GUEST = 13,
	BP_OPT_TSC2NSEC = 14,
	BP_OPT_STRINGS = 15,
	BP_OPT_HEADER_INFO = 16,
	BP_OPT_FTRACE_EVENTS = 17,
	BP_OPT_EVENT_FORMATS = 18,
	BP_OPT_KALLSYMS = 19,
	BP_OPT_PRINTK = 20,
	BP_OPT_CMDLINES = 21,
	BP_OPT_BUFFER_TEXT = 22,
	BP_OPT_BTF_FILE = 23,
	BP_OPT_LAST_BOOT_INFO = 24,
	BP_OPT_MODULES_FILE = 25,
};

/* Marks bootprof's metadata blob in the gap before the CPU data (see writer.c). */
#define BP_META_MAGIC "bootprof-meta"

/* Sanity bounds for values read from a file. */
#define BP_MAX_CPUS 8192
#define BP_MIN_PAGE 512
#define BP_MAX_PAGE (1 << 24)

/*
 * The writer's spool, for bp_writer_reader() (spool.c): the CPU count, page
 * size and each CPU's descriptor (borrowed). 0, or -1 once finished.
 */
int bp_writer_spool(struct bp_writer *w, int *ncpus, int *page_size, const int **fds);

/*
 * For rewriting a recording (tests, fixtures): copies of the header texts
 * (caller releases with bp_trace_headers_release) and each CPU's raw pages
 * as stored in the file (borrowed, valid until bp_reader_free).
 */
int bp_reader_headers(struct bp_reader *r, struct bp_trace_headers *h);
int bp_reader_ncpus(struct bp_reader *r);
int bp_reader_page_size(struct bp_reader *r);
const void *bp_reader_cpu_pages(struct bp_reader *r, int cpu, uint64_t *size);

#endif
