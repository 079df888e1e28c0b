// SPDX-License-Identifier: GPL-2.0
/*
 * Record-time facts about the machine: uname, mounts, block devices and
 * the inode -> path table. filemap events only name (s_dev, i_ino); the
 * paths have to be found while the files still exist, on this machine.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <event-parse.h>

#include "resolve/resolve.h"
#include "util/error.h"
#include "util/map.h"
#include "util/xalloc.h"

/* ---- small files ---- */

/* The whole of a small text file without its trailing newlines, or NULL. */
static char *read_text(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return xstrdup(buf);
}

static int read_u64(const char *path, uint64_t *v)
{
	char *s = read_text(path);
	char *end;
	int ret = -1;

	if (s) {
		errno = 0;
		*v = strtoull(s, &end, 10);
		ret = (errno || end == s) ? -1 : 0;
	}
	free(s);
	return ret;
}

/* "major:minor" -> kernel encoding; -1 when malformed. */
static int parse_devno(const char *s, uint32_t *dev)
{
	unsigned int major, minor;
	char tail;

	if (sscanf(s, "%u:%u%c", &major, &minor, &tail) != 2 || major > 0xfff ||
	    minor > 0xfffff)
		return -1;
	*dev = BP_DEV(major, minor);
	return 0;
}

/* ---- mounts ---- */

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

int bp_mountinfo_parse_line(char *line, struct bp_mountinfo *mi)
{
	char *field[6], *save = NULL, *tok;
	int i;

	memset(mi, 0, sizeof(*mi));
	for (i = 0; i < 6; i++) {
		field[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!field[i])
			return -1;
	}
	/* Optional fields up to the "-" separator. */
	while ((tok = strtok_r(NULL, " \n", &save)) && strcmp(tok, "-"))
		;
	if (!tok)
		return -1;
	mi->fstype = strtok_r(NULL, " \n", &save);
	mi->source = strtok_r(NULL, " \n", &save);
	if (!mi->fstype || !mi->source || parse_devno(field[2], &mi->dev) < 0)
		return -1;
	mi->root = field[3];
	mi->dir = field[4];
	unescape(mi->root);
	unescape(mi->dir);
	unescape(mi->source);
	return 0;
}

/* Mounts as bp_mountinfo with owned strings. */
struct mount_table {
	struct bp_mountinfo *v;
	size_t n, cap;
};

static void mount_table_release(struct mount_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].root);
		free(t->v[i].dir);
		free(t->v[i].fstype);
		free(t->v[i].source);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static int mount_table_read(struct mount_table *t)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t len = 0;

	memset(t, 0, sizeof(*t));
	if (!f) {
		bp_set_error_errno("cannot open '/proc/self/mountinfo'");
		return -1;
	}
	while (getline(&line, &len, f) > 0) {
		struct bp_mountinfo mi, *o;

		if (bp_mountinfo_parse_line(line, &mi) < 0)
			continue;
		BP_GROW(t->v, t->n, t->cap);
		o = &t->v[t->n++];
		o->dev = mi.dev;
		o->root = xstrdup(mi.root);
		o->dir = xstrdup(mi.dir);
		o->fstype = xstrdup(mi.fstype);
		o->source = xstrdup(mi.source);
	}
	free(line);
	fclose(f);
	return 0;
}

/* ---- block devices ---- */

static int read_rotational(const char *name)
{
	char parent[PATH_MAX], *path;
	uint64_t v;
	int ret;

	path = xasprintf("/sys/class/block/%s/queue/rotational", name);
	ret = read_u64(path, &v);
	free(path);
	if (ret == 0)
		return v ? 1 : 0;
	/* A partition: its disk is the parent directory in sysfs. */
	path = xasprintf("/sys/class/block/%s/..", name);
	ret = realpath(path, parent) ? 0 : -1;
	free(path);
	if (ret < 0)
		return -1;
	path = xasprintf("%s/queue/rotational", parent);
	ret = read_u64(path, &v);
	free(path);
	if (ret == 0)
		return v ? 1 : 0;
	return -1;
}

