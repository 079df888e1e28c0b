// SPDX-License-Identifier: GPL-2.0
/*
 * The bootchart's folded lanes (see bp_chart_opts.all_lanes): the idle
 * kernel threads in one lane, and under a process the short-lived
 * children collapsed into it, named by program with their count
 * ("+12 short-lived: cat ×12").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/format.h"
#include "util/xml.h"
#include "views/svg-lanes.h"

#define MAX_NAMES 4 /* programs named in a collapsed lane's label */

/* The name a lane gives a process: the program it exec'd last, else its comm. */
static const char *program(const struct bp_process *p)
{
	const char *e, *s;

	if (!p->nexec || !strncmp(p->exec[p->nexec - 1], "/proc/", 6))
		return p->comm;
	e = p->exec[p->nexec - 1];
	s = strrchr(e, '/');
	return s && s[1] ? s + 1 : e;
}

struct tally {
	const char *name;
	size_t n;
};

/* Count the programs of the processes collapsed into owner; the most first. */
static size_t tally(const struct bp_chart *c, size_t owner, struct tally *t, size_t cap,
		    size_t *rest)
{
	size_t i, j, n = 0;

	*rest = 0;
	for (i = 0; i < c->m->nprocesses; i++) {
		const char *name;

		if (c->shown[i] != LANE_COLLAPSED || c->into[i] != owner)
			continue;
		name = program(&c->m->processes[i]);
		for (j = 0; j < n && strcmp(t[j].name, name); j++)
			;
		if (j < n) {
			t[j].n++;
		} else if (n < cap) {
			t[n].name = name;
			t[n++].n = 1;
		} else {
			++*rest;
		}
	}
	/* Most first, then by name: a few entries. */
	for (i = 1; i < n; i++) {
		struct tally x = t[i];

		for (j = i; j > 0 && (t[j - 1].n < x.n ||
				      (t[j - 1].n == x.n && strcmp(t[j - 1].name, x.name) > 0)); j--)
			t[j] = t[j - 1];
		t[j] = x;
	}
	return n;
}

void bp_chart_collapsed_lane(FILE *out, const struct bp_chart *c, size_t owner, int depth, int y)
{
	const struct bp_process *p = &c->m->processes[owner];
	struct tally t[64];
	char label[160];
	size_t n, k, rest, len;
	int indent = 4 + (depth < MAX_DEPTH ? depth : MAX_DEPTH) * 8;
	int room = (X0 - 8 - indent) / 6;

	n = tally(c, owner, t, sizeof(t) / sizeof(t[0]), &rest);
	fprintf(out, "<g class=\"lane collapsed\"><title>%zu short-lived children of ",
		c->ncollapsed[owner]);
	bp_xml_put(out, p->comm);
	fprintf(out, " [%d], forked and exited in the window, without I/O wait and under 1 %% of "
		"the CPU each (--all-lanes: a lane each):", p->pid);
	for (k = 0; k < n; k++) {
		fputs(k ? ", " : " ", out);
		bp_xml_put(out, t[k].name);
		fprintf(out, " \u00d7%zu", t[k].n);
	}
	if (rest)
		fprintf(out, ", %zu more", rest);
	/* From the first child's start to the last one's exit: the columns they cover. */
	fprintf(out, "</title><rect class=\"sl\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
		X0 + c->collapsed[owner].c0, y, c->collapsed[owner].n > 0 ? c->collapsed[owner].n : 1,
		BAR_H);
	bp_chart_lane_runs(out, &c->collapsed[owner], y);
	len = (size_t)snprintf(label, sizeof(label), "+%zu short-lived:", c->ncollapsed[owner]);
	for (k = 0; k < n && k < MAX_NAMES && len < sizeof(label); k++)
		len += (size_t)snprintf(label + len, sizeof(label) - len, "%s %s \u00d7%zu",
					k ? "," : "", t[k].name, t[k].n);
	if ((n > MAX_NAMES || rest) && len < sizeof(label))
		snprintf(label + len, sizeof(label) - len, ", \u2026");
	/* Cut to the room left of the plot, at a character, with an ellipsis. */
	if (room > 4 && bp_chart_text_chars(label) > (size_t)room)
		bp_chart_text_cut(label, (size_t)room - 1);
	fprintf(out, "<text x=\"%d\" y=\"%d\">", indent, y + BAR_H);
	bp_xml_put(out, label);
	fputs("</text></g>\n", out);
}

void bp_chart_kthreads_lane(FILE *out, const struct bp_chart *c, int y)
{
	fprintf(out, "<g class=\"lane kthreads\"><title>%zu kernel threads without I/O wait and "
		"under 1 %% of the CPU each (--all-lanes: a lane each)</title>", c->nkthreads);
	fprintf(out, "<rect class=\"sl\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", X0, y,
		PLOT_W, BAR_H);
	bp_chart_lane_runs(out, &c->kthreads, y);
	fprintf(out, "<text x=\"4\" y=\"%d\">kernel threads (%zu idle)</text></g>\n", y + BAR_H,
		c->nkthreads);
}

size_t bp_chart_text_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void bp_chart_text_cut(char *s, size_t chars)
{
	size_t n = 0;
	char *p;

	for (p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && n++ == chars)
			break;
	}
	if (!*p)
		return;
	if ((size_t)(p - s) + sizeof("\u2026") <= strlen(s) + 1)
		memcpy(p, "\u2026", sizeof("\u2026"));
	else
		*p = '\0';
}
