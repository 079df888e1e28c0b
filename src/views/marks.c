// SPDX-License-Identifier: GPL-2.0
/*
 * Phase markers and initcalls for timelines, from plugins run during the
 * model's pass (see marks.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/phases.h"
#include "bootprof/plugin.h"
#include "doc/doc.h"
#include "plugin/plugins.h"
#include "util/xalloc.h"
#include "views/marks.h"

#define PHASES_SECTION "phases: PID 1 execs"
#define INITCALL_SECTION "initcall: slowest initcalls"
#define BOOT_WINDOW_NS (120ull * 1000000000ull)

/* ---- the phases plugin: PID 1's execs ---- */

struct pid1_exec {
	uint64_t ns;
	char *path;
};

struct phases {
	int exec_id;
	const struct bootprof_field *f_pid, *f_filename;
	struct pid1_exec *execs;
	size_t nexecs;
};

static int phases_init(struct bootprof_ctx *ctx)
{
	const struct bootprof_host *h = ctx->host;
	struct phases *st = xcalloc(1, sizeof(*st));

	ctx->priv = st;
	st->exec_id = h->event_id(ctx, "sched", "sched_process_exec");
	st->f_pid = h->field(ctx, st->exec_id, "pid");
	st->f_filename = h->field(ctx, st->exec_id, "filename");
	return 0;
}

static void phases_event(struct bootprof_ctx *ctx, const struct bootprof_event *ev)
{
	const struct bootprof_host *h = ctx->host;
	struct phases *st = ctx->priv;
	char path[256];

	/* Few: PID 1 execs a handful of times per boot; a hard cap all the same. */
	if (ev->id != st->exec_id || h->field_u64(ev, st->f_pid) != 1 || st->nexecs >= 64)
		return;
	h->field_str(ev, st->f_filename, path, sizeof(path));
	st->execs = xrealloc(st->execs, (st->nexecs + 1) * sizeof(*st->execs));
	st->execs[st->nexecs].ns = ev->ts;
	st->execs[st->nexecs].path = xstrdup(path);
	st->nexecs++;
}

/* What an exec of PID 1 begins; NULL for one that begins nothing (a wrapper, a re-exec). */
static const char *phase_of(const char *path)
{
	switch (bp_pid1_exec_kind(path)) {
	case BP_PID1_SWITCH:
		return "real root";
	case BP_PID1_INITRAMFS:
		return "initramfs";
	case BP_PID1_INIT:
		return "init";
	default:
		return NULL;
	}
}

/* One row per exec: the exact time, the phase it begins, the path. */
static const struct bootprof_column phase_cols[] = {
	{ "NS", NULL, BOOTPROF_U64 },
	{ "PHASE", NULL, BOOTPROF_TEXT },
	{ "PATH", NULL, BOOTPROF_TEXT },
};

static int phases_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	const struct bootprof_table_spec spec = { NULL, phase_cols, 3, 0 };
	const struct bootprof_host *h = ctx->host;
	struct phases *st = ctx->priv;
	size_t i;

	(void)m;
	if (!st->nexecs)
		return 0;
	h->section(ctx, PHASES_SECTION);
	h->table(ctx, &spec);
	for (i = 0; i < st->nexecs; i++) {
		const char *phase = phase_of(st->execs[i].path);
		union bootprof_value v[3];

		if (!phase)
			continue;
		v[0].u = st->execs[i].ns;
		v[1].s = phase;
		v[2].s = st->execs[i].path;
		h->row(ctx, v);
	}
	h->table_end(ctx);
	return 0;
}

static void phases_release(struct bootprof_ctx *ctx)
{
	struct phases *st = ctx->priv;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nexecs; i++)
		free(st->execs[i].path);
	free(st->execs);
	free(st);
}

static const char *const phases_events[] = { "sched:sched_process_exec", NULL };

static const struct bootprof_plugin phases_plugin = {
	.abi = BOOTPROF_PLUGIN_ABI,
	.name = "phases",
	.summary = "PID 1's execs: the boot's phase boundaries",
	.events = phases_events,
	.init = phases_init,
	.event = phases_event,
	.model = phases_model,
	.release = phases_release,
};

/* ---- the set ---- */

static const char *const initcall_opts[] = { "initcall.top=0" };

struct bp_plugin_set *bp_marks_plugins(void)
{
	struct bp_plugin_opts o = { .disabled = 1, .opts = initcall_opts, .nopts = 1 };
	struct bp_plugin_set *set = bp_plugins_load(&o);
	size_t i;

