// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof init: run as PID 1 (init=/usr/local/bin/bootprof-init, rdinit=, or a
 * bootprof-init link). PID 1 mounts what it needs, forks the recorder and
 * execs the real init at once; the recorder drains the boot-time buffer
 * (or records from now), stops on a condition, waits for the real root to
 * be writable and saves /var/log/bootprof/boot-YYYYMMDD-HHMMSS.dat with a
 * latest.dat link.
 *
 * It never prevents a boot: whatever fails, the real init is exec'd and
 * the reason goes to the kernel log as "bootprof: ...".
 *
 * The recorder keeps its data in a tmpfs mounted in a private mount
 * namespace (invisible to the system, gone when it exits) and holds no
 * file of the initramfs open, so switch_root can empty it. It is the
 * forked child of PID 1 as it is, not re-exec'd: its code pages are the
 * ones PID 1 already ran. Its binary stays mapped, so a deleted initramfs
 * copy keeps its pages until the recorder exits; a copy of the binary to
 * exec from would hold as much memory, cost a copy's worth of CPU at boot,
 * and under emulation the translation of every code page again. argv[0]
 * starts with '@' so systemd's initrd transition leaves the recorder alive
 * (systemd.io/ROOT_STORAGE_DAEMONS).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "capture/boot-once.h"
#include "capture/boot.h"
#include "capture/fault-around.h"
#include "replay/preload.h"
#include "util/error.h"
#include "util/signals.h"
#include "util/install.h"
#include "util/parse-options.h"
#include "util/units.h"
#include "util/xalloc.h"

static const char *const init_synopsis[] = {
	"bootprof init   (as PID 1: init=/path/to/bootprof-init, or a link named bootprof-init)",
	NULL,
};

static const struct bp_usage init_usage = {
	"init",
	init_synopsis,
	"Record the boot from PID 1: mount /proc, /sys, tracefs and /dev when absent,\n"
	"fork a recorder, and exec the real init at once. The recorder drains the\n"
	"boot-time trace buffer ('bootprof cmdline' words; else it records from\n"
	"now), stops on a condition, and once the root file system is writable saves\n"
	"/var/log/bootprof/boot-YYYYMMDD-HHMMSS.dat and a latest.dat link.\n"
	"Any failure is logged to the kernel log and the real init still runs.\n",
	"Kernel command-line options:\n"
	"  bootprof.init=PATH        the real init (default /sbin/init)\n"
	"  bootprof.until-exec=NAME  stop when a program named NAME is exec'd\n"
	"  bootprof.until-file=PATH  stop when PATH exists (as PID 1 sees it)\n"
	"  bootprof.duration=T       stop after T (seconds, or 90s, 5min; default 60)\n"
	"  bootprof.buffer-size=KB   ring buffer per CPU when recording without a\n"
	"                            boot-time buffer (default 8192)\n"
	"  bootprof.save-timeout=T   give up saving when the root is not writable\n"
	"                            T after the stop (default 600 s)\n"
	"  bootprof.replay=PACK      preload a readahead pack meanwhile (bootprof-replay(1))\n"
	"  bootprof.exact-mmap=1     fault-around off until the recording stops (as\n"
	"                            record --exact-mmap)\n"
	"  bootprof.once=1           once saved, remove the boot entry of\n"
	"                            'bootprof boot --once' (bootprof-boot(1))\n",
	NULL,
};

#define DEFAULT_INIT "/sbin/init"
#define SPOOL_NAME "boot.dat"

struct init_opts {
	char init[256];
	char until_exec[64];
	char until_file[256];
	double duration;
	size_t buffer_kb;
	double save_timeout;
	int test;           /* bootprof.test=1: honour bootprof.fault= */
	int exact_mmap;     /* bootprof.exact-mmap=1: fault-around at one page */
	int once;           /* bootprof.once=1: remove the entry of 'bootprof boot --once' */
	unsigned long fault_around_saved; /* its value before PID 1 set it, 0: not set */
	char fault[64];
	char warnings[1024];/* problems found while parsing, logged by the recorder */
};

/* ---- the kernel log ---- */

static int kmsg_fd = -1;

