// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof critical: the critical path as text or Markdown (sections of
 * the document model, laid out by text.c and markdown.c) or JSON. Schema version 1:
 *
 * {
 *   "schema_version": 1,
 *   "recording": string,
 *   "end": { "what": "exit"|"exec"|"file"|"mark"|"last-run", "on": the file,
 *            the unit's cgroup or the mark's name (file:PATH, service:UNIT,
 *            mark ends only), "by": the plugin that gave the mark (mark
 *            ends only), "why": string (--to, the recorded command, the
 *            recording's stop condition, a plugin's mark, PID 1's last
 *            run, the last task to run), "ns", TASK },
 *   "start_ns", "end_ns", "duration_ns",
 *   "wakers_known": bool (the recording has sched_waking),
 *   "by_state": { STATE: ns }          (sums to duration_ns)
 *   "what_if": { "files", "ns" }      (every file with a path on the path
 *                                      in the page cache at the start: the
 *                                      end about ns earlier, an estimate)
 *   "files": [ { "path": string|null (null: I/O of no known file),
 *                "dev": "MAJ:MIN"|null, "ino", "io_ns", "segments" } ]
 *                                      by io_ns; --top
 *   "waits": [ { TASK (the sleeper), "waker": { TASK }, "start_ns" (0:
 *                asleep since before the recording), "end_ns", "ns" (from
 *                start_ns or the recording's start), "uninterruptible": bool,
 *                "via": null | "requeue" | "rwsem" (the part of a sleep up
 *                to where its hold-up ended, another task woke it later:
 *                the waker's futex requeue, or its waking of an rwsem's
 *                queued readers) } ]
 *                                      in time order; all (their time is
 *                                      the wakers' segments: in no total)
 *   "segments": [ { "start_ns", "end_ns", "ns", TASK, "state": STATE,
 *                   "reason": REASON|null, "uninterruptible": bool|null
 *                   (sleeping states), "file": { "path", "dev", "ino" }|null,
 *                   "request": { "dev", "sector", "sectors", "issue_ns"
 *                   (0: before the recording), "done_ns", "issuer":
 *                   { TASK }|null, "upper": { "dev", "sector" }|null (the
 *                   device and sector the file system asked for, when a
 *                   partition or a stacked device remapped it), "nfiles",
 *                   "spans_files": bool (nfiles > 1), "files": [ { "path",
 *                   "dev", "ino" } ] (the first 4, in sector order) }|null,
 *                   "waker": { TASK }|null } ]
 *                                      in time order, tiling [start_ns, end_ns]
 * }
 *
 * TASK is "tid", "pid", "comm". STATE is cpu, runq, io, interrupt,
 * other-dsleep, task, unknown. REASON is not-seen, no-waker, at-end,
 * hardirq, softirq, idle, loop, kernel.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "tracefile/meta.h"
#include "util/json.h"
#include "util/printable.h"
#include "util/units.h"
#include "util/xalloc.h"
#include "views/critical.h"

#define SCHEMA_VERSION 1
#define DEFAULT_WIDTH 100

static const char *reason_name(enum bp_crit_reason r)
{
	static const char *const names[] = {
		NULL, "not-seen", "no-waker", "at-end", "hardirq", "softirq", "idle", "loop",
		"kernel",
	};

	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : NULL;
}

/* A reason in a few words: it shares the detail column with paths. */
static const char *reason_text(enum bp_crit_reason r)
{
	switch (r) {
	case BP_CRIT_WHY_NOT_SEEN:
		return "not seen yet";
	case BP_CRIT_WHY_NO_WAKER:
		return "waker not recorded";
	case BP_CRIT_WHY_AT_END:
		return "asleep at the end";
	case BP_CRIT_WHY_HARDIRQ:
		return "ended by an interrupt";
	case BP_CRIT_WHY_SOFTIRQ:
		return "ended by a softirq";
	case BP_CRIT_WHY_IDLE:
		return "ended by an idle CPU";
	case BP_CRIT_WHY_LOOP:
		return "wakeups in a circle";
	case BP_CRIT_WHY_KERNEL:
		return "started by the kernel";
	default:
		return NULL;
	}
}

/* "comm[tid]" (printable) into buf. */
static char *task_name(char *buf, size_t len, const struct bp_crit_task *t)
{
	char comm[64];

	bp_printable(comm, sizeof(comm), t->comm[0] ? t->comm : "?");
	snprintf(buf, len, "%s[%d]", comm, t->tid);
	return buf;
}

static char *dev_name(char *buf, size_t len, uint32_t dev)
{
	snprintf(buf, len, "%u:%u", BP_DEV_MAJOR(dev), BP_DEV_MINOR(dev));
	return buf;
}

/* ---- text ---- */

/* An instant as the tables show one (seconds, microseconds). */
static const char *instant(char *buf, uint64_t ns)
{
	union bp_value v = { .u = ns };

	return bp_value_text(buf, BP_TIME, &v);
}

/* What a segment's row says after its state: a file, a task, a reason. */
static char *segment_detail(const struct bp_crit_segment *g)
{
	char name[96];

	switch (g->state) {
	case BP_CRIT_IO:
		return xstrdup(g->path ? g->path : "(no file known)");
	case BP_CRIT_TASK_WAIT:
		return xasprintf("on %s", task_name(name, sizeof(name), &g->waker));
	default:
		return reason_text(g->reason) ? xstrdup(reason_text(g->reason)) : NULL;
	}
}

/* "; spans 2 files: A, B" when the request carried pages of more than one file, else "". */
static char *spans_text(const struct bp_crit_request *rq)
{
	char *out = xstrdup(""), *more;
	size_t k;

	if (rq->nfiles < 2)
		return out;
	for (k = 0; k < rq->nfiles && k < BP_CRIT_RQ_FILES; k++) {
		more = xasprintf("%s%s%s", out, k ? ", " : "",
				 rq->files[k].path ? rq->files[k].path : "?");
		free(out);
		out = more;
	}
	if (rq->nfiles > BP_CRIT_RQ_FILES) {
		more = xasprintf("%s and %zu more", out, rq->nfiles - BP_CRIT_RQ_FILES);
		free(out);
		out = more;
	}
	more = xasprintf("; spans %zu files: %s", rq->nfiles, out);
	free(out);
	return more;
}

/*
 * The second line of an I/O row: its request, on the device that
 * completed it, and the device and sector the file system asked for
 * when a partition or a stacked device remapped it.
 */
static char *request_line(const struct bp_crit_segment *g)
{
	const struct bp_crit_request *rq = &g->request;
	char dev[32], upper[32], issued[BP_FMT_LEN], dur[BP_FMT_LEN], bytes[BP_FMT_LEN], who[96];
	char *what, *line, *spans;

	if (!g->has_request)
		return NULL;
	dev_name(dev, sizeof(dev), rq->dev);
	bp_fmt_bytes(bytes, (uint64_t)rq->sectors * 512);
	if (rq->upper_dev)
		what = xasprintf("request %s sector %" PRIu64 " (%s) for %s sector %" PRIu64, dev,
				 rq->sector, bytes, dev_name(upper, sizeof(upper), rq->upper_dev),
				 rq->upper_sector);
	else
		what = xasprintf("request %s sector %" PRIu64 " (%s)", dev, rq->sector, bytes);
	spans = spans_text(rq);
	if (!rq->issue_ns) {
		line = xasprintf("%s, issued before the recording%s", what, spans);
	} else {
		instant(issued, rq->issue_ns);
		bp_fmt_ns(dur, rq->done_ns - rq->issue_ns);
		if (!rq->issuer.tid)
			line = xasprintf("%s, issued at %s, %s to complete%s", what, issued, dur,
					 spans);
		else
			line = xasprintf("%s, issued at %s by %s, %s to complete%s", what, issued,
					 task_name(who, sizeof(who), &rq->issuer), dur, spans);
	}
	free(what);
	free(spans);
	return line;
}

/*
 * The second line of a waker's segment that ends where a sleeper it woke
 * goes on: "woke A[101] (asleep 1.30 s)"; NULL when none did.
 */
static char *woke_line(const struct bp_critical_path *p, size_t *wi,
		       const struct bp_crit_segment *g)
{
	char *line = NULL, name[96], len[BP_FMT_LEN];

	for (; *wi < p->nwaits && p->waits[*wi].end_ns <= g->end_ns; ++*wi) {
		const struct bp_crit_wait *k = &p->waits[*wi];
		char *more;

		if (k->end_ns != g->end_ns || k->waker.tid != g->task.tid)
			continue;
		if (k->start_ns)
			bp_fmt_ns(len, k->end_ns - k->start_ns);
		more = xasprintf("%s%s%s %s (asleep %s)", line ? line : "", line ? "; " : "",
				 k->via == BP_CRIT_VIA_REQUEUE ? "requeued" :
				 k->via == BP_CRIT_VIA_RWSEM ? "granted the rwsem to" : "woke",
				 task_name(name, sizeof(name), &k->sleeper),
				 k->start_ns ? len : "since before the recording");
		free(line);
		line = more;
	}
	return line;
}

static void header_section(struct bp_doc *d, const struct bp_critical_path *p,
			   const struct bp_critical_opts *o)
{
	struct bp_section *s = bp_doc_section(d, "Critical path");
	char name[96], at[BP_FMT_LEN], from[BP_FMT_LEN], len[BP_FMT_LEN];

	bp_section_line(s, "recording: %s", o->file ? o->file : "-");
	if (p->end_by)
		/* A plugin's mark: what it is, who told it. */
		bp_section_line(s, "end: %s at %s, on %s (plugin %s)", p->end_on,
				instant(at, p->end_ns), task_name(name, sizeof(name), &p->end_task),
				p->end_by);
	else
		bp_section_line(s, "end: %s%s%s of %s at %s (%s)",
				!strcmp(p->end_what, "last-run") ? "last run" :
				!strcmp(p->end_what, "file") ? "first event on" : p->end_what,
				!p->end_on ? "" : strcmp(p->end_what, "file") ? " in " : " ",
				p->end_on ? p->end_on : "",
				task_name(name, sizeof(name), &p->end_task), instant(at, p->end_ns),
				p->end_why);
	bp_section_line(s, "path: %s to %s, %s, %zu segments", instant(from, p->start_ns),
			instant(at, p->end_ns), bp_fmt_ns(len, p->end_ns - p->start_ns),
			p->nsegments);
	if (p->wakers_known)
		bp_section_line(s, "wakers: from sched_waking; a sleep another task ended "
				   "goes on from that task (see Waits on other tasks)");
	else
		bp_section_line(s, "wakers: unknown (the recording has no sched_waking): "
				   "sleeps are I/O, other D-sleep or unknown");
}

/* States a row may gather when one task goes through many of them in a row. */
static int gathers(const struct bp_crit_segment *g)
{
	return g->state == BP_CRIT_CPU || g->state == BP_CRIT_RUNQ ||
	       g->state == BP_CRIT_INTERRUPT;
}

/*
 * How many segments from i on one row shows: a run of 3 or more CPU,
 * run-queue and interrupt segments of one task (a busy task preempted
 * again and again, a daemon's timer loop) is one row; JSON lists them all.
 */
static size_t row_of(const struct bp_critical_path *p, size_t i)
{
	const struct bp_crit_segment *g = &p->segments[i];
	size_t n = 1;

	if (!gathers(g))
		return 1;
	while (i + n < p->nsegments && gathers(&p->segments[i + n]) &&
	       p->segments[i + n].task.tid == g->task.tid &&
	       !strcmp(p->segments[i + n].task.comm, g->task.comm))
		n++;
	return n < 3 ? 1 : n;
}

/* A gathered row: its states ("CPU+run-queue") and how long each ("CPU 1.2 s, ..."). */
static void gathered(const struct bp_critical_path *p, size_t i, size_t n, char **states,
		     char **times)
{
	uint64_t ns[BP_CRIT_NSTATES] = { 0 };
	char len[BP_FMT_LEN], *a, *b;
	size_t k;
	int st;

	for (k = i; k < i + n; k++)
		ns[p->segments[k].state] += p->segments[k].end_ns - p->segments[k].start_ns;
	*states = xstrdup("");
	*times = xstrdup("");
	for (st = 0; st < BP_CRIT_NSTATES; st++) {
		if (!ns[st])
			continue;
		a = xasprintf("%s%s%s", *states, **states ? "+" : "",
			      bp_crit_state_title((enum bp_crit_state)st));
		b = xasprintf("%s%s%s %s", *times, **times ? ", " : "",
			      bp_crit_state_title((enum bp_crit_state)st), bp_fmt_ns(len, ns[st]));
		free(*states);
		free(*times);
		*states = a;
		*times = b;
	}
}

static void segments_section(struct bp_doc *d, const struct bp_critical_path *p)
{
	static const char *const titles[] = { "start", "time", "task", "state", "detail" };
	static const enum bp_type types[] = { BP_TIME, BP_NS, BP_TEXT, BP_TEXT, BP_PATH };
	struct bp_section *s = bp_doc_section(d, "Segments");
	char name[96];
	size_t i, n, wi = 0;

	bp_section_columns(s, 5, titles, types, "rrlll");
	for (i = 0; i < p->nsegments; i += n) {
		const struct bp_crit_segment *g = &p->segments[i], *last;
		char *line, *woke, *states = NULL, *times = NULL, *detail;
		union bp_value *v;

		n = row_of(p, i);
		last = &p->segments[i + n - 1];
		woke = woke_line(p, &wi, last);
		if (n > 1) {
			gathered(p, i, n, &states, &times);
			detail = xasprintf("%zu segments", n);
			line = woke ? xasprintf("%s; %s", times, woke) : xstrdup(times);
		} else {
			detail = segment_detail(g);
			line = g->state == BP_CRIT_IO ? request_line(g) : woke ? xstrdup(woke) : NULL;
		}
		v = bp_section_row(s, line);
		v[0].u = g->start_ns;
		v[1].u = last->end_ns - g->start_ns;
		v[2].s = bp_cell_str(task_name(name, sizeof(name), &g->task));
		v[3].s = bp_cell_str(states ? states : bp_crit_state_title(g->state));
		v[4].s = bp_cell_str(detail);
		free(detail);
		free(line);
		free(woke);
		free(states);
		free(times);
	}
}

static uint64_t waits_ns(const struct bp_critical_path *p)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < p->nwaits; i++)
		sum += p->waits[i].end_ns - (p->waits[i].start_ns > p->start_ns ?
					     p->waits[i].start_ns : p->start_ns);
	return sum;
}

