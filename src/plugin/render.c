// SPDX-License-Identifier: GPL-2.0
/* The plugins' output for the views: their sections, and their JSON objects. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/internal.h"
#include "util/xalloc.h"

const struct bp_plugin_section *bp_plugins_section(const struct bp_plugin_set *set, size_t i)
{
	size_t r;

	for (r = 0; set && r < set->nruns; r++) {
		const struct bp_plugin_run *run = set->runs[r];

		if (!run->active)
			continue;
		if (i < run->nsections)
			return &run->sections[i];
		i -= run->nsections;
	}
	return NULL;
}

static void json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void json_node(FILE *out, const struct bp_jnode *n, int depth)
{
	size_t i;

	switch (n->type) {
	case '{':
	case '[':
		fputc(n->type, out);
		for (i = 0; i < n->nkids; i++) {
			fprintf(out, "%s\n%*s", i ? "," : "", (depth + 1) * 2, "");
			if (n->type == '{') {
				json_string(out, n->kids[i]->key ? n->kids[i]->key : "");
				fputs(": ", out);
			}
			json_node(out, n->kids[i], depth + 1);
		}
		if (n->nkids)
			fprintf(out, "\n%*s", depth * 2, "");
		fputc(n->type == '{' ? '}' : ']', out);
		break;
	case 'u':
		fprintf(out, "%" PRIu64, n->u);
		break;
	case 'i':
		fprintf(out, "%" PRId64, n->i);
		break;
	case 'd':
		/* JSON has no NaN or infinity. */
		if (n->d == n->d && n->d < 1e300 && n->d > -1e300)
			fprintf(out, "%.3f", n->d);
		else
			fputs("null", out);
		break;
	case 's':
		json_string(out, n->s);
		break;
	case 'b':
		fputs(n->u ? "true" : "false", out);
		break;
	default:
		fputs("null", out);
	}
}

void bp_plugins_report_json(const struct bp_plugin_set *set, FILE *out, int depth)
{
	size_t r, k = 0;

	fputc('{', out);
	for (r = 0; set && r < set->nruns; r++) {
		const struct bp_plugin_run *run = set->runs[r];
		static const struct bp_jnode empty = { .type = '{' };

		if (!run->active)
			continue;
		fprintf(out, "%s\n%*s", k++ ? "," : "", (depth + 1) * 2, "");
		json_string(out, run->p->name);
		fputs(": ", out);
		json_node(out, run->json ? run->json : &empty, depth + 1);
	}
	if (k)
		fprintf(out, "\n%*s", depth * 2, "");
	fputc('}', out);
}