static void kmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void kmsg(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "<5>bootprof: ");
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	if (buf[n - 1] != '\n')
		buf[n++] = '\n';
	if (kmsg_fd < 0)
		kmsg_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (kmsg_fd < 0 || write(kmsg_fd, buf, (size_t)n) < 0) {
		/* Nowhere to say it; the console at least. */
		if (write(STDERR_FILENO, buf + 3, (size_t)n - 3) < 0)
			return;
	}
}

/* ---- PID 1 ---- */

static uint64_t boottime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000ull + (uint64_t)ts.tv_nsec / 1000;
}

static void mount_if_absent(const char *probe, const char *type, const char *dir)
{
	if (access(probe, F_OK) == 0)
		return;
	mkdir(dir, 0755);
	mount(type, dir, type, MS_NOSUID | MS_NOEXEC | (strcmp(type, "devtmpfs") ? MS_NODEV : 0),
	      NULL);
}

static void add_warning(struct init_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(struct init_opts *o, const char *fmt, ...)
{
	size_t len = strlen(o->warnings);
	va_list ap;

	if (len + 2 >= sizeof(o->warnings))
		return;
	va_start(ap, fmt);
	vsnprintf(o->warnings + len, sizeof(o->warnings) - len - 1, fmt, ap);
	va_end(ap);
	strcat(o->warnings, "\n");
}

static void set_string(struct init_opts *o, char *dst, size_t size, const char *key,
		       const char *val)
{
	if (!*val || strlen(val) >= size) {
		add_warning(o, "ignoring bad %s='%s'", key, val);
		return;
	}
	strcpy(dst, val);
}

/* bootprof.duration=T, bootprof.save-timeout=T: a time (1.5, 90s, 5min), up to 1e6 s. */
static double parse_time(struct init_opts *o, const char *key, const char *val, double dflt)
{
	uint64_t ns;

	if (bp_parse_time(val, &ns) || !ns || ns > 1000000 * BP_NS_PER_S) {
		add_warning(o, "ignoring bad %s='%s'", key, val);
		return dflt;
	}
	return (double)ns / 1e9;
}

/* bootprof.* words of /proc/cmdline; other words are the kernel's or init's. */
static void parse_cmdline(struct init_opts *o, char *cmdline)
{
	char *save = NULL, *word;

	for (word = strtok_r(cmdline, " \t\n", &save); word; word = strtok_r(NULL, " \t\n", &save)) {
		char *eq, *key = word;
		const char *val = "";

		if (strncmp(word, "bootprof.", 9))
			continue;
		eq = strchr(word, '=');
		if (eq) {
			*eq = '\0';
			val = eq + 1;
		}
		if (!strcmp(key, "bootprof.init")) {
			if (val[0] != '/')
				add_warning(o, "ignoring bootprof.init='%s' (not an absolute path)", val);
			else
				set_string(o, o->init, sizeof(o->init), key, val);
		} else if (!strcmp(key, "bootprof.until-exec")) {
			set_string(o, o->until_exec, sizeof(o->until_exec), key, val);
		} else if (!strcmp(key, "bootprof.until-file")) {
			set_string(o, o->until_file, sizeof(o->until_file), key, val);
		} else if (!strcmp(key, "bootprof.duration")) {
			o->duration = parse_time(o, key, val, o->duration);
		} else if (!strcmp(key, "bootprof.save-timeout")) {
			o->save_timeout = parse_time(o, key, val, o->save_timeout);
		} else if (!strcmp(key, "bootprof.buffer-size")) {
			uint64_t kb;

			if (bp_parse_count(val, 4 * 1024 * 1024, &kb) || kb < 4)
				add_warning(o, "ignoring bad %s='%s'", key, val);
			else
				o->buffer_kb = (size_t)kb;
		} else if (!strcmp(key, "bootprof.exact-mmap")) {
			o->exact_mmap = !strcmp(val, "1");
		} else if (!strcmp(key, "bootprof.once")) {
			o->once = !strcmp(val, "1");
		} else if (!strcmp(key, "bootprof.test")) {
			o->test = !strcmp(val, "1");
		} else if (!strcmp(key, "bootprof.fault")) {
			set_string(o, o->fault, sizeof(o->fault), key, val);
		} else if (!strcmp(key, "bootprof.replay")) {
			/* read by bp_replay_boot() */
		} else {
			add_warning(o, "ignoring unknown option '%s'", key);
		}
	}
}

static void read_options(struct init_opts *o)
{
	char cmdline[4096];
	ssize_t n = -1;
	int fd;

	memset(o, 0, sizeof(*o));
	strcpy(o->init, DEFAULT_INIT);
	o->duration = 60;
	o->buffer_kb = 8192;
	o->save_timeout = 600;
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, cmdline, sizeof(cmdline) - 1);
		close(fd);
	}
	if (n < 0) {
		add_warning(o, "cannot read /proc/cmdline: %s; using defaults", strerror(errno));
		return;
	}
	cmdline[n] = '\0';
	parse_cmdline(o, cmdline);
	/* Test faults only under the test switch, so a stray word cannot break recording. */
	if (o->fault[0] && !o->test) {
		add_warning(o, "ignoring bootprof.fault= without bootprof.test=1");
		o->fault[0] = '\0';
	}
}

