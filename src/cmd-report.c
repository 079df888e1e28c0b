// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "builtin.h"
#include "util/error.h"

const char cmd_report_usage[] = "usage: bootprof report\n";
const struct option cmd_report_options[] = { { 0 } };

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_error("report: not built yet");
}