static void read_disks(struct bp_meta *m)
{
	DIR *dp = opendir("/sys/class/block");
	struct dirent *d;

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char path[PATH_MAX], *devno;
		uint64_t sectors = 0;
		uint32_t dev;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/block/%s/dev", d->d_name);
		devno = read_text(path);
		if (!devno || parse_devno(devno, &dev) < 0) {
			free(devno);
			continue;
		}
		free(devno);
		snprintf(path, sizeof(path), "/sys/class/block/%s/size", d->d_name);
		read_u64(path, &sectors);
		/* sysfs sizes are in 512-byte sectors whatever the device's block size. */
		bp_meta_add_disk(m, dev, d->d_name, read_rotational(d->d_name), sectors * 512);
	}
	closedir(dp);
}

/* ---- tasks ---- */

static int cmp_task(const void *a, const void *b)
{
	const struct bp_task_id *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return 0;
}

/* Sort by (tid, tgid) and merge equal pairs, their flags or'ed, asleep kept. */
static void unique_tasks(struct bp_meta *m)
{
	size_t i, n = 0;

	if (!m->ntasks)
		return;
	qsort(m->tasks, m->ntasks, sizeof(*m->tasks), cmp_task);
	for (i = 1; i < m->ntasks; i++) {
		struct bp_task_id *t = &m->tasks[n], *u = &m->tasks[i];

		if (cmp_task(t, u)) {
			m->tasks[++n] = *u;
			continue;
		}
		t->flags |= u->flags;
		if (u->asleep && !t->asleep) {
			t->asleep = 1;
			t->syscall = u->syscall;
			memcpy(t->comm, u->comm, sizeof(t->comm));
		}
	}
	m->ntasks = n + 1;
}

/* A /proc directory entry that is a pid: its number, else -1. */
static int pid_entry(const char *name)
{
	char *end;
	long v;

	if (*name < '1' || *name > '9')
		return -1;
	errno = 0;
	v = strtol(name, &end, 10);
	if (errno || *end || v > INT_MAX)
		return -1;
	return (int)v;
}

int bp_resolve_tasks(struct bp_meta *m, const char *proc)
{
	struct dirent *d, *t;
	DIR *dp, *tp;
	char path[PATH_MAX];
	int tgid, tid;

	dp = opendir(proc);
	if (!dp) {
		bp_set_error_errno("cannot open '%s'", proc);
		return -1;
	}
	while ((d = readdir(dp))) {
		tgid = pid_entry(d->d_name);
		if (tgid < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%d/task", proc, tgid);
		tp = opendir(path);
		if (!tp)
			continue; /* exited meanwhile */
		while ((t = readdir(tp))) {
			tid = pid_entry(t->d_name);
			if (tid >= 0)
				bp_meta_add_task(m, tid, tgid, 0);
		}
		closedir(tp);
	}
	closedir(dp);
	unique_tasks(m);
	return 0;
}

/*
 * Whether thread tid of tgid is in state D now; then *syscall and comm
 * (16 bytes) are set from /proc/TGID/task/TID/syscall and stat.
 */
static int task_asleep(const char *proc, int tgid, int tid, int *syscall, char *comm)
{
	char path[PATH_MAX], *line, *lp, *rp, *sys;
	int asleep = 0;
	long nr;

	snprintf(path, sizeof(path), "%s/%d/task/%d/stat", proc, tgid, tid);
	line = read_text(path);
	/* "TID (COMM) S ...": the name may hold spaces and parentheses. */
	lp = line ? strchr(line, '(') : NULL;
	rp = line ? strrchr(line, ')') : NULL;
	if (!lp || !rp || rp < lp || rp[1] != ' ' || rp[2] != 'D')
		goto out;
	asleep = 1;
	*rp = 0;
	snprintf(comm, 16, "%s", lp + 1);
	/* "NR ARGS... SP PC", "-1 SP PC" outside a syscall, "running" if it woke. */
	snprintf(path, sizeof(path), "%s/%d/task/%d/syscall", proc, tgid, tid);
	sys = read_text(path);
	*syscall = BP_SYSCALL_UNKNOWN;
	if (sys) {
		char *end;

		errno = 0;
		nr = strtol(sys, &end, 10);
		if (!errno && end != sys && (*end == ' ' || !*end))
			*syscall = nr == -1 ? BP_SYSCALL_NONE :
				   nr >= 0 && nr < (1 << 30) ? (int)nr : BP_SYSCALL_UNKNOWN;
	}
	free(sys);
out:
	free(line);
	return asleep;
}

void bp_resolve_asleep(struct bp_meta *m, const char *proc, int only_marked)
{
	int self = (int)getpid();
	size_t i;

	for (i = 0; i < m->ntasks; i++) {
		struct bp_task_id *t = &m->tasks[i];
		char comm[16];
		int nr;

		if (t->tgid == self || (t->flags & BP_TASK_RECORDER) || (only_marked && !t->asleep))
			continue;
		t->asleep = task_asleep(proc, t->tgid, t->tid, &nr, comm);
		t->syscall = t->asleep ? nr : BP_SYSCALL_UNKNOWN;
		memcpy(t->comm, t->asleep ? comm : "", t->asleep ? sizeof(comm) : 1);
	}
}

int bp_resolve_system(struct bp_meta *m)
{
	struct mount_table t;
	struct utsname u;
	char host[256];
	size_t i;

	if (uname(&u) == 0) {
		free(m->kernel_release);
		free(m->kernel_version);
		free(m->machine);
		m->kernel_release = xstrdup(u.release);
		m->kernel_version = xstrdup(u.version);
		m->machine = xstrdup(u.machine);
	}
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		free(m->hostname);
		m->hostname = xstrdup(host);
	}
	free(m->cmdline);
	m->cmdline = read_text("/proc/cmdline");
	if (mount_table_read(&t) < 0)
		return -1;
	for (i = 0; i < t.n; i++)
		bp_meta_add_mount(m, t.v[i].dev, t.v[i].fstype, t.v[i].dir, t.v[i].source);
	mount_table_release(&t);
	read_disks(m);
	return 0;
}

