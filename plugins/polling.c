// SPDX-License-Identifier: GPL-2.0
/*
 * polling: work done over and over during boot — a program exec'd again and
 * again (udev running blkid every 10 ms) or a file read by process after
 * process — with its rate and what all the repetitions cost together.
 *
 * Exec times come from sched_process_exec in the stream (for the rate);
 * the cost comes from the model: I/O wait and bytes of the processes that
 * exec'd the program (bp_exec_count), and their CPU time. Only execs by
 * the model's processes count: the report's filter (the traced command's
 * tree by default) selects them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bootprof/plugin.h>

#define DEFAULT_MIN 10
#define DEFAULT_TOP 10

struct prog {
	char *path;
	uint64_t count;
	uint64_t first_ns;
	uint64_t last_ns;
	uint64_t run_ns;     /* CPU time of the processes whose last exec it was */
	uint64_t wait_ns;
	uint64_t bytes;
};

/* One exec seen in the window: which program, by whom, when. */
struct exec_seen {
	size_t prog;
	int pid;
	uint64_t ts;
};

/* A process of the model: the execs of @pid between @start and @end are its. */
struct life {
	int pid;
	uint64_t start, end;
};

struct polling {
	int exec_id;
	struct exec_seen *seen;
	size_t nseen, cseen;
	const struct bootprof_field *filename;
	struct prog *progs;
	size_t nprogs, cap;
	uint64_t min;
	size_t top;
};

static int polling_init(struct bootprof_ctx *ctx)
{
	const struct bootprof_host *h = ctx->host;
	struct polling *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	ctx->priv = st;
	st->min = h->option_u64(ctx, "min", DEFAULT_MIN);
	if (st->min < 2)
		st->min = 2;
	st->top = (size_t)h->option_u64(ctx, "top", DEFAULT_TOP);
	st->exec_id = h->event_id(ctx, "sched", "sched_process_exec");
	st->filename = h->field(ctx, st->exec_id, "filename");
	return 0;
}

static struct prog *prog_of(struct polling *st, const char *path)
{
	struct prog *p;
	size_t i;

	for (i = 0; i < st->nprogs; i++) {
		if (!strcmp(st->progs[i].path, path))
			return &st->progs[i];
	}
	if (st->nprogs == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		struct prog *n = realloc(st->progs, cap * sizeof(*n));

		if (!n)
			return NULL;
		st->progs = n;
		st->cap = cap;
	}
	p = &st->progs[st->nprogs];
	memset(p, 0, sizeof(*p));
	p->path = strdup(path);
	if (!p->path)
		return NULL;
	st->nprogs++;
	return p;
}

static void polling_event(struct bootprof_ctx *ctx, const struct bootprof_event *ev)
{
	struct polling *st = ctx->priv;
	char path[4096];
	struct prog *p;

	if (ev->id != st->exec_id || !ev->in_window)
		return;
	ctx->host->field_str(ev, st->filename, path, sizeof(path));
	p = prog_of(st, path);
	if (!p)
		return;
	if (st->nseen == st->cseen) {
		size_t cap = st->cseen ? st->cseen * 2 : 256;
		struct exec_seen *n = realloc(st->seen, cap * sizeof(*n));

		if (!n)
			return;
		st->seen = n;
		st->cseen = cap;
	}
	st->seen[st->nseen++] = (struct exec_seen){ (size_t)(p - st->progs), ev->pid, ev->ts };
}

static int by_pid(const void *a, const void *b)
{
	const struct life *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Whether the exec @e was made by one of the model's processes (@v, by pid). */
static int exec_selected(const struct life *v, size_t n, const struct exec_seen *e)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].pid < e->pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* pids are reused: the process alive at the exec */
	for (; lo < n && v[lo].pid == e->pid; lo++) {
		if (e->ts >= v[lo].start && (!v[lo].end || e->ts <= v[lo].end))
			return 1;
	}
	return 0;
}

/* Count, first and last exec of each program, by the model's processes only. */
static int count_execs(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	const struct bootprof_host *h = ctx->host;
	struct polling *st = ctx->priv;
	size_t i, n = h->count(m, BOOTPROF_PROCESSES), nl = 0;
	struct life *v = malloc((n ? n : 1) * sizeof(*v));
	struct bootprof_process p;

	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		if (!h->process(m, i, &p))
			v[nl++] = (struct life){ p.pid, p.start_ns, p.exit_ns };
	}
	qsort(v, nl, sizeof(*v), by_pid);
	for (i = 0; i < st->nseen; i++) {
		struct prog *pr = &st->progs[st->seen[i].prog];

		if (!exec_selected(v, nl, &st->seen[i]))
			continue;
		if (!pr->count++)
			pr->first_ns = st->seen[i].ts;
		pr->last_ns = st->seen[i].ts;
	}
	free(v);
	return 0;
}

/* Repetitions per second over the span they cover (count - 1 intervals). */
static double rate_of(uint64_t count, uint64_t first, uint64_t last)
{
	return last > first && count > 1 ? (double)(count - 1) * 1e9 / (double)(last - first) : 0;
}

static int by_count(const void *a, const void *b)
{
	const struct prog *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->path, y->path);
}

static const struct bootprof_column prog_cols[] = {
	{ "EXECS", "count", BOOTPROF_U64 },
	{ "PER S", "per_second", BOOTPROF_DOUBLE },
	{ "EVERY", "interval_ns", BOOTPROF_NS },
	{ "CPU", "run_ns", BOOTPROF_NS },
	{ "PROGRAM", "path", BOOTPROF_PATH },
	{ NULL, "first_ns", BOOTPROF_TIME },
	{ NULL, "last_ns", BOOTPROF_TIME },
	{ NULL, "wait_ns", BOOTPROF_NS },
	{ NULL, "bytes_read", BOOTPROF_BYTES },
};

