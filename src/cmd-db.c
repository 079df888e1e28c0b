// SPDX-License-Identifier: GPL-2.0
#include "builtin.h"
const char cmd_db_usage[] = "usage: bootprof db --budget FILE [FILE]\n";
const struct option cmd_db_options[] = { { 0 } };
int cmd_db(int argc, char **argv) { (void)argc; (void)argv; return 1; }