/* ---- (dev, ino) pairs seen in the events ---- */

enum { INODE_PENDING, INODE_FOUND, INODE_GONE };

struct id_fields {
	int known;                      /* looked up already */
	struct tep_format_field *dev;   /* NULL: the event names no inode */
	struct tep_format_field *ino;
	struct tep_format_field *exec;  /* sched_process_exec's filename, else NULL */
};

/* The distinct paths exec events name. */
struct exec_paths {
	char **v;
	size_t n, cap;
};

/* Copy a string field (fixed or __data_loc) of @ev into @buf; "" when out of bounds. */
static void read_str_field(const struct tep_format_field *f, const struct bp_event *ev, char *buf,
			   size_t len)
{
	size_t off = (size_t)f->offset, n = (size_t)f->size;
	unsigned long long loc;

	buf[0] = '\0';
	if (f->offset < 0 || off > (size_t)ev->size || n > (size_t)ev->size - off)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (n != 4 || tep_read_number_field((struct tep_format_field *)f, ev->data, &loc) < 0)
			return;
		off = loc & 0xffff;
		n = (size_t)(loc >> 16);
		if (off > (size_t)ev->size || n > (size_t)ev->size - off)
			return;
	}
	n = strnlen((const char *)ev->data + off, n);
	if (n >= len)
		return;
	memcpy(buf, (const char *)ev->data + off, n);
	buf[n] = '\0';
}

static void add_exec_path(struct exec_paths *x, const char *path)
{
	size_t i;

	/* Few distinct paths, many execs of each: a linear look is enough. */
	for (i = x->n; i > 0; i--) {
		if (!strcmp(x->v[i - 1], path))
			return;
	}
	BP_GROW(x->v, x->n, x->cap);
	x->v[x->n++] = xstrdup(path);
}

static int field_fits(const struct tep_format_field *f, int size)
{
	return f->offset >= 0 && f->size > 0 && f->size <= 8 && f->offset + f->size <= size;
}

