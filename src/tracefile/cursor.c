// SPDX-License-Identifier: GPL-2.0
/* The bounds-checked cursor over untrusted bytes (see cursor.h). */
#include <string.h>

#include "tracefile/cursor.h"

void bp_cursor_init(struct bp_cursor *c, const void *p, uint64_t len, uint64_t pos, int swap)
{
	c->p = p;
	c->len = len;
	c->pos = pos;
	c->swap = swap;
	c->err = pos > len;
}

const uint8_t *bp_cursor_take(struct bp_cursor *c, uint64_t n)
{
	const uint8_t *p;

	if (c->err || n > c->len - c->pos) {
		c->err = 1;
		return NULL;
	}
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

uint64_t bp_cursor_num(struct bp_cursor *c, int n)
{
	const uint8_t *p = bp_cursor_take(c, n);

	return p ? bp_num(p, n, c->swap) : 0;
}

uint16_t bp_cursor_u16(struct bp_cursor *c)
{
	return (uint16_t)bp_cursor_num(c, 2);
}

uint32_t bp_cursor_u32(struct bp_cursor *c)
{
	return (uint32_t)bp_cursor_num(c, 4);
}

uint64_t bp_cursor_u64(struct bp_cursor *c)
{
	return bp_cursor_num(c, 8);
}

const char *bp_cursor_str(struct bp_cursor *c)
{
	const uint8_t *s, *nul;

	if (c->err || c->pos >= c->len) {
		c->err = 1;
		return NULL;
	}
	s = c->p + c->pos;
	nul = memchr(s, 0, c->len - c->pos);
	if (!nul) {
		c->err = 1;
		return NULL;
	}
	c->pos += (uint64_t)(nul - s) + 1;
	return (const char *)s;
}

int bp_cursor_expect(struct bp_cursor *c, const char *s, size_t n)
{
	const uint8_t *p = bp_cursor_take(c, n);

	return p && !memcmp(p, s, n) ? 0 : -1;
}
