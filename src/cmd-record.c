// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof record: trace the default event set (DESIGN §4) into a
 * trace.dat recording until a command exits, a duration passes, a program
 * is exec'd, a file appears or a signal arrives.
 *
 * The tracefs instance is removed on every path: signal handlers only set
 * a flag, and the one loop below turns every stop into the same unwinding.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "capture/capture.h"
#include "resolve/resolve.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/xalloc.h"

static const char *const record_synopsis[] = {
	"bootprof record [-o FILE] [--force] [--duration S] [--until-exec NAME]",
	"                [--until-file PATH] [--buffer-size KB] [--events LIST] [-- CMD...]",
	NULL,
};

static const struct bp_usage record_usage = {
	"record",
	record_synopsis,
	"Record block, filemap, readahead, scheduler and I/O syscall tracepoints into a\n"
	"trace.dat recording (as root). Stops when CMD exits, after --duration seconds,\n"
	"when a program named NAME is exec'd, when PATH exists, or on SIGINT/SIGTERM/SIGHUP.\n",
	NULL,
	NULL, /* the command after "--": completions complete it as a command line */
};

#define DEFAULT_OUTPUT "bootprof.dat"
#define DEFAULT_BUFFER_KB 8192
#define BUFFER_PERCENT 25
#define TICK_MS 10
#define STATUS_MS 500

struct record_opts {
	const char *output;
	int force;
	double duration;         /* seconds, 0: none */
	const char *until_exec;
	const char *until_file;
	size_t buffer_kb;
	char **events;           /* NULL: the defaults */
	size_t nevents;
	char **cmd;              /* NULL-terminated, or NULL */
};

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

static void catch_signals(struct sigaction *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	for (i = 0; i < NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, &old[i]);
}

static void restore_signals(const struct sigaction *old)
{
	size_t i;

	for (i = 0; i < NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &old[i], NULL);
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Now on the trace clock, when user space can read it; 0 (unknown) else. */
static uint64_t trace_clock_now(const char *clock)
{
	if (!strcmp(clock, "boot"))
		return now_ns(CLOCK_BOOTTIME);
	if (!strcmp(clock, "mono"))
		return now_ns(CLOCK_MONOTONIC);
	return 0;
}

static void free_events(char **events, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(events[i]);
	free(events);
}

static int split_events(struct record_opts *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	size_t cap = 0;

	free_events(o->events, o->nevents);
	o->events = NULL;
	o->nevents = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		BP_GROW(o->events, o->nevents, cap);
		o->events[o->nevents++] = xstrdup(tok);
	}
	free(copy);
	return o->nevents ? 0 : -1;
}

/* BP_OPTIONS_GO_ON, or the exit status to return (-h, a usage error). */
static int parse_options(struct record_opts *o, int argc, char **argv)
{
	const char *duration = NULL, *buffer = NULL, *events = NULL;
	char *end;
	int status;
	const struct bp_option options[] = {
		OPT_STRING_C('o', "output", &o->output, "FILE", "the recording (default bootprof.dat)",
			     "@file"),
		OPT_FLAG('f', "force", &o->force, "replace an existing FILE"),
		OPT_STRING('d', "duration", &duration, "S", "stop after S seconds"),
		OPT_STRING_C(0, "until-exec", &o->until_exec, "NAME",
			     "stop when a program named NAME is exec'd", "@command"),
		OPT_STRING_C(0, "until-file", &o->until_file, "PATH", "stop when PATH exists",
			     "@file"),
		OPT_STRING('b', "buffer-size", &buffer, "KB", "ring buffer per CPU (default 8192)"),
		OPT_STRING_C('e', "events", &events, "LIST",
			     "record only these system:event names (comma-separated)",
			     "@live-events"),
		OPT_END(),
	};

	memset(o, 0, sizeof(*o));
	o->output = DEFAULT_OUTPUT;
	o->buffer_kb = DEFAULT_BUFFER_KB;
	argc = bp_parse_options(argc, argv, options, &record_usage,
				BP_PARSE_STOP_AT_NON_OPTION, &status);
	if (argc < 0)
		return status;
	if (!*o->output)
		return bp_usage_error("record", "empty output file name");
	if (duration) {
		errno = 0;
		o->duration = strtod(duration, &end);
		if (errno || end == duration || *end || !(o->duration > 0) || o->duration > 1e7)
			return bp_usage_error("record", "bad duration '%s'", duration);
	}
	if (o->until_file && !*o->until_file)
		return bp_usage_error("record", "empty --until-file path");
	if (buffer) {
		unsigned long long kb;

		errno = 0;
		kb = strtoull(buffer, &end, 10);
		if (errno || end == buffer || *end || !kb || kb > (1ull << 24) || buffer[0] == '-')
			return bp_usage_error("record", "bad buffer size '%s'", buffer);
		o->buffer_kb = (size_t)kb;
	}
	if (events && split_events(o, events) < 0)
		return bp_usage_error("record", "empty event list");
	if (argc > 0)
		o->cmd = argv;
	return BP_OPTIONS_GO_ON;
}

