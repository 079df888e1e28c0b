// SPDX-License-Identifier: GPL-2.0
/*
 * initcall: the kernel's initcalls from an early-boot recording
 * (trace_event=initcall:* or trace_instance=...,initcall:* on the kernel
 * command line): the slowest ones and the time per level.
 *
 * An initcall runs from initcall_start to initcall_finish on the same task
 * (built-in ones on pid 1 in level order; module inits on the loading
 * task). func is a kernel pointer, named by one rule (call_name()):
 *  - a module's init is "<module>:init": the kernel loads a module
 *    (module:module_load) and then calls its init on the same task. Its
 *    address is in the module's init section, which is freed once the init
 *    returns and reused by the next module, so no symbol table read later
 *    names it: a later table names whatever sits there now;
 *  - else the kernel symbol at func, from the recording's kallsyms, or from
 *    a kallsyms file given as initcall.kallsyms=FILE (/proc/kallsyms of the
 *    same boot: the addresses move with KASLR at every boot). kallsyms has
 *    no sizes: "sym+0xOFF" only when func is below the next symbol (of the
 *    same module), never past it;
 *  - else "0xADDR (unresolved)": a name is never a guess.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bootprof/plugin.h>

#include "ksyms.h"

#define DEFAULT_TOP 20
#define NLEVELS 16
#define MODULE_NAME 64 /* the kernel's MODULE_NAME_LEN, with room to spare */

struct call {
	uint64_t func;
	char module[MODULE_NAME]; /* the module whose init this is, or "" */
	uint64_t start_ns;
	uint64_t duration_ns;
	int ret;
	int pid;
	int level;      /* index into levels, -1 unknown or a module's init */
};

struct running {
	int pid;
	int level;
	char loaded[MODULE_NAME]; /* module loaded last, its init not yet called */
	char module[MODULE_NAME]; /* the module whose init is running, or "" */
	uint64_t func;
	uint64_t start_ns;
	int open;
	int in_window;
};

struct initcall {
	int start_id, finish_id, level_id, load_id;
	const struct bootprof_field *f_sfunc, *f_ffunc, *f_ret, *f_level, *f_module;
	struct call *calls;
	size_t ncalls, cap;
	struct running *run;   /* one per task running initcalls (few) */
	size_t nrun, rcap;
	char levels[NLEVELS][24];
	uint64_t level_ns[NLEVELS];
	size_t level_count[NLEVELS];
	int nlevels;
	size_t top;
	uint64_t unfinished;
	struct ksyms syms;     /* from initcall.kallsyms */
};

/* The symbols of a kallsyms file (or System.map); 0 or -1. */
static int load_kallsyms(struct initcall *st, const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	int ret;

	if (!f)
		return -1;
	ret = getdelim(&text, &len, '\0', f) < 0 ? -1 : ksyms_parse(&st->syms, text);
	free(text);
	fclose(f);
	return ret;
}

static int initcall_init(struct bootprof_ctx *ctx)
{
	const struct bootprof_host *h = ctx->host;
	struct initcall *st = calloc(1, sizeof(*st));
	const char *v;

	if (!st)
		return -1;
	ctx->priv = st;
	st->top = (size_t)h->option_u64(ctx, "top", DEFAULT_TOP);
	st->start_id = h->event_id(ctx, "initcall", "initcall_start");
	st->finish_id = h->event_id(ctx, "initcall", "initcall_finish");
	st->level_id = h->event_id(ctx, "initcall", "initcall_level");
	st->f_sfunc = h->field(ctx, st->start_id, "func");
	st->f_ffunc = h->field(ctx, st->finish_id, "func");
	st->f_ret = h->field(ctx, st->finish_id, "ret");
	st->f_level = h->field(ctx, st->level_id, "level");
	st->load_id = h->event_id(ctx, "module", "module_load");
	st->f_module = h->field(ctx, st->load_id, "name");
	v = h->option(ctx, "kallsyms");
	if (v && load_kallsyms(st, v))
		h->warn(ctx, "cannot read '%s': functions are shown as addresses", v);
	return 0;
}

static struct running *running_of(struct initcall *st, int pid)
{
	size_t i;