static int collect_inodes(struct bp_reader *r, struct bp_map *inodes, struct exec_paths *execs)
{
	struct id_fields *ids = NULL;
	size_t nids = 0;
	struct bp_event ev;
	int ret;

	while ((ret = bp_reader_next(r, &ev)) == 1) {
		unsigned long long dev, ino;
		struct id_fields *f;
		char path[4096];

		if (!ev.format || ev.id < 0 || ev.id >= 65536)
			continue;
		if ((size_t)ev.id >= nids) {
			size_t n = (size_t)ev.id + 1;

			ids = xrealloc(ids, n * sizeof(*ids));
			memset(ids + nids, 0, (n - nids) * sizeof(*ids));
			nids = n;
		}
		f = &ids[ev.id];
		if (!f->known) {
			f->known = 1;
			f->dev = tep_find_field(ev.format, "s_dev");
			f->ino = tep_find_field(ev.format, "i_ino");
			if (!f->dev || !f->ino)
				f->dev = f->ino = NULL;
			if (ev.format->name && !strcmp(ev.format->name, "sched_process_exec"))
				f->exec = tep_find_field(ev.format, "filename");
		}
		if (f->exec) {
			read_str_field(f->exec, &ev, path, sizeof(path));
			if (path[0] && strncmp(path, "/proc/", 6))
				add_exec_path(execs, path);
			continue;
		}
		if (!f->dev || !field_fits(f->dev, ev.size) || !field_fits(f->ino, ev.size))
			continue;
		if (tep_read_number_field(f->dev, ev.data, &dev) < 0 ||
		    tep_read_number_field(f->ino, ev.data, &ino) < 0)
			continue;
		if ((uint32_t)dev == BP_DEV_BDEV || !ino)
			continue;
		bp_map_put(inodes, (uint32_t)dev, ino, NULL);
	}
	free(ids);
	if (ret < 0)
		return -1;
	return 0;
}

/* ---- exec'd programs ---- */

/*
 * The interpreter a script names ("#!/bin/sh -e" -> "/bin/sh") into @out,
 * or 0 when @path is no script (or cannot be read).
 */
static int interpreter(const char *path, char *out, size_t len)
{
	char head[256];
	struct stat st;
	ssize_t n;
	size_t i = 2, k = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return 0;
	n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, sizeof(head) - 1) : -1;
	close(fd);
	if (n < 3 || head[0] != '#' || head[1] != '!')
		return 0;
	head[n] = '\0';
	while (head[i] == ' ' || head[i] == '\t')
		i++;
	while (head[i] && !strchr(" \t\r\n", head[i]) && k + 1 < len)
		out[k++] = head[i++];
	out[k] = '\0';
	return out[0] == '/';
}

/*
 * What each exec'd path runs when that is another file: a script's
 * interpreter (the kernel follows a few levels), then the file behind
 * symbolic links. Busybox re-executing itself through /proc/self/exe is
 * then named as the binary it is, not as the script or link it ran as.
 */
static void resolve_programs(struct bp_meta *m, const struct exec_paths *x)
{
	char cur[PATH_MAX], next[PATH_MAX], real[PATH_MAX];
	size_t i;
	int depth;

	for (i = 0; i < x->n; i++) {
		if (bp_meta_find_program(m, x->v[i]) || strlen(x->v[i]) >= sizeof(cur))
			continue;
		strcpy(cur, x->v[i]);
		for (depth = 0; depth < 4 && interpreter(cur, next, sizeof(next)); depth++)
			strcpy(cur, next);
		if (!realpath(cur, real))
			strcpy(real, cur);
		if (strcmp(real, x->v[i]))
			bp_meta_add_program(m, x->v[i], real);
	}
}

/* ---- finding paths ---- */

/* Filesystems whose inodes have no page cache worth naming, or that never end. */
static int walkable(const char *fstype)
{
	static const char *const skip[] = { "proc", "sysfs", "tracefs", "debugfs", "securityfs",
					    "cgroup", "cgroup2", "devpts", "bpf", "pstore",
					    "configfs", "fusectl", "binfmt_misc", "mqueue",
					    "hugetlbfs", "efivarfs", "autofs", NULL };
	int i;

	for (i = 0; skip[i]; i++) {
		if (!strcmp(fstype, skip[i]))
			return 0;
	}
	return 1;
}

static uint32_t st_dev_of(const struct stat *st)
{
	return BP_DEV(major(st->st_dev), minor(st->st_dev));
}

