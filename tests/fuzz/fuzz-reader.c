// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: open a recording and read every event, printing each as
 * `bootprof dump` does (libtraceevent formats the fields the file describes).
 */
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "fuzz.h"
#include "tracefile/tracefile.h"

int bp_fuzz_reader(const uint8_t *data, size_t size)
{
	struct bp_reader *r;
	struct trace_seq seq;
	struct bp_event ev;
	char path[64];
	int fd;

	fd = bp_fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	r = bp_reader_open(path);
	if (!r)
		goto out;
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
	bp_reader_free(r);
out:
	close(fd);
	return 0;
}

BP_FUZZ_TARGET(bp_fuzz_reader)
