// SPDX-License-Identifier: GPL-2.0
/*
 * android: the two Android boot stories.
 *
 * Zygote: the preloading process (matched by android.process, on its comm,
 * exec path or exec'd file name) and everything it forks. Its I/O wait is
 * split by the archive type of the file each wait was charged to (jar,
 * apk, oat = .oat/.odex/.vdex/.art, so, other; waits on metadata or no
 * file are "unattributed"), and the stream gives the CPU time left idle
 * meanwhile: wall time during which some task of the tree was in an I/O
 * wait and every CPU ran its idle task. A wait is told from other
 * uninterruptible sleeps as the model does: the task was in a file syscall
 * (read, open/stat, exec, getdents), or had faulted on a file, inserted
 * pages or queued block I/O since its last syscall boundary; without
 * syscall events every uninterruptible sleep counts. A wait ends, as in the
 * model, at the task's sched_wakeup (else sched_waking, else its
 * switch-in): the run-queue delay after it is not I/O wait. Tree membership
 * in the stream: a task whose comm or exec matches, and what it forks (a
 * process renamed with prctl is caught at its first sleep under the new
 * comm).
 *
 * Package scan: per archive (android.archives patterns), bytes read from
 * storage against the bytes some access used before the end of the
 * recording — an mmap'd APK faulted in whole to read one manifest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bootprof/plugin.h>

#include "tidmap.h"

#define DEFAULT_PROCESS "zygote*,app_process*"
#define DEFAULT_ARCHIVES "*.apk,*.jar,*.zip"
#define DEFAULT_TOP 20
#define TASK_UNINTERRUPTIBLE 2
#define TASK_REPORT_PREEMPT 0x100

enum kind { K_JAR, K_APK, K_OAT, K_SO, K_OTHER, K_UNATTRIBUTED, NKINDS };
static const char *const kind_name[NKINDS] = { "jar", "apk", "oat", "so", "other",
					       "unattributed" };

struct member {
	int tid;        /* 0: empty */
	int waiting;    /* in an I/O wait */
	int sys;        /* enum bootprof_syscall in progress, -1 none */
	int activity;   /* file or block activity since the last syscall boundary */
};

struct android {
	const char *process;
	const char *archives;
	size_t top;
	int switch_id, fork_id, exec_id, enter_id, exit_id;
	int fault_id, insert_id, bio_id, wake_id;
	const struct bootprof_field *f_sys_id, *f_wake_pid;
	const struct bootprof_field *f_prev_pid, *f_prev_state, *f_prev_comm, *f_next_pid;
	const struct bootprof_field *f_parent, *f_child, *f_filename, *f_exec_pid;
	struct tidmap tree;    /* of struct member */
	int ncpus;
	signed char *cpu_idle; /* -1 unknown, 0 busy, 1 idle */
	int nidle, nwaiting;
	uint64_t win_first;    /* first and last event inside the report's window */
	uint64_t win_last;
	int win_seen;
	uint64_t since;        /* start of the current idle-while-waiting interval, 0: none */
	uint64_t idle_ns;      /* CPU idle while the tree waited */
	uint64_t tree_wait_wall_ns; /* wall time with some tree task waiting */
	uint64_t wait_since;
};

static struct member *member(struct android *st, int tid, int insert)
{
	int added;
	struct member *m = tidmap_get(&st->tree, tid, insert ? &added : NULL);

	if (m && insert && added)
		m->sys = -1;
	return m;
}