static void totals_section(struct bp_doc *d, const struct bp_critical_path *p)
{
	static const char *const titles[] = { "category", "time", "share" };
	static const enum bp_type types[] = { BP_TEXT, BP_NS, BP_TEXT };
	struct bp_section *s = bp_doc_section(d, "Totals");
	uint64_t total = p->end_ns - p->start_ns;
	char pct[BP_FMT_LEN], len[BP_FMT_LEN];
	union bp_value *v;
	int st;

	bp_section_columns(s, 3, titles, types, "lrr");
	for (st = 0; st < BP_CRIT_NSTATES; st++) {
		v = bp_section_row(s, NULL);
		v[0].s = bp_cell_str(bp_crit_state_title((enum bp_crit_state)st));
		v[1].u = p->state_ns[st];
		v[2].s = bp_cell_str(bp_fmt_pct(pct, p->state_ns[st], total));
	}
	v = bp_section_row(s, NULL);
	v[0].s = bp_cell_str("total");
	v[1].u = total;
	v[2].s = bp_cell_str(bp_fmt_pct(pct, total, total));
	if (p->nwaits)
		bp_section_line(s, "not in these: %zu sleeps handed over to the tasks that ended "
				   "them (%s), whose segments cover that time", p->nwaits,
				bp_fmt_ns(len, waits_ns(p)));
}

