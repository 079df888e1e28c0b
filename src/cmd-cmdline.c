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
#include "util/parse-options.h"

static const char *const cmdline_synopsis[] = {
	"bootprof cmdline [--kernel VERSION] [--arch ARCH] [--buffer-size KB] [--instance NAME]",
	NULL,
};

static const struct bp_usage cmdline_usage = {
	"cmdline",
	cmdline_synopsis,
	"Print the kernel command-line words that record the boot from before the\n"
	"first process: trace_instance=NAME,EVENTS on Linux 6.3 and later,\n"
	"trace_event=EVENTS (the top-level buffer) and trace_clock=boot before;\n"
	"both with trace_buf_size=, and schedstats=enable where the kernel has\n"
	"schedstats. Add them to the boot loader's command line, then\n"
	"run 'bootprof collect' after boot, or boot with init=bootprof-init;\n"
	"'bootprof boot --once' does it all for the next boot.\n",
	"Events a kernel lacks are left out, with a warning on stderr.\n",
	NULL,
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
	const char *kernel = NULL, *instance = BP_BOOT_INSTANCE, *arch_opt = NULL, *arch;
	int buffer_kb = DEFAULT_BUFFER_KB;
	char *available = NULL, *words, *missing = NULL;
	struct utsname uts;
	int c, version, live;
	const struct bp_option options[] = {
		OPT_STRING_C(0, "kernel", &kernel, "VERSION",
			     "for that kernel release (default: uname -r); the events\n"
			     "are then those known for that version, not the live list", "@kernel"),
		OPT_STRING_C(0, "arch", &arch_opt, "ARCH",
			     "the kernel's architecture (default: a Debian release's\n"
			     "flavour, else this machine's): syscalls it lacks are left out",
			     "x86_64 arm64 i386 arm riscv64"),
		OPT_INT(0, "buffer-size", &buffer_kb, "KB", "ring buffer per CPU (default 16384)", 4,
			4 * 1024 * 1024),
		OPT_STRING_C(0, "instance", &instance, "NAME",
			     "instance to create on 6.3+ (default bootprof)", "@instance"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &cmdline_usage, 0, &c);
	if (argc < 0)
		return c;
	if (argc > 0)
		return bp_usage_error("cmdline", "unexpected argument '%s'", argv[0]);
	if (!valid_instance(instance))
		return bp_usage_error("cmdline", "bad --instance '%s'", instance);

	if (uname(&uts) < 0)
		return bp_error("cannot get the kernel release: %s", strerror(errno));
	arch = bp_boot_arch(arch_opt);
	if (arch_opt && !arch)
		return bp_usage_error("cmdline", "unknown --arch '%s' (x86_64, arm64, i386, arm, riscv64)",
				      arch_opt);
	live = !kernel || !strcmp(kernel, uts.release);
	if (!kernel)
		kernel = uts.release;
	if (!arch)
		arch = bp_boot_release_arch(kernel);
	if (!arch)
		arch = bp_boot_arch(uts.machine);
	version = bp_kernel_version(kernel);
	if (version < 0)
		return bp_usage_error("cmdline", "bad --kernel '%s' (want MAJOR.MINOR...)", kernel);

	if (live) {
		available = bp_boot_available_events();
		if (!available)
			bp_warn("%s; using the events known for %s", bp_last_error(), kernel);
	}
	words = bp_boot_cmdline(version, instance, available, arch,
				bp_boot_kernel_schedstats(kernel, live), (size_t)buffer_kb, &missing);
	if (missing)
		bp_warn("not in %s: %s", kernel, missing);
	puts(words);
	free(words);
	free(missing);
	free(available);
	return 0;
}
