// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof critical [FILE] [--to SPEC]: what delayed an end point, as the
 * chain of segments walked back from it through wakeups
 * (analysis/critical.h), in text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critical.h"
#include "analysis/model.h"
#include "analysis/session.h"
#include "builtin.h"
#include "plugin/plugins.h"
#include "tracefile/meta.h"
#include "tracefile/tracefile.h"
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
 * the session, which makes every reader's checks (corrupt, cut, lost),
 * and feeds the plugins the report runs (*set, finished): one may know
 * the boot's end (Android's boot completed). Their report output and
 * load warnings are the report's to show.
 */
static int load(const char *file, struct bp_model **m, struct bp_critical_log **log,
		struct bp_plugin_set **set)
{
	const char *dirs[2];
	struct bp_plugin_opts po = { .dirs = dirs, .ndirs = bp_plugin_dirs(dirs) };
	struct bp_build_hooks hooks[2] = { { 0 } };
	struct bp_session *s = bp_session_open(file);
	const struct bp_meta *meta;

	*m = NULL;
	*log = NULL;
	if (!s)
		return bp_error_last();
	*set = bp_plugins_load(&po);
	meta = bp_reader_meta(s->reader);
	bp_plugins_start(*set, bp_reader_tep(s->reader), meta ? meta->machine : NULL);
	bp_plugins_kallsyms(*set, bp_reader_kallsyms(s->reader));
	bp_plugins_window(*set, s->window.since_ns, s->window.until_ns);
	bp_plugins_hooks(*set, &hooks[0]);
	*log = bp_critical_log_new();
	hooks[1].critical = *log;
	*m = bp_session_build(s, NULL, hooks, 2);
	bp_warnings_print(&s->warnings);
	bp_session_free(s);
	if (*m)
		bp_plugins_finish(*set, *m, NULL);
	return *m ? 0 : bp_error_last();
}

int cmd_critical(int argc, char **argv)
{
	struct bp_crit_end end = { .kind = BP_CRIT_END_DEFAULT };
	struct bp_crit_mark *ends = NULL;
	struct bp_plugin_set *plugins = NULL;
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
		OPT_STRING_C('f', "format", &format, "FMT", "text (default) or json",
			     "text json"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &critical_usage, 0, &rc);
	if (argc < 0)
		return rc;
	if (argc > 1)
		return bp_usage_error("critical", "one recording at a time");
	if (strcmp(format, "text") && strcmp(format, "json"))
		return bp_usage_error("critical", "unknown format '%s'", format);
	o.file = argc > 0 ? argv[0] : bp_default_recording();
	if (!o.file)
		return bp_error_last();
	rc = load(o.file, &m, &log, &plugins);
	if (rc)
		goto out;
	if (m->missing & BP_MISSING_SCHED) {
		rc = bp_error("'%s' has no sched_switch events: no path to walk", o.file);
		goto out;
	}
	/* The marks borrow the set's strings: it lives until the path is printed. */
	end.nmarks = bp_plugin_ends(plugins, &ends);
	end.marks = ends;
	path = bp_critical_walk(log, m, &end);
	if (!path) {
		rc = bp_error("'%s': %s", o.file, bp_last_error());
		goto out;
	}
	if (!strcmp(format, "json")) {
		o.top = 0;
		bp_view_critical_json(stdout, path, &o);
	} else {
		bp_view_critical_text(stdout, path, &o);
	}
	rc = bp_finish_stdout(0);
out:
	bp_critical_path_free(path);
	bp_critical_log_free(log);
	free(ends);
	bp_plugins_free(plugins);
	bp_model_free(m);
	return rc;
}