static void files_section(struct bp_doc *d, const struct bp_critical_path *p, size_t top)
{
	static const char *const titles[] = { "I/O time", "share", "segments", "file" };
	static const enum bp_type types[] = { BP_NS, BP_TEXT, BP_U64, BP_PATH };
	struct bp_section *s = bp_doc_section(d, "Files on the path");
	uint64_t total = p->end_ns - p->start_ns;
	char pct[BP_FMT_LEN], len[BP_FMT_LEN];
	size_t i;

	bp_section_columns(s, 4, titles, types, "rrrl");
	for (i = 0; i < p->nfiles; i++) {
		const struct bp_crit_file *f = &p->files[i];
		union bp_value *v;

		if (top && i >= top) {
			s->more = p->nfiles - top;
			s->more_hint = xstrdup("--format json lists all");
			break;
		}
		v = bp_section_row(s, NULL);
		v[0].u = f->io_ns;
		v[1].s = bp_cell_str(bp_fmt_pct(pct, f->io_ns, total));
		v[2].u = f->segments;
		v[3].s = bp_cell_str(f->path ? f->path : "(no file known)");
	}
	if (p->nfiles)
		bp_section_line(s, "what-if: the path's I/O time on a file is the most that "
				   "preloading it can save here (another chain may then be the path)");
	if (p->pack_files)
		bp_section_line(s, "what-if: all %zu files in the page cache at the start would bring "
				   "the end about %s earlier (an estimate, other readers share the disk)",
				p->pack_files, bp_fmt_ns(len, p->pack_ns));
}

