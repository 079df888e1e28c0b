// SPDX-License-Identifier: GPL-2.0
/* What the commands share beyond their option tables (see builtin.h). */
#include <stdlib.h>

#include "analysis/critical.h"
#include "analysis/session.h"
#include "builtin.h"
#include "plugin/plugins.h"
#include "tracefile/meta.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/printable.h"
#include "views/marks.h"
#include "views/timeline.h"

void bp_warnings_print(struct bp_warnings *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		/* The recording's own words among them (a path, a format's name): shown printable. */
		char *line = bp_printable_dup(w->lines[i]);

		bp_warn("%s", line);
		free(line);
	}
	bp_warnings_release(w);
}

int bp_opt_crit_end(const struct bp_option *opt, const char *arg)
{
	if (bp_crit_end_parse(arg, opt->value))
		return bp_option_fail("%s", bp_last_error());
	return 0;
}

/* ---- the timelines' plugins: where views meet plugins ---- */

static size_t plugin_marks(void *arg, const struct bp_model *m, const struct bootprof_mark **out)
{
	bp_plugins_finish(arg, m, NULL);
	return bp_plugins_marks(arg, out);
}

static const char *plugin_mark_by(const void *arg, size_t i)
{
	return bp_plugins_mark_by(arg, i);
}

size_t bp_plugin_ends(const struct bp_plugin_set *set, struct bp_crit_mark **out)
{
	const struct bootprof_mark *given = NULL;
	size_t n = set ? bp_plugins_marks(set, &given) : 0;

	return bp_marks_ends(given, n, plugin_mark_by, set, out);
}

static void plugin_release(void *arg)
{
	bp_plugins_free(arg);
}

void bp_timeline_plugins(struct bp_timeline *t)
{
	const char *dirs[2];
	struct bp_plugin_opts o = { .dirs = dirs, .ndirs = bp_plugin_dirs(dirs) };
	struct bp_plugin_set *set = bp_plugins_load(&o);
	struct bp_reader *r = t->session->reader;
	const struct bp_meta *meta = bp_reader_meta(r);

	/* Every plugin the report would run: any may give marks (initcalls, boot milestones). */
	if (!set)
		return;
	bp_plugins_start(set, bp_reader_tep(r), meta ? meta->machine : NULL);
	bp_plugins_kallsyms(set, bp_reader_kallsyms(r));
	bp_plugins_window(set, t->window.since_ns, t->window.until_ns);
	bp_plugins_hooks(set, &t->source.hooks);
	t->source.marks = plugin_marks;
	t->source.by = plugin_mark_by;
	t->source.release = plugin_release;
	t->source.arg = set;
}

/* ---- the boot's ends the plugins tell, for the critical path's default end ---- */

/* Every plugin the report would run, on session @s: one may know the boot's end. */
static void *end_source_open(struct bp_session *s, struct bp_build_hooks *hooks)
{
	const char *dirs[2];
	struct bp_plugin_opts po = { .dirs = dirs, .ndirs = bp_plugin_dirs(dirs) };
	struct bp_plugin_set *set = bp_plugins_load(&po);
	const struct bp_meta *meta = bp_reader_meta(s->reader);

	if (!set)
		return NULL;
	bp_plugins_start(set, bp_reader_tep(s->reader), meta ? meta->machine : NULL);
	bp_plugins_kallsyms(set, bp_reader_kallsyms(s->reader));
	bp_plugins_window(set, s->window.since_ns, s->window.until_ns);
	bp_plugins_hooks(set, hooks);
	return set;
}

static size_t end_source_ends(void *set, const struct bp_model *m, struct bp_crit_mark **out)
{
	bp_plugins_finish(set, m, NULL);
	return bp_plugin_ends(set, out);
}

static void end_source_release(void *set)
{
	bp_plugins_free(set);
}

const struct bp_crit_end_source bp_plugin_end_source = {
	end_source_open, end_source_ends, end_source_release,
};

struct bp_critical_path *bp_critical_load(const char *file, const struct bp_crit_end *to,
					  int warn)
{
	struct bp_build_hooks hooks[2] = { { 0 } };
	struct bp_critical_path *path = NULL;
	struct bp_crit_ends ends = { 0 };
	struct bp_critical_log *log;
	struct bp_session *s = bp_session_open(file);
	struct bp_model *m;
	size_t n = 1;

	if (!s)
		return NULL;
	/* The plugins only for the default end: --to names its own. */
	n += (size_t)bp_crit_ends_begin(&ends, &bp_plugin_end_source, to, s, &hooks[1]);
	log = bp_critical_log_new();
	hooks[0].critical = log;
	m = bp_session_build(s, NULL, hooks, n);
	if (warn)
		bp_warnings_print(&s->warnings);
	if (m)
		path = bp_critical_path_of(log, m, bp_crit_ends_end(&ends, m), file);
	bp_crit_ends_release(&ends);
	bp_model_free(m);
	bp_critical_log_free(log);
	bp_session_free(s);
	return path;
}
