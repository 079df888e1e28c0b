// SPDX-License-Identifier: GPL-2.0
/*
 * The live recorder's private tracefs instance: creating it (or attaching
 * to the kernel's at boot), owning it by a lock, the events it records and
 * their filters, its statistics and the headers the recording copies from
 * it. The per-CPU threads that read it are in recorder.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>
#include <event-parse.h>

#include "capture/internal.h"
#include "util/error.h"
#include "util/xalloc.h"

/* ---- tracefs helpers ---- */

#define TRACEFS_DIR "/sys/kernel/tracing"
#define TRACEFS_MAGIC_NUMBER 0x74726163

static int tracefs_mounted_at_default(void)
{
	struct statfs sfs;

	return statfs(TRACEFS_DIR, &sfs) == 0 && sfs.f_type == TRACEFS_MAGIC_NUMBER;
}

/*
 * tracefs_tracing_dir() mounts tracefs at /sys/kernel/tracing when it finds
 * it nowhere, and caches the answer. (tracefs_tracing_dir_is_mounted() is
 * avoided: it leaks its path in libtracefs 1.6.4.)
 */
int bp_tracefs_ready(int *mounted)
{
	int before = tracefs_mounted_at_default();
	const char *dir = tracefs_tracing_dir();

	*mounted = 0;
	if (!dir || access(dir, F_OK) < 0) {
		bp_set_error("tracefs is not available (cannot mount it at " TRACEFS_DIR ")");
		return -1;
	}
	*mounted = !before && tracefs_mounted_at_default();
	return 0;
}

