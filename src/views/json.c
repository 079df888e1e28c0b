// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof report --format json: one object, exact integers (ns, bytes),
 * stable keys. Schema version 1:
 *
 * {
 *   "schema_version": 1,
 *   "recording": { "file", "hostname", "kernel_release", "kernel_version",
 *                  "machine", "cmdline", "clock", "command", "stop_reason":
 *                  string|null, "ncpus", "page_size", "start_ns", "stop_ns":
 *                  int, "unavailable_events": [string], "not_recorded":
 *                  [string: sched|wakeup|fork|syscalls|filemap|access|delete|block],
 *                  "not_on_kernel": [string] (the subset the kernel lacks),
 *                  "warnings": string|null },
 *   "window": { "since_ns", "until_ns", "bucket_ns" },
 *   "filter": { "pid": int|null, "comm", "file": string|null, "tree": bool },
 *   "totals": { "read_bytes", "metadata_bytes", "nonblock_bytes", "write_insert_bytes",
 *               "rq_read_bytes", "attributed_permille": int|null,
 *               "wait_ns", "wait_by_cause": { CAUSE: ns },
 *               "wait_metadata_ns", "wait_unknown_ns", "idle_wait_ns",
 *               "never_used_bytes": int|null (null: not available),
 *               "used_bytes": int|null, "reread_bytes": int|null,
 *               "events", "events_total", "lost_events", "lost_pages",
 *               "lower_bound": bool (events were lost), "truncated": bool,
 *               "first_ns", "last_ns", "span_ns" },
 *   "processes": [ { "pid", "ppid", "comm", "exec": [string], "start_ns",
 *                    "exit_ns" (0: before/after the recording), "threads",
 *                    "wait_ns", "wait_by_cause": { CAUSE: ns },
 *                    "wait_unknown_ns", "run_ns", "bytes_read",
 *                    "metadata_bytes", "files", "worst_file": string|null,
 *                    "children": [pid], "tree_wait_ns", "tree_bytes_read",
 *                    "tree_processes", "service": string|null } ]
 *                                                     by wait_ns, then bytes, pid
 *   "files": [ { "path", "dev": "MAJ:MIN", "ino", "kind": "file"|"metadata",
 *                "resolved": bool, "disk": string|null, "bytes_read",
 *                "wait_ns", "used_bytes", "never_used_bytes", "reread_bytes",
 *                "size_pages", "first_ns", "last_ns",
 *                "readers": [ { "pid", "comm", "wait_ns", "bytes_read",
 *                               "first_ns", "last_ns" } ] } ]
 *                                                     by wait_ns, then bytes, path
 *   "never_used": [ { "path", "never_used_bytes", "bytes_read" } ]   by never_used_bytes
 *   "reread": [ { "path", "reread_bytes", "bytes_read" } ]           by reread_bytes
 *   "disks": [ { "name", "dev", "rotational": bool|null, "size",
 *                "metadata_bytes", "metadata_wait_ns", "file_bytes",
 *                "rq_read_bytes", "rq_reads", "rq_write_bytes" } ]
 *   "services": [ { "path", "processes", "wait_ns", "bytes_read" } ] by wait_ns (cgroups)
 *   "execs": [ { "path", "count", "wait_ns", "bytes_read" } ]         by count, then path
 *   "timeline": { "start_ns", "bucket_ns", "columns": ["wait_ns",
 *                 "idle_wait_ns", "read_bytes", "rq_read_bytes", "waiting_max"],
 *                 "buckets": [[int, int, int, int, int]] }
 *   "plugins": { NAME: { ... } }   one object per plugin that ran (see
 *                                  bootprof-plugins(7)); absent with --no-plugins
 * }
 *
 * CAUSE is one of read, open-stat, exec, getdents, fault, other. Lists
 * honour --top N (0: all) and the filters; totals never do. New keys may
 * be added within a schema version; a key is never renamed or removed
 * without bumping it.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "analysis/phases.h"
#include "plugin/plugins.h"
#include "views/format.h"
#include "views/report.h"

#define SCHEMA_VERSION 1

struct json {
	FILE *out;
	int depth;
	int first;     /* no member written yet at this depth */
};

static void sep(struct json *j)
{
	if (!j->first)
		fputc(',', j->out);
	fprintf(j->out, "\n%*s", j->depth * 2, "");
	j->first = 0;
}

static void key(struct json *j, const char *k)
{
	sep(j);
	bp_json_str(j->out, k);
	fputs(": ", j->out);
}

static void open_(struct json *j, const char *k, char c)
{
	if (k)
		key(j, k);
	else if (j->depth)
		sep(j);
	fputc(c, j->out);
	j->depth++;
	j->first = 1;
}

