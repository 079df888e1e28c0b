// SPDX-License-Identifier: GPL-2.0
/*
 * Drain the buffer the kernel filled since boot (trace_instance= or
 * trace_event=) into a recording, optionally recording on until a stop
 * condition. The instance is attached, never created, and removed at the
 * end unless kept; the per-CPU overrun counters say how many of the oldest
 * events were overwritten before we got there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>
#include <event-parse.h>

#include "capture/boot.h"
#include "capture/capture.h"
#include "capture/cpu-use.h"
#include "capture/kallsyms.h"
#include "capture/schedstats.h"
#include "capture/stop.h"
#include "resolve/resolve.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/map.h"
#include "util/xalloc.h"

static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void warn(struct bp_boot_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct bp_boot_run *r, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (r->warn)
		r->warn(r->arg, msg);
	free(msg);
}

/*
 * The top-level buffer holds boot events when the kernel was booted with
 * trace_event= and events are still enabled there. Without the word, events
 * at the top level are someone else's: never take them over.
 */
static int top_level_has_boot_events(void)
{
	char cmdline[4096], *set;
	FILE *f = fopen("/proc/cmdline", "r");
	size_t n = f ? fread(cmdline, 1, sizeof(cmdline) - 1, f) : 0;
	int has;

	if (f)
		fclose(f);
	cmdline[n] = '\0';
	if (strncmp(cmdline, "trace_event=", 12) && !strstr(cmdline, " trace_event="))
		return 0;
	set = tracefs_instance_file_read(NULL, "set_event", NULL);
	has = set && *set && *set != '\n';
	free(set);
	return has;
}

static struct bp_capture *open_buffer(struct bp_boot_run *r)
{
	struct bp_capture_config cfg = { 0 };
	struct bp_capture *c;
	char name[64];

	if (r->instance || tracefs_instance_exists(BP_BOOT_INSTANCE)) {
		const char *name_ = r->instance ? r->instance : BP_BOOT_INSTANCE;

		c = bp_capture_attach(name_, r->keep);
		if (c) {
			r->buffer = xasprintf("instance %s", name_);
			r->attached = 1;
		}
		return c;
	}
	if (top_level_has_boot_events()) {
		c = bp_capture_attach(NULL, r->keep);
		if (c) {
			r->buffer = xstrdup("top level");
			r->attached = 1;
		}
		return c;
	}
	if (!r->create) {
		bp_set_error("no boot-time trace buffer: no instance '" BP_BOOT_INSTANCE
			     "', and no trace_event= on the kernel command line (boot with "
			     "the words 'bootprof cmdline' prints)");
		return NULL;
	}
	bp_capture_instance_name(name, sizeof(name));
	cfg.name = name;
	cfg.buffer_kb = r->buffer_kb ? r->buffer_kb : 8192;
	cfg.buffer_percent = 25;
	cfg.clock = "boot";
	c = bp_capture_new(&cfg);
	if (c)
		r->buffer = xasprintf("instance %s (created after boot)", name);
	return c;
}

/*
 * 1 when the buffer holds every fork and clone since the kernel started:
 * a boot buffer nothing was overwritten in yet. Then no thread predates
 * the events, and walking /proc at start (some milliseconds of CPU at
 * boot under emulation) adds nothing; the walk at stop still runs.
 */
static int events_since_boot(const struct bp_boot_run *r, struct bp_capture *c)
{
	uint64_t events, lost;

	return r->attached && bp_capture_has_event(c, "sched", "sched_process_fork") &&
	       bp_capture_counts(c, &events, &lost) == 0 && !lost;
}

/* Wait for a stop condition; sets r->stop_reason. -1 when watching failed. */
static int wait_for_stop(struct bp_boot_run *r, struct bp_capture *c, struct bp_exec_watch *xw,
			 struct bp_args *args)
{
	struct bp_stop stop = { 0 };

	if (!r->duration && !r->until_exec && !r->until_file) {
		r->stop_reason = xstrdup("drained");
		return 0;
	}
	stop.signal = r->stop_signal;
	stop.capture = c;
	stop.duration = r->duration;
	stop.until_file = r->until_file;
	stop.root_prefix = r->root_prefix;
	stop.exec_watch = xw;
	stop.until_exec = r->until_exec;
	stop.args = args;
	r->stop_reason = bp_stop_wait(&stop);
	return r->stop_reason ? 0 : -1;
}

