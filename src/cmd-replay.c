// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof replay PACK: preload a readahead pack now (before an app launch,
 * or to test a pack); the init wrapper does the same at boot with
 * bootprof.replay=PACK.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <fcntl.h>
#include <unistd.h>

#include "builtin.h"
#include "replay/pack.h"
#include "replay/preload.h"
#include "util/error.h"

const char cmd_replay_usage[] =
	"usage: bootprof replay [options] PACK\n"
	"\n"
	"Preload the page ranges of a readahead pack ('bootprof readahead') into the\n"
	"page cache. Files whose identity changed since the pack was made (device,\n"
	"inode, size, mtime, ctime) are skipped, never read. Runs as a process named\n"
	BP_REPLAY_COMM ", so a recording shows its reads apart.\n"
	"\n"
	"  -j, --threads N      threads for files on non-rotational disks (default 4);\n"
	"                       rotational disks get one thread, in pack order\n"
	"      --ioprio CLASS   normal (default), low (best effort, level 7) or idle\n"
	"      --deadline S     stop issuing reads S seconds after the start (default:\n"
	"                       none)\n"
	"      --fadvise        posix_fadvise(WILLNEED) instead of readahead(2)\n"
	"      --kmsg           also write the summary line to the kernel log\n"
	"      --root DIR       look the pack's paths up under DIR\n"
	"  -h, --help           this text\n";

const struct option cmd_replay_options[] = {
	{ "threads", required_argument, NULL, 'j' },
	{ "ioprio", required_argument, NULL, 'i' },
	{ "deadline", required_argument, NULL, 'd' },
	{ "fadvise", no_argument, NULL, 'F' },
	{ "kmsg", no_argument, NULL, 'k' },
	{ "root", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void to_kmsg(const char *line)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	char rec[600];
	int n = snprintf(rec, sizeof(rec), "<5>" BP_REPLAY_COMM ": %s\n", line);

	/* One write is one kernel log record. */
	if (n >= (int)sizeof(rec))
		n = (int)sizeof(rec) - 1;
	if (fd < 0 || write(fd, rec, (size_t)n) < 0)
		bp_warn("cannot write to the kernel log: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

int cmd_replay(int argc, char **argv)
{
	struct bp_replay_opts o = { 0 };
	struct bp_replay_stats st;
	struct bp_pack *p;
	char line[512], *end;
	int c, kmsg = 0;
	double d;
	long v;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:h", cmd_replay_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 1 || v > 64)
				return bp_usage_error("replay", "invalid --threads '%s' (1 to 64)",
						      optarg);
			o.threads = (int)v;
			break;
		case 'i':
			if (!strcmp(optarg, "normal"))
				o.ioprio = BP_IOPRIO_NORMAL;
			else if (!strcmp(optarg, "low"))
				o.ioprio = BP_IOPRIO_LOW;
			else if (!strcmp(optarg, "idle"))
				o.ioprio = BP_IOPRIO_IDLE;
			else
				return bp_usage_error("replay", "invalid --ioprio '%s'", optarg);
			break;
		case 'd':
			errno = 0;
			d = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(d > 0) || d > 86400)
				return bp_usage_error("replay", "invalid --deadline '%s'", optarg);
			o.deadline_ns = (uint64_t)(d * 1e9);
			break;
		case 'F':
			o.fadvise = 1;
			break;
		case 'k':
			kmsg = 1;
			break;
		case 'r':
			o.root = optarg;
			break;
		case 'h':
			fputs(cmd_replay_usage, stdout);
			return 0;
		case ':':
			return bp_usage_error("replay", "option '%s' needs a value", argv[optind - 1]);
		default:
			return bp_usage_error("replay", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return bp_usage_error("replay", argc - optind ? "too many arguments" : "no pack given");
	p = bp_pack_load(argv[optind]);
	if (!p)
		return bp_error_last();
	prctl(PR_SET_NAME, BP_REPLAY_COMM, 0, 0, 0);
	if (bp_replay_run(p, &o, &st)) {
		bp_pack_free(p);
		return bp_error_last();
	}
	bp_replay_summary(&st, line, sizeof(line));
	printf("%s\n", line);
	if (kmsg)
		to_kmsg(line);
	bp_pack_free(p);
	return 0;
}
