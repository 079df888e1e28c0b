// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof readahead [FILE] -o PACK: the pack of used page ranges the next
 * boot should preload, in order of first use or with the critical path's
 * pages first (--order critical); --explain PACK says what is in a pack
 * and what was left out, and for a critical-order pack what preloading
 * each file of the path should save, measured against a recording of a
 * replay when one is given; --preloaded FILE gives the verdict on a
 * replayed recording's pages: hit, late, overtaken, miss, wasted, read
 * again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "analysis/critical.h"
#include "analysis/focus.h"
#include "analysis/phases.h"
#include "analysis/session.h"
#include "replay/build.h"
#include "replay/measure.h"
#include "replay/pack.h"
#include "replay/preload.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/units.h"

#define DEFAULT_GAP 8
#define DEFAULT_MAX_BYTES (1ull << 30)

static const char *const readahead_synopsis[] = {
	"bootprof readahead [options] [--order first-use|critical [--to SPEC]] [FILE]",
	"bootprof readahead --explain PACK [--to SPEC] [REPLAYED]",
	"bootprof readahead --preloaded [FILE]",
	NULL,
};

static const struct bp_usage readahead_usage = {
	"readahead",
	readahead_synopsis,
	"Make a readahead pack from a recording: per file, the page ranges that were\n"
	"used, in order of first use (physical order on rotational disks) or with\n"
	"the pages the critical path waited on first (--order critical), for\n"
	"'bootprof replay' or 'bootprof.replay=PACK'.\n"
	BP_DEFAULT_RECORDING_TEXT,
	NULL,
	"@recording",
};

static void print_secs(uint64_t ns)
{
	printf("%" PRIu64 ".%06" PRIu64, ns / 1000000000u, ns / 1000u % 1000000u);
}

static const char *const count_help[BP_PACK_NCOUNTS] = {
	[BP_PACK_NEVER_USED] = "read from storage, never used",
	[BP_PACK_WRITTEN] = "changed during or since the recording",
	[BP_PACK_REPLACED] = "the path names another file now",
	[BP_PACK_GONE] = "no longer there, or not a regular file",
	[BP_PACK_NONBLOCK] = "tmpfs, proc ...: not storage",
	[BP_PACK_RECORDING] = "the recording itself",
	[BP_PACK_VAR_LOG] = "under /var/log",
	[BP_PACK_UNRESOLVED] = "no path in the recording",
	[BP_PACK_METADATA] = "filesystem metadata (see the notes)",
	[BP_PACK_OVER_CAP] = "beyond --max-bytes",
	[BP_PACK_GAP] = "unused pages inside merged gaps",
	[BP_PACK_UNCERTAIN] = "mapped by fault-around, not known to be used; kept",
};

/* ns as ms with 3 decimals, signed. */
static void print_ms(int width, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;
	char buf[48];

	snprintf(buf, sizeof(buf), "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / BP_NS_PER_MS,
		 a / 1000u % 1000u);
	printf("%*s", width, buf);
}

/*
 * A critical-order pack's path: per file, the what-if (predicted), and
 * with a recording of a replay, the path's I/O left on it there and
 * predicted minus left (measured).
 */
