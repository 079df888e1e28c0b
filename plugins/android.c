// SPDX-License-Identifier: GPL-2.0
/*
 * android: the two Android boot stories.
 *
 * Zygote: the preloading process (matched by android.process, on its comm,
 * exec path or exec'd file name) and everything it forks, as the model has
 * them. Its I/O wait is the model's, split by the archive type of the file
 * each wait was charged to (jar, apk, oat = .oat/.odex/.vdex/.art, so,
 * other; waits on metadata or no file are "unattributed"); the wall time
 * in which some process of the tree waited, and the part of it with every
 * CPU idle, come from host->waiting: the same waits, merged in time. The
 * plugin decides no wait itself, so its numbers are the report's for the
 * same processes. system_server, the package manager's process, gets its
 * own line: its numbers are its process row's.
 *
 * Package scan: per archive (android.archives patterns), bytes read from
 * storage against the bytes some access used before the end of the
 * recording — an mmap'd APK faulted in whole to read one manifest.
 *
 * Boot marks: the instants an Android boot is told by, each from the event
 * that shows it (a static bootprof cannot read Android's properties, so
 * none comes from one):
 *   zygote start     the first sched_process_exec of a file matching
 *                    android.process (init execs /system/bin/app_process64)
 *   system_server    the fork of the process whose comm is system_server
 *                    (sched_process_fork; zygote names it after the fork)
 *   bootanim exit    sched_process_exit of the process named bootanimation
 *   boot completed   the line "bootprof: sys.boot_completed=1" in the
 *                    trace buffer (ftrace:print), written by
 *                    examples/boot/android-init.rc or android-record.sh
 *
 * The boot's end (host->mark, BOOTPROF_MARK_END, where `bootprof critical`
 * walks back from by default): boot completed, else bootanim exit.
 *
 * The text sections appear only on Android: when a zygote matched, or a
 * system_server ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bootprof/plugin.h>

#define DEFAULT_PROCESS "zygote*,app_process*"
#define DEFAULT_ARCHIVES "*.apk,*.jar,*.zip"
#define DEFAULT_TOP 20
#define SYSTEM_SERVER "system_server"
#define BOOTANIM "bootanimation"
#define BOOT_COMPLETED "bootprof: sys.boot_completed=1"

enum kind { K_JAR, K_APK, K_OAT, K_SO, K_OTHER, K_UNATTRIBUTED, NKINDS };
static const char *const kind_name[NKINDS] = { "jar", "apk", "oat", "so", "other",
					       "unattributed" };

/* An instant of the boot; ns 0: not seen. */
struct mark {
	uint64_t ns;
	int pid;
};

enum mark_kind { M_ZYGOTE, M_SYSTEM_SERVER, M_BOOTANIM, M_COMPLETED, NMARKS };
static const char *const mark_name[NMARKS] = { "zygote start", "system_server", "bootanim exit",
					       "boot completed" };
static const char *const mark_event[NMARKS] = { "sched:sched_process_exec",
						"sched:sched_process_fork",
						"sched:sched_process_exit", "ftrace:print" };

struct android {
	const char *process;
	const char *archives;
	size_t top;
	int exec_id, print_id;
	const struct bootprof_field *f_filename, *f_buf;
	struct mark marks[NMARKS];
};

