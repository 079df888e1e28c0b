// SPDX-License-Identifier: GPL-2.0
/*
 * systemd: boot cost per service. systemd moves each service's processes
 * into a cgroup named after its unit (…/system.slice/foo.service), which
 * cgroup:cgroup_attach_task records; children inherit their parent's
 * cgroup at fork. A process belongs to the unit its pid was last attached
 * to; its I/O wait, reads, CPU time and files are summed per unit.
 *
 * Unit name of a cgroup path: its deepest component with a unit suffix
 * (.service, .scope, .socket, .mount, .swap, .device, .timer, .target),
 * else its deepest .slice. A path with none (the root, a non-systemd
 * hierarchy) names no unit: it only clears a unit set by the same
 * hierarchy, so v1 controllers that keep everything in "/" change nothing.
 *
 * The boot's end (host->mark, BOOTPROF_MARK_END, where `bootprof critical`
 * walks back from by default): the exit of the last job of the boot's
 * transaction, when the recording shows it. systemd starts
 * systemd-update-utmp-runlevel.service once the default target is
 * reached (After= every runlevel target) and has finished starting up
 * when it is done: its last process's exit (systemd.last-job= names
 * another unit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bootprof/plugin.h>

#include "tidmap.h"

#define DEFAULT_TOP_FILES 3
#define DEFAULT_TOP 20
#define DEFAULT_LAST_JOB "systemd-update-utmp-runlevel.service"

struct task_unit {
	int tid;        /* 0: empty slot */
	int unit;       /* index into units, -1 none */
	int root;       /* cgroup hierarchy that set it */
};

struct unit {
	char *name;
	size_t processes;
	uint64_t wait_ns;
	uint64_t run_ns;
	uint64_t bytes_read;
	uint64_t attach_ns;  /* first attach */
};

struct systemd {
	int attach_id, fork_id;
	const struct bootprof_field *f_root, *f_pid, *f_path;
	const struct bootprof_field *f_parent, *f_child;
	struct tidmap tasks;   /* of struct task_unit */
	struct unit *units;
	size_t nunits, ucap;
	size_t top, top_files;
	uint64_t attaches;
	const char *last_job;
};

static struct task_unit *slot(struct systemd *st, int tid, int insert)
{
	int added;
	struct task_unit *t = tidmap_get(&st->tasks, tid, insert ? &added : NULL);

	if (t && insert && added)
		t->unit = -1;
	return t;
}

static int unit_index(struct systemd *st, const char *name, uint64_t ts)
{
	size_t i;

	for (i = 0; i < st->nunits; i++) {
		if (!strcmp(st->units[i].name, name))
			return (int)i;
	}
	if (st->nunits == st->ucap) {
		size_t cap = st->ucap ? st->ucap * 2 : 32;
		struct unit *n = realloc(st->units, cap * sizeof(*n));

		if (!n)
			return -1;
		st->units = n;
		st->ucap = cap;
	}
	memset(&st->units[st->nunits], 0, sizeof(st->units[0]));
	st->units[st->nunits].name = strdup(name);
	if (!st->units[st->nunits].name)
		return -1;
	st->units[st->nunits].attach_ns = ts;
	return (int)st->nunits++;
}

static int systemd_init(struct bootprof_ctx *ctx)
{
	const struct bootprof_host *h = ctx->host;
	struct systemd *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	ctx->priv = st;
	st->tasks.size = sizeof(struct task_unit);
	st->top = (size_t)h->option_u64(ctx, "top", DEFAULT_TOP);
	st->top_files = (size_t)h->option_u64(ctx, "files", DEFAULT_TOP_FILES);
	st->last_job = h->option(ctx, "last-job");
	if (!st->last_job)
		st->last_job = DEFAULT_LAST_JOB;
	st->attach_id = h->event_id(ctx, "cgroup", "cgroup_attach_task");
	st->fork_id = h->event_id(ctx, "sched", "sched_process_fork");
	st->f_root = h->field(ctx, st->attach_id, "dst_root");
	st->f_pid = h->field(ctx, st->attach_id, "pid");
	st->f_path = h->field(ctx, st->attach_id, "dst_path");
	if (!st->f_path)
		st->f_path = h->field(ctx, st->attach_id, "path"); /* before 5.x: path */
	st->f_parent = h->field(ctx, st->fork_id, "parent_pid");
	st->f_child = h->field(ctx, st->fork_id, "child_pid");
	return 0;
}