static int explain_critical(const struct bp_pack *p, const char *replayed,
			    const struct bp_crit_end *to)
{
	struct bp_crit_end own = { .kind = BP_CRIT_END_DEFAULT };
	struct bp_pack_measured *r = NULL;
	uint64_t pred = 0, left = 0;
	struct bp_session *s;
	size_t i;

	if (!p->crit.set) {
		if (replayed)
			return bp_error("the pack is not in critical order (readahead --order "
					"critical): no prediction to measure");
		return 0;
	}
	if (replayed) {
		if (!to && strcmp(p->crit.to, "default")) {
			if (bp_crit_end_parse(p->crit.to, &own))
				return bp_error("the pack's end '%s': %s", p->crit.to, bp_last_error());
			/* A pid is its recording's: another run's process of that number is not the end. */
			if (own.kind == BP_CRIT_END_EXIT)
				return bp_error("the pack's end '%s' is a process of the pack's recording: "
						"name the end in '%s' with --to", p->crit.to, replayed);
		}
		s = bp_session_open(replayed);
		r = s ? bp_pack_measure(s, p, to ? to : &own, &bp_plugin_end_source) : NULL;
		if (s)
			bp_warnings_print(&s->warnings);
		bp_session_free(s);
		if (!r)
			return bp_error_last();
	}
	printf("\ncritical path: to the %s of pid %d (--to %s), ", p->crit.what, p->crit.pid,
	       p->crit.to);
	print_secs(p->crit.len_ns);
	printf(" s long; the first %zu entries are the pages it waited on, in its order\n",
	       p->crit.entries);
	printf("predicted: the path's I/O on the file: how much earlier the end comes, at most, "
	       "with it cached\n");
	if (r) {
		printf("measured in %s (%zu %s process%s): predicted minus the path's I/O "
		       "left on the file there\n", replayed, r->replay_pids, BP_REPLAY_COMM,
		       r->replay_pids == 1 ? "" : "es");
		printf("\n%14s %9s %14s %9s %14s  %s\n", "predicted ms", "segments", "left ms",
		       "segments", "measured ms", "path");
	} else {
		printf("\n%14s %9s  %s\n", "predicted ms", "segments", "path");
	}
	for (i = 0; i <= p->crit.nfiles; i++) {
		const struct bp_pack_whatif *w = i < p->crit.nfiles ? &p->crit.files[i] : NULL;
		uint64_t io = w ? w->io_ns : pred, l = w && r ? r->left_ns[i] : left;
		const char *name = "total";
		size_t j;

		for (j = 0; w && j < p->nfiles; j++) {
			if (p->files[j].major == w->major && p->files[j].minor == w->minor &&
			    p->files[j].ino == w->ino) {
				name = p->files[j].path;
				break;
			}
		}
		print_ms(14, (int64_t)io);
		if (w)
			printf(" %9" PRIu64, w->segments);
		else
			printf(" %9s", "");
		if (r) {
			putchar(' ');
			print_ms(14, (int64_t)l);
			if (w)
				printf(" %9" PRIu64 " ", r->left_segments[i]);
			else
				printf(" %9s ", "");
			print_ms(14, (int64_t)io - (int64_t)l);
		}
		printf("  %s\n", w ? name : "total");
		if (w) {
			pred += w->io_ns;
			left += l;
		}
	}
	if (r) {
		fputs("the path: ", stdout);
		print_secs(p->crit.len_ns);
		fputs(" s in the pack's recording, ", stdout);
		print_secs(r->len_ns);
		printf(" s in %s\n", replayed);
	}
	bp_pack_measured_free(r);
	return 0;
}

static int explain(const char *path, const char *replayed, const struct bp_crit_end *to)
{
	struct bp_pack *p = bp_pack_load(path);
	uint64_t total = 0;
	size_t i, j;
	int c, rc;

	if (!p)
		return bp_error_last();
	for (i = 0; i < p->nfiles; i++)
		total += bp_pack_file_bytes(p, &p->files[i]);
	printf("pack %s: %zu files", path, bp_pack_distinct_files(p));
	if (p->nfiles != bp_pack_distinct_files(p))
		printf(" in %zu entries", p->nfiles);
	printf(", %" PRIu64 " bytes to preload; order %s%s; pages %s\n", total, p->crit.set ? "critical path, then " : "",
	       p->disk_order ? "disk (rotational)" : "first use",
	       p->inserted_only ? "read (no access events: used or not)" : "used");
	if (p->source) {
		printf("from %s, window ", p->source);
		print_secs(p->since_ns);
		fputs(" - ", stdout);
		print_secs(p->until_ns);
		fputs(" s\n", stdout);
	}
	printf("\n%5s %17s %12s %7s %12s  %s\n", "#", "first use (s)", "bytes", "ranges",
	       "left out", "path");
	for (i = 0; i < p->nfiles; i++) {
		const struct bp_pack_file *f = &p->files[i];

		printf("%5zu %10" PRIu64 ".%06" PRIu64 " %12" PRIu64 " %7zu %12" PRIu64 "  %s\n", i + 1,
		       f->first_ns / 1000000000u, f->first_ns / 1000u % 1000000u,
		       bp_pack_file_bytes(p, f), f->nranges, f->left_bytes, f->path);
	}
	printf("\nleft out (files, bytes):\n");
	for (c = 0; c < BP_PACK_NCOUNTS; c++) {
		if (c == BP_PACK_GAP || c == BP_PACK_UNCERTAIN)
			continue;
		printf("  %-12s %8" PRIu64 " %14" PRIu64 "  %s\n", bp_pack_count_name(c),
		       p->counts[c].files, p->counts[c].bytes, count_help[c]);
	}
	printf("preloaded though not known to be used (files, bytes):\n");
	printf("  %-12s %8" PRIu64 " %14" PRIu64 "  %s\n", "gap", p->counts[BP_PACK_GAP].files,
	       p->counts[BP_PACK_GAP].bytes, count_help[BP_PACK_GAP]);
	printf("  %-12s %8" PRIu64 " %14" PRIu64 "  %s\n", "uncertain",
	       p->counts[BP_PACK_UNCERTAIN].files, p->counts[BP_PACK_UNCERTAIN].bytes,
	       count_help[BP_PACK_UNCERTAIN]);
	for (j = 0; j < p->nnotes; j++)
		printf("%s%s\n", j ? "  " : "notes:\n  ", p->notes[j]);
	rc = explain_critical(p, replayed, to);
	bp_pack_free(p);
	return rc;
}

