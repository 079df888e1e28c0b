// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof report --format csv --table NAME: one table, a header row, exact
 * integers (ns, bytes). Lists honour --top and the filters.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/focus.h"
#include "doc/format.h"
#include "replay/build.h"
#include "util/error.h"
#include "views/report.h"

const char *const bp_csv_tables[] = {
	"processes", "files", "readers", "never-used", "mapped-unknown", "reread", "disks", "execs", "timeline",
	"totals", "summary", "services", "preloaded", NULL,
};

static size_t cap(const struct bp_report_opts *o, size_t n)
{
	return o->top && o->top < n ? o->top : n;
}

static void processes(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_process **v;
	size_t n = bp_model_select_processes(m, &o->filter, BP_SORT_PROC_WAIT, &v), i;
	int c;

	fputs("pid,ppid,comm,exec,start_ns,exit_ns,threads,wait_ns", out);
	for (c = 0; c < BP_NCAUSES; c++)
		fprintf(out, ",wait_%s_ns", bp_cause_name((enum bp_cause)c));
	fputs(",wait_unknown_ns,run_ns,bytes_read,metadata_bytes,files,worst_file,"
	      "tree_wait_ns,tree_bytes_read,tree_processes,service\n", out);
	for (i = 0; i < cap(o, n); i++) {
		const struct bp_process *p = v[i];

		fprintf(out, "%d,%d,", p->pid, p->ppid);
		bp_csv_str(out, p->comm);
		fputc(',', out);
		bp_csv_str(out, p->nexec ? p->exec[p->nexec - 1] : "");
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%zu,%" PRIu64, p->start_ns, p->exit_ns,
			p->nthreads, p->wait_ns);
		for (c = 0; c < BP_NCAUSES; c++)
			fprintf(out, ",%" PRIu64, p->wait_by_cause[c]);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu,", p->wait_unknown_ns,
			p->run_ns, p->bytes_read, p->metadata_bytes, p->nfiles);
		bp_csv_str(out, p->worst_file ? p->worst_file->path : "");
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%zu,", p->tree_wait_ns, p->tree_bytes_read,
			p->tree_processes);
		bp_csv_str(out, p->service ? p->service->path : "");
		fputc('\n', out);
	}
	free(v);
}

static void files(FILE *out, const struct bp_model *m, const struct bp_report_opts *o,
		  enum bp_file_sort key)
{
	struct bp_file **v;
	size_t n = bp_model_select_files(m, &o->filter, key, &v), i, k = 0;

	/* New columns go last: scripts read the others by position. */
	fputs("path,dev,ino,kind,bytes_read,wait_ns,used_bytes,never_used_bytes,reread_bytes,"
	      "readers,first_ns,last_ns,mapped_unknown_bytes\n", out);
	for (i = 0; i < n && (!o->top || k < o->top); i++) {
		const struct bp_file *f = v[i];
		struct bp_file_part part;

		if ((key == BP_SORT_FILE_NEVER_USED && !f->never_used_bytes) ||
		    (key == BP_SORT_FILE_MAPPED && !f->mapped_unknown_bytes) ||
		    (key == BP_SORT_FILE_REREAD && !f->reread_bytes))
			break;
		bp_file_part(m, f, &o->filter, &part);
		/* Never used and re-read: files the selection read from storage. */
		if (key != BP_SORT_FILE_WAIT && !part.bytes_read)
			continue;
		bp_csv_str(out, f->path);
		fprintf(out, ",%u:%u,%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", BP_DEV_MAJOR(f->dev),
			BP_DEV_MINOR(f->dev), f->ino, f->kind == BP_FILE_METADATA ? "metadata" : "file",
			part.bytes_read, part.wait_ns, f->used_bytes, f->never_used_bytes,
			f->reread_bytes, part.nreaders, f->first_ns, f->last_ns, f->mapped_unknown_bytes);
		k++;
	}
	free(v);
}

