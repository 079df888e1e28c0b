// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof report [FILE]: the model of a recording as text, json, csv or
 * markdown.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "analysis/critical.h"
#include "analysis/focus.h"
#include "analysis/model.h"
#include "analysis/phases.h"
#include "analysis/summary.h"
#include "analysis/redact.h"
#include "analysis/session.h"
#include "builtin.h"
#include "plugin/plugins.h"
#include "replay/build.h"
#include "tracefile/tracefile.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/units.h"
#include "views/report.h"

#define DEFAULT_TOP 10

static const char *const report_synopsis[] = {
	"bootprof report [options] [FILE]",
	"bootprof report [options] --boots GLOB | FILE FILE...",
	NULL,
};

static const struct bp_usage report_usage = {
	"report",
	report_synopsis,
	"Report I/O wait and reads per process and per file. Several files (or\n"
	"--boots): median, min and max per phase, process, file and service, and in\n"
	"how many boots each appeared.\n"
	BP_DEFAULT_RECORDING_TEXT,
	NULL,
	"@recording",
};

/* The terminal's columns when stdout is one, else the report's 100. */
static size_t terminal_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 100;
}

/* Print the plugins' warnings once, then forget them. */
static void plugin_warnings(struct bp_plugin_set *set)
{
	size_t i;

	for (i = 0; i < bp_plugins_nwarnings(set); i++)
		bp_warn("%s", bp_plugins_warning(set, i));
	bp_plugins_clear_warnings(set);
}

/* The --phase values, parsed; -1 (usage error printed) on a bad one. */
static int parse_phases(const char *const *args, size_t n, struct bp_phase_spec *specs)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (bp_phase_spec_parse(args[i], &specs[i])) {
			while (i)
				bp_phase_spec_release(&specs[--i]);
			bp_usage_error("report", "%s", bp_last_error());
			return -1;
		}
	}
	return 0;
}

/* report FILE FILE... / --boots GLOB: statistics over recordings. */
static int report_boots(const char *const *args, size_t nargs, int glob,
			const struct bp_summary_opts *so, const char *format, size_t top)
{
	struct bp_summary **s;
	struct bp_group g;
	size_t n, i;
	int rc;

	if (!strcmp(format, "csv"))
		return bp_usage_error("report", "several recordings: text, json or markdown");
	s = bp_summaries_load(args, nargs, glob, so, &n);
	if (!s)
		return bp_error_last();
	for (i = 0; i < n; i++)
		bp_warnings_print(&s[i]->warnings);
	bp_group_build(&g, s, n, 0);
	rc = bp_view_boots(stdout, &g, s, n, format, top);
	bp_group_release(&g);
	bp_summaries_free(s, n);
	return rc ? bp_error_last() : 0;
}

