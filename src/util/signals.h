/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_SIGNALS_H
#define BP_UTIL_SIGNALS_H

#include <signal.h>

/*
 * SIGINT, SIGTERM and SIGHUP as requests to stop: the handler only sets
 * a flag, so a command unwinds on its one path (instances removed, the
 * terminal restored). Without SA_RESTART, a signal also ends a blocking
 * sleep, poll or getch() at once.
 */
#define BP_NSTOP_SIGNALS 3

struct bp_stop_signals {
	struct sigaction old[BP_NSTOP_SIGNALS];
};

/* The last stop signal received since bp_stop_signals_catch(), or 0. */
extern volatile sig_atomic_t bp_stop_signal;

/* Install the handlers, saving the old ones in @s; clears bp_stop_signal. */
void bp_stop_signals_catch(struct bp_stop_signals *s);
/* Put back the handlers saved in @s. */
void bp_stop_signals_restore(const struct bp_stop_signals *s);

/* "SIGINT", "SIGTERM" ... for sig; "signal N" when it has no name. Static storage. */
const char *bp_signal_name(int sig);

#endif
