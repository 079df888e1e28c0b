// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: build the model of a recording and render it as `bootprof
 * report` does, text and JSON, into /dev/null; then redacted.
 */
#include <stdio.h>
#include <unistd.h>

#include "analysis/model.h"
#include "analysis/redact.h"
#include "fuzz.h"
#include "tracefile/tracefile.h"
#include "views/report.h"

int bp_fuzz_model(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct bp_report_opts o = { .file = "fuzz.dat" };
	struct bp_reader *r;
	struct bp_model *m;
	char path[64];
	int fd;

	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		return 0;
	fd = bp_fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	r = bp_reader_open(path);
	if (!r)
		goto out;
	m = bp_model_build(r, NULL, NULL);
	if (m) {
		o.top = 10;
		bp_view_text(null, m, &o);
		o.top = 0;
		bp_view_json(null, m, &o);
		/* report --redact: the same views over the renamed model */
		bp_model_redact(m);
		bp_view_text(null, m, &o);
		bp_model_free(m);
	}
	bp_reader_free(r);
out:
	close(fd);
	return 0;
}

BP_FUZZ_TARGET(bp_fuzz_model)
