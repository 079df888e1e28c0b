// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof export --format chrome [FILE] -o OUT.json: a recording as a
 * trace other tools open (Perfetto UI, chrome://tracing, speedscope).
 */
#include <stdio.h>
#include <unistd.h>

#include "analysis/critical.h"
#include "analysis/focus.h"
#include "analysis/model.h"
#include "analysis/session.h"
#include "builtin.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "views/chrome.h"
#include "views/timeline.h"

static const char *const export_synopsis[] = {
	"bootprof export --format chrome [options] [FILE] -o OUT.json",
	NULL,
};

static const struct bp_usage export_usage = {
	"export",
	export_synopsis,
	"Write a recording in another tool's format.\n"
	BP_DEFAULT_RECORDING_TEXT,
	NULL,
	"@recording",
};

int cmd_export(int argc, char **argv)
{
	struct bp_window_arg range = { 0 };
	struct bp_chrome_opts o = { 0 };
	struct bp_timeline t = { 0 };
	struct bp_model *m1 = NULL, *m2 = NULL;
	struct bp_critical_path *path = NULL;
	struct bp_chrome *x;
	const char *output = NULL, *format = NULL;
	int force = 0, no_critical = 0, failed, status, rc = BP_EXIT_FAILURE;
	FILE *out = NULL;
	const struct bp_option options[] = {
		OPT_FORMAT(&format, "chrome",
			   "chrome: the Trace Event Format (JSON) that Perfetto UI,\n"
			   "chrome://tracing and speedscope open; required"),
		OPT_STRING_C('o', "output", &output, "FILE", "where to write ('-' for stdout); required",
			     "@file"),
		OPT_SINCE(&range),
		OPT_UNTIL(&range),
		OPT_FOCUS_ALL(&o.all),
		OPT_FLAG(0, "no-critical", &no_critical,
			 "no flow events along the critical path (bootprof critical)"),
		OPT_FLAG(0, "force", &force, "overwrite OUT"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &export_usage, 0, &status);
	if (argc < 0)
		return status;
	if (argc > 1)
		return bp_usage_error("export", "too many arguments");
	if (!format)
		return bp_usage_error("export", "no format: give --format chrome");
	if (!output)
		return bp_usage_error("export", "no output: give -o OUT.json (or -o - for stdout)");
	if (bp_window_arg_check(&range))
		return bp_usage_error("export", "%s", bp_last_error());
	o.file = argc ? argv[0] : bp_default_recording();
	if (!o.file)
		return bp_error_last();

	if (bp_timeline_open(&t, o.file, &range)) {
		bp_error("cannot export '%s': %s", o.file, bp_last_error());
		goto out;
	}
	bp_timeline_plugins(&t);
	/*
	 * Pass 1: processes and threads (named first), phases, the critical
	 * path's log; pass 2 streams the spans.
	 */
	if (!no_critical)
		t.critical = bp_critical_log_new();
	m1 = bp_timeline_pass(&t, 0, NULL, NULL);
	if (!m1) {
		bp_error("cannot export '%s': %s", o.file, bp_last_error());
		goto out;
	}
	bp_warnings_print(&t.session->warnings);
	/* Its flows when it can be walked; `bootprof critical` says why when it cannot. */
	path = t.critical ? bp_timeline_critical(&t, m1) : NULL;
	o.critical = path;
	bp_critical_log_free(t.critical);
	t.critical = NULL;
	out = bp_output_open(output, force);
	if (!out) {
		bp_error_last();
		goto out;
	}
	o.origin_ns = t.origin_ns;
	o.marks = &t.marks;
	x = bp_chrome_begin(out, m1, &o);
	/* Counters every millisecond at least, and no more than 100 000 buckets. */
	m2 = bp_timeline_pass(&t, (t.window.until_ns - t.window.since_ns) / 100000 + 1000000,
			      bp_chrome_span, x);
	if (!m2)
		bp_error("cannot read '%s': %s", o.file, bp_last_error());
	failed = bp_chrome_end(x, m2) || !m2;
	if (bp_output_close(out, output, failed)) {
		if (m2)
			bp_error_last();
		goto out;
	}
	rc = 0;
out:
	bp_critical_path_free(path);
	bp_critical_log_free(t.critical);
	bp_model_free(m2);
	bp_model_free(m1);
	bp_timeline_release(&t);
	return rc;
}
