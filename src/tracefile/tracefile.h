/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TRACEFILE_TRACEFILE_H
#define BP_TRACEFILE_TRACEFILE_H

#include <stddef.h>
#include <stdint.h>

#include "tracefile/headers.h"
#include "tracefile/meta.h"

/*
 * The recording file: trace-cmd's trace.dat (man 5 trace-cmd.dat.v6/v7), so
 * trace-cmd report and KernelShark open bootprof recordings and bootprof
 * reads trace-cmd's. This is the only layer that parses raw ring-buffer
 * pages (with libtraceevent's kbuffer).
 */

struct tep_handle;
struct tep_event;

/* ---- reading ---- */

struct bp_reader;

/* One event, valid until the next bp_reader_next() call. */
struct bp_event {
	uint64_t ts;              /* ns on the recording's clock */
	int cpu;
	int id;                   /* tep event id (common_type) */
	struct tep_event *format; /* NULL when the file has no format for id */
	const void *data;         /* raw record, starting with the common fields */
	int size;
};

struct bp_read_stats {
	uint64_t events;         /* events returned so far */
	uint64_t pages;          /* ring-buffer pages read */
	uint64_t missed_events;  /* lost events flagged in page headers */
	uint64_t missed_pages;   /* pages flagged as having lost events (count unknown) */
	uint64_t truncated_bytes;/* data promised by the headers but missing from the file */
	int truncated;           /* the file ends before its headers say it should */
	uint64_t corrupt_pages;  /* pages skipped: damaged, or events that do not match
				    their formats (a corrupt file: commands fail on it) */
};

/*
 * Open a recording (bootprof's or trace-cmd's, v6 or v7) for streaming.
 * Returns NULL with bp_set_error() on a file that cannot be read at all;
 * a truncated file opens and is read to its last complete page (see stats).
 */
struct bp_reader *bp_reader_open(const char *path);
void bp_reader_free(struct bp_reader *r);

/* 1: *ev filled, next event in time order over all CPUs; 0: end; -1: error. */
int bp_reader_next(struct bp_reader *r, struct bp_event *ev);
/* Start again from the first event. */
int bp_reader_rewind(struct bp_reader *r);
/*
 * The losses the page headers flag (what missed_events and missed_pages
 * say after a whole read), counted before reading: one pass over the
 * pages without their events, then a rewind. 0, or -1 with bp_set_error().
 */
int bp_reader_page_losses(struct bp_reader *r, uint64_t *events, uint64_t *pages);

struct tep_handle *bp_reader_tep(struct bp_reader *r);
const struct bp_meta *bp_reader_meta(struct bp_reader *r);
/* The recording's kallsyms text (NUL-terminated), or NULL when it has none. */
const char *bp_reader_kallsyms(struct bp_reader *r);
const struct bp_read_stats *bp_reader_stats(struct bp_reader *r);
/* File format version (6 or 7). */
int bp_reader_version(struct bp_reader *r);

/*
 * Warnings found while opening/reading (truncation, unknown options), one
 * per line, or NULL when there are none. Owned by the reader.
 */
const char *bp_reader_warnings(struct bp_reader *r);

/* ---- writing ---- */

struct bp_writer;

/*
 * Create the recording at path: 0600, O_NOFOLLOW|O_CREAT|O_EXCL (with force,
 * an existing regular file is replaced; a symlink is never followed). Called
 * before tracing starts so an unwritable output fails early. Raw pages are
 * spooled per CPU until bp_writer_finish().
 */
struct bp_writer *bp_writer_create(const char *path, int force, int ncpus, int page_size);
/* A descriptor the recorder splices CPU cpu's raw ring-buffer pages into. */
int bp_writer_cpu_fd(struct bp_writer *w, int cpu);
/*
 * Optional, once tracing runs: write a provisional trace.dat now (the
 * headers, the metadata known so far, and the name of the spool) so that a
 * recorder killed before bp_writer_finish() leaves a file bp_reader_open()
 * reads from the spool, to its last complete page, with a warning.
 * meta may be NULL. 0, or -1 with bp_set_error().
 */
int bp_writer_provisional(struct bp_writer *w, const struct bp_trace_headers *h,
			  const struct bp_meta *meta);
/*
 * Assemble the final trace.dat from the spooled pages, the headers and the
 * metadata. Returns 0, or -1 with bp_set_error() (e.g. ENOSPC): then the file
 * holds the longest valid prefix that could be written.
 */
int bp_writer_finish(struct bp_writer *w, const struct bp_trace_headers *h,
		     const struct bp_meta *meta);
/*
 * A reader over the pages spooled so far, merged in time order, so the
 * recorder can scan events before bp_writer_finish() (e.g. to collect the
 * (dev, ino) pairs whose paths go into the metadata). Free it with
 * bp_reader_free() before finishing. NULL with bp_set_error() on failure.
 */
struct bp_reader *bp_writer_reader(struct bp_writer *w, const struct bp_trace_headers *h);
/* Remove the output and spool (recording failed before any data). */
void bp_writer_abort(struct bp_writer *w);
/* Release memory and descriptors; does not remove anything. NULL is a no-op. */
void bp_writer_free(struct bp_writer *w);

#endif