	for (i = 0; i < st->nrun; i++) {
		if (st->run[i].pid == pid)
			return &st->run[i];
	}
	if (st->nrun == st->rcap) {
		size_t cap = st->rcap ? st->rcap * 2 : 8;
		struct running *n = realloc(st->run, cap * sizeof(*n));

		if (!n)
			return NULL;
		st->run = n;
		st->rcap = cap;
	}
	memset(&st->run[st->nrun], 0, sizeof(st->run[0]));
	st->run[st->nrun].pid = pid;
	st->run[st->nrun].level = -1;
	return &st->run[st->nrun++];
}

static int level_index(struct initcall *st, const char *name)
{
	int i;

	for (i = 0; i < st->nlevels; i++) {
		if (!strcmp(st->levels[i], name))
			return i;
	}
	if (st->nlevels == NLEVELS)
		return -1;
	snprintf(st->levels[st->nlevels], sizeof(st->levels[0]), "%s", name);
	return st->nlevels++;
}

static void initcall_event(struct bootprof_ctx *ctx, const struct bootprof_event *ev)
{
	const struct bootprof_host *h = ctx->host;
	struct initcall *st = ctx->priv;
	struct running *r = running_of(st, ev->pid);

	if (!r)
		return;
	if (ev->id == st->level_id) {
		char name[24];

		h->field_str(ev, st->f_level, name, sizeof(name));
		r->level = level_index(st, name);
	} else if (ev->id == st->load_id) {
		h->field_str(ev, st->f_module, r->loaded, sizeof(r->loaded));
	} else if (ev->id == st->start_id) {
		if (r->open)
			st->unfinished++;
		r->open = 1;
		/* load_module() → do_init_module() → do_one_initcall(mod->init). */
		memcpy(r->module, r->loaded, sizeof(r->module));
		r->loaded[0] = '\0';
		r->func = h->field_u64(ev, st->f_sfunc);
		r->start_ns = ev->ts;
		r->in_window = ev->in_window;
	} else if (ev->id == st->finish_id && r->open &&
		   r->func == h->field_u64(ev, st->f_ffunc)) {
		struct call *c;

		r->open = 0;
		/* Counted when it started inside the window. */
		if (!r->in_window)
			return;
		if (st->ncalls == st->cap) {
			size_t cap = st->cap ? st->cap * 2 : 256;
			struct call *n = realloc(st->calls, cap * sizeof(*n));

			if (!n)
				return;
			st->calls = n;
			st->cap = cap;
		}
		c = &st->calls[st->ncalls++];
		c->func = r->func;
		memcpy(c->module, r->module, sizeof(c->module));
		c->start_ns = r->start_ns;
		c->duration_ns = ev->ts - r->start_ns;
		c->ret = (int)h->field_u64(ev, st->f_ret);
		c->pid = ev->pid;
		/* A module's init runs outside the levels, also when PID 1 loads it. */
		c->level = c->module[0] ? -1 : r->level;
		if (c->level >= 0) {
			st->level_ns[c->level] += c->duration_ns;
			st->level_count[c->level]++;
		}
	}
}

static int by_duration(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->duration_ns != y->duration_ns)
		return x->duration_ns < y->duration_ns ? 1 : -1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return 0;
}

static const struct bootprof_column level_cols[] = {
	{ "LEVEL", "level", BOOTPROF_TEXT },
	{ "INITCALLS", "count", BOOTPROF_U64 },
	{ "TOTAL", "total_ns", BOOTPROF_NS },
};

static const struct bootprof_column call_cols[] = {
	{ "DURATION", "duration_ns", BOOTPROF_NS },
	{ "START", "start_ns", BOOTPROF_TIME },
	{ "LEVEL", "level", BOOTPROF_TEXT },
	{ "RET", "ret", BOOTPROF_I64 },
	{ "INITCALL", NULL, BOOTPROF_TEXT },
	{ NULL, "func", BOOTPROF_TEXT },
	{ NULL, "symbol", BOOTPROF_TEXT },
	{ NULL, "module", BOOTPROF_TEXT },
	{ NULL, "pid", BOOTPROF_I64 },
};

/*
 * What a call is named (the rule at the top of this file) into name;
 * returns the kernel symbol (in name) or NULL when the name is no symbol.
 */
