// SPDX-License-Identifier: GPL-2.0
/*
 * Exec watches: a second tiny instance holding only sched_process_exec,
 * whose trace_pipe becomes readable at each event. --until-exec filters it
 * in the kernel on the program's name; the argument watch takes them all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture/internal.h"
#include "util/error.h"
#include "util/xalloc.h"

/* ---- the exec watch ---- */

struct bp_exec_watch {
	struct tracefs_instance *instance;
	char *name;
	int pipe_fd;
	int lock_fd;
	char line[4096];  /* a trace_pipe line not yet ended */
	size_t nline;
};

void bp_exec_watch_free(struct bp_exec_watch *x)
{
	if (!x)
		return;
	if (x->pipe_fd >= 0)
		close(x->pipe_fd);
	if (x->instance)
		bp_instance_remove(x->instance);
	if (x->lock_fd >= 0)
		bp_instance_unlock(x->name, x->lock_fd);
	free(x->name);
	free(x);
}

/*
 * The instance "<instance>-<suffix>" holding only sched_process_exec,
 * under @filter (NULL: every exec), whose trace_pipe wakes at each event.
 */
static struct bp_exec_watch *watch_new(const char *instance, const char *suffix,
				       const char *filter)
{
	struct bp_exec_watch *x = xcalloc(1, sizeof(*x));
	char *iname = xasprintf("%s-%s", instance, suffix);

	x->pipe_fd = -1;
	x->lock_fd = -1;
	x->name = iname;
	x->lock_fd = bp_instance_own(NULL, iname);
	if (x->lock_fd == -2) {
		x->lock_fd = -1;
		goto out_free;
	}
	if (tracefs_instance_exists(iname)) {
		bp_set_error("trace instance '%s' already exists", iname);
		goto out_free;
	}
	x->instance = tracefs_instance_create(iname);
	if (!x->instance) {
		bp_set_error_errno("cannot create trace instance '%s'", iname);
		goto out_free;
	}
	if (!tracefs_instance_is_new(x->instance)) {
		tracefs_instance_free(x->instance);
		x->instance = NULL;
		bp_set_error("trace instance '%s' already exists", iname);
		goto out_free;
	}
	if (bp_instance_write(x->instance, "tracing_on", "0") < 0 ||
	    bp_instance_write(x->instance, "buffer_size_kb", filter ? "16" : "256") < 0)
		goto out_free;
	/* poll() on trace_pipe then wakes at the first event, not at a fill level. */
	if (tracefs_file_exists(x->instance, "buffer_percent") &&
	    bp_instance_write(x->instance, "buffer_percent", "0") < 0)
		goto out_free;
	if (filter && tracefs_event_file_write(x->instance, "sched", "sched_process_exec",
					       "filter", filter) < 0) {
		bp_set_error_errno("cannot filter 'sched:sched_process_exec'");
		goto out_free;
	}
	if (tracefs_event_file_write(x->instance, "sched", "sched_process_exec", "enable", "1") <
	    0) {
		bp_set_error_errno("cannot enable 'sched:sched_process_exec'");
		goto out_free;
	}
	x->pipe_fd = tracefs_instance_file_open(x->instance, "trace_pipe",
						O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (x->pipe_fd < 0) {
		bp_set_error_errno("cannot open the exec watch");
		goto out_free;
	}
	if (bp_instance_write(x->instance, "tracing_on", "1") < 0)
		goto out_free;
	return x;

out_free:
	bp_exec_watch_free(x);
	return NULL;
}

struct bp_exec_watch *bp_exec_watch_new(const char *instance, const char *name)
{
	struct bp_exec_watch *x;
	char *filter;

	if (!*name || strpbrk(name, "\"\\/*?[]\n")) {
		bp_set_error("bad program name '%s' for --until-exec", name);
		return NULL;
	}
	/* filename is the path exec'd: match its last component. */
	filter = xasprintf("filename ~ \"*/%s\" || filename == \"%s\"", name, name);
	x = watch_new(instance, "exec", filter);
	free(filter);
	return x;
}

struct bp_exec_watch *bp_exec_watch_all(const char *instance)
{
	return watch_new(instance, "args", NULL);
}

/*
 * The pid of one trace_pipe line: "... sched_process_exec: filename=PATH
 * pid=N old_pid=M"; the path may hold anything, so the fields are taken
 * from the end.
 */
static int exec_line_pid(char *line)
{
	char *old = strstr(line, "sched_process_exec: ");
	char *p, *end;
	long pid;

	old = old ? strrchr(old, ' ') : NULL;
	if (!old || strncmp(old, " old_pid=", 9))
		return -1;
	*old = 0;
	p = strrchr(line, ' ');
	if (!p || strncmp(p, " pid=", 5))
		return -1;
	pid = strtol(p + 5, &end, 10);
	return *end || pid <= 0 || pid > (1 << 22) ? -1 : (int)pid;
}

int bp_exec_watch_pids(struct bp_exec_watch *x, void (*fn)(int pid, void *arg), void *arg)
{
	for (;;) {
		ssize_t n = read(x->pipe_fd, x->line + x->nline, sizeof(x->line) - 1 - x->nline);
		char *p, *nl;

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n < 0) {
			bp_set_error_errno("cannot read the exec watch");
			return -1;
		}
		if (n == 0)
			return 0;
		x->nline += (size_t)n;
		x->line[x->nline] = 0;
		for (p = x->line; (nl = strchr(p, '\n')); p = nl + 1) {
			int pid;

			*nl = 0;
			pid = exec_line_pid(p);
			if (pid > 0)
				fn(pid, arg);
		}
		/* A line longer than the buffer (a huge path) is dropped whole. */
		x->nline = p == x->line && x->nline == sizeof(x->line) - 1 ? 0 :
			   x->nline - (size_t)(p - x->line);
		memmove(x->line, p, x->nline);
	}
}

int bp_exec_watch_seen(struct bp_exec_watch *x)
{
	char buf[512];
	ssize_t n = read(x->pipe_fd, buf, sizeof(buf));

	if (n > 0)
		return 1;
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		bp_set_error_errno("cannot read the exec watch");
		return -1;
	}
	return 0;
}

int bp_exec_watch_fd(const struct bp_exec_watch *x)
{
	return x->pipe_fd;
}
