// SPDX-License-Identifier: GPL-2.0
/* The Trace Event Format writer (see chrome.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critical.h"
#include "analysis/focus.h"
#include "doc/format.h"
#include "util/error.h"
#include "util/json.h"
#include "util/xalloc.h"
#include "views/chrome.h"
#include "views/timeline.h"

struct bp_chrome {
	FILE *out;
	struct bp_json jw;        /* the document; its events one a line */
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

/* A length of @ns (negative when @neg) in microseconds, with ns decimals. */
static void jus(struct bp_chrome *x, const char *key, int neg, uint64_t ns)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%s%" PRIu64 ".%03" PRIu64, neg ? "-" : "", ns / 1000, ns % 1000);
	bp_json_raw(&x->jw, key, buf);
}

/* Microseconds from the origin, with ns decimals. */
static void jts(struct bp_chrome *x, const char *key, uint64_t ns)
{
	if (ns >= x->o.origin_ns)
		jus(x, key, 0, ns - x->o.origin_ns);
	else
		jus(x, key, 1, x->o.origin_ns - ns);
}

/* An event's object, left open for its other members. */
static void event_head(struct bp_chrome *x, const char *ph, const char *name, int pid, int tid)
{
	bp_json_object_begin(&x->jw, NULL);
	bp_json_string(&x->jw, "ph", ph);
	bp_json_string(&x->jw, "name", name);
	bp_json_i64(&x->jw, "pid", pid);
	bp_json_i64(&x->jw, "tid", tid);
}

static void name_meta(struct bp_chrome *x, const char *what, int pid, int tid, const char *name)
{
	event_head(x, "M", what, pid, tid);
	bp_json_object_begin(&x->jw, "args");
	bp_json_string(&x->jw, "name", name);
	bp_json_end(&x->jw);
	bp_json_end(&x->jw);
}

struct bp_chrome *bp_chrome_begin(FILE *out, const struct bp_model *m,
				  const struct bp_chrome_opts *o)
{
	struct bp_chrome *x = xcalloc(1, sizeof(*x));
	const struct bp_model_header *h = &m->header;
	struct bp_json *jw = &x->jw;
	size_t i;

	x->out = out;
	x->m = m;
	x->o = *o;
	x->focus_pid = bp_focus_command(m, o->all, &x->focus);
	bp_json_init_compact(jw, out);
	bp_json_object_begin(jw, NULL);
	bp_json_string(jw, "displayTimeUnit", "ms");
	bp_json_object_begin(jw, "otherData");
	bp_json_string(jw, "generator", "bootprof " BOOTPROF_VERSION);
	bp_json_string(jw, "recording", o->file);
	bp_json_string(jw, "host", h->hostname);
	bp_json_string(jw, "kernel", h->kernel_release);
	bp_json_string(jw, "clock", h->clock);
	bp_json_string(jw, "stop_reason", h->stop_reason);
	bp_json_string(jw, "iowait_source", bp_iowait_source_name(m->totals.iowait_source));
	if (x->focus_pid)
		bp_json_i64(jw, "command_pid", x->focus_pid);
	bp_json_u64(jw, "origin_ns", o->origin_ns);
	bp_json_u64(jw, "since_ns", m->window.since_ns);
	bp_json_u64(jw, "until_ns", m->window.until_ns);
	bp_json_u64(jw, "lost_events", m->totals.lost_events);
	bp_json_end(jw);
	bp_json_newline(jw);
	bp_json_array_begin_lines(jw, "traceEvents");
	name_meta(x, "process_name", 0, 0, "system (counters, phases)");
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
	jus(x, "dur", 0, span->end_ns - span->start_ns);
	if (span->state == BP_SPAN_RUN) {
		bp_json_object_begin(&x->jw, "args");
		bp_json_i64(&x->jw, "cpu", span->cpu);
		bp_json_end(&x->jw);
	} else if (span->state == BP_SPAN_IO_WAIT) {
		f = span->dev || span->ino ?
			    wait_file(x, t ? t->process : NULL, span->dev, span->ino, &bytes) : NULL;
		bp_json_object_begin(&x->jw, "args");
		bp_json_string(&x->jw, "cause", bp_cause_name(span->cause));
		bp_json_string(&x->jw, "file", f ? f->path : NULL);
		bp_json_u64(&x->jw, "bytes", f ? bytes : 0);
		bp_json_end(&x->jw);
	}
	bp_json_end(&x->jw);
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
	bp_json_object_begin(&x->jw, "args");
	bp_json_double(&x->jw, key, v);
	bp_json_end(&x->jw);
	bp_json_end(&x->jw);
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
		bp_json_string(&x->jw, "s", "t");
		bp_json_object_begin(&x->jw, "args");
		bp_json_string(&x->jw, "file", f->path);
		bp_file_part(m, f, &x->focus, &part);
		bp_json_u64(&x->jw, "bytes", part.bytes_read);
		bp_json_end(&x->jw);
		bp_json_end(&x->jw);
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
		bp_json_string(&x->jw, "s", "g");
		bp_json_end(&x->jw);
		free(name);
	}
}

/* One end of a flow event: "s" on the waker, "f" on the woken. */
static void flow_end(struct bp_chrome *x, const char *ph, size_t id,
		     const struct bp_crit_task *t, uint64_t ns)
{
	event_head(x, ph, "critical path", t->pid, t->tid);
	bp_json_string(&x->jw, "cat", "critical");
	bp_json_u64(&x->jw, "id", id);
	jts(x, "ts", ns);
	bp_json_end(&x->jw);
}

/*
 * Whether task @t's spans at @ns are in the trace: a thread of the model
 * (not the recorder's), in the focus.
 */
static int in_trace(const struct bp_chrome *x, const struct bp_crit_task *t, uint64_t ns)
{
	const struct bp_thread *th = bp_model_find_thread(x->m, t->tid, ns);

	if (!th || th->tid <= 0)
		return 0;
	return !x->focus_pid || (th->process && bp_process_matches(x->m, th->process, &x->focus));
}

/*
 * From each waker to the woken, for the waits the critical path went
 * around; a flow with an end outside the trace would bind to nothing.
 */
static void critical_flows(struct bp_chrome *x)
{
	const struct bp_critical_path *p = x->o.critical;
	size_t i;

	for (i = 0; p && i < p->nwaits; i++) {
		const struct bp_crit_wait *w = &p->waits[i];

		if (w->end_ns < x->m->window.since_ns || w->end_ns > x->m->window.until_ns ||
		    !in_trace(x, &w->waker, w->end_ns) || !in_trace(x, &w->sleeper, w->end_ns))
			continue;
		flow_end(x, "s", i + 1, &w->waker, w->end_ns);
		flow_end(x, "f", i + 1, &w->sleeper, w->end_ns);
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
		critical_flows(x);
	}
	bp_json_end(&x->jw);
	bp_json_end(&x->jw);
	fputc('\n', x->out);
	if (fflush(x->out) || ferror(x->out)) {
		bp_set_error_errno("cannot write the trace");
		rc = -1;
	}
	free(x);
	return rc;
}
