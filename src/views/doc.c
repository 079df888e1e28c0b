// SPDX-License-Identifier: GPL-2.0
/*
 * The human report's content, in its order: verdict, header, summary, processes,
 * files, never used, re-read, preloaded (a replayed boot), metadata,
 * repeated work. text.c and
 * markdown.c only lay it out (doc/doc.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/focus.h"
#include "analysis/phases.h"
#include "doc/doc.h"
#include "doc/format.h"
#include "replay/build.h"
#include "util/xalloc.h"
#include "views/brief.h"
#include "views/report.h"
#include "views/verdict.h"

static struct bp_section *section(struct bp_doc *d, const char *title)
{
	return bp_doc_section(d, title);
}

static void line(struct bp_section *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct bp_section *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bp_section_vline(s, fmt, ap);
	va_end(ap);
}

/* A table of text cells; a last column aligned left holds paths. */
static void columns(struct bp_section *s, const char *const *head, const char *align)
{
	enum bp_type types[16];
	size_t c, n = strlen(align);

	for (c = 0; c < n && c < 16; c++)
		types[c] = c + 1 == n && align[c] == 'l' ? BP_PATH : BP_TEXT;
	bp_section_columns(s, n, head, types, align);
}

/* Append a row: ncols cells, then the detail line (or NULL). */
static void row(struct bp_section *s, const char *detail, ...)
{
	union bp_value *cells = bp_section_row(s, detail);
	va_list ap;
	size_t i;

	va_start(ap, detail);
	for (i = 0; i < s->ncols; i++)
		cells[i].s = bp_cell_str(va_arg(ap, const char *));
	va_end(ap);
}

/*
 * A list cut by --top: 1 when row k (counted from 0) is shown; a row past
 * the cut is counted in s->more, said under the table.
 */
static int shown(struct bp_section *s, const struct bp_report_opts *o, size_t k)
{
	if (!o->top || k < o->top)
		return 1;
	s->more++;
	return 0;
}

static const char *missing_why(const struct bp_model *m, unsigned bit)
{
	return (m->missing_on_kernel & bit) ? "not available on this kernel" :
					      "not available: not in the recording";
}

static int disk_busy(const struct bp_disk_stat *k)
{
	return k->rq_read_bytes || k->rq_write_bytes || k->metadata_bytes || k->file_bytes;
}

/*
 * "LABEL WORDS" on one line of the report's width (whole words, then
 * "(+N more)"), or in full with --verbose.
 */
static void header_words(struct bp_section *s, const struct bp_report_opts *o, const char *label,
			 const char *words, int lists)
{
	size_t width = o->width ? o->width : 100, room;
	char *brief;

	if (o->verbose) {
		line(s, "%s%s", label, words);
		return;
	}
	room = width > strlen(label) + 20 ? width - strlen(label) : 20;
	brief = bp_brief_words(words, room, lists);
	line(s, "%s%s", label, brief);
	free(brief);
}

/* The names, separated by spaces; the caller frees it. */
static char *join_words(char *const *v, size_t n)
{
	size_t len = 1, i, k = 0;
	char *out;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	out = xmalloc(len);
	out[0] = 0;
	for (i = 0; i < n; i++)
		k += (size_t)snprintf(out + k, len - k, "%s%s", i ? " " : "", v[i]);
	return out;
}