static char *join_words(char **words)
{
	char *s = xstrdup("");
	size_t i;

	for (i = 0; words[i]; i++) {
		char *t = xasprintf("%s%s%s", s, i ? " " : "", words[i]);

		free(s);
		s = t;
	}
	return s;
}

/*
 * The command is forked before the recorder opens its ring buffers and
 * pipes, so it inherits none of them (a daemon holding one would keep the
 * instance busy), and waits on a pipe until tracing is on. A second,
 * close-on-exec pipe reports an exec failure (errno), so "no such
 * command" fails the recording instead of looking like status 127.
 */
struct command {
	pid_t pid;
	int go_fd;     /* write end: one byte starts the command, EOF cancels it */
	int err_fd;    /* read end: errno of a failed exec, or EOF on success */
};

static int prepare_command(struct command *cmd, char **argv, const struct sigaction *old)
{
	int go[2], err[2];
	char byte;

	cmd->pid = -1;
	cmd->go_fd = cmd->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0) {
		bp_set_error_errno("pipe");
		return -1;
	}
	if (pipe2(err, O_CLOEXEC) < 0) {
		bp_set_error_errno("pipe");
		close(go[0]);
		close(go[1]);
		return -1;
	}
	cmd->pid = fork();
	if (cmd->pid < 0) {
		bp_set_error_errno("cannot fork");
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -1;
	}
	if (cmd->pid == 0) {
		int e;

		close(go[1]);
		close(err[0]);
		restore_signals(old);
		if (read(go[0], &byte, 1) != 1)
			_exit(127); /* recording failed to start */
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0) {
			/* The parent then sees status 127. */
		}
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	cmd->go_fd = go[1];
	cmd->err_fd = err[0];
	return 0;
}

