/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_TUI_SCREEN_H
#define BP_VIEWS_TUI_SCREEN_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/critical.h"
#include "analysis/model.h"
#include "views/report.h"
#include "views/tui/top.h"

/*
 * The screen as data: top's state (views, sort, selection, window,
 * filter), what keys do to it, and the frame it shows, as lines of text
 * with attributes. No curses here: curses.c draws frames and turns its key
 * codes into TOP_KEY_*; --batch prints frames as text.
 */

#define TOP_MAX_WIDTH 400
#define TOP_MIN_WIDTH 40
#define TOP_MIN_HEIGHT 10

/* What a part of the screen is, for curses to colour (or not). */
enum top_attr {
	TA_NORMAL,
	TA_TITLE,     /* the title line and table titles */
	TA_WARN,      /* lost events, errors */
	TA_HEAD,      /* column headers */
	TA_SORT,      /* the sort column's header */
	TA_SEL,       /* the selected row */
	TA_STRIP,     /* timeline levels */
	TA_WINDOW,    /* the selected window under the timeline */
	TA_KEY,       /* a key in the footer */
	TA_FOOTER,    /* the footer's labels */
	TA_NATTRS
};

struct top_span {
	int start;
	int len;
	enum top_attr attr;
};

#define TOP_MAX_SPANS 16

/* One screen line: text padded to the frame width, a base attribute, highlights. */
struct top_line {
	char text[TOP_MAX_WIDTH + 1];
	enum top_attr attr;
	struct top_span spans[TOP_MAX_SPANS];
	int nspans;
};

struct top_frame {
	struct top_line *lines;
	size_t nlines;
	size_t cap;
	int width;
};

/* Keys, decoupled from curses: printable ASCII as itself, the rest here. */
enum {
	TOP_KEY_UP = 0x100,
	TOP_KEY_DOWN,
	TOP_KEY_PGUP,
	TOP_KEY_PGDN,
	TOP_KEY_HOME,
	TOP_KEY_END,
	TOP_KEY_LEFT,
	TOP_KEY_RIGHT,
	TOP_KEY_SLEFT,
	TOP_KEY_SRIGHT,
	TOP_KEY_ENTER,
	TOP_KEY_BACKSPACE,
	TOP_KEY_ESC,
	TOP_KEY_TAB,
	TOP_KEY_F1,
	TOP_KEY_F3,
	TOP_KEY_F4,
	TOP_KEY_F5,
	TOP_KEY_F6,
	TOP_KEY_F10,
};

enum top_level_kind {
	LEVEL_FILES,  /* all files */
	LEVEL_PROCS,  /* all processes */
	LEVEL_FILE,   /* one file: its readers */
	LEVEL_PROC,   /* one process: its files and its children */
	LEVEL_SERVICES, /* all services (bp_view_services()) */
	LEVEL_SERVICE,  /* one service: its processes */
	LEVEL_PATH,     /* the critical path: categories, files, tasks (path.c) */
};

/* A service named by its cgroup, or by its unit when it has none ("[PID 1]"); longer: cut. */
#define TOP_SERVICE_LEN 256

/* One view on the drill-down stack; objects are named, not pointed to, so a rebuild keeps it. */
struct top_level {
	enum top_level_kind kind;
	uint32_t dev;        /* LEVEL_FILE */
	uint64_t ino;
	int pid;             /* LEVEL_PROC */
	uint64_t start_ns;
	char service[TOP_SERVICE_LEN]; /* LEVEL_SERVICE */
	int sort;            /* index into the level's columns */
	int reverse;         /* the sort order reversed (r, I) */
	size_t sel;          /* selected row */
	size_t first;        /* first row shown */
};

enum top_row_kind {
	ROW_FILE,       /* a bp_file (files view) */
	ROW_PROC,       /* a bp_process (processes view, children) */
	ROW_READER,     /* a bp_access shown as its process (a file's readers) */
	ROW_ACCESS,     /* a bp_access shown as its file (a process's files) */
	ROW_TITLE,      /* a title inside the list (not selectable) */
	ROW_HEAD,       /* column headers inside the list (not selectable) */
	ROW_SERVICE,    /* a bp_service_row of top.services (services view) */
	ROW_PATH,       /* a top_path_item of top.path_items (path view) */
	ROW_SECTION,    /* a section's title in the path view (not selectable) */
};

/* The path view's sections, in the order shown. */
enum top_path_section {
	TOP_PATH_CATEGORY,  /* time by state (bootprof critical's totals) */
	TOP_PATH_FILE,      /* I/O time per file */
	TOP_PATH_TASK,      /* time per task: its segments summed */
	TOP_PATH_NSECTIONS
};

/* The path view's sort keys (top_col.order). */
enum { TOP_PATH_BY_MS, TOP_PATH_BY_SEGMENTS, TOP_PATH_BY_DETAIL, TOP_PATH_BY_NAME };

/**
 * struct top_path_item - a row of the path view
 * @section: which list it is in
 * @name: a category's title, a file's path, "comm[tid]" (owned)
 * @ns: the path's time in it
 * @segments: the path's segments in it
 * @detail: a category's JSON name, a file's dev:ino, a task's pid and state
 * @state: a category's state, the state a task was most in
 * @dev: a file's device; @ino its inode; @has_file it has a path (Enter opens it)
 * @pid: a task's process (Enter opens it)
 */
