/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TRACEFILE_READER_INTERNAL_H
#define BP_TRACEFILE_READER_INTERNAL_H

#include <stdint.h>
#include <zstd.h>

#include "tracefile/cursor.h"
#include "tracefile/internal.h"
#include "tracefile/tracefile.h"

/*
 * The reader's files share this (see reader.c for which does what); not
 * for the writer or other layers.
 */

struct tep_handle;

/* One zstd chunk of a CPU's data. */
struct chunk {
	uint64_t off;    /* file offset of the compressed bytes */
	uint32_t zsize;
	uint32_t size;
};

/* One CPU's pages of one buffer. */
struct stream {
	int cpu;
	int page_size;
	/* Uncompressed: pages at base[0 .. avail), whole pages only. */
	const uint8_t *base;
	uint64_t avail;
	/* zstd: the chunks, decompressed one at a time into zbuf. */
	struct chunk *chunks;
	size_t nchunks, next_chunk;
	uint8_t *zbuf;
	uint64_t zlen;
	uint64_t pos;            /* offset of the next page in base or zbuf */
	struct kbuffer *kbuf;
	uint8_t *page;           /* page_size + PAGE_PAD (stream.c) */
	void *rec;               /* current event in page, NULL when done */
	uint64_t ts;
	int rec_size;
};

struct bp_reader {
	char *path;
	const uint8_t *map;      /* the file */
	uint64_t size;
	void **maps;             /* spool mappings */
	size_t *map_lens;
	int nmaps;
	int version;
	int swap;                /* file endianness differs from ours */
	int long_size;
	int page_size;
	int ncpus;
	int compressed;
	ZSTD_DCtx *zctx;
	struct tep_handle *tep;
	struct tep_event **by_id; /* indexed by common_type */
	int *need;               /* by id: bytes the format's fields span */
	int nids;
	int type_offset, type_size;
	struct stream *streams;
	int nstreams;
	int *heap;               /* stream indexes, min-heap on (ts, cpu) */
	int nheap;
	int last;                /* stream of the event returned last, to advance */
	struct bp_meta meta;
	struct bp_read_stats stats;
	char *warnings;
	size_t warnings_len;
	uint64_t corrupt_pages;  /* not yet warned about */
	uint64_t truncated_declared; /* bytes of CPU data the truncated streams declare */
	int truncated_cpus, truncated_cpu; /* how many were cut, the first one */
	/* Header texts as found in the file, for bp_reader_headers(). */
	struct bp_trace_headers texts;
	void **owned;            /* decompressed sections the texts point into */
	size_t nowned;
	/* trace-cmd options seen, for the metadata when bootprof's is absent */
	char *opt_uname, *opt_clock;
	char **opt_cpustats;     /* CPUSTAT texts, parsed once the CPU count is known */
	size_t nopt_cpustats;
	char spool[8];           /* an unfinished recording's spool suffix (writer.c) */
	const char *spool_why;   /* why it is unfinished, when known: "the disk was full" */
	int shrank;              /* a mapped read faulted: the file was cut meanwhile */
	int scanning;            /* bp_reader_page_losses(): warn of nothing, it reads again */
};


/* A number of n bytes at p in the file's byte order (bounds checked by the caller). */
static inline uint64_t bp_reader_num(const struct bp_reader *r, const void *p, int n)
{
	return bp_num(p, n, r->swap);
}

/* reader.c */
struct bp_reader *bp_reader_alloc(const char *path);
int bp_reader_init_tep(struct bp_reader *r);
/* Append a warning line (bp_reader_warnings()). */
void bp_reader_warn(struct bp_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* bp_set_error() for headers that end early or make no sense; returns -1. */
int bp_reader_cut_headers(const char *path);
/* bp_set_error() for a file cut while being read (opening: name the file); returns -1. */
int bp_reader_shrank(const struct bp_reader *r, int opening);
/* Keep saved_cmdlines (pid comm lines) and hand the names to libtraceevent. */
int bp_reader_read_cmdlines(struct bp_reader *r, struct bp_cursor *c);

/* open-v6.c, open-v7.c: the headers after the common start, and the data's place. */
int bp_v6_open(struct bp_reader *r, struct bp_cursor *c);
int bp_v7_open(struct bp_reader *r, struct bp_cursor *c);
/* A buffer (trace-cmd instance) named by a BUFFER option. */
int bp_v6_add_buffer(struct bp_reader *r, uint64_t offset);
int bp_v7_add_buffer(struct bp_reader *r, const uint8_t *p, uint32_t n);

/* options.c */
int bp_options_parse(struct bp_reader *r, struct bp_cursor *c, uint64_t *next, int top);
void bp_options_meta(struct bp_reader *r);

/* spool.c: a spool named in bootprof's metadata, and opening it. */
void bp_spool_find(struct bp_reader *r, const uint8_t *p, uint64_t n);
int bp_spool_open(struct bp_reader *r);

/* formats.c */
void bp_formats_geometry(struct bp_reader *r, struct tep_handle *tep);
int bp_formats_load(struct bp_reader *r, int untrusted);
void bp_formats_comms(struct tep_handle *tep, const char *text);

/* stream.c */
struct stream *bp_stream_new(struct bp_reader *r, int cpu, int page_size);
/* CPU cpu's data at [off, off + size) of the file, plain or zstd chunks. */
int bp_stream_add(struct bp_reader *r, int cpu, int page_size, uint64_t off, uint64_t size);
void bp_streams_warn_truncated(struct bp_reader *r);
/* Index the formats, allocate the streams' parsers, load the first events. */
int bp_streams_setup(struct bp_reader *r);

#endif