/* Let the command exec; returns -1 when it could not. */
static int run_command(struct command *cmd, const char *name)
{
	ssize_t n;
	int err = 0;

	if (write(cmd->go_fd, "g", 1) != 1) {
		bp_set_error_errno("cannot start '%s'", name);
		return -1;
	}
	close(cmd->go_fd);
	cmd->go_fd = -1;
	do {
		n = read(cmd->err_fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(cmd->err_fd);
	cmd->err_fd = -1;
	if (n == sizeof(err)) {
		errno = err;
		bp_set_error_errno("cannot run '%s'", name);
		return -1;
	}
	return 0;
}

/* Close the pipes; a command never started then exits without exec. */
static void release_command(struct command *cmd)
{
	if (cmd->go_fd >= 0)
		close(cmd->go_fd);
	if (cmd->err_fd >= 0)
		close(cmd->err_fd);
	cmd->go_fd = cmd->err_fd = -1;
}

static void print_status(struct bp_capture *c, uint64_t start, int final)
{
	uint64_t events = 0, lost = 0;
	double secs = (double)(now_ns(CLOCK_MONOTONIC) - start) / 1e9;

	bp_capture_counts(c, &events, &lost);
	fprintf(stderr, "\r\033[K%8.1f s  %10llu events  %8.1f MB  %llu lost%s", secs,
		(unsigned long long)events, (double)bp_capture_bytes(c) / (1024.0 * 1024.0),
		(unsigned long long)lost, final ? "\r\033[K" : "");
	fflush(stderr);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	}
	return "signal";
}

struct run_state {
	pid_t child;
	int child_status;        /* valid once child is reaped (child == 0) */
	int child_reaped;
	char *stop_reason;
};

/* Wait for a stop condition. Returns 0, or -1 when watching itself failed. */
static int wait_for_stop(const struct record_opts *o, struct bp_capture *c,
			 struct bp_exec_watch *xw, struct run_state *rs)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC), last_status = 0;
	int tty = isatty(STDERR_FILENO);
	struct stat st;

	for (;;) {
		uint64_t now = now_ns(CLOCK_MONOTONIC);
		struct timespec tick = { 0, TICK_MS * 1000000L };

		if (stop_signal) {
			rs->stop_reason = xasprintf("signal %s", signal_name(stop_signal));
			break;
		}
		if (bp_capture_write_error(c)) {
			rs->stop_reason = xstrdup("write error");
			break;
		}
		if (rs->child > 0 && waitpid(rs->child, &rs->child_status, WNOHANG) == rs->child) {
			rs->child = 0;
			rs->child_reaped = 1;
			rs->stop_reason = xstrdup("command exited");
			break;
		}
		if (o->duration > 0 && (double)(now - start) >= o->duration * 1e9) {
			rs->stop_reason = xstrdup("duration");
			break;
		}
		if (o->until_file && stat(o->until_file, &st) == 0) {
			rs->stop_reason = xasprintf("file %s appeared", o->until_file);
			break;
		}
		if (xw) {
			int seen = bp_exec_watch_seen(xw);

			if (seen < 0)
				return -1;
			if (seen) {
				rs->stop_reason = xasprintf("exec of %s", o->until_exec);
				break;
			}
		}
		if (tty && now - last_status >= STATUS_MS * 1000000ull) {
			print_status(c, start, 0);
			last_status = now;
		}
		nanosleep(&tick, NULL);
	}
	if (tty)
		print_status(c, start, 1);
	return 0;
}

/*
 * Ask a command still running to finish, as perf record does, and reap it;
 * one that ignores SIGTERM for END_GRACE_MS gets SIGKILL.
 */
#define END_GRACE_MS 3000

static void end_command(struct run_state *rs)
{
	struct timespec tick = { 0, TICK_MS * 1000000L };
	int waited = 0;
	pid_t got;

	if (rs->child <= 0)
		return;
	kill(rs->child, SIGTERM);
	for (;;) {
		got = waitpid(rs->child, &rs->child_status, WNOHANG);
		if (got == rs->child || (got < 0 && errno != EINTR))
			break;
		if (waited == END_GRACE_MS)
			kill(rs->child, SIGKILL);
		nanosleep(&tick, NULL);
		waited += TICK_MS;
	}
	rs->child_reaped = got == rs->child;
	rs->child = 0;
}

static void report_command_status(const struct run_state *rs, const char *name)
{
	int st = rs->child_status;

	if (!rs->child_reaped)
		return;
	if (WIFEXITED(st) && WEXITSTATUS(st))
		bp_warn("'%s' exited with status %d", name, WEXITSTATUS(st));
	else if (WIFSIGNALED(st) && WTERMSIG(st) != SIGTERM)
		bp_warn("'%s' was killed by signal %d", name, WTERMSIG(st));
}

/* Everything the recording carries besides the raw pages. */
static void fill_meta(struct bp_meta *meta, const struct record_opts *o, struct run_state *rs,
		      const char *clock, int ncpus, int page_size, uint64_t start_ns,
		      uint64_t stop_ns)
{
	meta->bootprof_version = xstrdup(BOOTPROF_VERSION);
	meta->clock = xstrdup(clock);
	meta->stop_reason = rs->stop_reason;
	rs->stop_reason = NULL;
	meta->command = o->cmd ? join_words(o->cmd) : NULL;
	meta->ncpus = ncpus;
	meta->page_size = page_size;
	meta->start_ns = start_ns;
	meta->stop_ns = stop_ns;
}

