// SPDX-License-Identifier: GPL-2.0
/*
 * --until-exec: a second tiny instance holding only sched_process_exec,
 * filtered in the kernel on the program's name, whose trace_pipe becomes
 * readable at the first match.
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

struct bp_exec_watch *bp_exec_watch_new(const char *instance, const char *name)
{
	struct bp_exec_watch *x = xcalloc(1, sizeof(*x));
	char *iname = xasprintf("%s-exec", instance);
	char *filter = NULL;

	x->pipe_fd = -1;
	x->lock_fd = -1;
	x->name = xstrdup(iname);
	if (!*name || strpbrk(name, "\"\\/*?[]\n")) {
		bp_set_error("bad program name '%s' for --until-exec", name);
		goto out_free;
	}
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
	/* filename is the path exec'd: match its last component. */
	filter = xasprintf("filename ~ \"*/%s\" || filename == \"%s\"", name, name);
	if (bp_instance_write(x->instance, "tracing_on", "0") < 0 ||
	    bp_instance_write(x->instance, "buffer_size_kb", "16") < 0)
		goto out_free;
	/* poll() on trace_pipe then wakes at the first event, not at a fill level. */
	if (tracefs_file_exists(x->instance, "buffer_percent") &&
	    bp_instance_write(x->instance, "buffer_percent", "0") < 0)
		goto out_free;
	if (tracefs_event_file_write(x->instance, "sched", "sched_process_exec", "filter",
				     filter) < 0) {
		bp_set_error_errno("cannot watch for exec of '%s'", name);
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
	free(filter);
	free(iname);
	return x;

out_free:
	free(filter);
	free(iname);
	bp_exec_watch_free(x);
	return NULL;
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
