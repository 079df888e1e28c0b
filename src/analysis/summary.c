// SPDX-License-Identifier: GPL-2.0
/*
 * A recording reduced to matchable rows (phases, processes, files,
 * services), and statistics of those rows over many recordings.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/focus.h"
#include "analysis/session.h"
#include "analysis/summary.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

const char *bp_row_kind_name(enum bp_row_kind kind)
{
	static const char *const names[] = { "phase", "process", "file", "service" };

	return (unsigned)kind < BP_NROW_KINDS ? names[kind] : "?";
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct rows {
	struct bp_summary_row *v;
	size_t n, cap;
};

static struct bp_summary_row *add_row(struct rows *r, enum bp_row_kind kind, char *key)
{
	struct bp_summary_row *row;

	BP_GROW(r->v, r->n, r->cap);
	row = &r->v[r->n++];
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	row->key = key;
	row->count = 1;
	row->reached = 1;
	return row;
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct bp_summary_row *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->key, b->key);
}

static void release_row(struct bp_summary_row *r)
{
	free(r->key);
	free(r->comm);
	free(r->exec);
}

/* Sort, and fold rows with the same (kind, key) into the first. */
static void fold_rows(struct rows *r)
{
	size_t i, out = 0;

	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), cmp_row);
	for (i = 0; i < r->n; i++) {
		struct bp_summary_row *a = out ? &r->v[out - 1] : NULL, *b = &r->v[i];

		if (a && !cmp_row(a, b)) {
			a->count += b->count;
			a->span_ns += b->span_ns;
			a->wait_ns += b->wait_ns;
			a->bytes += b->bytes;
			a->never_used_bytes += b->never_used_bytes;
			a->idle_wait_ns += b->idle_wait_ns;
			release_row(b);
			continue;
		}
		r->v[out++] = *b;
	}
	r->n = out;
}

static void process_rows(struct rows *r, const struct bp_model *m, const struct bp_filter *f)
{
	size_t i;

	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		const char *exec = p->nexec ? p->exec[p->nexec - 1] : NULL;
		uint64_t start = p->start_ns > m->totals.first_ns ? p->start_ns : m->totals.first_ns;
		uint64_t end = p->exit_ns ? p->exit_ns : m->totals.last_ns;
		struct bp_summary_row *row;

		if (f && !bp_process_matches(m, p, f))
			continue;
		row = add_row(r, BP_ROW_PROCESS,
			      exec ? xasprintf("%s (%s)", p->comm, exec) : xstrdup(p->comm));
		row->comm = xstrdup(p->comm);
		row->exec = dup_or_null(exec);
		row->span_ns = end > start ? end - start : 0;
		row->wait_ns = p->wait_ns;
		row->bytes = p->bytes_read;
		if (p->service) {
			row = add_row(r, BP_ROW_SERVICE, xstrdup(p->service->path));
			row->wait_ns = p->wait_ns;
			row->bytes = p->bytes_read;
		}
	}
}

static void file_rows(struct rows *r, const struct bp_model *m, const struct bp_filter *f)
{
	struct bp_file_part part;
	size_t i;

	for (i = 0; i < m->nfiles; i++) {
		const struct bp_file *file = &m->files[i];
		struct bp_summary_row *row;

		if (f && !bp_file_matches(m, file, f))
			continue;
		row = add_row(r, BP_ROW_FILE, xstrdup(file->path));
		row->span_ns = file->last_ns - file->first_ns;
		row->never_used_bytes = file->never_used_bytes;
		/* Only what the selected processes did with it. */
		bp_file_part(m, file, f, &part);
		row->wait_ns = part.wait_ns;
		row->bytes = part.bytes_read;
	}
}

static void phase_rows(struct rows *r, const struct bp_phase *ph, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct bp_summary_row *row = add_row(r, BP_ROW_PHASE, xstrdup(ph[i].name));

		row->reached = ph[i].reached;
		row->span_ns = ph[i].end_ns - ph[i].start_ns;
		row->wait_ns = ph[i].wait_ns;
		row->bytes = ph[i].read_bytes;
		row->idle_wait_ns = ph[i].idle_wait_ns;
	}
}

