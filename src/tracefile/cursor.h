/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TRACEFILE_CURSOR_H
#define BP_TRACEFILE_CURSOR_H

#include <stddef.h>
#include <stdint.h>

/*
 * A bounds-checked cursor over untrusted bytes (a recording's headers):
 * every read is checked against the length; the first one that does not
 * fit sets err, and from then on every read fails (NULL or 0), so a parser
 * checks err once after a group of reads. Numbers are in the file's byte
 * order: swap says it differs from ours.
 */
struct bp_cursor {
	const uint8_t *p;
	uint64_t len, pos;
	int swap;
	int err;
};

/* Over p[0 .. len), starting at pos (err when pos > len). */
void bp_cursor_init(struct bp_cursor *c, const void *p, uint64_t len, uint64_t pos, int swap);
/* The next n bytes, or NULL (and c->err). */
const uint8_t *bp_cursor_take(struct bp_cursor *c, uint64_t n);
/* An n-byte (1..8) number in the file's byte order; 0 on error. */
uint64_t bp_cursor_num(struct bp_cursor *c, int n);
uint16_t bp_cursor_u16(struct bp_cursor *c);
uint32_t bp_cursor_u32(struct bp_cursor *c);
uint64_t bp_cursor_u64(struct bp_cursor *c);
/* A NUL-terminated string inside the bytes, or NULL (and c->err). */
const char *bp_cursor_str(struct bp_cursor *c);
/* 0 when the next n bytes are s, else -1. */
int bp_cursor_expect(struct bp_cursor *c, const char *s, size_t n);

/* An n-byte number at p (caller checked the bounds), byte order as above. */
static inline uint64_t bp_num(const void *p, int n, int swap)
{
	const uint8_t *b = p;
	uint64_t v = 0;
	int i;

	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? !swap : swap) {
		for (i = n - 1; i >= 0; i--)
			v = v << 8 | b[i];
	} else {
		for (i = 0; i < n; i++)
			v = v << 8 | b[i];
	}
	return v;
}

#endif
