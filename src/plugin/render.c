// SPDX-License-Identifier: GPL-2.0
/* The plugins' output for the views: their sections, and their JSON objects. */
#include <stdlib.h>
#include <string.h>

#include "plugin/internal.h"
#include "util/json.h"
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

static void json_node(struct bp_json *jw, const char *key, const struct bp_jnode *n)
{
	size_t i;

	switch (n->type) {
	case '{':
	case '[':
		if (n->type == '{')
			bp_json_object_begin(jw, key);
		else
			bp_json_array_begin(jw, key);
		for (i = 0; i < n->nkids; i++)
			json_node(jw, n->type == '{' ? (n->kids[i]->key ? n->kids[i]->key : "") : NULL,
				  n->kids[i]);
		bp_json_end(jw);
		break;
	case 'u':
		bp_json_u64(jw, key, n->u);
		break;
	case 'i':
		bp_json_i64(jw, key, n->i);
		break;
	case 'd':
		bp_json_double(jw, key, n->d);
		break;
	case 's':
		bp_json_string(jw, key, n->s);
		break;
	case 'b':
		bp_json_bool(jw, key, (int)n->u);
		break;
	default:
		bp_json_null(jw, key);
	}
}

void bp_plugins_report_json(const struct bp_plugin_set *set, struct bp_json *jw)
{
	static const struct bp_jnode empty = { .type = '{' };
	size_t r;

	bp_json_object_begin(jw, "plugins");
	for (r = 0; set && r < set->nruns; r++) {
		const struct bp_plugin_run *run = set->runs[r];

		if (run->active)
			json_node(jw, run->p->name, run->json ? run->json : &empty);
	}
	bp_json_end(jw);
}
