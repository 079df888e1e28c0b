/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_SORT_H
#define BP_ANALYSIS_SORT_H

#include <stddef.h>

#include "analysis/model.h"

/*
 * Orders the model's selections offers no key for: processes by name or
 * by files touched, and the (process, file) accesses a drill-down lists.
 * Pure functions of the model; every order is total (ties fall back to
 * pid, then path, then start), so views print the same rows every time.
 */

/* Extra process orders (bp_model_select_processes() has the others). */
enum bp_process_order {
	BP_ORDER_PROC_COMM,  /* comm asc */
	BP_ORDER_PROC_FILES, /* nfiles desc, bytes desc */
	BP_ORDER_PROC_WORST, /* worst_file path asc, processes without one last */
};

/**
 * bp_sort_processes() - sort a selection of processes
 * @v: pointers into a model
 * @n: entries
 * @order: enum bp_process_order
 */
void bp_sort_processes(struct bp_process **v, size_t n, enum bp_process_order order);

/* Orders of accesses (a file's readers, a process's files). */
enum bp_access_order {
	BP_ORDER_ACCESS_WAIT,  /* wait desc, bytes desc */
	BP_ORDER_ACCESS_BYTES, /* bytes desc, wait desc */
	BP_ORDER_ACCESS_FIRST, /* first_ns asc */
	BP_ORDER_ACCESS_LAST,  /* last_ns desc */
	BP_ORDER_ACCESS_PID,   /* process pid asc */
	BP_ORDER_ACCESS_COMM,  /* process comm asc */
	BP_ORDER_ACCESS_PATH,  /* file path asc */
};

/**
 * bp_sort_accesses() - sort accesses in place
 * @v: pointers into a model (e.g. a copy of bp_file.readers)
 * @n: entries
 * @order: enum bp_access_order
 */
void bp_sort_accesses(struct bp_access **v, size_t n, enum bp_access_order order);

#endif
