// SPDX-License-Identifier: GPL-2.0
/*
 * The bootchart as one SVG (see svg.h). Every number drawn comes from the
 * model and the span hook, gathered by svg-lanes.c; this file only lays
 * them out.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/format.h"
#include "util/error.h"
#include "util/xalloc.h"
#include "util/xml.h"
#include "views/svg-lanes.h"

/* The CSS class of each state, by ST_*. */
static const char *const st_class[NST] = { "io", "dw", "run", "rq", "sl" };

/* ---- output helpers ---- */

/* Seconds from the origin with ms (or finer when the chart is short). */
static void fmt_at(const struct bp_chart *c, char *buf, size_t len, uint64_t ns)
{
	double s = ns >= c->o.origin_ns ? (double)(ns - c->o.origin_ns) / 1e9 :
					  -(double)(c->o.origin_ns - ns) / 1e9;

	snprintf(buf, len, c->until - c->since < 100000000ull ? "%.6f s" : "%.3f s", s);
}

/* The same instant on the recording clock, as --since and --until take it. */
static char *fmt_clock(const struct bp_chart *c, char *buf, size_t len, uint64_t ns)
{
	uint64_t frac = ns % 1000000000u;

	if (c->until - c->since < 100000000ull)
		snprintf(buf, len, "%" PRIu64 ".%06" PRIu64 " s", ns / 1000000000u, frac / 1000u);
	else
		snprintf(buf, len, "%" PRIu64 ".%03" PRIu64 " s", ns / 1000000000u, frac / 1000000u);
	return buf;
}

static const char *exe_of(const struct bp_process *p)
{
	return p->nexec ? p->exec[p->nexec - 1] : p->comm;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* The state drawn in a column: the one with most time (ties: io, dw, run, rq, sl). */
static int dominant(const float *v)
{
	int s, best = NST;
	float most = 0;

	for (s = 0; s < NST; s++) {
		if (v[s] > most) {
			most = v[s];
			best = s;
		}
	}
	return best;
}

void bp_chart_lane_runs(FILE *out, const struct lane_acc *a, int y)
{
	unsigned char dom[PLOT_W];
	int s, k, start;

	if (!a->col)
		return;
	for (k = 0; k < a->n; k++)
		dom[k] = (unsigned char)dominant(a->col[k]);
	for (s = 0; s < ST_SLEEP; s++) {
		int any = 0;

		for (k = 0, start = -1; k <= a->n; k++) {
			int here = k < a->n && dom[k] == s;

			if (here && start < 0)
				start = k;
			if (here || start < 0)
				continue;
			if (!any)
				fprintf(out, "<path class=\"%s\" d=\"", st_class[s]);
			any = 1;
			fprintf(out, "M%d %dh%dv%dh-%dz", X0 + a->c0 + start, y, k - start, BAR_H,
				k - start);
			start = -1;
		}
		if (any)
			fputs("\"/>", out);
	}
}

/*
 * Columns of heights h[k] (px) standing on base (up when up, else hanging
 * from base downwards), as one path; equal neighbours merge.
 */
static void columns(FILE *out, const char *cls, const double *h, int n, int base, int up)
{
	int k, start = 0, any = 0;
	long prev = -1;

	for (k = 0; k <= n; k++) {
		long cur = k < n ? lround(h[k] * 2) : -1; /* half-pixel steps */

		if (k < n && cur == prev)
			continue;
		if (prev > 0) {
			if (!any)
				fprintf(out, "<path class=\"%s\" d=\"", cls);
			any = 1;
			fprintf(out, "M%d %dv%s%.1fh%dv%s%.1fz", X0 + start, base, up ? "-" : "",
				prev / 2.0, k - start, up ? "" : "-", prev / 2.0);
		}
		prev = cur;
		start = k;
	}
	if (any)
		fputs("\"/>\n", out);
}

void bp_chart_columns(FILE *out, const char *cls, const double *h, int n, int base, int up)
{
	columns(out, cls, h, n, base, up);
}

/* A "nice" tick step (1, 2, 5 x 10^k seconds) for about 10 ticks. */
static double tick_step(double span_s)
{
	double raw = span_s / 10, p = pow(10, floor(log10(raw)));

	if (raw / p >= 5)
		return 5 * p;
	if (raw / p >= 2)
		return 2 * p;
	return p;
}

struct layout {
	int y_axis, y_cpu, y_disk, y_disks, y_preload, y_initcalls, y_services, y_lanes, y_legend, height;
	int initcall_rows;
	size_t ndisks, nservices, nlanes;
};

/* ---- the header ---- */

static void header(FILE *out, const struct bp_chart *c, const struct bp_model *m)
{
	const struct bp_model_header *h = &m->header;
	const struct bp_totals *t = &m->totals;
	char a[BP_FMT_LEN], b[BP_FMT_LEN], d[BP_FMT_LEN], e[BP_FMT_LEN];

	fputs("<text class=\"h\" x=\"8\" y=\"20\">bootprof chart: ", out);
	bp_xml_put(out, c->o.file ? c->o.file : "-");
	fputs("</text>\n<text x=\"8\" y=\"38\">host: ", out);
	bp_xml_put(out, h->hostname ? h->hostname : "?");
	fputs("   kernel: ", out);
	bp_xml_put(out, h->kernel_release ? h->kernel_release : "?");
	if (h->machine) {
		fputs(" (", out);
		bp_xml_put(out, h->machine);
		fputc(')', out);
	}
	fprintf(out, "   cpus: %d   clock: ", h->ncpus);
	bp_xml_put(out, h->clock ? h->clock : "?");
	if (h->stop_reason) {
		fputs("   stopped: ", out);
		bp_xml_put(out, h->stop_reason);
	}
	if (c->focus_pid)
		fprintf(out, "   lanes: command pid %d and its tree (other processes: --all)",
			c->focus_pid);
	fmt_at(c, a, sizeof(a), c->since);
	fmt_at(c, b, sizeof(b), c->until);
	fprintf(out, "</text>\n<text x=\"8\" y=\"54\">span: %s .. %s (%s)", a, b,
		bp_fmt_ns(d, c->until - c->since));
	/* Where the axis is on the clock --since and --until take, when its 0 is not boot. */
	if (c->o.origin_ns)
		fprintf(out, "   recording clock: %s .. %s",
			fmt_clock(c, a, sizeof(a), c->since), fmt_clock(c, b, sizeof(b), c->until));
	fprintf(out, "   events: %" PRIu64 "   lost events: %" PRIu64 "%s%s</text>\n",
		t->events, t->lost_events,
		t->lost_events || t->lost_pages ? " (every total is a lower bound)" : "",
		t->truncated ? "   TRUNCATED recording" : "");
	fprintf(out, "<text x=\"8\" y=\"70\">read from storage: %s   I/O wait: %s (%s)   CPU "
		"idle while waiting: %s   ", bp_fmt_bytes(a, t->read_bytes), bp_fmt_ns(b, t->wait_ns),
		t->iowait_source == BP_IOWAIT_KERNEL ? "the kernel's count" : "inferred",
		bp_fmt_ns(d, t->idle_wait_ns));
	if (t->attributed_permille >= 0)
		fprintf(out, "attributed: %" PRId64 ".%" PRId64 "%% of %s read at the block layer",
			t->attributed_permille / 10, t->attributed_permille % 10,
			bp_fmt_bytes(e, t->rq_read_bytes));
	else
		fputs("attributed: not available (no block-layer events)", out);
	fputs("</text>\n", out);
}

/* ---- axis and phases ---- */

/*
 * Widths of a character, px, at least (sans-serif digits and lowercase are
 * narrower): enough to keep a label inside the picture.
 */
#define PHASE_CHAR_W 6.0   /* the phase labels' 10 px */
#define TICK_CHAR_W 6.5    /* the axis's 11 px */

/* The width of @s drawn, estimated from its characters. */
static double label_width(const char *s, double char_w)
{
	return (double)bp_chart_text_chars(s) * char_w;
}

static void axis(FILE *out, const struct bp_chart *c, const struct layout *l)
{
	double span_s = (double)(c->until - c->since) / 1e9, step = tick_step(span_s);
	double from = ((double)c->since - (double)c->o.origin_ns) / 1e9, t;
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	char label[48];
	long i;

	fprintf(out, "<path class=\"axis\" d=\"M%d %dh%d\"/>\n", X0, l->y_axis, PLOT_W);
	fputs("<g class=\"ticks\">", out);
	for (i = (long)ceil(from / step - 1e-9);; i++) {
		double x;

		t = (double)i * step;
		x = X0 + (t - from) * 1e9 / c->col_ns;
		if (x > X0 + PLOT_W + 0.01)
			break;
		fprintf(out, "<path class=\"grid\" d=\"M%.1f %dV%d\"/>", x, l->y_axis, l->y_legend - 10);
		snprintf(label, sizeof(label), "%.*f s", decimals, t);
		/* Centred on its line; the last one ends there rather than pass the edge. */
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>", x,
			l->y_axis - 4, x + label_width(label, TICK_CHAR_W) / 2 > WIDTH - 4 ? "end" :
			"middle", label);
	}
	fputs("</g>\n", out);
}

