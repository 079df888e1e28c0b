// SPDX-License-Identifier: GPL-2.0
/*
 * The plain-text report, for bug trackers and terminals: --width columns
 * (100 unless told), laid out by the document's text writer (doc/text.c).
 */
#include <stdio.h>

#include "doc/doc.h"
#include "views/report.h"

#define DEFAULT_WIDTH 100
#define MIN_WIDTH 40

/* The words of the report a reader may not know, one line each. */
static const char *const legend[] = {
	"attributed: share of the bytes read at the block layer that file and metadata reads explain",
	"events: N of M: events inside the window (--since/--until) of all in the recording",
	"I/O wait: uninterruptible sleep with evidence of I/O (a file syscall, a page fault, block I/O)",
	"other uninterruptible sleep: D state without such evidence, never counted as I/O wait",
	"by cause: the syscall or page fault a task was in when it waited",
	"exe: -: no exec seen during the recording (the process started before it)",
	"[unresolved MAJ:MIN:INO]: a file whose path the recording does not hold (device, inode)",
	"[metadata MAJ:MIN]: filesystem metadata read through the block device",
	"used / never used: pages some access touched, or did not, before the recording ended",
	"mapped by fault-around: pages mmap'd around a fault, not known to be used or not",
	"re-read: pages read again after they were dropped from the page cache",
	"... N more (use --top 0): rows of a list left out; --top 0 shows all",
	NULL,
};

int bp_view_text(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	size_t width = o->width ? o->width : DEFAULT_WIDTH;
	const char *const *l;
	struct bp_doc d;
	int first = 1;

	if (width < MIN_WIDTH)
		width = MIN_WIDTH;
	bp_doc_build(&d, m, o);
	bp_doc_text(out, &d, width, &first);
	bp_doc_text(out, o->plugins, width, &first);
	fputs("\n== Legend\n", out);
	/* Indented: a legend line is not the report's line of the same name. */
	for (l = legend; *l; l++)
		bp_text_wrapped(out, *l, width, 2);
	fputs("see bootprof-report(1)\n", out);
	bp_doc_release(&d);
	return 0;
}