struct resolve_state {
	struct bp_meta *meta;
	struct bp_map *inodes;
	uint32_t dev;
	uint64_t pending;          /* inodes of dev still to find */
	const volatile sig_atomic_t *stop;
};

/* Anything left to search for, and no request to stop? */
static int searching(const struct resolve_state *s)
{
	return s->pending && !(s->stop && *s->stop);
}

static void found(struct resolve_state *s, uint64_t *state, uint64_t ino, const char *path)
{
	bp_meta_add_path(s->meta, s->dev, ino, path);
	*state = INODE_FOUND;
	s->pending--;
}

/*
 * ext2/3/4 open an inode from a handle of (ino, generation 0) without
 * checking the generation, and refuse a deleted one with ESTALE. Opening
 * with O_PATH touches no data; /proc/self/fd then names the path, which
 * is trusted only when lstat() agrees on (dev, ino).
 */
static void resolve_by_handle(struct resolve_state *s, const struct bp_mountinfo *mnt)
{
	struct file_handle *fh = xmalloc(sizeof(*fh) + 8);
	const struct bp_map_slot *slot;
	size_t pos = 0;
	int mfd;

	mfd = open(mnt->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		goto out_free;
	while (searching(s) && bp_map_next(s->inodes, &pos, &slot)) {
		uint64_t *state = bp_map_get(s->inodes, slot->k1, slot->k2);
		char link[64], path[PATH_MAX];
		uint32_t words[2];
		struct stat st;
		ssize_t n;
		int fd;

		if (slot->k1 != s->dev || *state != INODE_PENDING || slot->k2 > UINT32_MAX)
			continue;
		words[0] = (uint32_t)slot->k2;
		words[1] = 0;
		fh->handle_bytes = sizeof(words);
		fh->handle_type = 1; /* FILEID_INO32_GEN */
		memcpy(fh->f_handle, words, sizeof(words));
		fd = open_by_handle_at(mfd, fh, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ESTALE) {
				*state = INODE_GONE;
				s->pending--;
				continue;
			}
			break; /* not supported here: the walk will do */
		}
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		close(fd);
		if (n <= 0)
			continue;
		path[n] = '\0';
		if (path[0] == '/' && lstat(path, &st) == 0 && st.st_ino == slot->k2 &&
		    st_dev_of(&st) == s->dev)
			found(s, state, slot->k2, path);
	}
	close(mfd);
out_free:
	free(fh);
}

/*
 * The walk reads directories and matches d_ino, so only directories are
 * opened and only hits are stat'ed (an lstat of every file, as nftw does,
 * costs several times more on a large root filesystem). A directory whose
 * mount id differs from the start's is another mount and is not entered.
 */
#define WALK_MAX_DEPTH 128

struct walk {
	struct resolve_state *state;
	uint64_t mnt_id;
	char path[PATH_MAX];
};

static int same_mount(int fd, uint64_t *mnt_id)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return -1;
	if (!*mnt_id)
		*mnt_id = stx.stx_mnt_id;
	return stx.stx_mnt_id == *mnt_id;
}

/* Walk the directory open at fd (closed here) whose path is wk->path[0..len). */
static void walk_dir(struct walk *wk, int fd, size_t len, int depth)
{
	struct resolve_state *s = wk->state;
	struct dirent *e;
	DIR *dir;

	if (same_mount(fd, &wk->mnt_id) != 1 || !(dir = fdopendir(fd))) {
		close(fd);
		return;
	}
	while (searching(s) && (e = readdir(dir))) {
		size_t nlen = strlen(e->d_name);
		uint64_t *state;
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (len + 1 + nlen >= sizeof(wk->path))
			continue;
		wk->path[len] = '/';
		memcpy(wk->path + len + 1, e->d_name, nlen + 1);
		state = bp_map_get(s->inodes, s->dev, e->d_ino);
		if (state && *state == INODE_PENDING) {
			struct stat st;

			if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    st.st_ino == e->d_ino && st_dev_of(&st) == s->dev)
				found(s, state, e->d_ino, wk->path);
		}
		if ((e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) || depth >= WALK_MAX_DEPTH)
			continue;
		sub = openat(dirfd(dir), e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (sub >= 0)
			walk_dir(wk, sub, len + 1 + nlen, depth + 1);
	}
	wk->path[len] = '\0';
	closedir(dir);
}