/*
 * The recording file from the start (bp_writer_provisional): a recorder
 * killed from now on (kill -9, OOM, power cut) leaves a file that dump and
 * report read from its spool. Paths are found only at the end.
 */
static int write_provisional(struct bp_writer *w, struct bp_capture *c,
			     const struct record_opts *o, int ncpus, int page_size,
			     uint64_t start_ns)
{
	struct bp_trace_headers h = { 0 };
	struct run_state none = { 0 };
	struct bp_meta m;
	int ret = 0;

	bp_meta_init(&m);
	fill_meta(&m, o, &none, bp_capture_clock(c), ncpus, page_size, start_ns, 0);
	m.stop_reason = xstrdup("not finished");
	if (bp_resolve_system(&m) < 0 || bp_capture_headers(c, &h) < 0)
		bp_warn("no provisional recording: %s", bp_last_error());
	else
		ret = bp_writer_provisional(w, &h, &m); /* a full disk fails now */
	bp_trace_headers_release(&h);
	bp_meta_release(&m);
	return ret;
}

/* One "bootprof: warning:" line per line of text. */
static void print_warnings(const char *text)
{
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		int len = nl ? (int)(nl - text) : (int)strlen(text);

		bp_warn("%.*s", len, text);
		text += len + (nl ? 1 : 0);
	}
}

static void print_summary(const struct record_opts *o, const struct bp_meta *meta,
			  uint64_t bytes)
{
	uint64_t lost = bp_meta_lost_events(meta), events = 0;
	int i;

	for (i = 0; meta->cpu_stats && i < meta->ncpus; i++)
		events += meta->cpu_stats[i].read + meta->cpu_stats[i].entries;
	fprintf(stderr,
		"bootprof: wrote '%s': %llu events (%.1f MB), %zu files named, %llu unnamed; "
		"stopped: %s\n",
		o->output, (unsigned long long)events, (double)bytes / (1024.0 * 1024.0),
		meta->npaths, (unsigned long long)meta->unresolved,
		meta->stop_reason ? meta->stop_reason : "unknown");
	if (lost)
		bp_warn("%llu events lost (ring buffer overrun); try a larger --buffer-size",
			(unsigned long long)lost);
}