/* A wait as the list shows it: from the path's start at the earliest. */
struct wait_row {
	const struct bp_crit_wait *wait;
	uint64_t from, len;
};

static int by_length(const void *pa, const void *pb)
{
	const struct wait_row *a = pa, *b = pb;

	if (a->len != b->len)
		return a->len > b->len ? -1 : 1;
	return (a->from > b->from) - (a->from < b->from);
}

static void waits_section(struct bp_doc *d, const struct bp_critical_path *p, size_t top)
{
	static const char *const titles[] = { "from", "time", "task", "waited on", "state" };
	static const enum bp_type types[] = { BP_TIME, BP_NS, BP_TEXT, BP_TEXT, BP_TEXT };
	struct bp_section *s = bp_doc_section(d, "Waits on other tasks");
	struct wait_row *w = xmalloc((p->nwaits ? p->nwaits : 1) * sizeof(*w));
	char name[96];
	size_t i;

	bp_section_columns(s, 5, titles, types, "rrlll");
	for (i = 0; i < p->nwaits; i++) {
		w[i].wait = &p->waits[i];
		w[i].from = p->waits[i].start_ns > p->start_ns ? p->waits[i].start_ns : p->start_ns;
		w[i].len = p->waits[i].end_ns - w[i].from;
	}
	qsort(w, p->nwaits, sizeof(*w), by_length);
	for (i = 0; i < p->nwaits; i++) {
		union bp_value *v;

		if (top && i >= top) {
			s->more = p->nwaits - top;
			s->more_hint = xstrdup("--format json lists all");
			break;
		}
		v = bp_section_row(s, NULL);
		v[0].u = w[i].from;
		v[1].u = w[i].len;
		v[2].s = bp_cell_str(task_name(name, sizeof(name), &w[i].wait->sleeper));
		task_name(name, sizeof(name), &w[i].wait->waker);
		if (w[i].wait->via)
			strncat(name, w[i].wait->via == BP_CRIT_VIA_REQUEUE ? " (requeue)" : " (rwsem)",
				sizeof(name) - strlen(name) - 1);
		v[3].s = bp_cell_str(name);
		v[4].s = bp_cell_str(w[i].wait->uninterruptible ? "D" : "S");
	}
	free(w);
}