static void close_(struct json *j, char c)
{
	j->depth--;
	if (!j->first)
		fprintf(j->out, "\n%*s", j->depth * 2, "");
	fputc(c, j->out);
	j->first = 0;
}

static void num(struct json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->out, "%" PRIu64, v);
}

static void inum(struct json *j, const char *k, int64_t v)
{
	key(j, k);
	fprintf(j->out, "%" PRId64, v);
}

static void str(struct json *j, const char *k, const char *v)
{
	key(j, k);
	bp_json_str(j->out, v);
}

static void boolean(struct json *j, const char *k, int v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->out);
}

static void null(struct json *j, const char *k)
{
	key(j, k);
	fputs("null", j->out);
}

static void causes(struct json *j, const uint64_t *w)
{
	int c;

	open_(j, "wait_by_cause", '{');
	for (c = 0; c < BP_NCAUSES; c++)
		num(j, bp_cause_name((enum bp_cause)c), w[c]);
	close_(j, '}');
}

static void recording(struct json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	const struct bp_model_header *h = &m->header;
	unsigned bit;
	size_t i;

	open_(j, "recording", '{');
	str(j, "file", o->file);
	str(j, "hostname", h->hostname);
	str(j, "kernel_release", h->kernel_release);
	str(j, "kernel_version", h->kernel_version);
	str(j, "machine", h->machine);
	str(j, "cmdline", h->cmdline);
	str(j, "clock", h->clock);
	str(j, "command", h->command);
	str(j, "stop_reason", h->stop_reason);
	inum(j, "ncpus", h->ncpus);
	num(j, "page_size", h->page_size);
	num(j, "start_ns", h->start_ns);
	num(j, "stop_ns", h->stop_ns);
	open_(j, "unavailable_events", '[');
	for (i = 0; i < h->nunavailable; i++) {
		sep(j);
		bp_json_str(j->out, h->unavailable[i]);
	}
	close_(j, ']');
	open_(j, "not_recorded", '[');
	for (bit = 1; bit <= BP_MISSING_BLOCK; bit <<= 1) {
		if (m->missing & bit) {
			sep(j);
			bp_json_str(j->out, bp_missing_name(bit));
		}
	}
	close_(j, ']');
	open_(j, "not_on_kernel", '[');
	for (bit = 1; bit <= BP_MISSING_BLOCK; bit <<= 1) {
		if (m->missing_on_kernel & bit) {
			sep(j);
			bp_json_str(j->out, bp_missing_name(bit));
		}
	}
	close_(j, ']');
	str(j, "warnings", h->warnings);
	close_(j, '}');

	open_(j, "window", '{');
	num(j, "since_ns", m->window.since_ns);
	num(j, "until_ns", m->window.until_ns);
	num(j, "bucket_ns", m->window.bucket_ns);
	close_(j, '}');

	open_(j, "filter", '{');
	if (o->filter.pid)
		inum(j, "pid", o->filter.pid);
	else
		null(j, "pid");
	str(j, "comm", o->filter.comm);
	str(j, "file", o->filter.file);
	boolean(j, "tree", o->filter.tree);
	close_(j, '}');
}

static void totals(struct json *j, const struct bp_model *m)
{
	const struct bp_totals *t = &m->totals;

	open_(j, "totals", '{');
	num(j, "read_bytes", t->read_bytes);
	num(j, "metadata_bytes", t->metadata_bytes);
	num(j, "nonblock_bytes", t->nonblock_bytes);
	num(j, "write_insert_bytes", t->write_insert_bytes);
	num(j, "rq_read_bytes", t->rq_read_bytes);
	if (t->attributed_permille >= 0)
		inum(j, "attributed_permille", t->attributed_permille);
	else
		null(j, "attributed_permille");
	num(j, "wait_ns", t->wait_ns);
	causes(j, t->wait_by_cause);
	num(j, "wait_metadata_ns", t->wait_metadata_ns);
	num(j, "wait_unknown_ns", t->wait_unknown_ns);
	num(j, "idle_wait_ns", t->idle_wait_ns);
	if (m->missing & BP_MISSING_ACCESS) {
		null(j, "never_used_bytes");
		null(j, "used_bytes");
	} else {
		num(j, "never_used_bytes", t->never_used_bytes);
		num(j, "used_bytes", t->used_bytes);
	}
	if (m->missing & BP_MISSING_DELETE)
		null(j, "reread_bytes");
	else
		num(j, "reread_bytes", t->reread_bytes);
	num(j, "events", t->events);
	num(j, "events_total", t->events_total);
	num(j, "lost_events", t->lost_events);
	num(j, "lost_pages", t->lost_pages);
	boolean(j, "lower_bound", t->lost_events || t->lost_pages);
	boolean(j, "truncated", t->truncated);
	num(j, "first_ns", t->first_ns);
	num(j, "last_ns", t->last_ns);
	num(j, "span_ns", t->span_ns);
	close_(j, '}');
}

