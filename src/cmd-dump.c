// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof dump: the raw events of a recording, one per line in time order,
 * after a header block saying what the recording knows about itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "analysis/session.h"
#include "builtin.h"
#include "tracefile/tracefile.h"
#include "util/default-file.h"
#include "util/error.h"
#include "util/printable.h"
#include "util/parse-options.h"
#include "util/xalloc.h"

static const char *const dump_synopsis[] = {
	"bootprof dump [--meta] [--events LIST] [--count] [FILE]",
	NULL,
};

static const struct bp_usage dump_usage = {
	"dump",
	dump_synopsis,
	"Print the events of a recording, one per line in time order:\n"
	"seconds.micros [cpu] pid comm event: fields.\n",
	BP_DEFAULT_RECORDING_TEXT,
	"@recording",
};

struct dump_opts {
	const char *file;
	int meta;
	int count;
	char **events;  /* filter words, NULL: all */
	size_t nevents;
};

static void free_opts(struct dump_opts *o)
{
	size_t i;

	for (i = 0; i < o->nevents; i++)
		free(o->events[i]);
	free(o->events);
}

static int parse_events(struct dump_opts *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *w;

	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		o->events = xrealloc(o->events, (o->nevents + 1) * sizeof(*o->events));
		o->events[o->nevents++] = xstrdup(w);
	}
	free(copy);
	if (!o->nevents)
		return bp_usage_error("dump", "--events needs at least one event name");
	return 0;
}

/* 0: go on; -1: -h printed the usage; else a usage error's exit status. */
static int parse_options(struct dump_opts *o, int argc, char **argv)
{
	const char *events = NULL;
	int status;
	const struct bp_option options[] = {
		OPT_FLAG(0, "meta", &o->meta,
			 "also print the whole metadata: mounts, disks, inode->path table"),
		OPT_STRING_C(0, "events", &events, "LIST",
			     "only these events: comma-separated system:event, event or system",
			     "@events"),
		OPT_FLAG(0, "count", &o->count,
			 "print the number of events of each type instead of the events"),
		OPT_END(),
	};

	memset(o, 0, sizeof(*o));
	argc = bp_parse_options(argc, argv, options, &dump_usage, 0, &status);
	if (argc < 0)
		return status ? status : -1;
	if (events && parse_events(o, events))
		return BP_EXIT_USAGE;
	if (argc > 1)
		return bp_usage_error("dump", "too many arguments");
	o->file = argc > 0 ? argv[0] : bp_default_recording();
	if (!o->file)
		return bp_error_last();
	return 0;
}

/* Does the filter take this event? Matches "system:event", "event" or "system". */
static int wanted(const struct dump_opts *o, const struct tep_event *e)
{
	size_t i;

	if (!o->nevents)
		return 1;
	if (!e)
		return 0;
	for (i = 0; i < o->nevents; i++) {
		const char *w = o->events[i], *colon = strchr(w, ':');

		if (colon) {
			size_t n = (size_t)(colon - w);

			if (strlen(e->system) == n && !strncmp(e->system, w, n) &&
			    (!strcmp(colon + 1, e->name) || !strcmp(colon + 1, "*")))
				return 1;
		} else if (!strcmp(w, e->name) || !strcmp(w, e->system)) {
			return 1;
		}
	}
	return 0;
}

