// SPDX-License-Identifier: GPL-2.0
/* A recording being read: its passes, their consumers and the checks (see session.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/session.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

void bp_warnings_release(struct bp_warnings *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->lines[i]);
	free(w->lines);
	w->lines = NULL;
	w->n = 0;
}

static void add_line(struct bp_warnings *w, char *line)
{
	w->lines = xrealloc(w->lines, (w->n + 1) * sizeof(*w->lines));
	w->lines[w->n++] = line;
}

struct bp_session *bp_session_open(const char *path)
{
	struct bp_session *s;
	struct bp_reader *r;

	r = bp_reader_open(path);
	if (!r)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->path = path;
	s->name = path;
	s->reader = r;
	return s;
}

void bp_session_free(struct bp_session *s)
{
	if (!s)
		return;
	bp_reader_free(s->reader);
	bp_warnings_release(&s->warnings);
	free(s);
}

int bp_session_window(struct bp_session *s, const struct bp_window_arg *a)
{
	if (bp_focus_window(s->reader, a, &s->window)) {
		bp_set_error("'%s': %s", s->path, bp_last_error());
		return -1;
	}
	return 0;
}

/* Several consumers of one pass behind the one bp_build_hooks a pass takes. */
struct fanout {
	const struct bp_build_hooks *hooks;
	size_t n;
};

static void fanout_event(void *arg, const struct bp_event *ev)
{
	const struct fanout *f = arg;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->hooks[i].event)
			f->hooks[i].event(f->hooks[i].arg, ev);
	}
}

static void fanout_span(void *arg, const struct bp_span *span)
{
	const struct fanout *f = arg;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->hooks[i].span)
			f->hooks[i].span(f->hooks[i].arg, span);
	}
}

/*
 * The hooks to give the pass: none, the only one as it is (no call in
 * between on every event), or the fan-out; a callback no consumer has is
 * left NULL, so the pass does not make spans nobody reads.
 */
static const struct bp_build_hooks *pass_hooks(const struct bp_build_hooks *hooks, size_t n,
					       struct fanout *f, struct bp_build_hooks *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n == 1)
		return hooks;
	f->hooks = hooks;
	f->n = n;
	for (i = 0; i < n; i++) {
		if (hooks[i].event)
			out->event = fanout_event;
		if (hooks[i].span)
			out->span = fanout_span;
		if (hooks[i].critical)
			out->critical = hooks[i].critical;   /* one pass keeps one log */
	}
	out->arg = f;
	return out->event || out->span || out->critical ? out : NULL;
}

/* After a pass: a corrupt recording is an error; what the reader said is kept. */
static int check_pass(struct bp_session *s)
{
	const struct bp_read_stats *st = bp_reader_stats(s->reader);
	const char *said, *p;
	size_t len;

	if (st->corrupt_pages) {
		bp_set_error("'%s' is corrupt: %llu ring-buffer pages are damaged or do not match the "
			     "event formats", s->path, (unsigned long long)st->corrupt_pages);
		return -1;
	}
	/* The reader only appends: take the lines added since the last pass. */
	said = bp_reader_warnings(s->reader);
	if (!said || strlen(said) <= s->reader_said)
		return 0;
	for (p = said + s->reader_said; *p; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		if (len)
			add_line(&s->warnings, xstrndup(p, len));
	}
	s->reader_said = strlen(said);
	return 0;
}

/*
 * After a pass, once: the window asked for misses the recording (an
 * error), or reaches past its first or last event (a warning). Only a
 * pass over a window can tell one without events from one with: a pass
 * over the whole recording (top's first) may only give the warning.
 */
static int check_window(struct bp_session *s, const struct bp_model *m, const struct bp_window *w)
{
	int over_window = bp_focus_windowed(w);
	char note[256];

	if (s->window_said || !bp_focus_windowed(&s->window))
		return 0;
	if (over_window && bp_focus_window_check(m, &s->window))
		return -1;
	if (bp_focus_window_note(&s->window, &m->window, note, sizeof(note)))
		add_line(&s->warnings, xstrdup(note));
	else if (!over_window)
		return 0;
	s->window_said = 1;
	return 0;
}

struct bp_model *bp_session_build(struct bp_session *s, const struct bp_window *w,
				  const struct bp_build_hooks *hooks, size_t nhooks)
{
	struct bp_build_hooks fan;
	struct fanout f;
	struct bp_model *m;

	m = bp_model_build(s->reader, w, pass_hooks(hooks, nhooks, &f, &fan));
	if (!m) {
		bp_set_error("cannot read '%s': %s", s->path, bp_last_error());
		return NULL;
	}
	if (check_pass(s) || check_window(s, m, w)) {
		bp_model_free(m);
		return NULL;
	}
	if (!s->lost_said && (m->totals.lost_events || m->totals.lost_pages)) {
		add_line(&s->warnings, xasprintf("'%s' lost events while recording: totals are "
						 "lower bounds", s->name));
		s->lost_said = 1;
	}
	return m;
}

int bp_session_read(struct bp_session *s, const struct bp_build_hooks *hooks, size_t nhooks)
{
	const struct bp_build_hooks *h;
	struct bp_build_hooks fan;
	struct bp_event ev;
	struct fanout f;
	int rc;

	h = pass_hooks(hooks, nhooks, &f, &fan);
	if (bp_reader_rewind(s->reader) < 0)
		goto fail;
	while ((rc = bp_reader_next(s->reader, &ev)) == 1) {
		if (h && h->event)
			h->event(h->arg, &ev);
	}
	if (rc < 0)
		goto fail;
	return check_pass(s);
fail:
	bp_set_error("cannot read '%s': %s", s->path, bp_last_error());
	return -1;
}