static void phases(FILE *out, const struct bp_chart *c, const struct layout *l)
{
	const struct bp_marks *mk = c->o.marks;
	size_t i, row = 0;

	if (!mk || !mk->nphases)
		return;
	fputs("<g class=\"phases\">", out);
	for (i = 0; i < mk->nphases; i++) {
		const struct bp_mark *p = &mk->phases[i];
		char at[BP_FMT_LEN];
		double x;

		if (p->ns < c->since || p->ns > c->until)
			continue;
		x = bp_chart_x(c, p->ns);
		fmt_at(c, at, sizeof(at), p->ns);
		fprintf(out, "<g><title>%s: ", at);
		bp_xml_put(out, p->name);
		fprintf(out, "</title><path class=\"ph\" d=\"M%.1f %dV%d\"/>", x,
			l->y_axis - 37 + (int)(row % 2) * 11, l->y_legend - 10);
		/* Right of its line, or left of it where it would pass the picture's edge. */
		if (x + 2 + label_width(p->name, PHASE_CHAR_W) > WIDTH - 4)
			fprintf(out, "<text class=\"phl\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\">",
				x - 2, l->y_axis - 29 + (int)(row % 2) * 11);
		else
			fprintf(out, "<text class=\"phl\" x=\"%.1f\" y=\"%d\">", x + 2,
				l->y_axis - 29 + (int)(row % 2) * 11);
		bp_xml_put(out, p->name);
		fputs("</text></g>", out);
		row++;
	}
	fputs("</g>\n", out);
}

/* ---- strips ---- */

static void strip_frame(FILE *out, int y, int h, const char *label, const char *note)
{
	fprintf(out, "<rect class=\"strip\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", X0, y,
		PLOT_W, h);
	fprintf(out, "<text x=\"8\" y=\"%d\">", y + 14);
	bp_xml_put(out, label);
	fputs("</text>", out);
	fprintf(out, "<text class=\"small\" x=\"8\" y=\"%d\">", y + 28);
	bp_xml_put(out, note);
	fputs("</text>\n", out);
}

void bp_chart_strip_frame(FILE *out, int y, int h, const char *label, const char *note)
{
	strip_frame(out, y, h, label, note);
}

