// SPDX-License-Identifier: GPL-2.0
#include "builtin.h"
#include "util/error.h"

const char cmd_export_usage[] = "usage: bootprof export --format chrome [FILE] -o OUT.json\n";
const struct option cmd_export_options[] = { { 0 } };

int cmd_export(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return bp_usage_error("export", "not yet");
}
