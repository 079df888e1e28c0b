// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof chart [FILE] -o boot.svg: the bootchart of a recording, one
 * self-contained SVG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model.h"
#include "builtin.h"
#include "util/default-file.h"
#include "util/error.h"
#include "views/svg.h"
#include "views/timeline.h"


const char cmd_chart_usage[] =
	"usage: bootprof chart [options] [FILE] -o OUT.svg\n"
	"\n"
	"Draw the bootchart of a recording as one self-contained SVG: CPU and disk,\n"
	"one lane per process (running, I/O wait, other uninterruptible sleep,\n"
	"sleeping), services, initcalls and the boot's phases. FILE defaults to\n"
	BP_LATEST_RECORDING ", else ./" BP_LOCAL_RECORDING ".\n"
	"\n"
	"  -o, --output FILE    the SVG ('-' for stdout); required\n"
	"      --since T        start of the chart, from its 0 (kernel start for a boot\n"
	"                       recording, else the recording's start): 2, 1.5s, 300ms\n"
	"      --until T        end of the chart, from its 0\n"
	"      --min-wait T     fold processes with less I/O wait into one \"others\" lane\n"
	"      --min-bytes N    fold processes that read less (4096, 64k, 1M) likewise\n"
	"      --all            every process of a `record -- CMD` recording, not only\n"
	"                       CMD's process tree (the default)\n"
	"      --force          overwrite OUT\n"
	"  -h, --help           this text\n";

const struct option cmd_chart_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "since", required_argument, NULL, 'S' },
	{ "until", required_argument, NULL, 'U' },
	{ "min-wait", required_argument, NULL, 'W' },
	{ "min-bytes", required_argument, NULL, 'B' },
	{ "all", no_argument, NULL, 'A' },
	{ "force", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

int cmd_chart(int argc, char **argv)
{
	struct bp_timeline_range range = { 0 };
	struct bp_chart_opts o = { 0 };
	struct bp_timeline t = { 0 };
	struct bp_chart *chart = NULL;
	struct bp_model *m = NULL;
	const char *output = NULL;
	int c, force = 0, rc = BP_EXIT_FAILURE;
	FILE *out;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", cmd_chart_options, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'S':
			if (bp_parse_ns(optarg, &range.since_ns))
				return bp_usage_error("chart", "invalid --since '%s'", optarg);
			range.has_since = 1;
			break;
		case 'U':
			if (bp_parse_ns(optarg, &range.until_ns))
				return bp_usage_error("chart", "invalid --until '%s'", optarg);
			range.has_until = 1;
			break;
		case 'W':
			if (bp_parse_ns(optarg, &o.min_wait_ns))
				return bp_usage_error("chart", "invalid --min-wait '%s'", optarg);
			break;
		case 'B':
			if (bp_parse_size(optarg, &o.min_bytes))
				return bp_usage_error("chart", "invalid --min-bytes '%s'", optarg);
			break;
		case 'A':
			o.all = 1;
			break;
		case 'F':
			force = 1;
			break;
		case 'h':
			fputs(cmd_chart_usage, stdout);
			return 0;
		case ':':
			return bp_usage_error("chart", "option '%s' needs a value", argv[optind - 1]);
		default:
			return bp_usage_error("chart", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		return bp_usage_error("chart", "too many arguments");
	if (!output)
		return bp_usage_error("chart", "no output: give -o OUT.svg (or -o - for stdout)");
	if (range.has_since && range.has_until && range.until_ns <= range.since_ns)
		return bp_usage_error("chart", "--until is not after --since");
	o.file = optind < argc ? argv[optind] : bp_default_recording();
	if (!o.file)
		return bp_error_last();

	if (bp_timeline_open(&t, o.file, &range) || bp_timeline_resolve(&t)) {
		bp_error("cannot chart '%s': %s", o.file, bp_last_error());
		goto out;
	}
	o.origin_ns = t.origin_ns;
	o.marks = &t.marks;
	chart = bp_chart_new(&t.window, t.ncpus, &o);
	m = bp_timeline_pass(&t, bp_chart_bucket_ns(&t.window), bp_chart_span, chart);
	if (!m) {
		bp_error("cannot chart '%s': %s", o.file, bp_last_error());
		goto out;
	}
	if (m->totals.lost_events || m->totals.lost_pages)
		bp_warn("'%s' lost events while recording: totals are lower bounds", o.file);
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
	rc = 0;
out:
	bp_chart_free(chart);
	bp_model_free(m);
	bp_timeline_release(&t);
	return rc;
}