static void cpu_strip(FILE *out, const struct bp_chart *c, const struct bp_model *m, int y)
{
	double busy[PLOT_W], idle_wait[PLOT_W];
	int k, cpu;
	char note[64];

	for (k = 0; k < PLOT_W; k++) {
		double b = 0, iw = 0;

		/* A CPU is busy at most the whole column, whatever its spans claim. */
		for (cpu = 0; cpu < c->nbusy; cpu++)
			b += c->busy[cpu][k] < c->col_ns ? c->busy[cpu][k] : c->col_ns;
		b /= c->col_ns * c->ncpus;
		if ((size_t)k < m->nbuckets && m->window.bucket_ns)
			iw = (double)bp_focus_timeline_of(m, c->focus_pid)[k].idle_wait_ns /
			     (double)m->window.bucket_ns;
		if (iw > 1 - b)
			iw = 1 - b;
		busy[k] = b * STRIP_H;
		idle_wait[k] = iw > 0 ? iw * STRIP_H : 0;
	}
	snprintf(note, sizeof(note), "%d CPUs, busy / idle on I/O", c->ncpus);
	strip_frame(out, y, STRIP_H, "CPU", note);
	fputs("<g class=\"cpu\">", out);
	columns(out, "busy", busy, PLOT_W, y + STRIP_H, 1);
	columns(out, "iw", idle_wait, PLOT_W, y, 0);
	fputs("</g>\n", out);
}

/* Disk throughput is averaged over at least this long: a 40 us column would show bursts. */
#define TPUT_MIN_NS 1000000.0

/*
 * Read throughput per column from the bytes completed per column (what
 * the disk delivered, not what was asked of it): a moving average over
 * TPUT_MIN_NS at least, in bytes per ns. The largest is returned, with
 * the columns it averages over in *lo and *hi.
 */
static double throughput(const struct bp_model *m, const double *bytes, double *tput, int *lo,
			 int *hi)
{
	/* The bytes are the timeline's: one bucket a column. */
	double most = 0, sum = 0, col_ns = m->window.bucket_ns ? (double)m->window.bucket_ns : 1;
	int k, h = col_ns < TPUT_MIN_NS ? (int)(TPUT_MIN_NS / col_ns / 2) : 0;

	*lo = *hi = 0;
	for (k = 0; k < h && k < PLOT_W; k++)
		sum += bytes[k];
	for (k = 0; k < PLOT_W; k++) {
		int a = k - h > 0 ? k - h : 0, b = k + h < PLOT_W ? k + h : PLOT_W - 1;

		if (k + h < PLOT_W)
			sum += bytes[k + h];
		if (k - h - 1 >= 0)
			sum -= bytes[k - h - 1];
		tput[k] = sum / ((b - a + 1) * col_ns);
		if (tput[k] > most) {
			most = tput[k];
			*lo = a;
			*hi = b + 1;
		}
	}
	return most;
}

/*
 * Where the largest throughput was measured: its columns [lo, hi) as the
 * timeline's buckets on the recording clock, to the ns.
 */
static void tput_where(FILE *out, const struct bp_model *m, int lo, int hi)
{
	uint64_t a = m->timeline_start_ns + (uint64_t)lo * m->window.bucket_ns;
	uint64_t b = m->timeline_start_ns + (uint64_t)hi * m->window.bucket_ns;

	fprintf(out, " from %" PRIu64 ".%09" PRIu64 " to %" PRIu64 ".%09" PRIu64 " s",
		a / 1000000000u, a % 1000000000u, b / 1000000000u, b % 1000000000u);
}

/* A throughput (bytes per ns) as MB/s, or kB/s below 0.1 MB/s (decimal units, as disks are sold). */
static char *fmt_rate(char *buf, double bytes_per_ns)
{
	double mb = bytes_per_ns * 1e3;

	snprintf(buf, BP_FMT_LEN, mb >= 0.1 || mb <= 0 ? "%.1f MB/s" : "%.1f kB/s",
		 mb >= 0.1 || mb <= 0 ? mb : mb * 1e3);
	return buf;
}

/* Heights of the throughput columns in a strip of height h, the largest at the top. */
static void tput_heights(double *tput, double most, int h)
{
	int k;

	for (k = 0; k < PLOT_W; k++)
		tput[k] = most > 0 ? tput[k] / most * (h - 2) : 0;
}

/* A step line of v[k] per column, v_most at the top of a strip of height h at y. */
static void count_line(FILE *out, const char *cls, const uint32_t *v, uint32_t v_most, int y,
		       int h)
{
	int k;

	fprintf(out, "<path class=\"%s\" d=\"", cls);
	for (k = 0; k < PLOT_W; k++) {
		double vy = y + h - (double)v[k] / (v_most ? v_most : 1) * (h - 4);

		if (!k)
			fprintf(out, "M%d %.1f", X0, vy);
		else if (v[k] != v[k - 1])
			fprintf(out, "H%dV%.1f", X0 + k, vy);
	}
	fprintf(out, "H%d\"/>", X0 + PLOT_W);
}

static void disk_strip(FILE *out, const struct bp_chart *c, const struct bp_model *m, int y)
{
	double bytes[PLOT_W], tput[PLOT_W], most;
	uint32_t waiting[PLOT_W], waiting_most = 1;
	char label[64], names[48] = "", rate[BP_FMT_LEN];
	int k, lo, hi;
	size_t i, len = 0;

	for (k = 0; k < PLOT_W; k++) {
		bytes[k] = (size_t)k < m->nbuckets ? (double)m->timeline[k].rq_done_read_bytes : 0;
		waiting[k] = (size_t)k < m->nbuckets ?
				     bp_focus_timeline_of(m, c->focus_pid)[k].waiting_max : 0;
		if (waiting[k] > waiting_most)
			waiting_most = waiting[k];
	}
	most = throughput(m, bytes, tput, &lo, &hi);
	tput_heights(tput, most, STRIP_H);
	for (i = 0; i < m->ndisks && len + 1 < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? "," : "",
					m->disks[i].name);
	fmt_rate(rate, most);
	snprintf(label, sizeof(label), "max %s, %u waiting", rate, (unsigned)waiting_most);
	strip_frame(out, y, STRIP_H, "disk reads", label);
	fputs("<g class=\"disk\"><title>block-layer reads completed (", out);
	bp_xml_put(out, len ? names : "no disks");
	fprintf(out, "), max %s", rate);
	if (most > 0)
		tput_where(out, m, lo, hi);
	fprintf(out, "; tasks in I/O wait, max %u</title>", (unsigned)waiting_most);
	columns(out, "tput", tput, PLOT_W, y + STRIP_H, 1);
	count_line(out, "wq", waiting, waiting_most, y, STRIP_H);
	fputs("</g>\n", out);
}