static void fill_doc(struct bp_doc *d, const struct bp_critical_path *p,
		     const struct bp_critical_opts *o)
{
	header_section(d, p, o);
	segments_section(d, p);
	totals_section(d, p);
	files_section(d, p, o->top);
	waits_section(d, p, o->top);
}

int bp_view_critical_text(FILE *out, const struct bp_critical_path *p,
			  const struct bp_critical_opts *o)
{
	struct bp_doc d = { 0 };

	fill_doc(&d, p, o);
	bp_doc_text(out, &d, o->width ? o->width : DEFAULT_WIDTH, NULL);
	bp_doc_release(&d);
	return 0;
}

int bp_view_critical_markdown(FILE *out, const struct bp_critical_path *p,
			      const struct bp_critical_opts *o)
{
	struct bp_doc d = { 0 };
	int first = 1;

	fill_doc(&d, p, o);
	bp_doc_markdown(out, &d, &first);
	bp_doc_release(&d);
	return 0;
}

/* ---- JSON ---- */

static void json_task(struct bp_json *j, const struct bp_crit_task *t)
{
	bp_json_i64(j, "tid", t->tid);
	bp_json_i64(j, "pid", t->pid);
	bp_json_string(j, "comm", t->comm);
}

static void json_task_object(struct bp_json *j, const char *key, const struct bp_crit_task *t)
{
	if (!t->tid) {
		bp_json_null(j, key);
		return;
	}
	bp_json_object_begin(j, key);
	json_task(j, t);
	bp_json_end(j);
}

