// SPDX-License-Identifier: GPL-2.0
/*
 * What a view is about: the traced command's tree by default, the window
 * the user named, and what to say when either selects nothing.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/focus.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/units.h"

int bp_focus_command(const struct bp_model *m, int all, struct bp_filter *f)
{
	int pid = m->header.command_pid;

	/* An explicit --pid or --comm replaces the default; --file narrows it. */
	if (all || f->pid || f->comm || pid <= 0 || !bp_model_find_process(m, pid))
		return 0;
	f->pid = pid;
	f->tree = 1;
	return pid;
}

int bp_focus_window_resolve(const struct bp_window_arg *a, uint64_t first_ns,
			    struct bp_window *w)
{
	const struct bp_instant *t[2] = { &a->since, &a->until };
	uint64_t *ns[2] = { &w->since_ns, &w->until_ns };
	int i;

	for (i = 0; i < 2; i++) {
		*ns[i] = 0;
		if (!t[i]->set)
			continue;
		if (t[i]->relative && t[i]->ns > UINT64_MAX - first_ns) {
			bp_set_error("a time after the recording's first event is past the end "
				     "of time");
			return -1;
		}
		*ns[i] = t[i]->ns + (t[i]->relative ? first_ns : 0);
	}
	if (a->until.set && w->until_ns <= w->since_ns) {
		bp_set_error("--until is not after --since");
		return -1;
	}
	return 0;
}

int bp_focus_window(struct bp_reader *r, const struct bp_window_arg *a, struct bp_window *w)
{
	uint64_t first = 0;

	if ((a->since.set && a->since.relative) || (a->until.set && a->until.relative)) {
		struct bp_event ev;
		int rc;

		if (bp_reader_rewind(r) < 0)
			return -1;
		rc = bp_reader_next(r, &ev);
		if (rc < 0)
			return -1;
		/* A recording without events: "+T" is T after nothing, i.e. nothing. */
		first = rc ? ev.ts : 0;
	}
	return bp_focus_window_resolve(a, first, w);
}

/* Decimals that tell @a from @b apart: 3 (ms), else 6 or 9. */
static int decimals(uint64_t a, uint64_t b)
{
	if (a == b || a / 1000000 != b / 1000000)
		return 3;
	return a / 1000 != b / 1000 ? 6 : 9;
}

/* Seconds on the recording clock with @d decimals (3, 6 or 9): "866.700". */
static char *fmt_at(char *buf, uint64_t ns, int d)
{
	uint64_t frac = ns % 1000000000u;

	snprintf(buf, BP_FMT_LEN, "%" PRIu64 ".%0*" PRIu64, ns / 1000000000u, d,
		 d == 3 ? frac / 1000000u : d == 6 ? frac / 1000u : frac);
	return buf;
}

/*
 * A window and the recording's span as text, with the same decimals:
 * enough to tell apart each bound of the window from each of the
 * recording. An open end of the window is the recording's.
 */
struct window_text {
	char since[BP_FMT_LEN], until[BP_FMT_LEN];
	char first[BP_FMT_LEN], last[BP_FMT_LEN];
};

static void window_text(struct window_text *t, const struct bp_window *w, uint64_t first,
			uint64_t last)
{
	uint64_t since = w->since_ns ? w->since_ns : first;
	uint64_t until = w->until_ns ? w->until_ns : last;
	int d = decimals(since, first), k;

	k = decimals(until, last);
	d = k > d ? k : d;
	k = decimals(since, last);
	d = k > d ? k : d;
	k = decimals(until, first);
	d = k > d ? k : d;
	fmt_at(t->since, since, d);
	fmt_at(t->until, until, d);
	fmt_at(t->first, first, d);
	fmt_at(t->last, last, d);
}