int bp_tracefs_ncpus(void)
{
	const char *dir = tracefs_tracing_dir();
	char path[4096];
	struct dirent *d;
	int n = 0, cpu;
	DIR *dp;

	if (!dir) {
		bp_set_error("tracefs is not available");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	dp = opendir(path);
	if (!dp) {
		bp_set_error_errno("cannot open '%s'", path);
		return -1;
	}
	while ((d = readdir(dp))) {
		if (sscanf(d->d_name, "cpu%d", &cpu) == 1 && cpu >= 0 && cpu < 65536 && cpu + 1 > n)
			n = cpu + 1;
	}
	closedir(dp);
	if (!n) {
		bp_set_error("no per-CPU ring buffers in '%s'", path);
		return -1;
	}
	return n;
}

int bp_tracefs_page_size(void)
{
	struct tep_handle *tep = tep_alloc();
	int size = -1, len = 0;
	char *buf;

	if (!tep)
		return (int)sysconf(_SC_PAGESIZE);
	buf = tracefs_instance_file_read(NULL, "events/header_page", &len);
	if (buf && tep_parse_header_page(tep, buf, len, sizeof(long)) == 0)
		size = tep_get_sub_buffer_size(tep);
	free(buf);
	tep_free(tep);
	if (size <= 0)
		size = (int)sysconf(_SC_PAGESIZE);
	return size;
}

int bp_instance_write(struct tracefs_instance *inst, const char *file, const char *val)
{
	if (tracefs_instance_file_write(inst, file, val) < 0) {
		bp_set_error_errno("cannot write '%s' to '%s'", val, file);
		return -1;
	}
	return 0;
}

static void append_warning(struct bp_capture *c, const char *msg)
{
	char *w = xasprintf("%s%s\n", c->warnings ? c->warnings : "", msg);

	free(c->warnings);
	c->warnings = w;
}

/* ---- event list ---- */

static int event_exists(struct tracefs_instance *inst, const char *system, const char *event)
{
	return tracefs_event_file_exists(inst, system, event, "enable");
}

static void add_event(struct bp_capture *c, const char *system, const char *event, int sc)
{
	BP_GROW(c->events, c->nevents, c->cap_events);
	c->events[c->nevents].system = xstrdup(system);
	c->events[c->nevents].event = xstrdup(event);
	c->events[c->nevents].syscall_filter = sc;
	c->nevents++;
}

static int has_event(const struct bp_capture *c, const char *system, const char *event)
{
	size_t i;

	for (i = 0; i < c->nevents; i++) {
		if (!strcmp(c->events[i].system, system) && !strcmp(c->events[i].event, event))
			return 1;
	}
	return 0;
}

static void add_unavailable(struct bp_capture *c, const char *system, const char *event)
{
	char *msg;

	BP_GROW(c->unavailable, c->nunavailable, c->cap_unavailable);
	c->unavailable[c->nunavailable++] = xasprintf("%s:%s", system, event);
	msg = xasprintf("event '%s:%s' is not available on this kernel", system, event);
	append_warning(c, msg);
	free(msg);
}

/* A kernel without what the event traces (no module loading): nothing to record or miss. */
static int feature_absent(const struct bp_event_spec *s)
{
	return s->feature && access(s->feature, F_OK);
}

static void resolve_default_events(struct bp_capture *c)
{
	const struct bp_event_spec *s;

	for (s = bp_default_events; s->system; s++) {
		if (feature_absent(s))
			continue;
		if (event_exists(c->instance, s->system, s->event))
			add_event(c, s->system, s->event, s->syscall_filter);
		else if (s->fallback && event_exists(c->instance, s->system, s->fallback))
			add_event(c, s->system, s->fallback, s->syscall_filter);
		else
			add_unavailable(c, s->system, s->event);
	}
}

/* Explicit "system:event" names: a missing one is an error. */
static int resolve_named_events(struct bp_capture *c, char **names, size_t n)
{
	const struct bp_event_spec *s;
	size_t i;

	for (i = 0; i < n; i++) {
		char *name = xstrdup(names[i]);
		char *colon = strchr(name, ':');
		int sc = 0;

		if (!colon || colon == name || !colon[1] || strchr(colon + 1, ':') ||
		    strpbrk(name, "/*?[. ")) {
			bp_set_error("bad event name '%s' (expected system:event)", names[i]);
			free(name);
			return -1;
		}
		*colon = '\0';
		if (!event_exists(c->instance, name, colon + 1)) {
			bp_set_error("event '%s' is not available on this kernel", names[i]);
			free(name);
			return -1;
		}
		for (s = bp_default_events; s->system; s++) {
			if (!strcmp(s->system, name) && !strcmp(s->event, colon + 1))
				sc = s->syscall_filter;
		}
		if (!has_event(c, name, colon + 1))
			add_event(c, name, colon + 1, sc);
		free(name);
	}
	return 0;
}

/* ---- the instance ---- */

/*
 * Stop and remove an instance we created. The kernel refuses (EBUSY) while
 * a reference to its buffers is still being dropped, e.g. pages spliced
 * into a pipe that a failed write left full: retry for up to 5 s
 * (about 0.25 s is typical).
 */
void bp_instance_remove(struct tracefs_instance *inst)
{
	struct timespec pause = { 0, 20 * 1000000L };
	int i;

	tracefs_instance_file_write(inst, "tracing_on", "0");
	tracefs_instance_file_write(inst, "events/enable", "0");
	for (i = 0; i < 250; i++) {
		if (tracefs_instance_destroy(inst) == 0 || errno != EBUSY)
			break;
		nanosleep(&pause, NULL);
	}
	tracefs_instance_free(inst);
}

static void capture_release_cpus(struct bp_capture *c)
{
	int i;

	if (!c->cpus)
		return;
	for (i = 0; i < c->ncpus; i++) {
		struct cpu_recorder *r = &c->cpus[i];

		if (r->tcpu)
			tracefs_cpu_free_fd(r->tcpu);
		if (r->raw_fd >= 0)
			close(r->raw_fd);
		if (r->flush_fd >= 0)
			close(r->flush_fd);
		if (r->pipe_fd[0] >= 0) {
			close(r->pipe_fd[0]);
			close(r->pipe_fd[1]);
		}
		r->tcpu = NULL;
		r->raw_fd = -1;
		r->flush_fd = -1;
		r->pipe_fd[0] = r->pipe_fd[1] = -1;
	}
}

/*
 * An attached buffer: with keep, clear our filters and let it trace on;
 * else remove the instance, or for the top-level buffer (trace_event= at
 * boot) disable its events.
 */
static void release_attached(struct bp_capture *c)
{
	size_t i;

	if (c->keep) {
		for (i = 0; i < c->nevents; i++)
			tracefs_event_file_write(c->instance, c->events[i].system,
						 c->events[i].event, "filter", "0");
		tracefs_instance_file_write(c->instance, "tracing_on", "1");
		tracefs_instance_free(c->instance);
	} else if (tracefs_instance_get_name(c->instance)) {
		bp_instance_remove(c->instance);
	} else {
		tracefs_instance_file_write(c->instance, "events/enable", "0");
		tracefs_instance_free(c->instance);
	}
	c->instance = NULL;
}

void bp_capture_free(struct bp_capture *c)
{
	size_t i;

	if (!c)
		return;
	if (c->cpus) {
		for (i = 0; i < (size_t)c->ncpus; i++) {
			if (c->cpus[i].running)
				break;
		}
		if (i < (size_t)c->ncpus)
			bp_capture_stop(c);
	}
	capture_release_cpus(c);
	if (c->instance && c->attached) {
		release_attached(c);
	} else if (c->instance) {
		/* Stop first so nothing runs while the directory goes away. */
		bp_instance_remove(c->instance);
	}
	/* The lock goes last: until the instance is gone, it is ours. */
	if (c->lock_fd >= 0)
		bp_instance_unlock(c->lock_name, c->lock_fd);
	free(c->lock_name);
	if (c->stop_fd >= 0)
		close(c->stop_fd);
	sem_destroy(&c->ready);
	sem_destroy(&c->flushed);
	for (i = 0; i < c->nevents; i++) {
		free(c->events[i].system);
		free(c->events[i].event);
	}
	free(c->events);
	free(c->clock_owned);
	for (i = 0; i < c->nunavailable; i++)
		free(c->unavailable[i]);
	free(c->unavailable);
	free(c->warnings);
	free(c->cpus);
	free(c);
}

/* ---- ownership ---- */

/*
 * An instance is owned by whoever holds an exclusive flock on
 * BP_LOCK_DIR/<instance>.lock for its whole life; a dead owner's lock is
 * free (the kernel drops it with the last descriptor, kill -9 included).
 * Process ids prove nothing here: a recorder in another PID namespace has
 * an id that means another process, or none, in ours.
 */
#define BP_LOCK_DIR "/run/bootprof"

static char *lock_path(const char *instance)
{
	return xasprintf(BP_LOCK_DIR "/%s.lock", instance);
}

/*
 * Take the lock of instance. Returns the descriptor, -1 when someone holds
 * it (errno EWOULDBLOCK), or -1 when it cannot be made (another errno).
 * A lock file unlinked by a remover between our open and our flock is not
 * the lock any more: then try again.
 */
static int lock_instance(const char *instance)
{
	char *path = lock_path(instance);
	struct stat a, b;
	int fd = -1, tries;

	if (mkdir(BP_LOCK_DIR, 0700) < 0 && errno != EEXIST)
		goto out;
	for (tries = 0; tries < 100; tries++) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			break;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;

			close(fd);
			fd = -1;
			errno = e;
			break;
		}
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			break;
		close(fd);
		fd = -1;
	}
