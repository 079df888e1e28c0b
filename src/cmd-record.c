// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof record: trace the default event set (docs/design.md, 'What is recorded') into a
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
#include "capture/cpu-use.h"
#include "capture/fault-around.h"
#include "capture/schedstats.h"
#include "capture/stop.h"
#include "resolve/resolve.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/run-command.h"
#include "util/signals.h"
#include "util/parse-options.h"
#include "util/units.h"
#include "util/xalloc.h"

static const char *const record_synopsis[] = {
	"bootprof record [-o FILE] [--force] [--duration T] [--until-exec NAME]",
	"                [--until-file PATH] [--buffer-size KB] [--events LIST]",
	"                [--exact-mmap] [--no-schedstats] [--no-args] [-- CMD...]",
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

struct record_opts {
	const char *output;
	int force;
	double duration;         /* seconds, 0: none */
	const char *until_exec;
	const char *until_file;
	size_t buffer_kb;
	char **events;           /* NULL: the defaults */
	size_t nevents;
	int exact_mmap;          /* fault-around at one page while recording */
	int no_schedstats;       /* leave kernel.sched_schedstats as it is */
	int no_args;             /* no command lines in the recording */
	char **cmd;              /* NULL-terminated, or NULL */
};

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
	const char *events = NULL;
	uint64_t duration = 0;
	int buffer_kb = DEFAULT_BUFFER_KB, status;
	const struct bp_option options[] = {
		OPT_STRING_C('o', "output", &o->output, "FILE", "the recording (default bootprof.dat)",
			     "@file"),
		OPT_FLAG('f', "force", &o->force, "replace an existing FILE"),
		OPT_TIME_RANGE('d', "duration", &duration, "T",
			       "stop after T (seconds, or 90s, 5min)", 1, 10000000 * BP_NS_PER_S),
		OPT_STRING_C(0, "until-exec", &o->until_exec, "NAME",
			     "stop when a program named NAME is exec'd", "@command"),
		OPT_STRING_C(0, "until-file", &o->until_file, "PATH", "stop when PATH exists",
			     "@file"),
		OPT_INT('b', "buffer-size", &buffer_kb, "KB", "ring buffer per CPU (default 8192)", 1,
			1 << 24),
		OPT_STRING_C('e', "events", &events, "LIST",
			     "record only these system:event names (comma-separated)",
			     "@live-events"),
		OPT_FLAG(0, "exact-mmap", &o->exact_mmap,
			 "fault-around off while recording (debugfs fault_around_bytes):\n"
			 "every touched page of a mapping faults, so used and never used\n"
			 "pages of mmap'd files are told apart"),
		OPT_FLAG(0, "no-schedstats", &o->no_schedstats,
			 "leave kernel.sched_schedstats as it is (usually 0); with\n"
			 "schedstats off, I/O wait is inferred, not the kernel's own count"),
		OPT_FLAG(0, "no-args", &o->no_args,
			 "record no command lines (read from /proc at the start and at\n"
			 "each exec); charts and tables then name programs only"),
		OPT_END(),
	};

	memset(o, 0, sizeof(*o));
	o->output = DEFAULT_OUTPUT;
	argc = bp_parse_options(argc, argv, options, &record_usage,
				BP_PARSE_STOP_AT_NON_OPTION, &status);
	if (argc < 0)
		return status;
	if (!*o->output)
		return bp_usage_error("record", "empty output file name");
	o->duration = (double)duration / 1e9;
	o->buffer_kb = (size_t)buffer_kb;
	if (o->until_file && !*o->until_file)
		return bp_usage_error("record", "empty --until-file path");
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

struct progress {
	struct bp_capture *capture;
	uint64_t start;          /* CLOCK_MONOTONIC ns */
};

/* The status line on a terminal, redrawn about twice a second. */
static void print_status(void *arg)
{
	struct progress *p = arg;
	uint64_t events = 0, lost = 0;
	double secs = (double)(now_ns(CLOCK_MONOTONIC) - p->start) / 1e9;

	bp_capture_counts(p->capture, &events, &lost);
	fprintf(stderr, "\r\033[K%8.1f s  %10llu events  %8.1f MB  %llu lost", secs,
		(unsigned long long)events,
		(double)bp_capture_bytes(p->capture) / (1024.0 * 1024.0), (unsigned long long)lost);
	fflush(stderr);
}

/*
 * A command still running when the recording stops is asked to finish, as
 * perf record does; one that ignores SIGTERM for END_GRACE_MS gets SIGKILL.
 */
#define END_GRACE_MS 3000

static void report_command_status(const struct bp_command *cmd)
{
	int st = cmd->status;

	if (!cmd->reaped)
		return;
	if (WIFEXITED(st) && WEXITSTATUS(st))
		bp_warn("'%s' exited with status %d", cmd->argv[0], WEXITSTATUS(st));
	else if (WIFSIGNALED(st) && WTERMSIG(st) != SIGTERM)
		bp_warn("'%s' was killed by %s", cmd->argv[0], bp_signal_name(WTERMSIG(st)));
}

/* Everything the recording carries besides the raw pages. */
static void fill_meta(struct bp_meta *meta, const struct record_opts *o, char **stop_reason,
		      const char *clock, int ncpus, int page_size, uint64_t start_ns,
		      uint64_t stop_ns)
{
	meta->bootprof_version = xstrdup(BOOTPROF_VERSION);
	meta->clock = xstrdup(clock);
	meta->stop_reason = *stop_reason;
	*stop_reason = NULL;
	meta->command = o->cmd ? join_words(o->cmd) : NULL;
	meta->ncpus = ncpus;
	meta->page_size = page_size;
	meta->start_ns = start_ns;
	meta->stop_ns = stop_ns;
}

/*
 * The recording file from the start (bp_writer_provisional): a recorder
 * killed from now on (kill -9, OOM, power cut) leaves a file that dump and
 * report read from its spool. Paths are found only at the end. Written
 * just before tracing starts, so it lists the recorder's process but not
 * yet its per-CPU threads.
 */
static int write_provisional(struct bp_writer *w, struct bp_capture *c,
			     const struct record_opts *o, const struct bp_meta *start, int ncpus,
			     int page_size, uint64_t start_ns)
{
	struct bp_trace_headers h = { 0 };
	char *not_finished = xstrdup("not finished");
	struct bp_meta m;
	size_t i;
	int ret = 0;

	bp_meta_init(&m);
	fill_meta(&m, o, &not_finished, bp_capture_clock(c), ncpus, page_size, start_ns, 0);
	m.fault_around_bytes = start->fault_around_bytes;
	m.schedstats = start->schedstats;
	m.schedstats_by = start->schedstats_by;
	for (i = 0; i < start->ntasks; i++)
		bp_meta_add_task(&m, start->tasks[i].tid, start->tasks[i].tgid,
				 start->tasks[i].flags);
	if (bp_capture_fill_meta(c, &m) < 0 || bp_resolve_system(&m) < 0 ||
	    bp_capture_headers(c, &h) < 0)
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

/*
 * Exit codes with -- CMD (bootprof-record(1)): CMD's own status when it
 * exited by itself (128 + N for signal N), 0 when the recording stopped it;
 * bootprof's own failures are told apart as env(1) and timeout(1) do.
 */
#define EXIT_RECORDER_FAILED 125
#define EXIT_CANNOT_EXEC 126
#define EXIT_NOT_FOUND 127

/* The exit status of a failure, once options are parsed. */
static int failure_code(const struct record_opts *o, const struct bp_command *cmd)
{
	if (!o->cmd)
		return BP_EXIT_FAILURE;
	if (cmd->exec_errno == ENOENT)
		return EXIT_NOT_FOUND;
	if (cmd->exec_errno)
		return EXIT_CANNOT_EXEC;
	return EXIT_RECORDER_FAILED;
}

int cmd_record(int argc, char **argv)
{
	struct bp_capture_config cfg = { 0 };
	struct bp_trace_headers headers = { 0 };
	struct bp_fault_around fault_around = BP_FAULT_AROUND_INIT;
	struct bp_schedstats schedstats = BP_SCHEDSTATS_INIT;
	struct bp_stop_signals old_sig;
	struct bp_exec_watch *xw = NULL;
	struct bp_args *args = NULL;
	struct bp_command cmd = { 0 };
	struct bp_stop stop = { 0 };
	struct progress progress = { 0 };
	struct bp_capture *c = NULL;
	struct bp_writer *w = NULL;
	struct bp_reader *reader;
	struct record_opts o;
	struct bp_meta meta;
	uint64_t start_ns, stop_ns, bytes;
	struct bp_cpu_use cpu_start;
	int ncpus, page_size, mounted, write_err, signals_caught = 0, tty;
	char *stop_reason = NULL;
	char name[64];
	int ret;

	bp_meta_init(&meta);
	cmd.pid = -1;
	cmd.go_fd = cmd.err_fd = -1;
	ret = parse_options(&o, argc, argv);
	if (ret != BP_OPTIONS_GO_ON)
		goto out_free_opts;
	ret = failure_code(&o, &cmd);
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
	bp_stop_signals_catch(&old_sig);
	signals_caught = 1;

	/* Before anything is written: a kernel that refuses fails the command here. */
	if (o.exact_mmap) {
		long set = bp_fault_around_exact(&fault_around);

		if (set < 0) {
			bp_error("--exact-mmap: %s", bp_last_error());
			goto out_release;
		}
		meta.fault_around_bytes = (uint64_t)set;
	}

	/* The output first: an unwritable or existing file fails before tracing. */
	w = bp_writer_create(o.output, o.force, ncpus, page_size);
	if (!w) {
		bp_error_last();
		goto out_release;
	}
	bp_capture_instance_name(name, sizeof(name));
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
	/* Without them the recording is still whole: the programs are named. */
	if (!o.no_args && !(args = bp_args_new(c, name)))
		bp_warn("no command lines: %s", bp_last_error());

	if (o.cmd) {
		cmd.argv = o.cmd;
		cmd.signals = &old_sig;
		if (bp_command_prepare(&cmd) < 0)
			goto out_abort;
	}
	if (bp_stop_signal) {
		bp_set_error("interrupted by %s before recording started",
			     bp_signal_name(bp_stop_signal));
		goto out_abort;
	}
	/*
	 * Which process each thread belongs to, for threads made before the
	 * events; read before tracing starts so the scan is not recorded.
	 */
	if (bp_resolve_tasks(&meta, "/proc") < 0)
		bp_warn("%s", bp_last_error());
	bp_resolve_asleep(&meta, "/proc", 0);
	if (args)
		bp_args_snapshot(args, trace_clock_now(bp_capture_clock(c)));
	/*
	 * Just before the events are enabled: a sleep that began with
	 * schedstats off is not reported (unless a stamp left from an
	 * earlier time they were on makes its delay reach back before the
	 * recording). Without them I/O wait is inferred, so a kernel that
	 * refuses is only warned about.
	 */
	if (o.no_schedstats)
		bp_schedstats_look(&schedstats);
	else if (bp_schedstats_on(&schedstats) < 0)
		bp_warn("cannot turn schedstats on: %s", bp_last_error());
	meta.schedstats = schedstats.state;
	meta.schedstats_by = schedstats.by;
	/* Its reads of /proc and /sys would be recorded too: before tracing. */
	start_ns = trace_clock_now(bp_capture_clock(c));
	if (write_provisional(w, c, &o, &meta, ncpus, page_size, start_ns) < 0)
		goto out_abort;
	bp_cpu_use_now(&cpu_start);
	if (bp_capture_start(c, w) < 0)
		goto out_abort;
	start_ns = trace_clock_now(bp_capture_clock(c));
	if (o.cmd) {
		meta.command_start_ns = trace_clock_now(bp_capture_clock(c));
		meta.command_pid = cmd.pid;
		if (bp_command_start(&cmd) < 0) {
			ret = failure_code(&o, &cmd);
			goto out_abort;
		}
	}
	/*
	 * The tasks asleep in D before tracing started and still now: their
	 * waits run from the start (a task that woke in between and fell
	 * asleep again has events that end it). After the command started,
	 * which this does not delay.
	 */
	bp_resolve_asleep(&meta, "/proc", 1);
	/* The command lines read before the start go in now. */
	if (args && bp_args_drain(args) < 0)
		bp_warn("%s", bp_last_error());

	tty = isatty(STDERR_FILENO);
	progress.capture = c;
	progress.start = now_ns(CLOCK_MONOTONIC);
	stop.signal = &bp_stop_signal;
	stop.capture = c;
	stop.duration = o.duration;
	stop.until_file = o.until_file;
	stop.exec_watch = xw;
	stop.until_exec = o.until_exec;
	stop.args = args;
	stop.child = o.cmd ? cmd.pid : 0;
	stop.progress = tty ? print_status : NULL;
	stop.arg = &progress;
	stop_reason = bp_stop_wait(&stop);
	if (tty)
		fputs("\r\033[K", stderr);
	if (stop.child_reaped) {
		bp_command_reaped(&cmd, stop.child_status);
		meta.command_end_ns = trace_clock_now(bp_capture_clock(c));
	}
	if (!stop_reason)
		goto out_abort;
	bp_exec_watch_free(xw);
	xw = NULL;
	if (args && bp_args_drain(args) < 0)
		bp_warn("%s", bp_last_error());
	bp_args_free(args);
	args = NULL;
	bp_capture_stop(c);
	stop_ns = trace_clock_now(bp_capture_clock(c));
	bp_cpu_use_to_meta(&meta, &cpu_start);
	/* Tracing stopped: the system gets its fault-around and schedstats back at once. */
	if (bp_fault_around_restore(&fault_around) < 0)
		bp_warn("%s", bp_last_error());
	if (bp_schedstats_check(&schedstats) < 0)
		bp_warn("%s; I/O wait is inferred instead", bp_last_error());
	meta.schedstats = schedstats.state;
	meta.schedstats_by = schedstats.by;
	if (bp_schedstats_restore(&schedstats) < 0)
		bp_warn("%s", bp_last_error());
	if (o.cmd && !cmd.reaped) {
		bp_command_finish(&cmd, END_GRACE_MS);
		/* Ended by us: it exited after the recording's end. */
		if (cmd.reaped)
			meta.command_end_ns = trace_clock_now(bp_capture_clock(c));
	}
	if (o.cmd)
		meta.command_status = cmd.reaped ? cmd.status : -1;
	write_err = bp_capture_write_error(c);
	bytes = bp_capture_bytes(c);

	if (bp_capture_headers(c, &headers) < 0)
		goto out_abort;
	fill_meta(&meta, &o, &stop_reason, bp_capture_clock(c), ncpus, page_size, start_ns,
		  stop_ns);
	if (bp_capture_fill_meta(c, &meta) < 0)
		goto out_abort;
	if (bp_resolve_tasks(&meta, "/proc") < 0)
		bp_warn("%s", bp_last_error());
	/* Tracing is over: remove the instance before the (longer) path search. */
	bp_capture_free(c);
	c = NULL;

	if (bp_resolve_system(&meta) < 0)
		bp_warn("%s", bp_last_error());
	/* After a failed write, finish what fits without scanning for paths. */
	reader = write_err ? NULL : bp_writer_reader(w, &headers);
	if (reader) {
		/* Another signal now cuts the path search short; the recording is kept. */
		bp_stop_signal = 0;
		if (bp_resolve_paths(&meta, reader, &bp_stop_signal) < 0)
			bp_warn("cannot name the files read: %s", bp_last_error());
		else if (bp_stop_signal)
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
	report_command_status(&cmd);
	ret = 0;
	/* The command's own status when it ended by itself, like time(1). */
	if (o.cmd && meta.stop_reason && !strcmp(meta.stop_reason, "command exited"))
		ret = bp_command_exit_code(&cmd);
	goto out_release;

out_abort:
	bp_error_last();
	/* Nothing usable was recorded: leave no file behind. */
	bp_command_finish(&cmd, END_GRACE_MS);
	bp_exec_watch_free(xw);
	xw = NULL;
	bp_args_free(args);
	args = NULL;
	bp_capture_free(c);
	c = NULL;
	bp_writer_abort(w);
out_release:
	bp_command_finish(&cmd, END_GRACE_MS);
	bp_exec_watch_free(xw);
	bp_args_free(args);
	bp_capture_free(c);
	if (bp_fault_around_restore(&fault_around) < 0)
		bp_warn("%s", bp_last_error());
	if (bp_schedstats_restore(&schedstats) < 0)
		bp_warn("%s", bp_last_error());
	if (signals_caught)
		bp_stop_signals_restore(&old_sig);
	bp_writer_free(w);
	bp_trace_headers_release(&headers);
	free(stop_reason);
out_free_opts:
	bp_meta_release(&meta);
	free_events(o.events, o.nevents);
	return ret;
}