static int android_init(struct bootprof_ctx *ctx)
{
	const struct bootprof_host *h = ctx->host;
	struct android *st = calloc(1, sizeof(*st));
	int i;

	if (!st)
		return -1;
	ctx->priv = st;
	st->tree.size = sizeof(struct member);
	st->process = h->option(ctx, "process");
	if (!st->process)
		st->process = DEFAULT_PROCESS;
	st->archives = h->option(ctx, "archives");
	if (!st->archives)
		st->archives = DEFAULT_ARCHIVES;
	st->top = (size_t)h->option_u64(ctx, "top", DEFAULT_TOP);
	st->switch_id = h->event_id(ctx, "sched", "sched_switch");
	st->fork_id = h->event_id(ctx, "sched", "sched_process_fork");
	st->exec_id = h->event_id(ctx, "sched", "sched_process_exec");
	st->f_prev_pid = h->field(ctx, st->switch_id, "prev_pid");
	st->f_prev_state = h->field(ctx, st->switch_id, "prev_state");
	st->f_prev_comm = h->field(ctx, st->switch_id, "prev_comm");
	st->f_next_pid = h->field(ctx, st->switch_id, "next_pid");
	st->f_parent = h->field(ctx, st->fork_id, "parent_pid");
	st->f_child = h->field(ctx, st->fork_id, "child_pid");
	st->f_filename = h->field(ctx, st->exec_id, "filename");
	st->f_exec_pid = h->field(ctx, st->exec_id, "pid");
	st->enter_id = h->event_id(ctx, "raw_syscalls", "sys_enter");
	st->exit_id = h->event_id(ctx, "raw_syscalls", "sys_exit");
	st->f_sys_id = h->field(ctx, st->enter_id, "id");
	st->fault_id = h->event_id(ctx, "filemap", "mm_filemap_fault");
	st->insert_id = h->event_id(ctx, "filemap", "mm_filemap_add_to_page_cache");
	st->bio_id = h->event_id(ctx, "block", "block_bio_queue");
	st->wake_id = h->event_id(ctx, "sched", "sched_wakeup");
	if (st->wake_id < 0)
		st->wake_id = h->event_id(ctx, "sched", "sched_waking");
	st->f_wake_pid = h->field(ctx, st->wake_id, "pid");
	st->ncpus = h->ncpus(ctx);
	if (st->ncpus <= 0)
		st->ncpus = 1;
	st->cpu_idle = malloc((size_t)st->ncpus);
	if (!st->cpu_idle)
		return -1;
	for (i = 0; i < st->ncpus; i++)
		st->cpu_idle[i] = -1;
	return 0;
}

/* Whether a comm or path (or its file name) matches the process patterns. */
static int matches(const struct bootprof_host *h, const char *patterns, const char *s)
{
	const char *base;

	if (!s || !*s)
		return 0;
	if (h->match(patterns, s))
		return 1;
	base = strrchr(s, '/');
	return base && h->match(patterns, base + 1);
}

/* The part of [a, b] inside the report's window (as far as events tell). */
static uint64_t clip(const struct android *st, uint64_t a, uint64_t b)
{
	if (!st->win_seen)
		return 0;
	if (a < st->win_first)
		a = st->win_first;
	if (b > st->win_last)
		b = st->win_last;
	return b > a ? b - a : 0;
}

/* Track the idle-while-waiting state after any change. */
static void update(struct android *st, uint64_t ts)
{
	int on = st->nwaiting > 0 && st->nidle >= st->ncpus;

	if (st->since && !on) {
		st->idle_ns += clip(st, st->since, ts);
		st->since = 0;
	} else if (!st->since && on) {
		st->since = ts;
	}
	if (st->wait_since && !st->nwaiting) {
		st->tree_wait_wall_ns += clip(st, st->wait_since, ts);
		st->wait_since = 0;
	} else if (!st->wait_since && st->nwaiting) {
		st->wait_since = ts;
	}
}

static void wait_over(struct android *st, struct member *m)
{
	if (m && m->waiting) {
		m->waiting = 0;
		st->nwaiting--;
	}
}