/* The addresses initcall events name, as (address, 0) keys of funcs. */
static void initcall_funcs(struct bp_reader *reader, struct bp_map *funcs)
{
	struct tep_handle *tep = bp_reader_tep(reader);
	struct bp_event ev;

	while (bp_reader_next(reader, &ev) == 1) {
		struct tep_format_field *f;

		if (!ev.format || !ev.format->system || strcmp(ev.format->system, "initcall"))
			continue;
		f = tep_find_field(ev.format, "func");
		if (!f || f->offset + f->size > ev.size)
			continue;
		bp_map_put(funcs, tep_read_number(tep, (const char *)ev.data + f->offset, f->size), 0,
			   NULL);
	}
}

/*
 * The /proc/kallsyms lines that name the initcall functions the recording
 * holds (bp_kallsyms_keep(): the kernel image's symbols and their bounds),
 * so reports print "ext4_init_fs" rather than an address, without storing
 * the whole symbol table. A module's init is named by its module_load
 * event instead. Leaves h->kallsyms NULL when there are none.
 */
static void add_initcall_symbols(struct bp_writer *w, struct bp_trace_headers *h)
{
	struct bp_reader *reader = bp_writer_reader(w, h);
	uint64_t *addrs = NULL;
	size_t n = 0, cap = 0, i, len, kept_len;
	char *text, *kept;
	const struct bp_map_slot *slot;
	struct bp_map funcs;

	if (!reader)
		return;
	bp_map_init(&funcs);
	initcall_funcs(reader, &funcs);
	bp_reader_free(reader);
	for (i = 0; bp_map_next(&funcs, &i, &slot);) {
		BP_GROW(addrs, n + 1, cap);
		addrs[n++] = slot->k1;
	}
	bp_map_release(&funcs);
	text = n ? bp_kallsyms_read(&len) : NULL;
	if (text) {
		kept = bp_kallsyms_keep(text, len, addrs, n, &kept_len);
		free(text);
		if (kept) {
			free(h->kallsyms);
			h->kallsyms = kept;
			h->kallsyms_len = kept_len;
		}
	}
	free(addrs);
}

