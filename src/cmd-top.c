// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof top: the model of a recording (or of the live system) in a
 * full-screen view, or as text with --batch. The view lives in
 * src/views/tui/; this file parses options, opens the source and maps
 * failures to exit statuses.
 *
 * Live mode records like `bootprof record`, through its own tracefs
 * instance, into a private temporary recording, and every interval writes
 * a complete recording of what it keeps and builds the model from it
 * again (src/capture/live.c). That is the simplest design that is right:
 * the numbers are exactly the ones `report` would print for the same
 * events. The last interval is built from the last LIVE_RECENT intervals
 * (so waits and the page cache it starts in are known), which bounds the
 * cost of an update; --cumulative builds from the start, at a cost that
 * grows with the session (the engine reads several M events/s).
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
#include "capture/live.h"
#include "tracefile/tracefile.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/signals.h"
#include "util/units.h"
#include "views/tui/top.h"


static const char *const top_synopsis[] = {
	"bootprof top [--sort COL] [--reverse] [--tree] [--view VIEW] [--since S]",
	"             [--until S] [--all] [FILE]",
	"bootprof top --live [-d SECS] [-n ITER] [--cumulative] [--sort COL] [--reverse]",
	"             [--tree] [--view VIEW]",
	"bootprof top --batch [--top N] [--width N] [--sort COL] [--reverse] [--tree]",
	"             [--view VIEW] [--since S] [--until S] [--all]",
	"             [--live [-d SECS] [-n ITER] [--cumulative]] [FILE]",
	NULL,
};

static const struct bp_usage top_usage = {
	"top",
	top_synopsis,
	"Show I/O wait and reads per file, per process and per service, over a\n"
	"window of the recording that the timeline selects, and the recording's\n"
	"critical path (key p), in a full-screen view.\n",
	BP_DEFAULT_RECORDING_TEXT
	"Keys: ? for help, q to quit.\n",
	"@recording",
};

#define DEFAULT_DELAY_NS (2 * BP_NS_PER_S)
#define DEFAULT_WIDTH 100

struct top_args {
	struct bp_top_opts o;
	int live;
	int batch;
	uint64_t delay_ns;      /* 0: not given */
	const char *file;
	struct bp_window_arg window;
};

/* --view files|procs|services (enum bp_top_view *value). */
static int opt_view(const struct bp_option *opt, const char *arg)
{
	enum bp_top_view *view = opt->value;

	if (!strcmp(arg, "files"))
		*view = BP_TOP_FILES;
	else if (!strcmp(arg, "procs") || !strcmp(arg, "processes"))
		*view = BP_TOP_PROCS;
	else if (!strcmp(arg, "services") || !strcmp(arg, "units"))
		*view = BP_TOP_SERVICES;
	else if (!strcmp(arg, "path") || !strcmp(arg, "critical"))
		*view = BP_TOP_PATH;
	else
		return bp_option_fail("bad view '%s' (files, procs, services or path)", arg);
	return 0;
}

/* What key / can type: printable ASCII, BP_TOP_FILTER_MAX at most. */
static int filter_valid(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++) {
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	}
	return n <= BP_TOP_FILTER_MAX;
}

/* BP_OPTIONS_GO_ON, or the exit status to return (-h, a usage error). */
static int parse_options(struct top_args *a, int argc, char **argv)
{
	int status;
	const struct bp_option options[] = {
		OPT_FLAG(0, "live", &a->live, "record and show the live system (as root)"),
		OPT_TIME_RANGE('d', "delay", &a->delay_ns, "T",
			       "with --live, refresh every T (seconds, or 500ms;\n"
			       "default 2)", 100 * BP_NS_PER_MS, 3600 * BP_NS_PER_S),
		OPT_FLAG('c', "cumulative", &a->o.cumulative,
			 "with --live, show everything since the start, not\n"
			 "the last interval"),
		OPT_FLAG('b', "batch", &a->batch, "print the screen as text, no terminal needed"),
		OPT_INT('n', "iterations", &a->o.iterations, "ITER",
			"with --batch --live, print ITER screens, one per interval\n"
			"(as top -n)", 1, 1000000),
		OPT_INT(0, "top", &a->o.rows, "N", "with --batch, rows per list (default all, as\n"
			"report --top; 0 = all)", 0, 1000000000),
		OPT_INT('w', "width", &a->o.width, "N",
			"with --batch, columns of the text (default 100)", 40, 400),
		OPT_STRING_C('s', "sort", &a->o.sort, "COL",
			     "sort column (files: wait, read, never-used, reread,\n"
			     "readers, path; procs: pid, comm, wait, tree-wait, cpu,\n"
			     "read, files, start, worst; services: wait, read, cpu,\n"
			     "procs, start, exec, end, unit; path: ms, share,\n"
			     "segments, detail, name)",
			     "files: wait read never-used reread readers path; "
			     "procs: pid comm wait tree-wait cpu read files start worst; "
			     "services: wait read cpu procs start exec end unit; "
			     "path: ms share segments detail name"),
		OPT_FLAG('r', "reverse", &a->o.reverse, "reverse the sort order (key r)"),
		OPT_FLAG('t', "tree", &a->o.tree,
			 "the procs view as a tree: children under their parent (key t)"),
		OPT_STRING('F', "filter", &a->o.filter, "TEXT",
			   "start with the filter TEXT (key /): a part of the path,\n"
			   "the command or the unit"),
		OPT_CALLBACK_C(0, "view", &a->o.view, "VIEW",
			       "start in the files, procs, services or path view\n"
			       "(default files; path: the critical path, key p)",
			       "files procs services path", opt_view),
		OPT_SINCE(&a->window),
		OPT_UNTIL(&a->window),
		OPT_FOCUS_ALL(&a->o.all),
		OPT_END(),
	};

	memset(a, 0, sizeof(*a));
	a->o.width = DEFAULT_WIDTH;
	a->o.iterations = 1;
	argc = bp_parse_options(argc, argv, options, &top_usage, 0, &status);
	if (argc < 0)
		return status;
	if (argc > 0)
		a->file = argv[0];
	if (argc > 1)
		return bp_usage_error("top", "too many arguments");
	if (a->o.sort && !bp_top_sort_valid(a->o.view, a->o.sort))
		return bp_usage_error("top", "bad sort column '%s' (%s)", a->o.sort,
				      bp_top_sort_names(a->o.view));
	if (bp_window_arg_check(&a->window))
		return bp_usage_error("top", "%s", bp_last_error());
	if (a->o.filter && !filter_valid(a->o.filter))
		return bp_usage_error("top", "bad filter: at most %d printable ASCII characters",
				      BP_TOP_FILTER_MAX);
	if (a->live && a->file)
		return bp_usage_error("top", "--live takes no file");
	if (a->live && (a->window.since.set || a->window.until.set))
		return bp_usage_error("top", "--since and --until are for recordings");
	if (!a->live && (a->delay_ns || a->o.cumulative))
		return bp_usage_error("top", "--delay and --cumulative need --live");
	if (!a->file && !a->live) {
		a->file = bp_default_recording();
		if (!a->file)
			return bp_error_last();
	}
	return BP_OPTIONS_GO_ON;
}

