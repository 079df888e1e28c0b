// SPDX-License-Identifier: GPL-2.0
/* The two passes of a timeline view over a recording (see timeline.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/focus.h"
#include "plugin/plugins.h"
#include "tracefile/meta.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "views/timeline.h"

int bp_timeline_open(struct bp_timeline *t, const char *file, const struct bp_window_arg *range)
{
	const struct bp_meta *meta;
	struct bp_event ev;
	uint64_t first, stop = 0;
	int rc;

	memset(t, 0, sizeof(*t));
	t->file = file;
	t->reader = bp_reader_open(file);
	if (!t->reader)
		return -1;
	meta = bp_reader_meta(t->reader);
	/* The first event fixes 0 when the metadata has no start (trace-cmd files). */
	rc = bp_reader_next(t->reader, &ev);
	if (rc < 0)
		return -1;
	first = rc ? ev.ts : 0;
	t->origin_ns = bp_timeline_origin(meta ? meta->clock : NULL, meta ? meta->start_ns : 0,
					  first);
	t->ncpus = meta && meta->ncpus > 0 ? meta->ncpus : 1;
	if (bp_focus_window_resolve(range, first, &t->asked))
		return -1;
	/*
	 * Bounds known before any pass: the first event, and the recording's
	 * stop when it is on the events' clock: the recorder reads the boot
	 * clock, while a boot instance's events (trace_instance= on the kernel
	 * command line) use the local clock, which drifts from it (far, under
	 * emulation). A window that may reach past them waits for a pass.
	 */
	if (meta && meta->clock && !strcmp(meta->clock, "boot") && meta->stop_ns > first)
		stop = meta->stop_ns;
	t->window.since_ns = t->asked.since_ns > first ? t->asked.since_ns : first;
	t->window.until_ns = t->asked.until_ns ? t->asked.until_ns : stop;
	t->known = stop && t->window.until_ns <= stop && t->window.since_ns < stop;
	t->plugins = bp_marks_plugins();
	bp_plugins_start(t->plugins, bp_reader_tep(t->reader), meta ? meta->machine : NULL);
	bp_plugins_kallsyms(t->plugins, bp_reader_kallsyms(t->reader));
	bp_plugins_window(t->plugins, t->window.since_ns, t->window.until_ns);
	return 0;
}

/* The checks every pass makes: the file is sound and the window holds events. */
static int check_model(const struct bp_timeline *t, const struct bp_model *m)
{
	if (bp_reader_stats(t->reader)->corrupt_pages) {
		bp_set_error("'%s' is corrupt: %llu ring-buffer pages are damaged or do not match the "
			     "event formats", t->file,
			     (unsigned long long)bp_reader_stats(t->reader)->corrupt_pages);
		return -1;
	}
	if (bp_focus_window_check(m, &t->asked))
		return -1;
	if (!m->totals.events) {
		bp_set_error("the recording has no events");
		return -1;
	}
	return 0;
}

int bp_timeline_resolve(struct bp_timeline *t)
{
	struct bp_model *m;

	if (t->known)
		return 0;
	m = bp_model_build(t->reader, &t->window, NULL);
	if (!m)
		return -1;
	if (check_model(t, m)) {
		bp_model_free(m);
		return -1;
	}
	t->window.since_ns = m->window.since_ns;
	t->window.until_ns = m->window.until_ns;
	t->known = 1;
	bp_model_free(m);
	return 0;
}

/* The plugins' event hook and a view's span hook in one bp_build_hooks. */
struct relay {
	struct bp_build_hooks plugins;
	void (*span)(void *arg, const struct bp_span *span);
	void *arg;
};

static void relay_event(void *arg, const struct bp_event *ev)
{
	const struct relay *r = arg;

	if (r->plugins.event)
		r->plugins.event(r->plugins.arg, ev);
}

static void relay_span(void *arg, const struct bp_span *span)
{
	const struct relay *r = arg;

	if (r->plugins.span)
		r->plugins.span(r->plugins.arg, span);
	if (r->span)
		r->span(r->arg, span);
}

struct bp_model *bp_timeline_pass(struct bp_timeline *t, uint64_t bucket_ns,
				  void (*span)(void *arg, const struct bp_span *span), void *arg)
{
	struct bp_build_hooks hooks = { 0 };
	struct bp_window w = t->window;
	struct relay r = { .span = span, .arg = arg };
	struct bp_model *m;
	int first = !t->plugins_fed;

	w.bucket_ns = bucket_ns;
	if (first)
		bp_plugins_hooks(t->plugins, &r.plugins);
	hooks.event = first ? relay_event : NULL;
	hooks.span = span || r.plugins.span ? relay_span : NULL;
	hooks.arg = &r;
	m = bp_model_build(t->reader, &w, &hooks);
	if (!m)
		return NULL;
	if (check_model(t, m)) {
		bp_model_free(m);
		return NULL;
	}
	if (first) {
		t->plugins_fed = 1;
		t->window.since_ns = m->window.since_ns;
		t->window.until_ns = m->window.until_ns;
		t->known = 1;
		bp_marks_collect(t->plugins, m, t->origin_ns, &t->marks);
	}
	return m;
}

void bp_timeline_release(struct bp_timeline *t)
{
	bp_marks_release(&t->marks);
	bp_plugins_free(t->plugins);
	bp_reader_free(t->reader);
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
