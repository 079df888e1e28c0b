// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin registry and loader: built-in descriptors first, then .so
 * files from the install's plugin directory and $BOOTPROF_PLUGIN_DIR.
 *
 * A plugin runs with the privileges of bootprof, often root, so a file or
 * directory someone else could have written is refused. The file is opened
 * once, checked with fstat and loaded through /proc/self/fd, so the checked
 * file is the loaded one.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin/internal.h"
#include "util/error.h"
#include "util/install.h"
#include "util/xalloc.h"

extern const struct bootprof_plugin bootprof_builtin_android;
extern const struct bootprof_plugin bootprof_builtin_systemd;
extern const struct bootprof_plugin bootprof_builtin_initcall;
extern const struct bootprof_plugin bootprof_builtin_polling;

const struct bootprof_plugin *const bp_builtin_plugins[] = {
	&bootprof_builtin_android,
	&bootprof_builtin_systemd,
	&bootprof_builtin_initcall,
	&bootprof_builtin_polling,
	NULL,
};

size_t bp_plugin_dirs(const char *dirs[2])
{
	const char *env = getenv("BOOTPROF_PLUGIN_DIR");

	dirs[0] = bp_install_plugin_dir();
	/* Naming the install directory again would load each plugin twice. */
	dirs[1] = env && *env && strcmp(env, dirs[0]) ? env : NULL;
	return 2;
}

const char *bp_plugin_untrusted(const struct stat *st, uid_t uid, gid_t gid)
{
	if (st->st_uid != 0 && st->st_uid != uid)
		return "owned by another user";
	if (st->st_mode & S_IWOTH)
		return "writable by others";
	if ((st->st_mode & S_IWGRP) && st->st_gid != 0 && st->st_gid != gid)
		return "writable by another group";
	return NULL;
}

void bp_plugin_warn(struct bp_plugin_set *set, const char *fmt, ...)
{
	va_list ap;

	BP_GROW(set->warnings, set->nwarnings, set->wcap);
	va_start(ap, fmt);
	set->warnings[set->nwarnings++] = xvasprintf(fmt, ap);
	va_end(ap);
}

static struct bp_plugin_run *find_run(const struct bp_plugin_set *set, const char *name,
				      size_t len)
{
	size_t i;

	for (i = 0; i < set->nruns; i++) {
		const char *n = set->runs[i]->p->name;

		if (strlen(n) == len && !strncmp(n, name, len))
			return set->runs[i];
	}
	return NULL;
}

/*
 * ABI 4 only appended host->mark to ABI 3's host functions: a plugin built
 * for 3 sees a prefix of them and loads unchanged. ABI 5 appended @pid to
 * the mark, which the host reads only from a plugin built for 5 (host.c).
 */
#define OLDEST_ABI 3

static int abi_loads(unsigned abi)
{
	return abi >= OLDEST_ABI && abi <= BOOTPROF_PLUGIN_ABI;
}

int bp_plugins_add(struct bp_plugin_set *set, const struct bootprof_plugin *p, const char *origin)
{
	struct bp_plugin_run *run;

	if (!abi_loads(p->abi)) {
		bp_set_error("plugin ABI version %u, this bootprof uses %u (rebuild it against "
			     "this bootprof's <bootprof/plugin.h>)",
			     p->abi, BOOTPROF_PLUGIN_ABI);
		return -1;
	}
	if (!p->name || !*p->name || strpbrk(p->name, ".,= /")) {
		bp_set_error("plugin without a valid name");
		return -1;
	}
	if (find_run(set, p->name, strlen(p->name))) {
		bp_set_error("a plugin named '%s' is already loaded", p->name);
		return -1;
	}
	run = xcalloc(1, sizeof(*run));
	run->ctx.host = &bp_plugin_host;
	run->section = -1;
	run->p = p;
	run->set = set;
	run->origin = xstrdup(origin);
	BP_GROW(set->runs, set->nruns, set->cap);
	set->runs[set->nruns++] = run;
	return 0;
}

