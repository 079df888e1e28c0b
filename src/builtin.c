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
	t->source.release = plugin_release;
	t->source.arg = set;
}