static void resolve_by_walk(struct resolve_state *s, const struct bp_mountinfo *mnt)
{
	struct walk *wk;
	struct stat st;
	size_t len;
	int fd;

	fd = open(mnt->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st_dev_of(&st) != s->dev) {
		close(fd); /* mounted over: this filesystem is hidden here */
		return;
	}
	wk = xcalloc(1, sizeof(*wk));
	wk->state = s;
	/* "/" walks as "" so that paths come out as "/etc/...", not "//etc/...". */
	len = strlen(mnt->dir);
	while (len && mnt->dir[len - 1] == '/')
		len--;
	if (len >= sizeof(wk->path)) {
		close(fd);
		free(wk);
		return;
	}
	memcpy(wk->path, mnt->dir, len);
	wk->path[len] = '\0';
	walk_dir(wk, fd, len, 0);
	free(wk);
}

/* The best mount of dev to search from: its whole filesystem, nearest the root. */
static const struct bp_mountinfo *mount_of(const struct mount_table *t, uint32_t dev)
{
	const struct bp_mountinfo *best = NULL;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct bp_mountinfo *mi = &t->v[i];

		if (mi->dev != dev)
			continue;
		if (!best || (!strcmp(mi->root, "/") && strcmp(best->root, "/")) ||
		    (!strcmp(mi->root, "/") == !strcmp(best->root, "/") &&
		     strlen(mi->dir) < strlen(best->dir)))
			best = mi;
	}
	return best;
}

static int is_ext(const char *fstype)
{
	return !strcmp(fstype, "ext4") || !strcmp(fstype, "ext3") || !strcmp(fstype, "ext2");
}

int bp_resolve_paths(struct bp_meta *m, struct bp_reader *r, const volatile sig_atomic_t *stop)
{
	return bp_resolve_paths_how(m, r, stop, BP_RESOLVE_WALK);
}

int bp_resolve_paths_how(struct bp_meta *m, struct bp_reader *r,
			 const volatile sig_atomic_t *stop, int how)
{
	struct bp_map inodes, devs;
	const struct bp_map_slot *slot;
	struct mount_table t;
	struct exec_paths execs = { 0 };
	size_t pos = 0;
	int ret = -1;

	bp_map_init(&inodes);
	bp_map_init(&devs);
	if (collect_inodes(r, &inodes, &execs) < 0)
		goto out_release;
	resolve_programs(m, &execs);
	if (mount_table_read(&t) < 0)
		goto out_release;
	while (bp_map_next(&inodes, &pos, &slot)) {
		/* A pair m names already (an earlier call) is not looked up again. */
		if (m->npaths && bp_meta_find_path(m, (uint32_t)slot->k1, slot->k2))
			*bp_map_get(&inodes, slot->k1, slot->k2) = INODE_FOUND;
		else
			(*bp_map_put(&devs, slot->k1, 0, NULL))++;
	}

	pos = 0;
	while (bp_map_next(&devs, &pos, &slot)) {
		struct resolve_state s = { m, &inodes, (uint32_t)slot->k1, slot->value, stop };
		const struct bp_mountinfo *mnt = mount_of(&t, s.dev);

		if (mnt && walkable(mnt->fstype)) {
			if (is_ext(mnt->fstype))
				resolve_by_handle(&s, mnt);
			if (searching(&s) && (how & BP_RESOLVE_WALK))
				resolve_by_walk(&s, mnt);
		}
	}
	pos = 0;
	while (bp_map_next(&inodes, &pos, &slot)) {
		if (slot->value != INODE_FOUND)
			m->unresolved++;
	}
	bp_meta_sort_paths(m);
	mount_table_release(&t);
	ret = 0;
out_release:
	for (pos = 0; pos < execs.n; pos++)
		free(execs.v[pos]);
	free(execs.v);
	bp_map_release(&devs);
	bp_map_release(&inodes);
	return ret;
}