static void fill_header(struct bp_summary *s, const struct bp_model *m, const struct bp_totals *t)
{
	const struct bp_model_header *h = &m->header;

	s->hostname = dup_or_null(h->hostname);
	s->kernel_release = dup_or_null(h->kernel_release);
	s->machine = dup_or_null(h->machine);
	s->cmdline = dup_or_null(h->cmdline);
	s->bootprof_version = dup_or_null(h->bootprof_version);
	s->boot_ns = h->stop_ns > m->totals.first_ns ? h->stop_ns : m->totals.last_ns;
	s->lost_events = m->totals.lost_events;
	s->read_bytes = t->read_bytes;
	s->wait_ns = t->wait_ns;
	s->idle_wait_ns = t->idle_wait_ns;
	s->never_used_bytes = t->never_used_bytes;
	s->used_bytes = t->used_bytes;
	s->mapped_unknown_bytes = t->mapped_unknown_bytes;
	s->span_ns = m->totals.span_ns;
	s->access_missing = !!(m->missing & BP_MISSING_ACCESS);
}

struct bp_summary *bp_summary_load(const char *path, const struct bp_summary_opts *o)
{
	static const struct bp_summary_opts defaults = { 0 };
	struct bp_phase_finder *finder = NULL;
	static const struct bp_crit_end to = { .kind = BP_CRIT_END_DEFAULT };
	struct bp_build_hooks hooks[2] = { { 0 } };
	struct bp_crit_ends ends = { 0 };
	size_t nhooks = 1;
	struct bp_filter filter = { 0 }, *f = NULL;
	struct bp_summary *s = NULL;
	struct bp_critical_log *crit = NULL;
	struct bp_phase *phases = NULL;
	struct bp_model *m = NULL;
	struct rows rows = { 0 };
	struct bp_session *session;
	long nphases = 0;

	if (!o)
		o = &defaults;
	session = bp_session_open(path);
	if (!session) {
		bp_set_error("cannot read '%s': %s", path, bp_last_error());
		return NULL;
	}
	if (bp_session_window(session, &o->window))
		goto out;
	finder = bp_phase_finder_new(bp_reader_tep(session->reader), o->specs, o->nspecs);
	hooks[0].event = bp_phase_finder_event;
	hooks[0].arg = finder;
	if (o->critical)
		hooks[0].critical = crit = bp_critical_log_new();
	if (o->critical)
		nhooks += (size_t)bp_crit_ends_begin(&ends, o->ends, &to, session, &hooks[1]);
	m = bp_session_build(session, &session->window, hooks, nhooks);
	if (!m)
		goto out;
	nphases = bp_phases_compute(finder, session, m, o->all, &phases);
	if (nphases < 0)
		goto out;
	if (bp_focus_command(m, o->all, &filter))
		f = &filter;
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->command_only = !!f;
	fill_header(s, m, f ? &m->command_totals : &m->totals);
	phase_rows(&rows, phases, (size_t)nphases);
	process_rows(&rows, m, f);
	file_rows(&rows, m, f);
	fold_rows(&rows);
	s->rows = rows.v;
	s->nrows = rows.n;
	if (crit) {
		s->critical = bp_critical_walk(crit, m, bp_crit_ends_end(&ends, m));
		if (!s->critical)
			s->critical_error = xstrdup(bp_last_error());
	}
	/* The summary outlives its session: it takes what the load found. */
	s->warnings = session->warnings;
	memset(&session->warnings, 0, sizeof(session->warnings));
out:
	bp_phases_free(phases, nphases > 0 ? (size_t)nphases : 0);
	bp_model_free(m);
	bp_critical_log_free(crit);
	bp_crit_ends_release(&ends);
	bp_phase_finder_free(finder);
	bp_session_free(session);
	return s;
}

void bp_summary_free(struct bp_summary *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nrows; i++)
		release_row(&s->rows[i]);
	free(s->rows);
	free(s->path);
	free(s->hostname);
	free(s->kernel_release);
	free(s->machine);
	free(s->cmdline);
	free(s->bootprof_version);
	bp_critical_path_free(s->critical);
	free(s->critical_error);
	bp_warnings_release(&s->warnings);
	free(s);
}

const struct bp_summary_row *bp_summary_find(const struct bp_summary *s, enum bp_row_kind kind,
					     const char *key)
{
	struct bp_summary_row k = { .kind = kind, .key = (char *)key };

	if (!s->nrows)
		return NULL;
	return bsearch(&k, s->rows, s->nrows, sizeof(k), cmp_row);
}

/* ---- many recordings ---- */

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

struct bp_stat bp_stat_of(uint64_t *v, size_t n)
{
	struct bp_stat st = { 0, 0, 0 };