static void on_switch(struct bootprof_ctx *ctx, struct android *st,
		      const struct bootprof_event *ev)
{
	const struct bootprof_host *h = ctx->host;
	int prev = (int)h->field_u64(ev, st->f_prev_pid);
	int next = (int)h->field_u64(ev, st->f_next_pid);
	uint64_t state = h->field_u64(ev, st->f_prev_state);
	struct member *m;

	if (prev > 0) {
		m = member(st, prev, 0);
		if (!m) {
			char comm[16];

			h->field_str(ev, st->f_prev_comm, comm, sizeof(comm));
			if (matches(h, st->process, comm))
				m = member(st, prev, 1);
		}
		if (m && !m->waiting && !(state & TASK_REPORT_PREEMPT) &&
		    (state & 0xff) == TASK_UNINTERRUPTIBLE &&
		    (st->enter_id < 0 || m->activity ||
		     (m->sys >= 0 && m->sys != BOOTPROF_SYS_OTHER))) {
			m->waiting = 1;
			st->nwaiting++;
		}
	}
	if (next > 0)
		wait_over(st, member(st, next, 0));
	if (ev->cpu >= 0 && ev->cpu < st->ncpus) {
		if (st->cpu_idle[ev->cpu] == 1)
			st->nidle--;
		st->cpu_idle[ev->cpu] = next == 0;
		if (next == 0)
			st->nidle++;
	}
	update(st, ev->ts);
}

static void android_event(struct bootprof_ctx *ctx, const struct bootprof_event *ev)
{
	const struct bootprof_host *h = ctx->host;
	struct android *st = ctx->priv;

	struct member *m;

	if (ev->in_window) {
		if (!st->win_seen)
			st->win_first = ev->ts;
		st->win_seen = 1;
		st->win_last = ev->ts;
	}
	if (ev->id == st->switch_id) {
		on_switch(ctx, st, ev);
	} else if (ev->id == st->wake_id) {
		wait_over(st, member(st, (int)h->field_u64(ev, st->f_wake_pid), 0));
		update(st, ev->ts);
	} else if (ev->id == st->enter_id || ev->id == st->exit_id) {
		m = member(st, ev->pid, 0);
		if (m) {
			m->sys = ev->id == st->enter_id ?
					 (int)h->syscall(ctx, (long)h->field_u64(ev, st->f_sys_id)) : -1;
			m->activity = 0;
		}
	} else if (ev->id == st->fault_id || ev->id == st->insert_id || ev->id == st->bio_id) {
		m = member(st, ev->pid, 0);
		if (m)
			m->activity = 1;
	} else if (ev->id == st->fork_id) {
		if (member(st, (int)h->field_u64(ev, st->f_parent), 0))
			member(st, (int)h->field_u64(ev, st->f_child), 1);
	} else if (ev->id == st->exec_id) {
		char path[4096];

		h->field_str(ev, st->f_filename, path, sizeof(path));
		if (matches(h, st->process, path))
			member(st, (int)h->field_u64(ev, st->f_exec_pid), 1);
	}
}

static enum kind kind_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	const char *slash = path ? strrchr(path, '/') : NULL;

	if (!dot || (slash && dot < slash))
		return K_OTHER;
	if (!strcmp(dot, ".jar"))
		return K_JAR;
	if (!strcmp(dot, ".apk"))
		return K_APK;
	if (!strcmp(dot, ".oat") || !strcmp(dot, ".odex") || !strcmp(dot, ".vdex") ||
	    !strcmp(dot, ".art"))
		return K_OAT;
	if (!strcmp(dot, ".so") || strstr(slash ? slash : path, ".so."))
		return K_SO;
	return K_OTHER;
}

/* The model's processes of the tree: a matching process and its descendants. */
static unsigned char *tree_of(const struct bootprof_host *h, const char *patterns,
			      const struct bootprof_model *m, size_t *nroots)
{
	size_t n = h->count(m, BOOTPROF_PROCESSES), i, changed = 1;
	unsigned char *in = calloc(n ? n : 1, 1);
	struct bootprof_process p;

	if (!in)
		return NULL;
	*nroots = 0;
	for (i = 0; i < n; i++) {
		if (h->process(m, i, &p))
			continue;
		if (matches(h, patterns, p.comm) || matches(h, patterns, p.exec)) {
			in[i] = 2;
			++*nroots;
		}
	}
	/* Parents can come after children in pid order: iterate to a fixed point. */
	while (changed) {
		changed = 0;
		for (i = 0; i < n; i++) {
			if (in[i] || h->process(m, i, &p) || p.parent == BOOTPROF_NONE ||
			    p.parent >= n || !in[p.parent])
				continue;
			in[i] = 1;
			changed = 1;
		}
	}
	return in;
}

