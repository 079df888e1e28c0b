// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd's options (man 5 trace-cmd.dat.v6, .v7): the ones the reader
 * needs (uname, trace clock, CPU statistics and count, buffers), and the
 * metadata they give a recording bootprof did not write.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile/reader-internal.h"
#include "util/xalloc.h"

static void parse_cpustat(struct bp_reader *r, const char *text)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "entries: ", offsetof(struct bp_cpu_stat, entries) },
		{ "overrun: ", offsetof(struct bp_cpu_stat, overrun) },
		{ "commit overrun: ", offsetof(struct bp_cpu_stat, commit_overrun) },
		{ "dropped events: ", offsetof(struct bp_cpu_stat, dropped) },
		{ "read events: ", offsetof(struct bp_cpu_stat, read) },
	};
	const char *cpu_line = strstr(text, "CPU: ");
	struct bp_cpu_stat *st;
	size_t k;
	long cpu;

	if (!cpu_line || r->ncpus <= 0)
		return;
	/* Several buffers (instances) each have CPU N: their counts add up. */
	cpu = strtol(cpu_line + 5, NULL, 10);
	if (cpu < 0 || cpu >= r->ncpus)
		return;
	if (!r->meta.cpu_stats)
		r->meta.cpu_stats = xcalloc(r->ncpus, sizeof(*r->meta.cpu_stats));
	st = &r->meta.cpu_stats[cpu];
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *line = text;

		/* At the start of a line: "commit overrun: " also contains "overrun: ". */
		while ((line = strstr(line, keys[k].key))) {
			if (line == text || line[-1] == '\n') {
				*(uint64_t *)((char *)st + keys[k].off) +=
					strtoull(line + strlen(keys[k].key), NULL, 10);
				break;
			}
			line++;
		}
	}
}

static char *option_string(const uint8_t *p, uint32_t n)
{
	return xstrndup((const char *)p, n);
}

/*
 * One options list (v6: all of them, ended by id 0; v7: one section, its
 * DONE carries the offset of the next section, returned in *next).
 */
int bp_options_parse(struct bp_reader *r, struct bp_cursor *c, uint64_t *next, int top)
{
	int count = 0;

	*next = 0;
	for (;;) {
		uint16_t id = bp_cursor_u16(c);
		uint32_t n;
		const uint8_t *p;

		if (c->err)
			return -1;
		if (id == BP_OPT_DONE && r->version < 7)
			return 0;
		n = bp_cursor_u32(c);
		p = bp_cursor_take(c, n);
		if (!p)
			return -1;
		if (++count > 1 << 20)
			return -1;
		if (!top && id != BP_OPT_DONE)
			continue;
		switch (id) {
		case BP_OPT_DONE:
			if (n >= 8)
				*next = bp_reader_num(r, p, 8);
			return 0;
		case BP_OPT_UNAME:
			free(r->opt_uname);
			r->opt_uname = option_string(p, n);
			break;
		case BP_OPT_TRACECLOCK: {
			char *s = option_string(p, n), *open = strchr(s, '['), *close;

			close = open ? strchr(open, ']') : NULL;
			if (close) {
				free(r->opt_clock);
				r->opt_clock = xstrndup(open + 1, (size_t)(close - open - 1));
			}
			free(s);
			break;
		}
		case BP_OPT_CPUSTAT:
			if (r->nopt_cpustats < BP_MAX_CPUS * 4) {
				r->opt_cpustats = xrealloc(r->opt_cpustats, (r->nopt_cpustats + 1) *
								      sizeof(*r->opt_cpustats));
				r->opt_cpustats[r->nopt_cpustats++] = option_string(p, n);
			}
			break;
		case BP_OPT_CPUCOUNT:
			if (n >= 4 && r->version >= 7) {
				uint32_t cpus = (uint32_t)bp_reader_num(r, p, 4);

				if (cpus > 0 && cpus <= BP_MAX_CPUS && !r->ncpus)
					r->ncpus = (int)cpus;
			}
			break;
		case BP_OPT_BUFFER:
			if (r->version >= 7) {
				if (bp_v7_add_buffer(r, p, n))
					return -1;
			} else if (n >= 8 && bp_v6_add_buffer(r, bp_reader_num(r, p, 8))) {
				return -1;
			}
			break;
		default:
			/* Section offsets (v7) are collected by the caller; others not needed. */
			break;
		}
	}
}

/* Fill what bootprof's metadata would say from trace-cmd's options. */
void bp_options_meta(struct bp_reader *r)
{
	struct bp_meta *m = &r->meta;

	if (r->opt_uname && !m->hostname) {
		/* "sysname nodename release machine" */
		char *copy = xstrdup(r->opt_uname), *save = NULL;
		char *sysname = strtok_r(copy, " ", &save);
		char *node = sysname ? strtok_r(NULL, " ", &save) : NULL;
		char *release = node ? strtok_r(NULL, " ", &save) : NULL;
		char *machine = release ? strtok_r(NULL, " ", &save) : NULL;

		if (node)
			m->hostname = xstrdup(node);
		if (release && !m->kernel_release)
			m->kernel_release = xstrdup(release);
		if (machine && !m->machine)
			m->machine = xstrdup(machine);
		free(copy);
	}
	if (r->opt_clock && !m->clock)
		m->clock = xstrdup(r->opt_clock);
	if (!m->ncpus)
		m->ncpus = r->ncpus;
	if (!m->cpu_stats && m->ncpus == r->ncpus) {
		size_t i;

		for (i = 0; i < r->nopt_cpustats; i++)
			parse_cpustat(r, r->opt_cpustats[i]);
	}
	if (!m->ncpus)
		m->ncpus = r->ncpus;
	if (!m->page_size)
		m->page_size = r->page_size;
}
