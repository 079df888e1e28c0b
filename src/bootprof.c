// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof: find out why a boot is slow. main() only dispatches; each
 * command lives in src/cmd-NAME.c and parses its own options with its
 * option table (src/util/parse-options.h), which also prints its usage.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "builtin.h"
#include "util/error.h"
#include "util/similar.h"

struct bp_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

#define CMD(n, s) { #n, cmd_##n, s }

static const struct bp_cmd commands[] = {
	CMD(record, "record boot I/O tracepoints into a trace.dat recording"),
	CMD(init, "run as PID 1: record the boot, then exec the real init"),
	CMD(cmdline, "print the kernel command-line words that trace from early boot"),
	CMD(collect, "drain the boot-time trace instance into a recording"),
	CMD(boot, "record the next boot, once: a boot loader entry of its own"),
	CMD(report, "report I/O wait and reads per process and per file"),
	CMD(critical, "what delayed an end point: the chain of waits back from it"),
	CMD(top, "interactive view of a recording, or of the live system"),
	CMD(dump, "print the raw events of a recording, one per line"),
	CMD(readahead, "make a readahead pack of the pages a recording used"),
	CMD(replay, "preload a readahead pack into the page cache"),
	CMD(chart, "draw the bootchart of a recording as one SVG"),
	CMD(export, "write a recording as a Chrome/Perfetto trace (JSON)"),
	CMD(diff, "what changed between two recordings, or two groups of them"),
	CMD(check, "check a recording against a budget file (exit 1 when over)"),
	CMD(db, "add recordings to an SQLite database of many boots, or export it"),
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char main_usage[] =
	"usage: bootprof [--version] [--help] [--list-cmds] COMMAND [ARGS]\n"
	"\n"
	"Find out why a boot is slow: which reads, by which processes, from which\n"
	"files, made everyone wait, and which of them were wasted.\n"
	"\n"
	"Commands:\n";

static void print_main_usage(FILE *out)
{
	size_t i;

	fputs(main_usage, out);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fputs("\nSee 'bootprof help COMMAND' or 'man bootprof-COMMAND'.\n", out);
}

static const struct bp_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	}
	return NULL;
}

/* "'recrod' is not a bootprof command; did you mean 'record'?" */
static int unknown_command(const char *name)
{
	size_t i, dist, best = (size_t)-1;
	char similar[256] = "";

	for (i = 0; i < NCOMMANDS; i++) {
		dist = bp_edit_distance(name, commands[i].name);
		if (dist < best)
			best = dist;
	}
	if (!bp_is_similar(name, best))
		return bp_usage_error("help", "'%s' is not a bootprof command", name);
	for (i = 0; i < NCOMMANDS; i++) {
		size_t len = strlen(similar);

		if (bp_edit_distance(name, commands[i].name) == best)
			snprintf(similar + len, sizeof(similar) - len, "%s'%s'", len ? " or " : "",
				 commands[i].name);
	}
	bp_error("'%s' is not a bootprof command; did you mean %s?", name, similar);
	return BP_EXIT_USAGE;
}

/* CMD -h and help CMD: every command prints its own usage. */
static int print_cmd_usage(const struct bp_cmd *cmd)
{
	char *argv[] = { (char *)cmd->name, (char *)"-h", NULL };

	return bp_finish_stdout(cmd->fn(2, argv));
}

/* The inode of the initial PID namespace (PROC_PID_INIT_INO, fixed since Linux 3.8). */
#define INITIAL_PID_NS_INO 0xEFFFFFFCu
#define PROC_SUPER_MAGIC 0x9fa0

/*
 * Whether this process is in the initial PID namespace, i.e. PID 1 of the
 * machine rather than of a container. Early in a boot /proc is not mounted
 * yet: it is mounted to look (init mode needs it anyway) and unmounted
 * again when the answer is no. A /proc that is mounted but does not show
 * this process belongs to another namespace: not the initial one.
 */
static int in_initial_pid_ns(void)
{
	struct statfs sfs;
	struct stat st;
	int initial;

	if (statfs("/proc", &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC)
		return stat("/proc/self/ns/pid", &st) == 0 && st.st_ino == INITIAL_PID_NS_INO;
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL) < 0)
		return 0;
	initial = stat("/proc/self/ns/pid", &st) == 0 && st.st_ino == INITIAL_PID_NS_INO;
	if (!initial)
		umount2("/proc", MNT_DETACH);
	return initial;
}

/*
 * Init mode only when invoked as init: by the name bootprof-init or init
 * (init=, rdinit=, or a link), or as PID 1 of the machine with no command
 * (the kernel passes init the words of its command line it does not know,
 * such as "single" or "-s", so anything that is not a bootprof command
 * counts as none: a boot must never end in a usage message). Any command
 * run as PID 1 of a container just runs.
 */
static int init_mode(int argc, char **argv, const char *self)
{
	if (!strcmp(self, "bootprof-init") || !strcmp(self, "init"))
		return 1;
	if (getpid() != 1 || (argc >= 2 && find_cmd(argv[1])))
		return 0;
	return in_initial_pid_ns();
}

static int cmd_help(int argc, char **argv)
{
	const struct bp_cmd *cmd;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_main_usage(stdout);
		return bp_finish_stdout(0);
	}
	if (argc > 2)
		return bp_usage_error("help", "too many arguments");
	cmd = find_cmd(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return print_cmd_usage(cmd);
}

int main(int argc, char **argv)
{
	const struct bp_cmd *cmd;
	const char *self = basename(argv[0]);
	size_t i;

	if (init_mode(argc, argv, self))
		return cmd_init(argc, argv);

	if (argc < 2) {
		print_main_usage(stderr);
		return BP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_main_usage(stdout);
		return bp_finish_stdout(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("bootprof %s\n", BOOTPROF_VERSION);
		return bp_finish_stdout(0);
	}
	if (!strcmp(argv[1], "--list-cmds")) {
		for (i = 0; i < NCOMMANDS; i++)
			printf("%s\n", commands[i].name);
		return bp_finish_stdout(0);
	}
	if (!strcmp(argv[1], "help"))
		return cmd_help(argc - 1, argv + 1);
	cmd = find_cmd(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return bp_finish_stdout(cmd->fn(argc - 1, argv + 1));
}