static void header(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	const struct bp_model_header *h = &m->header;
	const struct bp_totals *t = &m->totals;
	struct bp_section *s = section(d, "Recording");
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN];
	unsigned bit;
	size_t i, busy;

	if (o->file)
		line(s, "recording: %s", o->file);
	line(s, "host: %s   kernel: %s%s%s%s   cpus: %d   clock: %s",
	     h->hostname ? h->hostname : "?", h->kernel_release ? h->kernel_release : "?",
	     h->machine ? " (" : "", h->machine ? h->machine : "", h->machine ? ")" : "",
	     h->ncpus, h->clock ? h->clock : "?");
	if (h->cmdline)
		header_words(s, o, "cmdline: ", h->cmdline, 1);
	if (h->command || h->stop_reason)
		line(s, "command: %s%s%s%s   stopped: %s", h->command ? h->command : "-",
		     h->command_pid ? (snprintf(a, sizeof(a), " (pid %d)", h->command_pid), a) : "",
		     o->focus_pid ? "; other processes: --all" : "",
		     !o->focus_pid && h->command_pid && !o->filter.pid && !o->filter.comm ?
		     "; all processes" : "", h->stop_reason ? h->stop_reason : "-");
	if (h->fault_around_bytes)
		line(s, "mmap: exact (fault-around set to %s while recording: every touched page "
		     "faulted)", bp_fmt_bytes(a, h->fault_around_bytes));
	/* Disks with I/O in the window (all of them when none had any). */
	for (i = 0, busy = 0; i < m->ndisks; i++)
		busy += disk_busy(&m->disks[i]);
	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *k = &m->disks[i];
		char dev[BP_FMT_LEN];

		if (busy && !disk_busy(k))
			continue;
		snprintf(dev, sizeof(dev), "%u:%u", BP_DEV_MAJOR(k->dev), BP_DEV_MINOR(k->dev));
		line(s, "disk: %s%s%s%s %s%s%s", k->name, strcmp(k->name, dev) ? " (" : "",
		     strcmp(k->name, dev) ? dev : "", strcmp(k->name, dev) ? ")" : "",
		     k->rotational > 0 ? "rotational" : k->rotational == 0 ? "non-rotational" :
		     "rotational: unknown", k->size ? ", " : "", k->size ? bp_fmt_bytes(a, k->size) : "");
	}
	line(s, "span: %s s .. %s s (%s)   events: %" PRIu64 " of %" PRIu64,
	     bp_fmt_ts(a, m->window.since_ns), bp_fmt_ts(b, m->window.until_ns),
	     bp_fmt_ns(c, m->window.until_ns - m->window.since_ns), t->events, t->events_total);
	if (t->lost_events || t->lost_pages)
		line(s, "LOST EVENTS: %" PRIu64 "%s: every total below is a lower bound",
		     t->lost_events, t->lost_pages ? " (and pages with an unknown number lost)" : "");
	else
		line(s, "lost events: 0");
	/* /proc/stat counts in ticks: a short recording may show no busy time. */
	if (h->recorder_cpu_ns && h->system_cpu_ns >= h->recorder_cpu_ns)
		line(s, "recorder: %s CPU, %.1f%% of the CPU time used while recording",
		     bp_fmt_ns(a, h->recorder_cpu_ns),
		     100.0 * (double)h->recorder_cpu_ns / (double)h->system_cpu_ns);
	else if (h->recorder_cpu_ns)
		line(s, "recorder: %s CPU", bp_fmt_ns(a, h->recorder_cpu_ns));
	if (t->truncated)
		line(s, "TRUNCATED recording: read up to its last complete page");
	if (t->attributed_permille >= 0)
		line(s, "attributed: %" PRId64 ".%" PRId64 "%% of %s read at the block layer is explained "
		     "by file and metadata reads", t->attributed_permille / 10,
		     t->attributed_permille % 10, bp_fmt_bytes(a, t->rq_read_bytes));
	else if (m->missing & BP_MISSING_BLOCK)
		line(s, "attributed: not available (no block-layer events)");
	else
		/* The events are recorded: none fell in this window, or nothing was read. */
		line(s, "attributed: - (nothing read from storage in the window)");
	for (bit = 1; bit && bit <= BP_MISSING_LAST; bit <<= 1) {
		if (m->missing & bit)
			line(s, "%s: %s", (m->missing_on_kernel & bit) ?
			     "not available on this kernel" : "not in the recording",
			     bp_missing_text(bit));
	}
	if (h->nunavailable) {
		char *names = join_words(h->unavailable, h->nunavailable);

		header_words(s, o, "unavailable on that kernel: ", names, 0);
		free(names);
	}
	if (o->filter.comm || (o->filter.pid && !o->focus_pid) || o->filter.file)
		line(s, "filter:%s%s%s%s%s%s%s (totals are not filtered)",
		     o->filter.pid && !o->focus_pid ? " pid " : "",
		     o->filter.pid && !o->focus_pid ? (snprintf(a, sizeof(a), "%d", o->filter.pid), a) :
		     "", o->filter.comm ? " comm " : "",
		     o->filter.comm ? o->filter.comm : "", o->filter.file ? " file " : "",
		     o->filter.file ? o->filter.file : "",
		     o->filter.tree && !o->focus_pid ? " with descendants" : "");
}

static void causes_text(char *buf, size_t len, const uint64_t *w);

/* Where the line between I/O wait and other D-sleep comes from. */
static void iowait_source(struct bp_section *s, const struct bp_model *m)
{
	const struct bp_totals *t = &m->totals;
	/* Why the kernel's count is not used, where the recording says. */
	static const char *const why[] = {
		[BP_SCHEDSTATS_UNKNOWN] = "",
		[BP_SCHEDSTATS_NONE] = " (kernel without schedstats)",
		[BP_SCHEDSTATS_OFF] = " (schedstats off)",
		[BP_SCHEDSTATS_ON] = " (schedstats events not used)",
	};
	unsigned st = (unsigned)m->header.schedstats;

	if (t->iowait_source != BP_IOWAIT_KERNEL)
		line(s, "  source:                inferred from how each D-sleep ended%s",
		     st < sizeof(why) / sizeof(why[0]) ? why[st] : "");
	else if (t->sleeps_inferred)
		line(s, "  source:                the kernel's schedstats: %" PRIu64 " D-sleeps; %"
		     PRIu64 " it did not report, inferred", t->sleeps_kernel, t->sleeps_inferred);
	else
		line(s, "  source:                the kernel's schedstats: %" PRIu64 " D-sleeps",
		     t->sleeps_kernel);
}

/*
 * "other D-sleep: 1.2 s, not I/O wait (kworker/0:1[12] 0.8 s, udevd[99] 0.3 s)":
 * uninterruptible sleep without I/O evidence, and who slept most.
 */
