/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_PLUGIN_INTERNAL_H
#define BP_PLUGIN_INTERNAL_H

#include <stdint.h>

#include "analysis/model.h"
#include "doc/doc.h"
#include "plugin/plugins.h"

/* Shared with the plugins built as .so, which see only the public header. */
#include "../../plugins/ksyms.h"

struct bootprof_field {
	int off;
	int size;
	int dyn;                 /* __data_loc: off/len word */
	int rel;                 /* __rel_loc: off counts from the field's end */
	int is_signed;
	int swap;                /* the recording's byte order differs from ours */
	struct bootprof_field *next;
};

#define BP_OUT_DEPTH 32

/*
 * Where a plugin's output goes now: an object ('o'), a table ('t') or the
 * current row of a table ('r'). Tables and rows feed both the text
 * section and the JSON tree.
 */
struct bp_out_frame {
	char kind;
	struct bp_node *node;    /* its JSON value; NULL: text only */
	struct bootprof_column *cols; /* a table's columns (owned copy) */
	size_t ncols;
	size_t top;              /* rows shown in text; 0: all */
	long section;            /* a table's section index in the run's doc, -1: none */
};

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
	char *title;             /* of the next section, set by host->section */
	long section;            /* index of the section lines go to; -1: a new one */
	struct bp_doc out;       /* sections and the JSON object (out.json) */
	struct bp_out_frame stack[BP_OUT_DEPTH];
	int depth;
	int overflow;            /* opens beyond BP_OUT_DEPTH, ignored */
	char ksym[256];
};

/* One interval of the pass: an I/O wait of @tid, or (tid 0) every CPU idle while someone waited. */
struct bp_wait_span {
	int tid;
	uint64_t start_ns;
	uint64_t end_ns;
};

/* The pass's waits, kept for host->waiting (plugin/waiting.c). */
struct bp_plugin_waits {
	struct bp_wait_span *io;  /* every task's I/O waits, in the order they ended */
	size_t nio, cio;
	struct bp_wait_span *idle; /* in time order */
	size_t nidle, cidle;
	int fed;                  /* the span hook was handed out: the pass fills this */
};

/* Free the marks host->mark kept (host.c). */
void bp_plugin_marks_release(struct bp_plugin_set *set);

void bp_plugin_waits_span(struct bp_plugin_waits *w, const struct bp_span *sp);
void bp_plugin_waits_release(struct bp_plugin_waits *w);

struct bp_plugin_set {
	struct bp_plugin_run **runs;
	size_t nruns, cap;
	char **warnings;
	size_t nwarnings, wcap;
	const char *const *opts;
	size_t nopts;
	struct tep_handle *tep;
	struct ksyms ksyms;       /* the recording's kallsyms, for host->ksym */
	unsigned char *any_wants; /* by event id: some plugin wants it */
	int *pid_off;             /* by event id: common_pid offset, -1 unknown */
	size_t nids;
	int swap;
	int arch;                 /* enum bp_arch of the recording */
	uint64_t since_ns;        /* the report's window; until 0: no end */
	uint64_t until_ns;
	struct bp_doc doc;        /* the finished runs' output, for the views */
	struct bp_plugin_waits waits;
	struct bootprof_mark *marks; /* host->mark's, in the order given; strings owned */
	const char **mark_by;        /* the plugin that gave each (its descriptor's name) */
	size_t nmarks, cmarks;
};

/*
 * The model as plugins see it (struct bootprof_model): the processes the
 * report's filter selects, their threads and accesses, the files they
 * touched (with their part of each file's wait, bytes and readers) and the
 * programs they exec'd. Without a filter, the whole model, index for index.
 */
struct bp_plugin_model {
	const struct bp_model *m;
	struct bp_filter filter;
	int filtered;
	struct bp_process **procs;
	size_t nprocs;
	size_t *proc_slot;        /* model process index -> view index, BOOTPROF_NONE */
	struct bp_file **files;
	size_t nfiles;
	size_t *file_slot;        /* model file index -> view index, BOOTPROF_NONE */
	struct bp_access **accesses;
	size_t naccesses;
	struct bp_thread **threads;
	size_t nthreads;
	struct bp_exec_count *execs;
	size_t nexecs;
	const struct bp_plugin_waits *waits;
};

/* @f: the views' filter, or NULL (everything). Release with bp_plugin_model_release(). */
void bp_plugin_model_init(struct bp_plugin_model *v, const struct bp_model *m,
			  const struct bp_filter *f);
void bp_plugin_model_release(struct bp_plugin_model *v);

/*
 * host->waiting over the view @v: @in has one byte per process of @v.
 * Return 0, or -1 when @w was never fed (no pass).
 */
int bp_plugin_waits_of(const struct bp_plugin_waits *w, const struct bp_plugin_model *v,
		       const unsigned char *in, struct bootprof_waiting *out);

void bp_plugin_warn(struct bp_plugin_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

extern const struct bootprof_host bp_plugin_host;

void bp_plugin_output_release(struct bp_plugin_run *run);
/* End what a model callback left open; move its output into the set's doc. */
void bp_plugin_output_publish(struct bp_plugin_run *run);

#endif