out:
	free(path);
	return fd;
}

/* Give up the lock of instance (after it is removed). */
void bp_instance_unlock(const char *instance, int fd)
{
	char *path = lock_path(instance);

	if (fd >= 0) {
		unlink(path);
		close(fd);
	}
	free(path);
}

/*
 * Take the lock of an instance we are about to create. An existing
 * instance whose lock we got is a dead recorder's (a reused name): removed
 * with a warning (into c, when given). Returns the descriptor; -2
 * (bp_set_error) when a live recorder holds the lock; -1 when there is no
 * lock to take (no lock directory): the instance is then made unlocked,
 * nobody can prove it stale, so nobody removes it.
 */
int bp_instance_own(struct bp_capture *c, const char *name)
{
	struct tracefs_instance *inst;
	int fd = lock_instance(name);

	if (fd < 0 && errno == EWOULDBLOCK) {
		bp_set_error("trace instance '%s' belongs to a running recorder", name);
		return -2;
	}
	if (fd < 0) {
		char *msg = xasprintf("cannot lock '" BP_LOCK_DIR "/%s.lock' (%s): a recorder "
				      "killed now leaves its trace instance behind",
				      name, strerror(errno));

		if (c)
			append_warning(c, msg);
		free(msg);
		return -1;
	}
	if (tracefs_instance_exists(name) && (inst = tracefs_instance_alloc(NULL, name))) {
		bp_instance_remove(inst);
		if (c) {
			char *msg = xasprintf("removed trace instance '%s' left by a recorder "
					      "that is gone", name);

			append_warning(c, msg);
			free(msg);
		}
	}
	return fd;
}