static void readers(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_file **v;
	size_t n = bp_model_select_files(m, &o->filter, BP_SORT_FILE_WAIT, &v), i, k;

	fputs("path,pid,comm,wait_ns,bytes_read,first_ns,last_ns\n", out);
	for (i = 0; i < cap(o, n); i++) {
		for (k = 0; k < v[i]->nreaders; k++) {
			const struct bp_access *a = v[i]->readers[k];

			if (!bp_reader_selected(a, &o->filter))
				continue;
			bp_csv_str(out, v[i]->path);
			fprintf(out, ",%d,", a->process->pid);
			bp_csv_str(out, a->process->comm);
			fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", a->wait_ns,
				a->bytes_read, a->first_ns, a->last_ns);
		}
	}
	free(v);
}

static void disks(FILE *out, const struct bp_model *m)
{
	size_t i;

	fputs("name,dev,rotational,size,metadata_bytes,metadata_wait_ns,file_bytes,"
	      "rq_read_bytes,rq_reads,rq_write_bytes\n", out);
	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *d = &m->disks[i];

		bp_csv_str(out, d->name);
		fprintf(out, ",%u:%u,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 "\n", BP_DEV_MAJOR(d->dev), BP_DEV_MINOR(d->dev),
			d->rotational, d->size, d->metadata_bytes, d->metadata_wait_ns, d->file_bytes,
			d->rq_read_bytes, d->rq_reads, d->rq_write_bytes);
	}
}

static void execs(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_exec_count *v;
	size_t i, n = bp_model_select_execs(m, &o->filter, &v);

	fputs("path,count,wait_ns,bytes_read\n", out);
	for (i = 0; i < cap(o, n); i++) {
		bp_csv_str(out, v[i].path);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", v[i].count, v[i].wait_ns,
			v[i].bytes_read);
	}
	free(v);
}

static void services(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	size_t i, n;
	struct bp_service_row *v = bp_view_services(m, &o->filter, &n);

	fputs("path,processes,wait_ns,bytes_read,run_ns,unit,first_start_ns,last_exit_ns,running,"
	      "first_exec_ns,first_exec\n", out);
	for (i = 0; i < cap(o, n); i++) {
		bp_csv_str(out, v[i].service ? v[i].service->path : "");
		fprintf(out, ",%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", v[i].nprocesses,
			v[i].wait_ns, v[i].bytes_read, v[i].run_ns);
		bp_csv_str(out, v[i].unit);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%d,%" PRIu64 ",", v[i].first_start_ns,
			v[i].last_exit_ns, v[i].running, v[i].first_exec_ns);
		bp_csv_str(out, v[i].first_exec ? v[i].first_exec : "");
		fputc('\n', out);
	}
	free(v);
}

static void verdict_cells(FILE *out, const struct bp_preloaded *p, const struct bp_verdict *v)
{
	int k;

	for (k = 0; k < BP_V_N; k++) {
		uint64_t n = bp_verdict_pages(v, k);

		if (bp_verdict_known(p, k))
			fprintf(out, ",%" PRIu64 ",%" PRIu64, n * p->page_size, n);
		else
			fputs(",,", out);
	}
	if (bp_verdict_known(p, BP_V_LATE))
		fprintf(out, ",%" PRIu64 ",%" PRIu64 "\n", v->late_waits, v->late_ns);
	else
		fputs(",,\n", out);
}

/*
 * A recording with a preloader: the verdict per file (first_page and
 * pages empty), each followed by its pack ranges; a verdict the recording
 * cannot tell is empty. No row without a preloader.
 */
static void preloaded(FILE *out, const struct bp_report_opts *o)
{
	const struct bp_preloaded *p = o->preloaded;
	size_t i, r;
	int k;

	fputs("path,first_page,pages", out);
	for (k = 0; k < BP_V_N; k++)
		fprintf(out, ",%s_bytes,%s_pages", bp_verdict_names[k], bp_verdict_names[k]);
	fputs(",late_waits,late_wait_ns\n", out);
	for (i = 0; p && i < cap(o, p->nfiles); i++) {
		const struct bp_preloaded_file *f = &p->files[i];

		bp_csv_str(out, f->path);
		fputs(",,", out);
		verdict_cells(out, p, &f->v);
		for (r = 0; r < f->nranges; r++) {
			bp_csv_str(out, f->path);
			fprintf(out, ",%" PRIu64 ",%" PRIu64, f->ranges[r].first, f->ranges[r].count);
			verdict_cells(out, p, &f->ranges[r].v);
		}
	}
}