static const struct bootprof_column kind_cols[] = {
	{ "ARCHIVE", NULL, BOOTPROF_TEXT },
	{ "WAIT", NULL, BOOTPROF_NS },
	{ "SHARE", NULL, BOOTPROF_TEXT },
	{ "READ", NULL, BOOTPROF_BYTES },
};

/* The zygote tree's waits by archive type; returns the processes that matched. */
static size_t zygote(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	const struct bootprof_table_spec kinds = { NULL, kind_cols, 4, 0 };
	const struct bootprof_host *h = ctx->host;
	struct android *st = ctx->priv;
	uint64_t wait[NKINDS] = { 0 }, bytes[NKINDS] = { 0 }, tree_wait = 0, tree_bytes = 0;
	uint64_t tree_run = 0, charged = 0;
	size_t n = h->count(m, BOOTPROF_PROCESSES), i, nroots, nproc = 0;
	unsigned char *in = tree_of(h, st->process, m, &nroots);
	struct bootprof_access a;
	struct bootprof_process p;
	struct bootprof_file f;
	char t[4][32];

	if (!in)
		return 0;
	for (i = 0; i < n; i++) {
		if (!in[i] || h->process(m, i, &p))
			continue;
		nproc++;
		tree_wait += p.wait_ns;
		tree_run += p.run_ns;
		tree_bytes += p.bytes_read;
	}
	for (i = 0; i < h->count(m, BOOTPROF_ACCESSES); i++) {
		enum kind k;

		if (h->access(m, i, &a) || a.process >= n || !in[a.process] ||
		    h->file(m, a.file, &f))
			continue;
		k = f.metadata ? K_UNATTRIBUTED : kind_of(f.path);
		wait[k] += a.wait_ns;
		bytes[k] += a.bytes_read;
		charged += k == K_UNATTRIBUTED ? 0 : a.wait_ns;
	}
	wait[K_UNATTRIBUTED] = tree_wait > charged ? tree_wait - charged : 0;

	h->object_begin(ctx, "zygote");
	h->value_str(ctx, "process", st->process);
	h->value_u64(ctx, "matched", nroots);
	h->value_u64(ctx, "processes", nproc);
	h->value_u64(ctx, "wait_ns", tree_wait);
	h->value_u64(ctx, "run_ns", tree_run);
	h->value_u64(ctx, "bytes_read", tree_bytes);
	h->value_u64(ctx, "waiting_wall_ns", st->tree_wait_wall_ns);
	h->value_u64(ctx, "cpu_idle_while_waiting_ns", st->idle_ns);
	/* An object keyed by archive type in JSON (schema 1), a table in text. */
	h->object_begin(ctx, "by_archive");
	for (i = 0; i < NKINDS; i++) {
		h->object_begin(ctx, kind_name[i]);
		h->value_u64(ctx, "wait_ns", wait[i]);
		h->value_u64(ctx, "bytes_read", bytes[i]);
		h->object_end(ctx);
	}
	h->object_end(ctx);
	h->object_end(ctx);

	free(in);
	if (!nroots)
		return 0;
	h->section(ctx, "android: zygote preload");
	h->line(ctx, "Zygote ('%s'): %zu processes, I/O wait %s, CPU %s, read %s", st->process,
		nproc, h->fmt_ns(t[0], tree_wait), h->fmt_ns(t[1], tree_run),
		h->fmt_bytes(t[2], tree_bytes));
	h->line(ctx, "  waiting (wall) %s, all CPUs idle meanwhile %s",
		h->fmt_ns(t[0], st->tree_wait_wall_ns), h->fmt_ns(t[1], st->idle_ns));
	h->table(ctx, &kinds);
	for (i = 0; i < NKINDS; i++) {
		union bootprof_value v[4];

		if (tree_wait)
			snprintf(t[3], sizeof(t[3]), "%.1f%%", 100.0 * (double)wait[i] /
								(double)tree_wait);
		else
			snprintf(t[3], sizeof(t[3]), "-");
		v[0].s = kind_name[i];
		v[1].u = wait[i];
		v[2].s = t[3];
		v[3].u = bytes[i];
		h->row(ctx, v);
	}
	h->table_end(ctx);
	return nroots;
}

