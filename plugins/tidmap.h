/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BOOTPROF_PLUGINS_TIDMAP_H
#define BOOTPROF_PLUGINS_TIDMAP_H

/*
 * Per-task state for the plugins that follow tasks through the stream: an
 * open-addressing table of fixed-size entries whose first member is the
 * int tid (0: empty slot). Header-only, so every plugin built as a .so
 * stays self-contained.
 */
#include <stdlib.h>
#include <string.h>

struct tidmap {
	unsigned char *slots;
	size_t size;    /* bytes per entry, first member int tid */
	size_t cap;     /* entries, a power of two */
	size_t used;
};

static inline int tidmap_tid(const struct tidmap *m, size_t i)
{
	int tid;

	memcpy(&tid, m->slots + i * m->size, sizeof(tid));
	return tid;
}

/*
 * The entry of tid, or NULL when absent. With inserted non-NULL, a missing
 * entry is added (zeroed but for its tid; *inserted = 1, so the caller can
 * set its defaults). NULL also when out of memory or tid <= 0.
 */
static inline void *tidmap_get(struct tidmap *m, int tid, int *inserted)
{
	size_t i;

	if (inserted)
		*inserted = 0;
	if (tid <= 0)
		return NULL;
	if (inserted && (m->used + 1) * 2 > m->cap) {
		struct tidmap bigger = { NULL, m->size, m->cap ? m->cap * 2 : 256, 0 };

		bigger.slots = calloc(bigger.cap, bigger.size);
		if (!bigger.slots)
			return NULL;
		for (i = 0; i < m->cap; i++) {
			int moved;

			if (tidmap_tid(m, i))
				memcpy(tidmap_get(&bigger, tidmap_tid(m, i), &moved),
				       m->slots + i * m->size, m->size);
		}
		free(m->slots);
		*m = bigger;
	}
	if (!m->cap)
		return NULL;
	for (i = (size_t)tid * 2654435761u & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		int t = tidmap_tid(m, i);

		if (t == tid)
			return m->slots + i * m->size;
		if (!t) {
			if (!inserted)
				return NULL;
			memcpy(m->slots + i * m->size, &tid, sizeof(tid));
			m->used++;
			*inserted = 1;
			return m->slots + i * m->size;
		}
	}
}

static inline void tidmap_release(struct tidmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->used = 0;
}

#endif