static void timeline(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	const struct bp_bucket *tl = bp_focus_timeline_of(m, o->focus_pid);
	size_t i;

	fputs("start_ns,wait_ns,idle_wait_ns,read_bytes,rq_read_bytes,waiting_max\n", out);
	for (i = 0; i < m->nbuckets; i++) {
		const struct bp_bucket *b = &tl[i];

		fprintf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u\n",
			m->timeline_start_ns + i * m->window.bucket_ns, b->wait_ns, b->idle_wait_ns,
			b->read_bytes, b->rq_read_bytes, b->waiting_max);
	}
}

static void totals(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	const struct bp_totals *t = bp_focus_totals_of(m, o->focus_pid);
	int c;

	fputs("key,value\n", out);
	fprintf(out, "read_bytes,%" PRIu64 "\nmetadata_bytes,%" PRIu64 "\nnonblock_bytes,%" PRIu64
		"\nwrite_insert_bytes,%" PRIu64 "\nrq_read_bytes,%" PRIu64
		"\nattributed_permille,%" PRId64 "\nwait_ns,%" PRIu64 "\n",
		t->read_bytes, t->metadata_bytes, t->nonblock_bytes, t->write_insert_bytes, t->rq_read_bytes,
		t->attributed_permille, t->wait_ns);
	for (c = 0; c < BP_NCAUSES; c++)
		fprintf(out, "wait_%s_ns,%" PRIu64 "\n", bp_cause_name((enum bp_cause)c),
			t->wait_by_cause[c]);
	fprintf(out, "wait_metadata_ns,%" PRIu64 "\nwait_unknown_ns,%" PRIu64 "\nidle_wait_ns,%"
		PRIu64 "\nnever_used_bytes,%" PRIu64 "\nused_bytes,%" PRIu64
		"\nmapped_unknown_bytes,%" PRIu64 "\nreread_bytes,%" PRIu64
		"\nevents,%" PRIu64 "\nlost_events,%" PRIu64 "\nspan_ns,%" PRIu64 "\n",
		t->wait_metadata_ns, t->wait_unknown_ns, t->idle_wait_ns, t->never_used_bytes,
		t->used_bytes, t->mapped_unknown_bytes, t->reread_bytes, t->events, t->lost_events,
		t->span_ns);
	fprintf(out, "other_wait_ns,%" PRIu64 "\niowait_source,%s\nsleeps_kernel,%" PRIu64
		"\nsleeps_inferred,%" PRIu64 "\n", t->other_wait_ns,
		bp_iowait_source_name(t->iowait_source), t->sleeps_kernel, t->sleeps_inferred);
}

int bp_view_csv(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	const char *t = o->table ? o->table : "processes";

	if (!strcmp(t, "processes"))
		processes(out, m, o);
	else if (!strcmp(t, "files"))
		files(out, m, o, BP_SORT_FILE_WAIT);
	else if (!strcmp(t, "readers"))
		readers(out, m, o);
	else if (!strcmp(t, "never-used"))
		files(out, m, o, BP_SORT_FILE_NEVER_USED);
	else if (!strcmp(t, "mapped-unknown"))
		files(out, m, o, BP_SORT_FILE_MAPPED);
	else if (!strcmp(t, "reread"))
		files(out, m, o, BP_SORT_FILE_REREAD);
	else if (!strcmp(t, "disks"))
		disks(out, m);
	else if (!strcmp(t, "execs"))
		execs(out, m, o);
	else if (!strcmp(t, "timeline"))
		timeline(out, m, o);
	else if (!strcmp(t, "services"))
		services(out, m, o);
	else if (!strcmp(t, "preloaded"))
		preloaded(out, o);
	else if (!strcmp(t, "totals") || !strcmp(t, "summary"))
		totals(out, m, o);
	else {
		bp_set_error("unknown table '%s'", t);
		return -1;
	}
	return 0;
}