static void other_sleep(struct bp_section *s, const struct bp_totals *t, const struct bp_model *m,
			const struct bp_report_opts *o)
{
	struct bp_process **v;
	char a[BP_FMT_LEN], top[256] = "", name[64];
	size_t n = bp_model_select_processes(m, &o->filter, BP_SORT_PROC_OTHER_WAIT, &v), i, len = 0;

	for (i = 0; i < n && i < 2 && v[i]->other_wait_ns && len < sizeof(top); i++) {
		snprintf(name, sizeof(name), "%s[%d]", v[i]->comm[0] ? v[i]->comm : "?", v[i]->pid);
		len += (size_t)snprintf(top + len, sizeof(top) - len, "%s%s %s", i ? ", " : "", name,
					bp_fmt_ns(a, v[i]->other_wait_ns));
	}
	free(v);
	line(s, "other D-sleep:           %s, not I/O wait%s%s%s", bp_fmt_ns(a, t->other_wait_ns),
	     top[0] ? " (" : "", top, top[0] ? ")" : "");
}

/*
 * Whose numbers the summary and phases are: "of: the command's tree: sh
 * (pid 12), 4 processes (--all: every process)"; nothing for a recording
 * without a command.
 */
static void focus_line(struct bp_section *s, const struct bp_model *m,
		       const struct bp_report_opts *o)
{
	const struct bp_process *p = bp_model_find_process(m, o->focus_pid);

	if (p)
		line(s, "of:                      the command's tree: %s (pid %d), %zu process%s "
		     "(--all: every process)", p->comm, p->pid, p->tree_processes,
		     p->tree_processes == 1 ? "" : "es");
	else if (m->header.command_pid > 0)
		line(s, "of:                      every process (the command's tree alone: "
		     "without --all)");
}

static void summary(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	const struct bp_totals *t = bp_focus_totals_of(m, o->focus_pid);
	struct bp_section *s = section(d, "Summary");
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], e[BP_FMT_LEN], causes[256];
	size_t len;

	focus_line(s, m, o);

	line(s, "read from storage:       %s (files %s, metadata %s)", bp_fmt_bytes(a, t->read_bytes),
	     bp_fmt_bytes(b, t->read_bytes - t->metadata_bytes), bp_fmt_bytes(c, t->metadata_bytes));
	/* Not kept per process: the machine's, and said so under a focus. */
	if (t->write_insert_bytes || t->nonblock_bytes)
		line(s, "  not counted:           %s written (created by buffered writes), %s on "
		     "tmpfs/ramfs%s", bp_fmt_bytes(a, t->write_insert_bytes),
		     bp_fmt_bytes(b, t->nonblock_bytes), t != &m->totals ? " (all processes)" : "");
	causes_text(causes, sizeof(causes), t->wait_by_cause);
	len = strlen(causes);
	if (m->missing & BP_MISSING_SCHED)
		line(s, "I/O wait:                not available (no sched_switch events)");
	else
		line(s, "I/O wait:                %s", bp_fmt_ns(b, t->wait_ns));
	if (!(m->missing & BP_MISSING_SCHED))
		iowait_source(s, m);
	if (len)
		line(s, "  by cause:              %s", causes);
	/* Sync waits are charged to no file by rule: apart from the unknown. */
	if (t->wait_ns && t->wait_by_cause[BP_CAUSE_SYNC])
		line(s, "  charged to:            files %s, metadata %s, no file (sync) %s, unknown %s",
		     bp_fmt_ns(a, t->wait_ns - t->wait_metadata_ns - t->wait_unknown_ns),
		     bp_fmt_ns(b, t->wait_metadata_ns), bp_fmt_ns(c, t->wait_by_cause[BP_CAUSE_SYNC]),
		     bp_fmt_ns(e, t->wait_unknown_ns - t->wait_by_cause[BP_CAUSE_SYNC]));
	else if (t->wait_ns)
		line(s, "  charged to:            files %s, metadata %s, unknown %s",
		     bp_fmt_ns(a, t->wait_ns - t->wait_metadata_ns - t->wait_unknown_ns),
		     bp_fmt_ns(b, t->wait_metadata_ns), bp_fmt_ns(c, t->wait_unknown_ns));
	if (!(m->missing & BP_MISSING_SCHED))
		line(s, "CPU idle while waiting:  %s", bp_fmt_ns(a, t->idle_wait_ns));
	if (t->other_wait_ns)
		other_sleep(s, t, m, o);
	if (m->missing & BP_MISSING_ACCESS)
		line(s, "never used:              %s", missing_why(m, BP_MISSING_ACCESS));
	else
		line(s, "never used:              %s (%s of file bytes read)",
		     bp_fmt_bytes(a, t->never_used_bytes),
		     bp_fmt_pct(b, t->never_used_bytes, t->read_bytes - t->metadata_bytes));
	if (t->mapped_unknown_bytes)
		line(s, "mapped by fault-around:  %s (%s of file bytes read), not known to be used",
		     bp_fmt_bytes(a, t->mapped_unknown_bytes),
		     bp_fmt_pct(b, t->mapped_unknown_bytes, t->read_bytes - t->metadata_bytes));
	if (m->missing & BP_MISSING_DELETE)
		line(s, "re-read:                 %s", missing_why(m, BP_MISSING_DELETE));
	else
		line(s, "re-read:                 %s", bp_fmt_bytes(a, t->reread_bytes));
}

static const char *const phase_head[] = { "PHASE", "START", "END", "DURATION", "I/O WAIT",
					  "READ", "IDLE WAITING" };