int cmd_record(int argc, char **argv)
{
	struct bp_capture_config cfg = { 0 };
	struct bp_trace_headers headers = { 0 };
	struct sigaction old_sig[NSTOP_SIGNALS];
	struct bp_exec_watch *xw = NULL;
	struct run_state rs = { 0 };
	struct command cmd = { -1, -1, -1 };
	struct bp_capture *c = NULL;
	struct bp_writer *w = NULL;
	struct bp_reader *reader;
	struct record_opts o;
	struct bp_meta meta;
	uint64_t start_ns, stop_ns, bytes;
	int ncpus, page_size, mounted, write_err, signals_caught = 0;
	char name[64];
	int ret;

	bp_meta_init(&meta);
	ret = parse_options(&o, argc, argv);
	if (ret != BP_OPTIONS_GO_ON)
		goto out_free_opts;
	ret = BP_EXIT_FAILURE;
	if (geteuid() != 0) {
		bp_error("record needs root (tracefs)");
		goto out_free_opts;
	}
	/* A tracefs mounted here stays mounted: harmless, and others may use it. */
	if (bp_tracefs_ready(&mounted) < 0) {
		bp_error_last();
		goto out_free_opts;
	}
	if (mounted)
		bp_warn("mounted tracefs at /sys/kernel/tracing");
	ncpus = bp_tracefs_ncpus();
	if (ncpus < 0) {
		bp_error_last();
		goto out_free_opts;
	}
	page_size = bp_tracefs_page_size();

	/* From here on a signal only asks to stop, so every path unwinds. */
	catch_signals(old_sig);
	signals_caught = 1;

	/* The output first: an unwritable or existing file fails before tracing. */
	w = bp_writer_create(o.output, o.force, ncpus, page_size);
	if (!w) {
		bp_error_last();
		goto out_release;
	}
	snprintf(name, sizeof(name), "bootprof-%d", (int)getpid());
	cfg.name = name;
	cfg.events = o.events;
	cfg.nevents = o.nevents;
	cfg.buffer_kb = o.buffer_kb;
	cfg.buffer_percent = BUFFER_PERCENT;
	cfg.clock = "boot";
	c = bp_capture_new(&cfg);
	if (!c)
		goto out_abort;
	print_warnings(bp_capture_warnings(c));
	if (o.until_exec) {
		xw = bp_exec_watch_new(name, o.until_exec);
		if (!xw)
			goto out_abort;
	}

	if (o.cmd) {
		if (prepare_command(&cmd, o.cmd, old_sig) < 0)
			goto out_abort;
		rs.child = cmd.pid;
	}
	if (stop_signal) {
		bp_set_error("interrupted by %s before recording started",
			     signal_name(stop_signal));
		goto out_abort;
	}
	if (bp_capture_start(c, w) < 0)
		goto out_abort;
	start_ns = trace_clock_now(bp_capture_clock(c));
	if (write_provisional(w, c, &o, ncpus, page_size, start_ns) < 0)
		goto out_abort;
	if (o.cmd && run_command(&cmd, o.cmd[0]) < 0)
		goto out_abort;
	if (wait_for_stop(&o, c, xw, &rs) < 0)
		goto out_abort;
	bp_exec_watch_free(xw);
	xw = NULL;
	bp_capture_stop(c);
	stop_ns = trace_clock_now(bp_capture_clock(c));
	end_command(&rs);
	write_err = bp_capture_write_error(c);
	bytes = bp_capture_bytes(c);

	if (bp_capture_headers(c, &headers) < 0)
		goto out_abort;
	fill_meta(&meta, &o, &rs, bp_capture_clock(c), ncpus, page_size, start_ns, stop_ns);
	if (bp_capture_fill_meta(c, &meta) < 0)
		goto out_abort;
	/* Tracing is over: remove the instance before the (longer) path search. */
	bp_capture_free(c);
	c = NULL;

	if (bp_resolve_system(&meta) < 0)
		bp_warn("%s", bp_last_error());
	/* After a failed write, finish what fits without scanning for paths. */
	reader = write_err ? NULL : bp_writer_reader(w, &headers);
	if (reader) {
		/* Another signal now cuts the path search short; the recording is kept. */
		stop_signal = 0;
		if (bp_resolve_paths(&meta, reader, &stop_signal) < 0)
			bp_warn("cannot name the files read: %s", bp_last_error());
		else if (stop_signal)
			bp_warn("path search interrupted; %llu files left unnamed",
				(unsigned long long)meta.unresolved);
		bp_reader_free(reader);
	} else if (!write_err) {
		bp_warn("cannot scan the recording for files: %s", bp_last_error());
	}

	if (bp_writer_finish(w, &headers, &meta) < 0) {
		bp_error("cannot write '%s': %s", o.output, bp_last_error());
		goto out_release;
	}
	if (write_err) {
		bp_error("cannot write '%s': %s; kept the events recorded until then", o.output,
			 strerror(write_err));
		goto out_release;
	}
	print_summary(&o, &meta, bytes);
	report_command_status(&rs, o.cmd ? o.cmd[0] : "");
	ret = 0;
	goto out_release;

out_abort:
	bp_error_last();
	/* Nothing usable was recorded: leave no file behind. */
	release_command(&cmd);
	end_command(&rs);
	bp_exec_watch_free(xw);
	xw = NULL;
	bp_capture_free(c);
	c = NULL;
	bp_writer_abort(w);
out_release:
	release_command(&cmd);
	end_command(&rs);
	bp_exec_watch_free(xw);
	bp_capture_free(c);
	if (signals_caught)
		restore_signals(old_sig);
	bp_writer_free(w);
	bp_trace_headers_release(&headers);
	free(rs.stop_reason);
out_free_opts:
	bp_meta_release(&meta);
	free_events(o.events, o.nevents);
	return ret;
}