/* ---- a recording ---- */

static struct bp_model *file_build(void *arg, const struct bp_window *window)
{
	return bp_session_build(arg, window, NULL, 0);
}

/* The path view's critical path: the whole recording's, as `bootprof critical` walks it. */
static struct bp_critical_path *file_critical(void *arg)
{
	static const struct bp_crit_end end = { .kind = BP_CRIT_END_DEFAULT };
	const struct bp_session *s = arg;

	return bp_critical_load(s->path, &end, 0);
}

static int run(struct top_args *a, const struct bp_top_source *src)
{
	a->o.stop = &bp_stop_signal;
	if (a->batch)
		return bp_top_batch(stdout, src, &a->o);
	return bp_top_interactive(src, &a->o);
}

static int top_file(struct top_args *a)
{
	const char *slash = strrchr(a->file, '/');
	struct bp_top_source src = { file_build, NULL, NULL, slash ? slash + 1 : a->file, 0,
				     file_critical };
	struct bp_session *s;
	int ret;

	s = bp_session_open(a->file);
	if (!s || bp_session_window(s, &a->window)) {
		bp_session_free(s);
		return bp_error_last();
	}
	a->o.since_ns = s->window.since_ns;
	a->o.until_ns = s->window.until_ns;
	src.arg = s;
	ret = run(a, &src);
	/* After the screen: the terminal shows them once the view is gone. */
	if (ret >= 0)
		bp_warnings_print(&s->warnings);
	bp_session_free(s);
	return ret < 0 ? bp_error_last() : 0;
}

/* ---- the live system ---- */

static struct bp_model *live_build(void *arg, const struct bp_window *window)
{
	struct bp_reader *r = bp_live_reader(arg);

	return r ? bp_model_build(r, window, NULL) : NULL;
}

/*
 * The last interval is built from the last LIVE_RECENT intervals, so the
 * waits and page-cache state it starts in are known, and an update costs
 * the same at any age of the session; cumulative builds from the start.
 */
#define LIVE_RECENT 3

static int live_update(void *arg, int cumulative)
{
	return bp_live_update(arg, cumulative ? 0 : LIVE_RECENT);
}

static int top_live(struct top_args *a)
{
	struct bp_top_source src = { live_build, live_update, NULL, "live", 0, NULL };
	struct bp_live *live;
	int ret;

	if (geteuid() != 0)
		return bp_error("top --live needs root (tracefs)");
	live = bp_live_start();
	if (!live)
		return bp_error_last();
	src.arg = live;
	src.delay_ns = a->delay_ns ? a->delay_ns : DEFAULT_DELAY_NS;
	ret = -1;
	if (!bp_stop_signal && live_update(live, a->o.cumulative) == 0)
		ret = run(a, &src);
	bp_live_free(live);
	return ret < 0 ? bp_error_last() : 0;
}

int cmd_top(int argc, char **argv)
{
	struct bp_stop_signals old;
	struct top_args a;
	int ret;

	ret = parse_options(&a, argc, argv);
	if (ret != BP_OPTIONS_GO_ON)
		return ret;
	/* Signals only ask to stop: the terminal and the instance are always restored. */
	bp_stop_signals_catch(&old);
	ret = a.live ? top_live(&a) : top_file(&a);
	bp_stop_signals_restore(&old);
	return ret;
}