static void phases(struct bp_doc *d, const struct bp_report_opts *o)
{
	struct bp_section *s;
	size_t i;

	if (!o->nphases)
		return;
	s = section(d, "Phases");
	columns(s, phase_head, "lrrrrrr");
	for (i = 0; i < o->nphases; i++) {
		const struct bp_phase *p = &o->phases[i];
		char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], w[BP_FMT_LEN], r[BP_FMT_LEN],
			idle[BP_FMT_LEN];

		if (!p->reached) {
			row(s, NULL, p->name, "-", "not reached", "-", "-", "-", "-");
			continue;
		}
		row(s, NULL, p->name, bp_fmt_ts(a, p->start_ns), bp_fmt_ts(b, p->end_ns),
		    bp_fmt_ns(c, p->end_ns - p->start_ns), bp_fmt_ns(w, p->wait_ns),
		    bp_fmt_bytes(r, p->read_bytes), bp_fmt_ns(idle, p->idle_wait_ns));
	}
}

static const char *proc_name(char *buf, size_t len, const struct bp_process *p)
{
	snprintf(buf, len, "%s[%d]", p->comm[0] ? p->comm : "?", p->pid);
	return buf;
}

static const char *const proc_head[] = { "PID", "COMM", "WAIT", "BYTES", "FILES", "WORST FILE" };

/* "read 809.6 ms, open-stat 17.9 ms" */
static void causes_text(char *buf, size_t len, const uint64_t *w)
{
	char a[BP_FMT_LEN];
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < BP_NCAUSES && n < len; i++) {
		if (w[i])
			n += (size_t)snprintf(buf + n, len - n, "%s%s %s", n ? ", " : "",
					      bp_cause_name((enum bp_cause)i), bp_fmt_ns(a, w[i]));
	}
}

/* Earlier programs listed in a process's detail line; the ones before them are counted. */
#define EARLIER_EXECS 4

/*
 * "PROG", or with earlier execs "PROG (after A 1.2 MiB 3.0 ms, B, ...)":
 * what each earlier program read and waited for, when it did; the last
 * EARLIER_EXECS of them, after "N more".
 */
static char *exe_text(const struct bp_process *p)
{
	char *s = xstrdup(p->nexec ? p->exec[p->nexec - 1] : "-"), *t;
	size_t k, first = p->nexec > EARLIER_EXECS + 1 ? p->nexec - 1 - EARLIER_EXECS : 0;

	for (k = first; k + 1 < p->nexec; k++) {
		const struct bp_exec_part *x = &p->exec_part[k];
		char a[BP_FMT_LEN], b[BP_FMT_LEN], more[32] = "";

		if (k == first && first)
			snprintf(more, sizeof(more), "%zu more, ", first);
		if (x->bytes_read || x->wait_ns)
			t = xasprintf("%s%s%s%s %s %s", s, k == first ? " (after " : ", ", more,
				      p->exec[k], bp_fmt_bytes(a, x->bytes_read), bp_fmt_ns(b, x->wait_ns));
		else
			t = xasprintf("%s%s%s%s", s, k == first ? " (after " : ", ", more, p->exec[k]);
		free(s);
		s = t;
	}
	if (p->nexec > 1) {
		t = xasprintf("%s)", s);
		free(s);
		s = t;
	}
	return s;
}

static void process_row(struct bp_section *s, const struct bp_process *p)
{
	char pid[16], nfiles[24], wait[BP_FMT_LEN], bytes[BP_FMT_LEN], causes[256], *detail;
	char *exe = exe_text(p);

	snprintf(pid, sizeof(pid), "%d", p->pid);
	snprintf(nfiles, sizeof(nfiles), "%zu", p->nfiles);
	causes_text(causes, sizeof(causes), p->wait_by_cause);
	detail = xasprintf("exe: %s%s%s%s%s", exe, p->service ? "   service: " : "",
			   p->service ? p->service->path : "", causes[0] ? "   waits: " : "", causes);
	free(exe);
	row(s, detail, pid, p->comm, bp_fmt_ns(wait, p->wait_ns), bp_fmt_bytes(bytes, p->bytes_read),
	    nfiles, p->worst_file ? p->worst_file->path : "-");
	free(detail);
}

static void processes(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_section *s = section(d, "Top processes by I/O wait");
	struct bp_process **v;
	size_t n = bp_model_select_processes(m, &o->filter, BP_SORT_PROC_WAIT, &v), i, k = 0;

	columns(s, proc_head, "rlrrrl");
	for (i = 0; i < n; i++) {
		if (!v[i]->wait_ns && !v[i]->bytes_read && (!o->filter.pid || o->focus_pid))
			continue;
		if (shown(s, o, k++))
			process_row(s, v[i]);
	}
	free(v);
}

static const char *const service_head[] = { "WAIT", "BYTES", "CPU", "PROCS", "STARTED",
					    "FIRST EXEC", "ENDED", "SERVICE" };

/*
 * Services by unit name, with when their processes started, first exec'd
 * (the program on the row's second line) and ended.
 */
