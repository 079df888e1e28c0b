// SPDX-License-Identifier: GPL-2.0
/* The Trace Event Format writer (see chrome.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/focus.h"
#include "doc/format.h"
#include "util/error.h"
#include "util/xalloc.h"
#include "views/chrome.h"
#include "views/timeline.h"

struct bp_chrome {
	FILE *out;
	const struct bp_model *m;
	struct bp_chrome_opts o;
	/* The last I/O-wait lookup: a task waits on the same file many times in a row. */
	const struct bp_process *last_p;
	uint32_t last_dev;
	uint64_t last_ino;
	const struct bp_file *last_file;
	uint64_t last_bytes;
	struct bp_filter focus;   /* the traced command's tree, or empty: every process */
	int focus_pid;
};

/* Every string goes through here: one place to switch the JSON writer. */
static void jstr(FILE *out, const char *s)
{
	bp_json_str(out, s);
}

/* Microseconds from the origin, with ns decimals. */
static void jts(const struct bp_chrome *x, const char *key, uint64_t ns)
{
	uint64_t d = ns >= x->o.origin_ns ? ns - x->o.origin_ns : x->o.origin_ns - ns;

	fprintf(x->out, ",\"%s\":%s%" PRIu64 ".%03" PRIu64, key, ns >= x->o.origin_ns ? "" : "-",
		d / 1000, d % 1000);
}

static void event_head(struct bp_chrome *x, const char *ph, const char *name, int pid, int tid)
{
	fprintf(x->out, ",\n{\"ph\":\"%s\",\"name\":", ph);
	jstr(x->out, name);
	fprintf(x->out, ",\"pid\":%d,\"tid\":%d", pid, tid);
}

static void name_meta(struct bp_chrome *x, const char *what, int pid, int tid, const char *name)
{
	event_head(x, "M", what, pid, tid);
	fputs(",\"args\":{\"name\":", x->out);
	jstr(x->out, name);
	fputs("}}", x->out);
}

static void other_str(FILE *out, const char *key, const char *v)
{
	fprintf(out, ",\"%s\":", key);
	jstr(out, v);
}

struct bp_chrome *bp_chrome_begin(FILE *out, const struct bp_model *m,
				  const struct bp_chrome_opts *o)
{
	struct bp_chrome *x = xcalloc(1, sizeof(*x));
	const struct bp_model_header *h = &m->header;
	size_t i;

	x->out = out;
	x->m = m;
	x->o = *o;
	x->focus_pid = bp_focus_command(m, o->all, &x->focus);
	fprintf(out, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"bootprof %s\"",
		BOOTPROF_VERSION);
	other_str(out, "recording", o->file);
	other_str(out, "host", h->hostname);
	other_str(out, "kernel", h->kernel_release);
	other_str(out, "clock", h->clock);
	other_str(out, "stop_reason", h->stop_reason);
	other_str(out, "iowait_source", bp_iowait_source_name(m->totals.iowait_source));
	if (x->focus_pid)
		fprintf(out, ",\"command_pid\":%d", x->focus_pid);
	fprintf(out, ",\"origin_ns\":%" PRIu64 ",\"since_ns\":%" PRIu64 ",\"until_ns\":%" PRIu64
		",\"lost_events\":%" PRIu64 "},\n\"traceEvents\":[\n", o->origin_ns,
		m->window.since_ns, m->window.until_ns, m->totals.lost_events);
	/* The first element, so that every later one starts with a comma. */
	fputs("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,"
	      "\"args\":{\"name\":\"system (counters, phases)\"}}", out);
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		char *name;

		if (!bp_process_matches(m, p, &x->focus))
			continue;
		name = p->nexec ? xasprintf("%s (%s)", p->comm, p->exec[p->nexec - 1]) :
				  xstrdup(p->comm);
		if (p->pid > 0)
			name_meta(x, "process_name", p->pid, p->pid, name);
		free(name);
	}
	for (i = 0; i < m->nthreads; i++) {
		const struct bp_thread *t = &m->threads[i];

		if (x->focus_pid && (!t->process || !bp_process_matches(m, t->process, &x->focus)))
			continue;
		if (t->tid > 0)
			name_meta(x, "thread_name", t->process ? t->process->pid : t->tid, t->tid,
				  t->comm);
	}
	return x;
}

