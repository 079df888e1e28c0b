/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_SVG_LANES_H
#define BP_VIEWS_SVG_LANES_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/focus.h"
#include "util/map.h"
#include "views/svg.h"

/*
 * The chart's data, gathered (svg-lanes.c) before it is drawn (svg.c):
 * time per state and pixel column for each lane, CPU use per column.
 */

/* Geometry, px. */
#define WIDTH 1400
#define X0 240                         /* left edge of the plot */
#define PLOT_W BP_CHART_COLUMNS        /* one px per column */
#define LANE_H 12
#define BAR_H 9
#define STRIP_H 50
#define DISK_STRIP_H 36                /* one disk's strip */
#define MAX_DEPTH 12                   /* indentation levels of process labels */
#define INITCALL_ROWS 4
#define TOP_FILE_MARKS 3
#define MAX_CPUS 8192                  /* CPU numbers above are ignored (corrupt) */

/* Tracked states per pixel column; their order is the tie-break (first wins). */
enum { ST_IO, ST_OTHER, ST_RUN, ST_RUNNABLE, ST_SLEEP, NST };

/* Span time of one lane (or task) over the pixel columns [c0, c0 + n). */
struct lane_acc {
	int c0;
	int n;
	int cap;                 /* columns allocated (>= n) */
	float (*col)[NST];
};

struct bp_chart {
	const struct bp_model *m; /* set by bp_chart_attach() */
	struct bp_chart_opts o;
	uint64_t since, until;   /* the window */
	double col_ns;           /* width of one column */
	int ncpus;               /* for the CPU strip: the model's, at least nbusy */
	float (*busy)[PLOT_W];   /* by CPU: time it ran a task, per column */
	int nbusy;
	struct bp_map tids;      /* tid -> index in tacc */
	struct lane_acc *tacc;   /* by task (tid), during the pass */
	size_t ntacc, tcap;
	unsigned char *shown;    /* by process index: enum lane */
	struct bp_filter focus;  /* the traced command's tree, or empty */
	int focus_pid;
	struct lane_acc *acc;    /* by process index, after bp_chart_attach() */
	struct lane_acc others;
	size_t nothers;
	struct lane_acc kthreads; /* the idle kernel threads' lane */
	size_t nkthreads;
	/* By process index: its short-lived children's lane (LANE_COLLAPSED into it) */
	struct lane_acc *collapsed;
	size_t *ncollapsed;
	size_t *into;            /* by process index: for LANE_COLLAPSED, the lane's owner */
	const struct bp_preloaded *pre; /* the preloader's lane, or NULL (borrowed) */
};

/* Where a process is drawn. */
enum lane {
	LANE_OTHERS,    /* folded into the "others" lane */
	LANE_OWN,       /* its own lane */
	LANE_NONE,      /* outside the focus: not drawn */
	LANE_KTHREAD,   /* an idle kernel thread: the kernel threads' lane */
	LANE_COLLAPSED, /* short-lived and idle: its parent's "short-lived" lane (into) */
};

/* The x of instant @ns, clamped to the plot. */
double bp_chart_x(const struct bp_chart *c, uint64_t ns);

/*
 * The critical path (c->o.critical) over the lanes (svg-critical.c):
 * @lane_y by process index, the y of the lane it is drawn in or -1.
 * Nothing without a path.
 */
void bp_chart_critical(FILE *out, const struct bp_chart *c, const int *lane_y);

/* A lane's bars: one path per state, the runs of columns it dominates (svg.c). */
void bp_chart_lane_runs(FILE *out, const struct lane_acc *a, int y);

/* The folded lanes (svg-folded.c): the short-lived children collapsed into @owner ... */
void bp_chart_collapsed_lane(FILE *out, const struct bp_chart *c, size_t owner, int depth, int y);
/* ... and the idle kernel threads. */
void bp_chart_kthreads_lane(FILE *out, const struct bp_chart *c, int y);

/* A strip's background, label and note (svg.c). */
void bp_chart_strip_frame(FILE *out, int y, int h, const char *label, const char *note);
/* Columns of heights h[k] px standing on base (up) or hanging from it, one path (svg.c). */
void bp_chart_columns(FILE *out, const char *cls, const double *h, int n, int base, int up);

/* The preloader's lane (svg-preload.c): its height with its gap, 0 without a preloader ... */
int bp_chart_preload_height(const struct bp_chart *c);
/* ... the lane at y ... */
void bp_chart_preload_strip(FILE *out, const struct bp_chart *c, int y);
/* ... and its legend entries from (x, y); returns the x after them. */
int bp_chart_preload_legend(FILE *out, const struct bp_chart *c, int x, int y);

/* Characters of UTF-8 text; cut @s after @chars of them, ending it with an ellipsis. */
size_t bp_chart_text_chars(const char *s);
void bp_chart_text_cut(char *s, size_t chars);
/* Its legend entry at (x, y), or nothing. */
void bp_chart_critical_legend(FILE *out, const struct bp_chart *c, int x, int y);

#endif