static void services(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_service_row *v;
	struct bp_section *s;
	size_t i, n;

	v = bp_view_services(m, &o->filter, &n);
	if (!n) {
		free(v);
		return;
	}
	s = section(d, "I/O wait by service");
	columns(s, service_head, "rrrrrrrl");
	for (i = 0; i < n; i++) {
		char w[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], p[24], st[BP_FMT_LEN],
			ex[BP_FMT_LEN], en[BP_FMT_LEN], *detail;

		if (!shown(s, o, i))
			continue;
		snprintf(p, sizeof(p), "%zu", v[i].nprocesses);
		detail = v[i].first_exec ? xasprintf("first exec: %s", v[i].first_exec) : NULL;
		row(s, detail, bp_fmt_ns(w, v[i].wait_ns), bp_fmt_bytes(b, v[i].bytes_read),
		    bp_fmt_ns(c, v[i].run_ns), p,
		    v[i].first_start_ns ? bp_fmt_ts(st, v[i].first_start_ns) : "before",
		    v[i].first_exec ? bp_fmt_ts(ex, v[i].first_exec_ns) : "-",
		    v[i].running ? "running" : bp_fmt_ts(en, v[i].last_exit_ns), v[i].unit);
		free(detail);
	}
	free(v);
}

static const char *const tree_head[] = { "PID", "PROCESS", "TREE WAIT", "WAIT", "TREE BYTES",
					 "PROCS" };

static int cmp_tree(const void *pa, const void *pb)
{
	const struct bp_process *a = *(struct bp_process *const *)pa;
	const struct bp_process *b = *(struct bp_process *const *)pb;

	if (a->tree_wait_ns != b->tree_wait_ns)
		return a->tree_wait_ns > b->tree_wait_ns ? -1 : 1;
	if (a->tree_bytes_read != b->tree_bytes_read)
		return a->tree_bytes_read > b->tree_bytes_read ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static void tree_rows(struct bp_section *s, const struct bp_process *p, int depth,
		      const struct bp_report_opts *o)
{
	char pid[16], name[96], tw[BP_FMT_LEN], w[BP_FMT_LEN], tb[BP_FMT_LEN], np[24];
	struct bp_process **kids;
	size_t i;

	snprintf(pid, sizeof(pid), "%d", p->pid);
	snprintf(name, sizeof(name), "%*s%s", depth > 20 ? 40 : depth * 2, "", p->comm);
	snprintf(np, sizeof(np), "%zu", p->tree_processes);
	/* Past the cut, descendants are still walked: they are counted in "more". */
	if (shown(s, o, s->nrows))
		row(s, NULL, pid, name, bp_fmt_ns(tw, p->tree_wait_ns), bp_fmt_ns(w, p->wait_ns),
		    bp_fmt_bytes(tb, p->tree_bytes_read), np);
	if (!p->nchildren)
		return;
	kids = xmalloc(p->nchildren * sizeof(*kids));
	memcpy(kids, p->children, p->nchildren * sizeof(*kids));
	qsort(kids, p->nchildren, sizeof(*kids), cmp_tree);
	for (i = 0; i < p->nchildren; i++) {
		if (kids[i]->tree_wait_ns || kids[i]->tree_bytes_read)
			tree_rows(s, kids[i], depth + 1, o);
	}
	free(kids);
}

static void tree(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_section *s = section(d, "Process tree by I/O wait (self and descendants)");
	struct bp_filter who = o->filter;
	struct bp_process **v;
	size_t n, i;

	columns(s, tree_head, "rlrrrr");
	who.tree = 0;
	who.file = NULL;
	n = bp_model_select_processes(m, &who, BP_SORT_PROC_TREE_WAIT, &v);
	for (i = 0; i < n; i++) {
		const struct bp_process *a;
		int covered = 0;

		/* Roots of the selection: no selected ancestor. */
		for (a = v[i]->parent; a && !covered; a = a->parent)
			covered = bp_process_matches(m, a, &who);
		if (covered)
			continue;
		if (!v[i]->tree_wait_ns && !v[i]->tree_bytes_read && (!o->filter.pid || o->focus_pid))
			continue;
		tree_rows(s, v[i], 0, o);
	}
	free(v);
}

static const char *const file_head[] = { "WAIT", "BYTES", "USED", "RE-READ", "READERS", "PATH" };

static void file_rows(struct bp_section *s, const struct bp_model *m, struct bp_file **v,
		      size_t n, const struct bp_report_opts *o, int by_wait)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		const struct bp_file *f = v[i];
		char w[BP_FMT_LEN], b[BP_FMT_LEN], u[BP_FMT_LEN], r[BP_FMT_LEN], nr[24];
		struct bp_file_part part;

		/* WAIT, BYTES and READERS are the selected processes'; USED is the file's pages'. */
		bp_file_part(m, f, &o->filter, &part);
		if ((by_wait ? !part.wait_ns : !part.bytes_read) || !shown(s, o, k++))
			continue;
		snprintf(nr, sizeof(nr), "%zu", part.nreaders);
		if (f->kind == BP_FILE_METADATA || (m->missing & BP_MISSING_ACCESS))
			strcpy(u, "n/a");
		else
			bp_fmt_pct(u, f->used_bytes, f->bytes_read);
		row(s, NULL, bp_fmt_ns(w, part.wait_ns), bp_fmt_bytes(b, part.bytes_read), u,
		    bp_fmt_bytes(r, f->reread_bytes), nr, f->path);
	}
}

static void files(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_section *s = section(d, "Top files by I/O wait");
	struct bp_file **v;
	size_t n = bp_model_select_files(m, &o->filter, BP_SORT_FILE_WAIT, &v);

	columns(s, file_head, "rrrrrl");
	file_rows(s, m, v, n, o, 1);
	free(v);
	s = section(d, "Top files by bytes read from storage");
	columns(s, file_head, "rrrrrl");
	n = bp_model_select_files(m, &o->filter, BP_SORT_FILE_BYTES, &v);
	file_rows(s, m, v, n, o, 0);
	free(v);
}

