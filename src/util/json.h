/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_JSON_H
#define BP_UTIL_JSON_H

#include <stdint.h>
#include <stdio.h>

/*
 * The one JSON writer (after git's json-writer.c): every JSON bootprof
 * writes goes through it, so strings are escaped in one place. Strings
 * are bytes: a byte that is not part of valid UTF-8 becomes U+FFFD, and
 * control characters are escaped as RFC 8259 says, so the output is valid
 * whatever a recording holds.
 *
 * Members are written one per line, indented two spaces per level:
 *
 *   struct bp_json jw;
 *   bp_json_init(&jw, stdout, 0);
 *   bp_json_object_begin(&jw, NULL);
 *   bp_json_string(&jw, "path", f->path);
 *   bp_json_array_begin(&jw, "readers");
 *   bp_json_u64(&jw, NULL, 42);            (NULL key: an array element)
 *   bp_json_end(&jw);
 *   bp_json_end(&jw);
 *
 * A compact writer (bp_json_init_compact()) writes the same values on one
 * line, without spaces: {"path":"/etc/fstab","readers":[42]}.
 *
 * Nothing is buffered: the writer only remembers where it is.
 */
#define BP_JSON_MAX_DEPTH 64

struct bp_json {
	FILE *out;
	int depth;      /* indentation level: the initial one + open values */
	int base;       /* the initial level */
	int first;      /* nothing written yet in the innermost value */
	int compact;    /* one line, no spaces */
	int newline;    /* compact: a line break before the next member */
	char close[BP_JSON_MAX_DEPTH]; /* '}' or ']' per open value */
	char lines[BP_JSON_MAX_DEPTH]; /* compact: one element a line in this array */
};

/**
 * bp_json_init() - start writing a value
 * @jw: writer
 * @out: stream
 * @depth: indentation level of the value (0: a document of its own)
 */
void bp_json_init(struct bp_json *jw, FILE *out, int depth);
/* Start writing a value on one line: no line breaks, no spaces. */
void bp_json_init_compact(struct bp_json *jw, FILE *out);

/* Open an object or array; @key NULL inside an array or for the top value. */
void bp_json_object_begin(struct bp_json *jw, const char *key);
void bp_json_array_begin(struct bp_json *jw, const char *key);
/*
 * In a compact writer, an array with each element on a line of its own
 * and the closing bracket on the next (a long list a reader greps line by
 * line, like a trace's events); elsewhere the same as bp_json_array_begin().
 */
void bp_json_array_begin_lines(struct bp_json *jw, const char *key);
/* In a compact writer, a line break before the next member (after its comma). */
void bp_json_newline(struct bp_json *jw);
/*
 * Close the innermost open object or array ("{}" / "[]" when empty).
 * Values nested deeper than BP_JSON_MAX_DEPTH are a caller's bug: they
 * are written, but closed as objects.
 */
void bp_json_end(struct bp_json *jw);

/* Members (@key NULL: an array element). bp_json_string(NULL value) writes null. */
void bp_json_string(struct bp_json *jw, const char *key, const char *value);
void bp_json_u64(struct bp_json *jw, const char *key, uint64_t value);
void bp_json_i64(struct bp_json *jw, const char *key, int64_t value);
/* Three decimals; NaN and infinities (no JSON form) become null. */
void bp_json_double(struct bp_json *jw, const char *key, double value);
void bp_json_bool(struct bp_json *jw, const char *key, int value);
void bp_json_null(struct bp_json *jw, const char *key);
/* @value when @known, else null: a number the recording could not measure. */
void bp_json_u64_known(struct bp_json *jw, const char *key, uint64_t value, int known);
void bp_json_i64_known(struct bp_json *jw, const char *key, int64_t value, int known);
/* A value already in JSON form, written as it is (e.g. a one-line array). */
void bp_json_raw(struct bp_json *jw, const char *key, const char *json);

/**
 * bp_json_str() - write @s as a JSON string literal, quoted and escaped
 * @out: stream
 * @s: bytes, NUL-terminated; NULL writes null
 */
void bp_json_str(FILE *out, const char *s);

#endif
