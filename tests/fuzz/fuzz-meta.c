// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: parse a metadata blob; what parses must serialize and parse
 * back to the same text.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracefile/meta.h"

int bp_fuzz_meta(const uint8_t *data, size_t size)
{
	struct bp_meta m, again;
	char *text, *text2;
	size_t len, len2;

	if (bp_meta_parse(&m, (const char *)data, size))
		return 0;
	bp_meta_sort_paths(&m);
	bp_meta_lost_events(&m);
	text = bp_meta_serialize(&m, &len);
	if (bp_meta_parse(&again, text, len))
		abort();
	text2 = bp_meta_serialize(&again, &len2);
	if (len != len2 || memcmp(text, text2, len))
		abort();
	free(text2);
	free(text);
	bp_meta_release(&again);
	bp_meta_release(&m);
	return 0;
}

BP_FUZZ_TARGET(bp_fuzz_meta)
