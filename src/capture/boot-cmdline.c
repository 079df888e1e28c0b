// SPDX-License-Identifier: GPL-2.0
/*
 * The boot-time event set and the command-line words that enable it.
 *
 * Versions were checked against the kernels' own available_events by the
 * QEMU boot tests (Debian 6.1 and bookworm-backports 6.12) and against the
 * commits that added the events:
 *  - trace_instance=NAME,EVENTS: 6.3 ("tracing: Add enabling of events to
 *    boot instances"); 6.1 rejects the word as unknown.
 *  - filemap:mm_filemap_fault/get_pages/map_pages: 6.12.
 *  - readahead:page_cache_sync_ra/async_ra: not in 6.12; enabled only when
 *    the live kernel lists them.
 *  - sched:sched_stat_iowait/blocked: fire only with CONFIG_SCHEDSTATS
 *    (Debian's 6.1 and 6.12 have it) and schedstats on, which since 4.6
 *    takes schedstats=enable.
 * raw_syscalls is left out: the command line cannot set the syscall-id
 * filter, and unfiltered it would flood the buffer. The per-syscall
 * events of the I/O syscalls take its place: they need no filter, cost
 * the other syscalls nothing, and give boot recordings syscall context
 * (which wait was a read, an open, an exec) from the first process on.
 * The list is kept short: the whole kernel command line is 2048 bytes.
 * block:block_bio_remap (22 bytes) is left out for room: it would take
 * 6.12's words to 1498, past what t4000 keeps free for root=, console=
 * and the boot loader's own; without it the critical path of a boot on
 * LVM or dm-verity names the lower device's requests only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/boot.h"
#include "capture/schedstats.h"
#include "util/error.h"
#include "util/xalloc.h"

const struct bp_boot_event bp_boot_events[] = {
	{ "sched:sched_switch", BP_KVER(2, 6), NULL, 0 },
	{ "sched:sched_waking", BP_KVER(4, 3), "sched:sched_wakeup", 0 },
	{ "sched:sched_process_fork", BP_KVER(2, 6), NULL, 0 },
	{ "sched:sched_process_exec", BP_KVER(3, 4), NULL, 0 },
	{ "sched:sched_process_exit", BP_KVER(2, 6), NULL, 0 },
	/* The kernel's own count of I/O wait, with schedstats=enable. */
	{ "sched:sched_stat_iowait", BP_KVER(3, 4), NULL, 1 },
	{ "sched:sched_stat_blocked", BP_KVER(3, 4), NULL, 1 },
	{ "block:block_rq_issue", BP_KVER(2, 6), NULL, 0 },
	{ "block:block_rq_complete", BP_KVER(2, 6), NULL, 0 },
	{ "block:block_bio_queue", BP_KVER(2, 6), NULL, 0 },
	{ "filemap:mm_filemap_add_to_page_cache", BP_KVER(3, 11), NULL, 0 },
	{ "filemap:mm_filemap_delete_from_page_cache", BP_KVER(3, 11), NULL, 0 },
	{ "filemap:mm_filemap_fault", BP_KVER(6, 12), NULL, 0 },
	{ "filemap:mm_filemap_get_pages", BP_KVER(6, 12), NULL, 0 },
	{ "filemap:mm_filemap_map_pages", BP_KVER(6, 12), NULL, 0 },
	{ "readahead:page_cache_sync_ra", 0, NULL, 0 },
	{ "readahead:page_cache_async_ra", 0, NULL, 0 },
	{ "cgroup:cgroup_attach_task", BP_KVER(4, 10), NULL, 0 },
	{ "initcall:*", BP_KVER(2, 6), NULL, 0 },
	/* Names module inits: their init sections are freed before anyone reads kallsyms. */
	{ "module:module_load", BP_KVER(2, 6), NULL, 0 },
