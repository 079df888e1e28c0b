// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof report [FILE]: the model of a recording as text, json, csv or
 * markdown.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "analysis/model.h"
#include "analysis/phases.h"
#include "analysis/summary.h"
#include "analysis/redact.h"
#include "builtin.h"
#include "plugin/plugins.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/printable.h"
#include "views/report.h"

#define DEFAULT_RECORDING "/var/log/bootprof/latest.dat"
#define FALLBACK_RECORDING "bootprof.dat"
#define DEFAULT_TOP 10

const char cmd_report_usage[] =
	"usage: bootprof report [options] [FILE]\n"
	"   or: bootprof report [options] --boots GLOB | FILE FILE...\n"
	"\n"
	"Report I/O wait and reads per process and per file. FILE defaults to\n"
	DEFAULT_RECORDING ", else ./" FALLBACK_RECORDING ". Several files (or\n"
	"--boots): median, min and max per phase, process, file and service, and in\n"
	"how many boots each appeared.\n"
	"\n"
	"  -f, --format FMT     text (default), json, csv or markdown\n"
	"      --table NAME     one csv table (implies --format csv): processes, files,\n"
	"                       readers, never-used, reread, disks, execs, timeline,\n"
	"                       totals (or summary), services (default processes)\n"
	"  -n, --top N          rows per list (default 10 for text/markdown, all for\n"
	"                       json/csv; 0 = all)\n"
	"  -w, --width N        text: columns per line (default: the terminal's width,\n"
	"                       100 when not a terminal); longer lines wrap, nothing is cut\n"
	"  -p, --pid PID        only this process (and the files it touched)\n"
	"  -c, --comm STR       only processes whose comm or exec path contains STR\n"
	"      --file STR       only files whose path contains STR\n"
	"      --since S        start of the window, seconds on the recording clock\n"
	"      --until S        end of the window, seconds on the recording clock\n"
	"      --tree           processes with their descendants' totals\n"
	"      --redact         replace user paths, command lines, the hostname and kernel\n"
	"                       command-line values with stable hashes, to share the report\n"
	"                       (plugin sections are left out)\n"
	"      --plugin NAMES   run only these plugins (comma-separated)\n"
	"      --plugin-opt NAME.KEY=VALUE\n"
	"                       an option of a plugin (repeatable)\n"
	"      --no-plugins     run no plugin (built-in or external)\n"
	"      --list-plugins   list the plugins and their options, and exit\n"
	"      --phase NAME=END a phase ending at END: exec:PROG, file:PATH\n"
	"                       or service:UNIT (repeatable)\n"
	"      --boots GLOB     many recordings (a quoted pattern; repeatable)\n"
	"      --all            with several recordings: every process of a\n"
	"                       `record -- CMD` recording, not only CMD's tree\n"
	"  -h, --help           this text\n";

const struct option cmd_report_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "table", required_argument, NULL, 'T' },
	{ "top", required_argument, NULL, 'n' },
	{ "width", required_argument, NULL, 'w' },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, 'c' },
	{ "file", required_argument, NULL, 'F' },
	{ "since", required_argument, NULL, 'S' },
	{ "until", required_argument, NULL, 'U' },
	{ "tree", no_argument, NULL, 't' },
	{ "redact", no_argument, NULL, 'R' },
	{ "plugin", required_argument, NULL, 'P' },
	{ "plugin-opt", required_argument, NULL, 'O' },
	{ "no-plugins", no_argument, NULL, 'N' },
	{ "list-plugins", no_argument, NULL, 'L' },
	{ "phase", required_argument, NULL, 'H' },
	{ "boots", required_argument, NULL, 'B' },
	{ "all", no_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

/* "12", "12.5", "0.000001" seconds -> ns, exactly; -1 on junk. */
static int parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ull;
	const char *p = s;

	if (!*p)
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
		}
	}
	if (*p || (p == s))
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

static int parse_count(const char *s, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The terminal's columns when stdout is one, else the report's 100. */
static size_t terminal_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 100;
}

static const char *default_file(void)
{
	if (access(DEFAULT_RECORDING, F_OK) == 0)
		return DEFAULT_RECORDING;
	return FALLBACK_RECORDING;
}