/* The disks that get a strip of their own: those read from in the window, by name. */
static size_t disk_strips(const struct bp_model *m, const struct bp_disk_stat **v)
{
	size_t i, j, n = 0;

	for (i = 0; i < m->ndisks; i++) {
		const struct bp_disk_stat *d = &m->disks[i];

		if (!d->rq_read_bytes || !d->timeline)
			continue;
		for (j = n++; j > 0 && strcmp(v[j - 1]->name, d->name) > 0; j--)
			v[j] = v[j - 1];
		v[j] = d;
	}
	return n;
}

/* One disk: its read throughput and the requests in flight on it. */
static void disk_read_strip(FILE *out, const struct bp_chart *c, const struct bp_model *m,
			    const struct bp_disk_stat *d, int y)
{
	double bytes[PLOT_W], tput[PLOT_W], most, span = (double)(c->until - c->since);
	uint32_t flight[PLOT_W], flight_most = 0;
	uint64_t sum = 0, done = 0, flight_ns = 0;
	int k, lo, hi, no_flight = !!(m->missing & BP_MISSING_RQ_COMPLETE);
	char label[64], note[128], b[BP_FMT_LEN], rate[BP_FMT_LEN];

	for (k = 0; k < PLOT_W; k++) {
		const struct bp_disk_bucket *bk = (size_t)k < d->ntimeline ? &d->timeline[k] : NULL;

		bytes[k] = bk ? (double)bk->rq_done_read_bytes : 0;
		flight[k] = bk ? bk->inflight_max : 0;
		sum += bk ? bk->rq_read_bytes : 0;
		done += bk ? bk->rq_done_read_bytes : 0;
		flight_ns += bk ? bk->inflight_ns : 0;
		if (flight[k] > flight_most)
			flight_most = flight[k];
	}
	most = throughput(m, bytes, tput, &lo, &hi);
	tput_heights(tput, most, DISK_STRIP_H);
	fmt_rate(rate, most);
	snprintf(label, sizeof(label), "disk %s", d->name);
	if (no_flight)
		snprintf(note, sizeof(note), "max %s", rate);
	else if (!d->rq_unfinished)
		snprintf(note, sizeof(note), "max %s, %u in flight", rate, flight_most);
	else
		snprintf(note, sizeof(note), "max %s, %u in flight (%" PRIu64 " unfinished)", rate,
			 flight_most, d->rq_unfinished);
	strip_frame(out, y, DISK_STRIP_H, label, note);
	fputs("<g class=\"disk1\"><title>", out);
	bp_xml_put(out, d->name);
	fprintf(out, ": read %" PRIu64 " bytes at the block layer (%s), %" PRIu64 " completed; "
		"max %s", sum, bp_fmt_bytes(b, sum), done, rate);
	if (most > 0)
		tput_where(out, m, lo, hi);
	if (no_flight)
		fputs("\nrequests in flight: not recorded (no block_rq_complete)", out);
	else
		fprintf(out, "\nrequests in flight, reads and writes from issue to completion: at "
			"most %u, %.2f on average", flight_most,
			span > 0 ? (double)flight_ns / span : 0);
	if (!no_flight && d->rq_unfinished)
		fprintf(out, "\n%" PRIu64 " request%s never completed in the recording (completion "
			"lost or after the stop): counted in flight until the end", d->rq_unfinished,
			d->rq_unfinished == 1 ? "" : "s");
	fputs("</title>", out);
	columns(out, "tput", tput, PLOT_W, y + DISK_STRIP_H, 1);
	if (!no_flight)
		count_line(out, "rqf", flight, flight_most, y, DISK_STRIP_H);
	fputs("</g>\n", out);
}

/* ---- initcall and service lanes ---- */

static int initcall_rows(const struct bp_chart *c, int *row_of)
{
	const struct bp_marks *mk = c->o.marks;
	double end[INITCALL_ROWS] = { 0 };
	int rows = 0, r;
	size_t i;

	for (i = 0; mk && i < mk->ncalls; i++) {
		const struct bp_initcall_bar *b = &mk->calls[i];
		double x = bp_chart_x(c, b->start_ns);

		row_of[i] = -1;
		if (b->start_ns + b->duration_ns < c->since || b->start_ns > c->until)
			continue;
		for (r = 0; r < INITCALL_ROWS - 1 && r < rows && end[r] > x; r++)
			;
		row_of[i] = r;
		end[r] = bp_chart_x(c, b->start_ns + b->duration_ns) + 1;
		if (r + 1 > rows)
			rows = r + 1;
	}
	return rows;
}

