// SPDX-License-Identifier: GPL-2.0
/*
 * A critical-order pack's prediction against a recording of a replay of
 * it: the same end point's path walked again, and its I/O time on each
 * file of the pack's what-if lines, where the pack predicted what
 * preloading that file would take away.
 */
#include <stdlib.h>

#include "analysis/session.h"
#include "replay/build.h"
#include "replay/measure.h"
#include "replay/preload.h"
#include "tracefile/meta.h"
#include "util/error.h"
#include "util/xalloc.h"

struct bp_pack_measured *bp_pack_measure(struct bp_session *session, const struct bp_pack *p,
					 const struct bp_crit_end *to)
{
	struct bp_build_hooks hooks = { 0 };
	struct bp_critical_log *log = bp_critical_log_new();
	struct bp_critical_path *path = NULL;
	struct bp_pack_measured *r = NULL;
	struct bp_model *m;
	size_t i, j, pids;

	hooks.critical = log;
	m = bp_session_build(session, NULL, &hooks, 1);
	if (!m)
		goto out;
	pids = bp_preloader_processes(m, NULL);
	if (!pids) {
		bp_set_error("'%s' has no replay in it (no %s process): nothing measured",
			     session->path, BP_REPLAY_COMM);
		goto out;
	}
	path = bp_critical_path_of(log, m, to, session->path);
	if (!path)
		goto out;
	r = xcalloc(1, sizeof(*r));
	r->left_ns = xcalloc(p->crit.nfiles + 1, sizeof(*r->left_ns));
	r->left_segments = xcalloc(p->crit.nfiles + 1, sizeof(*r->left_segments));
	r->len_ns = path->end_ns - path->start_ns;
	r->io_ns = path->state_ns[BP_CRIT_IO];
	r->replay_pids = pids;
	for (i = 0; i < p->crit.nfiles; i++) {
		const struct bp_pack_whatif *w = &p->crit.files[i];

		for (j = 0; j < path->nfiles; j++) {
			const struct bp_crit_file *f = &path->files[j];

			if (f->path && BP_DEV_MAJOR(f->dev) == w->major &&
			    BP_DEV_MINOR(f->dev) == w->minor && f->ino == w->ino) {
				r->left_ns[i] = f->io_ns;
				r->left_segments[i] = f->segments;
			}
		}
	}
out:
	bp_critical_path_free(path);
	bp_critical_log_free(log);
	bp_model_free(m);
	return r;
}

void bp_pack_measured_free(struct bp_pack_measured *r)
{
	if (!r)
		return;
	free(r->left_ns);
	free(r->left_segments);
	free(r);
}
