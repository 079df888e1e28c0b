// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "builtin.h"
#include "util/error.h"

const char cmd_top_usage[] = "usage: bootprof top\n";
const struct option cmd_top_options[] = { { 0 } };

int cmd_top(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_error("top: not built yet");
}