static void initcalls(FILE *out, const struct bp_chart *c, const struct layout *l,
		      const int *row_of)
{
	const struct bp_marks *mk = c->o.marks;
	size_t i;

	if (!l->initcall_rows)
		return;
	fprintf(out, "<text x=\"8\" y=\"%d\">kernel initcalls</text>\n<g class=\"initcalls\">",
		l->y_initcalls + 10);
	for (i = 0; i < mk->ncalls; i++) {
		const struct bp_initcall_bar *b = &mk->calls[i];
		double x0, x1;
		char at[BP_FMT_LEN], dur[BP_FMT_LEN];

		if (row_of[i] < 0)
			continue;
		x0 = bp_chart_x(c, b->start_ns);
		x1 = bp_chart_x(c, b->start_ns + b->duration_ns);
		fmt_at(c, at, sizeof(at), b->start_ns);
		fprintf(out, "<rect class=\"ic\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\">"
			"<title>", x0, l->y_initcalls + row_of[i] * LANE_H,
			x1 - x0 < 0.5 ? 0.5 : x1 - x0, BAR_H);
		bp_xml_put(out, b->name);
		fprintf(out, " (level %s): %s at %s</title></rect>",
			b->level, bp_fmt_ns(dur, b->duration_ns), at);
	}
	fputs("</g>\n", out);
}

struct service_span {
	const struct bp_service *s;
	uint64_t start, end;
};

static int by_service_start(const void *a, const void *b)
{
	const struct service_span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->s->path, y->s->path);
}

/* Each service from its first process start to its last exit, by start. */
static struct service_span *service_spans(const struct bp_chart *c, const struct bp_model *m)
{
	struct service_span *v = xcalloc(m->nservices + 1, sizeof(*v));
	size_t i, k;

	for (k = 0; k < m->nservices; k++)
		v[k].s = &m->services[k];
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];
		uint64_t s = p->start_ns > c->since ? p->start_ns : c->since;
		uint64_t e = p->exit_ns && p->exit_ns < c->until ? p->exit_ns : c->until;

		if (!p->service)
			continue;
		k = (size_t)(p->service - m->services);
		if (k >= m->nservices)
			continue;
		if (!v[k].start || s < v[k].start)
			v[k].start = s;
		if (e > v[k].end)
			v[k].end = e;
	}
	if (m->nservices)
		qsort(v, m->nservices, sizeof(*v), by_service_start);
	return v;
}

static void services(FILE *out, const struct bp_chart *c, const struct bp_model *m,
		     const struct layout *l)
{
	struct service_span *v;
	size_t k;

	if (!l->nservices)
		return;
	v = service_spans(c, m);
	fprintf(out, "<text x=\"8\" y=\"%d\" font-weight=\"bold\">services</text>\n",
		l->y_services - 3);
	for (k = 0; k < m->nservices; k++) {
		const struct bp_service *s = v[k].s;
		int y = l->y_services + (int)k * LANE_H;
		char w[BP_FMT_LEN], b[BP_FMT_LEN], at[BP_FMT_LEN];
		double x0 = bp_chart_x(c, v[k].start), x1 = bp_chart_x(c, v[k].end);

		fmt_at(c, at, sizeof(at), v[k].start);
		fputs("<g class=\"service\"><title>", out);
		bp_xml_put(out, s->path);
		fprintf(out, "\nfrom %s, %zu processes, I/O wait %s, read %s</title>", at,
			s->nprocesses, bp_fmt_ns(w, s->wait_ns), bp_fmt_bytes(b, s->bytes_read));
		fprintf(out, "<rect class=\"svc\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>",
			x0, y, x1 - x0 < 0.5 ? 0.5 : x1 - x0, BAR_H);
		fprintf(out, "<text x=\"12\" y=\"%d\">", y + BAR_H);
		bp_xml_put(out, base_name(s->path));
		fputs("</text></g>\n", out);
	}
	free(v);
}

/* ---- process lanes ---- */

/* Shown processes in tree order: by start, each followed by its shown descendants. */
struct lane_order {
	size_t *idx;    /* process indexes, in drawing order */
	int *depth;
	size_t n;
};

static int by_start(const void *a, const void *b, void *arg)
{
	const struct bp_model *m = arg;
	const struct bp_process *x = &m->processes[*(const size_t *)a];
	const struct bp_process *y = &m->processes[*(const size_t *)b];

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return 0;
}

/* The nearest shown ancestor's index, or (size_t)-1. */
static size_t shown_parent(const struct bp_chart *c, const struct bp_process *p)
{
	const struct bp_model *m = c->m;
	int guard = 0;

	for (p = p->parent; p && guard < 100000; p = p->parent, guard++) {
		size_t i = (size_t)(p - m->processes);

		if (i < m->nprocesses && c->shown[i] == LANE_OWN)
			return i;
	}
	return (size_t)-1;
}

static void lane_order(const struct bp_chart *c, struct lane_order *lo)
{
	const struct bp_model *m = c->m;
	size_t n = m->nprocesses, i, k, nsorted = 0, top = 0, none = (size_t)-1;
	size_t *sorted = xcalloc(n + 1, sizeof(*sorted));
	size_t *first = xcalloc(n + 1, sizeof(*first)), *next = xcalloc(n + 1, sizeof(*next));
	size_t *last = xcalloc(n + 1, sizeof(*last)), *stack = xcalloc(n + 1, sizeof(*stack));
	int *sdepth = xcalloc(n + 1, sizeof(*sdepth));
	size_t roots = none, roots_last = none;

	lo->idx = xcalloc(n + 1, sizeof(*lo->idx));
	lo->depth = xcalloc(n + 1, sizeof(*lo->depth));
	lo->n = 0;
	for (i = 0; i < n; i++) {
		first[i] = next[i] = last[i] = none;
		if (c->shown[i] == LANE_OWN)
			sorted[nsorted++] = i;
	}
	if (nsorted)
		qsort_r(sorted, nsorted, sizeof(*sorted), by_start, (void *)m);
	/* Children lists in start order: appended while walking the sorted array. */
	for (k = 0; k < nsorted; k++) {
		size_t p = shown_parent(c, &m->processes[sorted[k]]);

		i = sorted[k];
		if (p == none) {
			if (roots == none)
				roots = i;
			else
				next[roots_last] = i;
			roots_last = i;
		} else {
			if (first[p] == none)
				first[p] = i;
			else
				next[last[p]] = i;
			last[p] = i;
		}
	}
	/* Depth-first; a node's siblings wait on the stack under its children. */
	{
		size_t *r = xcalloc(nsorted + 1, sizeof(*r)), nr = 0;

		for (i = roots; i != none; i = next[i])
			r[nr++] = i;
		while (nr) {
			stack[top] = r[--nr];
			sdepth[top++] = 0;
		}
		free(r);
	}
	while (top) {
		size_t cur = stack[--top], ch, nch = 0, base;
		int d = sdepth[top];

		lo->idx[lo->n] = cur;
		lo->depth[lo->n++] = d;
		for (ch = first[cur]; ch != none; ch = next[ch])
			nch++;
		base = top;
		top += nch;
		for (ch = first[cur], k = 0; ch != none; ch = next[ch], k++) {
			stack[base + nch - 1 - k] = ch;
			sdepth[base + nch - 1 - k] = d + 1;
		}
	}
	free(sorted);
	free(first);
	free(next);
	free(last);
	free(stack);
	free(sdepth);
}