static int fault(const struct init_opts *o, const char *name)
{
	return o->test && !strcmp(o->fault, name);
}

/* ---- the recorder ---- */

struct recorder {
	const struct init_opts *opts;
	struct bp_fault_around fault_around; /* PID 1's change, undone at the stop */
	int ns_fd;              /* the system's mount namespace */
	int spool_fd;           /* our tmpfs directory */
	struct stat first_root; /* "/" when we started */
	int in_initramfs;
};

static void log_warning(void *arg, const char *msg)
{
	char *copy = xstrdup(msg), *save = NULL, *line;

	(void)arg;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		kmsg("warning: %s", line);
	free(copy);
}

static int sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	return nanosleep(&ts, NULL);
}

static void restore_fault_around(struct recorder *rec)
{
	if (bp_fault_around_restore(&rec->fault_around) < 0)
		kmsg("warning: bootprof.exact-mmap: %s", bp_last_error());
}

/*
 * Wait for the system's real root: PID 1 leaves the initramfs (switch_root),
 * then /var/log is there and writable. Enter PID 1's mount namespace and
 * root, where the recording is saved and paths are resolved.
 */
static int enter_real_root(void *arg)
{
	struct recorder *rec = arg;
	double waited = 0, limit = rec->opts->save_timeout;
	struct statvfs sv;
	struct stat st;

	/* Tracing stopped: the system gets its fault-around back now. */
	restore_fault_around(rec);

	while (rec->in_initramfs) {
		if (stat("/proc/1/root/", &st) == 0 &&
		    (st.st_dev != rec->first_root.st_dev || st.st_ino != rec->first_root.st_ino))
			break;
		if (waited >= limit) {
			kmsg("PID 1 stayed in the initramfs; saving there");
			break;
		}
		sleep_ms(100);
		waited += 0.1;
	}
	if (setns(rec->ns_fd, CLONE_NEWNS) < 0) {
		bp_set_error_errno("cannot enter the system's mount namespace");
		return -1;
	}
	/* PID 1 may have chroot'ed below the namespace's root. */
	if (chroot("/proc/1/root") < 0 && errno != ENOENT)
		kmsg("warning: cannot enter PID 1's root: %s", strerror(errno));
	if (chdir("/") < 0)
		return -1;
	for (;;) {
		if (statvfs("/var/log", &sv) == 0 && !(sv.f_flag & ST_RDONLY))
			return 0;
		if (waited >= limit) {
			bp_set_error("/var/log is not writable %.0f s after the stop", limit);
			return -1;
		}
		sleep_ms(200);
		waited += 0.2;
	}
}

static int copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t n, w, done;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (done = 0; done < n; done += w) {
			w = write(out, buf + done, (size_t)(n - done));
			if (w < 0) {
				if (errno == EINTR) {
					w = 0;
					continue;
				}
				return -1;
			}
		}
	}
	return fsync(out);
}

