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
#include "util/parse-options.h"
#include "util/units.h"

static const char *const replay_synopsis[] = {
	"bootprof replay [options] PACK",
	NULL,
};

static const struct bp_usage replay_usage = {
	"replay",
	replay_synopsis,
	"Preload the page ranges of a readahead pack ('bootprof readahead') into the\n"
	"page cache. Files whose identity changed since the pack was made (device,\n"
	"inode, size, mtime, ctime) are skipped, never read. Runs as a process named\n"
	BP_REPLAY_COMM ", so a recording shows its reads apart.\n",
	NULL,
	NULL,
};

/* --ioprio CLASS (enum bp_ioprio *value). */
static int opt_ioprio(const struct bp_option *opt, const char *arg)
{
	enum bp_ioprio *ioprio = opt->value;

	if (!strcmp(arg, "normal"))
		*ioprio = BP_IOPRIO_NORMAL;
	else if (!strcmp(arg, "low"))
		*ioprio = BP_IOPRIO_LOW;
	else if (!strcmp(arg, "idle"))
		*ioprio = BP_IOPRIO_IDLE;
	else
		return bp_option_fail("invalid --ioprio '%s'", arg);
	return 0;
}

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
	char line[512];
	int kmsg = 0, status;
	const struct bp_option options[] = {
		OPT_INT('j', "threads", &o.threads, "N",
			"threads for files on non-rotational disks (default 4);\n"
			"rotational disks get one thread, in pack order", 1, 64),
		OPT_CALLBACK_C(0, "ioprio", &o.ioprio, "CLASS",
			       "normal (default), low (best effort, level 7) or idle",
			       "normal low idle", opt_ioprio),
		OPT_TIME_RANGE(0, "deadline", &o.deadline_ns, "T",
			       "stop issuing reads (and waiting) T after the start\n"
			       "(seconds, or 500ms; default: none)", 1, 86400 * BP_NS_PER_S),
		OPT_FLAG(0, "wait", &o.wait,
			 "return once every preloaded page is resident and up to date\n"
			 "(mincore), not when the reads are started"),
		OPT_FLAG(0, "fadvise", &o.fadvise, "posix_fadvise(WILLNEED) instead of readahead(2)"),
		OPT_FLAG(0, "kmsg", &kmsg, "also write the summary line to the kernel log"),
		OPT_STRING_C(0, "root", &o.root, "DIR", "look the pack's paths up under DIR", "@file"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &replay_usage, 0, &status);
	if (argc < 0)
		return status;
	if (argc != 1)
		return bp_usage_error("replay", argc ? "too many arguments" : "no pack given");
	p = bp_pack_load(argv[0]);
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
