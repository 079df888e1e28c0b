// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "builtin.h"
#include "util/error.h"

const char cmd_record_usage[] = "usage: bootprof record\n";
const struct option cmd_record_options[] = { { 0 } };

int cmd_record(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_error("record: not built yet");
}
