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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model.h"
#include "builtin.h"
#include "capture/live.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/signals.h"
#include "views/tui/top.h"

/* As report: the last boot recorded by bootprof init, else ./bootprof.dat. */
#define DEFAULT_RECORDING "/var/log/bootprof/latest.dat"
#define FALLBACK_RECORDING "bootprof.dat"

const char cmd_top_usage[] =
	"usage: bootprof top [--sort COL] [--view files|procs] [--since S] [--until S] [FILE]\n"
	"       bootprof top --live [-d S] [--cumulative] [--sort COL] [--view files|procs]\n"
	"       bootprof top --batch [-n N] [--width N] [--sort COL] [--view files|procs]\n"
	"                    [--since S] [--until S] [--live [-d S] [--cumulative]] [FILE]\n"
	"\n"
	"Show I/O wait and reads per file and per process, over a window of the\n"
	"recording that the timeline selects, in a full-screen view.\n"
	"\n"
	"      --live           record and show the live system (as root)\n"
	"  -d, --delay S        with --live, refresh every S seconds (default 2)\n"
	"  -c, --cumulative     with --live, show everything since the start, not\n"
	"                       the last interval\n"
	"  -b, --batch          print the screen as text, every row, no terminal needed\n"
	"  -n, --iterations N   with --batch, print N screens (--live: one per interval)\n"
	"  -w, --width N        with --batch, columns of the text (default 100)\n"
	"  -s, --sort COL       sort column (files: wait, read, never-used, reread,\n"
	"                       readers, path; procs: pid, comm, wait, tree-wait, cpu,\n"
	"                       read, files, start, worst)\n"
	"      --view VIEW      start in the files or the procs view (default files)\n"
	"      --since S        window start, seconds on the recording clock\n"
	"      --until S        window end, seconds on the recording clock\n"
	"\n"
	"FILE defaults to " DEFAULT_RECORDING ", else ./" FALLBACK_RECORDING ".\n"
	"Keys: ? for help, q to quit.\n";

enum { OPT_LIVE = 256, OPT_VIEW, OPT_SINCE, OPT_UNTIL };

const struct option cmd_top_options[] = {
	{ "live", no_argument, NULL, OPT_LIVE },
	{ "delay", required_argument, NULL, 'd' },
	{ "cumulative", no_argument, NULL, 'c' },
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "width", required_argument, NULL, 'w' },
	{ "sort", required_argument, NULL, 's' },
	{ "view", required_argument, NULL, OPT_VIEW },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ 0 },
};

#define DEFAULT_DELAY_S 2.0
#define DEFAULT_WIDTH 100

struct top_args {
	struct bp_top_opts o;
	int live;
	int batch;
	int delay_set;
	double delay;
	const char *file;
};

/* Seconds (decimal) to ns; -1 on anything else. */
static int parse_seconds(const char *s, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_options(struct top_args *a, int argc, char **argv)
{
	double secs;
	int c;

	memset(a, 0, sizeof(*a));
	a->delay = DEFAULT_DELAY_S;
	a->o.width = DEFAULT_WIDTH;
	a->o.iterations = 1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:cbn:w:s:", cmd_top_options, NULL)) != -1) {
		switch (c) {
		case OPT_LIVE:
			a->live = 1;
			break;
		case 'd':
			if (parse_seconds(optarg, 3600, &a->delay) || a->delay < 0.1)
				return bp_usage_error("top", "bad delay '%s'", optarg);
			a->delay_set = 1;
			break;
		case 'c':
			a->o.cumulative = 1;
			break;
		case 'b':
			a->batch = 1;
			break;
		case 'n':
			if (parse_int(optarg, 1, 1000000, &a->o.iterations))
				return bp_usage_error("top", "bad iteration count '%s'", optarg);
			break;
		case 'w':
			if (parse_int(optarg, 40, 400, &a->o.width))
				return bp_usage_error("top", "bad width '%s' (40 to 400)", optarg);
			break;
		case 's':
			a->o.sort = optarg;
			break;
		case OPT_VIEW:
			if (!strcmp(optarg, "files"))
				a->o.view = BP_TOP_FILES;
			else if (!strcmp(optarg, "procs") || !strcmp(optarg, "processes"))
				a->o.view = BP_TOP_PROCS;
			else
				return bp_usage_error("top", "bad view '%s' (files or procs)", optarg);
			break;
		case OPT_SINCE:
		case OPT_UNTIL:
			if (parse_seconds(optarg, 1e9, &secs))
				return bp_usage_error("top", "bad time '%s'", optarg);
			if (c == OPT_SINCE)
				a->o.since_ns = (uint64_t)(secs * 1e9 + 0.5);
			else
				a->o.until_ns = (uint64_t)(secs * 1e9 + 0.5);
			break;
		case ':':
			return bp_usage_error("top", "option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				return bp_usage_error("top", "unknown option '-%c'", optopt);
			return bp_usage_error("top", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc)
		return bp_usage_error("top", "too many arguments");
	if (a->o.sort && !bp_top_sort_valid(a->o.view, a->o.sort))
		return bp_usage_error("top", "bad sort column '%s' (%s)", a->o.sort,
				      bp_top_sort_names(a->o.view));
	if (a->o.until_ns && a->o.until_ns < a->o.since_ns)
		return bp_usage_error("top", "--until is before --since");
	if (a->live && a->file)
		return bp_usage_error("top", "--live takes no file");
	if (a->live && (a->o.since_ns || a->o.until_ns))
		return bp_usage_error("top", "--since and --until are for recordings");
	if (!a->live && (a->delay_set || a->o.cumulative))
		return bp_usage_error("top", "--delay and --cumulative need --live");
	if (!a->file)
		a->file = access(DEFAULT_RECORDING, F_OK) == 0 ? DEFAULT_RECORDING :
			  FALLBACK_RECORDING;
	return 0;
}

/* ---- a recording ---- */

static struct bp_model *file_build(void *arg, const struct bp_window *window)
{
	return bp_model_build(arg, window, NULL);
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
	struct bp_top_source src = { file_build, NULL, NULL, slash ? slash + 1 : a->file, 0 };
	struct bp_reader *r;
	int ret;

	r = bp_reader_open(a->file);
	if (!r)
		return bp_error_last();
	src.arg = r;
	ret = run(a, &src);
	bp_reader_free(r);
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
	struct bp_top_source src = { file_build, live_update, NULL, "live", 0 };
	struct bp_live *live;
	int ret;

	if (geteuid() != 0)
		return bp_error("top --live needs root (tracefs)");
	live = bp_live_start();
	if (!live)
		return bp_error_last();
	src.build = live_build;
	src.arg = live;
	src.delay_ns = (uint64_t)(a->delay * 1e9);
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
	if (ret)
		return ret;
	/* Signals only ask to stop: the terminal and the instance are always restored. */
	bp_stop_signals_catch(&old);
	ret = a.live ? top_live(&a) : top_file(&a);
	bp_stop_signals_restore(&old);
	return ret;
}
