// SPDX-License-Identifier: GPL-2.0
/* The passes of a timeline view over a recording (see timeline.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/session.h"
#include "plugin/plugins.h"
#include "tracefile/meta.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "views/timeline.h"

int bp_timeline_open(struct bp_timeline *t, const char *file, const struct bp_timeline_range *range)
{
	const struct bp_meta *meta;
	struct bp_reader *r;
	struct bp_event ev;
	uint64_t first;
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
	/*
	 * Bounds known before any pass: the first event, and the recording's
	 * stop when it is on the events' clock: the recorder reads the boot
	 * clock, while a boot instance's events (trace_instance= on the kernel
	 * command line) use the local clock, which drifts from it (far, under
	 * emulation).
	 */
	t->window.since_ns = first;
	if (meta && meta->clock && !strcmp(meta->clock, "boot") && meta->stop_ns > first)
		t->window.until_ns = meta->stop_ns;
	if ((range->has_since &&
	     range->since_ns > UINT64_MAX - (range->since_first ? first : t->origin_ns)) ||
	    (range->has_until &&
	     range->until_ns > UINT64_MAX - (range->until_first ? first : t->origin_ns))) {
		bp_set_error("--since or --until is past the end of time");
		return -1;
	}
	if (range->has_since)
		t->window.since_ns = (range->since_first ? first : t->origin_ns) + range->since_ns;
	if (range->has_until)
		t->window.until_ns = (range->until_first ? first : t->origin_ns) + range->until_ns;
	t->plugins = bp_marks_plugins();
	bp_plugins_start(t->plugins, bp_reader_tep(r), meta ? meta->machine : NULL);
	bp_plugins_kallsyms(t->plugins, bp_reader_kallsyms(r));
	bp_plugins_window(t->plugins, t->window.since_ns, t->window.until_ns);
	return 0;
}

/* A pass over the window; a window without events is no timeline. */
static struct bp_model *build(struct bp_timeline *t, const struct bp_window *w,
			      const struct bp_build_hooks *hooks, size_t nhooks)
{
	struct bp_model *m = bp_session_build(t->session, w, hooks, nhooks);

	if (m && !m->totals.events) {
		bp_set_error("no event is inside the window");
		bp_model_free(m);
		return NULL;
	}
	return m;
}

int bp_timeline_resolve(struct bp_timeline *t)
{
	struct bp_model *m;

	if (t->window.until_ns)
		return 0;
	m = build(t, &t->window, NULL, 0);
	if (!m)
		return -1;
	t->window.since_ns = m->window.since_ns;
	t->window.until_ns = m->window.until_ns;
	bp_model_free(m);
	return 0;
}

struct bp_model *bp_timeline_pass(struct bp_timeline *t, uint64_t bucket_ns,
				  void (*span)(void *arg, const struct bp_span *span), void *arg)
{
	struct bp_build_hooks hooks[2];
	struct bp_window w = t->window;
	struct bp_model *m;
	size_t n = 0;
	int first = !t->plugins_fed;

	w.bucket_ns = bucket_ns;
	/* The plugins behind the phases and initcalls see the first pass only. */
	if (first)
		bp_plugins_hooks(t->plugins, &hooks[n++]);
	if (span)
		hooks[n++] = (struct bp_build_hooks){ .span = span, .arg = arg };
	m = build(t, &w, hooks, n);
	if (!m)
		return NULL;
	if (first) {
		t->plugins_fed = 1;
		t->window.since_ns = m->window.since_ns;
		t->window.until_ns = m->window.until_ns;
		bp_marks_collect(t->plugins, m, t->origin_ns, &t->marks);
	}
	return m;
}

void bp_timeline_release(struct bp_timeline *t)
{
	bp_marks_release(&t->marks);
	bp_plugins_free(t->plugins);
	bp_session_free(t->session);
	memset(t, 0, sizeof(*t));
}

/* "1.5" -> whole and fraction scaled by unit; -1 on junk or overflow. */
static int parse_scaled(const char *s, uint64_t unit, const char **rest, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, scale = 1;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > UINT64_MAX / 10 / unit)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale < 1000000000ull) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
		}
	}
	if (p == s)
		return -1;
	*rest = p;
	frac = (uint64_t)((double)frac / (double)scale * (double)unit + 0.5);
	if (whole > (UINT64_MAX - frac) / unit)
		return -1;
	*out = whole * unit + frac;
	return 0;
}

int bp_parse_ns(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		uint64_t unit;
	} units[] = { { "", 1000000000ull }, { "s", 1000000000ull }, { "ms", 1000000ull },
		      { "us", 1000ull }, { "ns", 1ull } };
	const char *end;
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!parse_scaled(s, units[i].unit, &end, ns) && !strcmp(end, units[i].suffix))
			return 0;
	}
	return -1;
}

int bp_parse_size(const char *s, uint64_t *bytes)
{
	static const char suffixes[] = "\0kKmMgG";
	const char *end;
	uint64_t unit = 1;
	size_t len = strlen(s);
	int i;

	if (!len)
		return -1;
	for (i = 1; i < 7; i++) {
		if (s[len - 1] == suffixes[i])
			unit = 1ull << (10 * ((i + 1) / 2));
	}
	if (parse_scaled(s, unit, &end, bytes))
		return -1;
	return (unit == 1 ? !*end : end == s + len - 1) ? 0 : -1;
}

int bp_timeline_opt_range(const struct bp_option *opt, const char *arg)
{
	struct bp_timeline_range *r = opt->value;
	int until = !strcmp(opt->long_name, "until");
	/* "+S": from the recording's first event, as report takes it. */
	int from_first = arg[0] == '+';

	if (bp_parse_ns(arg + from_first, until ? &r->until_ns : &r->since_ns))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	if (until) {
		r->has_until = 1;
		r->until_first = from_first;
	} else {
		r->has_since = 1;
		r->since_first = from_first;
	}
	return 0;
}

int bp_timeline_opt_ns(const struct bp_option *opt, const char *arg)
{
	if (bp_parse_ns(arg, opt->value))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	return 0;
}

int bp_timeline_opt_size(const struct bp_option *opt, const char *arg)
{
	if (bp_parse_size(arg, opt->value))
		return bp_option_fail("invalid --%s '%s'", opt->long_name, arg);
	return 0;
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