static void json_dev(struct bp_json *j, const char *key, uint32_t dev)
{
	char buf[32];

	bp_json_string(j, key, dev_name(buf, sizeof(buf), dev));
}

static void json_segment(struct bp_json *j, const struct bp_crit_segment *g)
{
	int sleeping = g->state != BP_CRIT_CPU && g->state != BP_CRIT_RUNQ &&
		       g->reason != BP_CRIT_WHY_NOT_SEEN && g->reason != BP_CRIT_WHY_LOOP;
	size_t k;

	bp_json_object_begin(j, NULL);
	bp_json_u64(j, "start_ns", g->start_ns);
	bp_json_u64(j, "end_ns", g->end_ns);
	bp_json_u64(j, "ns", g->end_ns - g->start_ns);
	json_task(j, &g->task);
	bp_json_string(j, "state", bp_crit_state_name(g->state));
	bp_json_string(j, "reason", reason_name(g->reason));
	if (sleeping)
		bp_json_bool(j, "uninterruptible", g->uninterruptible);
	else
		bp_json_null(j, "uninterruptible");
	if (g->path) {
		bp_json_object_begin(j, "file");
		bp_json_string(j, "path", g->path);
		json_dev(j, "dev", g->dev);
		bp_json_u64(j, "ino", g->ino);
		bp_json_end(j);
	} else {
		bp_json_null(j, "file");
	}
	if (g->has_request) {
		bp_json_object_begin(j, "request");
		json_dev(j, "dev", g->request.dev);
		bp_json_u64(j, "sector", g->request.sector);
		bp_json_u64(j, "sectors", g->request.sectors);
		bp_json_u64(j, "issue_ns", g->request.issue_ns);
		bp_json_u64(j, "done_ns", g->request.done_ns);
		json_task_object(j, "issuer", &g->request.issuer);
		if (g->request.upper_dev) {
			bp_json_object_begin(j, "upper");
			json_dev(j, "dev", g->request.upper_dev);
			bp_json_u64(j, "sector", g->request.upper_sector);
			bp_json_end(j);
		} else {
			bp_json_null(j, "upper");
		}
		bp_json_u64(j, "nfiles", g->request.nfiles);
		bp_json_bool(j, "spans_files", g->request.nfiles > 1);
		bp_json_array_begin(j, "files");
		for (k = 0; k < g->request.nfiles && k < BP_CRIT_RQ_FILES; k++) {
			bp_json_object_begin(j, NULL);
			bp_json_string(j, "path", g->request.files[k].path);
			json_dev(j, "dev", g->request.files[k].dev);
			bp_json_u64(j, "ino", g->request.files[k].ino);
			bp_json_end(j);
		}
		bp_json_end(j);
		bp_json_end(j);
	} else {
		bp_json_null(j, "request");
	}
	json_task_object(j, "waker", &g->waker);
	bp_json_end(j);
}

