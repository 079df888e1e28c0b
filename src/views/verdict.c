// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict: at most six lines that answer "what was slow, and why",
 * each from a fixed rule, in this order:
 *
 *   1. who ran how long and waited how long on I/O, with the share of its
 *      run (always);
 *   1b. the critical path to the default end point (the command's exit,
 *      the stop's exec, PID 1's last run): its length, the state it spent
 *      most of it in when that is not I/O, its I/O time and share, and
 *      the file most of that I/O was on when it has >= 10 % of it
 *      (whenever the path could be walked);
 *   2. lost events or a cut recording: every number is a lower bound
 *      (whenever so);
 *   3. the cause of most of the I/O wait, and the file charged most of
 *      it when it holds >= 10 % of it (when there was a wait);
 *   4. bytes read from storage, and the never-used ones when they are
 *      >= 10 % of the file bytes read;
 *   5. CPU idle while waiting, when >= 10 % of the run;
 *   6. other D-sleep, when >= 10 % of the run and more than the I/O wait;
 *   7. the process that waited most, when it is not the command and holds
 *      >= 10 % of the I/O wait.
 *
 * The first six that apply are shown.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critical.h"
#include "analysis/focus.h"
#include "doc/format.h"
#include "views/verdict.h"

struct verdict {
	char (*lines)[BP_VERDICT_LEN];
	size_t n;
};

static void say(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->n >= BP_VERDICT_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(v->lines[v->n++], BP_VERDICT_LEN, fmt, ap);
	va_end(ap);
}

/* part >= BP_VERDICT_SHARE % of whole, and not nothing. */
static int worth(uint64_t part, uint64_t whole)
{
	return part && whole && (unsigned __int128)part * 100 >= (unsigned __int128)whole *
								 BP_VERDICT_SHARE;
}

/* What a cause is in a sentence. */
static const char *cause_words(int c)
{
	static const char *const words[BP_NCAUSES] = {
		[BP_CAUSE_READ] = "reads",
		[BP_CAUSE_OPEN_STAT] = "open and stat",
		[BP_CAUSE_EXEC] = "exec",
		[BP_CAUSE_GETDENTS] = "directory reads",
		[BP_CAUSE_FAULT] = "page faults",
		[BP_CAUSE_SYNC] = "sync and writeback",
		[BP_CAUSE_OTHER] = "other syscalls",
	};

	return c >= 0 && c < BP_NCAUSES ? words[c] : "?";
}

/* "mostly page faults (62.0%)": the largest cause of a wait. */
static void mostly(char *buf, size_t len, const struct bp_totals *t)
{
	char pct[BP_FMT_LEN];
	int c, top = 0;

	for (c = 1; c < BP_NCAUSES; c++)
		top = t->wait_by_cause[c] > t->wait_by_cause[top] ? c : top;
	snprintf(buf, len, "%s %s (%s)", t->wait_by_cause[top] * 2 > t->wait_ns ? "mostly" :
		 "most in", cause_words(top), bp_fmt_pct(pct, t->wait_by_cause[top], t->wait_ns));
}

/* The last path component: "libpython3.11.so.1.0". */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* Line 1; returns the run the shares are of (the command's, else the window's). */
static uint64_t subject(struct verdict *v, const struct bp_model *m, const struct bp_totals *t,
			const struct bp_process *root)
{
	uint64_t first = m->window.since_ns, last = m->window.until_ns, run;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN];

	if (root) {
		uint64_t start = root->start_ns > first ? root->start_ns : first;
		uint64_t end = root->exit_ns && root->exit_ns < last ? root->exit_ns : last;

		run = end > start ? end - start : 0;
		if (m->missing & BP_MISSING_SCHED)
			say(v, "%s (pid %d) ran %s; I/O wait not available (no sched_switch events)",
			    root->comm, root->pid, bp_fmt_ns(a, run));
		else
			say(v, "%s (pid %d) ran %s, waited %s on I/O (%s of its run)", root->comm,
			    root->pid, bp_fmt_ns(a, run), bp_fmt_ns(b, t->wait_ns),
			    bp_fmt_pct(c, t->wait_ns, run));
		return run;
	}
	run = last > first ? last - first : 0;
	if (m->missing & BP_MISSING_SCHED)
		say(v, "%s recorded: %zu processes; I/O wait not available (no sched_switch "
		    "events)", bp_fmt_ns(a, run), m->nprocesses);
	else
		say(v, "%s recorded: %zu processes waited %s on I/O (summed over tasks)",
		    bp_fmt_ns(a, run), m->nprocesses, bp_fmt_ns(b, t->wait_ns));
	return run;
}

/* "mostly page faults (62.0%); worst file libc.so.6: 17.7 ms (44.0%)" */
static void why(struct verdict *v, const struct bp_model *m, const struct bp_totals *t,
		const struct bp_filter *f)
{
	char a[BP_FMT_LEN], b[BP_FMT_LEN], cause[96], file[BP_VERDICT_LEN] = "";
	struct bp_file_part part;
	struct bp_file **files;
	size_t n;

	if (!t->wait_ns)
		return;
	mostly(cause, sizeof(cause), t);
	n = bp_model_select_files(m, f, BP_SORT_FILE_WAIT, &files);
	if (n) {
		bp_file_part(m, files[0], f, &part);
		if (worth(part.wait_ns, t->wait_ns))
			snprintf(file, sizeof(file), "; worst file %s: %s (%s)",
				 base_name(files[0]->path), bp_fmt_ns(a, part.wait_ns),
				 bp_fmt_pct(b, part.wait_ns, t->wait_ns));
	}
	free(files);
	say(v, "%s%s", cause, file);
}

