// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "builtin.h"
#include "util/error.h"

const char cmd_dump_usage[] = "usage: bootprof dump\n";
const struct option cmd_dump_options[] = { { 0 } };

int cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_error("dump: not built yet");
}
