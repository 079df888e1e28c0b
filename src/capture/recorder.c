// SPDX-License-Identifier: GPL-2.0
/*
 * The live recorder: a private tracefs instance, one thread per CPU that
 * splices full ring-buffer pages into the recording, and a drain at stop.
 *
 * Each thread polls its trace_pipe_raw (which wakes at buffer_percent) and
 * an eventfd that says stop; it then splices whatever full pages are ready
 * with tracefs_cpu_write(). tracefs_cpu_pipe() is not used: in libtracefs
 * 1.6.4 it splices 0 bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture/internal.h"
#include "util/error.h"

/* ---- per-CPU threads ---- */

static void note_write_error(struct bp_capture *c, int err)
{
	int expected = 0;

	atomic_compare_exchange_strong(&c->write_error, &expected, err ? err : EIO);
}

/* Move n bytes from the splice pipe into the recording. 0, or -1 (recorded). */
static int pipe_out(struct cpu_recorder *r, size_t n)
{
	while (n > 0) {
		ssize_t w = splice(r->pipe_fd[0], NULL, r->out_fd, NULL, n, SPLICE_F_MOVE);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			note_write_error(r->capture, w < 0 ? errno : EIO);
			return -1;
		}
		r->bytes += (uint64_t)w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Splice every full page available, as many per call as the pipe holds:
 * few, large writes keep the recorder's own events (its syscalls, the
 * pages it writes, its wakeups), which are recorded too, a small share.
 * Returns 0 when nothing more is ready, -1 on a write error (recorded).
 */
static int splice_ready(struct cpu_recorder *r)
{
	for (;;) {
		ssize_t n = splice(r->raw_fd, NULL, r->pipe_fd[1], NULL, r->pipe_size,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			if (pipe_out(r, (size_t)n) < 0)
				return -1;
			continue;
		}
		if (n == 0 || errno == EAGAIN || errno == EINTR)
			return 0;
		/* ENODEV/EBUSY: the buffer is going away (instance removal). */
		if (errno == ENODEV)
			return 0;
		note_write_error(r->capture, errno);
		return -1;
	}
}

/*
 * The full pages, then the partly filled reader page: after tracing is
 * off, or while it runs when bp_capture_flush() asks.
 */
static void drain(struct cpu_recorder *r, int final)
{
	int n;

	if (splice_ready(r) < 0)
		return;
	for (;;) {
		n = tracefs_cpu_flush_write(r->tcpu, r->out_fd);
		/*
		 * While tracing runs, this very write makes new events (the
		 * recorder is traced too): take what is there once, or the
		 * flush would chase its own tail.
		 */
		if (n > 0) {
			r->bytes += (uint64_t)n;
			if (final)
				continue;
			break;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR && errno != ENODEV)
			note_write_error(r->capture, errno);
		break;
	}
}

/*
 * This thread's id as /proc (and, with the host's /proc, the trace) counts
 * it: the first NSpid of /proc/thread-self/status. In a PID namespace
 * gettid() is the namespace's number, not the one events carry.
 */
pid_t bp_outer_tid(void)
{
	char buf[2048], *line;
	ssize_t n = -1;
	int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);
	long v;

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n > 0) {
		buf[n] = '\0';
		line = strstr(buf, "\nNSpid:");
		if (line && sscanf(line + 7, "%ld", &v) == 1 && v > 0)
			return (pid_t)v;
	}
	return gettid();
}

static void *recorder_main(void *arg)
{
	struct cpu_recorder *r = arg;
	struct bp_capture *c = r->capture;
	struct pollfd p[3];
	uint64_t count;

	r->tid = bp_outer_tid();
	sem_post(&c->ready);
	p[0].fd = r->raw_fd;
	p[0].events = POLLIN;
	p[1].fd = c->stop_fd;
	p[1].events = POLLIN;
	p[2].fd = r->flush_fd;
	p[2].events = POLLIN;
	while (!atomic_load(&c->write_error)) {
		/* The timeout only bounds how stale the progress line gets. */
		int n = poll(p, 3, 1000);

		if (n < 0 && errno != EINTR) {
			note_write_error(c, errno);
			break;
		}
		if (p[1].revents & POLLIN)
			break;
		if (p[2].revents & POLLIN) {
			if (read(r->flush_fd, &count, sizeof(count)) == sizeof(count))
				drain(r, 0);
			sem_post(&c->flushed);
			continue;
		}
		if (splice_ready(r) < 0)
			break;
	}
	if (!atomic_load(&c->write_error))
		drain(r, 1);
	return NULL;
}

/*
 * Like tracefs_cpu_open(), but the descriptor is ours: the thread polls it
 * together with the stop eventfd, and it is opened close-on-exec.
 */
