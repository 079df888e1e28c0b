// SPDX-License-Identifier: GPL-2.0
/* The markdown report: the text report's content as headings and tables, full paths. */
#include "doc/doc.h"
#include "views/report.h"

int bp_view_markdown(FILE *out, const struct bp_model *m, const struct bp_report_opts *o)
{
	struct bp_doc d;
	int first = 1;

	bp_doc_build(&d, m, o);
	bp_doc_markdown(out, &d, &first);
	bp_doc_markdown(out, o->plugins, &first);
	bp_doc_release(&d);
	return 0;
}