struct archive {
	size_t file;
	struct bootprof_file f;
};

static int by_waste(const void *a, const void *b)
{
	const struct archive *x = a, *y = b;

	if (x->f.never_used_bytes != y->f.never_used_bytes)
		return x->f.never_used_bytes < y->f.never_used_bytes ? 1 : -1;
	if (x->f.bytes_read != y->f.bytes_read)
		return x->f.bytes_read < y->f.bytes_read ? 1 : -1;
	return strcmp(x->f.path, y->f.path);
}

static const struct bootprof_column archive_cols[] = {
	{ "READ", "bytes_read", BOOTPROF_BYTES },
	{ "USED", "used_bytes", BOOTPROF_BYTES },
	{ "NEVER USED", "never_used_bytes", BOOTPROF_BYTES },
	{ "USED %", NULL, BOOTPROF_DOUBLE },
	{ "ARCHIVE", "path", BOOTPROF_PATH },
	{ NULL, "size_pages", BOOTPROF_U64 },
	{ NULL, "readers", BOOTPROF_U64 },
};

/* Without page access events: what was read, no usage (JSON only, the text says why). */
static const struct bootprof_column archive_read_cols[] = {
	{ NULL, "path", BOOTPROF_PATH },
	{ NULL, "bytes_read", BOOTPROF_BYTES },
	{ NULL, "size_pages", BOOTPROF_U64 },
	{ NULL, "readers", BOOTPROF_U64 },
};

/*
 * Archives the package scan read and how much of them was used. Shown in
 * text only on Android (a zygote, or an .apk read): a desktop boot reads
 * .jar and .zip files too, and is not scanning packages.
 */
