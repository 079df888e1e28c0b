/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_BUILTIN_H
#define BP_BUILTIN_H

#include <getopt.h>

/*
 * Adding a command:
 *  1. src/cmd-NAME.c defining cmd_NAME(), cmd_NAME_usage[] and
 *     cmd_NAME_options[] (getopt_long table, { 0 }-terminated);
 *  2. a row in the command table in src/bootprof.c;
 *  3. nothing in the Makefile (it builds every src file);
 *  4. man/bootprof-NAME.1 (its SYNOPSIS options must match the usage);
 *  5. completions pick it up from `bootprof --list-cmds` and --list-opts;
 *  6. tests/shell/tNNNN-NAME.sh.
 *
 * A command returns its exit status (0 ok, 1 failure, 2 usage) and never
 * calls exit(), so tests can run it in-process. `bootprof CMD -h` and
 * `bootprof help CMD` print cmd_NAME_usage to stdout and exit 0 before the
 * command runs.
 */

#define BP_DECLARE_CMD(name)                                 \
	int cmd_##name(int argc, char **argv);               \
	extern const char cmd_##name##_usage[];              \
	extern const struct option cmd_##name##_options[]

BP_DECLARE_CMD(record);
BP_DECLARE_CMD(init);
BP_DECLARE_CMD(cmdline);
BP_DECLARE_CMD(collect);
BP_DECLARE_CMD(report);
BP_DECLARE_CMD(top);
BP_DECLARE_CMD(dump);
BP_DECLARE_CMD(readahead);
BP_DECLARE_CMD(replay);
BP_DECLARE_CMD(chart);
BP_DECLARE_CMD(export);
BP_DECLARE_CMD(diff);
BP_DECLARE_CMD(check);
BP_DECLARE_CMD(db);

#endif
