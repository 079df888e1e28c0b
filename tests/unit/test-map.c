// SPDX-License-Identifier: GPL-2.0
/*
 * util/map: insertions and deletions in any order against a plain array,
 * so that a deletion never hides an entry further down its probe run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "util/map.h"

#define KEYS 4096

static void test_put_del(void **state)
{
	static int present[KEYS];
	struct bp_map m;
	const struct bp_map_slot *slot;
	uint64_t seed = 42, *v;
	size_t i, n = 0, seen;
	int round, inserted;

	(void)state;
	bp_map_init(&m);
	assert_null(bp_map_get(&m, 1, 2));
	bp_map_del(&m, 1, 2);   /* empty: a no-op */
	for (round = 0; round < 200000; round++) {
		uint64_t k;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		/* Few distinct keys with a small second part: long probe runs. */
		k = (seed >> 33) % KEYS;
		if ((seed >> 20) & 1) {
			v = bp_map_put(&m, k / 8, k % 8, &inserted);
			assert_int_equal(inserted, !present[k]);
			*v = k;
			n += !present[k];
			present[k] = 1;
		} else {
			bp_map_del(&m, k / 8, k % 8);
			n -= present[k];
			present[k] = 0;
		}
		assert_int_equal(m.count, n);
		if (round % 1000)
			continue;
		for (k = 0; k < KEYS; k++) {
			v = bp_map_get(&m, k / 8, k % 8);
			assert_int_equal(v != NULL, present[k]);
			if (v)
				assert_int_equal(*v, k);
		}
	}
	for (i = 0, seen = 0; bp_map_next(&m, &i, &slot);)
		seen++;
	assert_int_equal(seen, n);
	bp_map_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_del),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