static void phases(struct json *j, const struct bp_report_opts *o)
{
	size_t i;

	open_(j, "phases", '[');
	for (i = 0; i < o->nphases; i++) {
		const struct bp_phase *p = &o->phases[i];

		open_(j, NULL, '{');
		str(j, "name", p->name);
		str(j, "ends_at", p->kind == BP_PHASE_BUILTIN ? p->name : bp_phase_kind_name(p->kind));
		boolean(j, "reached", p->reached);
		if (p->reached) {
			num(j, "start_ns", p->start_ns);
			num(j, "end_ns", p->end_ns);
			num(j, "duration_ns", p->end_ns - p->start_ns);
			num(j, "wait_ns", p->wait_ns);
			num(j, "read_bytes", p->read_bytes);
			num(j, "idle_wait_ns", p->idle_wait_ns);
		}
		close_(j, '}');
	}
	close_(j, ']');
}

static void processes(struct json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_process **v;
	size_t n = bp_model_select_processes(m, &o->filter, BP_SORT_PROC_WAIT, &v), i, k;

	if (o->top && n > o->top)
		n = o->top;
	open_(j, "processes", '[');
	for (i = 0; i < n; i++) {
		const struct bp_process *p = v[i];

		open_(j, NULL, '{');
		inum(j, "pid", p->pid);
		inum(j, "ppid", p->ppid);
		str(j, "comm", p->comm);
		open_(j, "exec", '[');
		for (k = 0; k < p->nexec; k++) {
			sep(j);
			bp_json_str(j->out, p->exec[k]);
		}
		close_(j, ']');
		num(j, "start_ns", p->start_ns);
		num(j, "exit_ns", p->exit_ns);
		num(j, "threads", p->nthreads);
		num(j, "wait_ns", p->wait_ns);
		causes(j, p->wait_by_cause);
		num(j, "wait_unknown_ns", p->wait_unknown_ns);
		num(j, "run_ns", p->run_ns);
		num(j, "bytes_read", p->bytes_read);
		num(j, "metadata_bytes", p->metadata_bytes);
		num(j, "files", p->nfiles);
		str(j, "worst_file", p->worst_file ? p->worst_file->path : NULL);
		open_(j, "children", '[');
		for (k = 0; k < p->nchildren; k++) {
			sep(j);
			fprintf(j->out, "%d", p->children[k]->pid);
		}
		close_(j, ']');
		num(j, "tree_wait_ns", p->tree_wait_ns);
		num(j, "tree_bytes_read", p->tree_bytes_read);
		num(j, "tree_processes", p->tree_processes);
		str(j, "service", p->service ? p->service->path : NULL);
		close_(j, '}');
	}
	close_(j, ']');
	free(v);
}

static void file_obj(struct json *j, const struct bp_model *m, const struct bp_file *f)
{
	char dev[32];
	size_t k;

	snprintf(dev, sizeof(dev), "%u:%u", BP_DEV_MAJOR(f->dev), BP_DEV_MINOR(f->dev));
	open_(j, NULL, '{');
	str(j, "path", f->path);
	str(j, "dev", dev);
	num(j, "ino", f->ino);
	str(j, "kind", f->kind == BP_FILE_METADATA ? "metadata" : "file");
	boolean(j, "resolved", f->resolved);
	str(j, "disk", f->disk >= 0 && (size_t)f->disk < m->ndisks ? m->disks[f->disk].name : NULL);
	num(j, "bytes_read", f->bytes_read);
	num(j, "wait_ns", f->wait_ns);
	num(j, "used_bytes", f->used_bytes);
	num(j, "never_used_bytes", f->never_used_bytes);
	num(j, "reread_bytes", f->reread_bytes);
	num(j, "size_pages", f->size_pages);
	num(j, "first_ns", f->first_ns);
	num(j, "last_ns", f->last_ns);
	open_(j, "readers", '[');
	for (k = 0; k < f->nreaders; k++) {
		const struct bp_access *a = f->readers[k];

		open_(j, NULL, '{');
		inum(j, "pid", a->process->pid);
		str(j, "comm", a->process->comm);
		num(j, "wait_ns", a->wait_ns);
		num(j, "bytes_read", a->bytes_read);
		num(j, "first_ns", a->first_ns);
		num(j, "last_ns", a->last_ns);
		close_(j, '}');
	}
	close_(j, ']');
	close_(j, '}');
}

