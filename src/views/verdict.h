/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_VIEWS_VERDICT_H
#define BP_VIEWS_VERDICT_H

#include <stddef.h>

#include "analysis/model.h"
#include "views/report.h"

/*
 * The first lines of a report: what was slow, and why, from fixed rules
 * (docs/design.md, 'The verdict'; bootprof-report(1)). About what the
 * totals are about: the traced command's tree by default, else every
 * process.
 */

#define BP_VERDICT_LINES 6
#define BP_VERDICT_LEN 160

/* A finding earns a line when it is at least this share (percent) of its whole. */
#define BP_VERDICT_SHARE 10

/**
 * bp_verdict() - the verdict's lines
 * @m: the model
 * @o: the report's options (focus_pid, filter)
 * @lines: filled with up to BP_VERDICT_LINES lines
 *
 * Return: the number of lines (at least 1).
 */
size_t bp_verdict(const struct bp_model *m, const struct bp_report_opts *o,
		  char lines[BP_VERDICT_LINES][BP_VERDICT_LEN]);

#endif
