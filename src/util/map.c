// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "util/map.h"
#include "util/xalloc.h"

static size_t slot_of(const struct bp_map *m, uint64_t k1, uint64_t k2)
{
	uint64_t h = k1 * 0x9e3779b97f4a7c15ull ^ (k2 + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;

	h ^= h >> 31;
	return (size_t)h & (m->cap - 1);
}

void bp_map_init(struct bp_map *m)
{
	memset(m, 0, sizeof(*m));
}

void bp_map_release(struct bp_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static struct bp_map_slot *find(const struct bp_map *m, uint64_t k1, uint64_t k2)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(m, k1, k2);; i = (i + 1) & (m->cap - 1)) {
		struct bp_map_slot *s = &m->slots[i];

		if (!s->used)
			return s;
		if (s->k1 == k1 && s->k2 == k2)
			return s;
	}
}

static void rehash(struct bp_map *m, size_t cap)
{
	struct bp_map_slot *old = m->slots;
	size_t oldcap = m->cap, i;

	m->slots = xcalloc(cap, sizeof(*m->slots));
	m->cap = cap;
	for (i = 0; i < oldcap; i++) {
		if (old[i].used)
			*find(m, old[i].k1, old[i].k2) = old[i];
	}
	free(old);
}

uint64_t *bp_map_get(const struct bp_map *m, uint64_t k1, uint64_t k2)
{
	struct bp_map_slot *s = find(m, k1, k2);

	return s && s->used ? &s->value : NULL;
}

uint64_t *bp_map_put(struct bp_map *m, uint64_t k1, uint64_t k2, int *inserted)
{
	struct bp_map_slot *s;

	if ((m->count + 1) * 4 >= m->cap * 3)
		rehash(m, m->cap ? m->cap * 2 : 64);
	s = find(m, k1, k2);
	if (inserted)
		*inserted = !s->used;
	if (!s->used) {
		s->used = 1;
		s->k1 = k1;
		s->k2 = k2;
		s->value = 0;
		m->count++;
	}
	return &s->value;
}

/*
 * Linear probing without tombstones: after emptying a slot, each entry of
 * the probe run that follows moves back into the hole unless its home slot
 * lies cyclically in (hole, entry], where a lookup would no longer reach it.
 */
void bp_map_del(struct bp_map *m, uint64_t k1, uint64_t k2)
{
	struct bp_map_slot *s = find(m, k1, k2);
	size_t hole, j, home, mask;

	if (!s || !s->used)
		return;
	mask = m->cap - 1;
	hole = (size_t)(s - m->slots);
	for (j = (hole + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
		home = slot_of(m, m->slots[j].k1, m->slots[j].k2);
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole].used = 0;
	m->count--;
}

int bp_map_next(const struct bp_map *m, size_t *pos, const struct bp_map_slot **slot)
{
	while (*pos < m->cap) {
		const struct bp_map_slot *s = &m->slots[(*pos)++];

		if (s->used) {
			*slot = s;
			return 1;
		}
	}
	return 0;
}
