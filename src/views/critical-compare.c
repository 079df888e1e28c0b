// SPDX-License-Identifier: GPL-2.0
/*
 * Two critical paths side by side (bootprof diff --critical): their ends
 * and lengths, time by category, and what moved onto the path, off it or
 * changed, by task and by file (analysis/critical-compare.h). Text and
 * Markdown from one document; JSON:
 *
 * {
 *   "before": SIDE, "after": SIDE,
 *   SIDE: { "recording", "end": { "what", "on", "ns", "tid", "pid",
 *           "comm" }, "start_ns", "end_ns", "duration_ns",
 *           "by_state": { STATE: ns } },
 *   "tasks": [ { "comm", "before_ns", "after_ns", "status" } ],
 *   "files": [ { "path", "before_ns", "after_ns", "status" } ]
 *                 by the size of the change; --top
 * }
 *
 * status: "onto" (only on the second path), "off" (only on the first),
 * "changed", "same".
 */
#include <stdio.h>
#include <string.h>

#include "analysis/critical-compare.h"
#include "doc/doc.h"
#include "util/json.h"
#include "util/units.h"
#include "util/xalloc.h"
#include "views/critical.h"

#define WIDTH 100

static const char *status(const struct bp_crit_change *c)
{
	if (!c->before_ns)
		return "onto";
	if (!c->after_ns)
		return "off";
	return c->before_ns == c->after_ns ? "same" : "changed";
}

/* "+1.20 s", "-3.0 ms", "0 ms" */
static char *signed_ns(char *buf, uint64_t before, uint64_t after)
{
	char n[BP_FMT_LEN];

	snprintf(buf, BP_FMT_LEN + 2, "%s%s", after > before ? "+" : after < before ? "-" : "",
		 bp_fmt_ns(n, after > before ? after - before : before - after));
	return buf;
}

static void row(struct bp_section *s, const char *key, uint64_t before, uint64_t after,
		const char *st)
{
	union bp_value *v = bp_section_row(s, NULL);
	char buf[BP_FMT_LEN + 2];

	v[0].u = before;
	v[1].u = after;
	v[2].s = bp_cell_str(signed_ns(buf, before, after));
	v[3].s = bp_cell_str(st);
	v[4].s = bp_cell_str(key);
}

static void list(struct bp_doc *d, const char *title, const char *what,
		 const struct bp_crit_change *c, size_t n, size_t top)
{
	const char *titles[] = { "before", "after", "change", "status", what };
	static const enum bp_type types[] = { BP_NS, BP_NS, BP_TEXT, BP_TEXT, BP_PATH };
	struct bp_section *s = bp_doc_section(d, title);
	size_t i;

	bp_section_columns(s, 5, titles, types, "rrrll");
	for (i = 0; i < n; i++) {
		if (top && i >= top) {
			s->more = n - top;
			s->more_hint = xstrdup("use --top 0");
			break;
		}
		row(s, c[i].key, c[i].before_ns, c[i].after_ns, status(&c[i]));
	}
}

static void end_line(struct bp_section *s, const char *side, const char *file,
		     const struct bp_critical_path *p)
{
	char len[BP_FMT_LEN];

	bp_section_line(s, "%s: %s: %s%s%s of %s[%d] at %llu.%06llu, path %s", side, file,
			p->end_what, p->end_on ? " " : "", p->end_on ? p->end_on : "",
			p->end_task.comm, p->end_task.tid,
			(unsigned long long)(p->end_ns / 1000000000),
			(unsigned long long)(p->end_ns % 1000000000 / 1000),
			bp_fmt_ns(len, p->end_ns - p->start_ns));
}

static void document(struct bp_doc *d, const struct bp_critical_path *b, const char *bfile,
		     const struct bp_critical_path *a, const char *afile,
		     const struct bp_crit_compare *c, size_t top)
{
	const char *titles[] = { "before", "after", "change", "status", "category" };
	static const enum bp_type types[] = { BP_NS, BP_NS, BP_TEXT, BP_TEXT, BP_TEXT };
	struct bp_section *s = bp_doc_section(d, "Critical paths");
	int st;

	end_line(s, "before", bfile, b);
	end_line(s, "after", afile, a);
	bp_section_columns(s, 5, titles, types, "rrrll");
	for (st = 0; st < BP_CRIT_NSTATES; st++)
		row(s, bp_crit_state_title((enum bp_crit_state)st), b->state_ns[st], a->state_ns[st],
		    "");
	row(s, "total", b->end_ns - b->start_ns, a->end_ns - a->start_ns, "");
	list(d, "Tasks on the paths", "task (comm)", c->tasks, c->ntasks, top);
	list(d, "Files on the paths (I/O)", "file", c->files, c->nfiles, top);
}

static void json_side(struct bp_json *j, const char *key, const char *file,
		      const struct bp_critical_path *p)
{
	int st;

	bp_json_object_begin(j, key);
	bp_json_string(j, "recording", file);
	bp_json_object_begin(j, "end");
	bp_json_string(j, "what", p->end_what);
	bp_json_string(j, "on", p->end_on);
	bp_json_u64(j, "ns", p->end_ns);
	bp_json_i64(j, "tid", p->end_task.tid);
	bp_json_i64(j, "pid", p->end_task.pid);
	bp_json_string(j, "comm", p->end_task.comm);
	bp_json_end(j);
	bp_json_u64(j, "start_ns", p->start_ns);
	bp_json_u64(j, "end_ns", p->end_ns);
	bp_json_u64(j, "duration_ns", p->end_ns - p->start_ns);
	bp_json_object_begin(j, "by_state");
	for (st = 0; st < BP_CRIT_NSTATES; st++)
		bp_json_u64(j, bp_crit_state_name((enum bp_crit_state)st), p->state_ns[st]);
	bp_json_end(j);
	bp_json_end(j);
}

static void json_list(struct bp_json *j, const char *key, const char *name,
		      const struct bp_crit_change *c, size_t n, size_t top)
{
	size_t i;

	bp_json_array_begin(j, key);
	for (i = 0; i < n && (!top || i < top); i++) {
		bp_json_object_begin(j, NULL);
		bp_json_string(j, name, c[i].key);
		bp_json_u64(j, "before_ns", c[i].before_ns);
		bp_json_u64(j, "after_ns", c[i].after_ns);
		bp_json_string(j, "status", status(&c[i]));
		bp_json_end(j);
	}
	bp_json_end(j);
}

int bp_view_critical_compare(FILE *out, const char *format, const struct bp_critical_path *b,
			     const char *bfile, const struct bp_critical_path *a, const char *afile,
			     size_t top)
{
	struct bp_crit_compare c;

	bp_crit_compare(b, a, &c);
	if (!strcmp(format, "json")) {
		struct bp_json j;

		bp_json_init(&j, out, 0);
		bp_json_object_begin(&j, NULL);
		json_side(&j, "before", bfile, b);
		json_side(&j, "after", afile, a);
		json_list(&j, "tasks", "comm", c.tasks, c.ntasks, top);
		json_list(&j, "files", "path", c.files, c.nfiles, top);
		bp_json_end(&j);
		fputc('\n', out);
	} else {
		struct bp_doc d = { 0 };

		document(&d, b, bfile, a, afile, &c, top);
		if (!strcmp(format, "markdown"))
			bp_doc_markdown(out, &d, NULL);
		else
			bp_doc_text(out, &d, WIDTH, NULL);
		bp_doc_release(&d);
	}
	bp_crit_compare_release(&c);
	return 0;
}