static void files(struct json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_file **v;
	size_t n = bp_model_select_files(m, &o->filter, BP_SORT_FILE_WAIT, &v), i;

	if (o->top && n > o->top)
		n = o->top;
	open_(j, "files", '[');
	for (i = 0; i < n; i++)
		file_obj(j, m, v[i]);
	close_(j, ']');
	free(v);
}

/* A short list of files with a non-zero value of one measure. */
static void file_list(struct json *j, const struct bp_model *m, const struct bp_report_opts *o,
		      const char *name, enum bp_file_sort key)
{
	struct bp_file **v;
	size_t n = bp_model_select_files(m, &o->filter, key, &v), i, k = 0;

	open_(j, name, '[');
	for (i = 0; i < n && (!o->top || k < o->top); i++) {
		uint64_t val = key == BP_SORT_FILE_NEVER_USED ? v[i]->never_used_bytes :
								v[i]->reread_bytes;

		if (!val)
			break;
		open_(j, NULL, '{');
		str(j, "path", v[i]->path);
		num(j, key == BP_SORT_FILE_NEVER_USED ? "never_used_bytes" : "reread_bytes", val);
		num(j, "bytes_read", v[i]->bytes_read);
		close_(j, '}');
		k++;
	}
	close_(j, ']');
	free(v);
}

static void disks_execs_timeline(struct json *j, const struct bp_model *m)
{
	char dev[32];
	size_t i;

	open_(j, "disks", '[');
	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *d = &m->disks[i];

		snprintf(dev, sizeof(dev), "%u:%u", BP_DEV_MAJOR(d->dev), BP_DEV_MINOR(d->dev));
		open_(j, NULL, '{');
		str(j, "name", d->name);
		str(j, "dev", dev);
		if (d->rotational < 0)
			null(j, "rotational");
		else
			boolean(j, "rotational", d->rotational);
		num(j, "size", d->size);
		num(j, "metadata_bytes", d->metadata_bytes);
		num(j, "metadata_wait_ns", d->metadata_wait_ns);
		num(j, "file_bytes", d->file_bytes);
		num(j, "rq_read_bytes", d->rq_read_bytes);
		num(j, "rq_reads", d->rq_reads);
		num(j, "rq_write_bytes", d->rq_write_bytes);
		close_(j, '}');
	}
	close_(j, ']');
	open_(j, "services", '[');
	for (i = 0; i < m->nservices; i++) {
		open_(j, NULL, '{');
		str(j, "path", m->services[i].path);
		num(j, "processes", m->services[i].nprocesses);
		num(j, "wait_ns", m->services[i].wait_ns);
		num(j, "bytes_read", m->services[i].bytes_read);
		close_(j, '}');
	}
	close_(j, ']');
	open_(j, "execs", '[');
	for (i = 0; i < m->nexecs; i++) {
		open_(j, NULL, '{');
		str(j, "path", m->execs[i].path);
		num(j, "count", m->execs[i].count);
		num(j, "wait_ns", m->execs[i].wait_ns);
		num(j, "bytes_read", m->execs[i].bytes_read);
		close_(j, '}');
	}
	close_(j, ']');
	open_(j, "timeline", '{');
	num(j, "start_ns", m->timeline_start_ns);
	num(j, "bucket_ns", m->window.bucket_ns);
	key(j, "columns");
	fputs("[\"wait_ns\", \"idle_wait_ns\", \"read_bytes\", \"rq_read_bytes\", \"waiting_max\"]",
	      j->out);
	open_(j, "buckets", '[');
	for (i = 0; i < m->nbuckets; i++) {
		const struct bp_bucket *b = &m->timeline[i];

		sep(j);
		fprintf(j->out, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %u]", b->wait_ns,
			b->idle_wait_ns, b->read_bytes, b->rq_read_bytes, b->waiting_max);
	}
	close_(j, ']');
	close_(j, '}');
}

int bp_view_json(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct json j = { out, 0, 1 };

	open_(&j, NULL, '{');
	num(&j, "schema_version", SCHEMA_VERSION);
	recording(&j, m, o);
	totals(&j, m);
	phases(&j, o);
	processes(&j, m, o);
	files(&j, m, o);
	file_list(&j, m, o, "never_used", BP_SORT_FILE_NEVER_USED);
	file_list(&j, m, o, "reread", BP_SORT_FILE_REREAD);
	disks_execs_timeline(&j, m);
	if (o->plugins) {
		key(&j, "plugins");
		bp_plugins_report_json(o->plugins, out, j.depth);
	}
	close_(&j, '}');
	fputc('\n', out);
	return 0;
}