/*
 * Remove the instances of recorders that are gone: a "bootprof-..."
 * instance whose lock file exists and is free (as kill -9 leaves them).
 * An instance without a lock file (the boot instance "bootprof", one made
 * by an older bootprof, one whose owner keeps its locks under another
 * /run) is never touched. One warning per instance removed.
 */
static void remove_stale_instances(struct bp_capture *c)
{
	/* No regex: libtracefs 1.6.4 leaks the one it compiles. */
	char **names = tracefs_instances(NULL);
	size_t i;

	for (i = 0; names && names[i]; i++) {
		struct tracefs_instance *inst;
		char *path, *msg;
		int fd;

		if (strncmp(names[i], "bootprof-", strlen("bootprof-")) ||
		    strchr(names[i], '/'))
			continue;
		path = lock_path(names[i]);
		fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		free(path);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			close(fd); /* its owner is alive */
			continue;
		}
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (inst) {
			bp_instance_remove(inst);
			msg = xasprintf("removed trace instance '%s' left by a recorder that is "
					"gone", names[i]);
			append_warning(c, msg);
			free(msg);
		}
		bp_instance_unlock(names[i], fd);
	}
	tracefs_list_free(names);
}

void bp_capture_instance_name(char *buf, size_t size)
{
	struct stat st;

	/* Outside the initial PID namespace a pid is not unique on the machine. */
	if (stat("/proc/self/ns/pid", &st) == 0 && st.st_ino != 0xEFFFFFFCu)
		snprintf(buf, size, "bootprof-%d-ns%llu", (int)getpid(),
			 (unsigned long long)st.st_ino);
	else
		snprintf(buf, size, "bootprof-%d", (int)getpid());
}

/*
 * The wanted clock, else the closest this kernel has: "mono" counts from
 * boot too but stops during suspend; "local" is what every kernel has.
 */
static int set_clock(struct bp_capture *c, const char *wanted)
{
	const char *const fallbacks[] = { wanted, "mono", "local" };
	size_t i;

	for (i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
		if (tracefs_instance_file_write(c->instance, "trace_clock", fallbacks[i]) < 0)
			continue;
		c->clock = fallbacks[i];
		if (i) {
			char *msg = xasprintf("trace clock '%s' is not available; using '%s'",
					      wanted, fallbacks[i]);

			append_warning(c, msg);
			free(msg);
		}
		return 0;
	}
	bp_set_error_errno("cannot set the trace clock to '%s'", wanted);
	return -1;
}

/*
 * What a new or attached capture starts with: no descriptor open, its
 * semaphores (bp_capture_free destroys both), one slot per CPU. -1 when
 * the CPU count cannot be read (bp_set_error).
 */
static int capture_init(struct bp_capture *c)
{
	int i;

	c->lock_fd = -1;
	sem_init(&c->ready, 0, 0);
	sem_init(&c->flushed, 0, 0);
	/* How bp_capture_stop() wakes the recorder threads. */
	c->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->stop_fd < 0) {
		bp_set_error_errno("eventfd");
		return -1;
	}
	c->ncpus = bp_tracefs_ncpus();
	if (c->ncpus < 0)
		return -1;
	c->cpus = xcalloc((size_t)c->ncpus, sizeof(*c->cpus));
	for (i = 0; i < c->ncpus; i++) {
		c->cpus[i].raw_fd = -1;
		c->cpus[i].flush_fd = -1;
		c->cpus[i].pipe_fd[0] = c->cpus[i].pipe_fd[1] = -1;
	}
	return 0;
}