int bp_boot_record(struct bp_boot_run *r)
{
	struct bp_trace_headers headers = { 0 };
	struct bp_schedstats schedstats = BP_SCHEDSTATS_INIT;
	struct bp_exec_watch *xw = NULL;
	struct bp_args *args = NULL;
	struct bp_capture *c = NULL;
	struct bp_writer *w = NULL;
	struct bp_reader *reader;
	struct bp_meta meta;
	struct bp_cpu_use cpu_start = { 0, 0 };
	char watch[64], argwatch[64];
	int ncpus, page_size, mounted, write_err, ret = -1;

	bp_meta_init(&meta);
	if (bp_tracefs_ready(&mounted) < 0)
		goto out;
	ncpus = bp_tracefs_ncpus();
	if (ncpus < 0)
		goto out;
	page_size = bp_tracefs_page_size();
	/* The output first: an unwritable or existing file fails before anything is read. */
	w = bp_writer_create(r->output, r->force, ncpus, page_size);
	if (!w)
		goto out;
	c = open_buffer(r);
	if (!c)
		goto out_abort;
	if (bp_capture_warnings(c))
		warn(r, "%s", bp_capture_warnings(c));
	if (r->until_exec) {
		bp_capture_instance_name(watch, sizeof(watch));
		xw = bp_exec_watch_new(watch, r->until_exec);
		if (!xw)
			goto out_abort;
	}
	meta.start_ns = r->attached ? 0 : boottime_ns();
	/* The boot buffer's events began at boot: the system's CPU time too. */
	if (!r->attached)
		bp_cpu_use_now(&cpu_start);
	/* Which process each thread belongs to, for threads made before the events. */
	if (!events_since_boot(r, c) && bp_resolve_tasks(&meta, "/proc") < 0)
		warn(r, "%s", bp_last_error());
	/* Turned on at boot (schedstats=enable) or by the system; never changed here. */
	bp_schedstats_look(&schedstats);
	/* The command lines of what runs now and of what is exec'd while waiting. */
	bp_capture_instance_name(argwatch, sizeof(argwatch));
	args = bp_args_new(c, argwatch);
	if (!args)
		warn(r, "no command lines: %s", bp_last_error());
	else
		bp_args_snapshot(args, bp_capture_clock(c) && !strcmp(bp_capture_clock(c), "boot") ?
					       boottime_ns() : 0);
	if (bp_capture_start(c, w) < 0)
		goto out_abort;
	if (args && bp_args_drain(args) < 0)
		warn(r, "%s", bp_last_error());
	if (wait_for_stop(r, c, xw, args) < 0)
		goto out_abort;
	bp_exec_watch_free(xw);
	xw = NULL;
	if (args && bp_args_drain(args) < 0)
		warn(r, "%s", bp_last_error());
	bp_args_free(args);
	args = NULL;
	bp_capture_stop(c);
	if (bp_schedstats_check(&schedstats) < 0)
		warn(r, "%s", bp_last_error());
	meta.stop_ns = boottime_ns();
	bp_cpu_use_to_meta(&meta, &cpu_start);
	write_err = bp_capture_write_error(c);
	r->bytes = bp_capture_bytes(c);

	if (bp_capture_headers(c, &headers) < 0)
		goto out_abort;
	if (bp_capture_fill_meta(c, &meta) < 0)
		goto out_abort;
	if (bp_resolve_tasks(&meta, "/proc") < 0)
		warn(r, "%s", bp_last_error());
	meta.bootprof_version = xstrdup(BOOTPROF_VERSION);
	meta.clock = bp_capture_clock(c) ? xstrdup(bp_capture_clock(c)) : NULL;
	if (!meta.clock)
		meta.clock = xstrdup("local");
	meta.stop_reason = xstrdup(r->stop_reason);
	meta.ncpus = ncpus;
	meta.page_size = page_size;
	meta.fault_around_bytes = r->fault_around_bytes;
	meta.schedstats = schedstats.state;
	meta.schedstats_by = schedstats.by;
	r->lost = bp_meta_lost_events(&meta);
	bp_capture_free(c);
	c = NULL;

	if (r->before_save && r->before_save(r->arg) < 0)
		goto out_abort;
	if (bp_resolve_system(&meta) < 0)
		warn(r, "%s", bp_last_error());
	reader = write_err ? NULL : bp_writer_reader(w, &headers);
	if (reader) {
		if (bp_resolve_paths(&meta, reader, NULL) < 0)
			warn(r, "cannot name the files read: %s", bp_last_error());
		bp_reader_free(reader);
		add_initcall_symbols(w, &headers);
	}
	if (bp_writer_finish(w, &headers, &meta) < 0)
		goto out;
	if (write_err) {
		errno = write_err;
		bp_set_error_errno("cannot write '%s'; kept the events recorded until then",
				   r->output);
		goto out;
	}
	ret = 0;
	goto out;

out_abort:
	{
		/* Keep the reason across the cleanup, which may set errors of its own. */
		char *why = xstrdup(bp_last_error());

		bp_exec_watch_free(xw);
		xw = NULL;
		bp_args_free(args);
		args = NULL;
		/* What the kernel recorded since boot cannot be had again: keep it. */
		if (c)
			bp_capture_keep(c);
		bp_capture_free(c);
		c = NULL;
		bp_writer_abort(w);
		bp_set_error("%s", why);
		free(why);
	}
out:
	bp_exec_watch_free(xw);
	bp_capture_free(c);
	bp_writer_free(w);
	bp_trace_headers_release(&headers);
	bp_meta_release(&meta);
	return ret;
}

void bp_boot_run_release(struct bp_boot_run *r)
{
	free(r->buffer);
	free(r->stop_reason);
	r->buffer = r->stop_reason = NULL;
}

int bp_boot_log_create(char *path, size_t size)
{
	time_t now = time(NULL);
	char name[64];
	struct tm tm;
	int fd = -1, i;

	if (mkdir(BP_BOOT_LOG_DIR, 0700) < 0 && errno != EEXIST) {
		bp_set_error_errno("cannot create '%s'", BP_BOOT_LOG_DIR);
		return -1;
	}
	gmtime_r(&now, &tm);
	strftime(name, sizeof(name), "boot-%Y%m%d-%H%M%S", &tm);
	for (i = 0; i < 100 && fd < 0; i++) {
		if (i)
			snprintf(path, size, BP_BOOT_LOG_DIR "/%s-%d.dat", name, i);
		else
			snprintf(path, size, BP_BOOT_LOG_DIR "/%s.dat", name);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
		bp_set_error_errno("cannot create '%s'", path);
	return fd;
}

int bp_boot_log_link_latest(const char *path)
{
	const char *base = strrchr(path, '/');
	char tmp[96];

	snprintf(tmp, sizeof(tmp), BP_BOOT_LOG_DIR "/.latest-%d", (int)getpid());
	unlink(tmp);
	if (symlink(base ? base + 1 : path, tmp) < 0 ||
	    rename(tmp, BP_BOOT_LOG_DIR "/latest.dat") < 0) {
		bp_set_error_errno("cannot update '%s'", BP_BOOT_LOG_DIR "/latest.dat");
		unlink(tmp);
		return -1;
	}
	return 0;
}
