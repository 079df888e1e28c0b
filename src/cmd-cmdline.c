// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof cmdline: print the kernel command-line words that start tracing
 * before the first process, for this kernel (or --kernel VERSION).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "builtin.h"
#include "capture/boot.h"
#include "util/error.h"

const char cmd_cmdline_usage[] =
	"usage: bootprof cmdline [--kernel VERSION] [--buffer-size KB] [--instance NAME]\n"
	"\n"
	"Print the kernel command-line words that record the boot from before the\n"
	"first process: trace_instance=NAME,EVENTS on Linux 6.3 and later,\n"
	"trace_event=EVENTS (the top-level buffer) and trace_clock=boot before;\n"
	"both with trace_buf_size=. Add them to the boot loader's command line, then\n"
	"run 'bootprof collect' after boot, or boot with init=bootprof.\n"
	"\n"
	"    --kernel VERSION     for that kernel release (default: uname -r); the events\n"
	"                         are then those known for that version, not the live list\n"
	"    --buffer-size KB     ring buffer per CPU (default 16384)\n"
	"    --instance NAME      instance to create on 6.3+ (default bootprof)\n"
	"\n"
	"Events a kernel lacks are left out, with a warning on stderr.\n";

const struct option cmd_cmdline_options[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "instance", required_argument, NULL, 'i' },
	{ 0 },
};

#define DEFAULT_BUFFER_KB 16384

static int valid_instance(const char *name)
{
	const char *p;

	if (!*name || strlen(name) > 64)
		return 0;
	for (p = name; *p; p++) {
		if (!(*p == '-' || *p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	}
	return 1;
}

int cmd_cmdline(int argc, char **argv)
{
	const char *kernel = NULL, *instance = BP_BOOT_INSTANCE;
	unsigned long long buffer_kb = DEFAULT_BUFFER_KB;
	char *available = NULL, *words, *missing = NULL, *end;
	struct utsname uts;
	int c, version, live;

	optind = 1;
	while ((c = getopt_long(argc, argv, "k:b:i:", cmd_cmdline_options, NULL)) != -1) {
		switch (c) {
		case 'k':
			kernel = optarg;
			break;
		case 'b':
			errno = 0;
			buffer_kb = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || buffer_kb < 4 ||
			    buffer_kb > 4ULL * 1024 * 1024)
				return bp_usage_error("cmdline", "bad --buffer-size '%s'", optarg);
			break;
		case 'i':
			if (!valid_instance(optarg))
				return bp_usage_error("cmdline", "bad --instance '%s'", optarg);
			instance = optarg;
			break;
		default:
			return bp_usage_error("cmdline", "unknown option");
		}
	}
	if (optind < argc)
		return bp_usage_error("cmdline", "unexpected argument '%s'", argv[optind]);

	if (uname(&uts) < 0)
		return bp_error("cannot get the kernel release: %s", strerror(errno));
	live = !kernel || !strcmp(kernel, uts.release);
	if (!kernel)
		kernel = uts.release;
	version = bp_kernel_version(kernel);
	if (version < 0)
		return bp_usage_error("cmdline", "bad --kernel '%s' (want MAJOR.MINOR...)", kernel);

	if (live) {
		available = bp_boot_available_events();
		if (!available)
			bp_warn("%s; using the events known for %s", bp_last_error(), kernel);
	}
	words = bp_boot_cmdline(version, instance, available, buffer_kb, &missing);
	if (missing)
		bp_warn("not in %s: %s", kernel, missing);
	puts(words);
	free(words);
	free(missing);
	free(available);
	return 0;
}