static void wait_causes(FILE *out, const uint64_t *by_cause)
{
	char t[BP_FMT_LEN];
	int k, any = 0;

	for (k = 0; k < BP_NCAUSES; k++) {
		if (!by_cause[k])
			continue;
		fprintf(out, "%s%s %s", any ? ", " : " (", bp_cause_name((enum bp_cause)k),
			bp_fmt_ns(t, by_cause[k]));
		any = 1;
	}
	if (any)
		fputc(')', out);
}

static void process_title(FILE *out, const struct bp_chart *c, const struct bp_process *p)
{
	char a[BP_FMT_LEN], b[BP_FMT_LEN];
	size_t f, shown = 0;

	fprintf(out, "<title>pid %d", p->pid);
	if (p->ppid)
		fprintf(out, " (parent %d)", p->ppid);
	fputs(": ", out);
	bp_xml_put(out, p->comm);
	fputs("\nexe: ", out);
	bp_xml_put(out, exe_of(p));
	if (p->nargv > 1) {
		char args[1024];

		fputs("\nargs: ", out);
		bp_xml_put(out, bp_process_args(p, args, sizeof(args)));
	}
	fmt_at(c, a, sizeof(a), p->start_ns > c->since ? p->start_ns : c->since);
	fprintf(out, "\nfrom %s%s", a, p->start_ns ? "" : " (before the window)");
	if (p->exit_ns) {
		fmt_at(c, b, sizeof(b), p->exit_ns);
		fprintf(out, " to exit at %s", b);
	}
	fprintf(out, "\nCPU %s, I/O wait %s", bp_fmt_ns(a, p->run_ns), bp_fmt_ns(b, p->wait_ns));
	wait_causes(out, p->wait_by_cause);
	fprintf(out, "\nread %s from storage, %zu files, %zu threads", bp_fmt_bytes(a, p->bytes_read),
		p->nfiles, p->nthreads);
	if (p->worst_file) {
		fputs("\nworst file: ", out);
		bp_xml_put(out, p->worst_file->path);
	}
	for (f = 0; f < p->nfiles && shown < TOP_FILE_MARKS; f++) {
		const struct bp_access *ac = p->files[f];

		if (!ac->wait_ns && !ac->bytes_read)
			continue;
		fmt_at(c, a, sizeof(a), ac->first_ns);
		fprintf(out, "\n| %s: ", a);
		bp_xml_put(out, ac->file->path);
		fprintf(out, " (%s, %s)", bp_fmt_ns(b, ac->wait_ns), bp_fmt_bytes(a, ac->bytes_read));
		shown++;
	}
	fputs("</title>", out);
}

/* Thin marks at the first read of the process's top files. */
static void file_marks(FILE *out, const struct bp_chart *c, const struct bp_process *p, int y)
{
	size_t f, shown = 0;

	for (f = 0; f < p->nfiles && shown < TOP_FILE_MARKS; f++) {
		const struct bp_access *ac = p->files[f];

		if (!ac->wait_ns && !ac->bytes_read)
			continue;
		if (ac->first_ns < c->since || ac->first_ns > c->until)
			continue;
		fprintf(out, "%sM%.1f %dv%d", shown ? "" : "<path class=\"fm\" d=\"",
			bp_chart_x(c, ac->first_ns), y - 1, BAR_H + 2);
		shown++;
	}
	if (shown)
		fputs("\"/>", out);
}

/* Characters in a UTF-8 string (its bytes that start one). */
static int utf8_chars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * "name [pid] args...", as bootchart and htop name a process, in @room
 * characters: the arguments are cut first (ending in "..."), then the name
 * ("~"); the pid stays.
 */
static void lane_label(char *label, size_t len, const char *name, const struct bp_process *p,
		       int room)
{
	char args[200], whole[400];
	const char *shown = args;
	int n;

	bp_process_args(p, args, sizeof(args));
	/*
	 * A command line that names another program (a forked shell running
	 * an applet without exec, a re-exec named after its parent) is shown
	 * whole, as ps shows it.
	 */
	if (p->nargv && strncmp(base_name(p->argv[0]), name, 15)) {
		snprintf(whole, sizeof(whole), "%.150s%s%s", p->argv[0], args[0] ? " " : "", args);
		shown = whole;
	}
	n = snprintf(label, len, "%s [%d]", name, p->pid);
	if (room > 4 && n > room) {
		snprintf(label, len, "%.*s~ [%d]", room - 9 > 1 ? room - 9 : 1, name, p->pid);
		return;
	}
	if (!shown[0] || room - n < 6)
		return;
	if (n + 1 + utf8_chars(shown) <= room) {
		snprintf(label + n, len - (size_t)n, " %s", shown);
		return;
	}
	/* Keep room - n - 2 characters of the arguments, then the ellipsis. */
	{
		int keep = room - n - 2, i = 0, chars = 0;

		while (shown[i] && chars < keep) {
			i++;
			while (((unsigned char)shown[i] & 0xc0) == 0x80)
				i++;
			chars++;
		}
		snprintf(label + n, len - (size_t)n, " %.*s\u2026", i, shown);
	}
}

