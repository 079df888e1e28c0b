/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_MAP_H
#define BP_UTIL_MAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * An open-addressing hash map from a pair of 64-bit keys to a 64-bit value
 * (an index or a pointer cast to uintptr_t). Pairs fit the problem:
 * (dev, ino), (tid, 0), (file, page index).
 */
struct bp_map_slot {
	uint64_t k1, k2;
	uint64_t value;
	int used;
};

struct bp_map {
	struct bp_map_slot *slots;
	size_t cap;   /* power of two */
	size_t count;
};

void bp_map_init(struct bp_map *m);
void bp_map_release(struct bp_map *m);
/* Pointer to the value for (k1, k2), or NULL when absent. */
uint64_t *bp_map_get(const struct bp_map *m, uint64_t k1, uint64_t k2);
/*
 * Pointer to the value for (k1, k2), inserting it with value 0 when absent
 * (*inserted tells which; may be NULL). Valid until the next insertion.
 */
uint64_t *bp_map_put(struct bp_map *m, uint64_t k1, uint64_t k2, int *inserted);
/*
 * Remove (k1, k2); absent is a no-op. Moves other entries: pointers from
 * bp_map_get/put and iteration positions are invalid afterwards.
 */
void bp_map_del(struct bp_map *m, uint64_t k1, uint64_t k2);

/* Iterate: for (i = 0; bp_map_next(m, &i, &slot); ) ... */
int bp_map_next(const struct bp_map *m, size_t *pos, const struct bp_map_slot **slot);

#endif