struct bp_capture *bp_capture_new(const struct bp_capture_config *cfg)
{
	struct bp_capture *c = xcalloc(1, sizeof(*c));
	char val[32];

	if (capture_init(c) < 0)
		goto out_free;

	remove_stale_instances(c);
	c->lock_fd = bp_instance_own(c, cfg->name);
	c->lock_name = xstrdup(cfg->name);
	if (c->lock_fd == -2) {
		c->lock_fd = -1;
		goto out_free;
	}
	if (tracefs_instance_exists(cfg->name)) {
		bp_set_error("trace instance '%s' already exists", cfg->name);
		goto out_free;
	}
	c->instance = tracefs_instance_create(cfg->name);
	if (!c->instance) {
		bp_set_error_errno("cannot create trace instance '%s'", cfg->name);
		goto out_free;
	}
	if (!tracefs_instance_is_new(c->instance)) {
		/* Someone else made it between the check and the mkdir: not ours. */
		tracefs_instance_free(c->instance);
		c->instance = NULL;
		bp_set_error("trace instance '%s' already exists", cfg->name);
		goto out_free;
	}
	/* A new instance starts with tracing on: off until every event is set up. */
	if (bp_instance_write(c->instance, "tracing_on", "0") < 0)
		goto out_free;
	if (set_clock(c, cfg->clock) < 0)
		goto out_free;
	snprintf(val, sizeof(val), "%zu", cfg->buffer_kb);
	if (bp_instance_write(c->instance, "buffer_size_kb", val) < 0)
		goto out_free;
	snprintf(val, sizeof(val), "%d", cfg->buffer_percent);
	if (tracefs_file_exists(c->instance, "buffer_percent") &&
	    bp_instance_write(c->instance, "buffer_percent", val) < 0)
		goto out_free;

	if (cfg->events) {
		if (resolve_named_events(c, cfg->events, cfg->nevents) < 0)
			goto out_free;
	} else {
		resolve_default_events(c);
	}
	if (!c->nevents) {
		bp_set_error("none of the requested events is available");
		goto out_free;
	}
	return c;

out_free:
	bp_capture_free(c);
	return NULL;
}

static char *read_clock(struct bp_capture *c);

struct bp_capture *bp_capture_attach(const char *name, int keep)
{
	const struct bp_event_spec *s;
	struct bp_capture *c = xcalloc(1, sizeof(*c));
	char *set = NULL, *line, *save = NULL;
	int len = 0;

	c->attached = 1;
	c->keep = keep;
	if (capture_init(c) < 0)
		goto out_free;
	if (name && !tracefs_instance_exists(name)) {
		bp_set_error("no trace instance '%s' (was the kernel booted with trace_instance=%s,...?)",
			     name, name);
		goto out_free;
	}
	/* Allocated, never created: the kernel made it at boot. */
	c->instance = tracefs_instance_alloc(NULL, name);
	if (!c->instance) {
		bp_set_error_errno("cannot open trace instance '%s'", name ? name : "(top level)");
		goto out_free;
	}
	if (tracefs_file_exists(c->instance, "buffer_percent"))
		tracefs_instance_file_write(c->instance, "buffer_percent", "25");
	/* What the boot enabled is what there is to read. */
	set = tracefs_instance_file_read(c->instance, "set_event", &len);
	for (line = set ? strtok_r(set, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon || colon == line || !colon[1])
			continue;
		*colon = '\0';
		add_event(c, line, colon + 1, 0);
	}
	free(set);
	if (!c->nevents) {
		bp_set_error("no events are enabled in trace instance '%s'",
			     name ? name : "(top level)");
		goto out_free;
	}
	for (s = bp_default_events; s->system; s++) {
		if (!feature_absent(s) && !event_exists(c->instance, s->system, s->event) &&
		    !(s->fallback && event_exists(c->instance, s->system, s->fallback)))
			add_unavailable(c, s->system, s->event);
	}
	c->clock_owned = read_clock(c);
	c->clock = c->clock_owned;
	return c;

out_free:
	/* Never remove what we did not create. */
	c->keep = 1;
	if (c->instance) {
		tracefs_instance_free(c->instance);
		c->instance = NULL;
	}
	bp_capture_free(c);
	return NULL;
}