	if (!n)
		return st;
	qsort(v, n, sizeof(*v), cmp_u64);
	st.min = v[0];
	st.max = v[n - 1];
	st.median = n % 2 ? v[n / 2] : v[n / 2 - 1] / 2 + v[n / 2] / 2 +
					       (v[n / 2 - 1] % 2 + v[n / 2] % 2) / 2;
	return st;
}

static int cmp_group_row(const void *pa, const void *pb)
{
	const struct bp_group_row *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->key, b->key);
}

void bp_group_build(struct bp_group *g, struct bp_summary *const *s, size_t n, int absent_zero)
{
	struct bp_group_row *rows = NULL;
	size_t nrows = 0, cap = 0, i, j, k, out;
	uint64_t *count, *span, *wait, *bytes, *never;

	memset(g, 0, sizeof(*g));
	g->nsummaries = n;
	/* The union of the keys. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < s[i]->nrows; j++) {
			const struct bp_summary_row *r = &s[i]->rows[j];

			BP_GROW(rows, nrows, cap);
			memset(&rows[nrows], 0, sizeof(rows[nrows]));
			rows[nrows].kind = r->kind;
			rows[nrows].key = r->key;
			rows[nrows].comm = r->comm;
			rows[nrows].exec = r->exec;
			nrows++;
		}
	}
	if (nrows)
		qsort(rows, nrows, sizeof(*rows), cmp_group_row);
	for (i = 0, out = 0; i < nrows; i++) {
		if (out && !cmp_group_row(&rows[out - 1], &rows[i]))
			continue;
		rows[out++] = rows[i];
	}
	nrows = out;
	count = xcalloc(n ? n : 1, sizeof(*count));
	span = xcalloc(n ? n : 1, sizeof(*span));
	wait = xcalloc(n ? n : 1, sizeof(*wait));
	bytes = xcalloc(n ? n : 1, sizeof(*bytes));
	never = xcalloc(n ? n : 1, sizeof(*never));
	for (i = 0; i < nrows; i++) {
		struct bp_group_row *g_row = &rows[i];

		for (j = 0, k = 0; j < n; j++) {
			const struct bp_summary_row *r = bp_summary_find(s[j], g_row->kind, g_row->key);

			if (r && r->reached)
				g_row->boots++;
			if (!r || !r->reached) {
				if (!absent_zero)
					continue;
				count[k] = span[k] = wait[k] = bytes[k] = never[k] = 0;
			} else {
				count[k] = r->count;
				span[k] = r->span_ns;
				wait[k] = r->wait_ns;
				bytes[k] = r->bytes;
				never[k] = r->never_used_bytes;
			}
			k++;
		}
		g_row->count = bp_stat_of(count, k);
		g_row->span = bp_stat_of(span, k);
		g_row->wait = bp_stat_of(wait, k);
		g_row->bytes = bp_stat_of(bytes, k);
		g_row->never_used = bp_stat_of(never, k);
	}
	free(count);
	free(span);
	free(wait);
	free(bytes);
	free(never);
	g->rows = rows;
	g->nrows = nrows;
}

void bp_group_release(struct bp_group *g)
{
	free(g->rows);
	memset(g, 0, sizeof(*g));
}

struct bp_summary **bp_summaries_load(const char *const *args, size_t nargs, int globbing,
				      const struct bp_summary_opts *o, size_t *n)
{
	struct bp_summary **v = NULL;
	size_t nv = 0, cap = 0, i, j;

	for (i = 0; i < nargs; i++) {
		glob_t g = { 0 };
		char *one[1];
		char **names = one;
		size_t nnames = 1;

		one[0] = (char *)args[i];
		if (globbing) {
			int rc = glob(args[i], GLOB_ERR, NULL, &g);

			if (rc == GLOB_NOMATCH) {
				bp_set_error("'%s' matches no file", args[i]);
				goto fail;
			}
			if (rc) {
				bp_set_error("cannot expand '%s'", args[i]);
				globfree(&g);
				goto fail;
			}
			names = g.gl_pathv;
			nnames = g.gl_pathc;
		}
		for (j = 0; j < nnames; j++) {
			struct bp_summary *s = bp_summary_load(names[j], o);

			if (!s) {
				if (globbing)
					globfree(&g);
				goto fail;
			}
			BP_GROW(v, nv, cap);
			v[nv++] = s;
		}
		if (globbing)
			globfree(&g);
	}
	*n = nv;
	return v;
fail:
	bp_summaries_free(v, nv);
	return NULL;
}

void bp_summaries_free(struct bp_summary **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bp_summary_free(v[i]);
	free(v);
}