static void systemd_event(struct bootprof_ctx *ctx, const struct bootprof_event *ev)
{
	const struct bootprof_host *h = ctx->host;
	struct systemd *st = ctx->priv;
	struct task_unit *t;

	if (ev->id == st->attach_id) {
		char path[4096], name[256];
		int tid = (int)h->field_u64(ev, st->f_pid);
		int root = (int)h->field_u64(ev, st->f_root);

		st->attaches++;
		h->field_str(ev, st->f_path, path, sizeof(path));
		if (tid <= 0)
			return;
		if (!h->unit_of_cgroup(path, name, sizeof(name))) {
			int u = unit_index(st, name, ev->ts);

			t = slot(st, tid, 1);
			if (t && u >= 0) {
				t->unit = u;
				t->root = root;
			}
		} else {
			t = slot(st, tid, 0);
			if (t && t->root == root)
				t->unit = -1;
		}
	} else if (ev->id == st->fork_id) {
		int parent = (int)h->field_u64(ev, st->f_parent);
		int child = (int)h->field_u64(ev, st->f_child);
		struct task_unit *pt = slot(st, parent, 0);

		if (pt && pt->unit >= 0 && child > 0) {
			struct task_unit copy = *pt;

			t = slot(st, child, 1);
			if (t) {
				t->unit = copy.unit;
				t->root = copy.root;
			}
		}
	}
}

struct ufile {
	int unit;
	size_t file;
	uint64_t wait_ns;
	uint64_t bytes;
};

static int by_unit_then_cost(const void *a, const void *b)
{
	const struct ufile *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->file < y->file ? -1 : x->file > y->file;
}