/* Say so when a filter word names no event format of the recording. */
static void check_filter(const struct dump_opts *o, struct tep_handle *tep)
{
	int i, n = tep_get_events_count(tep);
	size_t k;

	for (k = 0; k < o->nevents; k++) {
		struct dump_opts one = { .events = &o->events[k], .nevents = 1 };

		for (i = 0; i < n; i++) {
			if (wanted(&one, tep_get_event(tep, i)))
				break;
		}
		if (i == n)
			bp_warn("no event '%s' in the recording", o->events[k]);
	}
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

/*
 * Lost events as the ring-buffer statistics count them, or as the page
 * headers flag them when those say more (as report counts them), so the
 * header agrees with the "events missed" line at the end.
 */
static int print_lost(struct bp_reader *r, const struct bp_meta *m)
{
	uint64_t lost = bp_meta_lost_events(m), missed, missed_pages;
	int cpu;

	if (bp_reader_page_losses(r, &missed, &missed_pages) < 0)
		return -1;
	if (!m->cpu_stats && !missed && !missed_pages) {
		printf("# lost events: unknown (the recording has no ring-buffer statistics)\n");
		return 0;
	}
	if (!m->cpu_stats || missed > lost) {
		printf("# lost events: %llu (page headers; ", (unsigned long long)missed);
		if (m->cpu_stats)
			printf("the ring-buffer statistics say %llu)", (unsigned long long)lost);
		else
			printf("the recording has no ring-buffer statistics)");
		lost = 0;
	} else {
		printf("# lost events: %llu", (unsigned long long)lost);
	}
	if (lost) {
		const char *sep = " (";

		for (cpu = 0; cpu < m->ncpus; cpu++) {
			uint64_t n = m->cpu_stats[cpu].overrun + m->cpu_stats[cpu].dropped;

			if (!n)
				continue;
			printf("%scpu %d: %llu", sep, cpu, (unsigned long long)n);
			sep = ", ";
		}
		putchar(')');
	}
	if (missed_pages)
		printf(", and an unknown number on %llu page%s", (unsigned long long)missed_pages,
		       missed_pages == 1 ? "" : "s");
	putchar('\n');
	return 0;
}

static int print_header(struct bp_reader *r, const char *file)
{
	const struct bp_meta *m = bp_reader_meta(r);
	size_t i;

	bp_fprintf_printable(stdout, "# file: %s (trace.dat version %d%s%s)\n", file, bp_reader_version(r),
	       m->bootprof_version ? ", bootprof " : "",
	       m->bootprof_version ? m->bootprof_version : "");
	bp_fprintf_printable(stdout, "# kernel: %s %s (%s, %s)\n", or_unknown(m->kernel_release),
	       m->kernel_version ? m->kernel_version : "", or_unknown(m->hostname),
	       or_unknown(m->machine));
	printf("# cpus: %d, page size %d\n", m->ncpus, m->page_size);
	bp_fprintf_printable(stdout, "# clock: %s\n", or_unknown(m->clock));
	if (print_lost(r, m) < 0)
		return -1;
	printf("# unavailable events:");
	if (!m->nunavailable)
		printf(" none");
	for (i = 0; i < m->nunavailable; i++)
		bp_fprintf_printable(stdout, "%s%s", i ? ", " : " ", m->unavailable[i]);
	putchar('\n');
	printf("# paths: %zu, unresolved: %llu\n", m->npaths, (unsigned long long)m->unresolved);
	return 0;
}

static void print_word(const char *key, const char *value)
{
	if (value)
		bp_fprintf_printable(stdout, "# %s: %s\n", key, value);
}

static void print_meta(const struct bp_meta *m)
{
	size_t i;

	print_word("hostname", m->hostname);
	print_word("kernel release", m->kernel_release);
	print_word("kernel version", m->kernel_version);
	print_word("machine", m->machine);
	print_word("kernel cmdline", m->cmdline);
	print_word("stop reason", m->stop_reason);
	print_word("command", m->command);
	printf("# start: %llu.%09llu, stop: %llu.%09llu\n",
	       (unsigned long long)(m->start_ns / 1000000000),
	       (unsigned long long)(m->start_ns % 1000000000),
	       (unsigned long long)(m->stop_ns / 1000000000),
	       (unsigned long long)(m->stop_ns % 1000000000));
	if (m->recorder_cpu_ns || m->system_cpu_ns)
		printf("# recorder cpu: %llu ns of %llu ns busy\n",
		       (unsigned long long)m->recorder_cpu_ns, (unsigned long long)m->system_cpu_ns);
	if (m->fault_around_bytes)
		printf("# fault_around_bytes: %llu\n", (unsigned long long)m->fault_around_bytes);
	if (bp_schedstats_state_name(m->schedstats)) {
		const char *by = bp_schedstats_by_name(m->schedstats_by);

		printf("# schedstats: %s", bp_schedstats_state_name(m->schedstats));
		if (by)
			printf(" (turned on by %s)", by);
		putchar('\n');
	}
	for (i = 0; i < m->nevents; i++)
		bp_fprintf_printable(stdout, "# event: %s\n", m->events[i]);
	for (i = 0; i < m->nmounts; i++)
		bp_fprintf_printable(stdout, "# mount: %u:%u %s %s %s\n", BP_DEV_MAJOR(m->mounts[i].dev),
		       BP_DEV_MINOR(m->mounts[i].dev), m->mounts[i].fstype, m->mounts[i].dir,
		       m->mounts[i].source);
	for (i = 0; i < m->ndisks; i++)
		bp_fprintf_printable(stdout, "# disk: %u:%u %s rotational=%s size=%llu\n", BP_DEV_MAJOR(m->disks[i].dev),
		       BP_DEV_MINOR(m->disks[i].dev), m->disks[i].name,
		       m->disks[i].rotational < 0 ? "unknown" : m->disks[i].rotational ? "1" : "0",
		       (unsigned long long)m->disks[i].size);
	if (m->cpu_stats) {
		int cpu;

		for (cpu = 0; cpu < m->ncpus; cpu++) {
			const struct bp_cpu_stat *c = &m->cpu_stats[cpu];

			printf("# cpu %d: entries=%llu overrun=%llu commit_overrun=%llu "
			       "dropped=%llu read=%llu\n",
			       cpu, (unsigned long long)c->entries, (unsigned long long)c->overrun,
			       (unsigned long long)c->commit_overrun,
			       (unsigned long long)c->dropped, (unsigned long long)c->read);
		}
	}
	for (i = 0; i < m->npaths; i++)
		bp_fprintf_printable(stdout, "# path: %u:%u %llu %s\n", BP_DEV_MAJOR(m->paths[i].dev),
		       BP_DEV_MINOR(m->paths[i].dev), (unsigned long long)m->paths[i].ino,
		       m->paths[i].path);
	for (i = 0; i < m->nprograms; i++)
		bp_fprintf_printable(stdout, "# program: %s runs %s\n", m->programs[i].path,
				     m->programs[i].program);
}

static void print_event(struct tep_handle *tep, struct trace_seq *seq, const struct bp_event *ev)
{
	struct tep_record rec;
	int pid;

	memset(&rec, 0, sizeof(rec));
	rec.ts = ev->ts;
	rec.cpu = ev->cpu;
	rec.size = ev->size;
	rec.data = (void *)ev->data;
	pid = tep_data_pid(tep, &rec);
	trace_seq_reset(seq);
	if (ev->format)
		tep_print_event(tep, seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(seq);
	bp_fprintf_printable(stdout, "%llu.%06llu [%03d] %d %s %s: %s\n", (unsigned long long)(ev->ts / 1000000000),
	       (unsigned long long)(ev->ts % 1000000000 / 1000), ev->cpu, pid,
	       tep_data_comm_from_pid(tep, pid),
	       ev->format ? ev->format->name : "unknown", ev->format ? seq->buffer : "");
}

/* The pass's consumer: print each wanted event, or count it by type. */
struct dump_pass {
	const struct dump_opts *o;
	struct tep_handle *tep;
	struct trace_seq seq;
	uint64_t *counts;   /* --count: per event id */
	uint64_t unknown;   /* --count: events without a format */
};

static void dump_event(void *arg, const struct bp_event *ev)
{
	struct dump_pass *d = arg;

	if (wanted(d->o, ev->format))
		print_event(d->tep, &d->seq, ev);
}

static void count_event(void *arg, const struct bp_event *ev)
{
	struct dump_pass *d = arg;

	if (!ev->format)
		d->unknown++;
	else if (!d->o->nevents || wanted(d->o, ev->format))
		d->counts[ev->id & 0xffff]++;
}

/* "count system:event" per event type seen, by name; "total" last. */
static void print_counts(const struct dump_pass *d)
{
	uint64_t total = 0;
	int id;

	for (id = 0; id < 65536; id++) {
		const struct tep_event *e = d->counts[id] ? tep_find_event(d->tep, id) : NULL;

		if (e)
			printf("%llu %s:%s\n", (unsigned long long)d->counts[id], e->system, e->name);
		total += d->counts[id];
	}
	if (d->unknown)
		printf("%llu unknown\n", (unsigned long long)d->unknown);
	printf("%llu total\n", (unsigned long long)(total + d->unknown));
}

int cmd_dump(int argc, char **argv)
{
	const struct bp_read_stats *st;
	struct dump_pass d = { 0 };
	struct bp_build_hooks hooks = { .arg = &d };
	struct bp_session *s;
	struct dump_opts o;
	int ret;

	ret = parse_options(&o, argc, argv);
	if (ret) {
		free_opts(&o);
		return ret < 0 ? 0 : ret;
	}
	s = bp_session_open(o.file);
	if (!s) {
		free_opts(&o);
		return bp_error_last();
	}
	d.o = &o;
	d.tep = bp_reader_tep(s->reader);
	check_filter(&o, d.tep);
	ret = print_header(s->reader, o.file);
	if (ret < 0) {
		/* The cause alone (e.g. the file was cut while being read): say which file. */
		bp_set_error("cannot read '%s': %s", o.file, bp_last_error());
	} else {
		if (o.meta)
			print_meta(bp_reader_meta(s->reader));
		if (o.count) {
			d.counts = xcalloc(65536, sizeof(*d.counts));
			hooks.event = count_event;
		} else {
			trace_seq_init(&d.seq);
			hooks.event = dump_event;
		}
		ret = bp_session_read(s, &hooks, 1);
		if (o.count) {
			print_counts(&d);
			free(d.counts);
		} else {
			trace_seq_destroy(&d.seq);
		}
	}
	st = bp_reader_stats(s->reader);
	if (st->missed_events || st->missed_pages)
		printf("# events missed (page headers): %llu, pages with an unknown number: %llu\n",
		       (unsigned long long)st->missed_events,
		       (unsigned long long)st->missed_pages);
	if (ret == 0)
		bp_warnings_print(&s->warnings);
	bp_session_free(s);
	free_opts(&o);
	if (ret < 0)
		return bp_error_last();
	return 0;
}