static int open_cpu(struct bp_capture *c, struct cpu_recorder *r, struct bp_writer *w, int cpu,
		    int page_size)
{
	char path[64];
	int size;

	r->capture = c;
	r->cpu = cpu;
	r->out_fd = bp_writer_cpu_fd(w, cpu);
	if (r->out_fd < 0)
		return -1;
	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	r->raw_fd = tracefs_instance_file_open(c->instance, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->raw_fd < 0 && (errno == ENODEV || errno == ENOENT))
		return 0; /* a possible CPU without a buffer: nothing to record */
	if (r->raw_fd < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		return -1;
	}
	r->tcpu = tracefs_cpu_alloc_fd(r->raw_fd, page_size, true);
	if (!r->tcpu) {
		bp_set_error_errno("cannot read '%s'", path);
		return -1;
	}
	r->flush_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->flush_fd < 0) {
		bp_set_error_errno("cannot create an eventfd");
		return -1;
	}
	if (pipe2(r->pipe_fd, O_CLOEXEC) < 0) {
		r->pipe_fd[0] = r->pipe_fd[1] = -1;
		bp_set_error_errno("cannot create a pipe");
		return -1;
	}
	/* 1 MiB (256 pages) per splice; the default 64 KiB when the limit is lower. */
	fcntl(r->pipe_fd[1], F_SETPIPE_SZ, 1 << 20);
	size = fcntl(r->pipe_fd[1], F_GETPIPE_SZ);
	r->pipe_size = size >= page_size ? (size_t)(size / page_size * page_size)
					 : (size_t)page_size;
	return 0;
}

int bp_capture_start(struct bp_capture *c, struct bp_writer *w)
{
	int page_size = bp_tracefs_page_size();
	sigset_t all, old;
	size_t i, started = 0;
	int cpu, err = 0;

	for (cpu = 0; cpu < c->ncpus; cpu++) {
		if (open_cpu(c, &c->cpus[cpu], w, cpu, page_size) < 0)
			return -1;
	}
	/* Signals belong to the main thread, which decides when to stop. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		if (!c->cpus[cpu].tcpu)
			continue;
		err = pthread_create(&c->cpus[cpu].thread, NULL, recorder_main, &c->cpus[cpu]);
		if (err)
			break;
		c->cpus[cpu].running = 1;
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < started; i++) {
		while (sem_wait(&c->ready) < 0 && errno == EINTR)
			;
	}
	if (err) {
		errno = err;
		bp_set_error_errno("cannot start a recorder thread");
		return -1;
	}
	if (bp_capture_set_filters(c) < 0)
		return -1;
	/* An attached buffer's events are the ones it has enabled (set_event). */
	for (i = 0; i < c->nevents && !c->attached; i++) {
		struct recorded_event *e = &c->events[i];

		if (tracefs_event_file_write(c->instance, e->system, e->event, "enable", "1") < 0) {
			bp_set_error_errno("cannot enable '%s:%s'", e->system, e->event);
			return -1;
		}
	}
	if (bp_instance_write(c->instance, "tracing_on", "1") < 0)
		return -1;
	return 0;
}

int bp_capture_stop(struct bp_capture *c)
{
	uint64_t one = 1;
	int i;

	if (c->instance)
		tracefs_instance_file_write(c->instance, "tracing_on", "0");
	if (c->stop_fd >= 0 && write(c->stop_fd, &one, sizeof(one)) < 0) {
		/* A fresh eventfd written once cannot overflow. */
	}
	for (i = 0; i < c->ncpus; i++) {
		if (!c->cpus[i].running)
			continue;
		pthread_join(c->cpus[i].thread, NULL);
		c->cpus[i].running = 0;
	}
	if (c->write_error) {
		errno = c->write_error;
		bp_set_error_errno("cannot write the recording");
		return -1;
	}
	return 0;
}

int bp_capture_flush(struct bp_capture *c)
{
	struct timespec deadline;
	uint64_t one = 1;
	int i, asked = 0;

	for (i = 0; i < c->ncpus; i++) {
		if (c->cpus[i].running && write(c->cpus[i].flush_fd, &one, sizeof(one)) > 0)
			asked++;
	}
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 2;
	while (asked > 0) {
		if (sem_timedwait(&c->flushed, &deadline) == 0)
			asked--;
		else if (errno != EINTR)
			break;
	}
	if (asked) {
		bp_set_error("the recorder threads did not flush in time");
		return -1;
	}
	if (c->write_error) {
		errno = c->write_error;
		bp_set_error_errno("cannot write the recording");
		return -1;
	}
	return 0;
}

int bp_capture_write_error(const struct bp_capture *c)
{
	return atomic_load(&c->write_error);
}

uint64_t bp_capture_bytes(const struct bp_capture *c)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < c->ncpus; i++)
		sum += atomic_load(&c->cpus[i].bytes);
	return sum;
}