/* What the waiting process read of the file it waited on, and the file. */
static const struct bp_file *wait_file(struct bp_chrome *x, const struct bp_process *p,
				       uint32_t dev, uint64_t ino, uint64_t *bytes)
{
	const struct bp_file *f;
	size_t i;

	if (p == x->last_p && dev == x->last_dev && ino == x->last_ino) {
		*bytes = x->last_bytes;
		return x->last_file;
	}
	f = bp_model_find_file(x->m, dev, ino);
	*bytes = 0;
	for (i = 0; f && p && i < p->nfiles; i++) {
		if (p->files[i]->file == f) {
			*bytes = p->files[i]->bytes_read;
			break;
		}
	}
	x->last_p = p;
	x->last_dev = dev;
	x->last_ino = ino;
	x->last_file = f;
	x->last_bytes = *bytes;
	return f;
}

void bp_chrome_span(void *arg, const struct bp_span *span)
{
	struct bp_chrome *x = arg;
	const struct bp_thread *t;
	const struct bp_file *f;
	const char *name;
	uint64_t bytes;
	int pid;

	switch (span->state) {
	case BP_SPAN_RUN:
		name = "running";
		break;
	case BP_SPAN_IO_WAIT:
		name = "I/O wait";
		break;
	case BP_SPAN_OTHER_WAIT:
		name = "other uninterruptible sleep";
		break;
	default:
		return; /* runnable and sleeping: the gaps between events */
	}
	if (span->tid <= 0 || span->end_ns <= span->start_ns)
		return;
	t = bp_model_find_thread(x->m, span->tid, span->start_ns);
	/* Outside the focus: not in the trace (the disk counters stay the machine's). */
	if (x->focus_pid && (!t || !t->process || !bp_process_matches(x->m, t->process, &x->focus)))
		return;
	pid = t && t->process ? t->process->pid : span->tid;
	event_head(x, "X", name, pid, span->tid);
	jts(x, "ts", span->start_ns);
	fprintf(x->out, ",\"dur\":%" PRIu64 ".%03" PRIu64, (span->end_ns - span->start_ns) / 1000,
		(span->end_ns - span->start_ns) % 1000);
	if (span->state == BP_SPAN_RUN) {
		fprintf(x->out, ",\"args\":{\"cpu\":%d}}", span->cpu);
		return;
	}
	if (span->state != BP_SPAN_IO_WAIT) {
		fputs("}", x->out);
		return;
	}
	fputs(",\"args\":{\"cause\":", x->out);
	jstr(x->out, bp_cause_name(span->cause));
	f = span->dev || span->ino ?
		    wait_file(x, t ? t->process : NULL, span->dev, span->ino, &bytes) : NULL;
	fputs(",\"file\":", x->out);
	jstr(x->out, f ? f->path : NULL);
	fprintf(x->out, ",\"bytes\":%" PRIu64 "}}", f ? bytes : 0);
}

/* A counter sample, written only when the value changes (and at the end). */
static void counter(struct bp_chrome *x, const char *name, const char *key, uint64_t ns,
		    double v, double *last, int force)
{
	if (!force && v == *last)
		return;
	*last = v;
	event_head(x, "C", name, 0, 0);
	jts(x, "ts", ns);
	fprintf(x->out, ",\"args\":{\"%s\":%.3f}}", key, v);
}

/*
 * Bucket k of the timeline: its start, and its width inside the window
 * (the last one may end early). 0 when it starts at or after the window's end.
 */
static uint64_t bucket_width(const struct bp_model *m, size_t k, uint64_t *start)
{
	*start = m->timeline_start_ns + k * m->window.bucket_ns;
	if (*start >= m->window.until_ns)
		return 0;
	return m->window.until_ns - *start < m->window.bucket_ns ? m->window.until_ns - *start :
								     m->window.bucket_ns;
}

/* Bytes in a bucket of width ns as MB/s (= bytes per µs). */
static double mb_per_s(uint64_t bytes, uint64_t width)
{
	return width ? (double)bytes * 1e3 / (double)width : 0;
}

/*
 * Per disk read from in the window: "disk read NAME" (MB/s) and, when the
 * recording has completions, "in flight NAME" (the most requests in
 * flight in each bucket). Each track ends with a 0 after its last bucket
 * and at the window's end.
 */
