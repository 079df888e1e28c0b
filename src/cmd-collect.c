// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "builtin.h"
#include "util/error.h"

const char cmd_collect_usage[] = "usage: bootprof collect\n";
const struct option cmd_collect_options[] = { { 0 } };

int cmd_collect(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_error("collect: not built yet");
}
