// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof chart [FILE] -o boot.svg: the bootchart of a recording, one
 * self-contained SVG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/critical.h"
#include "analysis/focus.h"
#include "analysis/model.h"
#include "analysis/session.h"
#include "builtin.h"
#include "replay/build.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/xalloc.h"
#include "views/svg.h"
#include "views/timeline.h"

static const char *const chart_synopsis[] = {
	"bootprof chart [options] [FILE] [-o OUT.svg]",
	NULL,
};

static const struct bp_usage chart_usage = {
	"chart",
	chart_synopsis,
	"Draw the bootchart of a recording as one self-contained SVG: CPU and disk,\n"
	"one lane per process (running, I/O wait, other uninterruptible sleep,\n"
	"sleeping), services, initcalls and the boot's phases, with the critical\n"
	"path outlined across the lanes.\n"
	BP_DEFAULT_RECORDING_TEXT,
	NULL,
	"@recording",
};

/* FILE.svg beside the recording: its name with .svg for .dat (or added). */
static char *svg_beside(const char *file)
{
	size_t len = strlen(file);

	if (len > 4 && !strcmp(file + len - 4, ".dat"))
		return xasprintf("%.*s.svg", (int)(len - 4), file);
	return xasprintf("%s.svg", file);
}

int cmd_chart(int argc, char **argv)
{
	struct bp_window_arg range = { 0 };
	struct bp_chart_opts o = { 0 };
	struct bp_timeline t = { 0 };
	struct bp_chart *chart = NULL;
	struct bp_model *m = NULL;
	struct bp_critical_path *path = NULL;
	struct bp_preloaded *pre = NULL;
	const char *output = NULL;
	char *default_output = NULL;
	int force = 0, no_critical = 0, status, rc = BP_EXIT_FAILURE;
	FILE *out;
	const struct bp_option options[] = {
		OPT_STRING_C('o', "output", &output, "FILE",
			     "the SVG ('-' for stdout); default: the recording's name with .svg,\n"
			     "beside it", "@file"),
		OPT_SINCE(&range),
		OPT_UNTIL(&range),
		OPT_TIME(0, "min-wait", &o.min_wait_ns, "T",
			 "fold processes with less I/O wait into one \"others\" lane"),
		OPT_SIZE(0, "min-bytes", &o.min_bytes, "SIZE",
			 "fold processes that read less (4096, 64k, 1M) likewise"),
		OPT_FOCUS_ALL(&o.all),
		OPT_FLAG(0, "all-lanes", &o.all_lanes,
			 "a lane for every process: idle kernel threads and short-lived\n"
			 "children are not folded"),
		OPT_FLAG(0, "no-critical", &no_critical,
			 "do not outline the critical path (bootprof critical) across the lanes"),
		OPT_FLAG(0, "force", &force, "overwrite OUT"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &chart_usage, 0, &status);
	if (argc < 0)
		return status;
	if (argc > 1)
		return bp_usage_error("chart", "too many arguments");
	if (bp_window_arg_check(&range))
		return bp_usage_error("chart", "%s", bp_last_error());
	o.file = argc ? argv[0] : bp_default_recording();
	if (!o.file)
		return bp_error_last();
	if (!output)
		output = default_output = svg_beside(o.file);

	if (bp_timeline_open(&t, o.file, &range) || bp_timeline_resolve(&t)) {
		bp_error("cannot chart '%s': %s", o.file, bp_last_error());
		goto out;
	}
	bp_timeline_plugins(&t);
	o.origin_ns = t.origin_ns;
	o.marks = &t.marks;
	if (!no_critical)
		t.critical = bp_critical_log_new();
	chart = bp_chart_new(&t.window, t.ncpus, &o);
	m = bp_timeline_pass(&t, bp_chart_bucket_ns(&t.window), bp_chart_span, chart);
	if (!m) {
		bp_error("cannot chart '%s': %s", o.file, bp_last_error());
		goto out;
	}
	bp_warnings_print(&t.session->warnings);
	/* Drawn when it can be walked; `bootprof critical` says why when it cannot. */
	path = t.critical ? bp_timeline_critical(&t, m) : NULL;
	bp_chart_set_critical(chart, path);
	/* A preloader in the recording: its lane, from a pass of its own (readahead --preloaded's). */
	if (bp_preloader_processes(m, NULL)) {
		pre = bp_preloaded_build(t.session, &t.window);
		if (!pre) {
			bp_error("cannot chart '%s': %s", o.file, bp_last_error());
			goto out;
		}
		bp_chart_set_preloaded(chart, pre);
	}
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
	if (default_output)
		fprintf(stderr, "bootprof: wrote '%s'\n", default_output);
	rc = 0;
out:
	free(default_output);
	bp_chart_free(chart);
	bp_preloaded_free(pre);
	bp_critical_path_free(path);
	bp_critical_log_free(t.critical);
	bp_model_free(m);
	bp_timeline_release(&t);
	return rc;
}