static void disk_counters(struct bp_chrome *x, const struct bp_model *m)
{
	int flight, nkinds = m->missing & BP_MISSING_RQ_COMPLETE ? 1 : 2;
	size_t i, k;

	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *d = &m->disks[i];

		if (!d->rq_read_bytes || !d->timeline)
			continue;
		for (flight = 0; flight < nkinds; flight++) {
			char *name = xasprintf("%s %s", flight ? "in flight" : "disk read", d->name);
			const char *key = flight ? "requests" : "MB/s";
			double last = -1, v;
			uint64_t ns, width;

			for (k = 0; k <= d->ntimeline && (width = bucket_width(m, k, &ns)); k++) {
				const struct bp_disk_bucket *b = k < d->ntimeline ? &d->timeline[k] : NULL;

				v = !b ? 0 : flight ? b->inflight_max : mb_per_s(b->rq_read_bytes, width);
				counter(x, name, key, ns, v, &last, 0);
			}
			counter(x, name, key, m->window.until_ns, 0, &last, 1);
			free(name);
		}
	}
}

static void counters(struct bp_chrome *x, const struct bp_model *m)
{
	double last_mb = -1, last_wait = -1;
	uint64_t ns, width;
	size_t k;

	if (!m->nbuckets || !m->window.bucket_ns)
		return;
	for (k = 0; k <= m->nbuckets && (width = bucket_width(m, k, &ns)); k++) {
		/* Disk reads are the machine's; tasks waiting, the focus's. */
		const struct bp_bucket *b = k < m->nbuckets ?
					    &bp_focus_timeline_of(m, x->focus_pid)[k] : NULL;

		counter(x, "disk read", "MB/s", ns, b ? mb_per_s(b->rq_read_bytes, width) : 0,
			&last_mb, 0);
		counter(x, "tasks in I/O wait", "tasks", ns, b ? b->waiting_max : 0, &last_wait, 0);
	}
	counter(x, "disk read", "MB/s", m->window.until_ns, 0, &last_mb, 1);
	counter(x, "tasks in I/O wait", "tasks", m->window.until_ns, 0, &last_wait, 1);
	disk_counters(x, m);
}

/* Each file's first read: on the thread of its first reader. */
static void first_reads(struct bp_chrome *x, const struct bp_model *m)
{
	size_t i, r;

	for (i = 0; i < m->nfiles; i++) {
		const struct bp_file *f = &m->files[i];
		const struct bp_access *first = NULL;
		struct bp_file_part part;

		if (!f->bytes_read)
			continue;
		for (r = 0; r < f->nreaders; r++) {
			const struct bp_access *a = f->readers[r];

			if (a->bytes_read && bp_reader_selected(a, &x->focus) &&
			    (!first || a->first_ns < first->first_ns))
				first = a;
		}
		if (!first)
			continue;
		event_head(x, "i", "first read", first->process->pid, first->process->pid);
		jts(x, "ts", first->first_ns);
		fputs(",\"s\":\"t\",\"args\":{\"file\":", x->out);
		jstr(x->out, f->path);
		bp_file_part(m, f, &x->focus, &part);
		fprintf(x->out, ",\"bytes\":%" PRIu64 "}}", part.bytes_read);
	}
}

static void phases(struct bp_chrome *x)
{
	size_t i;

	for (i = 0; x->o.marks && i < x->o.marks->nphases; i++) {
		const struct bp_mark *p = &x->o.marks->phases[i];
		char *name = xasprintf("phase: %s", p->name);

		event_head(x, "i", name, 0, 0);
		jts(x, "ts", p->ns);
		fputs(",\"s\":\"g\"}", x->out);
		free(name);
	}
}

int bp_chrome_end(struct bp_chrome *x, const struct bp_model *m)
{
	int rc = 0;

	if (!x)
		return -1;
	if (m) {
		counters(x, m);
		first_reads(x, m);
		phases(x);
	}
	fputs("\n]}\n", x->out);
	if (fflush(x->out) || ferror(x->out)) {
		bp_set_error_errno("cannot write the trace");
		rc = -1;
	}
	free(x);
	return rc;
}
