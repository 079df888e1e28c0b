// SPDX-License-Identifier: GPL-2.0
/* The passes of a timeline view over a recording (see timeline.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/critical.h"
#include "analysis/session.h"
#include "analysis/phases.h"
#include "tracefile/meta.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "views/timeline.h"

int bp_timeline_open(struct bp_timeline *t, const char *file, const struct bp_window_arg *range)
{
	const struct bp_window *asked;
	const struct bp_meta *meta;
	struct bp_reader *r;
	struct bp_event ev;
	uint64_t first, stop = 0;
	int rc;

	memset(t, 0, sizeof(*t));
	t->file = file;
	t->session = bp_session_open(file);
	if (!t->session)
		return -1;
	r = t->session->reader;
	meta = bp_reader_meta(r);
	/* The first event fixes 0 when the metadata has no start (trace-cmd files). */
	rc = bp_reader_next(r, &ev);
	if (rc < 0)
		return -1;
	first = rc ? ev.ts : 0;
	t->origin_ns = bp_timeline_origin(meta ? meta->clock : NULL, meta ? meta->start_ns : 0,
					  first);
	t->ncpus = meta && meta->ncpus > 0 ? meta->ncpus : 1;
	/* The window on the recording clock, checked by the session's first pass over it. */
	if (bp_session_window(t->session, range))
		return -1;
	asked = &t->session->window;
	/*
	 * Bounds known before any pass: the first event, and the recording's
	 * stop when it is on the events' clock: the recorder reads the boot
	 * clock, while a boot instance's events (trace_instance= on the kernel
	 * command line) use the local clock, which drifts from it (far, under
	 * emulation). A window that may reach past them waits for a pass.
	 */
	if (meta && meta->clock && !strcmp(meta->clock, "boot") && meta->stop_ns > first)
		stop = meta->stop_ns;
	t->window.since_ns = asked->since_ns > first ? asked->since_ns : first;
	t->window.until_ns = asked->until_ns ? asked->until_ns : stop;
	t->known = stop && t->window.until_ns <= stop && t->window.since_ns < stop;
	t->finder = bp_phase_finder_new(bp_reader_tep(r), NULL, 0);
	return 0;
}

/*
 * A pass over the window; a recording without events is no timeline (the
 * session says when the window asked for misses the recording).
 */
static struct bp_model *build(struct bp_timeline *t, const struct bp_window *w,
			      const struct bp_build_hooks *hooks, size_t nhooks)
{
	struct bp_model *m = bp_session_build(t->session, w, hooks, nhooks);

	if (m && !m->totals.events) {
		bp_set_error("the recording has no events");
		bp_model_free(m);
		return NULL;
	}
	return m;
}

int bp_timeline_resolve(struct bp_timeline *t)
{
	struct bp_model *m;

	if (t->known)
		return 0;
	m = build(t, &t->window, NULL, 0);
	if (!m)
		return -1;
	t->window.since_ns = m->window.since_ns;
	t->window.until_ns = m->window.until_ns;
	t->known = 1;
	bp_model_free(m);
	return 0;
}

struct bp_model *bp_timeline_pass(struct bp_timeline *t, uint64_t bucket_ns,
				  void (*span)(void *arg, const struct bp_span *span), void *arg)
{
	struct bp_build_hooks hooks[3];
	const struct bootprof_mark *given = NULL;
	struct bp_window w = t->window;
	struct bp_model *m;
	size_t n = 0, ngiven = 0;
	int first = !t->marks_fed;

	w.bucket_ns = bucket_ns;
	/* The phases and the source's marks come from the first pass only. */
	if (first) {
		hooks[n++] = (struct bp_build_hooks){ .event = bp_phase_finder_event,
						      .arg = t->finder };
		if (t->source.marks)
			hooks[n++] = t->source.hooks;
	}
	if (span || t->critical)
		hooks[n++] = (struct bp_build_hooks){ .span = span, .arg = arg,
						      .critical = t->critical };
	m = build(t, &w, hooks, n);
	if (!m)
		return NULL;
	if (first) {
		t->marks_fed = 1;
		t->window.since_ns = m->window.since_ns;
		t->window.until_ns = m->window.until_ns;
		t->known = 1;
		if (t->source.marks)
			ngiven = t->source.marks(t->source.arg, m, &given);
		t->nends = bp_marks_ends(given, ngiven, t->source.by, t->source.arg, &t->ends);
		bp_marks_collect(t->finder, given, ngiven, m, t->origin_ns, &t->marks);
	}
	return m;
}

struct bp_critical_path *bp_timeline_critical(const struct bp_timeline *t,
					      const struct bp_model *m)
{
	struct bp_crit_end end = { .kind = BP_CRIT_END_DEFAULT, .marks = t->ends,
				   .nmarks = t->nends };

	if (!t->critical || !m) {
		bp_set_error("no critical path recorded in the pass");
		return NULL;
	}
	if (m->missing & BP_MISSING_SCHED) {
		bp_set_error("no sched_switch events: no path to walk");
		return NULL;
	}
	return bp_critical_walk(t->critical, m, &end);
}

void bp_timeline_release(struct bp_timeline *t)
{
	bp_marks_release(&t->marks);
	free(t->ends);
	bp_phase_finder_free(t->finder);
	if (t->source.release)
		t->source.release(t->source.arg);
	bp_session_free(t->session);
	memset(t, 0, sizeof(*t));
}

/*
 * The output stream: stdout for "-", else a new file (0644: a picture to
 * share, unlike the recording), never through a symbolic link.
 */
FILE *bp_output_open(const char *path, int force)
{
	int fd;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (force ? O_TRUNC : O_EXCL),
		  0644);
	if (fd < 0) {
		bp_set_error_errno("cannot create '%s'%s", path,
				   errno == EEXIST ? " (use --force to overwrite)" : "");
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		bp_set_error_errno("cannot open '%s'", path);
		close(fd);
	}
	return f;
}

int bp_output_close(FILE *f, const char *path, int failed)
{
	if (f == stdout)
		return failed ? -1 : 0;
	if (fclose(f) && !failed) {
		bp_set_error_errno("cannot write '%s'", path);
		failed = 1;
	}
	if (failed)
		unlink(path);
	return failed ? -1 : 0;
}
