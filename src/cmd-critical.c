// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof critical [FILE] [--to SPEC]: what delayed an end point, as the
 * chain of segments walked back from it through wakeups
 * (analysis/critical.h), in text or JSON.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/critical.h"
#include "analysis/model.h"
#include "analysis/session.h"
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
	"recording, the exec that stopped the recording, else the last moment\n"
	"PID 1 (or any task) ran; a recording stopped by its duration or a\n"
	"signal needs --to.\n"
	BP_DEFAULT_RECORDING_TEXT,
	NULL,
	"@recording",
};

/* --to SPEC (struct bp_crit_end *value). */
static int opt_to(const struct bp_option *opt, const char *arg)
{
	if (bp_crit_end_parse(arg, opt->value))
		return bp_option_fail("%s", bp_last_error());
	return 0;
}

/*
 * Read the recording into a model and the walk's log: one pass through
 * the session, which makes every reader's checks (corrupt, cut, lost).
 */
static int load(const char *file, struct bp_model **m, struct bp_critical_log **log)
{
	struct bp_build_hooks hooks = { 0 };
	struct bp_session *s = bp_session_open(file);

	*m = NULL;
	*log = NULL;
	if (!s)
		return bp_error_last();
	*log = bp_critical_log_new();
	hooks.critical = *log;
	*m = bp_session_build(s, NULL, &hooks, 1);
	bp_warnings_print(&s->warnings);
	bp_session_free(s);
	return *m ? 0 : bp_error_last();
}

int cmd_critical(int argc, char **argv)
{
	struct bp_crit_end end = { BP_CRIT_END_DEFAULT, 0, NULL };
	struct bp_critical_opts o = { NULL, TEXT_TOP, 0 };
	struct bp_critical_path *path = NULL;
	struct bp_critical_log *log = NULL;
	struct bp_model *m = NULL;
	const char *format = "text";
	int rc;
	const struct bp_option options[] = {
		OPT_CALLBACK(0, "to", &end, "SPEC",
			     "the end point: pid:N (process N's exit), or a phase's end:\n"
			     "exec:PROG (its first exec), file:PATH (the first event on\n"
			     "it), service:UNIT (its main process's exit, else its exec)", opt_to),
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
	rc = load(o.file, &m, &log);
	if (rc)
		goto out;
	if (m->missing & BP_MISSING_SCHED) {
		rc = bp_error("'%s' has no sched_switch events: no path to walk", o.file);
		goto out;
	}
	path = bp_critical_walk(log, m, &end);
	if (!path) {
		rc = bp_error("'%s': %s", o.file, bp_last_error());
		goto out;
	}
	if (!strcmp(format, "json")) {
		o.top = 0;
		bp_view_critical_json(stdout, path, &o);
	} else if (!strcmp(format, "markdown")) {
		bp_view_critical_markdown(stdout, path, &o);
	} else {
		bp_view_critical_text(stdout, path, &o);
	}
	rc = bp_finish_stdout(0);
out:
	bp_critical_path_free(path);
	bp_critical_log_free(log);
	bp_model_free(m);
	return rc;
}
