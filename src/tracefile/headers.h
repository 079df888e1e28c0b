/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TRACEFILE_HEADERS_H
#define BP_TRACEFILE_HEADERS_H

#include <stddef.h>

/*
 * The tracefs texts that make the raw pages parseable: copied from tracefs
 * at record start (capture), written by the writer, read back by the
 * reader. Each text is NUL-terminated after its len bytes.
 */
struct bp_event_format {
	char *system;   /* "sched", "ftrace" ... */
	char *text;     /* contents of events/SYSTEM/EVENT/format */
	size_t len;
};

struct bp_trace_headers {
	char *header_page;            /* events/header_page */
	size_t header_page_len;
	char *header_event;           /* events/header_event */
	size_t header_event_len;
	struct bp_event_format *formats;
	size_t nformats;
	char *kallsyms;               /* may be NULL */
	size_t kallsyms_len;
	char *printk;                 /* printk_formats, may be NULL */
	size_t printk_len;
	char *cmdlines;               /* saved_cmdlines: "pid comm\n"..., may be NULL */
	size_t cmdlines_len;
	char *tgids;                  /* saved_tgids: "pid tgid\n"..., may be NULL */
	size_t tgids_len;
};

/* Free every text and zero *h; NULL is a no-op. */
void bp_trace_headers_release(struct bp_trace_headers *h);
/* *dst = copies of src's texts (saved_tgids left out); release dst after use. */
void bp_trace_headers_copy(struct bp_trace_headers *dst, const struct bp_trace_headers *src);
/* Append a copy of one event format (len bytes of text). */
void bp_trace_headers_add_format(struct bp_trace_headers *h, const char *system,
				 const void *text, size_t len);

/*
 * Reading the header sections of a trace.dat file, as laid out in man 5
 * trace-cmd.dat.v6 (v7 keeps the same layouts in sections), into h. Each
 * returns 0, or -1 when the section does not fit in the cursor's bytes.
 */
struct bp_cursor;
int bp_headers_read_page(struct bp_trace_headers *h, struct bp_cursor *c);
int bp_headers_read_ftrace(struct bp_trace_headers *h, struct bp_cursor *c);
int bp_headers_read_events(struct bp_trace_headers *h, struct bp_cursor *c);
int bp_headers_read_kallsyms(struct bp_trace_headers *h, struct bp_cursor *c);
int bp_headers_read_printk(struct bp_trace_headers *h, struct bp_cursor *c);
int bp_headers_read_cmdlines(struct bp_trace_headers *h, struct bp_cursor *c);

#endif