/* "cat[14796] 9.9 MiB, ls[14797] 4.0 KiB, +2 more": the selected processes only. */
static char *readers_text(const struct bp_file *f, const struct bp_filter *who)
{
	char buf[512], name[64], b[BP_FMT_LEN];
	size_t len = 0, i, shown = 0;

	buf[0] = 0;
	for (i = 0; i < f->nreaders; i++) {
		const struct bp_access *a = f->readers[i];

		if (!a->bytes_read || !bp_reader_selected(a, who))
			continue;
		if (shown == 3) {
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, ", ...");
			break;
		}
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s %s", shown ? ", " : "",
					proc_name(name, sizeof(name), a->process),
					bp_fmt_bytes(b, a->bytes_read));
		if (len >= sizeof(buf))
			break;
		shown++;
	}
	return xasprintf("read by: %s", shown ? buf : "-");
}

/*
 * Whether the selected processes read some of @f from storage: a file's
 * never-used and re-read pages are the file's, listed for the readers of
 * those pages, not for a process that only mapped it.
 */
static int selection_read(const struct bp_model *m, const struct bp_file *f,
			  const struct bp_report_opts *o)
{
	struct bp_file_part part;

	bp_file_part(m, f, &o->filter, &part);
	return part.bytes_read > 0;
}

static const char *const never_head[] = { "NEVER USED", "READ", "SHARE", "PATH" };
static const char *const mapped_head[] = { "MAPPED", "READ", "SHARE", "PATH" };

/* Files by never-used bytes, or by bytes mapped but not known to be used. */
static void waste_rows(struct bp_section *s, const struct bp_model *m,
		       const struct bp_report_opts *o, enum bp_file_sort key)
{
	struct bp_file **v;
	size_t n, i, k = 0;

	columns(s, key == BP_SORT_FILE_MAPPED ? mapped_head : never_head, "rrrl");
	n = bp_model_select_files(m, &o->filter, key, &v);
	for (i = 0; i < n; i++) {
		uint64_t bytes = key == BP_SORT_FILE_MAPPED ? v[i]->mapped_unknown_bytes :
							      v[i]->never_used_bytes;
		char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], *who;

		if (!bytes || !selection_read(m, v[i], o) || !shown(s, o, k++))
			continue;
		who = readers_text(v[i], &o->filter);
		row(s, who, bp_fmt_bytes(a, bytes), bp_fmt_bytes(b, v[i]->bytes_read),
		    bp_fmt_pct(c, bytes, v[i]->bytes_read), v[i]->path);
		free(who);
	}
	free(v);
}

static void never_used(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_section *s = section(d, "Read from storage but never used");

	if (m->missing & BP_MISSING_ACCESS) {
		line(s, "%s (needs filemap get_pages/map_pages/fault: Linux 6.12+)",
		     missing_why(m, BP_MISSING_ACCESS));
		return;
	}
	waste_rows(s, m, o, BP_SORT_FILE_NEVER_USED);
	if (!m->totals.mapped_unknown_bytes)
		return;
	/*
	 * The kernel maps a fault's neighbours too (fault_around_bytes) and
	 * does not say which page faulted: neither used nor never used.
	 */
	s = section(d, "Mapped by fault-around, not known to be used");
	line(s, "mapped around a faulting page, not faulted or read themselves: used or not;");
	line(s, "'bootprof record --exact-mmap' records with fault-around off to tell");
	waste_rows(s, m, o, BP_SORT_FILE_MAPPED);
}

static const char *const preloaded_tail[] = { "LATE WAITS", "LATE WAIT", "PATH" };

/* A verdict's bytes, or n/a when the recording cannot tell it. */
static const char *verdict_bytes(char *buf, const struct bp_preloaded *p,
				 const struct bp_verdict *v, enum bp_verdict_kind k)
{
	if (!bp_verdict_known(p, k))
		return "n/a";
	return bp_fmt_bytes(buf, bp_verdict_pages(v, k) * p->page_size);
}

/*
 * --verbose: under a file, its pack ranges (FIRST+PAGES) with the
 * verdicts they hold, the empty ones left out.
 */
static char *range_detail(const struct bp_preloaded *p, const struct bp_preloaded_file *f)
{
	char *out = NULL, *next, b[BP_FMT_LEN], part[96];
	size_t r;
	int k;

	for (r = 0; r < f->nranges; r++) {
		const struct bp_verdict *v = &f->ranges[r].v;
		int any = 0;

		next = xasprintf("%s%s%" PRIu64 "+%" PRIu64 ":", out ? out : "ranges ", out ? "; " : "",
				 f->ranges[r].first, f->ranges[r].count);
		free(out);
		out = next;
		for (k = BP_V_HIT; k < BP_V_N; k++) {
			if (!bp_verdict_known(p, k) || !bp_verdict_pages(v, k))
				continue;
			snprintf(part, sizeof(part), "%s %s %s", any ? "," : "", bp_verdict_names[k],
				 bp_fmt_bytes(b, bp_verdict_pages(v, k) * p->page_size));
			next = xasprintf("%s%s", out, part);
			free(out);
			out = next;
			any = 1;
		}
		if (!any) {
			next = xasprintf("%s nothing", out);
			free(out);
			out = next;
		}
	}
	return out;
}

