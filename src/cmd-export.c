// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof export --format chrome [FILE] -o OUT.json: a recording as a
 * trace other tools open (Perfetto UI, chrome://tracing, speedscope).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model.h"
#include "builtin.h"
#include "util/default-file.h"
#include "util/error.h"
#include "views/chrome.h"
#include "views/timeline.h"


const char cmd_export_usage[] =
	"usage: bootprof export --format chrome [options] [FILE] -o OUT.json\n"
	"\n"
	"Write a recording in another tool's format. FILE defaults to\n"
	BP_LATEST_RECORDING ", else ./" BP_LOCAL_RECORDING ".\n"
	"\n"
	"  -f, --format FMT     chrome: the Trace Event Format (JSON) that Perfetto UI,\n"
	"                       chrome://tracing and speedscope open; required\n"
	"  -o, --output FILE    where to write ('-' for stdout); required\n"
	"      --since T        start, from the timeline's 0 (kernel start for a boot\n"
	"                       recording, else the recording's start): 2, 1.5s, 300ms\n"
	"      --until T        end, from the timeline's 0\n"
	"      --all            every process of a `record -- CMD` recording, not only\n"
	"                       CMD's process tree (the default)\n"
	"      --force          overwrite OUT\n"
	"  -h, --help           this text\n";

const struct option cmd_export_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "since", required_argument, NULL, 'S' },
	{ "until", required_argument, NULL, 'U' },
	{ "all", no_argument, NULL, 'A' },
	{ "force", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

int cmd_export(int argc, char **argv)
{
	struct bp_timeline_range range = { 0 };
	struct bp_chrome_opts o = { 0 };
	struct bp_timeline t = { 0 };
	struct bp_model *m1 = NULL, *m2 = NULL;
	struct bp_chrome *x;
	const char *output = NULL, *format = NULL;
	int c, force = 0, failed, rc = BP_EXIT_FAILURE;
	FILE *out = NULL;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:h", cmd_export_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'S':
			if (bp_parse_ns(optarg, &range.since_ns))
				return bp_usage_error("export", "invalid --since '%s'", optarg);
			range.has_since = 1;
			break;
		case 'U':
			if (bp_parse_ns(optarg, &range.until_ns))
				return bp_usage_error("export", "invalid --until '%s'", optarg);
			range.has_until = 1;
			break;
		case 'A':
			o.all = 1;
			break;
		case 'F':
			force = 1;
			break;
		case 'h':
			fputs(cmd_export_usage, stdout);
			return 0;
		case ':':
			return bp_usage_error("export", "option '%s' needs a value", argv[optind - 1]);
		default:
			return bp_usage_error("export", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		return bp_usage_error("export", "too many arguments");
	if (!format)
		return bp_usage_error("export", "no format: give --format chrome");
	if (strcmp(format, "chrome"))
		return bp_usage_error("export", "unknown format '%s' (only 'chrome' is supported)",
				      format);
	if (!output)
		return bp_usage_error("export", "no output: give -o OUT.json (or -o - for stdout)");
	if (range.has_since && range.has_until && range.until_ns <= range.since_ns)
		return bp_usage_error("export", "--until is not after --since");
	o.file = optind < argc ? argv[optind] : bp_default_recording();
	if (!o.file)
		return bp_error_last();

	if (bp_timeline_open(&t, o.file, &range)) {
		bp_error("cannot export '%s': %s", o.file, bp_last_error());
		goto out;
	}
	/* Pass 1: processes and threads (named first), phases; pass 2 streams the spans. */
	m1 = bp_timeline_pass(&t, 0, NULL, NULL);
	if (!m1) {
		bp_error("cannot export '%s': %s", o.file, bp_last_error());
		goto out;
	}
	if (m1->totals.lost_events || m1->totals.lost_pages)
		bp_warn("'%s' lost events while recording: totals are lower bounds", o.file);
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
	bp_model_free(m2);
	bp_model_free(m1);
	bp_timeline_release(&t);
	return rc;
}
