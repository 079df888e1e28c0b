// SPDX-License-Identifier: GPL-2.0
/* A document's value tree written through the JSON writer (util/json.h). */
#include "doc/doc.h"
#include "util/json.h"

void bp_node_json(struct bp_json *jw, const char *key, const struct bp_node *n)
{
	size_t i;

	if (n->kind == '{' || n->kind == '[') {
		if (n->kind == '{')
			bp_json_object_begin(jw, key);
		else
			bp_json_array_begin(jw, key);
		for (i = 0; i < n->nkids; i++)
			bp_node_json(jw, n->kind == '{' ? (n->kids[i]->key ? n->kids[i]->key : "") :
				     NULL, n->kids[i]);
		bp_json_end(jw);
		return;
	}
	switch (n->type) {
	case BP_TEXT:
	case BP_PATH:
		bp_json_string(jw, key, n->v.s);
		break;
	case BP_I64:
		bp_json_i64(jw, key, n->v.i);
		break;
	case BP_DOUBLE:
		bp_json_double(jw, key, n->v.d);
		break;
	case BP_BOOL:
		bp_json_bool(jw, key, n->v.b);
		break;
	default:
		bp_json_u64(jw, key, n->v.u);
	}
}