/* Copy the finished recording from our tmpfs to the log directory; set *path. */
static int save(struct recorder *rec, char *path, size_t size)
{
	int in, out;

	in = openat(rec->spool_fd, SPOOL_NAME, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		bp_set_error_errno("cannot read the recording back");
		return -1;
	}
	out = bp_boot_log_create(path, size);
	if (out < 0) {
		close(in);
		return -1;
	}
	if (copy_fd(in, out) < 0) {
		bp_set_error_errno("cannot write '%s'", path);
		close(in);
		close(out);
		unlink(path);
		return -1;
	}
	close(in);
	close(out);
	if (bp_boot_log_link_latest(path) < 0)
		kmsg("warning: %s", bp_last_error());
	return 0;
}

/* A tmpfs for the data, mounted on a directory only this namespace sees. */
static int private_spool(struct recorder *rec)
{
	static const char *const dirs[] = { "/run", "/tmp", "/mnt", "/var/tmp", "/dev" };
	struct statfs sfs;
	size_t i;

	if (unshare(CLONE_NEWNS) < 0) {
		bp_set_error_errno("cannot make a private mount namespace");
		return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		bp_set_error_errno("cannot make the mounts private");
		return -1;
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (statfs(dirs[i], &sfs) < 0)
			continue;
		if (mount("bootprof", dirs[i], "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "mode=0700,size=50%") < 0)
			continue;
		rec->spool_fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (rec->spool_fd >= 0)
			return 0;
	}
	bp_set_error("no directory to mount a tmpfs on for the recording");
	return -1;
}

static void detach(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	setsid();
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (chdir("/") < 0) {
		/* "/" always exists. */
	}
}

/*
 * The boot of 'bootprof boot --once' is recorded: remove its boot loader
 * entry (we are in PID 1's root now), so no later boot is recorded.
 */
static void remove_once_entry(void)
{
	const char *what;

	if (bp_once_remove("/", &what) < 0)
		kmsg("cannot remove the one-shot boot entry: %s", bp_last_error());
	else if (*what)
		kmsg("removed %s", what);
}

static int recorder_run(struct recorder *rec, char *argv0)
{
	const struct init_opts *o = rec->opts;
	struct bp_boot_run run = { 0 };
	struct bp_stop_signals old;
	struct statfs sfs;
	char path[256];

	detach();
	prctl(PR_SET_NAME, "bootprof-rec");
	if (argv0)
		argv0[0] = '@';
	bp_stop_signals_catch(&old); /* for good: this process only records */
	signal(SIGPIPE, SIG_IGN);

	if (o->warnings[0])
		log_warning(NULL, o->warnings);
	if (fault(o, "no-tracefs")) {
		kmsg("cannot record the boot: tracefs is not available (bootprof.fault=no-tracefs)");
		return 1;
	}
	stat("/", &rec->first_root);
	rec->in_initramfs = statfs("/", &sfs) == 0 &&
			   ((unsigned int)sfs.f_type == 0x858458f6 /* ramfs */ ||
					 (unsigned int)sfs.f_type == 0x01021994 /* tmpfs */);
	rec->ns_fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (rec->ns_fd < 0) {
		kmsg("cannot record the boot: cannot open /proc/self/ns/mnt: %s", strerror(errno));
		return 1;
	}
	if (private_spool(rec) < 0) {
		kmsg("cannot record the boot: %s", bp_last_error());
		return 1;
	}
	run.create = 1;
	run.buffer_kb = o->buffer_kb;
	run.duration = o->duration;
	run.until_exec = o->until_exec[0] ? o->until_exec : NULL;
	run.until_file = o->until_file[0] ? o->until_file : NULL;
	run.root_prefix = "/proc/1/root";
	run.stop_signal = &bp_stop_signal;
	snprintf(path, sizeof(path), "/proc/self/fd/%d/" SPOOL_NAME, rec->spool_fd);
	run.output = path;
	if (o->fault_around_saved)
		run.fault_around_bytes = (uint64_t)sysconf(_SC_PAGESIZE);
	run.before_save = enter_real_root;
	run.arg = rec;
	run.warn = log_warning;
	if (bp_boot_record(&run) < 0) {
		kmsg("cannot record the boot: %s", bp_last_error());
		bp_boot_run_release(&run);
		return 1;
	}
	if (save(rec, path, sizeof(path)) < 0) {
		kmsg("cannot save the recording: %s", bp_last_error());
		bp_boot_run_release(&run);
		return 1;
	}
	kmsg("saved %s from the %s (%.1f MB of events, stopped: %s, %llu events lost)", path,
	     run.buffer, (double)run.bytes / (1024.0 * 1024.0), run.stop_reason,
	     (unsigned long long)run.lost);
	bp_boot_run_release(&run);
	if (o->once)
		remove_once_entry();
	return 0;
}

static int recorder_main(const struct init_opts *o, char *argv0)
{
	struct recorder rec = { 0 };
	int ret;

	rec.opts = o;
	rec.ns_fd = rec.spool_fd = -1;
	rec.fault_around.fd = -1;
	rec.fault_around.saved = o->fault_around_saved;
	ret = recorder_run(&rec, argv0);
	/* Every way out: what PID 1 set for the recording does not outlive it. */
	restore_fault_around(&rec);
	return ret;
}

/* exec the real init; the fallbacks are the kernel's own. Returns only on failure. */
static void exec_init(const char *init, int argc, char **argv)
{
	static const char *const fallbacks[] = { "/sbin/init", "/etc/init", "/bin/init", "/bin/sh" };
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	size_t i;
	int j;

	if (!args)
		return;
	for (j = 1; j < argc; j++)
		args[j] = argv[j];
	args[0] = (char *)init;
	execv(init, args);
	kmsg("cannot exec %s: %s", init, strerror(errno));
	for (i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
		args[0] = (char *)fallbacks[i];
		execv(fallbacks[i], args);
	}
	free(args);
}

int cmd_init(int argc, char **argv)
{
	uint64_t t0 = boottime_us(), t_mounted, t_forked;
	struct bp_fault_around fault_around = BP_FAULT_AROUND_INIT;
	struct init_opts o;
	int nsys = 0;
	pid_t pid;

	if (getpid() != 1) {
		/* Options only outside PID 1: the kernel's arguments belong to init. */
		const struct bp_option options[] = { OPT_END() };
		char path[4096];
		int status;

		if (bp_parse_options(argc, argv, options, &init_usage, 0, &status) < 0)
			return status;
		return bp_error("init runs as process 1 (init=%s on the kernel command line)",
				bp_installed_init(path, sizeof(path)));
	}
	mount_if_absent("/proc/self", "proc", "/proc");
	mount_if_absent("/sys/kernel", "sysfs", "/sys");
	mount_if_absent("/dev/null", "devtmpfs", "/dev");
	read_options(&o);
	/* Syscall context from the real init's first instruction. */
	if (bp_boot_enable_syscalls(BP_BOOT_INSTANCE, &nsys) < 0)
		kmsg("warning: no syscall events before init: %s", bp_last_error());
	/* Before init runs, so its first mmap is exact too; the recorder restores it. */
	if (o.exact_mmap && bp_fault_around_exact(&fault_around) < 0)
		kmsg("warning: bootprof.exact-mmap: %s; recording with fault-around",
		     bp_last_error());
	o.fault_around_saved = fault_around.saved;
	t_mounted = boottime_us();

	pid = fork();
	if (pid == 0) {
		/* The recorder: never returns into PID 1's code. */
		if (fault(&o, "crash-recorder"))
			raise(SIGKILL);
		_exit(recorder_main(&o, argv[0]));
	}
	t_forked = boottime_us();
	if (pid < 0) {
		kmsg("cannot start the recorder: %s", strerror(errno));
		/* No recording: the system keeps its own fault-around. */
		if (bp_fault_around_restore(&fault_around) < 0)
			kmsg("warning: bootprof.exact-mmap: %s", bp_last_error());
	}
	/* The recorder restores it when the recording stops: only close the knob here. */
	fault_around.saved = 0;
	bp_fault_around_restore(&fault_around);
	kmsg("exec %s %llu us after start (mounts, options and %d syscall events on %llu us, "
	     "fork %llu us)", o.init, (unsigned long long)(boottime_us() - t0), nsys,
	     (unsigned long long)(t_mounted - t0), (unsigned long long)(t_forked - t_mounted));
	if (kmsg_fd >= 0)
		close(kmsg_fd);
	kmsg_fd = -1;
	bp_replay_boot();
	exec_init(o.init, argc, argv);
	kmsg("no init found");
	return 1;
}
