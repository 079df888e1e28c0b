// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof's recording metadata and its text form.
 *
 * The serialized form is one record per line, words separated by one space:
 *
 *   bootprof-meta 1
 *   hostname box
 *   mount 265289728 ext4 / /dev/vda
 *   path 265289728 1234 /usr/lib/libc.so.6
 *   program /sbin/init-script /bin/busybox
 *   cpustat 0 1200 0 0 0 1200
 *   task 4321 4321 0
 *   asleep 4321 0 dd
 *   end
 *
 * Strings are escaped so that a word never holds a space, newline or
 * backslash: "\\" backslash, "\s" space, "\n" newline, "\t" tab, "\xHH" any
 * other control byte, and "\e" alone is the empty string. Numbers are plain
 * unsigned decimal ("asleep": the syscall number, or "none" or "unknown").
 * The first line names the format version; "end" is the last line, so a
 * cut blob is rejected. Lines with a key this version does not know are
 * skipped (a later bootprof may add keys, as "asleep" was), but every
 * known key is checked strictly: the blob comes from a file, which is
 * untrusted.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile/meta.h"
#include "util/error.h"
#include "util/words.h"
#include "util/xalloc.h"

#define META_FORMAT 1
/* Far above any real machine; bounds what a hostile blob can allocate. */
#define META_MAX_CPUS 65536

void bp_meta_init(struct bp_meta *m)
{
	memset(m, 0, sizeof(*m));
	m->ncpus = 0;
	m->page_size = 0;
	m->command_status = -1;
}

static const char *const schedstats_names[] = {
	[BP_SCHEDSTATS_NONE] = "none",
	[BP_SCHEDSTATS_OFF] = "off",
	[BP_SCHEDSTATS_ON] = "on",
};

static const char *const schedstats_by_names[] = {
	[BP_SCHEDSTATS_BY_BOOTPROF] = "bootprof",
	[BP_SCHEDSTATS_BY_CMDLINE] = "cmdline",
	[BP_SCHEDSTATS_BY_SYSTEM] = "system",
};

#define NNAMES(a) (sizeof(a) / sizeof((a)[0]))

const char *bp_schedstats_state_name(enum bp_schedstats_state state)
{
	return (size_t)state < NNAMES(schedstats_names) ? schedstats_names[state] : NULL;
}

