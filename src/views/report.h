/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_REPORT_H
#define BP_VIEWS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/model.h"

/*
 * The report renderers: the same model and options, four formats. Each
 * writes to out and returns 0, or -1 with bp_set_error() (unknown table).
 * Output is deterministic: every list is sorted with tie-breaks.
 */
struct bp_doc;
struct bp_critical_path;
struct bp_phase;
struct bp_preloaded;

struct bp_report_opts {
	const char *file;         /* the recording's name, shown in the header */
	size_t top;               /* rows per list; 0 = all */
	struct bp_filter filter;
	int focus_pid;            /* filter is the traced command's tree (analysis/focus.h): its pid */
	int tree;                 /* processes as a tree with descendant totals */
	const char *table;        /* csv: which table (see bp_csv_tables) */
	size_t width;             /* text: columns per line (0: 100) */
	int verbose;              /* long header values in full, not summarised on one line */
	const struct bp_doc *plugins; /* the plugins' sections and JSON, after ours; NULL: none */
	const struct bp_phase *phases; /* analysis/phases.h, by end; NULL: none */
	size_t nphases;
	const struct bp_preloaded *preloaded; /* replay/build.h: the preloader's reads, not
					       * filtered; NULL: no preloader in the recording */
	/* analysis/critical.h: the path to the default end point, for the verdict; NULL: none */
	const struct bp_critical_path *critical;
};

/* The report's own content from the model (doc.c). Release with bp_doc_release(). */
void bp_doc_build(struct bp_doc *d, const struct bp_model *m, const struct bp_report_opts *o);

int bp_view_text(FILE *out, const struct bp_model *m, const struct bp_report_opts *o);
int bp_view_markdown(FILE *out, const struct bp_model *m, const struct bp_report_opts *o);
int bp_view_json(FILE *out, const struct bp_model *m, const struct bp_report_opts *o);
int bp_view_csv(FILE *out, const struct bp_model *m, const struct bp_report_opts *o);

/**
 * struct bp_service_row - a service as its users know it
 * @service: the model's service (a cgroup), NULL for the rows below
 * @unit: its systemd unit ("systemd-udevd.service", "init.scope"), or
 *        the cgroup path when that names no unit; beside the cgroups, on a
 *        recording with services: "[PID 1]" (the init, whatever its
 *        cgroup), "[initramfs]" (PID 1's descendants in no cgroup that
 *        started before the first process was placed in one: what ran
 *        before the service manager), "[recorder]" (bootprof's own,
 *        left out of every other number: only its CPU time)
 * @nprocesses: its processes (those the filter selects)
 * @wait_ns: their I/O wait
 * @bytes_read: what they read from storage
 * @run_ns: their CPU time
 * @first_start_ns: start of its first process; 0: before the recording
 * @first_exec_ns: its first exec: for a cgroup, the first made by one of
 *                 its processes while in that cgroup (what a scope adopted
 *                 had exec'd before is not its own); for [PID 1] and
 *                 [initramfs], their processes' first; 0: none
 * @first_exec: the program of that exec (borrowed from the model), NULL
 *              when none
 * @last_exit_ns: exit of its last process; 0 when @running
 * @running: one of its processes was alive at the end of the recording
 */
struct bp_service_row {
	const struct bp_service *service;
	char unit[256];
	size_t nprocesses;
	uint64_t wait_ns;
	uint64_t bytes_read;
	uint64_t run_ns;
	uint64_t first_start_ns;
	uint64_t first_exec_ns;
	const char *first_exec;
	uint64_t last_exit_ns;
	int running;
};

/*
 * The services of the processes @f selects (NULL: all), by I/O wait,
 * bytes, unit (BP_ORDER_SVC_WAIT); *@n rows. Caller frees.
 */
struct bp_service_row *bp_view_services(const struct bp_model *m, const struct bp_filter *f,
					size_t *n);

/**
 * bp_service_select() - keep the processes a service row counts
 * @m: the model @r was made from (bp_view_services())
 * @r: the row
 * @v: processes of @m; those of @r are moved to the front, in their order
 * @n: entries of @v
 *
 * The [recorder] row has no process of @m: none is kept.
 *
 * Return: the number kept.
 */
size_t bp_service_select(const struct bp_model *m, const struct bp_service_row *r,
			 struct bp_process **v, size_t n);

/* Orders of service rows; ties fall back to the unit, then the cgroup path. */
enum bp_service_order {
	BP_ORDER_SVC_WAIT,   /* wait desc, bytes desc: the report's order */
	BP_ORDER_SVC_BYTES,  /* bytes desc, wait desc */
	BP_ORDER_SVC_RUN,    /* CPU time desc */
	BP_ORDER_SVC_PROCS,  /* processes desc */
	BP_ORDER_SVC_START,  /* first start asc ("before" the recording first) */
	BP_ORDER_SVC_EXEC,   /* first exec asc, rows without one last */
	BP_ORDER_SVC_END,    /* last exit asc, running rows last */
	BP_ORDER_SVC_UNIT,   /* unit asc */
};

/**
 * bp_sort_services() - sort service rows in place
 * @v: rows of bp_view_services()
 * @n: entries
 * @order: enum bp_service_order
 */
void bp_sort_services(struct bp_service_row *v, size_t n, enum bp_service_order order);
struct bp_group;
struct bp_summary;
/*
 * Many recordings (report --boots): per phase, process, file and service
 * the median/min/max over the recordings it appeared in, and how many.
 * format: "text", "json" or "markdown"; top: rows per section (0 all).
 */
int bp_view_boots(FILE *out, const struct bp_group *g, struct bp_summary *const *s, size_t n,
		  const char *format, size_t top);

/* The csv tables, NULL-terminated: "processes", "files", ... */
extern const char *const bp_csv_tables[];

/* Names of the model's missing measurements (enum bp_model_missing bits), for views. */
const char *bp_missing_name(unsigned bit);
const char *bp_missing_text(unsigned bit);

#endif
