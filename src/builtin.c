// SPDX-License-Identifier: GPL-2.0
/* What the commands share beyond their option tables (see builtin.h). */
#include <stdlib.h>

#include "analysis/session.h"
#include "builtin.h"
#include "util/error.h"
#include "util/printable.h"

void bp_warnings_print(struct bp_warnings *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		/* The recording's own words among them (a path, a format's name): shown printable. */
		char *line = bp_printable_dup(w->lines[i]);

		bp_warn("%s", line);
		free(line);
	}
	bp_warnings_release(w);
}
