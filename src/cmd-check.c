// SPDX-License-Identifier: GPL-2.0
#include "builtin.h"
const char cmd_check_usage[] = "usage: bootprof check --budget FILE [FILE]\n";
const struct option cmd_check_options[] = { { 0 } };
int cmd_check(int argc, char **argv) { (void)argc; (void)argv; return 1; }
