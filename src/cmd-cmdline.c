// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "builtin.h"
#include "util/error.h"

const char cmd_cmdline_usage[] = "usage: bootprof cmdline\n";
const struct option cmd_cmdline_options[] = { { 0 } };

int cmd_cmdline(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_error("cmdline: not built yet");
}