void bp_capture_keep(struct bp_capture *c)
{
	c->keep = 1;
}

/* The clock an attached instance uses, as a heap string; NULL if unknown. */
static char *read_clock(struct bp_capture *c)
{
	char *text = tracefs_instance_file_read(c->instance, "trace_clock", NULL);
	char *open, *close_;
	char *clock = NULL;

	if (text && (open = strchr(text, '[')) && (close_ = strchr(open, ']'))) {
		*close_ = '\0';
		clock = xstrdup(open + 1);
	}
	free(text);
	return clock;
}

const char *bp_capture_clock(const struct bp_capture *c)
{
	return c->clock;
}

int bp_capture_marker_open(struct bp_capture *c)
{
	int fd = tracefs_instance_file_open(c->instance, "trace_marker", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		bp_set_error_errno("cannot open the trace_marker");
	return fd;
}

const char *bp_capture_warnings(const struct bp_capture *c)
{
	return c->warnings;
}

/* ---- filters ---- */

static char *syscall_condition(void)
{
	char *s = xstrdup("(");
	size_t i;

	for (i = 0; i < bp_nsyscalls; i++) {
		char *t = xasprintf("%s%sid == %d", s, i ? " || " : "", bp_syscalls[i].id);

		free(s);
		s = t;
	}
	{
		char *t = xasprintf("%s)", s);

		free(s);
		s = t;
	}
	return s;
}

/*
 * raw_syscalls events carry the filter on the I/O syscall ids; nothing
 * else is filtered. In particular nothing filters on the current task
 * (set_event_notrace_pid, common_pid): that also drops the interrupt-time
 * events of other tasks (block_rq_complete, sched_waking) that arrive
 * while a recorder thread runs. The recorder's own tids go into the
 * recording instead (BP_TASK_RECORDER), and analysis leaves them out.
 */
int bp_capture_set_filters(struct bp_capture *c)
{
	char *sc = syscall_condition();
	int ret = 0;
	size_t i;

	for (i = 0; i < c->nevents && !ret; i++) {
		struct recorded_event *e = &c->events[i];

		if (!e->syscall_filter)
			continue;
		if (tracefs_event_file_write(c->instance, e->system, e->event, "filter", sc) < 0) {
			bp_set_error_errno("cannot set the filter of '%s:%s'", e->system, e->event);
			ret = -1;
		}
	}
	free(sc);
	return ret;
}

/* ---- statistics ---- */

static int read_cpu_stat(struct bp_capture *c, int cpu, struct bp_cpu_stat *st)
{
	char path[64], *buf, *line, *save = NULL;
	int len = 0;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	buf = tracefs_instance_file_read(c->instance, path, &len);
	if (!buf) {
		bp_set_error_errno("cannot read '%s'", path);
		return -1;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		unsigned long long v;

		if (!colon || sscanf(colon + 1, "%llu", &v) != 1)
			continue;
		*colon = '\0';
		if (!strcmp(line, "entries"))
			st->entries = v;
		else if (!strcmp(line, "overrun"))
			st->overrun = v;
		else if (!strcmp(line, "commit overrun"))
			st->commit_overrun = v;
		else if (!strcmp(line, "dropped events"))
			st->dropped = v;
		else if (!strcmp(line, "read events"))
			st->read = v;
	}
	free(buf);
	return 0;
}

int bp_capture_has_event(const struct bp_capture *c, const char *system, const char *event)
{
	return has_event(c, system, event);
}

int bp_capture_counts(struct bp_capture *c, uint64_t *events, uint64_t *lost)
{
	struct bp_cpu_stat st;
	int i;

	*events = *lost = 0;
	for (i = 0; i < c->ncpus; i++) {
		if (read_cpu_stat(c, i, &st) < 0)
			continue; /* a CPU without a buffer */
		*events += st.entries + st.read;
		*lost += st.overrun + st.dropped;
	}
	return 0;
}

int bp_capture_fill_meta(struct bp_capture *c, struct bp_meta *meta)
{
	size_t i;
	int cpu, tgid;

	for (i = 0; i < c->nevents; i++) {
		char *name = xasprintf("%s:%s", c->events[i].system, c->events[i].event);

		bp_meta_add_event(meta, name, 1);
		free(name);
	}
	for (i = 0; i < c->nunavailable; i++)
		bp_meta_add_event(meta, c->unavailable[i], 0);
	/* The recorder's own tasks: events of theirs are its feedback, not the workload's. */
	tgid = bp_outer_tid(); /* called from the main thread: its tid is the tgid */
	bp_meta_add_task(meta, tgid, tgid, BP_TASK_RECORDER);
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		if (c->cpus[cpu].tid > 0)
			bp_meta_add_task(meta, c->cpus[cpu].tid, tgid, BP_TASK_RECORDER);
	}
	meta->ncpus = c->ncpus;
	free(meta->cpu_stats);
	meta->cpu_stats = xcalloc((size_t)c->ncpus, sizeof(*meta->cpu_stats));
	/* A CPU without a buffer keeps zeros. */
	for (cpu = 0; cpu < c->ncpus; cpu++)
		read_cpu_stat(c, cpu, &meta->cpu_stats[cpu]);
	return 0;
}