#define SYSCALL_EVENTS(name, since) \
	{ "syscalls:sys_enter_" name, since, NULL, 0 }, \
	{ "syscalls:sys_exit_" name, since, NULL, 0 }
	/*
	 * preadv and readahead(2) are left out for room: rare at boot, and a
	 * wait in them is still I/O wait by the evidence of the sleeper's own
	 * block I/O or page-cache insertion (it only lacks the cause "read").
	 */
	SYSCALL_EVENTS("read", BP_KVER(2, 6)),
	SYSCALL_EVENTS("pread64", BP_KVER(2, 6)),
	SYSCALL_EVENTS("readv", BP_KVER(2, 6)),
	/* busybox cat and coreutils cp read files through these. */
	SYSCALL_EVENTS("sendfile64", BP_KVER(2, 6)),
	SYSCALL_EVENTS("copy_file_range", BP_KVER(4, 5)),
	SYSCALL_EVENTS("open", BP_KVER(2, 6)),
	SYSCALL_EVENTS("openat", BP_KVER(2, 6)),
	/*
	 * stat(2) itself (newstat) is left out for room: glibc 2.33 and
	 * later (so systemd, udev and busybox of a Debian boot) stat
	 * through newfstatat or statx.
	 */
	SYSCALL_EVENTS("newfstatat", BP_KVER(2, 6)),
	SYSCALL_EVENTS("statx", BP_KVER(4, 11)),
	SYSCALL_EVENTS("access", BP_KVER(2, 6)),
	SYSCALL_EVENTS("faccessat", BP_KVER(2, 6)),
	SYSCALL_EVENTS("faccessat2", BP_KVER(5, 8)),
	SYSCALL_EVENTS("getdents64", BP_KVER(2, 6)),
	/*
	 * Threads: glibc's pthread_create is a clone3 without exec. 6.12
	 * says neither in sched_process_fork (no tgid) nor in
	 * sched_process_exit (no group_dead, which 6.18 has) whether a new
	 * task is a thread: without clone3 each thread is a process.
	 */
	SYSCALL_EVENTS("clone3", BP_KVER(5, 3)),
	SYSCALL_EVENTS("execve", BP_KVER(2, 6)),
	/*
	 * A wait in these is for writeback or the journal, never for a read
	 * (journald and sqlite fsync, scripts sync). syncfs, sync_file_range
	 * and msync are rarer: live recordings have them, the words have no
	 * room left.
	 */
	SYSCALL_EVENTS("fsync", BP_KVER(2, 6)),
	SYSCALL_EVENTS("fdatasync", BP_KVER(2, 6)),
	SYSCALL_EVENTS("sync", BP_KVER(2, 6)),
#undef SYSCALL_EVENTS
	{ NULL, 0, NULL, 0 },
};

int bp_kernel_version(const char *release)
{
	char *end;
	long major, minor;

	if (!release)
		return -1;
	major = strtol(release, &end, 10);
	if (end == release || *end != '.' || major < 2 || major > 1000)
		return -1;
	release = end + 1;
	minor = strtol(release, &end, 10);
	if (end == release || minor < 0 || minor > 999)
		return -1;
	return BP_KVER((int)major, (int)minor);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		BP_GROW(buf, len + 4096 + 1, cap);
		n = fread(buf + len, 1, 4096, f);
		len += n;
		if (n < 4096)
			break;
	}
	buf[len] = '\0';
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

char *bp_boot_available_events(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/available_events",
		"/sys/kernel/debug/tracing/available_events",
	};
	size_t i;
	char *text;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		text = read_text(paths[i]);
		if (text && *text)
			return text;
		free(text);
	}
	bp_set_error_errno("cannot read '%s'", paths[0]);
	return NULL;
}

int bp_boot_event_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;
	int prefix = n >= 2 && !strcmp(name + n - 2, ":*");

	if (prefix)
		n -= 1; /* match "system:" at the start of a line */
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (prefix ? len > n && !strncmp(p, name, n) : len == n && !strncmp(p, name, n))
			return 1;
		p = eol ? eol + 1 : NULL;
	}
	return 0;
}

/* 1 when a kernel config (the text of /boot/config-RELEASE) sets name=y. */
static int config_set(const char *config, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = config; (p = strstr(p, name)); p += n) {
		if ((p == config || p[-1] == '\n') && !strncmp(p + n, "=y", 2) &&
		    (p[n + 2] == '\n' || !p[n + 2]))
			return 1;
	}
	return 0;
}

int bp_boot_kernel_schedstats(const char *release, int live)
{
	char path[256], *config;
	int on;

	if (live)
		return access(BP_SCHEDSTATS_KNOB, F_OK) == 0;
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	config = strchr(release, '/') ? NULL : read_text(path);
	if (!config)
		return 1;
	on = config_set(config, "CONFIG_SCHEDSTATS");
	free(config);
	return on;
}

/*
 * Syscalls an architecture's table lacks, so their events do not exist
 * there: the generic table (arm64, riscv64) has only the *at forms; the
 * 32-bit ABIs stat through fstatat64. Names as bp_boot_arch() gives them.
 */
static const struct {
	const char *syscall;
	const char *arches; /* space-separated, with a space at each end */
} arch_gaps[] = {
	{ "open", " arm64 riscv64 " },
	{ "access", " arm64 riscv64 " },
	{ "newfstatat", " i386 arm " },
};

