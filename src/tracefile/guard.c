// SPDX-License-Identifier: GPL-2.0
/*
 * SIGBUS around reads of mapped recordings (see guard.h). Each guarded call
 * pushes a frame (its range and a sigjmp_buf) on a per-thread stack; the
 * handler jumps back to the innermost frame whose range holds the faulting
 * address. The handler is installed once per process and chains to the
 * one it replaced (a sanitizer's, or the default) for every other SIGBUS.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "tracefile/guard.h"

struct frame {
	sigjmp_buf env;
	const char *lo, *hi;
	struct frame *prev;
};

/* volatile: the handler reads it, and memcpy() would let the compiler drop the stores. */
static __thread struct frame *volatile top;
static struct sigaction old_action;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	const char *addr = si ? si->si_addr : NULL;
	struct frame *f;

	for (f = top; f; f = f->prev) {
		if (addr >= f->lo && addr < f->hi) {
			top = f->prev;
			siglongjmp(f->env, 1);
		}
	}
	/* Not a guarded read: whoever handled SIGBUS before us. */
	if ((old_action.sa_flags & SA_SIGINFO) && old_action.sa_sigaction) {
		old_action.sa_sigaction(sig, si, uc);
		return;
	}
	if (old_action.sa_handler != SIG_DFL && old_action.sa_handler != SIG_IGN) {
		old_action.sa_handler(sig);
		return;
	}
	/* The default action (also for a SIGBUS sent by kill, which returning would ignore). */
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old_action);
}

int bp_guard_run(const void *lo, uint64_t len, int (*fn)(void *arg), void *arg, int *ret)
{
	struct frame f;

	pthread_once(&once, install);
	f.lo = lo;
	/* An empty file is mapped nowhere: NULL + 0 is not valid C. */
	f.hi = lo ? (const char *)lo + len : NULL;
	f.prev = top;
	if (sigsetjmp(f.env, 0))
		return -1;
	top = &f;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	*ret = fn(arg);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	top = f.prev;
	return 0;
}

struct copy {
	void *dst;
	const void *src;
	size_t n;
};

static int do_copy(void *arg)
{
	struct copy *c = arg;

	memcpy(c->dst, c->src, c->n);
	return 0;
}

int bp_guard_copy(void *dst, const void *src, size_t n)
{
	struct copy c = { dst, src, n };
	int unused;

	return bp_guard_run(src, n, do_copy, &c, &unused);
}