static void bytes(struct verdict *v, const struct bp_model *m, const struct bp_totals *t)
{
	uint64_t file_bytes = t->read_bytes - t->metadata_bytes;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN];

	if (!t->read_bytes)
		return;
	if (!(m->missing & BP_MISSING_ACCESS) && worth(t->never_used_bytes, file_bytes))
		say(v, "read %s from storage; %s of it never used (%s of file bytes)",
		    bp_fmt_bytes(a, t->read_bytes), bp_fmt_bytes(b, t->never_used_bytes),
		    bp_fmt_pct(c, t->never_used_bytes, file_bytes));
	else
		say(v, "read %s from storage", bp_fmt_bytes(a, t->read_bytes));
}

static void worst_process(struct verdict *v, const struct bp_model *m, const struct bp_totals *t,
			  const struct bp_filter *f, const struct bp_process *root)
{
	char a[BP_FMT_LEN], b[BP_FMT_LEN];
	struct bp_process **p;
	size_t n = bp_model_select_processes(m, f, BP_SORT_PROC_WAIT, &p);

	if (n && p[0] != root && worth(p[0]->wait_ns, t->wait_ns))
		say(v, "waited most: %s[%d], %s (%s of the I/O wait)", p[0]->comm, p[0]->pid,
		    bp_fmt_ns(a, p[0]->wait_ns), bp_fmt_pct(b, p[0]->wait_ns, t->wait_ns));
	free(p);
}

/*
 * "critical path to exit, 281.3 ms: CPU 80.1%, I/O 38.1 ms (13.5%), most
 * libc.so.6 17.7 ms": what the end point waited for; the state it spent
 * most of its time in first, when that is not I/O.
 */
static void critical(struct verdict *v, const struct bp_critical_path *p)
{
	uint64_t len = p->end_ns - p->start_ns, io = p->state_ns[BP_CRIT_IO];
	char a[BP_FMT_LEN], b[BP_FMT_LEN], c[BP_FMT_LEN], e[BP_FMT_LEN], file[BP_VERDICT_LEN] = "";
	const char *to = !strcmp(p->end_why, "the recorded command") ? "exit" :
			 !strcmp(p->end_what, "exec") ? "the stop's exec" :
			 !strcmp(p->end_what, "mark") ? p->end_on : p->end_why;

	char most[64] = "";
	int st, top = BP_CRIT_IO;

	/* What the path spent most of its time in, when that is not I/O. */
	for (st = 0; st < BP_CRIT_NSTATES; st++)
		top = p->state_ns[st] > p->state_ns[top] ? st : top;
	if (top != BP_CRIT_IO)
		snprintf(most, sizeof(most), "%s %s, ", bp_crit_state_title((enum bp_crit_state)top),
			 bp_fmt_pct(c, p->state_ns[top], len));
	if (p->nfiles && p->files[0].path && worth(p->files[0].io_ns, io))
		snprintf(file, sizeof(file), ", most %s %s", base_name(p->files[0].path),
			 bp_fmt_ns(e, p->files[0].io_ns));
	say(v, "critical path to %s, %s: %sI/O %s (%s)%s", to, bp_fmt_ns(a, len), most,
	    bp_fmt_ns(b, io), bp_fmt_pct(c, io, len), file);
}

size_t bp_verdict(const struct bp_model *m, const struct bp_report_opts *o,
		  char lines[BP_VERDICT_LINES][BP_VERDICT_LEN])
{
	const struct bp_totals *t = bp_focus_totals_of(m, o->focus_pid);
	const struct bp_filter *f = o->focus_pid ? &o->filter : NULL;
	const struct bp_process *root = o->focus_pid ? bp_model_find_process(m, o->focus_pid) : NULL;
	char a[BP_FMT_LEN], b[BP_FMT_LEN];
	struct verdict v = { lines, 0 };
	uint64_t run;

	run = subject(&v, m, t, root);
	if (o->critical)
		critical(&v, o->critical);
	if (m->totals.lost_events || m->totals.lost_pages)
		say(&v, "LOST %llu events%s: every number is a lower bound",
		    (unsigned long long)m->totals.lost_events,
		    m->totals.lost_pages ? " and pages" : "");
	if (m->totals.truncated)
		say(&v, "TRUNCATED recording: numbers up to its last complete page");
	if (!(m->missing & BP_MISSING_SCHED))
		why(&v, m, t, f);
	bytes(&v, m, t);
	if (!(m->missing & BP_MISSING_SCHED) && worth(t->idle_wait_ns, run))
		say(&v, "CPU idle while waiting: %s (%s of the run), what reading ahead could win",
		    bp_fmt_ns(a, t->idle_wait_ns), bp_fmt_pct(b, t->idle_wait_ns, run));
	if (worth(t->other_wait_ns, run) && t->other_wait_ns > t->wait_ns)
		say(&v, "other D-sleep: %s, not I/O (locks, devices, other tasks' I/O)",
		    bp_fmt_ns(a, t->other_wait_ns));
	if (!(m->missing & BP_MISSING_SCHED))
		worst_process(&v, m, t, f, root);
	return v.n;
}
