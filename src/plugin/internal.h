/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_PLUGIN_INTERNAL_H
#define BP_PLUGIN_INTERNAL_H

#include <stdint.h>

#include "plugin/plugins.h"

/* A JSON value a plugin wrote: '{' object, '[' array, 'u' 'i' 'd' 's' 'b' 'n'. */
struct bp_jnode {
	char type;
	char *key;               /* NULL inside arrays */
	char *s;
	uint64_t u;
	int64_t i;
	double d;
	struct bp_jnode **kids;
	size_t nkids, cap;
};

/* One piece of a text section: a line, or a table when line is NULL. */
struct bp_out_item {
	char *line;
	size_t ncols;
	char **head;
	char *align;
	char **cells;            /* nrows * ncols */
	size_t nrows, cap;
};

struct bootprof_field {
	int off;
	int size;
	int dyn;                 /* __data_loc: off/len word */
	int is_signed;
	int swap;                /* the recording's byte order differs from ours */
	struct bootprof_field *next;
};

#define BP_JSON_DEPTH 32

/* One plugin in a run; ctx first so host functions find the run from it. */
struct bp_plugin_run {
	struct bootprof_ctx ctx;
	const struct bootprof_plugin *p;
	struct bp_plugin_set *set;
	char *origin;
	void *dl;                /* dlopen handle, NULL for built-ins */
	int fd;                  /* the .so, open while dl is loaded */
	int started;             /* init was called: release is due */
	int active;              /* init succeeded; model not failed */
	unsigned char *wants;    /* by event id: the event callback wants it */
	size_t nwants;
	struct bootprof_field *fields;
	char *title;
	struct bp_out_item *items;
	size_t nitems, cap;
	struct bp_jnode *json;
	struct bp_jnode *stack[BP_JSON_DEPTH];
	int depth;
	int json_overflow;       /* opens beyond BP_JSON_DEPTH, ignored */
	char ksym[256];
};

struct bp_plugin_set {
	struct bp_plugin_run **runs;
	size_t nruns, cap;
	char **warnings;
	size_t nwarnings, wcap;
	const char *const *opts;
	size_t nopts;
	struct tep_handle *tep;
	unsigned char *any_wants; /* by event id: some plugin wants it */
	int *pid_off;             /* by event id: common_pid offset, -1 unknown */
	size_t nids;
	int swap;
	int arch;                 /* enum bp_arch of the recording */
};

void bp_plugin_warn(struct bp_plugin_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

extern const struct bootprof_host bp_plugin_host;

void bp_plugin_output_release(struct bp_plugin_run *run);
void bp_jnode_free(struct bp_jnode *n);

#endif
