/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_TUI_INTERNAL_H
#define BP_VIEWS_TUI_INTERNAL_H

#include "views/tui/screen.h"

/*
 * What the parts of the screen share: the columns and rows of each view
 * (rows.c), the frame's lines (frame.c), drawing a frame (draw.c), top's
 * models (screen.c) and the key table (actions.c).
 */

#define CELL_LEN 256
/* A last column (a path) narrower than this is left out. */
#define MIN_LAST_COL 8
/* Columns are dropped (top_col.drop) until the last one has this much room. */
#define WANT_LAST_COL 14
/* The most columns a view has. */
#define TOP_MAX_COLS 16

struct top_col {
	const char *head;
	const char *name;   /* for --sort */
	const char *alias;  /* another accepted name, or NULL */
	int width;          /* 0: what is left (the last column) */
	int right;
	int order;          /* the view's sort key */
	int drop;           /* as the width shrinks, the highest drops first; 0: never */
};

/* Sort keys of the processes view: the model's, then sort.c's, offset. */
#define PROC_ORDER_EXTRA 100

/* rows.c: each view's columns and rows */

/* The columns of a view, *@n of them. */
const struct top_col *top_level_cols(enum top_level_kind kind, int *n);
/* The column index named @name, or -1. */
int top_find_col(enum top_level_kind kind, const char *name);
int top_wait_col(enum top_level_kind kind);
enum top_level_kind top_root_kind(enum bp_top_view v);
/* The level shown. */
struct top_level *top_cur(struct top *t);
int top_row_selectable(const struct top_row *r);
struct bp_file *top_level_file(const struct top *t, const struct top_level *lv);
/* The process a level names: same pid and start (pids are reused), else the latest with the pid. */
struct bp_process *top_level_proc(const struct top *t, const struct top_level *lv);
/* What names a service row across rebuilds of the window (top_level.service). */
const char *top_service_key(const struct bp_service_row *r);
/* The row of t->services a level names (a key cut to fit matches on what is left), or NULL. */
const struct bp_service_row *top_level_service(const struct top *t, const struct top_level *lv);
/* Reverse v[0..n). */
void top_reverse_ptrs(void **v, size_t n);
/* The rows of the current level, in its sort order. */
void top_build_rows(struct top *t);
/* A row's cells as a new line of @f. */
void top_put_row(struct top *t, struct top_frame *f, const struct top_row *r, int selected);

/* path.c: the path view */

/* The whole recording's critical path, asked of the source once; NULL: none (t->path_error). */
const struct bp_critical_path *top_path(struct top *t);
void top_path_release(struct top *t);
/* The path level's rows, in @order (TOP_PATH_BY_*) within each section. */
void top_path_rows(struct top *t, int order, int reverse);
void top_path_cells(const struct top *t, const struct top_path_item *it, char c[][CELL_LEN]);
/* A ROW_SECTION row (@obj) on @l; the title's second line on @l. */
void top_path_section(const struct top *t, struct top_frame *f, struct top_line *l,
		      const void *obj);
void top_path_title(struct top *t, struct top_frame *f, struct top_line *l);

/* frame.c: lines of text with attributes */

/* A new line of the frame, blank to its width. */
struct top_line *top_new_line(struct top_frame *f, enum top_attr attr);
/* Write @s at @col, cut at the frame's width; returns the column after it. */
int top_put(struct top_frame *f, struct top_line *l, int col, const char *s);
int __attribute__((format(printf, 4, 5)))
top_putf(struct top_frame *f, struct top_line *l, int col, const char *fmt, ...);
/* Highlight columns [@start, @start + @len) of @l in @attr. */
void top_put_span(struct top_frame *f, struct top_line *l, int start, int len, enum top_attr attr);
/* Write s at col in attr; returns the column after it. */
int top_put_attr(struct top_frame *f, struct top_line *l, int col, const char *s,
		 enum top_attr attr);
/*
 * Cells under their headers, in the columns that fit the width (top_col.drop;
 * column @keep stays, -1: none); the last column takes the rest of the
 * width (paths keep their ends).
 */
void top_put_cells(struct top_frame *f, struct top_line *l, const struct top_col *cols, int n,
		   int keep, char cells[][CELL_LEN]);
void top_put_head(struct top_frame *f, struct top_line *l, const struct top_col *cols, int n,
		  int sort);

/* draw.c: the header, the timeline, the list, help and footer */

/* Where the timeline starts and the time its column @c of @n starts at. */
uint64_t top_span_since(const struct top *t);
uint64_t top_col_time(const struct top *t, int c, int n);
/* The window in timeline columns: [*c0, *c1) of n. */
void top_window_cols(const struct top *t, int n, int *c0, int *c1);

/* screen.c: top's models */

/* Build the window's model now; on failure keep the old one. 0 or -1. */
int top_rebuild_window(struct top *t);

#endif
