// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof collect: drain the trace buffer the kernel filled from early
 * boot (trace_instance=bootprof,... or trace_event=...) into a recording.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "capture/boot.h"
#include "util/error.h"
#include "util/signals.h"

const char cmd_collect_usage[] =
	"usage: bootprof collect [-o FILE] [--force] [--instance NAME] [--keep]\n"
	"                        [--duration S] [--until-exec NAME] [--until-file PATH]\n"
	"\n"
	"Drain the trace buffer the kernel filled since boot (the words 'bootprof\n"
	"cmdline' prints) into a recording: the instance 'bootprof' (Linux 6.3+,\n"
	"trace_instance=), else the top-level buffer (trace_event=). Nothing is\n"
	"created. With a stop condition, recording goes on live until it is met.\n"
	"The instance is removed afterwards (the top-level events disabled).\n"
	"\n"
	"  -o, --output FILE      the recording (default /var/log/bootprof/\n"
	"                         boot-YYYYMMDD-HHMMSS.dat, with a latest.dat link)\n"
	"  -f, --force            replace an existing FILE\n"
	"      --instance NAME    the boot-time instance (default bootprof)\n"
	"      --keep             leave the buffer tracing, do not remove it\n"
	"      --duration S       go on recording for S seconds\n"
	"      --until-exec NAME  go on until a program named NAME is exec'd\n"
	"      --until-file PATH  go on until PATH exists\n"
	"\n"
	"Events overwritten before collect ran (the buffer was too small) are counted\n"
	"and reported; boot with a larger trace_buf_size= to keep them.\n";

enum { OPT_UNTIL_EXEC = 256, OPT_UNTIL_FILE };

const struct option cmd_collect_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "instance", required_argument, NULL, 'i' },
	{ "keep", no_argument, NULL, 'k' },
	{ "duration", required_argument, NULL, 'd' },
	{ "until-exec", required_argument, NULL, OPT_UNTIL_EXEC },
	{ "until-file", required_argument, NULL, OPT_UNTIL_FILE },
	{ 0 },
};

static void print_warning(void *arg, const char *msg)
{
	size_t n = strlen(msg);

	(void)arg;
	fprintf(stderr, "bootprof: warning: %.*s\n", (int)(n && msg[n - 1] == '\n' ? n - 1 : n),
		msg);
}

int cmd_collect(int argc, char **argv)
{
	struct bp_boot_run r = { 0 };
	struct bp_stop_signals old;
	char *end, path[256];
	int c, ret, fd, dflt = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:f", cmd_collect_options, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg)
				return bp_usage_error("collect", "empty output file name");
			r.output = optarg;
			break;
		case 'f':
			r.force = 1;
			break;
		case 'i':
			if (!*optarg || strchr(optarg, '/'))
				return bp_usage_error("collect", "bad instance name '%s'", optarg);
			r.instance = optarg;
			break;
		case 'k':
			r.keep = 1;
			break;
		case 'd':
			errno = 0;
			r.duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(r.duration > 0) || r.duration > 1e7)
				return bp_usage_error("collect", "bad duration '%s'", optarg);
			break;
		case OPT_UNTIL_EXEC:
			if (!*optarg)
				return bp_usage_error("collect", "empty --until-exec name");
			r.until_exec = optarg;
			break;
		case OPT_UNTIL_FILE:
			if (!*optarg)
				return bp_usage_error("collect", "empty --until-file path");
			r.until_file = optarg;
			break;
		case ':':
			return bp_usage_error("collect", "option '%s' needs a value",
					      argv[optind - 1]);
		default:
			return bp_usage_error("collect", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bp_usage_error("collect", "unexpected argument '%s'", argv[optind]);
	if (geteuid() != 0)
		return bp_error("collect needs root (tracefs)");

	bp_stop_signals_catch(&old);
	r.stop_signal = &bp_stop_signal;
	r.warn = print_warning;

	if (!r.output) {
		/* The default name: made here, then handed to the writer to replace. */
		fd = bp_boot_log_create(path, sizeof(path));
		if (fd < 0) {
			bp_stop_signals_restore(&old);
			return bp_error("%s", bp_last_error());
		}
		close(fd);
		r.output = path;
		r.force = 1;
		dflt = 1;
	}
	ret = bp_boot_record(&r);
	if (ret < 0 && dflt)
		unlink(path);
	if (!ret && dflt && bp_boot_log_link_latest(path) < 0)
		bp_warn("%s", bp_last_error());
	bp_stop_signals_restore(&old);
	if (ret < 0) {
		bp_error("%s", bp_last_error());
		bp_boot_run_release(&r);
		return BP_EXIT_FAILURE;
	}
	fprintf(stderr, "bootprof: wrote '%s' from the %s (%.1f MB of events, stopped: %s)\n",
		r.output, r.buffer, (double)r.bytes / (1024.0 * 1024.0), r.stop_reason);
	if (r.lost)
		bp_warn("%llu events lost: the oldest were overwritten before collect ran "
			"(boot with a larger trace_buf_size=)",
			(unsigned long long)r.lost);
	bp_boot_run_release(&r);
	return 0;
}