struct top_path_item {
	enum top_path_section section;
	char *name;
	uint64_t ns;
	size_t segments;
	char detail[48];
	enum bp_crit_state state;
	uint32_t dev;
	uint64_t ino;
	int has_file;
	int pid;
};

struct top_row {
	enum top_row_kind kind;
	const void *obj;
	int depth;      /* tree view: generations below its shown ancestor */
};

#define TOP_MAX_DEPTH 32
#define TOP_FILTER_LEN (BP_TOP_FILTER_MAX + 1)

struct top {
	const struct bp_top_source *src;
	int batch;                  /* no footer, no timings */
	size_t max_rows;            /* batch: rows of the list, 0: all */
	struct bp_model *full;      /* the whole recording: the timeline strip */
	struct bp_model *win;       /* the window: every other number (== full when unset) */
	uint64_t since_ns;          /* the selected window; 0/0: the whole recording */
	uint64_t until_ns;
	int window_dirty;           /* rebuild before the next frame */
	double rebuild_ms;          /* cost of the last window rebuild */
	int rebuilding;             /* a window model is being built elsewhere */
	int cumulative;             /* live: whole recording vs the last interval */
	uint64_t interval_since_ns; /* live: start of the last interval */
	uint64_t updates;           /* live: intervals so far */
	int update_now;             /* live: update before the next frame (mode changed) */
	struct top_level stack[TOP_MAX_DEPTH];
	int depth;                  /* stack[depth - 1] is shown */
	char filter[TOP_FILTER_LEN];
	struct bp_filter focus;     /* the traced command's tree (analysis/focus.h), or empty */
	int focus_pid;              /* its pid, 0: every process */
	int active_only;            /* list only what waited or read (like iotop -o) */
	int tree;                   /* processes view: children under their parent (t, F5) */
	int editing;                /* typing a filter */
	char saved_filter[TOP_FILTER_LEN];
	int help;                   /* help shown */
	char message[160];          /* one-shot status (errors) */
	struct top_row *rows;       /* rows of the current level */
	size_t nrows, rows_cap;
	struct bp_service_row *services; /* the services view's rows point here */
	size_t nservices;           /* services of the focus, before the filter and o */
	int rows_dirty;
	int strip_cols;             /* columns of the last timeline drawn */
	int list_top;               /* screen line of the first row, last frame */
	int list_height;            /* rows that fit, last frame */
	int strip_line;             /* screen line of the wait strip, last frame */
	struct bp_critical_path *path; /* the whole recording's, once the path view asked */
	int path_tried;
	char path_error[160];       /* why there is none */
	struct top_path_item *path_items; /* every section's rows, the path's order */
	size_t npath_items, path_items_cap;
	size_t path_shown[TOP_PATH_NSECTIONS]; /* rows of each section the filter kept */
};

/* Build the first models (whole recording, then the window in @o). 0 or -1. */
int top_init(struct top *t, const struct bp_top_source *src, const struct bp_top_opts *o,
	     int batch);
void top_release(struct top *t);

/* Live: take in new events and rebuild. 0 or -1 (message set, old models kept). */
int top_update(struct top *t);

/*
 * Apply a key. Returns 1 to quit, 0 otherwise. A window change only marks
 * the window dirty: top_apply() rebuilds once after a burst of keys.
 */
int top_key(struct top *t, int key);

/*
 * The key table, for the help screen and its tests: the keys of action
 * @i ("s > . F6") into @keys and its help into *@help. Returns the number
 * of actions, 0 when @i is past the last.
 */
size_t top_key_help(size_t i, char *keys, size_t size, const char **help);

/* Rebuild the window's model if keys changed it. 0 or -1 (message set). */
int top_apply(struct top *t);

/*
 * The same in two steps, for building in another thread: whether keys
 * changed the window to one that needs a model (1, *w set; the whole
 * recording's needs none: 0), then installing the model built for it
 * (owned by t from then on) with what it cost.
 */
int top_window_wanted(struct top *t, struct bp_window *w);
void top_window_built(struct top *t, struct bp_model *m, double ms);

/* A mouse click at screen (line, col): select a row or move the window. */
void top_click(struct top *t, int line, int col);

/* Build the frame for a screen of @width x @height (@height 0: every row, no footer). */
void top_render(struct top *t, struct top_frame *f, int width, int height);
void top_frame_release(struct top_frame *f);

/*
 * top_render(@height 0) a part at a time, so that --batch never holds a
 * frame line per row of a long list: top_render_head() builds the frame
 * down to the list's column headers (1), or the whole frame when there is
 * no list (0: too small, help); top_render_rows() adds rows @first to
 * @first + @n - 1 of those shown, then the "... N more" line after the
 * last, and returns how many rows it added (0: none left).
 */
int top_render_head(struct top *t, struct top_frame *f, int width);
size_t top_render_rows(struct top *t, struct top_frame *f, size_t first, size_t n);

#endif
