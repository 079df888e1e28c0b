// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof report --format json: one object, exact integers (ns, bytes),
 * stable keys. Schema version 1:
 *
 * {
 *   "schema_version": 1,
 *   "verdict": [string]   the report's first lines: what was slow, and why
 *   "recording": { "file", "hostname", "kernel_release", "kernel_version",
 *                  "machine", "cmdline", "clock", "command", "stop_reason":
 *                  string|null, "command_pid": int|null (record -- CMD),
 *                  "ncpus", "page_size", "start_ns", "stop_ns": int,
 *                  "recorder_cpu_ns", "system_cpu_ns": int|null (the
 *                  recorder's CPU time; all CPUs' busy time while recording),
 *                  "fault_around_bytes": int|null (set while recording:
 *                  record --exact-mmap; null: the kernel's, not known),
 *                  "unavailable_events": [string], "not_recorded":
 *                  [string: sched|wakeup|fork|syscalls|filemap|access|delete|block|
 *                  complete],
 *                  "not_on_kernel": [string] (the subset the kernel lacks),
 *                  "warnings": string|null },
 *   "window": { "since_ns", "until_ns", "bucket_ns" },
 *   "focus": { "command_pid": int|null (the lists show this traced command's
 *              process tree: the default for `record -- CMD` recordings),
 *              "processes": "command"|"filter"|"all" (what the lists show) },
 *   "filter": { "pid": int|null, "comm", "file": string|null, "tree": bool }
 *              (the filter the lists follow, the focus included),
 *   "totals": { "read_bytes", "metadata_bytes", "nonblock_bytes", "write_insert_bytes",
 *               "rq_read_bytes", "attributed_permille": int|null,
 *               "wait_ns", "wait_by_cause": { CAUSE: ns },
 *               "wait_metadata_ns", "wait_unknown_ns", "idle_wait_ns",
 *               "other_wait_ns" (uninterruptible sleep that was not I/O wait),
 *               "iowait_source": "kernel" (the recording has the kernel's
 *                   schedstats events: sched_stat_iowait says which D-sleeps
 *                   were I/O) | "inferred" (I/O when a block completion
 *                   ended the sleep),
 *               "sleeps_kernel", "sleeps_inferred" (D-sleeps decided each way),
 *               "never_used_bytes": int|null (null: not available),
 *               "used_bytes": int|null,
 *               "mapped_unknown_bytes": int|null (mapped by fault-around, not
 *                   known to be used: neither used nor never used; used +
 *                   never_used + mapped_unknown = file bytes read),
 *               "reread_bytes": int|null,
 *               "events", "events_total", "lost_events", "lost_pages",
 *               "lower_bound": bool (events were lost), "truncated": bool,
 *               "first_ns", "last_ns", "span_ns" },
 *   "processes": [ { "pid", "ppid", "comm", "exec": [string] (the last is its
 *                    program), "exec_parts": [ { "path", "exec_ns",
 *                    "wait_ns", "bytes_read" } ] (what it did under each
 *                    program, from the execve to the next exec),
 *                    "argv": [string]|null (its program's command line,
 *                    null: not in the recording), "start_ns",
 *                    "exit_ns" (0: before/after the recording), "threads",
 *                    "wait_ns", "wait_by_cause": { CAUSE: ns },
 *                    "wait_unknown_ns", "other_wait_ns", "run_ns", "bytes_read",
 *                    "metadata_bytes", "files", "worst_file": string|null,
 *                    "children": [pid], "tree_wait_ns", "tree_bytes_read",
 *                    "tree_processes", "service": string|null } ]
 *                                                     by wait_ns, then bytes, pid
 *   "files": [ { "path", "dev": "MAJ:MIN", "ino", "kind": "file"|"metadata",
 *                "resolved": bool, "disk": string|null, "bytes_read",
 *                "wait_ns", "used_bytes", "never_used_bytes",
 *                "mapped_unknown_bytes", "reread_bytes",
 *                "size_pages", "first_ns", "last_ns",
 *                "readers": [ { "pid", "comm", "wait_ns", "bytes_read",
 *                               "first_ns", "last_ns" } ] } ]
 *                (bytes_read, wait_ns and readers: the selected processes'
 *                 part; the rest is the file's)
 *                                                     by wait_ns, then bytes, path
 *   "never_used": [ { "path", "never_used_bytes", "bytes_read" } ]   by never_used_bytes
 *   "mapped_unknown": [ { "path", "mapped_unknown_bytes", "bytes_read" } ]
 *                                                     by mapped_unknown_bytes
 *   "reread": [ { "path", "reread_bytes", "bytes_read" } ]           by reread_bytes
 *   "preloaded": { "processes": int (named bootprof-replay),
 *                  "markers": bool (the preloader's markers name the pack's
 *                  ranges; false: overtaken pages count as misses),
 *                  "total": ROW, "files": [ ROW ] }
 *                by preloaded_bytes, then miss_bytes, then path
 *                (a recording with a preloader process in it; not filtered).
 *                ROW: { "path" (null in "total"), VERDICT,
 *                "ranges": [ { "first_page", "pages", VERDICT } ] (not in
 *                "total"; the file's pack ranges, from the preloader's markers) }
 *                VERDICT: "preloaded", "hit", "late", "overtaken", "miss",
 *                "wasted", "read_again", each as "NAME_bytes" and
 *                "NAME_pages"; "late_waits", "late_wait_ns" (the workload's
 *                I/O waits on pages still being preloaded). hit, late,
 *                wasted and the late waits are null when the
 *                recording has no page access events. Rules: docs/design.md
 *   "disks": [ { "name", "dev", "rotational": bool|null, "size",
 *                "metadata_bytes", "metadata_wait_ns", "file_bytes",
 *                "rq_read_bytes", "rq_reads", "rq_write_bytes" } ]
 *   "services": [ { "path" (cgroup; null for the rows below), "processes",
 *                   "wait_ns", "bytes_read", "run_ns" (CPU time),
 *                   "unit" (systemd unit, else the path; "[PID 1]",
 *                   "[initramfs]", "[recorder]": see bp_service_row),
 *                   "first_start_ns" (0: before the recording),
 *                   "first_exec_ns": int|null, "first_exec": string|null
 *                   (the first exec and its program; null: none),
 *                   "last_exit_ns": int|null (null: running),
 *                   "running": bool } ]              by wait_ns, bytes, unit
 *   "execs": [ { "path", "count", "wait_ns", "bytes_read" } ]         by count, then path
 *   "timeline": { "start_ns", "bucket_ns", "columns": ["wait_ns",
 *                 "idle_wait_ns", "read_bytes", "rq_read_bytes", "waiting_max"],
 *                 "buckets": [[int, int, int, int, int]] }
 *   "plugins": { NAME: { ... } }   one object per plugin that ran (see
 *                                  bootprof-plugins(7)); absent with --no-plugins
 * }
 *
 * CAUSE is one of read, open-stat, exec, getdents, fault, sync, other. Lists
 * honour --top N (0: all) and the filters; totals follow the focus (the
 * traced command's tree, as "focus" says), never another filter. New keys may
 * be added within a schema version; a key is never renamed or removed
 * without bumping it.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "analysis/focus.h"
#include "analysis/phases.h"
#include "doc/doc.h"
#include "replay/build.h"
#include "util/json.h"
#include "views/report.h"
#include "views/verdict.h"

#define SCHEMA_VERSION 1

static void causes(struct bp_json *j, const uint64_t *w)
{
	int c;

	bp_json_object_begin(j, "wait_by_cause");
	for (c = 0; c < BP_NCAUSES; c++)
		bp_json_u64(j, bp_cause_name((enum bp_cause)c), w[c]);
	bp_json_end(j);
}

static void recording(struct bp_json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	const struct bp_model_header *h = &m->header;
	unsigned bit;
	size_t i;

	bp_json_object_begin(j, "recording");
	bp_json_string(j, "file", o->file);
	bp_json_string(j, "hostname", h->hostname);
	bp_json_string(j, "kernel_release", h->kernel_release);
	bp_json_string(j, "kernel_version", h->kernel_version);
	bp_json_string(j, "machine", h->machine);
	bp_json_string(j, "cmdline", h->cmdline);
	bp_json_string(j, "clock", h->clock);
	bp_json_string(j, "command", h->command);
	bp_json_i64_known(j, "command_pid", h->command_pid, h->command_pid);
	bp_json_string(j, "stop_reason", h->stop_reason);
	bp_json_i64(j, "ncpus", h->ncpus);
	bp_json_u64(j, "page_size", h->page_size);
	bp_json_u64(j, "start_ns", h->start_ns);
	bp_json_u64(j, "stop_ns", h->stop_ns);
	bp_json_u64_known(j, "recorder_cpu_ns", h->recorder_cpu_ns, h->recorder_cpu_ns);
	bp_json_u64_known(j, "system_cpu_ns", h->system_cpu_ns, h->system_cpu_ns);
	bp_json_u64_known(j, "fault_around_bytes", h->fault_around_bytes, h->fault_around_bytes);
	bp_json_array_begin(j, "unavailable_events");
	for (i = 0; i < h->nunavailable; i++) {
		bp_json_string(j, NULL, h->unavailable[i]);
	}
	bp_json_end(j);
	bp_json_array_begin(j, "not_recorded");
	for (bit = 1; bit <= BP_MISSING_LAST; bit <<= 1) {
		if (m->missing & bit) {
			bp_json_string(j, NULL, bp_missing_name(bit));
		}
	}
	bp_json_end(j);
	bp_json_array_begin(j, "not_on_kernel");
	for (bit = 1; bit <= BP_MISSING_LAST; bit <<= 1) {
		if (m->missing_on_kernel & bit) {
			bp_json_string(j, NULL, bp_missing_name(bit));
		}
	}
	bp_json_end(j);
	bp_json_string(j, "warnings", h->warnings);
	bp_json_end(j);

	bp_json_object_begin(j, "window");
	bp_json_u64(j, "since_ns", m->window.since_ns);
	bp_json_u64(j, "until_ns", m->window.until_ns);
	bp_json_u64(j, "bucket_ns", m->window.bucket_ns);
	bp_json_end(j);

	/* What the lists show: the traced command's tree by default. */
	bp_json_object_begin(j, "focus");
	bp_json_i64_known(j, "command_pid", o->focus_pid, o->focus_pid);
	bp_json_string(j, "processes", o->focus_pid ? "command" : o->filter.pid || o->filter.comm ?
		       "filter" : "all");
	bp_json_end(j);

	bp_json_object_begin(j, "filter");
	bp_json_i64_known(j, "pid", o->filter.pid, o->filter.pid);
	bp_json_string(j, "comm", o->filter.comm);
	bp_json_string(j, "file", o->filter.file);
	bp_json_bool(j, "tree", o->filter.tree);
	bp_json_end(j);
}

static void totals(struct bp_json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	const struct bp_totals *t = bp_focus_totals_of(m, o->focus_pid);

	bp_json_object_begin(j, "totals");
	bp_json_u64(j, "read_bytes", t->read_bytes);
	bp_json_u64(j, "metadata_bytes", t->metadata_bytes);
	bp_json_u64(j, "nonblock_bytes", t->nonblock_bytes);
	bp_json_u64(j, "write_insert_bytes", t->write_insert_bytes);
	bp_json_u64(j, "rq_read_bytes", t->rq_read_bytes);
	bp_json_i64_known(j, "attributed_permille", t->attributed_permille,
			  t->attributed_permille >= 0);
	bp_json_u64(j, "wait_ns", t->wait_ns);
	causes(j, t->wait_by_cause);
	bp_json_u64(j, "wait_metadata_ns", t->wait_metadata_ns);
	bp_json_u64(j, "wait_unknown_ns", t->wait_unknown_ns);
	bp_json_u64(j, "idle_wait_ns", t->idle_wait_ns);
	bp_json_u64(j, "other_wait_ns", t->other_wait_ns);
	bp_json_string(j, "iowait_source", bp_iowait_source_name(t->iowait_source));
	bp_json_u64(j, "sleeps_kernel", t->sleeps_kernel);
	bp_json_u64(j, "sleeps_inferred", t->sleeps_inferred);
	if (m->missing & BP_MISSING_ACCESS) {
		bp_json_null(j, "never_used_bytes");
		bp_json_null(j, "used_bytes");
		bp_json_null(j, "mapped_unknown_bytes");
	} else {
		bp_json_u64(j, "never_used_bytes", t->never_used_bytes);
		bp_json_u64(j, "used_bytes", t->used_bytes);
		bp_json_u64(j, "mapped_unknown_bytes", t->mapped_unknown_bytes);
	}
	if (m->missing & BP_MISSING_DELETE)
		bp_json_null(j, "reread_bytes");
	else
		bp_json_u64(j, "reread_bytes", t->reread_bytes);
	bp_json_u64(j, "events", t->events);
	bp_json_u64(j, "events_total", t->events_total);
	bp_json_u64(j, "lost_events", t->lost_events);
	bp_json_u64(j, "lost_pages", t->lost_pages);
	bp_json_bool(j, "lower_bound", t->lost_events || t->lost_pages);
	bp_json_bool(j, "truncated", t->truncated);
	bp_json_u64(j, "first_ns", t->first_ns);
	bp_json_u64(j, "last_ns", t->last_ns);
	bp_json_u64(j, "span_ns", t->span_ns);
	bp_json_end(j);
}

static void phases(struct bp_json *j, const struct bp_report_opts *o)
{
	size_t i;

	bp_json_array_begin(j, "phases");
	for (i = 0; i < o->nphases; i++) {
		const struct bp_phase *p = &o->phases[i];

		bp_json_object_begin(j, NULL);
		bp_json_string(j, "name", p->name);
		bp_json_string(j, "ends_at", p->kind == BP_PHASE_BUILTIN ? p->name : bp_phase_kind_name(p->kind));
		bp_json_bool(j, "reached", p->reached);
		if (p->reached) {
			bp_json_u64(j, "start_ns", p->start_ns);
			bp_json_u64(j, "end_ns", p->end_ns);
			bp_json_u64(j, "duration_ns", p->end_ns - p->start_ns);
			bp_json_u64(j, "wait_ns", p->wait_ns);
			bp_json_u64(j, "read_bytes", p->read_bytes);
			bp_json_u64(j, "idle_wait_ns", p->idle_wait_ns);
		}
		bp_json_end(j);
	}
	bp_json_end(j);
}

static void processes(struct bp_json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_process **v;
	size_t n = bp_model_select_processes(m, &o->filter, BP_SORT_PROC_WAIT, &v), i, k;

	if (o->top && n > o->top)
		n = o->top;
	bp_json_array_begin(j, "processes");
	for (i = 0; i < n; i++) {
		const struct bp_process *p = v[i];

		bp_json_object_begin(j, NULL);
		bp_json_i64(j, "pid", p->pid);
		bp_json_i64(j, "ppid", p->ppid);
		bp_json_string(j, "comm", p->comm);
		bp_json_array_begin(j, "exec");
		for (k = 0; k < p->nexec; k++) {
			bp_json_string(j, NULL, p->exec[k]);
		}
		bp_json_end(j);
		bp_json_array_begin(j, "exec_parts");
		for (k = 0; k < p->nexec; k++) {
			bp_json_object_begin(j, NULL);
			bp_json_string(j, "path", p->exec[k]);
			bp_json_u64(j, "exec_ns", p->exec_part[k].ns);
			bp_json_u64(j, "wait_ns", p->exec_part[k].wait_ns);
			bp_json_u64(j, "bytes_read", p->exec_part[k].bytes_read);
			bp_json_end(j);
		}
		bp_json_end(j);
		if (p->argv) {
			bp_json_array_begin(j, "argv");
			for (k = 0; k < p->nargv; k++)
				bp_json_string(j, NULL, p->argv[k]);
			bp_json_end(j);
		} else {
			bp_json_null(j, "argv");
		}
		bp_json_u64(j, "start_ns", p->start_ns);
		bp_json_u64(j, "exit_ns", p->exit_ns);
		bp_json_u64(j, "threads", p->nthreads);
		bp_json_u64(j, "wait_ns", p->wait_ns);
		causes(j, p->wait_by_cause);
		bp_json_u64(j, "wait_unknown_ns", p->wait_unknown_ns);
		bp_json_u64(j, "other_wait_ns", p->other_wait_ns);
		bp_json_u64(j, "run_ns", p->run_ns);
		bp_json_u64(j, "bytes_read", p->bytes_read);
		bp_json_u64(j, "metadata_bytes", p->metadata_bytes);
		bp_json_u64(j, "files", p->nfiles);
		bp_json_string(j, "worst_file", p->worst_file ? p->worst_file->path : NULL);
		bp_json_array_begin(j, "children");
		for (k = 0; k < p->nchildren; k++) {
			bp_json_i64(j, NULL, p->children[k]->pid);
		}
		bp_json_end(j);
		bp_json_u64(j, "tree_wait_ns", p->tree_wait_ns);
		bp_json_u64(j, "tree_bytes_read", p->tree_bytes_read);
		bp_json_u64(j, "tree_processes", p->tree_processes);
		bp_json_string(j, "service", p->service ? p->service->path : NULL);
		bp_json_end(j);
	}
	bp_json_end(j);
	free(v);
}

static void file_obj(struct bp_json *j, const struct bp_model *m, const struct bp_file *f,
		     const struct bp_filter *who)
{
	struct bp_file_part part;
	char dev[32];
	size_t k;

	bp_file_part(m, f, who, &part);

	snprintf(dev, sizeof(dev), "%u:%u", BP_DEV_MAJOR(f->dev), BP_DEV_MINOR(f->dev));
	bp_json_object_begin(j, NULL);
	bp_json_string(j, "path", f->path);
	bp_json_string(j, "dev", dev);
	bp_json_u64(j, "ino", f->ino);
	bp_json_string(j, "kind", f->kind == BP_FILE_METADATA ? "metadata" : "file");
	bp_json_bool(j, "resolved", f->resolved);
	bp_json_string(j, "disk", f->disk >= 0 && (size_t)f->disk < m->ndisks ? m->disks[f->disk].name : NULL);
	bp_json_u64(j, "bytes_read", part.bytes_read);
	bp_json_u64(j, "wait_ns", part.wait_ns);
	bp_json_u64(j, "used_bytes", f->used_bytes);
	bp_json_u64(j, "never_used_bytes", f->never_used_bytes);
	bp_json_u64(j, "mapped_unknown_bytes", f->mapped_unknown_bytes);
	bp_json_u64(j, "reread_bytes", f->reread_bytes);
	bp_json_u64(j, "size_pages", f->size_pages);
	bp_json_u64(j, "first_ns", f->first_ns);
	bp_json_u64(j, "last_ns", f->last_ns);
	bp_json_array_begin(j, "readers");
	for (k = 0; k < f->nreaders; k++) {
		const struct bp_access *a = f->readers[k];

		if (!bp_reader_selected(a, who))
			continue;
		bp_json_object_begin(j, NULL);
		bp_json_i64(j, "pid", a->process->pid);
		bp_json_string(j, "comm", a->process->comm);
		bp_json_u64(j, "wait_ns", a->wait_ns);
		bp_json_u64(j, "bytes_read", a->bytes_read);
		bp_json_u64(j, "first_ns", a->first_ns);
		bp_json_u64(j, "last_ns", a->last_ns);
		bp_json_end(j);
	}
	bp_json_end(j);
	bp_json_end(j);
}

static void files(struct bp_json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_file **v;
	size_t n = bp_model_select_files(m, &o->filter, BP_SORT_FILE_WAIT, &v), i;

	if (o->top && n > o->top)
		n = o->top;
	bp_json_array_begin(j, "files");
	for (i = 0; i < n; i++)
		file_obj(j, m, v[i], &o->filter);
	bp_json_end(j);
	free(v);
}

/* A short list of files with a non-zero value of one measure. */
static void file_list(struct bp_json *j, const struct bp_model *m, const struct bp_report_opts *o,
		      const char *name, enum bp_file_sort key)
{
	struct bp_file **v;
	size_t n = bp_model_select_files(m, &o->filter, key, &v), i, k = 0;

	bp_json_array_begin(j, name);
	for (i = 0; i < n && (!o->top || k < o->top); i++) {
		uint64_t val = key == BP_SORT_FILE_NEVER_USED ? v[i]->never_used_bytes :
			       key == BP_SORT_FILE_MAPPED ? v[i]->mapped_unknown_bytes :
							    v[i]->reread_bytes;
		struct bp_file_part part;

		if (!val)
			break;
		/* Files the selection read from storage (the text report's rule). */
		bp_file_part(m, v[i], &o->filter, &part);
		if (!part.bytes_read)
			continue;
		bp_json_object_begin(j, NULL);
		bp_json_string(j, "path", v[i]->path);
		bp_json_u64(j, key == BP_SORT_FILE_NEVER_USED ? "never_used_bytes" :
			       key == BP_SORT_FILE_MAPPED ? "mapped_unknown_bytes" : "reread_bytes", val);
		bp_json_u64(j, "bytes_read", v[i]->bytes_read);
		bp_json_end(j);
		k++;
	}
	bp_json_end(j);
	free(v);
}

static void verdict_fields(struct bp_json *j, const struct bp_preloaded *p,
			   const struct bp_verdict *v)
{
	char key[32];
	int k;

	for (k = 0; k < BP_V_N; k++) {
		uint64_t n = bp_verdict_pages(v, k);
		int known = bp_verdict_known(p, k);

		snprintf(key, sizeof(key), "%s_bytes", bp_verdict_names[k]);
		if (known)
			bp_json_u64(j, key, n * p->page_size);
		else
			bp_json_null(j, key);
		snprintf(key, sizeof(key), "%s_pages", bp_verdict_names[k]);
		if (known)
			bp_json_u64(j, key, n);
		else
			bp_json_null(j, key);
	}
	if (bp_verdict_known(p, BP_V_LATE)) {
		bp_json_u64(j, "late_waits", v->late_waits);
		bp_json_u64(j, "late_wait_ns", v->late_ns);
	} else {
		bp_json_null(j, "late_waits");
		bp_json_null(j, "late_wait_ns");
	}
}

static void preloaded_row(struct bp_json *j, const struct bp_preloaded *p,
			  const struct bp_preloaded_file *f)
{
	size_t r;

	bp_json_object_begin(j, f == &p->total ? "total" : NULL);
	bp_json_string(j, "path", f->path);
	verdict_fields(j, p, &f->v);
	if (f != &p->total) {
		bp_json_array_begin(j, "ranges");
		for (r = 0; r < f->nranges; r++) {
			bp_json_object_begin(j, NULL);
			bp_json_u64(j, "first_page", f->ranges[r].first);
			bp_json_u64(j, "pages", f->ranges[r].count);
			verdict_fields(j, p, &f->ranges[r].v);
			bp_json_end(j);
		}
		bp_json_end(j);
	}
	bp_json_end(j);
}

/* What a replayed boot's preloader read (readahead --preloaded), when it has one. */
static void preloaded(struct bp_json *j, const struct bp_report_opts *o)
{
	const struct bp_preloaded *p = o->preloaded;
	size_t i;

	if (!p)
		return;
	bp_json_object_begin(j, "preloaded");
	bp_json_u64(j, "processes", p->replay_pids);
	bp_json_bool(j, "markers", !p->markers_missing);
	preloaded_row(j, p, &p->total);
	bp_json_array_begin(j, "files");
	for (i = 0; i < p->nfiles && (!o->top || i < o->top); i++)
		preloaded_row(j, p, &p->files[i]);
	bp_json_end(j);
	bp_json_end(j);
}

static void disks_execs_timeline(struct bp_json *j, const struct bp_model *m,
				 const struct bp_report_opts *o)
{
	struct bp_service_row *services;
	struct bp_exec_count *execs;
	char dev[32], row[128];
	size_t i, n, nservices;

	bp_json_array_begin(j, "disks");
	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *d = &m->disks[i];

		snprintf(dev, sizeof(dev), "%u:%u", BP_DEV_MAJOR(d->dev), BP_DEV_MINOR(d->dev));
		bp_json_object_begin(j, NULL);
		bp_json_string(j, "name", d->name);
		bp_json_string(j, "dev", dev);
		if (d->rotational < 0)
			bp_json_null(j, "rotational");
		else
			bp_json_bool(j, "rotational", d->rotational);
		bp_json_u64(j, "size", d->size);
		bp_json_u64(j, "metadata_bytes", d->metadata_bytes);
		bp_json_u64(j, "metadata_wait_ns", d->metadata_wait_ns);
		bp_json_u64(j, "file_bytes", d->file_bytes);
		bp_json_u64(j, "rq_read_bytes", d->rq_read_bytes);
		bp_json_u64(j, "rq_reads", d->rq_reads);
		bp_json_u64(j, "rq_write_bytes", d->rq_write_bytes);
		bp_json_end(j);
	}
	bp_json_end(j);
	services = bp_view_services(m, &o->filter, &nservices);
	bp_json_array_begin(j, "services");
	for (i = 0; i < nservices; i++) {
		const struct bp_service_row *r = &services[i];

		bp_json_object_begin(j, NULL);
		bp_json_string(j, "path", r->service ? r->service->path : NULL);
		bp_json_u64(j, "processes", r->nprocesses);
		bp_json_u64(j, "wait_ns", r->wait_ns);
		bp_json_u64(j, "bytes_read", r->bytes_read);
		bp_json_u64(j, "run_ns", r->run_ns);
		bp_json_string(j, "unit", r->unit);
		bp_json_u64(j, "first_start_ns", r->first_start_ns);
		bp_json_u64_known(j, "first_exec_ns", r->first_exec_ns, r->first_exec != NULL);
		bp_json_string(j, "first_exec", r->first_exec);
		if (r->running)
			bp_json_null(j, "last_exit_ns");
		else
			bp_json_u64(j, "last_exit_ns", r->last_exit_ns);
		bp_json_bool(j, "running", r->running);
		bp_json_end(j);
	}
	bp_json_end(j);
	free(services);
	n = bp_model_select_execs(m, &o->filter, &execs);
	bp_json_array_begin(j, "execs");
	for (i = 0; i < n; i++) {
		bp_json_object_begin(j, NULL);
		bp_json_string(j, "path", execs[i].path);
		bp_json_u64(j, "count", execs[i].count);
		bp_json_u64(j, "wait_ns", execs[i].wait_ns);
		bp_json_u64(j, "bytes_read", execs[i].bytes_read);
		bp_json_end(j);
	}
	bp_json_end(j);
	free(execs);
	bp_json_object_begin(j, "timeline");
	bp_json_u64(j, "start_ns", m->timeline_start_ns);
	bp_json_u64(j, "bucket_ns", m->window.bucket_ns);
	bp_json_raw(j, "columns", "[\"wait_ns\", \"idle_wait_ns\", \"read_bytes\", "
		    "\"rq_read_bytes\", \"waiting_max\"]");
	bp_json_array_begin(j, "buckets");
	for (i = 0; i < m->nbuckets; i++) {
		const struct bp_bucket *b = &bp_focus_timeline_of(m, o->focus_pid)[i];

		snprintf(row, sizeof(row), "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %u]",
			 b->wait_ns, b->idle_wait_ns, b->read_bytes, b->rq_read_bytes, b->waiting_max);
		bp_json_raw(j, NULL, row);
	}
	bp_json_end(j);
	bp_json_end(j);
}

/* The text report's first lines (verdict.c), as they are printed. */
static void verdict(struct bp_json *j, const struct bp_model *m, const struct bp_report_opts *o)
{
	char lines[BP_VERDICT_LINES][BP_VERDICT_LEN];
	size_t n = bp_verdict(m, o, lines), i;

	bp_json_array_begin(j, "verdict");
	for (i = 0; i < n; i++)
		bp_json_string(j, NULL, lines[i]);
	bp_json_end(j);
}

int bp_view_json(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_json j;

	bp_json_init(&j, out, 0);
	bp_json_object_begin(&j, NULL);
	bp_json_u64(&j, "schema_version", SCHEMA_VERSION);
	verdict(&j, m, o);
	recording(&j, m, o);
	totals(&j, m, o);
	phases(&j, o);
	processes(&j, m, o);
	files(&j, m, o);
	file_list(&j, m, o, "never_used", BP_SORT_FILE_NEVER_USED);
	file_list(&j, m, o, "mapped_unknown", BP_SORT_FILE_MAPPED);
	file_list(&j, m, o, "reread", BP_SORT_FILE_REREAD);
	preloaded(&j, o);
	disks_execs_timeline(&j, m, o);
	if (o->plugins)
		bp_node_json(&j, "plugins", o->plugins->json);
	bp_json_end(&j);
	fputc('\n', out);
	return 0;
}