static void package_scan(struct bootprof_ctx *ctx, const struct bootprof_model *m, int android)
{
	const struct bootprof_host *h = ctx->host;
	struct android *st = ctx->priv;
	size_t n = h->count(m, BOOTPROF_FILES), i, na = 0;
	struct archive *ar = calloc(n ? n : 1, sizeof(*ar));
	uint64_t read = 0, used = 0, never = 0;
	struct bootprof_totals tot;
	char t[4][32];

	if (!ar)
		return;
	h->totals(m, &tot);
	for (i = 0; i < n; i++) {
		if (h->file(m, i, &ar[na].f) || ar[na].f.metadata || !ar[na].f.path ||
		    !ar[na].f.bytes_read || !matches(h, st->archives, ar[na].f.path))
			continue;
		read += ar[na].f.bytes_read;
		used += ar[na].f.used_bytes;
		never += ar[na].f.never_used_bytes;
		ar[na++].file = i;
	}
	if (na)
		qsort(ar, na, sizeof(*ar), by_waste);
	for (i = 0; i < na && !android; i++)
		android = kind_of(ar[i].f.path) == K_APK;
	h->object_begin(ctx, "package_scan");
	h->value_str(ctx, "archives", st->archives);
	h->value_bool(ctx, "used_available", tot.access_available);
	h->value_u64(ctx, "count", na);
	h->value_u64(ctx, "bytes_read", read);
	if (tot.access_available) {
		h->value_u64(ctx, "used_bytes", used);
		h->value_u64(ctx, "never_used_bytes", never);
	}
	h->section(ctx, "android: package scan");
	if (na && android) {
		h->line(ctx, "Package scan ('%s'): %zu archives, read %s", st->archives, na,
			h->fmt_bytes(t[0], read));
		if (tot.access_available)
			h->line(ctx, "  used %s, never used %s (%.1f%% of what was read)",
				h->fmt_bytes(t[0], used), h->fmt_bytes(t[1], never),
				read ? 100.0 * (double)never / (double)read : 0.0);
		else
			h->line(ctx, "  bytes used: not available (no page access events; "
				"kernel < 6.12)");
	}
	if (tot.access_available) {
		struct bootprof_table_spec spec = { "files", archive_cols, 7, st->top };
		struct bootprof_column cols[7];

		/* Titles only on Android: elsewhere the table is JSON's alone. */
		memcpy(cols, archive_cols, sizeof(cols));
		for (i = 0; i < 7 && !android; i++)
			cols[i].title = NULL;
		spec.columns = cols;
		h->table(ctx, &spec);
	} else {
		const struct bootprof_table_spec spec = { "files", archive_read_cols, 4, 0 };

		h->table(ctx, &spec);
	}
	for (i = 0; i < na; i++) {
		const struct bootprof_file *f = &ar[i].f;
		union bootprof_value v[7];

		if (tot.access_available) {
			v[0].u = f->bytes_read;
			v[1].u = f->used_bytes;
			v[2].u = f->never_used_bytes;
			v[3].d = f->bytes_read ? 100.0 * (double)f->used_bytes / (double)f->bytes_read : 0;
			v[4].s = f->path;
			v[5].u = f->size_pages;
			v[6].u = f->nreaders;
		} else {
			v[0].s = f->path;
			v[1].u = f->bytes_read;
			v[2].u = f->size_pages;
			v[3].u = f->nreaders;
		}
		h->row(ctx, v);
	}
	h->table_end(ctx);
	h->object_end(ctx);
	free(ar);
}

static int android_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	struct android *st = ctx->priv;
	struct bootprof_totals tot;

	ctx->host->totals(m, &tot);
	/* Close intervals still open at the end of the recording. */
	if (st->nwaiting) {
		uint64_t end = tot.last_ns;

		if (end < st->since)
			end = st->since;
		if (end < st->wait_since)
			end = st->wait_since;
		st->nwaiting = 0;
		update(st, end);
	}
	package_scan(ctx, m, zygote(ctx, m) > 0);
	return 0;
}

static void android_release(struct bootprof_ctx *ctx)
{
	struct android *st = ctx->priv;

	if (!st)
		return;
	tidmap_release(&st->tree);
	free(st->cpu_idle);
	free(st);
}

static const char *const android_events[] = {
	"sched:sched_switch", "sched:sched_process_fork", "sched:sched_process_exec",
	"sched:sched_wakeup", "sched:sched_waking",
	"raw_syscalls:sys_enter", "raw_syscalls:sys_exit", "filemap:mm_filemap_fault",
	"filemap:mm_filemap_add_to_page_cache", "block:block_bio_queue", NULL,
};
static const char *const android_options[] = {
	"process=PATTERNS   the preloading process: comm or exec path, fnmatch, comma-separated "
	"(default " DEFAULT_PROCESS ")",
	"archives=PATTERNS  archives of the package scan (default " DEFAULT_ARCHIVES ")",
	"top=N              archives shown in text (default 20; 0: all; JSON has all)",
	NULL,
};
static const char *const android_keys[] = { "zygote", "package_scan", NULL };

BOOTPROF_PLUGIN(android) = {
	.abi = BOOTPROF_PLUGIN_ABI,
	.name = "android",
	.summary = "zygote preload I/O wait by archive type and idle CPU; package-scan waste",
	.events = android_events,
	.options = android_options,
	.json_keys = android_keys,
	.init = android_init,
	.event = android_event,
	.model = android_model,
	.release = android_release,
};