static void process_lane(FILE *out, const struct bp_chart *c, const struct bp_process *p,
			 const struct lane_acc *a, int depth, int y)
{
	uint64_t end = p->exit_ns && p->exit_ns < c->until ? p->exit_ns : c->until;
	double x0 = bp_chart_x(c, p->start_ns), x1 = bp_chart_x(c, end);
	/* The exec'd name (comm is cut at 15 bytes), unless it was exec'd as /proc/self/exe. */
	const char *name = p->nexec && strncmp(exe_of(p), "/proc/", 6) ? base_name(exe_of(p)) :
									      p->comm;
	int indent = 4 + (depth < MAX_DEPTH ? depth : MAX_DEPTH) * 8;
	int room = (X0 - 8 - indent) / 6;
	char label[256];

	fputs("<g class=\"lane\">", out);
	process_title(out, c, p);
	fprintf(out, "<rect class=\"sl\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>", x0, y,
		x1 - x0 < 1 ? 1 : x1 - x0, BAR_H);
	bp_chart_lane_runs(out, a, y);
	file_marks(out, c, p, y);
	lane_label(label, sizeof(label), name, p, room);
	fprintf(out, "<text x=\"%d\" y=\"%d\">", indent, y + BAR_H);
	bp_xml_put(out, label);
	fputs("</text></g>\n", out);
}

static void others_lane(FILE *out, const struct bp_chart *c, const struct bp_model *m, int y)
{
	uint64_t wait = 0, bytes = 0, by_cause[BP_NCAUSES] = { 0 };
	char a[BP_FMT_LEN], b[BP_FMT_LEN];
	size_t i;
	int k;

	for (i = 0; i < m->nprocesses; i++) {
		if (c->shown[i] != LANE_OTHERS)
			continue;
		wait += m->processes[i].wait_ns;
		bytes += m->processes[i].bytes_read;
		for (k = 0; k < BP_NCAUSES; k++)
			by_cause[k] += m->processes[i].wait_by_cause[k];
	}
	fprintf(out, "<g class=\"lane others\"><title>%zu processes below --min-wait %s or "
		"--min-bytes %s\nI/O wait %s", c->nothers, bp_fmt_ns(a, c->o.min_wait_ns),
		bp_fmt_bytes(b, c->o.min_bytes), bp_fmt_ns(a, wait));
	wait_causes(out, by_cause);
	fprintf(out, "\nread %s from storage</title>", bp_fmt_bytes(a, bytes));
	fprintf(out, "<rect class=\"sl\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", X0, y,
		PLOT_W, BAR_H);
	bp_chart_lane_runs(out, &c->others, y);
	fprintf(out, "<text x=\"4\" y=\"%d\">others (%zu processes)</text></g>\n", y + BAR_H,
		c->nothers);
}

/*
 * The y of the folded processes' lanes (lane_y by process index, the own
 * lanes' set): a collapsed lane under its owner's, the kernel threads'
 * lane at y, the others' after it.
 */
static void folded_y(const struct bp_chart *c, int *lane_y, int y)
{
	size_t i, n = c->m->nprocesses;

	for (i = 0; i < n; i++) {
		switch (c->shown[i]) {
		case LANE_COLLAPSED:
			lane_y[i] = lane_y[c->into[i]] + LANE_H;
			break;
		case LANE_KTHREAD:
			lane_y[i] = y;
			break;
		case LANE_OTHERS:
			lane_y[i] = y + (c->nkthreads ? LANE_H : 0);
			break;
		default:
			break;
		}
	}
}

/* ---- legend ---- */

static void legend(FILE *out, const struct bp_chart *c, int y)
{
	static const struct {
		const char *cls, *text;
	} items[] = {
		{ "run", "running" },
		{ "rq", "runnable (waiting for a CPU)" },
		{ "io", "I/O wait" },
		{ "dw", "other uninterruptible sleep" },
		{ "sl", "sleeping" },
		{ "busy", "CPU busy" },
		{ "iw", "CPU idle while a task waited on I/O" },
		{ "tput", "disk reads completed (MB/s)" },
		{ "ic", "initcall" },
		{ "svc", "service" },
	};
	size_t i;
	int x = 8;

	fputs("<g class=\"legend\">", out);
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		fprintf(out, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"12\" height=\"%d\"/>"
			"<text x=\"%d\" y=\"%d\">%s</text>", items[i].cls, x, y, BAR_H, x + 16,
			y + BAR_H, items[i].text);
		x += 24 + (int)strlen(items[i].text) * 6;
		if (x > WIDTH - 220) {
			x = 8;
			y += 16;
		}
	}
	fprintf(out, "<path class=\"wq\" d=\"M%d %dh14\"/><text x=\"%d\" y=\"%d\">tasks in I/O "
		"wait</text>", x, y + 5, x + 18, y + BAR_H);
	x += 130;
	fprintf(out, "<path class=\"rqf\" d=\"M%d %dh14\"/><text x=\"%d\" y=\"%d\">requests in "
		"flight on a disk</text>", x, y + 5, x + 18, y + BAR_H);
	x += 170;
	fprintf(out, "<path class=\"fm\" d=\"M%d %dv%d\"/><text x=\"%d\" y=\"%d\">first read of a "
		"top file</text>", x + 6, y - 1, BAR_H + 2, x + 12, y + BAR_H);
	x += 150;
	fprintf(out, "<path class=\"ph\" d=\"M%d %dv%d\"/><text x=\"%d\" y=\"%d\">phase</text>",
		x + 6, y - 2, BAR_H + 4, x + 12, y + BAR_H);
	if (c->pre) {
		y += 16;
		bp_chart_preload_legend(out, c, 8, y);
	}
	if (c->o.critical) {
		y += 16;
		bp_chart_critical_legend(out, c, 8, y);
	}
	fprintf(out, "<text x=\"8\" y=\"%d\" class=\"small\">Each pixel column of a lane shows the "
		"state its tasks spent most time in. Hover a bar for its numbers.</text>", y + 28);
	fputs("</g>\n", out);
}

