// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof critical [FILE] [--to SPEC]: what delayed an end point, as the
 * chain of segments walked back from it through wakeups
 * (analysis/critical.h), in text or JSON.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/critical.h"
#include "builtin.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "views/critical.h"

#define TEXT_TOP 10

static const char *const critical_synopsis[] = {
	"bootprof critical [--to pid:N|exec:PROG|file:PATH|service:UNIT] [--format FMT] [FILE]",
	NULL,
};

static const struct bp_usage critical_usage = {
	"critical",
	critical_synopsis,
	"Walk back from an end point through wakeups: the chain of segments (CPU,\n"
	"run-queue, I/O on a file, interrupts, other sleeps) that delayed it,\n"
	"with totals by category and the files whose I/O is on the path.\n"
	"The end point is, by default, the command's exit for a `record -- CMD`\n"
	"recording, the exec that stopped the recording, the boot's end a plugin\n"
	"tells (Android's boot completed, systemd's last job), else the last\n"
	"moment PID 1 (or any task) ran; a recording stopped by its duration or\n"
	"a signal needs --to.\n"
	BP_DEFAULT_RECORDING_TEXT,
	NULL,
	"@recording",
};

int cmd_critical(int argc, char **argv)
{
	struct bp_crit_end end = { .kind = BP_CRIT_END_DEFAULT };
	struct bp_critical_opts o = { NULL, TEXT_TOP, 0 };
	struct bp_critical_path *path;
	const char *format = "text";
	int rc;
	const struct bp_option options[] = {
		OPT_CRIT_TO(&end),
		OPT_STRING_C('f', "format", &format, "FMT", "text (default), markdown or json",
			     "text markdown json"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &critical_usage, 0, &rc);
	if (argc < 0)
		return rc;
	if (argc > 1)
		return bp_usage_error("critical", "one recording at a time");
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json"))
		return bp_usage_error("critical", "unknown format '%s'", format);
	o.file = argc > 0 ? argv[0] : bp_default_recording();
	if (!o.file)
		return bp_error_last();
	path = bp_critical_load(o.file, &end, 1);
	if (!path)
		return bp_error_last();
	if (!strcmp(format, "json")) {
		o.top = 0;
		bp_view_critical_json(stdout, path, &o);
	} else if (!strcmp(format, "markdown")) {
		bp_view_critical_markdown(stdout, path, &o);
	} else {
		bp_view_critical_text(stdout, path, &o);
	}
	rc = bp_finish_stdout(0);
	bp_critical_path_free(path);
	return rc;
}
