// SPDX-License-Identifier: GPL-2.0
/*
 * top --batch: the frames of the screen as plain text, every row, no footer;
 * one frame for a recording, one per interval for --live.
 */
#include <string.h>
#include <time.h>

#include "views/tui/screen.h"

/* Rows rendered and printed at a time. */
#define BATCH_ROWS 256

/* Print a frame line without its padding. */
static void print_line(FILE *out, const struct top_line *l)
{
	int n = (int)strlen(l->text);

	while (n > 0 && l->text[n - 1] == ' ')
		n--;
	fprintf(out, "%.*s\n", n, l->text);
}

static void sleep_ns(uint64_t ns, volatile sig_atomic_t *stop)
{
	struct timespec left = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	/* A signal ends the sleep early: the caller looks at *stop. */
	while (nanosleep(&left, &left) < 0 && !(stop && *stop))
		;
}

int bp_top_batch(FILE *out, const struct bp_top_source *src, const struct bp_top_opts *o)
{
	struct top_frame f = { 0 };
	struct top t;
	int i, n = src->update && o->iterations > 0 ? o->iterations : 1, ret = 0;
	size_t j, first, more;

	if (top_init(&t, src, o, 1) < 0)
		return -1;
	for (i = 0; i < n && !(o->stop && *o->stop); i++) {
		/* Live: each screen covers an interval, the first one too. */
		if (src->update) {
			sleep_ns(src->delay_ns, o->stop);
			if (o->stop && *o->stop)
				break;
			if (top_update(&t) < 0) {
				ret = -1;
				break;
			}
		}
		if (i)
			fputc('\n', out);
		/* The rows a part at a time: a frame line is wide, a recording's files many. */
		more = top_render_head(&t, &f, o->width);
		first = 0;
		for (;;) {
			for (j = 0; j < f.nlines; j++)
				print_line(out, &f.lines[j]);
			f.nlines = 0;
			if (!more)
				break;
			more = top_render_rows(&t, &f, first, BATCH_ROWS);
			first += more;
		}
		fflush(out);
	}
	top_frame_release(&f);
	top_release(&t);
	return ret;
}