/* Print the plugins' warnings once, then forget them. */
static void plugin_warnings(struct bp_plugin_set *set)
{
	size_t i;

	for (i = 0; i < bp_plugins_nwarnings(set); i++)
		bp_warn("%s", bp_plugins_warning(set, i));
	bp_plugins_clear_warnings(set);
}

/* The model's pass feeds the plugins and the phase finder. */
struct report_hooks {
	struct bp_build_hooks plugins;
	struct bp_phase_finder *phases;
};

static void report_event(void *arg, const struct bp_event *ev)
{
	struct report_hooks *h = arg;

	if (h->plugins.event)
		h->plugins.event(h->plugins.arg, ev);
	bp_phase_finder_event(h->phases, ev);
}

static void report_span(void *arg, const struct bp_span *span)
{
	struct report_hooks *h = arg;

	h->plugins.span(h->plugins.arg, span);
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
	for (i = 0; i < n; i++) {
		if (s[i]->lost_events)
			bp_warn("'%s' lost events while recording: its totals are lower bounds",
				s[i]->path);
	}
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
	struct report_hooks rh = { { 0 }, NULL };
	struct bp_phase *phase_list = NULL;
	long np;
	struct bp_report_opts o = { 0 };
	struct bp_window w = { 0 };
	const char *format = NULL;
	struct bp_plugin_opts po = { 0 };
	struct bp_plugin_set *plugins;
	struct bp_build_hooks hooks;
	const char *popts[64];
	const char *pdirs[2];
	int list_plugins = 0;
	struct bp_reader *r;
	struct bp_model *m;
	long top = -1, v;
	char *shown = NULL;
	int c, rc, redact = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:n:w:p:c:h", cmd_report_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'T':
			o.table = optarg;
			break;
		case 'n':
			if (parse_count(optarg, 1000000000L, &top))
				return bp_usage_error("report", "invalid --top '%s'", optarg);
			break;
		case 'w':
			if (parse_count(optarg, 10000, &v) || v < 40)
				return bp_usage_error("report", "invalid --width '%s' (40 to 10000)",
						      optarg);
			o.width = (size_t)v;
			break;
		case 'p':
			if (parse_count(optarg, INT_MAX, &v) || !v)
				return bp_usage_error("report", "invalid --pid '%s'", optarg);
			o.filter.pid = (int)v;
			break;
		case 'c':
			o.filter.comm = optarg;
			break;
		case 'F':
			o.filter.file = optarg;
			break;
		case 'S':
			if (parse_seconds(optarg, &w.since_ns))
				return bp_usage_error("report", "invalid --since '%s'", optarg);
			break;
		case 'U':
			if (parse_seconds(optarg, &w.until_ns))
				return bp_usage_error("report", "invalid --until '%s'", optarg);
			break;
		case 't':
			o.tree = 1;
			o.filter.tree = 1;
			break;
		case 'P':
			po.select = optarg;
			break;
		case 'O':
			if (po.nopts == sizeof(popts) / sizeof(popts[0]))
				return bp_usage_error("report", "too many --plugin-opt");
			popts[po.nopts++] = optarg;
			break;
		case 'N':
			po.disabled = 1;
			break;
		case 'L':
			list_plugins = 1;
			break;
		case 'R':
			redact = 1;
			break;
		case 'H':
			if (nspecs == sizeof(phase_args) / sizeof(phase_args[0]))
				return bp_usage_error("report", "too many --phase");
			phase_args[nspecs++] = optarg;
			break;
		case 'B':
			if (nboots == sizeof(boots) / sizeof(boots[0]))
				return bp_usage_error("report", "too many --boots");
			boots[nboots++] = optarg;
			break;
		case 'a':
			so.all = 1;
			break;
		case 'h':
			fputs(cmd_report_usage, stdout);
			return 0;
		case ':':
			return bp_usage_error("report", "option '%s' needs a value", argv[optind - 1]);
		default:
			return bp_usage_error("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (nboots && optind < argc)
		return bp_usage_error("report", "give --boots GLOB or files, not both");
	if (!format)
		format = o.table ? "csv" : "text";
	if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "csv") &&
	    strcmp(format, "markdown"))
		return bp_usage_error("report", "unknown format '%s'", format);
	if (o.table && strcmp(format, "csv"))
		return bp_usage_error("report", "--table needs --format csv");
	if (o.table) {
		const char *const *t;

		for (t = bp_csv_tables; *t && strcmp(*t, o.table); t++)
			;
		if (!*t)
			return bp_usage_error("report", "unknown table '%s'", o.table);
	}
	if (w.until_ns && w.until_ns < w.since_ns)
		return bp_usage_error("report", "--until is before --since");
	if (top < 0)
		top = !strcmp(format, "text") || !strcmp(format, "markdown") ? DEFAULT_TOP : 0;
	if (!o.width)
		o.width = terminal_width();
	o.top = (size_t)top;
	if (parse_phases(phase_args, nspecs, specs))
		return BP_EXIT_USAGE;
	so.specs = specs;
	so.nspecs = nspecs;
	if (nboots || argc - optind > 1) {
		rc = nboots ? report_boots(boots, nboots, 1, &so, format, o.top) :
			      report_boots((const char *const *)argv + optind,
					   (size_t)(argc - optind), 0, &so, format, o.top);
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
	o.file = optind < argc ? argv[optind] : default_file();

	r = bp_reader_open(o.file);
	if (!r) {
		bp_plugins_free(plugins);
		rc = bp_error_last();
		goto out_phases;
	}
	bp_plugins_start(plugins, bp_reader_tep(r),
			 bp_reader_meta(r) ? bp_reader_meta(r)->machine : NULL);
	bp_plugins_window(plugins, w.since_ns, w.until_ns);
	bp_plugins_hooks(plugins, &rh.plugins);
	rh.phases = bp_phase_finder_new(bp_reader_tep(r), specs, nspecs);
	hooks.event = report_event;
	hooks.span = rh.plugins.span ? report_span : NULL;
	hooks.arg = &rh;
	m = bp_model_build(r, &w, &hooks);
	/* Phases are the recording's, whatever the window. */
	np = m ? bp_phases_compute(rh.phases, r, m, &phase_list) : -1;
	if (np < 0) {
		bp_error("cannot read '%s': %s", o.file, bp_last_error());
		bp_plugins_free(plugins);
		bp_model_free(m);
		bp_reader_free(r);
		rc = BP_EXIT_FAILURE;
		goto out_phases;
	}
	nphases = (size_t)np;
	o.phases = phase_list;
	o.nphases = nphases;
	if (bp_reader_stats(r)->corrupt_pages) {
		/* A corrupt file is an error, never a partial report with a warning. */
		bp_error("'%s' is corrupt: %llu ring-buffer pages are damaged or do not match the "
			 "event formats", o.file,
			 (unsigned long long)bp_reader_stats(r)->corrupt_pages);
		bp_plugins_free(plugins);
		bp_model_free(m);
		bp_reader_free(r);
		rc = BP_EXIT_FAILURE;
		goto out_phases;
	}
	bp_plugins_finish(plugins, m);
	plugin_warnings(plugins);
	/* Plugin sections quote what they saw in the events: not redactable. */
	o.plugins = po.disabled || redact ? NULL : bp_plugins_doc(plugins);
	if (redact) {
		/* After building: redaction renames, it never changes a number. */
		bp_model_redact(m);
		shown = bp_redact_path(o.file);
		o.file = shown;
	}
	if (m->header.warnings) {
		/* The recording's own words: shown printable, as in the report. */
		char *all = bp_printable_dup(m->header.warnings), *line = all, *nl;

		for (; (nl = strstr(line, "\\x0a")); line = nl + 4)
			bp_warn("%.*s", (int)(nl - line), line);
		if (*line)
			bp_warn("%s", line);
		free(all);
	}
	if (m->totals.lost_events || m->totals.lost_pages)
		bp_warn("'%s' lost events while recording: totals are lower bounds", o.file);
	if (!strcmp(format, "json"))
		rc = bp_view_json(stdout, m, &o);
	else if (!strcmp(format, "csv"))
		rc = bp_view_csv(stdout, m, &o);
	else if (!strcmp(format, "markdown"))
		rc = bp_view_markdown(stdout, m, &o);
	else
		rc = bp_view_text(stdout, m, &o);
	bp_plugins_free(plugins);
	bp_model_free(m);
	bp_reader_free(r);
	free(shown);
	if (rc)
		rc = bp_error_last();
out_phases:
	bp_phases_free(phase_list, nphases);
	bp_phase_finder_free(rh.phases);
	while (nspecs)
		bp_phase_spec_release(&specs[--nspecs]);
	return rc;
}