/* ---- headers ---- */

static int add_format(struct bp_trace_headers *h, size_t *cap, const char *system,
		      const char *event)
{
	struct bp_event_format *f;
	int len = 0;
	char *text = tracefs_event_file_read(NULL, system, event, "format", &len);

	if (!text || len <= 0) {
		free(text);
		bp_set_error_errno("cannot read the format of '%s:%s'", system, event);
		return -1;
	}
	BP_GROW(h->formats, h->nformats, *cap);
	f = &h->formats[h->nformats++];
	f->system = xstrdup(system);
	f->text = text;
	f->len = (size_t)len;
	return 0;
}

/* A top-level tracefs text, or NULL with *len 0 when the kernel lacks it. */
static char *read_optional(const char *file, size_t *len)
{
	int n = 0;
	char *buf = tracefs_instance_file_read(NULL, file, &n);

	*len = buf && n > 0 ? (size_t)n : 0;
	if (!*len) {
		free(buf);
		return NULL;
	}
	return buf;
}

int bp_capture_headers(struct bp_capture *c, struct bp_trace_headers *h)
{
	const char *dir = tracefs_tracing_dir();
	size_t cap = 0, i;
	char **ftrace;

	memset(h, 0, sizeof(*h));
	h->header_page = read_optional("events/header_page", &h->header_page_len);
	h->header_event = read_optional("events/header_event", &h->header_event_len);
	if (!h->header_page || !h->header_event) {
		bp_set_error("cannot read the ring-buffer page headers");
		goto out_release;
	}
	/* The ftrace system's formats (print, bprint ...) as trace-cmd stores them. */
	ftrace = tracefs_system_events(dir, "ftrace");
	for (i = 0; ftrace && ftrace[i]; i++) {
		if (add_format(h, &cap, "ftrace", ftrace[i]) < 0) {
			/* Some ftrace entries have no readable format: not needed. */
			continue;
		}
	}
	tracefs_list_free(ftrace);
	for (i = 0; i < c->nevents; i++) {
		if (add_format(h, &cap, c->events[i].system, c->events[i].event) < 0)
			goto out_release;
	}
	h->printk = read_optional("printk_formats", &h->printk_len);
	h->cmdlines = read_optional("saved_cmdlines", &h->cmdlines_len);
	h->tgids = read_optional("saved_tgids", &h->tgids_len);
	return 0;

out_release:
	bp_trace_headers_release(h);
	return -1;
}