/* One row: bytes per verdict, late waits and their ns, then what it is of. */
static void verdict_row(const struct bp_preloaded *res, const struct bp_verdict *v,
			const char *what, const char *indent)
{
	int k;

	for (k = 0; k < BP_V_N; k++) {
		if (bp_verdict_known(res, k))
			printf(" %12" PRIu64, bp_verdict_pages(v, k) * res->page_size);
		else
			printf(" %12s", "n/a");
	}
	if (bp_verdict_known(res, BP_V_LATE))
		printf(" %10" PRIu64 " %14" PRIu64, v->late_waits, v->late_ns);
	else
		printf(" %10s %14s", "n/a", "n/a");
	printf("  %s%s\n", indent, what);
}

static int preloaded(struct bp_session *s)
{
	struct bp_preloaded *res = bp_preloaded_build(s, &s->window);
	const char *file = s->path;
	size_t i, r;
	int k;

	if (!res)
		return bp_error_last();
	bp_warnings_print(&s->warnings);
	printf("%s: %zu preloader process%s (%s)\n", file, res->replay_pids,
	       res->replay_pids == 1 ? "" : "es", "comm bootprof-replay");
	if (res->access_missing)
		printf("hit, late, wasted: not available on this kernel (no page access events)\n");
	if (res->markers_missing)
		printf("no preloader marker names a range: the pack is not known, "
		       "overtaken pages count as misses\n");
	/* bytes per verdict (docs/design.md); under each file its pack ranges, FIRST+PAGES */
	putchar('\n');
	for (k = 0; k < BP_V_N; k++)
		printf(" %12s", bp_verdict_names[k]);
	printf(" %10s %14s  %s\n", "late_waits", "late_wait_ns", "path");
	for (i = 0; i <= res->nfiles; i++) {
		const struct bp_preloaded_file *f = i < res->nfiles ? &res->files[i] : &res->total;

		verdict_row(res, &f->v, f->path ? f->path : "total", "");
		for (r = 0; r < f->nranges; r++) {
			char what[48];

			snprintf(what, sizeof(what), "%" PRIu64 "+%" PRIu64, f->ranges[r].first,
				 f->ranges[r].count);
			verdict_row(res, &f->ranges[r].v, what, "  ");
		}
	}
	bp_preloaded_free(res);
	return 0;
}

static FILE *open_output(const char *path, int force)
{
	int fd, flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (force ? O_TRUNC : O_EXCL);
	FILE *f;

	fd = open(path, flags, 0600);  /* it names the files a boot read, like a recording */
	if (fd < 0) {
		if (errno == EEXIST)
			bp_set_error("'%s' exists (use --force to replace it)", path);
		else
			bp_set_error_errno("cannot create '%s'", path);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		bp_set_error_errno("cannot create '%s'", path);
		close(fd);
	}
	return f;
}