const char *bp_schedstats_by_name(enum bp_schedstats_by by)
{
	return (size_t)by < NNAMES(schedstats_by_names) ? schedstats_by_names[by] : NULL;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void bp_meta_release(struct bp_meta *m)
{
	size_t i;

	if (!m)
		return;
	free(m->bootprof_version);
	free(m->hostname);
	free(m->kernel_release);
	free(m->kernel_version);
	free(m->machine);
	free(m->cmdline);
	free(m->clock);
	free(m->stop_reason);
	free(m->command);
	free_strv(m->events, m->nevents);
	free_strv(m->unavailable, m->nunavailable);
	for (i = 0; i < m->nmounts; i++) {
		free(m->mounts[i].fstype);
		free(m->mounts[i].dir);
		free(m->mounts[i].source);
	}
	free(m->mounts);
	for (i = 0; i < m->ndisks; i++)
		free(m->disks[i].name);
	free(m->disks);
	for (i = 0; i < m->npaths; i++)
		free(m->paths[i].path);
	free(m->paths);
	for (i = 0; i < m->nprograms; i++) {
		free(m->programs[i].path);
		free(m->programs[i].program);
	}
	free(m->programs);
	free(m->cpu_stats);
	free(m->tasks);
	bp_meta_init(m);
}

/*
 * The arrays carry no capacity field (meta.h is shared), so they grow to the
 * next power of two whenever the count reaches one: amortized O(1) appends.
 */
static void *grow_for_append(void *arr, size_t elem, size_t n)
{
	if (n && (n & (n - 1)))
		return arr;
	if (n > ((size_t)-1 / 2) / elem)
		return xrealloc(arr, (size_t)-1);
	return xrealloc(arr, (n ? 2 * n : 1) * elem);
}

#define APPEND(arr, n) ((arr) = grow_for_append((arr), sizeof(*(arr)), (n)), &(arr)[(n)++])

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

void bp_meta_add_event(struct bp_meta *m, const char *name, int available)
{
	if (available)
		*APPEND(m->events, m->nevents) = xstrdup(name);
	else
		*APPEND(m->unavailable, m->nunavailable) = xstrdup(name);
}

void bp_meta_add_mount(struct bp_meta *m, uint32_t dev, const char *fstype, const char *dir,
		       const char *source)
{
	struct bp_mount *mnt = APPEND(m->mounts, m->nmounts);

	mnt->dev = dev;
	mnt->fstype = dup_or_empty(fstype);
	mnt->dir = dup_or_empty(dir);
	mnt->source = dup_or_empty(source);
}

void bp_meta_add_disk(struct bp_meta *m, uint32_t dev, const char *name, int rotational,
		      uint64_t size)
{
	struct bp_disk *d = APPEND(m->disks, m->ndisks);

	d->dev = dev;
	d->name = dup_or_empty(name);
	d->rotational = rotational < 0 ? -1 : !!rotational;
	d->size = size;
}

void bp_meta_add_path(struct bp_meta *m, uint32_t dev, uint64_t ino, const char *path)
{
	struct bp_path *p = APPEND(m->paths, m->npaths);

	p->dev = dev;
	p->ino = ino;
	p->path = dup_or_empty(path);
}

void bp_meta_add_program(struct bp_meta *m, const char *path, const char *program)
{
	struct bp_program *p = APPEND(m->programs, m->nprograms);

	p->path = dup_or_empty(path);
	p->program = dup_or_empty(program);
}

const char *bp_meta_find_program(const struct bp_meta *m, const char *path)
{
	size_t i;

	/* A few entries: the distinct programs exec'd that are scripts or links. */
	for (i = 0; i < m->nprograms; i++) {
		if (!strcmp(m->programs[i].path, path))
			return m->programs[i].program;
	}
	return NULL;
}

void bp_meta_add_task(struct bp_meta *m, int tid, int tgid, unsigned flags)
{
	struct bp_task_id *t = APPEND(m->tasks, m->ntasks);

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid;
	t->flags = flags;
	t->syscall = BP_SYSCALL_UNKNOWN;
}

int bp_meta_task_asleep(struct bp_meta *m, int tid, int syscall, const char *comm)
{
	size_t i;

	for (i = m->ntasks; i-- > 0;) {
		struct bp_task_id *t = &m->tasks[i];

		if (t->tid != tid)
			continue;
		t->asleep = 1;
		t->syscall = syscall;
		snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
		return 0;
	}
	return -1;
}

static int cmp_key(uint32_t adev, uint64_t aino, uint32_t bdev, uint64_t bino)
{
	if (adev != bdev)
		return adev < bdev ? -1 : 1;
	if (aino != bino)
		return aino < bino ? -1 : 1;
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	const struct bp_path *pa = a, *pb = b;

	return cmp_key(pa->dev, pa->ino, pb->dev, pb->ino);
}

void bp_meta_sort_paths(struct bp_meta *m)
{
	if (m->npaths > 1)
		qsort(m->paths, m->npaths, sizeof(*m->paths), cmp_path);
}

const char *bp_meta_find_path(const struct bp_meta *m, uint32_t dev, uint64_t ino)
{
	size_t lo = 0, hi = m->npaths;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(m->paths[mid].dev, m->paths[mid].ino, dev, ino);

		if (!c)
			return m->paths[mid].path;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct bp_disk *bp_meta_find_disk(const struct bp_meta *m, uint32_t dev)
{
	size_t i;

	for (i = 0; i < m->ndisks; i++) {
		if (m->disks[i].dev == dev)
			return &m->disks[i];
	}
	return NULL;
}

uint64_t bp_meta_lost_events(const struct bp_meta *m)
{
	uint64_t lost = 0;
	int i;

	if (!m->cpu_stats)
		return 0;
	for (i = 0; i < m->ncpus; i++)
		lost += m->cpu_stats[i].overrun + m->cpu_stats[i].dropped;
	return lost;
}

/* ---- serialization ---- */

struct sbuf {
	char *buf;
	size_t len, cap;
};

static void sb_reserve(struct sbuf *sb, size_t more)
{
	if (sb->len + more + 1 > sb->cap) {
		size_t want = sb->cap ? sb->cap : 4096;

		while (want < sb->len + more + 1)
			want *= 2;
		sb->buf = xrealloc(sb->buf, want);
		sb->cap = want;
	}
}

static void sb_putc(struct sbuf *sb, char c)
{
	sb_reserve(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = 0;
}

static void sb_puts(struct sbuf *sb, const char *s)
{
	size_t n = strlen(s);

	sb_reserve(sb, n);
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

static void sb_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(tmp))
		n = sizeof(tmp) - 1;
	sb_reserve(sb, n);
	memcpy(sb->buf + sb->len, tmp, n + 1);
	sb->len += n;
}

/* One escaped word (see the top of this file). */
static void sb_word(struct sbuf *sb, const char *s)
{
	size_t n = BP_WORD_MAX(strlen(s ? s : ""));

	sb_putc(sb, ' ');
	sb_reserve(sb, n);
	sb->len += bp_word_escape(sb->buf + sb->len, n, s);
}

static void sb_str_line(struct sbuf *sb, const char *key, const char *value)
{
	if (!value)
		return;
	sb_puts(sb, key);
	sb_word(sb, value);
	sb_putc(sb, '\n');
}

char *bp_meta_serialize(const struct bp_meta *m, size_t *len)
{
	struct sbuf sb = { 0 };
	size_t i;

	sb_printf(&sb, "bootprof-meta %d\n", META_FORMAT);
	sb_str_line(&sb, "version", m->bootprof_version);
	sb_str_line(&sb, "hostname", m->hostname);
	sb_str_line(&sb, "release", m->kernel_release);
	sb_str_line(&sb, "kversion", m->kernel_version);
	sb_str_line(&sb, "machine", m->machine);
	sb_str_line(&sb, "cmdline", m->cmdline);
	sb_str_line(&sb, "clock", m->clock);
	sb_str_line(&sb, "stop", m->stop_reason);
	sb_str_line(&sb, "command", m->command);
	if (m->ncpus > 0)
		sb_printf(&sb, "ncpus %d\n", m->ncpus);
	if (m->page_size > 0)
		sb_printf(&sb, "page_size %d\n", m->page_size);
	sb_printf(&sb, "start_ns %llu\n", (unsigned long long)m->start_ns);
	sb_printf(&sb, "stop_ns %llu\n", (unsigned long long)m->stop_ns);
	if (m->fault_around_bytes)
		sb_printf(&sb, "fault_around_bytes %llu\n", (unsigned long long)m->fault_around_bytes);
	if (bp_schedstats_state_name(m->schedstats)) {
		sb_printf(&sb, "schedstats %s", bp_schedstats_state_name(m->schedstats));
		if (m->schedstats == BP_SCHEDSTATS_ON && bp_schedstats_by_name(m->schedstats_by))
			sb_printf(&sb, " %s", bp_schedstats_by_name(m->schedstats_by));
		sb_putc(&sb, '\n');
	}
	for (i = 0; i < m->nevents; i++)
		sb_str_line(&sb, "event", m->events[i]);
	for (i = 0; i < m->nunavailable; i++)
		sb_str_line(&sb, "unavailable", m->unavailable[i]);
	for (i = 0; i < m->nmounts; i++) {
		sb_printf(&sb, "mount %u", m->mounts[i].dev);
		sb_word(&sb, m->mounts[i].fstype);
		sb_word(&sb, m->mounts[i].dir);
		sb_word(&sb, m->mounts[i].source);
		sb_putc(&sb, '\n');
	}
	for (i = 0; i < m->ndisks; i++) {
		sb_printf(&sb, "disk %u", m->disks[i].dev);
		sb_word(&sb, m->disks[i].name);
		sb_printf(&sb, " %s %llu\n",
			  m->disks[i].rotational < 0 ? "unknown" : m->disks[i].rotational ? "1" : "0",
			  (unsigned long long)m->disks[i].size);
	}
	for (i = 0; i < m->npaths; i++) {
		sb_printf(&sb, "path %u %llu", m->paths[i].dev, (unsigned long long)m->paths[i].ino);
		sb_word(&sb, m->paths[i].path);
		sb_putc(&sb, '\n');
	}
	sb_printf(&sb, "unresolved %llu\n", (unsigned long long)m->unresolved);
	for (i = 0; i < m->nprograms; i++) {
		sb_printf(&sb, "program");
		sb_word(&sb, m->programs[i].path);
		sb_word(&sb, m->programs[i].program);
		sb_putc(&sb, '\n');
	}
	if (m->cpu_stats) {
		for (i = 0; i < (size_t)m->ncpus; i++) {
			const struct bp_cpu_stat *c = &m->cpu_stats[i];

			sb_printf(&sb, "cpustat %zu %llu %llu %llu %llu %llu\n", i,
				  (unsigned long long)c->entries, (unsigned long long)c->overrun,
				  (unsigned long long)c->commit_overrun,
				  (unsigned long long)c->dropped, (unsigned long long)c->read);
		}
	}
	for (i = 0; i < m->ntasks; i++) {
		const struct bp_task_id *t = &m->tasks[i];

		sb_printf(&sb, "task %d %d %u\n", t->tid, t->tgid, t->flags);
		/* A line of its own: readers older than it skip the key. */
		if (!t->asleep)
			continue;
		if (t->syscall >= 0)
			sb_printf(&sb, "asleep %d %d", t->tid, t->syscall);
		else
			sb_printf(&sb, "asleep %d %s", t->tid,
				  t->syscall == BP_SYSCALL_NONE ? "none" : "unknown");
		sb_word(&sb, t->comm);
		sb_putc(&sb, '\n');
	}
	if (m->command_pid > 0) {
		sb_printf(&sb, "command_pid %d\n", m->command_pid);
		sb_printf(&sb, "command_status %d\n", m->command_status);
		sb_printf(&sb, "command_start_ns %llu\n", (unsigned long long)m->command_start_ns);
		sb_printf(&sb, "command_end_ns %llu\n", (unsigned long long)m->command_end_ns);
	}
	if (m->recorder_cpu_ns || m->system_cpu_ns) {
		sb_printf(&sb, "recorder_cpu_ns %llu\n", (unsigned long long)m->recorder_cpu_ns);
		sb_printf(&sb, "system_cpu_ns %llu\n", (unsigned long long)m->system_cpu_ns);
	}
	sb_puts(&sb, "end\n");
	*len = sb.len;
	return sb.buf;
}

/* ---- parsing ---- */

#define MAX_WORDS 8

struct line {
	char *word[MAX_WORDS]; /* raw (still escaped) words, NUL-terminated in a copy */
	int nwords;
	size_t lineno;
};

static int parse_fail(const struct line *l, const char *why)
{
	bp_set_error("malformed bootprof metadata, line %zu: %s", l->lineno, why);
	return -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	uint64_t n = 0;

	if (!*s)
		return -1;
	if (s[0] == '0' && s[1])
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (n > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	*v = n;
	return 0;
}

static int parse_u32(const char *s, uint32_t *v)
{
	uint64_t n;

	if (parse_u64(s, &n) || n > UINT32_MAX)
		return -1;
	*v = (uint32_t)n;
	return 0;
}

/* Split a line (a NUL-terminated copy) into words at single spaces. */
static int split_line(struct line *l, char *s)
{
	l->nwords = 0;
	for (;;) {
		char *sp = strchr(s, ' ');

		if (l->nwords == MAX_WORDS)
			return parse_fail(l, "too many words");
		if (!*s)
			return parse_fail(l, "empty word");
		l->word[l->nwords++] = s;
		if (!sp)
			return 0;
		*sp = 0;
		s = sp + 1;
	}
}

static int want_words(const struct line *l, int n)
{
	if (l->nwords != n)
		return parse_fail(l, "wrong number of words");
	return 0;
}

static int take_string(const struct line *l, char **dst)
{
	if (want_words(l, 2))
		return -1;
	if (*dst)
		return parse_fail(l, "duplicate key");
	if (bp_word_unescape(l->word[1]))
		return parse_fail(l, "bad escape");
	*dst = xstrdup(l->word[1]);
	return 0;
}

static int take_int(const struct line *l, int *dst, int max)
{
	uint64_t v;

	if (want_words(l, 2))
		return -1;
	if (*dst)
		return parse_fail(l, "duplicate key");
	if (parse_u64(l->word[1], &v) || v == 0 || v > (uint64_t)max)
		return parse_fail(l, "bad number");
	*dst = (int)v;
	return 0;
}

/* A non-negative int below 2^30 (tids, wait statuses, flags). */
static int parse_small_int(const char *word, int *dst)
{
	uint64_t v;

	if (parse_u64(word, &v) || v >= (1u << 30))
		return -1;
	*dst = (int)v;
	return 0;
}

static int take_u64(const struct line *l, uint64_t *dst)
{
	if (want_words(l, 2))
		return -1;
	if (parse_u64(l->word[1], dst))
		return parse_fail(l, "bad number");
	return 0;
}

static int unescape_words(const struct line *l, int from)
{
	int i;

	for (i = from; i < l->nwords; i++) {
		if (bp_word_unescape(l->word[i]))
			return parse_fail(l, "bad escape");
	}
	return 0;
}

static int parse_cpustat(struct bp_meta *m, const struct line *l)
{
	uint64_t v[6];
	int i;

	if (want_words(l, 7))
		return -1;
	for (i = 0; i < 6; i++) {
		if (parse_u64(l->word[i + 1], &v[i]))
			return parse_fail(l, "bad number");
	}
	if (m->ncpus <= 0)
		return parse_fail(l, "cpustat before ncpus");
	if (v[0] >= (uint64_t)m->ncpus)
		return parse_fail(l, "cpu out of range");
	if (!m->cpu_stats)
		m->cpu_stats = xcalloc(m->ncpus, sizeof(*m->cpu_stats));
	m->cpu_stats[v[0]].entries = v[1];
	m->cpu_stats[v[0]].overrun = v[2];
	m->cpu_stats[v[0]].commit_overrun = v[3];
	m->cpu_stats[v[0]].dropped = v[4];
	m->cpu_stats[v[0]].read = v[5];
	return 0;
}

/* A word naming a value, for values a later format may add. */
static int is_name(const char *w)
{
	for (; *w; w++) {
		if (!((*w >= 'a' && *w <= 'z') || *w == '_' || *w == '-'))
			return 0;
	}
	return 1;
}

/*
 * "schedstats STATE [BY]". A state or a by this format does not know (a
 * later one's) is read as unknown rather than refused.
 */
static int parse_schedstats(struct bp_meta *m, const struct line *l)
{
	size_t i;

	if (l->nwords != 2 && l->nwords != 3)
		return parse_fail(l, "wrong number of words");
	if (!is_name(l->word[1]) || (l->nwords == 3 && !is_name(l->word[2])))
		return parse_fail(l, "bad value");
	for (i = 0; i < NNAMES(schedstats_names); i++) {
		if (schedstats_names[i] && !strcmp(l->word[1], schedstats_names[i]))
			m->schedstats = (enum bp_schedstats_state)i;
	}
	for (i = 0; l->nwords == 3 && i < NNAMES(schedstats_by_names); i++) {
		if (schedstats_by_names[i] && !strcmp(l->word[2], schedstats_by_names[i]))
			m->schedstats_by = (enum bp_schedstats_by)i;
	}
	if (m->schedstats != BP_SCHEDSTATS_ON)
		m->schedstats_by = BP_SCHEDSTATS_BY_UNKNOWN;
	return 0;
}

/*
 * *seen_once: bits of the keys seen so far whose value cannot tell that
 * they were (start_ns 1, stop_ns 2, unresolved 4, schedstats 8), so a
 * duplicate is still refused.
 */
static int parse_record(struct bp_meta *m, struct line *l, int *seen_once)
{
	const char *key = l->word[0];
	uint32_t dev;
	uint64_t v;

	if (!strcmp(key, "version"))
		return take_string(l, &m->bootprof_version);
	if (!strcmp(key, "hostname"))
		return take_string(l, &m->hostname);
	if (!strcmp(key, "release"))
		return take_string(l, &m->kernel_release);
	if (!strcmp(key, "kversion"))
		return take_string(l, &m->kernel_version);
	if (!strcmp(key, "machine"))
		return take_string(l, &m->machine);
	if (!strcmp(key, "cmdline"))
		return take_string(l, &m->cmdline);
	if (!strcmp(key, "clock"))
		return take_string(l, &m->clock);
	if (!strcmp(key, "stop"))
		return take_string(l, &m->stop_reason);
	if (!strcmp(key, "command"))
		return take_string(l, &m->command);
	if (!strcmp(key, "ncpus"))
		return take_int(l, &m->ncpus, META_MAX_CPUS);
	if (!strcmp(key, "page_size"))
		return take_int(l, &m->page_size, 1 << 24);
	if (!strcmp(key, "start_ns") || !strcmp(key, "stop_ns") || !strcmp(key, "unresolved")) {
		int bit = key[2] == 'a' ? 1 : key[2] == 'o' ? 2 : 4;

		if (*seen_once & bit)
			return parse_fail(l, "duplicate key");
		*seen_once |= bit;
		if (take_u64(l, &v))
			return -1;
		if (bit == 1)
			m->start_ns = v;
		else if (bit == 2)
			m->stop_ns = v;
		else
			m->unresolved = v;
		return 0;
	}
	if (!strcmp(key, "event") || !strcmp(key, "unavailable")) {
		if (want_words(l, 2) || unescape_words(l, 1))
			return -1;
		bp_meta_add_event(m, l->word[1], key[0] == 'e');
		return 0;
	}
	if (!strcmp(key, "mount")) {
		if (want_words(l, 5))
			return -1;
		if (parse_u32(l->word[1], &dev))
			return parse_fail(l, "bad device");
		if (unescape_words(l, 2))
			return -1;
		bp_meta_add_mount(m, dev, l->word[2], l->word[3], l->word[4]);
		return 0;
	}
	if (!strcmp(key, "disk")) {
		int rot;

		if (want_words(l, 5))
			return -1;
		if (parse_u32(l->word[1], &dev))
			return parse_fail(l, "bad device");
		if (!strcmp(l->word[3], "unknown"))
			rot = -1;
		else if (!strcmp(l->word[3], "0") || !strcmp(l->word[3], "1"))
			rot = l->word[3][0] - '0';
		else
			return parse_fail(l, "bad rotational flag");
		if (parse_u64(l->word[4], &v))
			return parse_fail(l, "bad size");
		if (bp_word_unescape(l->word[2]))
			return parse_fail(l, "bad escape");
		bp_meta_add_disk(m, dev, l->word[2], rot, v);
		return 0;
	}
	if (!strcmp(key, "path")) {
		if (want_words(l, 4))
			return -1;
		if (parse_u32(l->word[1], &dev) || parse_u64(l->word[2], &v))
			return parse_fail(l, "bad device or inode");
		if (bp_word_unescape(l->word[3]))
			return parse_fail(l, "bad escape");
		bp_meta_add_path(m, dev, v, l->word[3]);
		return 0;
	}
	if (!strcmp(key, "program")) {
		if (want_words(l, 3) || unescape_words(l, 1))
			return -1;
		bp_meta_add_program(m, l->word[1], l->word[2]);
		return 0;
	}
	if (!strcmp(key, "cpustat"))
		return parse_cpustat(m, l);
	if (!strcmp(key, "task")) {
		int tid, tgid, flags;

		if (want_words(l, 4))
			return -1;
		if (parse_small_int(l->word[1], &tid) || parse_small_int(l->word[2], &tgid) ||
		    parse_small_int(l->word[3], &flags) || tid <= 0 || tgid <= 0)
			return parse_fail(l, "bad task");
		bp_meta_add_task(m, tid, tgid, (unsigned)flags);
		return 0;
	}
	if (!strcmp(key, "asleep")) {
		int tid, nr;

		if (want_words(l, 4))
			return -1;
		if (!strcmp(l->word[2], "none"))
			nr = BP_SYSCALL_NONE;
		else if (!strcmp(l->word[2], "unknown"))
			nr = BP_SYSCALL_UNKNOWN;
		else if (parse_small_int(l->word[2], &nr))
			return parse_fail(l, "bad syscall");
		if (parse_small_int(l->word[1], &tid) || tid <= 0)
			return parse_fail(l, "bad task");
		if (bp_word_unescape(l->word[3]) || strlen(l->word[3]) >= sizeof(m->tasks->comm))
			return parse_fail(l, "bad task name");
		if (bp_meta_task_asleep(m, tid, nr, l->word[3]))
			return parse_fail(l, "asleep before its task");
		return 0;
	}
	if (!strcmp(key, "command_pid"))
		return take_int(l, &m->command_pid, 1 << 30);
	if (!strcmp(key, "command_status")) {
		int status;

		if (want_words(l, 2))
			return -1;
		if (!strcmp(l->word[1], "-1"))
			status = -1;
		else if (parse_small_int(l->word[1], &status))
			return parse_fail(l, "bad number");
		m->command_status = status;
		return 0;
	}
	if (!strcmp(key, "fault_around_bytes"))
		return take_u64(l, &m->fault_around_bytes);
	if (!strcmp(key, "schedstats")) {
		if (*seen_once & 8)
			return parse_fail(l, "duplicate key");
		*seen_once |= 8;
		return parse_schedstats(m, l);
	}
	if (!strcmp(key, "command_start_ns"))
		return take_u64(l, &m->command_start_ns);
	if (!strcmp(key, "command_end_ns"))
		return take_u64(l, &m->command_end_ns);
	if (!strcmp(key, "recorder_cpu_ns"))
		return take_u64(l, &m->recorder_cpu_ns);
	if (!strcmp(key, "system_cpu_ns"))
		return take_u64(l, &m->system_cpu_ns);
	/* A key from a later format: skip it, but only if it looks like a key. */
	if (!is_name(key))
		return parse_fail(l, "bad key");
	return 0;
}

int bp_meta_parse(struct bp_meta *m, const char *buf, size_t len)
{
	struct line l = { .lineno = 0 };
	size_t pos = 0;
	char *copy = NULL;
	int seen_end = 0, seen_once = 0;
	int ret = -1;

	bp_meta_init(m);
	if (memchr(buf, 0, len)) {
		bp_set_error("malformed bootprof metadata: NUL byte");
		return -1;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n;

		l.lineno++;
		if (!nl) {
			parse_fail(&l, "missing newline");
			goto out;
		}
		if (seen_end) {
			parse_fail(&l, "data after end");
			goto out;
		}
		n = (size_t)(nl - (buf + pos));
		free(copy);
		copy = xstrndup(buf + pos, n);
		pos += n + 1;
		if (split_line(&l, copy))
			goto out;
		if (l.lineno == 1) {
			uint64_t v;

			if (strcmp(l.word[0], "bootprof-meta") || l.nwords != 2 ||
			    parse_u64(l.word[1], &v)) {
				parse_fail(&l, "not bootprof metadata");
				goto out;
			}
			if (v != META_FORMAT) {
				bp_set_error("unsupported bootprof metadata format %llu",
					     (unsigned long long)v);
				goto out;
			}
			continue;
		}
		if (!strcmp(l.word[0], "end")) {
			if (want_words(&l, 1))
				goto out;
			seen_end = 1;
			continue;
		}
		if (parse_record(m, &l, &seen_once))
			goto out;
	}
	if (!seen_end) {
		bp_set_error("malformed bootprof metadata: %s",
			     l.lineno ? "cut short (no end line)" : "empty");
		goto out;
	}
	ret = 0;
out:
	free(copy);
	if (ret)
		bp_meta_release(m);
	return ret;
}