int bp_focus_window_check(const struct bp_model *m, const struct bp_window *w)
{
	const struct bp_model_header *h = &m->header;
	uint64_t first = h->first_event_ns, last = h->last_event_ns;
	struct window_text t;
	int before, after;

	if (m->totals.events || !bp_focus_windowed(w))
		return 0;
	if (!m->totals.events_total) {
		bp_set_error("the recording has no events");
		return -1;
	}
	window_text(&t, w, first, last);
	before = w->until_ns && w->until_ns < first;
	after = w->since_ns > last;
	/* An open end would print as the recording's, on the wrong side of the other. */
	if (before && !w->since_ns)
		bp_set_error("window until %s s is outside the recording (%s-%s s)", t.until,
			     t.first, t.last);
	else if (after && !w->until_ns)
		bp_set_error("window from %s s is outside the recording (%s-%s s)", t.since,
			     t.first, t.last);
	else
		bp_set_error("window %s-%s s %s the recording (%s-%s s)", t.since, t.until,
			     before || after ? "is outside" : "holds no event of", t.first, t.last);
	return -1;
}

const char *bp_focus_window_note(const struct bp_window *w, const struct bp_window *covered,
				 char *buf, size_t len)
{
	int early = w->since_ns && w->since_ns < covered->since_ns;
	int late = w->until_ns && w->until_ns > covered->until_ns;
	struct window_text t;

	if ((!early && !late) || (w->since_ns && w->since_ns > covered->until_ns) ||
	    (w->until_ns && w->until_ns < covered->since_ns))
		return NULL;
	window_text(&t, w, covered->since_ns, covered->until_ns);
	if (early && late)
		snprintf(buf, len, "window %s-%s s is wider than the recording (%s-%s s)", t.since,
			 t.until, t.first, t.last);
	else if (early)
		snprintf(buf, len,
			 "window %s-%s s starts before the recording's first event (%s s)",
			 t.since, t.until, t.first);
	else
		snprintf(buf, len, "window %s-%s s ends after the recording's last event (%s s)",
			 t.since, t.until, t.last);
	return buf;
}

/* pids a–b of the model's processes. */
static void pid_range(const struct bp_model *m, int *lo, int *hi)
{
	size_t i;

	*lo = INT_MAX;
	*hi = 0;
	for (i = 0; i < m->nprocesses; i++) {
		if (m->processes[i].pid < *lo)
			*lo = m->processes[i].pid;
		if (m->processes[i].pid > *hi)
			*hi = m->processes[i].pid;
	}
}

int bp_focus_check(const struct bp_model *m, const struct bp_filter *f, const struct bp_window *w)
{
	int windowed = bp_focus_windowed(w);
	struct bp_filter who;
	size_t i, n = 0;
	int lo, hi;

	if (bp_focus_window_check(m, w))
		return -1;
	if (!f || (!f->pid && !f->comm && !f->file))
		return 0;
	pid_range(m, &lo, &hi);
	if (f->pid && !bp_model_find_process(m, f->pid)) {
		if (m->nprocesses)
			bp_set_error("no process %d in the %s (pids %d\u2013%d)", f->pid,
				     windowed ? "window" : "recording", lo, hi);
		else
			bp_set_error("no process %d in the %s (it has none)", f->pid,
				     windowed ? "window" : "recording");
		return -1;
	}
	who = *f;
	who.file = NULL;
	for (i = 0; i < m->nprocesses && !n; i++)
		n += bp_process_matches(m, &m->processes[i], &who);
	if (!n) {
		bp_set_error("no process matching '%s' in the %s (%zu processes, pids %d\u2013%d)",
			     f->comm, windowed ? "window" : "recording", m->nprocesses, lo, hi);
		return -1;
	}
	for (i = 0, n = 0; f->file && i < m->nfiles && !n; i++)
		n += bp_file_matches(m, &m->files[i], f);
	if (f->file && !n) {
		for (i = 0; i < m->nfiles && !n; i++)
			n += !!strstr(m->files[i].path, f->file);
		if (n)
			bp_set_error("no file matching '%s' was touched by the selected processes",
				     f->file);
		else
			bp_set_error("no file matching '%s' in the %s (%zu files)", f->file,
				     windowed ? "window" : "recording", m->nfiles);
		return -1;
	}
	return 0;
}
