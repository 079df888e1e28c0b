// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: open a recording and read every event, printing each as
 * `bootprof dump` does (libtraceevent formats the fields the file describes).
 * A file that does not open must say why in one piece.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "fuzz.h"
#include "tracefile/tracefile.h"
#include "util/error.h"

int bp_fuzz_reader(const uint8_t *data, size_t size)
{
	struct bp_reader *r;
	struct trace_seq seq;
	struct bp_event ev;
	uint64_t missed, missed_pages;
	char path[64];
	int fd;

	fd = bp_fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	r = bp_reader_open(path);
	if (!r) {
		/* One reason, whole: never the file named twice, never empty. */
		const char *e = bp_last_error(), *c = strstr(e, "is corrupt");

		if (!*e || (c && strstr(c + 1, "is corrupt")))
			abort();
		goto out;
	}
	/* dump's header: the page-header losses counted before the events. */
	if (bp_reader_page_losses(r, &missed, &missed_pages) < 0)
		goto out_free;
	trace_seq_init(&seq);
	while (bp_reader_next(r, &ev) == 1) {
		struct tep_record rec = {
			.ts = ev.ts, .cpu = ev.cpu, .size = ev.size, .data = (void *)ev.data,
		};
		int pid = tep_data_pid(bp_reader_tep(r), &rec);

		trace_seq_reset(&seq);
		if (ev.format)
			tep_print_event(bp_reader_tep(r), &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_printf(&seq, "%s", tep_data_comm_from_pid(bp_reader_tep(r), pid));
	}
	trace_seq_destroy(&seq);
	bp_reader_warnings(r);
out_free:
	bp_reader_free(r);
out:
	close(fd);
	return 0;
}

BP_FUZZ_TARGET(bp_fuzz_reader)