/*
 * A recording with a preloader in it: the verdict on its pages, per file
 * and in total (bootprof readahead --preloaded; the rules are in
 * docs/design.md). Without page access events hit, late and wasted
 * cannot be told apart: "n/a".
 */
static void preloaded(struct bp_doc *d, const struct bp_report_opts *o)
{
	const struct bp_preloaded *p = o->preloaded;
	char v[BP_V_N][BP_FMT_LEN], a[BP_FMT_LEN], nlate[24];
	const char *head[BP_V_N + 3];
	const struct bp_verdict *t;
	struct bp_section *s;
	char *detail;
	size_t i;
	int k;

	if (!p)
		return;
	t = &p->total.v;
	s = section(d, "Preloaded by bootprof-replay");
	line(s, "%zu preloader process%s; its reads are its own, not the workload's (not filtered)",
	     p->replay_pids, p->replay_pids == 1 ? "" : "es");
	for (k = 0; k < BP_V_N; k++)
		verdict_bytes(v[k], p, t, k);
	line(s, "preloaded %s: hit %s, late %s, wasted %s, read again %s", v[BP_V_PRELOADED],
	     v[BP_V_HIT], v[BP_V_LATE], v[BP_V_WASTED], v[BP_V_READ_AGAIN]);
	line(s, "the workload read itself: overtaken %s (in the pack, read before the preloader), "
	     "miss %s (not in the pack)", v[BP_V_OVERTAKEN], v[BP_V_MISS]);
	if (bp_verdict_known(p, BP_V_LATE))
		line(s, "late: %" PRIu64 " I/O waits of the workload, %s, on pages still being preloaded",
		     t->late_waits, bp_fmt_ns(a, t->late_ns));
	if (p->access_missing)
		line(s, "hit, late, wasted: not available on this kernel (no page access events)");
	if (p->markers_missing)
		line(s, "no preloader marker names a range: the pack is not known, overtaken pages "
		     "count as misses");
	for (k = 0; k < BP_V_N; k++)
		head[k] = bp_verdict_heads[k];
	for (k = 0; k < 3; k++)
		head[BP_V_N + k] = preloaded_tail[k];
	columns(s, head, "rrrrrrrrrl");
	for (i = 0; i < p->nfiles; i++) {
		const struct bp_preloaded_file *f = &p->files[i];
		union bp_value *cells;

		if (!shown(s, o, i))
			continue;
		detail = o->verbose ? range_detail(p, f) : NULL;
		cells = bp_section_row(s, detail);
		free(detail);
		for (k = 0; k < BP_V_N; k++)
			cells[k].s = bp_cell_str(verdict_bytes(v[k], p, &f->v, k));
		snprintf(nlate, sizeof(nlate), "%" PRIu64, f->v.late_waits);
		cells[BP_V_N].s = bp_cell_str(bp_verdict_known(p, BP_V_LATE) ? nlate : "n/a");
		cells[BP_V_N + 1].s = bp_cell_str(bp_verdict_known(p, BP_V_LATE) ?
						  bp_fmt_ns(a, f->v.late_ns) : "n/a");
		cells[BP_V_N + 2].s = bp_cell_str(f->path);
	}
}

static const char *const reread_head[] = { "RE-READ", "READ", "PATH" };
static const char *const disk_head[] = { "DISK", "ROTATIONAL", "METADATA", "META WAIT",
					 "FILE BYTES", "BLOCK READS", "ATTRIBUTED" };
static const char *const exec_head[] = { "COUNT", "WAIT", "BYTES", "PROGRAM" };
static const char *const shared_head[] = { "READERS", "BYTES", "PATH" };

static void reread(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_section *s = section(d, "Re-read pages");
	struct bp_file **v;
	size_t n, i, k = 0;

	if (m->missing & BP_MISSING_DELETE) {
		line(s, "%s (needs mm_filemap_delete_from_page_cache)", missing_why(m, BP_MISSING_DELETE));
		return;
	}
	columns(s, reread_head, "rrl");
	n = bp_model_select_files(m, &o->filter, BP_SORT_FILE_REREAD, &v);
	for (i = 0; i < n; i++) {
		char a[BP_FMT_LEN], b[BP_FMT_LEN];

		if (!v[i]->reread_bytes || !selection_read(m, v[i], o) || !shown(s, o, k++))
			continue;
		row(s, NULL, bp_fmt_bytes(a, v[i]->reread_bytes), bp_fmt_bytes(b, v[i]->bytes_read),
		    v[i]->path);
	}
	free(v);
}

static void disks(struct bp_doc *d, const struct bp_model *m)
{
	struct bp_section *s = section(d, "Metadata reads per disk");
	size_t i;

	columns(s, disk_head, "llrrrrr");
	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *k = &m->disks[i];
		char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], e[BP_FMT_LEN], f[BP_FMT_LEN];

		if (!k->metadata_bytes && !k->file_bytes && !k->rq_read_bytes)
			continue;
		row(s, NULL, k->name, k->rotational > 0 ? "yes" : k->rotational == 0 ? "no" : "?",
		    bp_fmt_bytes(a, k->metadata_bytes), bp_fmt_ns(b, k->metadata_wait_ns),
		    bp_fmt_bytes(c, k->file_bytes), bp_fmt_bytes(e, k->rq_read_bytes),
		    (m->missing & BP_MISSING_BLOCK) ? "n/a" :
		    bp_fmt_pct(f, k->metadata_bytes + k->file_bytes, k->rq_read_bytes));
	}
}

