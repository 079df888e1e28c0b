// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs texts that describe a recording's pages (headers.h): their
 * ownership, and their reading from a file's header sections. Both the
 * writer and the reader use this; they do not call each other.
 */
#include <stdlib.h>
#include <string.h>

#include "tracefile/cursor.h"
#include "tracefile/headers.h"
#include "util/xalloc.h"

static char *nul_copy(const void *p, uint64_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

static char *dup_text(const char *s, size_t n)
{
	return s ? nul_copy(s, n) : NULL;
}

void bp_trace_headers_release(struct bp_trace_headers *h)
{
	size_t i;

	if (!h)
		return;
	free(h->header_page);
	free(h->header_event);
	for (i = 0; i < h->nformats; i++) {
		free(h->formats[i].system);
		free(h->formats[i].text);
	}
	free(h->formats);
	free(h->kallsyms);
	free(h->printk);
	free(h->cmdlines);
	free(h->tgids);
	memset(h, 0, sizeof(*h));
}

void bp_trace_headers_copy(struct bp_trace_headers *h, const struct bp_trace_headers *src)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->header_page = dup_text(src->header_page, src->header_page_len);
	h->header_page_len = src->header_page_len;
	h->header_event = dup_text(src->header_event, src->header_event_len);
	h->header_event_len = src->header_event_len;
	h->kallsyms = dup_text(src->kallsyms, src->kallsyms_len);
	h->kallsyms_len = src->kallsyms_len;
	h->printk = dup_text(src->printk, src->printk_len);
	h->printk_len = src->printk_len;
	h->cmdlines = dup_text(src->cmdlines, src->cmdlines_len);
	h->cmdlines_len = src->cmdlines_len;
	h->formats = xcalloc(src->nformats ? src->nformats : 1, sizeof(*h->formats));
	for (i = 0; i < src->nformats; i++) {
		h->formats[i].system = xstrdup(src->formats[i].system);
		h->formats[i].text = dup_text(src->formats[i].text, src->formats[i].len);
		h->formats[i].len = src->formats[i].len;
	}
	h->nformats = src->nformats;
}

void bp_trace_headers_add_format(struct bp_trace_headers *h, const char *system,
				 const void *text, size_t len)
{
	struct bp_event_format *f;

	/* Capacity: the next power of two (formats are added, never removed). */
	if (!(h->nformats & (h->nformats - 1)))
		h->formats = xrealloc(h->formats, (h->nformats ? 2 * h->nformats : 1) *
							  sizeof(*h->formats));
	f = &h->formats[h->nformats++];
	f->system = xstrdup(system);
	f->text = nul_copy(text, len);
	f->len = len;
}

/* "NAME\0", a 64-bit length and the text, as header_page and header_event are stored. */
static int read_named(struct bp_cursor *c, const char *name, char **text, size_t *len)
{
	uint64_t n;
	const uint8_t *p;

	if (bp_cursor_expect(c, name, strlen(name) + 1))
		return -1;
	n = bp_cursor_u64(c);
	p = bp_cursor_take(c, n);
	if (!p)
		return -1;
	*text = nul_copy(p, n);
	*len = n;
	return 0;
}

int bp_headers_read_page(struct bp_trace_headers *h, struct bp_cursor *c)
{
	if (read_named(c, "header_page", &h->header_page, &h->header_page_len) ||
	    read_named(c, "header_event", &h->header_event, &h->header_event_len))
		return -1;
	return 0;
}

int bp_headers_read_ftrace(struct bp_trace_headers *h, struct bp_cursor *c)
{
	uint32_t count = bp_cursor_u32(c), i;

	for (i = 0; i < count && !c->err; i++) {
		uint64_t n = bp_cursor_u64(c);
		const uint8_t *p = bp_cursor_take(c, n);

		if (p)
			bp_trace_headers_add_format(h, "ftrace", p, n);
	}
	return c->err ? -1 : 0;
}

int bp_headers_read_events(struct bp_trace_headers *h, struct bp_cursor *c)
{
	uint32_t nsys = bp_cursor_u32(c), i, j;

	for (i = 0; i < nsys && !c->err; i++) {
		const char *sys = bp_cursor_str(c);
		uint32_t count = bp_cursor_u32(c);

		for (j = 0; j < count && !c->err; j++) {
			uint64_t n = bp_cursor_u64(c);
			const uint8_t *p = bp_cursor_take(c, n);

			if (p)
				bp_trace_headers_add_format(h, sys, p, n);
		}
	}
	return c->err ? -1 : 0;
}

/* A text behind a length of width bytes (4 or 8); an empty one stays NULL. */
static int read_text(struct bp_cursor *c, int width, char **text, size_t *len)
{
	uint64_t n = bp_cursor_num(c, width);
	const uint8_t *p = bp_cursor_take(c, n);

	if (!p)
		return -1;
	if (n) {
		*text = nul_copy(p, n);
		*len = n;
	}
	return 0;
}

int bp_headers_read_kallsyms(struct bp_trace_headers *h, struct bp_cursor *c)
{
	return read_text(c, 4, &h->kallsyms, &h->kallsyms_len);
}

int bp_headers_read_printk(struct bp_trace_headers *h, struct bp_cursor *c)
{
	return read_text(c, 4, &h->printk, &h->printk_len);
}

int bp_headers_read_cmdlines(struct bp_trace_headers *h, struct bp_cursor *c)
{
	return read_text(c, 8, &h->cmdlines, &h->cmdlines_len);
}
