// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof collect: drain the trace buffer the kernel filled from early
 * boot (trace_instance=bootprof,... or trace_event=...) into a recording.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "capture/boot.h"
#include "util/error.h"
#include "util/signals.h"
#include "util/parse-options.h"
#include "util/units.h"

static const char *const collect_synopsis[] = {
	"bootprof collect [-o FILE] [--force] [--instance NAME] [--keep]",
	"                 [--duration T] [--until-exec NAME] [--until-file PATH]",
	NULL,
};

static const struct bp_usage collect_usage = {
	"collect",
	collect_synopsis,
	"Drain the trace buffer the kernel filled since boot (the words 'bootprof\n"
	"cmdline' prints) into a recording: the instance 'bootprof' (Linux 6.3+,\n"
	"trace_instance=), else the top-level buffer (trace_event=). Nothing is\n"
	"created. With a stop condition, recording goes on live until it is met.\n"
	"The instance is removed afterwards (the top-level events disabled).\n",
	"Events overwritten before collect ran (the buffer was too small) are counted\n"
	"and reported; boot with a larger trace_buf_size= to keep them.\n",
	NULL,
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
	char path[256];
	int c, ret, fd, dflt = 0;
	uint64_t duration = 0;
	const struct bp_option options[] = {
		OPT_STRING_C('o', "output", &r.output, "FILE",
			     "the recording (default /var/log/bootprof/\n"
			     "boot-YYYYMMDD-HHMMSS.dat, with a latest.dat link)", "@file"),
		OPT_FLAG('f', "force", &r.force, "replace an existing FILE"),
		OPT_STRING_C(0, "instance", &r.instance, "NAME",
			     "the boot-time instance (default bootprof)", "@instance"),
		OPT_FLAG(0, "keep", &r.keep, "leave the buffer tracing, do not remove it"),
		OPT_TIME_RANGE(0, "duration", &duration, "T",
			       "go on recording for T (seconds, or 90s, 5min)", 1,
			       10000000 * BP_NS_PER_S),
		OPT_STRING_C(0, "until-exec", &r.until_exec, "NAME",
			     "go on until a program named NAME is exec'd", "@command"),
		OPT_STRING_C(0, "until-file", &r.until_file, "PATH", "go on until PATH exists",
			     "@file"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &collect_usage, 0, &c);
	if (argc < 0)
		return c;
	if (argc > 0)
		return bp_usage_error("collect", "unexpected argument '%s'", argv[0]);
	if (r.output && !*r.output)
		return bp_usage_error("collect", "empty output file name");
	if (r.instance && (!*r.instance || strchr(r.instance, '/')))
		return bp_usage_error("collect", "bad instance name '%s'", r.instance);
	r.duration = (double)duration / 1e9;
	if (r.until_exec && !*r.until_exec)
		return bp_usage_error("collect", "empty --until-exec name");
	if (r.until_file && !*r.until_file)
		return bp_usage_error("collect", "empty --until-file path");
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