int cmd_report(int argc, char **argv)
{
	const char *phase_args[32], *boots[64];
	struct bp_phase_spec specs[32];
	size_t nspecs = 0, nboots = 0, nphases = 0;
	struct bp_summary_opts so = { 0 };
	struct bp_phase_finder *finder = NULL;
	struct bp_phase *phase_list = NULL;
	long np;
	struct bp_report_opts o = { 0 };
	struct bp_window_arg win = { 0 };
	const char *format = NULL, *iowait_source = NULL;
	struct bp_plugin_opts po = { 0 };
	struct bp_plugin_set *plugins;
	struct bp_build_hooks hooks[3];
	struct bp_critical_log *crit_log = NULL;
	struct bp_critical_path *crit = NULL;
	struct bp_crit_end crit_end = { .kind = BP_CRIT_END_DEFAULT };
	struct bp_crit_mark *crit_ends = NULL;
	const char *popts[64];
	const char *pdirs[2];
	int list_plugins = 0;
	struct bp_session *session;
	const struct bp_meta *meta;
	struct bp_preloaded *pre = NULL;
	struct bp_model *m;
	size_t k;
	int top = -1, width = 0;
	char *shown = NULL;
	int rc, redact = 0, tree = 0;

	struct bp_string_list popt_list = { popts, 0, sizeof(popts) / sizeof(popts[0]) };
	struct bp_string_list phase_list_args = { phase_args, 0,
						  sizeof(phase_args) / sizeof(phase_args[0]) };
	struct bp_string_list boot_list = { boots, 0, sizeof(boots) / sizeof(boots[0]) };
	const struct bp_option options[] = {
		OPT_FORMAT(&format, "text json csv markdown", "text (default), json, csv or markdown (md)"),
		OPT_STRING_C(0, "table", &o.table, "NAME",
			     "one csv table (implies --format csv): processes, files,\n"
			     "readers, never-used, mapped-unknown, reread, disks, execs,\n"
			     "timeline, totals (or summary), services, preloaded\n"
			     "(default processes)",
			     "processes files readers never-used mapped-unknown reread disks execs "
			     "timeline totals services preloaded"),
		OPT_INT('n', "top", &top, "N",
			"rows per list (default 10 for text/markdown, all for\n"
			"json/csv; 0 = all)", 0, 1000000000),
		OPT_INT('w', "width", &width, "N",
			"text: columns per line (default: the terminal's width,\n"
			"100 when not a terminal); longer lines wrap, nothing is cut",
			40, 10000),
		OPT_INT('p', "pid", &o.filter.pid, "PID", "only this process (and the files it touched)",
			1, INT_MAX),
		OPT_STRING('c', "comm", &o.filter.comm, "STR",
			   "only processes whose comm or exec path contains STR"),
		OPT_STRING(0, "file", &o.filter.file, "STR", "only files whose path contains STR"),
		OPT_SINCE(&win),
		OPT_UNTIL(&win),
		OPT_FLAG(0, "tree", &tree, "processes with their descendants' totals"),
		OPT_FLAG('v', "verbose", &o.verbose,
			 "long header values (the kernel command line, events\n"
			 "unavailable) in full, not summarised on one line"),
		OPT_FLAG(0, "redact", &redact,
			 "replace user paths, command lines, the hostname and kernel\n"
			 "command-line values with stable hashes, to share the report\n"
			 "(plugin sections are left out)"),
		OPT_STRING_C(0, "plugin", &po.select, "NAMES",
			     "run only these plugins (comma-separated)", "@plugin"),
		OPT_STRING_LIST(0, "plugin-opt", &popt_list, "NAME.KEY=VALUE",
				"an option of a plugin (repeatable)", "@plugin-opt"),
		OPT_FLAG(0, "no-plugins", &po.disabled, "run no plugin (built-in or external)"),
		OPT_FLAG(0, "list-plugins", &list_plugins,
			 "list the plugins and their options, and exit"),
		OPT_STRING_LIST(0, "phase", &phase_list_args, "NAME=END",
				"a phase ending at END: exec:PROG, file:PATH\n"
				"or service:UNIT (repeatable)", NULL),
		OPT_STRING_LIST(0, "boots", &boot_list, "GLOB",
				"many recordings (a quoted pattern; repeatable)", "@file"),
		OPT_FOCUS_ALL(&so.all),
		OPT_CHOICE(0, "iowait-source", &iowait_source, "SOURCE",
			   "kernel (default: the kernel's schedstats events where\n"
			   "recorded) or inferred (ignore them: every D-sleep by how\n"
			   "it ended, to compare the two)", "kernel inferred"),
		OPT_END(),
	};


	argc = bp_parse_options(argc, argv, options, &report_usage, 0, &rc);
	if (argc < 0)
		return rc;
	o.tree = o.filter.tree = tree;
	po.nopts = popt_list.n;
	nspecs = phase_list_args.n;
	nboots = boot_list.n;
	if (nboots && argc > 0)
		return bp_usage_error("report", "give --boots GLOB or files, not both");
	if (!format)
		format = o.table ? "csv" : "text";
	if (o.table && strcmp(format, "csv"))
		return bp_usage_error("report", "--table needs --format csv");
	if (o.table) {
		const char *const *t;

		for (t = bp_csv_tables; *t && strcmp(*t, o.table); t++)
			;
		if (!*t)
			return bp_usage_error("report", "unknown table '%s'", o.table);
	}
	if (bp_window_arg_check(&win))
		return bp_usage_error("report", "%s", bp_last_error());
	if (top < 0)
		top = !strcmp(format, "text") || !strcmp(format, "markdown") ? DEFAULT_TOP : 0;
	o.width = width ? (size_t)width : terminal_width();
	o.top = (size_t)top;
	if (parse_phases(phase_args, nspecs, specs))
		return BP_EXIT_USAGE;
	so.specs = specs;
	so.nspecs = nspecs;
	if (nboots || argc > 1) {
		rc = nboots ? report_boots(boots, nboots, 1, &so, format, o.top) :
			      report_boots((const char *const *)argv, (size_t)argc, 0, &so, format, o.top);
		goto out_phases;
	}
	po.opts = popts;
	po.dirs = pdirs;
	po.ndirs = bp_plugin_dirs(pdirs);
	plugins = bp_plugins_load(&po);
	if (!plugins) {
		rc = bp_error_last();
		goto out_phases;
	}
	plugin_warnings(plugins);
	if (list_plugins) {
		bp_plugins_list(plugins, stdout);
		bp_plugins_free(plugins);
		rc = bp_finish_stdout(0);
		goto out_phases;
	}
	o.file = argc > 0 ? argv[0] : bp_default_recording();
	if (!o.file) {
		bp_plugins_free(plugins);
		rc = bp_error_last();
		goto out_phases;
	}

	session = bp_session_open(o.file);
	if (!session || bp_session_window(session, &win)) {
		bp_plugins_free(plugins);
		bp_session_free(session);
		rc = bp_error_last();
		goto out_phases;
	}
	if (redact) {
		/* Warnings name the file as the redacted report does. */
		shown = bp_redact_path(o.file);
		session->name = shown;
	}
	session->window.infer_iowait = iowait_source && !strcmp(iowait_source, "inferred");
	meta = bp_reader_meta(session->reader);
	bp_plugins_start(plugins, bp_reader_tep(session->reader), meta ? meta->machine : NULL);
	bp_plugins_kallsyms(plugins, bp_reader_kallsyms(session->reader));
	bp_plugins_window(plugins, session->window.since_ns, session->window.until_ns);
	/* One pass feeds the plugins and the phase finder. */
	bp_plugins_hooks(plugins, &hooks[0]);
	finder = bp_phase_finder_new(bp_reader_tep(session->reader), specs, nspecs);
	hooks[1] = (struct bp_build_hooks){ .event = bp_phase_finder_event, .arg = finder };
	/* The verdict names what the critical path waited on: the same pass records it. */
	crit_log = bp_critical_log_new();
	hooks[2] = (struct bp_build_hooks){ .critical = crit_log };
	m = bp_session_build(session, &session->window, hooks, 3);
	/* Phases are the recording's, whatever the window. */
	np = m ? bp_phases_compute(finder, session, m, so.all, &phase_list) : -1;
	if (np < 0) {
		rc = bp_error_last();
		goto out_model;
	}
	nphases = (size_t)np;
	o.phases = phase_list;
	o.nphases = nphases;
	o.focus_pid = bp_focus_command(m, so.all, &o.filter);
	if (bp_focus_check(m, &o.filter, &session->window)) {
		/* A filter or window that selects nothing is not an empty report. */
		bp_error("%s", bp_last_error());
		rc = BP_EXIT_FAILURE;
		goto out_model;
	}
	/*
	 * A replayed boot: the verdict on its pages takes a second pass over
	 * the recording (each page's history: who inserted, used, evicted it).
	 */
	if (bp_preloader_processes(m, NULL)) {
		pre = bp_preloaded_build(session, &session->window);
		if (!pre) {
			rc = bp_error_last();
			goto out_model;
		}
		o.preloaded = pre;
	}
	/*
	 * The verdict's path is the whole recording's: none under a window
	 * that leaves events out, nor in a redacted report (its files' paths
	 * are not redacted), nor in csv (no verdict).
	 */
	bp_plugins_finish(plugins, m, &o.filter);
	if (!(m->missing & BP_MISSING_SCHED) && !redact && strcmp(format, "csv") &&
	    (!bp_focus_windowed(&session->window) || m->totals.events == m->totals.events_total)) {
		/* A plugin may know the boot's end (Android's boot completed). */
		crit_end.nmarks = bp_plugin_ends(plugins, &crit_ends);
		crit_end.marks = crit_ends;
		crit = bp_critical_walk(crit_log, m, &crit_end);
		o.critical = crit;
	}
	plugin_warnings(plugins);
	/* Plugin sections quote what they saw in the events: not redactable. */
	o.plugins = po.disabled || redact ? NULL : bp_plugins_doc(plugins);
	if (redact) {
		/* After building: redaction renames, it never changes a number. */
		bp_model_redact(m);
		for (k = 0; pre && k < pre->nfiles; k++) {
			char *path = bp_redact_path(pre->files[k].path);

			free(pre->files[k].path);
			pre->files[k].path = path;
		}
		o.file = shown;
	}
	bp_warnings_print(&session->warnings);
	if (!strcmp(format, "json"))
		rc = bp_view_json(stdout, m, &o);
	else if (!strcmp(format, "csv"))
		rc = bp_view_csv(stdout, m, &o);
	else if (!strcmp(format, "markdown"))
		rc = bp_view_markdown(stdout, m, &o);
	else
		rc = bp_view_text(stdout, m, &o);
	if (rc)
		rc = bp_error_last();
out_model:
	bp_critical_path_free(crit);
	free(crit_ends);
	bp_plugins_free(plugins);
	bp_preloaded_free(pre);
	bp_model_free(m);
	bp_session_free(session);
	free(shown);
out_phases:
	bp_critical_log_free(crit_log);
	bp_phases_free(phase_list, nphases);
	bp_phase_finder_free(finder);
	while (nspecs)
		bp_phase_spec_release(&specs[--nspecs]);
	return rc;
}
