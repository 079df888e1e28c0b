// SPDX-License-Identifier: GPL-2.0
/* The trace.dat reader (being written): every entry point fails cleanly for now. */
#include <stddef.h>

#include "tracefile/internal.h"
#include "util/error.h"

struct bp_reader *bp_reader_open(const char *path)
{
	bp_set_error("cannot open '%s': reader not built yet", path);
	return NULL;
}

struct bp_reader *bp_reader_new_spool(const struct bp_trace_headers *h, int ncpus,
				      int page_size, const int *fds)
{
	(void)h;
	(void)ncpus;
	(void)page_size;
	(void)fds;
	bp_set_error("reader not built yet");
	return NULL;
}

void bp_reader_free(struct bp_reader *r)
{
	(void)r;
}

int bp_reader_next(struct bp_reader *r, struct bp_event *ev)
{
	(void)r;
	(void)ev;
	return -1;
}

int bp_reader_rewind(struct bp_reader *r)
{
	(void)r;
	return -1;
}

struct tep_handle *bp_reader_tep(struct bp_reader *r)
{
	(void)r;
	return NULL;
}

const struct bp_meta *bp_reader_meta(struct bp_reader *r)
{
	(void)r;
	return NULL;
}

const struct bp_read_stats *bp_reader_stats(struct bp_reader *r)
{
	(void)r;
	return NULL;
}

int bp_reader_version(struct bp_reader *r)
{
	(void)r;
	return 0;
}

const char *bp_reader_warnings(struct bp_reader *r)
{
	(void)r;
	return NULL;
}