int cmd_readahead(int argc, char **argv)
{
	struct bp_pack_build_opts o = { 0 };
	struct bp_crit_end to = { .kind = BP_CRIT_END_DEFAULT };
	const char *out = NULL, *explain_pack = NULL, *phase = NULL, *recording;
	const char *order = "first-use";
	struct bp_session *s;
	struct bp_window_arg win = { 0 };
	int force = 0, want_preloaded = 0, gap = DEFAULT_GAP, status, rc;
	struct bp_pack *p;
	uint64_t total = 0;
	size_t i;
	FILE *f;
	const struct bp_option options[] = {
		OPT_STRING_C('o', "output", &out, "PACK",
			     "write the pack to PACK (default: standard output)", "@file"),
		OPT_FLAG(0, "force", &force, "replace an existing PACK"),
		OPT_INT(0, "gap", &gap, "PAGES", "merge used ranges at most PAGES apart (default 8)", 0,
			1u << 20),
		OPT_SIZE(0, "max-bytes", &o.max_bytes, "SIZE",
			 "at most SIZE of ranges (bytes, or 512M, 2G); later entries\n"
			 "are left out (default 1G; 0 = no cap)"),
		OPT_SINCE(&win),
		OPT_UNTIL(&win),
		OPT_STRING(0, "phase", &phase, "PHASE",
			   "take reads of one phase: kernel, initramfs, userspace,\n"
			   "or NAME=exec:PROG|file:PATH|service:UNIT (report --phase)"),
		OPT_STRING_C(0, "root", &o.root, "DIR", "look the recorded paths up under DIR",
			     "@file"),
		OPT_FOCUS_ALL(&o.all),
		OPT_CHOICE(0, "order", &order, "ORDER",
			   "first-use (default; physical on rotational disks), or\n"
			   "critical: the pages the critical path to the end (--to)\n"
			   "waited on first, in its order, then the rest",
			   "first-use critical"),
		OPT_CRIT_TO(&to),
		OPT_STRING_C(0, "explain", &explain_pack, "PACK",
			     "per file: ranges, bytes, first use, never-used bytes left\n"
			     "out; then what the pack left out and why; for a critical\n"
			     "order, the saving predicted per file of the path, and with\n"
			     "a recording of a replay (REPLAYED), the saving measured", "@file"),
		OPT_FLAG(0, "preloaded", &want_preloaded,
			 "FILE is a recording with a preloader in it: the verdict on\n"
			 "its pages (hit, late, overtaken, miss, wasted, read again)\n"
			 "per range of the pack, per file and in total"),
		OPT_END(),
	};

	o.max_bytes = DEFAULT_MAX_BYTES;
	argc = bp_parse_options(argc, argv, options, &readahead_usage, 0, &status);
	if (argc < 0)
		return status;
	if (argc > 1)
		return bp_usage_error("readahead", "too many arguments");
	if (explain_pack) {
		if (out || want_preloaded || strcmp(order, "first-use"))
			return bp_usage_error("readahead", "--explain reads a pack: no -o, "
					      "--order or --preloaded");
		if (to.kind != BP_CRIT_END_DEFAULT && !argc)
			return bp_usage_error("readahead", "--to with --explain needs the recording "
					      "of a replay");
		return explain(explain_pack, argc ? argv[0] : NULL,
			       to.kind != BP_CRIT_END_DEFAULT ? &to : NULL);
	}
	if (to.kind != BP_CRIT_END_DEFAULT && strcmp(order, "critical"))
		return bp_usage_error("readahead", "--to chooses the end of --order critical");
	if (want_preloaded && strcmp(order, "first-use"))
		return bp_usage_error("readahead", "--preloaded writes no pack: no --order");
	if (!strcmp(order, "critical") && (phase || win.since.set || win.until.set))
		return bp_usage_error("readahead", "--order critical walks the whole recording: "
				      "no --since, --until or --phase");
	if (phase && (win.since.set || win.until.set))
		return bp_usage_error("readahead", "--phase takes the place of --since and --until");
	if (bp_window_arg_check(&win))
		return bp_usage_error("readahead", "%s", bp_last_error());
	if (want_preloaded && out)
		return bp_usage_error("readahead", "--preloaded writes no pack");
	o.gap_pages = (uint64_t)gap;
	recording = argc ? argv[0] : bp_default_recording();
	if (!recording)
		return bp_error_last();
	s = bp_session_open(recording);
	if (!s || bp_session_window(s, &win) ||
	    (phase && bp_phase_window(s, phase, &s->window) < 0)) {
		bp_session_free(s);
		return bp_error_last();
	}
	if (want_preloaded) {
		rc = preloaded(s);
		bp_session_free(s);
		return rc;
	}
	o.window = s->window;
	o.to = strcmp(order, "critical") ? NULL : &to;
	/* The default end as `bootprof critical` takes it, a plugin's mark too. */
	o.ends = &bp_plugin_end_source;
	p = bp_pack_build(s, &o);
	if (p)
		bp_warnings_print(&s->warnings);
	bp_session_free(s);
	if (!p)
		return bp_error_last();
	if (!p->nfiles)
		bp_warn("'%s': no used page of a file on a block device to preload", recording);
	if (!out || !strcmp(out, "-")) {
		rc = bp_pack_write(p, stdout) ? bp_error_last() : 0;
		bp_pack_free(p);
		return rc;
	}
	f = open_output(out, force);
	if (!f) {
		bp_pack_free(p);
		return bp_error_last();
	}
	rc = bp_pack_write(p, f);
	if (fclose(f) && !rc) {
		bp_set_error_errno("cannot write '%s'", out);
		rc = -1;
	}
	if (rc) {
		bp_error("cannot write '%s': %s", out, bp_last_error());
		unlink(out);
		bp_pack_free(p);
		return BP_EXIT_FAILURE;
	}
	for (i = 0; i < p->nfiles; i++)
		total += bp_pack_file_bytes(p, &p->files[i]);
	printf("%s: %zu files, %" PRIu64 " bytes to preload; left out %" PRIu64
	       " never-used bytes (see --explain)\n",
	       out, bp_pack_distinct_files(p), total, p->counts[BP_PACK_NEVER_USED].bytes);
	bp_pack_free(p);
	return 0;
}