static int arch_lacks(const char *arch, const char *event)
{
	const char *sc = NULL;
	char key[32];
	size_t i;

	if (!arch)
		return 0;
	if (!strncmp(event, "syscalls:sys_enter_", 19))
		sc = event + 19;
	else if (!strncmp(event, "syscalls:sys_exit_", 18))
		sc = event + 18;
	if (!sc)
		return 0;
	snprintf(key, sizeof(key), " %s ", arch);
	for (i = 0; i < sizeof(arch_gaps) / sizeof(arch_gaps[0]); i++) {
		if (!strcmp(sc, arch_gaps[i].syscall) && strstr(arch_gaps[i].arches, key))
			return 1;
	}
	return 0;
}

const char *bp_boot_arch(const char *name)
{
	static const char *const names[][2] = {
		{ "x86_64", "x86_64" }, { "amd64", "x86_64" },	  { "arm64", "arm64" },
		{ "aarch64", "arm64" }, { "i386", "i386" },	  { "i686", "i386" },
		{ "686", "i386" },	{ "686-pae", "i386" },	  { "arm", "arm" },
		{ "armv7l", "arm" },	{ "armhf", "arm" },	  { "armmp", "arm" },
		{ "armmp-lpae", "arm" }, { "riscv64", "riscv64" },
	};
	size_t i;

	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i][0]))
			return names[i][1];
	}
	return NULL;
}

const char *bp_boot_release_arch(const char *release)
{
	static const char *const flavours[] = { "-686-pae", "-armmp-lpae", "-amd64", "-arm64",
						"-686",	    "-armmp",	   "-riscv64" };
	size_t i, n = strlen(release), k;

	for (i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++) {
		k = strlen(flavours[i]);
		if (n > k && !strcmp(release + n - k, flavours[i]))
			return bp_boot_arch(flavours[i] + 1);
	}
	return NULL;
}

static int event_exists(const struct bp_boot_event *e, const char *name, int version,
			const char *available)
{
	if (available)
		return bp_boot_event_listed(available, name);
	return e->since && version >= e->since;
}

static void append(char **s, size_t *len, size_t *cap, const char *word)
{
	size_t n = strlen(word);

	BP_GROW(*s, *len + n + 1, *cap);
	memcpy(*s + *len, word, n + 1);
	*len += n;
}

char *bp_boot_cmdline(int version, const char *instance, const char *available,
		      const char *arch, int schedstats, size_t buffer_kb, char **missing)
{
	const struct bp_boot_event *e;
	int use_instance = version >= BP_BOOT_INSTANCE_VERSION;
	char *out = NULL, *miss = NULL, num[64];
	size_t len = 0, cap = 0, mlen = 0, mcap = 0;
	int first = 1, enable_schedstats = 0;

	append(&out, &len, &cap, use_instance ? "trace_instance=" : "trace_event=");
	if (use_instance) {
		append(&out, &len, &cap, instance);
		first = 0;
	}
	for (e = bp_boot_events; e->name; e++) {
		const char *name = e->name;

		/*
		 * Nothing to miss on a kernel without schedstats, nor in a
		 * syscall the architecture does not have.
		 */
		if ((e->schedstats && !schedstats) || arch_lacks(arch, e->name))
			continue;
		if (!event_exists(e, name, version, available)) {
			if (e->instead && event_exists(e, e->instead, version, available)) {
				name = e->instead;
			} else {
				append(&miss, &mlen, &mcap, e->name);
				append(&miss, &mlen, &mcap, " ");
				continue;
			}
		}
		if (!first)
			append(&out, &len, &cap, ",");
		append(&out, &len, &cap, name);
		first = 0;
		enable_schedstats |= e->schedstats;
	}
	/* Per CPU; sizes the boot instance (and the top-level buffer). */
	snprintf(num, sizeof(num), " trace_buf_size=%zuK", buffer_kb);
	append(&out, &len, &cap, num);
	/* trace_clock= sets only the top-level buffer's clock. */
	if (!use_instance)
		append(&out, &len, &cap, " trace_clock=boot");
	/* Off by default since 4.6, which added the word; always on before. */
	if (enable_schedstats && version >= BP_SCHEDSTATS_WORD_VERSION)
		append(&out, &len, &cap, " schedstats=enable");
	if (miss)
		miss[mlen - 1] = '\0';
	*missing = miss;
	return out;
}

char *bp_boot_cmdline_for(const char *release, int live, const char *instance,
			  const char *arch, size_t buffer_kb, char **missing, char **no_list)
{
	int version = bp_kernel_version(release);
	char *available = NULL, *words;

	*missing = *no_list = NULL;
	if (version < 0) {
		bp_set_error("bad kernel release '%s' (want MAJOR.MINOR...)", release);
		return NULL;
	}
	if (live) {
		available = bp_boot_available_events();
		if (!available)
			*no_list = xstrdup(bp_last_error());
	}
	words = bp_boot_cmdline(version, instance, available, arch,
				bp_boot_kernel_schedstats(release, live), buffer_kb, missing);
	free(available);
	return words;
}