/* Free a run's descriptor bookkeeping and unload its library. */
static void unload(struct bp_plugin_run *run)
{
	free(run->origin);
	if (run->dl) {
		dlclose(run->dl);
		close(run->fd);
	}
	free(run);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_so_suffix(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && !strcmp(name + n - 3, ".so") && name[0] != '.';
}

/*
 * Load one .so: checked, opened, its descriptor added; refusals are
 * warnings. The descriptor stays open while the library is loaded: the
 * loader knows libraries by name, and a reused /proc/self/fd/N would name
 * the previous plugin.
 */
static void load_one(struct bp_plugin_set *set, const char *path, int quiet_builtin_dup)
{
	const struct bp_plugin_run *loaded;
	const struct bootprof_plugin *p;
	char fdpath[64];
	struct stat st;
	const char *why;
	void *dl;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		bp_plugin_warn(set, "cannot open plugin '%s': %s", path, strerror(errno));
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	why = bp_plugin_untrusted(&st, geteuid(), getegid());
	if (why) {
		bp_plugin_warn(set, "refusing plugin '%s': %s", path, why);
		close(fd);
		return;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	dl = dlopen(access(fdpath, F_OK) ? path : fdpath, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		bp_plugin_warn(set, "cannot load plugin '%s': %s", path, dlerror());
		close(fd);
		return;
	}
	p = dlsym(dl, BOOTPROF_PLUGIN_SYMBOL);
	loaded = p && abi_loads(p->abi) && p->name ?
			 find_run(set, p->name, strlen(p->name)) : NULL;
	if (!p) {
		bp_plugin_warn(set, "refusing plugin '%s': no %s descriptor", path,
			       BOOTPROF_PLUGIN_SYMBOL);
	} else if (loaded) {
		/* The installed .so copies of the built-in plugins are expected. */
		if (!(quiet_builtin_dup && !strcmp(loaded->origin, "built-in")))
			bp_plugin_warn(set, "ignoring plugin '%s': a plugin named '%s' is "
				       "already loaded from %s", path, p->name, loaded->origin);
	} else if (bp_plugins_add(set, p, path)) {
		bp_plugin_warn(set, "refusing plugin '%s': %s", path, bp_last_error());
	} else {
		set->runs[set->nruns - 1]->dl = dl;
		set->runs[set->nruns - 1]->fd = fd;
		return;
	}
	dlclose(dl);
	close(fd);
}

static void load_dir(struct bp_plugin_set *set, const char *dir, int installed)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	struct stat st;
	const char *why;
	DIR *d;
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		/* The install directory need not exist; a directory the user named must. */
		if (!installed)
			bp_plugin_warn(set, "cannot open plugin directory '%s': %s", dir,
				       strerror(errno));
		return;
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return;
	}
	why = bp_plugin_untrusted(&st, geteuid(), getegid());
	if (why) {
		bp_plugin_warn(set, "refusing plugin directory '%s': %s", dir, why);
		close(fd);
		return;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		if (!has_so_suffix(de->d_name))
			continue;
		BP_GROW(names, n, cap);
		names[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		load_one(set, names[i], installed);
		free(names[i]);
	}
	free(names);
}

/* Keep only the runs named in sel (comma-separated); -1 when a name is unknown. */
static int select_runs(struct bp_plugin_set *set, const char *sel)
{
	unsigned char *keep = xcalloc(set->nruns + 1, 1);
	const char *s = sel;
	size_t i, j;

	while (*s) {
		size_t len = strcspn(s, ",");
		struct bp_plugin_run *run = len ? find_run(set, s, len) : NULL;

		if (len && !run) {
			bp_set_error("no plugin named '%.*s' (see --list-plugins)", (int)len, s);
			free(keep);
			return -1;
		}
		for (i = 0; run && i < set->nruns; i++)
			if (set->runs[i] == run)
				keep[i] = 1;
		s += len + (s[len] == ',');
	}
	for (i = j = 0; i < set->nruns; i++) {
		struct bp_plugin_run *run = set->runs[i];

		if (keep[i]) {
			set->runs[j++] = run;
			continue;
		}
		unload(run);
	}
	set->nruns = j;
	free(keep);
	return 0;
}

/* Every NAME.KEY=VALUE must name a plugin of the set; unknown keys are warned. */
static int check_opts(struct bp_plugin_set *set)
{
	size_t i, k;

	for (i = 0; i < set->nopts; i++) {
		const char *o = set->opts[i], *dot = strchr(o, '.'), *eq = strchr(o, '=');
		const struct bootprof_plugin *p;
		struct bp_plugin_run *run;
		size_t klen;
		int known = 0;

		if (!dot || !eq || eq < dot || dot == o || eq == dot + 1) {
			bp_set_error("malformed plugin option '%s' (expected NAME.KEY=VALUE)", o);
			return -1;
		}
		run = find_run(set, o, (size_t)(dot - o));
		if (!run) {
			bp_set_error("no plugin named '%.*s' for option '%s'", (int)(dot - o), o, o);
			return -1;
		}
		p = run->p;
		klen = (size_t)(eq - dot - 1);
		for (k = 0; p->options && p->options[k]; k++) {
			if (!strncmp(p->options[k], dot + 1, klen) && p->options[k][klen] == '=')
				known = 1;
		}
		if (!known)
			bp_plugin_warn(set, "plugin '%s' has no option '%.*s'%s", p->name, (int)klen,
				       dot + 1, p->options ? " (see bootprof-plugins(7))" : "");
	}
	return 0;
}

struct bp_plugin_set *bp_plugins_load(const struct bp_plugin_opts *o)
{
	struct bp_plugin_set *set = xcalloc(1, sizeof(*set));
	size_t i;

	set->opts = o->opts;
	set->nopts = o->nopts;
	if (o->disabled)
		return set;
	for (i = 0; bp_builtin_plugins[i]; i++)
		bp_plugins_add(set, bp_builtin_plugins[i], "built-in");
	for (i = 0; i < o->ndirs; i++) {
		if (o->dirs[i])
			load_dir(set, o->dirs[i], i == 0 && !strcmp(o->dirs[i], bp_install_plugin_dir()));
	}
	if ((o->select && select_runs(set, o->select)) || check_opts(set)) {
		bp_plugins_free(set);
		return NULL;
	}
	return set;
}

size_t bp_plugins_count(const struct bp_plugin_set *set)
{
	return set ? set->nruns : 0;
}

const struct bootprof_plugin *bp_plugins_get(const struct bp_plugin_set *set, size_t i,
					     const char **origin)
{
	if (!set || i >= set->nruns)
		return NULL;
	if (origin)
		*origin = set->runs[i]->origin;
	return set->runs[i]->p;
}

size_t bp_plugins_nwarnings(const struct bp_plugin_set *set)
{
	return set ? set->nwarnings : 0;
}

const char *bp_plugins_warning(const struct bp_plugin_set *set, size_t i)
{
	return set && i < set->nwarnings ? set->warnings[i] : NULL;
}

void bp_plugins_clear_warnings(struct bp_plugin_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->nwarnings; i++)
		free(set->warnings[i]);
	set->nwarnings = 0;
}

void bp_plugins_list(const struct bp_plugin_set *set, FILE *out)
{
	size_t i;

	for (i = 0; set && i < set->nruns; i++)
		fprintf(out, "%s\n", set->runs[i]->p->name);
}

void bp_plugins_free(struct bp_plugin_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->nruns; i++) {
		struct bp_plugin_run *run = set->runs[i];
		struct bootprof_field *f, *next;

		if (run->started && run->p->release)
			run->p->release(&run->ctx);
		for (f = run->fields; f; f = next) {
			next = f->next;
			free(f);
		}
		bp_plugin_output_release(run);
		free(run->wants);
		unload(run);
	}
	free(set->runs);
	bp_plugins_clear_warnings(set);
	free(set->warnings);
	free(set->any_wants);
	ksyms_release(&set->ksyms);
	bp_plugin_waits_release(&set->waits);
	free(set->pid_off);
	bp_doc_release(&set->doc);
	bp_plugin_marks_release(set);
	free(set);
}
