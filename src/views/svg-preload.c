// SPDX-License-Identifier: GPL-2.0
/*
 * The preloader's lane on the bootchart (a recording with bootprof-replay
 * in it): the bytes it preloaded per pixel column, by the time it
 * inserted them (the pages the verdict counts preloaded), and on them the
 * late waits of the other processes, each from its start to its end, with
 * its task, time and file in a tooltip. Nothing without a preloader.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/format.h"
#include "replay/build.h"
#include "util/xml.h"
#include "views/svg-lanes.h"

/* Inline colours: charts without a preloader keep their style sheet as it was. */
#define PRE_FILL "#7b3294"
#define LATE_FILL "#d7191c"
#define LATE_H 6

void bp_chart_set_preloaded(struct bp_chart *c, const struct bp_preloaded *p)
{
	c->pre = p && p->replay_pids ? p : NULL;
}

int bp_chart_preload_height(const struct bp_chart *c)
{
	return c->pre ? DISK_STRIP_H + 10 : 0;
}

static void late_wait(FILE *out, const struct bp_chart *c, const struct bp_late_wait *w, int y)
{
	const struct bp_thread *t = bp_model_find_thread(c->m, w->tid, w->start_ns);
	double x0 = bp_chart_x(c, w->start_ns), x1 = bp_chart_x(c, w->start_ns + w->ns);
	char a[BP_FMT_LEN];

	fprintf(out, "<rect fill=\"" LATE_FILL "\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\">"
		"<title>late wait: ", x0, y, x1 - x0 < 1 ? 1 : x1 - x0, LATE_H);
	bp_xml_put(out, t ? t->comm : "?");
	fprintf(out, " (tid %d) waited %s for a page of ", w->tid, bp_fmt_ns(a, w->ns));
	bp_xml_put(out, w->path);
	fputs(" the preloader was still reading</title></rect>", out);
}

void bp_chart_preload_strip(FILE *out, const struct bp_chart *c, int y)
{
	const struct bp_preloaded *p = c->pre;
	double h[PLOT_W] = { 0 }, most = 0;
	uint64_t bytes = 0, late_ns = 0;
	char note[96], a[BP_FMT_LEN], b[BP_FMT_LEN];
	size_t i;
	int k;

	if (!p)
		return;
	for (i = 0; i < p->nreads; i++) {
		const struct bp_preload_read *r = &p->reads[i];

		if (r->ts < c->since || r->ts >= c->until)
			continue;
		k = (int)((double)(r->ts - c->since) / c->col_ns);
		if (k >= PLOT_W)
			k = PLOT_W - 1;
		h[k] += (double)(r->pages * p->page_size);
		bytes += r->pages * p->page_size;
	}
	for (k = 0; k < PLOT_W; k++)
		most = h[k] > most ? h[k] : most;
	for (k = 0; k < PLOT_W; k++)
		h[k] = most > 0 ? h[k] / most * (DISK_STRIP_H - LATE_H - 2) : 0;
	for (i = 0; i < p->nlate; i++)
		late_ns += p->late[i].ns;
	snprintf(note, sizeof(note), "read %s, %zu late wait%s (%s)", bp_fmt_bytes(a, bytes),
		 p->nlate, p->nlate == 1 ? "" : "s", bp_fmt_ns(b, late_ns));
	bp_chart_strip_frame(out, y, DISK_STRIP_H, "preloader", note);
	/* The columns' class has no rule: they take the group's fill. */
	fprintf(out, "<g class=\"preload\" fill=\"" PRE_FILL "\"><title>bootprof-replay: %" PRIu64 " bytes preloaded "
		"(pages inserted first by it, inside the pack), at most %s in one column; "
		"late waits of other processes below</title>", bytes, bp_fmt_bytes(a, (uint64_t)most));
	bp_chart_columns(out, "pre", h, PLOT_W, y + DISK_STRIP_H - LATE_H, 1);
	for (i = 0; i < p->nlate; i++) {
		if (p->late[i].start_ns + p->late[i].ns > c->since && p->late[i].start_ns < c->until)
			late_wait(out, c, &p->late[i], y + DISK_STRIP_H - LATE_H);
	}
	fputs("</g>\n", out);
}

int bp_chart_preload_legend(FILE *out, const struct bp_chart *c, int x, int y)
{
	if (!c->pre)
		return x;
	fprintf(out, "<rect fill=\"" PRE_FILL "\" x=\"%d\" y=\"%d\" width=\"12\" height=\"%d\"/>"
		"<text x=\"%d\" y=\"%d\">preloader reads</text>", x, y, BAR_H, x + 16, y + BAR_H);
	x += 120;
	fprintf(out, "<rect fill=\"" LATE_FILL "\" x=\"%d\" y=\"%d\" width=\"12\" height=\"%d\"/>"
		"<text x=\"%d\" y=\"%d\">late wait (on a page still being preloaded)</text>", x,
		y + 3, LATE_H, x + 16, y + BAR_H);
	return x + 270;
}