static const char *call_name(struct bootprof_ctx *ctx, const struct call *c, char *name,
			     size_t len)
{
	struct initcall *st = ctx->priv;
	const char *sym;

	if (c->module[0]) {
		snprintf(name, len, "%s:init", c->module);
		return NULL;
	}
	sym = ctx->host->ksym(ctx, c->func);
	if (!sym)
		sym = ksyms_name(&st->syms, c->func);
	if (!sym) {
		snprintf(name, len, "0x%llx (unresolved)", (unsigned long long)c->func);
		return NULL;
	}
	snprintf(name, len, "%s", sym);
	return name;
}

static int initcall_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	const struct bootprof_table_spec levels = { "levels", level_cols, 3, 0 };
	struct bootprof_table_spec calls = { "slowest", call_cols, 9, 0 };
	const struct bootprof_host *h = ctx->host;
	struct initcall *st = ctx->priv;
	uint64_t total = 0;
	char t[32];
	size_t i, r;

	(void)m;
	for (i = 0; i < st->ncalls; i++)
		total += st->calls[i].duration_ns;
	for (r = 0; r < st->nrun; r++)
		st->unfinished += st->run[r].open;
	h->value_u64(ctx, "count", st->ncalls);
	h->value_u64(ctx, "total_ns", total);
	h->value_u64(ctx, "unfinished", st->unfinished);
	/* Not an early-boot recording with initcall events: say so in JSON only. */
	h->value_bool(ctx, "recorded", st->start_id >= 0);
	if (st->start_id < 0)
		return 0;
	h->section(ctx, "initcall: kernel initcalls");
	if (st->ncalls)
		h->line(ctx, "%zu initcalls, %s in total%s", st->ncalls, h->fmt_ns(t, total),
			st->unfinished ? " (some never finished in the recording)" : "");
	/* initcall_level events (when recorded) name the level of what follows. */
	h->table(ctx, &levels);
	for (i = 0; i < (size_t)st->nlevels; i++) {
		union bootprof_value v[3];

		v[0].s = st->levels[i];
		v[1].u = st->level_count[i];
		v[2].u = st->level_ns[i];
		h->row(ctx, v);
	}
	h->table_end(ctx);
	if (st->ncalls)
		qsort(st->calls, st->ncalls, sizeof(*st->calls), by_duration);
	h->section(ctx, "initcall: slowest initcalls");
	calls.top = st->top;
	h->table(ctx, &calls);
	for (i = 0; i < st->ncalls; i++) {
		const struct call *c = &st->calls[i];
		char addr[24], name[256];
		const char *sym = call_name(ctx, c, name, sizeof(name));
		union bootprof_value v[9];

		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)c->func);
		v[0].u = c->duration_ns;
		v[1].u = c->start_ns;
		v[2].s = c->level >= 0 ? st->levels[c->level] : c->module[0] ? "module" : NULL;
		v[3].i = c->ret;
		v[4].s = name;
		v[5].s = addr;
		v[6].s = sym;
		v[7].s = c->module[0] ? c->module : NULL;
		v[8].i = c->pid;
		h->row(ctx, v);
		/* Every call, also beyond top=N, for the timelines' initcall strip. */
		h->mark(ctx, &(struct bootprof_mark){ .kind = BOOTPROF_MARK_SPAN, .ns = c->start_ns,
						      .duration_ns = c->duration_ns, .name = name,
						      .detail = v[2].s });
	}
	h->table_end(ctx);
	return 0;
}

static void initcall_release(struct bootprof_ctx *ctx)
{
	struct initcall *st = ctx->priv;

	if (!st)
		return;
	ksyms_release(&st->syms);
	free(st->calls);
	free(st->run);
	free(st);
}

static const char *const initcall_events[] = { "initcall:*", "module:module_load", NULL };
static const char *const initcall_options[] = {
	"top=N           slowest initcalls shown in text (default 20; 0: all; JSON has all)",
	"kallsyms=FILE   names for built-in initcalls when the recording has none (/proc/kallsyms of that boot)",
	NULL,
};
static const char *const initcall_keys[] = { "count", "total_ns", "unfinished", "recorded",
					     "levels", "slowest", NULL };

BOOTPROF_PLUGIN(initcall) = {
	.abi = BOOTPROF_PLUGIN_ABI,
	.name = "initcall",
	.summary = "kernel initcalls of an early-boot recording: slowest and per level",
	.events = initcall_events,
	.options = initcall_options,
	.json_keys = initcall_keys,
	.init = initcall_init,
	.event = initcall_event,
	.model = initcall_model,
	.release = initcall_release,
};