int bp_view_critical_json(FILE *out, const struct bp_critical_path *p,
			  const struct bp_critical_opts *o)
{
	struct bp_json j;
	size_t i;
	int st;

	bp_json_init(&j, out, 0);
	bp_json_object_begin(&j, NULL);
	bp_json_i64(&j, "schema_version", SCHEMA_VERSION);
	bp_json_string(&j, "recording", o->file);
	bp_json_object_begin(&j, "end");
	bp_json_string(&j, "what", p->end_what);
	bp_json_string(&j, "why", p->end_why);
	if (p->end_on)
		bp_json_string(&j, "on", p->end_on);
	if (p->end_by)
		bp_json_string(&j, "by", p->end_by);
	bp_json_u64(&j, "ns", p->end_ns);
	json_task(&j, &p->end_task);
	bp_json_end(&j);
	bp_json_u64(&j, "start_ns", p->start_ns);
	bp_json_u64(&j, "end_ns", p->end_ns);
	bp_json_u64(&j, "duration_ns", p->end_ns - p->start_ns);
	bp_json_bool(&j, "wakers_known", p->wakers_known);
	bp_json_object_begin(&j, "by_state");
	for (st = 0; st < BP_CRIT_NSTATES; st++)
		bp_json_u64(&j, bp_crit_state_name((enum bp_crit_state)st), p->state_ns[st]);
	bp_json_end(&j);
	bp_json_object_begin(&j, "what_if");
	bp_json_u64(&j, "files", p->pack_files);
	bp_json_u64(&j, "ns", p->pack_ns);
	bp_json_end(&j);
	bp_json_array_begin(&j, "files");
	for (i = 0; i < p->nfiles && (!o->top || i < o->top); i++) {
		const struct bp_crit_file *f = &p->files[i];

		bp_json_object_begin(&j, NULL);
		bp_json_string(&j, "path", f->path);
		if (f->path)
			json_dev(&j, "dev", f->dev);
		else
			bp_json_null(&j, "dev");
		bp_json_u64(&j, "ino", f->ino);
		bp_json_u64(&j, "io_ns", f->io_ns);
		bp_json_u64(&j, "segments", f->segments);
		bp_json_end(&j);
	}
	bp_json_end(&j);
	bp_json_array_begin(&j, "waits");
	for (i = 0; i < p->nwaits; i++) {
		const struct bp_crit_wait *k = &p->waits[i];

		bp_json_object_begin(&j, NULL);
		json_task(&j, &k->sleeper);
		json_task_object(&j, "waker", &k->waker);
		bp_json_u64(&j, "start_ns", k->start_ns);
		bp_json_u64(&j, "end_ns", k->end_ns);
		bp_json_u64(&j, "ns", k->end_ns - (k->start_ns > p->start_ns ? k->start_ns :
						      p->start_ns));
		bp_json_bool(&j, "uninterruptible", k->uninterruptible);
		if (k->via)
			bp_json_string(&j, "via", k->via == BP_CRIT_VIA_REQUEUE ? "requeue" : "rwsem");
		else
			bp_json_null(&j, "via");
		bp_json_end(&j);
	}
	bp_json_end(&j);
	bp_json_array_begin(&j, "segments");
	for (i = 0; i < p->nsegments; i++)
		json_segment(&j, &p->segments[i]);
	bp_json_end(&j);
	bp_json_end(&j);
	fputc('\n', out);
	return 0;
}
