// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof chart [FILE] -o boot.svg: the bootchart of a recording, one
 * self-contained SVG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/focus.h"
#include "analysis/model.h"
#include "analysis/session.h"
#include "builtin.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "views/svg.h"
#include "views/timeline.h"

static const char *const chart_synopsis[] = {
	"bootprof chart [options] [FILE] -o OUT.svg",
	NULL,
};

static const struct bp_usage chart_usage = {
	"chart",
	chart_synopsis,
	"Draw the bootchart of a recording as one self-contained SVG: CPU and disk,\n"
	"one lane per process (running, I/O wait, other uninterruptible sleep,\n"
	"sleeping), services, initcalls and the boot's phases.\n"
	BP_DEFAULT_RECORDING_TEXT,
	NULL,
	"@recording",
};

int cmd_chart(int argc, char **argv)
{
	struct bp_window_arg range = { 0 };
	struct bp_chart_opts o = { 0 };
	struct bp_timeline t = { 0 };
	struct bp_chart *chart = NULL;
	struct bp_model *m = NULL;
	const char *output = NULL;
	int force = 0, status, rc = BP_EXIT_FAILURE;
	FILE *out;
	const struct bp_option options[] = {
		OPT_STRING_C('o', "output", &output, "FILE", "the SVG ('-' for stdout); required",
			     "@file"),
		OPT_SINCE(&range),
		OPT_UNTIL(&range),
		OPT_TIME(0, "min-wait", &o.min_wait_ns, "T",
			 "fold processes with less I/O wait into one \"others\" lane"),
		OPT_SIZE(0, "min-bytes", &o.min_bytes, "SIZE",
			 "fold processes that read less (4096, 64k, 1M) likewise"),
		OPT_FOCUS_ALL(&o.all),
		OPT_FLAG(0, "force", &force, "overwrite OUT"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &chart_usage, 0, &status);
	if (argc < 0)
		return status;
	if (argc > 1)
		return bp_usage_error("chart", "too many arguments");
	if (!output)
		return bp_usage_error("chart", "no output: give -o OUT.svg (or -o - for stdout)");
	if (bp_window_arg_check(&range))
		return bp_usage_error("chart", "%s", bp_last_error());
	o.file = argc ? argv[0] : bp_default_recording();
	if (!o.file)
		return bp_error_last();

	if (bp_timeline_open(&t, o.file, &range) || bp_timeline_resolve(&t)) {
		bp_error("cannot chart '%s': %s", o.file, bp_last_error());
		goto out;
	}
	bp_timeline_plugins(&t);
	o.origin_ns = t.origin_ns;
	o.marks = &t.marks;
	chart = bp_chart_new(&t.window, t.ncpus, &o);
	m = bp_timeline_pass(&t, bp_chart_bucket_ns(&t.window), bp_chart_span, chart);
	if (!m) {
		bp_error("cannot chart '%s': %s", o.file, bp_last_error());
		goto out;
	}
	bp_warnings_print(&t.session->warnings);
	bp_chart_attach(chart, m);
	out = bp_output_open(output, force);
	if (!out) {
		bp_error_last();
		goto out;
	}
	if (bp_output_close(out, output, bp_chart_write(chart, out) != 0)) {
		bp_error_last();
		goto out;
	}
	rc = 0;
out:
	bp_chart_free(chart);
	bp_model_free(m);
	bp_timeline_release(&t);
	return rc;
}