static int by_wait(const void *a, const void *b, void *arg)
{
	const struct systemd *st = arg;
	const struct unit *x = &st->units[*(const int *)a];
	const struct unit *y = &st->units[*(const int *)b];

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	if (x->bytes_read != y->bytes_read)
		return x->bytes_read < y->bytes_read ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Processes, wait and bytes per unit are the report's "I/O wait by service": text adds the rest. */
static const struct bootprof_column unit_cols[] = {
	{ "UNIT", "unit", BOOTPROF_TEXT },
	{ NULL, "processes", BOOTPROF_U64 },
	{ NULL, "wait_ns", BOOTPROF_NS },
	{ "CPU", "run_ns", BOOTPROF_NS },
	{ NULL, "bytes_read", BOOTPROF_BYTES },
	{ "TOP FILES", NULL, BOOTPROF_TEXT },
	{ NULL, "first_attach_ns", BOOTPROF_TIME },
};

static const struct bootprof_column file_cols[] = {
	{ NULL, "path", BOOTPROF_PATH },
	{ NULL, "wait_ns", BOOTPROF_NS },
	{ NULL, "bytes_read", BOOTPROF_BYTES },
};

static int systemd_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	struct bootprof_table_spec units = { "units", unit_cols, 7, 0 };
	const struct bootprof_table_spec top_files = { "top_files", file_cols, 3, 0 };
	const struct bootprof_host *h = ctx->host;
	struct systemd *st = ctx->priv;
	size_t np = h->count(m, BOOTPROF_PROCESSES), na = h->count(m, BOOTPROF_ACCESSES);
	int *proc_unit = malloc((np ? np : 1) * sizeof(*proc_unit));
	struct ufile *uf = calloc(na ? na : 1, sizeof(*uf));
	int *order = malloc((st->nunits ? st->nunits : 1) * sizeof(*order));
	struct bootprof_process p;
	struct bootprof_access a;
	struct bootprof_file f;
	struct bootprof_mark end = { .kind = BOOTPROF_MARK_END };
	char name[300];
	size_t i, j, nuf = 0, merged;

	if (!proc_unit || !uf || !order) {
		free(proc_unit);
		free(uf);
		free(order);
		return -1;
	}
	for (i = 0; i < np; i++) {
		const struct task_unit *t;

		proc_unit[i] = -1;
		if (h->process(m, i, &p))
			continue;
		t = slot(st, p.pid, 0);
		if (!t || t->unit < 0)
			continue;
		proc_unit[i] = t->unit;
		st->units[t->unit].processes++;
		st->units[t->unit].wait_ns += p.wait_ns;
		st->units[t->unit].run_ns += p.run_ns;
		st->units[t->unit].bytes_read += p.bytes_read;
		if (p.exit_ns > end.ns && !strcmp(st->units[t->unit].name, st->last_job)) {
			end.ns = p.exit_ns;
			end.pid = p.pid;
		}
	}
	if (end.ns) {
		snprintf(name, sizeof(name), "last job done (%s)", st->last_job);
		end.name = name;
		h->mark(ctx, &end);
	}
	for (i = 0; i < na; i++) {
		if (h->access(m, i, &a) || a.process >= np || proc_unit[a.process] < 0)
			continue;
		uf[nuf].unit = proc_unit[a.process];
		uf[nuf].file = a.file;
		uf[nuf].wait_ns = a.wait_ns;
		uf[nuf].bytes = a.bytes_read;
		nuf++;
	}
	/* One row per (unit, file): processes of a unit reading the same file add up. */
	qsort(uf, nuf, sizeof(*uf), by_unit_then_cost);
	for (i = 0, merged = 0; i < nuf; i++) {
		if (merged && uf[merged - 1].unit == uf[i].unit && uf[merged - 1].file == uf[i].file) {
			uf[merged - 1].wait_ns += uf[i].wait_ns;
			uf[merged - 1].bytes += uf[i].bytes;
		} else {
			uf[merged++] = uf[i];
		}
	}
	nuf = merged;
	qsort(uf, nuf, sizeof(*uf), by_unit_then_cost);

	for (i = 0; i < st->nunits; i++)
		order[i] = (int)i;
	if (st->nunits)
		qsort_r(order, st->nunits, sizeof(*order), by_wait, st);

	h->value_u64(ctx, "attach_events", st->attaches);
	/* No unit, nothing to say in text (not a systemd boot, or no attach events). */
	h->section(ctx, "systemd: CPU time and costliest files per unit");
	/* Units of the model's processes: the report's filter selects them. */
	for (i = 0, j = 0; i < st->nunits; i++)
		j += st->units[i].processes > 0;
	if (j)
		h->line(ctx, "%zu units, %llu cgroup attach events", j,
			(unsigned long long)st->attaches);
	units.top = st->top;
	h->table(ctx, &units);
	for (i = 0; i < st->nunits; i++) {
		const struct unit *u = &st->units[order[i]];
		char files[256] = "";
		size_t nf = 0, used = 0, first = 0;
		union bootprof_value v[7];

		if (!u->processes)
			continue;

		/* The unit's files, costliest first (uf is sorted by unit, then cost). */
		for (j = 0; j < nuf && uf[j].unit != order[i]; j++)
			;
		first = j;
		for (; j < nuf && uf[j].unit == order[i] && nf < st->top_files; j++) {
			const char *base;

			if ((!uf[j].wait_ns && !uf[j].bytes) || h->file(m, uf[j].file, &f))
				continue;
			nf++;
			base = f.path ? strrchr(f.path, '/') : NULL;
			base = base && base[1] ? base + 1 : (f.path ? f.path : "?");
			if (used < sizeof(files))
				used += (size_t)snprintf(files + used, sizeof(files) - used, "%s%s",
							 nf > 1 ? ", " : "", base);
		}
		v[0].s = u->name;
		v[1].u = u->processes;
		v[2].u = u->wait_ns;
		v[3].u = u->run_ns;
		v[4].u = u->bytes_read;
		v[5].s = files;
		v[6].u = u->attach_ns;
		h->row(ctx, v);
		h->table(ctx, &top_files);
		for (j = first, nf = 0; j < nuf && uf[j].unit == order[i] && nf < st->top_files; j++) {
			union bootprof_value fv[3];

			if ((!uf[j].wait_ns && !uf[j].bytes) || h->file(m, uf[j].file, &f))
				continue;
			nf++;
			fv[0].s = f.path;
			fv[1].u = uf[j].wait_ns;
			fv[2].u = uf[j].bytes;
			h->row(ctx, fv);
		}
		h->table_end(ctx);
	}
	h->table_end(ctx);
	free(proc_unit);
	free(uf);
	free(order);
	return 0;
}

static void systemd_release(struct bootprof_ctx *ctx)
{
	struct systemd *st = ctx->priv;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nunits; i++)
		free(st->units[i].name);
	free(st->units);
	tidmap_release(&st->tasks);
	free(st);
}

static const char *const systemd_events[] = { "cgroup:cgroup_attach_task",
					      "sched:sched_process_fork", NULL };
static const char *const systemd_options[] = {
	"top=N    units shown in text (default 20; 0: all; JSON has all)",
	"files=N  top files per unit (default 3)",
	"last-job=UNIT  the boot's last job: its exit is the boot's end (default "
	DEFAULT_LAST_JOB ")",
	NULL,
};
static const char *const systemd_keys[] = { "attach_events", "units", NULL };

BOOTPROF_PLUGIN(systemd) = {
	.abi = BOOTPROF_PLUGIN_ABI,
	.name = "systemd",
	.summary = "services from cgroup attach events: I/O wait, reads and top files per unit",
	.events = systemd_events,
	.options = systemd_options,
	.json_keys = systemd_keys,
	.init = systemd_init,
	.event = systemd_event,
	.model = systemd_model,
	.release = systemd_release,
};