static void programs(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	struct bootprof_table_spec spec = { "programs", prog_cols, 9, 0 };
	const struct bootprof_host *h = ctx->host;
	struct polling *st = ctx->priv;
	size_t i, n = h->count(m, BOOTPROF_PROCESSES);
	struct bootprof_process p;
	struct bootprof_exec e;

	/* Cost from the model: wait and bytes per exec'd path, CPU per process. */
	for (i = 0; i < h->count(m, BOOTPROF_EXECS); i++) {
		struct prog *pr;

		if (h->exec(m, i, &e) || !e.path)
			continue;
		pr = prog_of(st, e.path);
		if (!pr)
			continue;
		pr->wait_ns = e.wait_ns;
		pr->bytes = e.bytes_read;
		if (!pr->count)
			pr->count = e.count;
	}
	for (i = 0; i < n; i++) {
		struct prog *pr;

		if (h->process(m, i, &p) || !p.exec)
			continue;
		pr = prog_of(st, p.exec);
		if (pr)
			pr->run_ns += p.run_ns;
	}
	if (st->nprogs)
		qsort(st->progs, st->nprogs, sizeof(*st->progs), by_count);

	/* The report's "Repeated work" has count, wait and bytes: text adds the rate and CPU. */
	if (st->nprogs && st->progs[0].count >= st->min)
		h->line(ctx, "Programs exec'd at least %llu times:", (unsigned long long)st->min);
	spec.top = st->top;
	h->table(ctx, &spec);
	for (i = 0; i < st->nprogs && st->progs[i].count >= st->min; i++) {
		const struct prog *pr = &st->progs[i];
		union bootprof_value v[9];

		v[0].u = pr->count;
		v[1].d = rate_of(pr->count, pr->first_ns, pr->last_ns);
		v[2].u = pr->count > 1 ? (pr->last_ns - pr->first_ns) / (pr->count - 1) : 0;
		v[3].u = pr->run_ns;
		v[4].s = pr->path;
		v[5].u = pr->first_ns;
		v[6].u = pr->last_ns;
		v[7].u = pr->wait_ns;
		v[8].u = pr->bytes;
		h->row(ctx, v);
	}
	h->table_end(ctx);
}

struct busy_file {
	size_t file;
	struct bootprof_file f;
};

static int by_readers(const void *a, const void *b)
{
	const struct busy_file *x = a, *y = b;

	if (x->f.nreaders != y->f.nreaders)
		return x->f.nreaders < y->f.nreaders ? 1 : -1;
	return strcmp(x->f.path ? x->f.path : "", y->f.path ? y->f.path : "");
}

/*
 * Files read or mapped by at least min processes (one process = one open):
 * JSON only, as the report's "files read by several processes" lists them.
 */
static const struct bootprof_column file_cols[] = {
	{ NULL, "path", BOOTPROF_PATH },
	{ NULL, "readers", BOOTPROF_U64 },
	{ NULL, "per_second", BOOTPROF_DOUBLE },
	{ NULL, "wait_ns", BOOTPROF_NS },
	{ NULL, "bytes_read", BOOTPROF_BYTES },
};

static void files(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	const struct bootprof_table_spec spec = { "files", file_cols, 5, 0 };
	const struct bootprof_host *h = ctx->host;
	struct polling *st = ctx->priv;
	size_t i, n = h->count(m, BOOTPROF_FILES), nb = 0;
	struct busy_file *busy = calloc(n ? n : 1, sizeof(*busy));

	if (!busy)
		return;
	for (i = 0; i < n; i++) {
		if (h->file(m, i, &busy[nb].f) || busy[nb].f.metadata ||
		    busy[nb].f.nreaders < st->min)
			continue;
		busy[nb++].file = i;
	}
	if (nb)
		qsort(busy, nb, sizeof(*busy), by_readers);
	h->table(ctx, &spec);
	for (i = 0; i < nb; i++) {
		const struct bootprof_file *f = &busy[i].f;
		union bootprof_value v[5];

		v[0].s = f->path;
		v[1].u = f->nreaders;
		v[2].d = rate_of(f->nreaders, f->first_ns, f->last_ns);
		v[3].u = f->wait_ns;
		v[4].u = f->bytes_read;
		h->row(ctx, v);
	}
	h->table_end(ctx);
	free(busy);
}

static int polling_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	struct polling *st = ctx->priv;

	if (count_execs(ctx, m))
		return -1;
	ctx->host->section(ctx, "polling: programs exec'd over and over");
	ctx->host->value_u64(ctx, "min_count", st->min);
	programs(ctx, m);
	files(ctx, m);
	return 0;
}

static void polling_release(struct bootprof_ctx *ctx)
{
	struct polling *st = ctx->priv;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nprogs; i++)
		free(st->progs[i].path);
	free(st->progs);
	free(st->seen);
	free(st);
}

static const char *const polling_events[] = { "sched:sched_process_exec", NULL };
static const char *const polling_options[] = {
	"min=N  repetitions that count as polling (default 10)",
	"top=N  programs shown in text (default 10; 0: all; JSON has all)",
	NULL,
};
static const char *const polling_keys[] = { "min_count", "programs", "files", NULL };

BOOTPROF_PLUGIN(polling) = {
	.abi = BOOTPROF_PLUGIN_ABI,
	.name = "polling",
	.summary = "programs exec'd and files read over and over: rate and cost",
	.events = polling_events,
	.options = polling_options,
	.json_keys = polling_keys,
	.init = polling_init,
	.event = polling_event,
	.model = polling_model,
	.release = polling_release,
};
