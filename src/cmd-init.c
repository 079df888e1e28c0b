// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "builtin.h"
#include "util/error.h"

const char cmd_init_usage[] = "usage: bootprof init\n";
const struct option cmd_init_options[] = { { 0 } };

int cmd_init(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_error("init: not built yet");
}
