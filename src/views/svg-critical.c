// SPDX-License-Identifier: GPL-2.0
/*
 * The critical path on the bootchart (analysis/critical.h): each run of
 * segments on one lane outlined, with its numbers in a tooltip, and a
 * line from lane to lane where the path hands over (a waking, a fork).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critical.h"
#include "doc/format.h"
#include "util/xalloc.h"
#include "util/xml.h"
#include "views/svg-lanes.h"

/* The y of the lane a segment's task is drawn in, or -1 when it has none. */
static int segment_y(const struct bp_chart *c, const struct bp_crit_segment *g, const int *lane_y)
{
	const struct bp_thread *t = bp_model_find_thread(c->m, g->task.tid, g->start_ns);
	size_t i;

	if (!t || !t->process)
		return -1;
	i = (size_t)(t->process - c->m->processes);
	return i < c->m->nprocesses ? lane_y[i] : -1;
}

/* A run of segments [first, last] on one lane: its outline and tooltip. */
static void run_outline(FILE *out, const struct bp_chart *c, const struct bp_critical_path *p,
			size_t first, size_t last, int y)
{
	const struct bp_crit_segment *g = &p->segments[first];
	uint64_t by_state[BP_CRIT_NSTATES] = { 0 }, end = p->segments[last].end_ns;
	double x0 = bp_chart_x(c, g->start_ns), x1 = bp_chart_x(c, end);
	char a[BP_FMT_LEN];
	size_t i;
	int s, any = 0;

	for (i = first; i <= last; i++)
		by_state[p->segments[i].state] += p->segments[i].end_ns - p->segments[i].start_ns;
	fputs("<g class=\"cp\"><title>critical path: ", out);
	bp_xml_put(out, g->task.comm);
	fprintf(out, " [%d], %s", g->task.pid, bp_fmt_ns(a, end - g->start_ns));
	for (s = 0; s < BP_CRIT_NSTATES; s++) {
		if (!by_state[s])
			continue;
		fprintf(out, "%s%s %s", any ? ", " : " (", bp_crit_state_title((enum bp_crit_state)s),
			bp_fmt_ns(a, by_state[s]));
		any = 1;
	}
	fputs(any ? ")" : "", out);
	for (i = first; i <= last; i++) {
		if (p->segments[i].state == BP_CRIT_IO && p->segments[i].path) {
			fputs("\nI/O on ", out);
			bp_xml_put(out, p->segments[i].path);
			break;
		}
	}
	fprintf(out, "</title><rect class=\"cpo\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/></g>", x0, y - 1.5, x1 - x0 < 1 ? 1 : x1 - x0, BAR_H + 3.0);
}

void bp_chart_set_critical(struct bp_chart *c, const struct bp_critical_path *p)
{
	c->o.critical = p;
}

#define LINK_MIN_PX 2.0

/* The width of run k ([start[k], start[k + 1])), px. */
static double run_px(const struct bp_chart *c, const struct bp_critical_path *p,
		     const size_t *start, size_t k)
{
	return bp_chart_x(c, p->segments[start[k + 1] - 1].end_ns) -
	       bp_chart_x(c, p->segments[start[k]].start_ns);
}

void bp_chart_critical(FILE *out, const struct bp_chart *c, const int *lane_y)
{
	const struct bp_critical_path *p = c->o.critical;
	size_t i, n = 0, first = 0, *start;
	int *y, links = 0;

	if (!p || !p->nsegments)
		return;
	/* Runs of consecutive segments on one lane: run k is [start[k], start[k + 1]). */
	start = xcalloc(p->nsegments + 1, sizeof(*start));
	y = xcalloc(p->nsegments + 1, sizeof(*y));
	for (i = 0; i < p->nsegments; i++) {
		int here = segment_y(c, &p->segments[i], lane_y);

		if (i && here == y[n - 1])
			continue;
		start[n] = i;
		y[n++] = here;
	}
	start[n] = p->nsegments;
	fputs("<g class=\"critical\">", out);
	for (i = 0; i < n; i++) {
		if (y[i] >= 0)
			run_outline(out, c, p, start[i], start[i + 1] - 1, y[i]);
	}
	/*
	 * Handovers between lanes; one through a task without a lane is not
	 * drawn, nor one between runs under LINK_MIN_PX wide (a path going
	 * back and forth within a pixel column is a block of lines, not a chain).
	 */
	for (i = 1; i < n; i++) {
		if (y[i] < 0 || y[i - 1] < 0 || run_px(c, p, start, i - 1) < LINK_MIN_PX ||
		    run_px(c, p, start, i) < LINK_MIN_PX)
			continue;
		first = start[i];
		fprintf(out, "%sM%.1f %.1fV%.1f", links++ ? "" : "<path class=\"cpl\" d=\"",
			bp_chart_x(c, p->segments[first].start_ns), y[i - 1] + BAR_H / 2.0,
			y[i] + BAR_H / 2.0);
	}
	if (links)
		fputs("\"/>", out);
	fputs("</g>\n", out);
	free(start);
	free(y);
}

void bp_chart_critical_legend(FILE *out, const struct bp_chart *c, int x, int y)
{
	const struct bp_critical_path *p = c->o.critical;

	if (!p)
		return;
	fprintf(out, "<rect class=\"cpo\" x=\"%d\" y=\"%.1f\" width=\"12\" height=\"%.1f\"/>"
		"<text x=\"%d\" y=\"%d\">critical path to the %s of ", x, y - 1.5, BAR_H + 3.0,
		x + 16, y + BAR_H, strcmp(p->end_what, "last-run") ? p->end_what : "last run");
	bp_xml_put(out, p->end_task.comm);
	fprintf(out, " [%d] (bootprof critical)</text>", p->end_task.pid);
}