struct shared_file {
	const struct bp_file *f;
	struct bp_file_part part;
};

static int cmp_shared(const void *pa, const void *pb)
{
	const struct shared_file *a = pa, *b = pb;

	if (a->part.nstorage_readers != b->part.nstorage_readers)
		return a->part.nstorage_readers > b->part.nstorage_readers ? -1 : 1;
	if (a->part.bytes_read != b->part.bytes_read)
		return a->part.bytes_read > b->part.bytes_read ? -1 : 1;
	return strcmp(a->f->path, b->f->path);
}

static void repeated(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_section *s = section(d, "Repeated work: programs exec'd more than once");
	struct shared_file *shared;
	struct bp_exec_count *execs;
	struct bp_file **v;
	size_t i, n, k = 0, nshared = 0;

	columns(s, exec_head, "rrrl");
	n = bp_model_select_execs(m, &o->filter, &execs);
	for (i = 0; i < n; i++) {
		const struct bp_exec_count *e = &execs[i];
		char c[24], a[BP_FMT_LEN], b[BP_FMT_LEN];

		if (e->count < 2)
			break;
		if (!shown(s, o, k++))
			continue;
		snprintf(c, sizeof(c), "%" PRIu64, e->count);
		row(s, NULL, c, bp_fmt_ns(a, e->wait_ns), bp_fmt_bytes(b, e->bytes_read), e->path);
	}
	free(execs);
	s = section(d, "Repeated work: files read from storage by several processes");
	columns(s, shared_head, "rrl");
	n = bp_model_select_files(m, &o->filter, BP_SORT_FILE_READERS, &v);
	shared = xcalloc(n ? n : 1, sizeof(*shared));
	for (i = 0; i < n; i++) {
		struct bp_file_part part;

		bp_file_part(m, v[i], &o->filter, &part);
		if (part.nstorage_readers >= 2)
			shared[nshared++] = (struct shared_file){ v[i], part };
	}
	qsort(shared, nshared, sizeof(*shared), cmp_shared);
	for (i = 0, k = 0; i < nshared; i++) {
		char c[24], b[BP_FMT_LEN];

		if (!shown(s, o, k++))
			continue;
		snprintf(c, sizeof(c), "%zu", shared[i].part.nstorage_readers);
		row(s, NULL, c, bp_fmt_bytes(b, shared[i].part.bytes_read), shared[i].f->path);
	}
	free(shared);
	free(v);
}

/* What was slow, and why, before anything else (verdict.c has the rules). */
static void verdict(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	char lines[BP_VERDICT_LINES][BP_VERDICT_LEN];
	struct bp_section *s = section(d, "bootprof report");
	size_t n = bp_verdict(m, o, lines), i;

	for (i = 0; i < n; i++)
		line(s, "%s", lines[i]);
}

void bp_doc_build(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o)
{
	memset(d, 0, sizeof(*d));
	verdict(d, m, o);
	header(d, m, o);
	summary(d, m, o);
	phases(d, o);
	if (o->tree)
		tree(d, m, o);
	else
		processes(d, m, o);
	services(d, m, o);
	files(d, m, o);
	never_used(d, m, o);
	reread(d, m, o);
	preloaded(d, o);
	disks(d, m);
	repeated(d, m, o);
}

struct missing_name {
	unsigned bit;
	const char *name, *text;
};

static const struct missing_name missing_names[] = {
	{ BP_MISSING_SCHED, "sched", "sched_switch (no I/O wait, no CPU idle time)" },
	{ BP_MISSING_WAKEUP, "wakeup",
	  "sched_waking/sched_wakeup (without schedstats events no D-sleep is known to be I/O)" },
	{ BP_MISSING_FORK, "fork", "sched_process_fork (each task shown as its own process)" },
	{ BP_MISSING_SYSCALLS, "syscalls", "syscall events (no read, open or exec cause for I/O waits)" },
	{ BP_MISSING_FILEMAP, "filemap", "mm_filemap_add_to_page_cache (no bytes per file)" },
	{ BP_MISSING_ACCESS, "access", "filemap access events (used/never-used not available)" },
	{ BP_MISSING_DELETE, "delete", "mm_filemap_delete_from_page_cache (no re-read pages)" },
	{ BP_MISSING_BLOCK, "block", "block_rq_issue (no block-layer totals)" },
	{ BP_MISSING_RQ_COMPLETE, "complete",
	  "block_rq_complete (no requests in flight; without schedstats events no D-sleep is known to be I/O)" },
};

static const struct missing_name *missing_find(unsigned bit)
{
	size_t i;

	for (i = 0; i < sizeof(missing_names) / sizeof(missing_names[0]); i++) {
		if (missing_names[i].bit == bit)
			return &missing_names[i];
	}
	return NULL;
}

const char *bp_missing_name(unsigned bit)
{
	const struct missing_name *n = missing_find(bit);

	return n ? n->name : "?";
}

const char *bp_missing_text(unsigned bit)
{
	const struct missing_name *n = missing_find(bit);

	return n ? n->text : "?";
}