	for (i = 0; bp_builtin_plugins[i]; i++) {
		if (!strcmp(bp_builtin_plugins[i]->name, "initcall"))
			bp_plugins_add(set, bp_builtin_plugins[i], "built-in");
	}
	bp_plugins_add(set, &phases_plugin, "built-in");
	return set;
}

/* ---- reading the sections back ---- */

static void add_mark(struct bp_marks *out, uint64_t ns, char *name)
{
	out->phases = xrealloc(out->phases, (out->nphases + 1) * sizeof(*out->phases));
	out->phases[out->nphases].ns = ns;
	out->phases[out->nphases].name = name;
	out->nphases++;
}

static int by_mark(const void *a, const void *b)
{
	const struct bp_mark *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_call(const void *a, const void *b)
{
	const struct bp_initcall_bar *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->duration_ns != y->duration_ns)
		return x->duration_ns > y->duration_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The first start of a process in a service: systemd starting units. */
static uint64_t first_service_start(const struct bp_model *m)
{
	uint64_t first = 0;
	size_t i;

	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		if (p->service && p->start_ns && (!first || p->start_ns < first))
			first = p->start_ns;
	}
	return first;
}

void bp_marks_collect(struct bp_plugin_set *set, const struct bp_model *m, uint64_t origin_ns,
		      struct bp_marks *out)
{
	const struct bp_doc *doc;
	uint64_t ns;
	size_t i, r;

	memset(out, 0, sizeof(*out));
	bp_plugins_finish(set, m, NULL);
	doc = bp_plugins_doc(set);
	for (i = 0; doc && i < doc->nsections; i++) {
		const struct bp_section *s = &doc->sections[i];

		if (!strcmp(s->title, PHASES_SECTION) && s->ncols == 3) {
			for (r = 0; r < s->nrows; r++) {
				const union bp_value *c = &s->cells[r * 3];

				add_mark(out, c[0].u, !strcmp(c[1].s, "real root") ? xstrdup(c[1].s) :
					 xasprintf("%s %s", c[1].s, c[2].s));
			}
		} else if (!strcmp(s->title, INITCALL_SECTION) && s->ncols == 5) {
			out->calls = xcalloc(s->nrows ? s->nrows : 1, sizeof(*out->calls));
			for (r = 0; r < s->nrows; r++) {
				const union bp_value *c = &s->cells[r * 5];
				struct bp_initcall_bar *b = &out->calls[out->ncalls++];

				b->duration_ns = c[0].u;
				b->start_ns = c[1].u;
				b->level = xstrdup(c[2].s ? c[2].s : "-");
				b->name = xstrdup(c[4].s ? c[4].s : "?");
			}
		}
	}
	/* The kernel phase: from boot to PID 1's first exec (boot recordings only). */
	if (out->nphases && origin_ns == 0)
		add_mark(out, 0, xstrdup("kernel"));
	ns = first_service_start(m);
	if (ns)
		add_mark(out, ns, xstrdup("services"));
	/* The recorder's stop time is on the boot clock; other clocks stop at the last event. */
	ns = m->header.clock && !strcmp(m->header.clock, "boot") && m->header.stop_ns &&
			     m->header.stop_ns <= m->window.until_ns ? m->header.stop_ns :
								       m->totals.last_ns;
	if (m->header.stop_reason)
		add_mark(out, ns, xasprintf("stop: %s", m->header.stop_reason));
	if (out->nphases)
		qsort(out->phases, out->nphases, sizeof(*out->phases), by_mark);
	if (out->ncalls)
		qsort(out->calls, out->ncalls, sizeof(*out->calls), by_call);
}

void bp_marks_release(struct bp_marks *marks)
{
	size_t i;

	for (i = 0; i < marks->nphases; i++)
		free(marks->phases[i].name);
	for (i = 0; i < marks->ncalls; i++) {
		free(marks->calls[i].name);
		free(marks->calls[i].level);
	}
	free(marks->phases);
	free(marks->calls);
	memset(marks, 0, sizeof(*marks));
}

uint64_t bp_timeline_origin(const char *clock, uint64_t start_ns, uint64_t first_ns)
{
	uint64_t start = start_ns && start_ns < first_ns ? start_ns : first_ns;

	/* Both count from boot: "local" is sched_clock, what early-boot events use. */
	if (clock && (!strcmp(clock, "boot") || !strcmp(clock, "local")) && start < BOOT_WINDOW_NS)
		return 0;
	return start;
}
