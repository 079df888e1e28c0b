// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "util/signals.h"

volatile sig_atomic_t bp_stop_signal;

static const int stop_signals[BP_NSTOP_SIGNALS] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop_signal(int sig)
{
	bp_stop_signal = sig;
}

void bp_stop_signals_catch(struct bp_stop_signals *s)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	bp_stop_signal = 0;
	for (i = 0; i < BP_NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, &s->old[i]);
}

void bp_stop_signals_restore(const struct bp_stop_signals *s)
{
	int i;

	for (i = 0; i < BP_NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &s->old[i], NULL);
}

const char *bp_signal_name(int sig)
{
	static __thread char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}