static int android_init(struct bootprof_ctx *ctx)
{
	const struct bootprof_host *h = ctx->host;
	struct android *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	ctx->priv = st;
	st->process = h->option(ctx, "process");
	if (!st->process)
		st->process = DEFAULT_PROCESS;
	st->archives = h->option(ctx, "archives");
	if (!st->archives)
		st->archives = DEFAULT_ARCHIVES;
	st->top = (size_t)h->option_u64(ctx, "top", DEFAULT_TOP);
	st->exec_id = h->event_id(ctx, "sched", "sched_process_exec");
	st->f_filename = h->field(ctx, st->exec_id, "filename");
	st->print_id = h->event_id(ctx, "ftrace", "print");
	st->f_buf = h->field(ctx, st->print_id, "buf");
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

/*
 * The model's processes of the tree: a matching process and its
 * descendants; *nroots counts the matching ones. NULL: out of memory.
 */
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
			in[i] = 1;
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

/* The processes named system_server (one, unless it restarted). NULL: out of memory. */
static unsigned char *system_server_of(const struct bootprof_host *h,
				       const struct bootprof_model *m, int *pid)
{
	size_t n = h->count(m, BOOTPROF_PROCESSES), i;
	unsigned char *in = calloc(n ? n : 1, 1);
	struct bootprof_process p;

	if (!in)
		return NULL;
	*pid = 0;
	for (i = 0; i < n; i++) {
		if (h->process(m, i, &p) || strcmp(p.comm, SYSTEM_SERVER))
			continue;
		in[i] = 1;
		if (!*pid)
			*pid = p.pid;
	}
	return in;
}

/* A set of processes, with the numbers of their rows in the report. */
struct group {
	unsigned char *in;      /* by process index */
	size_t nproc;
	uint64_t wait_ns, run_ns, bytes_read;
	struct bootprof_waiting waiting;
	int waiting_known;
};

static void group_sum(const struct bootprof_host *h, const struct bootprof_model *m,
		      struct group *g)
{
	size_t n = h->count(m, BOOTPROF_PROCESSES), i;
	struct bootprof_process p;

	for (i = 0; i < n; i++) {
		if (!g->in[i] || h->process(m, i, &p))
			continue;
		g->nproc++;
		g->wait_ns += p.wait_ns;
		g->run_ns += p.run_ns;
		g->bytes_read += p.bytes_read;
	}
	g->waiting_known = !h->waiting(m, g->in, &g->waiting);
}

/* Its JSON members, and its text lines after @head (which names it). */
static void group_out(struct bootprof_ctx *ctx, const struct group *g, const char *head)
{
	const struct bootprof_host *h = ctx->host;
	char t[3][32];

	h->value_u64(ctx, "processes", g->nproc);
	h->value_u64(ctx, "wait_ns", g->wait_ns);
	h->value_u64(ctx, "run_ns", g->run_ns);
	h->value_u64(ctx, "bytes_read", g->bytes_read);
	if (g->waiting_known) {
		h->value_u64(ctx, "waiting_wall_ns", g->waiting.wall_ns);
		h->value_u64(ctx, "cpu_idle_while_waiting_ns", g->waiting.idle_ns);
	} else {
		h->value_str(ctx, "waiting_wall_ns", NULL);
		h->value_str(ctx, "cpu_idle_while_waiting_ns", NULL);
	}
	if (!head)
		return;
	h->line(ctx, "%s: I/O wait %s, CPU %s, read %s", head, h->fmt_ns(t[0], g->wait_ns),
		h->fmt_ns(t[1], g->run_ns), h->fmt_bytes(t[2], g->bytes_read));
	if (g->waiting_known)
		h->line(ctx, "  waiting (wall) %s, all CPUs idle meanwhile %s",
			h->fmt_ns(t[0], g->waiting.wall_ns), h->fmt_ns(t[1], g->waiting.idle_ns));
}

/* The zygote tree's I/O wait and bytes by archive type. */
struct split {
	uint64_t wait[NKINDS];
	uint64_t bytes[NKINDS];
};

static void split_of(const struct bootprof_host *h, const struct bootprof_model *m,
		     const struct group *zy, struct split *sp)
{
	size_t n = h->count(m, BOOTPROF_PROCESSES), i;
	struct bootprof_access a;
	struct bootprof_file f;
	uint64_t charged = 0;

	memset(sp, 0, sizeof(*sp));
	for (i = 0; i < h->count(m, BOOTPROF_ACCESSES); i++) {
		enum kind k;

		if (h->access(m, i, &a) || a.process >= n || !zy->in[a.process] ||
		    h->file(m, a.file, &f))
			continue;
		k = f.metadata ? K_UNATTRIBUTED : kind_of(f.path);
		sp->wait[k] += a.wait_ns;
		sp->bytes[k] += a.bytes_read;
		charged += k == K_UNATTRIBUTED ? 0 : a.wait_ns;
	}
	sp->wait[K_UNATTRIBUTED] = zy->wait_ns > charged ? zy->wait_ns - charged : 0;
}

/* An object keyed by archive type in JSON (schema 1). */
static void split_json(struct bootprof_ctx *ctx, const struct split *sp)
{
	const struct bootprof_host *h = ctx->host;
	size_t i;

	h->object_begin(ctx, "by_archive");
	for (i = 0; i < NKINDS; i++) {
		h->object_begin(ctx, kind_name[i]);
		h->value_u64(ctx, "wait_ns", sp->wait[i]);
		h->value_u64(ctx, "bytes_read", sp->bytes[i]);
		h->object_end(ctx);
	}
	h->object_end(ctx);
}

static const struct bootprof_column kind_cols[] = {
	{ "ARCHIVE", NULL, BOOTPROF_TEXT },
	{ "WAIT", NULL, BOOTPROF_NS },
	{ "SHARE", NULL, BOOTPROF_TEXT },
	{ "READ", NULL, BOOTPROF_BYTES },
};

/* The same as a table, in text only. */
static void split_table(struct bootprof_ctx *ctx, const struct split *sp, uint64_t wait_ns)
{
	const struct bootprof_table_spec kinds = { NULL, kind_cols, 4, 0 };
	const struct bootprof_host *h = ctx->host;
	char share[32];
	size_t i;

	h->table(ctx, &kinds);
	for (i = 0; i < NKINDS; i++) {
		union bootprof_value v[4];

		if (wait_ns)
			snprintf(share, sizeof(share), "%.1f%%",
				 100.0 * (double)sp->wait[i] / (double)wait_ns);
		else
			snprintf(share, sizeof(share), "-");
		v[0].s = kind_name[i];
		v[1].u = sp->wait[i];
		v[2].s = share;
		v[3].u = sp->bytes[i];
		h->row(ctx, v);
	}
	h->table_end(ctx);
}

/*
 * The zygote tree and system_server. Return 1 when this is Android (a
 * zygote matched or a system_server ran), 0 when not, -1 out of memory.
 */
static int zygote(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	const struct bootprof_host *h = ctx->host;
	struct android *st = ctx->priv;
	struct group zy = { 0 }, ss = { 0 };
	struct split sp;
	size_t nroots = 0;
	char head[512];
	int android, pid, rc = -1;

	zy.in = tree_of(h, st->process, m, &nroots);
	ss.in = system_server_of(h, m, &pid);
	if (!zy.in || !ss.in)
		goto out;
	group_sum(h, m, &zy);
	group_sum(h, m, &ss);
	android = nroots || ss.nproc;
	if (android)
		h->section(ctx, "android: zygote preload");

	snprintf(head, sizeof(head), "Zygote ('%s', %zu processes)", st->process, zy.nproc);
	h->object_begin(ctx, "zygote");
	h->value_str(ctx, "process", st->process);
	h->value_u64(ctx, "matched", nroots);
	group_out(ctx, &zy, nroots ? head : NULL);
	split_of(h, m, &zy, &sp);
	split_json(ctx, &sp);
	h->object_end(ctx);

	if (ss.nproc == 1)
		snprintf(head, sizeof(head), SYSTEM_SERVER " (pid %d)", pid);
	else
		snprintf(head, sizeof(head), SYSTEM_SERVER " (%zu processes)", ss.nproc);
	h->object_begin(ctx, SYSTEM_SERVER);
	group_out(ctx, &ss, ss.nproc ? head : NULL);
	h->object_end(ctx);
	/* Lines first: a line after the table would start another section. */
	if (nroots)
		split_table(ctx, &sp, zy.wait_ns);
	rc = android;
out:
	free(zy.in);
	free(ss.in);
	return rc;
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
 * text only on Android (a zygote or a system_server): a desktop boot reads
 * .jar, .zip and even .apk files, and is not scanning packages.
 * Return 0, or -1 out of memory.
 */
static int package_scan(struct bootprof_ctx *ctx, const struct bootprof_model *m, int android)
{
	const struct bootprof_host *h = ctx->host;
	struct android *st = ctx->priv;
	size_t n = h->count(m, BOOTPROF_FILES), i, na = 0;
	struct archive *ar = calloc(n ? n : 1, sizeof(*ar));
	uint64_t read = 0, used = 0, never = 0;
	struct bootprof_totals tot;
	char t[4][32];

	if (!ar)
		return -1;
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
	return 0;
}

/* The marks that events show: zygote's exec, the boot-completed line. */
static void android_event(struct bootprof_ctx *ctx, const struct bootprof_event *ev)
{
	const struct bootprof_host *h = ctx->host;
	struct android *st = ctx->priv;
	struct mark *mk = NULL;
	char buf[256];

	if (!ev->in_window || ev->id < 0)
		return;
	if (ev->id == st->exec_id && st->f_filename && !st->marks[M_ZYGOTE].ns) {
		h->field_str(ev, st->f_filename, buf, sizeof(buf));
		if (matches(h, st->process, buf))
			mk = &st->marks[M_ZYGOTE];
	} else if (ev->id == st->print_id && st->f_buf && !st->marks[M_COMPLETED].ns) {
		h->field_str(ev, st->f_buf, buf, sizeof(buf));
		if (!strncmp(buf, BOOT_COMPLETED, strlen(BOOT_COMPLETED)))
			mk = &st->marks[M_COMPLETED];
	}
	if (mk) {
		mk->ns = ev->ts;
		mk->pid = ev->pid;
	}
}

static const struct bootprof_column mark_cols[] = {
	{ "MARK", "mark", BOOTPROF_TEXT },
	{ "AT", "ns", BOOTPROF_TIME },
	{ "PID", "pid", BOOTPROF_U64 },
	{ "FROM", "event", BOOTPROF_TEXT },
};

/* The boot's end for the timelines and the critical path, when one was seen. */
static void end_mark(struct bootprof_ctx *ctx)
{
	struct android *st = ctx->priv;
	enum mark_kind k = st->marks[M_COMPLETED].ns ? M_COMPLETED : M_BOOTANIM;

	if (!st->marks[k].ns)
		return;
	ctx->host->mark(ctx, &(struct bootprof_mark){ .kind = BOOTPROF_MARK_END,
		.ns = st->marks[k].ns, .name = mark_name[k], .pid = st->marks[k].pid });
}

/*
 * The marks the model shows (system_server's fork, bootanimation's exit),
 * then all four: a table of those seen, in the text only when one was.
 */
static void marks(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	const struct bootprof_table_spec spec = { "marks", mark_cols, 4, 0 };
	const struct bootprof_host *h = ctx->host;
	struct android *st = ctx->priv;
	struct bootprof_process p;
	size_t i, n = h->count(m, BOOTPROF_PROCESSES), seen = 0;

	for (i = 0; i < n; i++) {
		if (h->process(m, i, &p))
			continue;
		if (!strcmp(p.comm, SYSTEM_SERVER) && p.start_ns && !st->marks[M_SYSTEM_SERVER].ns)
			st->marks[M_SYSTEM_SERVER] = (struct mark){ p.start_ns, p.pid };
		if (!strcmp(p.comm, BOOTANIM) && p.exit_ns && !st->marks[M_BOOTANIM].ns)
			st->marks[M_BOOTANIM] = (struct mark){ p.exit_ns, p.pid };
	}
	for (i = 0; i < NMARKS; i++)
		seen += st->marks[i].ns != 0;
	if (seen)
		h->section(ctx, "android: boot marks");
	h->table(ctx, &spec);
	for (i = 0; i < NMARKS; i++) {
		union bootprof_value v[4];

		if (!st->marks[i].ns)
			continue;
		v[0].s = mark_name[i];
		v[1].u = st->marks[i].ns;
		v[2].u = (uint64_t)st->marks[i].pid;
		v[3].s = mark_event[i];
		h->row(ctx, v);
	}
	h->table_end(ctx);
	end_mark(ctx);
}

static int android_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	int android = zygote(ctx, m);

	if (android < 0)
		return -1;
	marks(ctx, m);
	return package_scan(ctx, m, android);
}

static void android_release(struct bootprof_ctx *ctx)
{
	free(ctx->priv);
}

static const char *const android_options[] = {
	"process=PATTERNS   the preloading process: comm or exec path, fnmatch, comma-separated "
	"(default " DEFAULT_PROCESS ")",
	"archives=PATTERNS  archives of the package scan (default " DEFAULT_ARCHIVES ")",
	"top=N              archives shown in text (default 20; 0: all; JSON has all)",
	NULL,
};
static const char *const android_events[] = { "sched:sched_process_exec", "ftrace:print", NULL };
static const char *const android_keys[] = { "zygote", SYSTEM_SERVER, "marks", "package_scan", NULL };

BOOTPROF_PLUGIN(android) = {
	.abi = BOOTPROF_PLUGIN_ABI,
	.name = "android",
	.summary = "zygote preload I/O wait by archive type and idle CPU; boot marks; package-scan waste",
	.events = android_events,
	.options = android_options,
	.json_keys = android_keys,
	.init = android_init,
	.event = android_event,
	.model = android_model,
	.release = android_release,
};
