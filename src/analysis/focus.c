// SPDX-License-Identifier: GPL-2.0
/*
 * What a view is about: the traced command's tree by default, the window
 * the user named, and what to say when either selects nothing.
 */
#include <limits.h>
#include <string.h>

#include "analysis/focus.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/parse-options.h"
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

int bp_focus_window(struct bp_reader *r, const struct bp_instant *since,
		    const struct bp_instant *until, struct bp_window *w)
{
	uint64_t first = 0;

	if ((since->set && since->relative) || (until->set && until->relative)) {
		struct bp_event ev;
		int rc;

		if (bp_reader_rewind(r) < 0)
			return -1;
		rc = bp_reader_next(r, &ev);
		if (rc < 0)
			return -1;
		/* A recording without events: "+S" is S after nothing, i.e. nothing. */
		first = rc ? ev.ts : 0;
	}
	if ((since->set && since->relative && since->ns > UINT64_MAX - first) ||
	    (until->set && until->relative && until->ns > UINT64_MAX - first)) {
		bp_set_error("a time after the recording's first event is past the end of time");
		return -1;
	}
	w->since_ns = since->set ? since->ns + (since->relative ? first : 0) : 0;
	w->until_ns = until->set ? until->ns + (until->relative ? first : 0) : 0;
	if (until->set && w->until_ns < w->since_ns) {
		bp_set_error("--until is before --since");
		return -1;
	}
	return 0;
}

/* --since S|+S, --until S|+S (struct bp_instant *value). */
int bp_focus_opt_instant(const struct bp_option *opt, const char *arg)
{
	struct bp_instant *t = opt->value;

	if (bp_parse_instant(arg, &t->ns, &t->relative))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	t->set = 1;
	return 0;
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

static int window_check(const struct bp_model *m)
{
	const struct bp_model_header *h = &m->header;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], d[BP_FMT_LEN];
	int outside;

	if (m->totals.events)
		return 0;
	if (!m->totals.events_total) {
		bp_set_error("the recording has no events");
		return -1;
	}
	bp_fmt_secs(a, m->window.since_ns);
	bp_fmt_secs(b, m->window.until_ns);
	bp_fmt_ts(c, h->first_event_ns);
	bp_fmt_ts(d, h->last_event_ns);
	outside = m->window.since_ns > h->last_event_ns || m->window.until_ns < h->first_event_ns;
	bp_set_error("window %s\u2013%s s %s the recording %s\u2013%s s", a, b,
		     outside ? "is outside" : "holds no event of", c, d);
	return -1;
}

int bp_focus_check(const struct bp_model *m, const struct bp_filter *f, int windowed)
{
	struct bp_filter who;
	size_t i, n = 0;
	int lo, hi;

	if (windowed && window_check(m))
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