static const char style[] =
	"<style>"
	"text{fill:#222;white-space:pre}.h{font-size:15px;font-weight:bold}.small{font-size:9px;fill:#555}"
	".run,.busy{fill:#2c7bb6}.rq{fill:#abd9e9}.io,.iw{fill:#d7191c}.dw{fill:#fdae61}"
	".sl{fill:#dcdcdc}.tput{fill:#1a9641}.wq{fill:none;stroke:#8c510a;stroke-width:1}"
	".rqf{fill:none;stroke:#e66101;stroke-width:1}"
	".ic{fill:#8c6bb1}.svc{fill:#35978f}.fm{stroke:#000;stroke-width:1}"
	".ph{stroke:#444;stroke-width:1;stroke-dasharray:4 3}.phl{font-size:10px;fill:#444}"
	".cpo{fill:none;stroke:#e7298a;stroke-width:1.5}.cpl{fill:none;stroke:#e7298a;stroke-width:0.6;stroke-opacity:0.6}.grid{stroke:#e6e6e6;stroke-width:1}.axis{stroke:#222}.strip{fill:#f6f6f6}"
	"</style>\n";

int bp_chart_write(struct bp_chart *c, FILE *out)
{
	const struct bp_model *m = c->m;
	const struct bp_disk_stat **disks = xcalloc(m->ndisks + 1, sizeof(*disks));
	struct lane_order lo;
	struct layout l = { 0 };
	int *row_of = xcalloc(c->o.marks ? c->o.marks->ncalls + 1 : 1, sizeof(int));
	int *lane_y = xcalloc(m->nprocesses + 1, sizeof(int));
	int y;
	size_t i;

	lane_order(c, &lo);
	l.initcall_rows = initcall_rows(c, row_of);
	l.ndisks = disk_strips(m, disks);
	l.nservices = m->nservices;
	l.nlanes = lo.n + (c->nothers ? 1 : 0) + (c->nkthreads ? 1 : 0);
	for (i = 0; i < lo.n; i++)
		l.nlanes += c->ncollapsed[lo.idx[i]] ? 1 : 0;
	l.y_axis = 116;
	l.y_cpu = l.y_axis + 10;
	l.y_disk = l.y_cpu + STRIP_H + 10;
	l.y_disks = l.y_disk + STRIP_H + 10;
	l.y_preload = l.y_disks + (int)l.ndisks * (DISK_STRIP_H + 10);
	l.y_initcalls = l.y_preload + bp_chart_preload_height(c) + 4;
	l.y_services = l.y_initcalls + (l.initcall_rows ? l.initcall_rows * LANE_H + 16 : 0) + 14;
	l.y_lanes = l.y_services + (int)l.nservices * LANE_H + (l.nservices ? 18 : 0);
	l.y_legend = l.y_lanes + (int)l.nlanes * LANE_H + 20;
	l.height = l.y_legend + 64 + (c->o.critical ? 16 : 0) + (c->pre ? 16 : 0);

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n<title>"
		"bootprof chart: ", WIDTH, l.height, WIDTH, l.height);
	bp_xml_put(out, c->o.file ? c->o.file : "-");
	fprintf(out, "</title>\n%s<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", style, WIDTH,
		l.height);
	header(out, c, m);
	axis(out, c, &l);
	cpu_strip(out, c, m, l.y_cpu);
	disk_strip(out, c, m, l.y_disk);
	for (i = 0; i < l.ndisks; i++)
		disk_read_strip(out, c, m, disks[i], l.y_disks + (int)i * (DISK_STRIP_H + 10));
	bp_chart_preload_strip(out, c, l.y_preload);
	initcalls(out, c, &l, row_of);
	services(out, c, m, &l);
	fprintf(out, "<text x=\"8\" y=\"%d\" font-weight=\"bold\">processes</text>\n",
		l.y_lanes - 3);
	for (i = 0; i < m->nprocesses; i++)
		lane_y[i] = -1;
	for (i = 0, y = l.y_lanes; i < lo.n; i++, y += LANE_H) {
		process_lane(out, c, &m->processes[lo.idx[i]], &c->acc[lo.idx[i]], lo.depth[i], y);
		lane_y[lo.idx[i]] = y;
		/* Its short-lived children, under it. */
		if (c->ncollapsed[lo.idx[i]]) {
			y += LANE_H;
			bp_chart_collapsed_lane(out, c, lo.idx[i], lo.depth[i] + 1, y);
		}
	}
	folded_y(c, lane_y, y);
	if (c->nkthreads)
		bp_chart_kthreads_lane(out, c, y);
	y += c->nkthreads ? LANE_H : 0;
	if (c->nothers)
		others_lane(out, c, m, y);
	bp_chart_critical(out, c, lane_y);
	phases(out, c, &l);
	legend(out, c, l.y_legend);
	fputs("</svg>\n", out);
	free(lo.idx);
	free(lo.depth);
	free(row_of);
	free(lane_y);
	free(disks);
	if (fflush(out) || ferror(out)) {
		bp_set_error_errno("cannot write the chart");
		return -1;
	}
	return 0;
}
