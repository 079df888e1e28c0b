// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>

#include "util/json.h"
#include "util/printable.h"

void bp_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*p) {
		int n = bp_utf8_len(p);

		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (!n)
			fputs("\\ufffd", out);
		else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
			fprintf(out, "\\u%04x", p[1]);    /* C1 controls: ESC's 8-bit cousins */
		else
			fwrite(p, 1, (size_t)n, out);
		p += n ? n : 1;
	}
	fputc('"', out);
}

void bp_json_init(struct bp_json *jw, FILE *out, int depth)
{
	jw->out = out;
	jw->depth = depth;
	jw->base = depth;
	jw->first = 1;
	jw->compact = 0;
	jw->newline = 0;
}

void bp_json_init_compact(struct bp_json *jw, FILE *out)
{
	bp_json_init(jw, out, 0);
	jw->compact = 1;
}

/* Before a member: the comma, the line break and indentation, the key. */
static int in_lines(const struct bp_json *jw)
{
	int level = jw->depth - jw->base - 1;

	return jw->compact && level >= 0 && level < BP_JSON_MAX_DEPTH && jw->lines[level];
}

static void member(struct bp_json *jw, const char *key)
{
	if (jw->depth > jw->base) {
		if (!jw->first)
			fputc(',', jw->out);
		if (!jw->compact)
			fprintf(jw->out, "\n%*s", jw->depth * 2, "");
		else if (jw->newline || in_lines(jw))
			fputc('\n', jw->out);
	}
	jw->first = 0;
	jw->newline = 0;
	if (key) {
		bp_json_str(jw->out, key);
		fputs(jw->compact ? ":" : ": ", jw->out);
	}
}

static void begin(struct bp_json *jw, const char *key, char bracket)
{
	int level = jw->depth - jw->base;

	member(jw, key);
	fputc(bracket, jw->out);
	if (level >= 0 && level < BP_JSON_MAX_DEPTH) {
		jw->close[level] = bracket == '[' ? ']' : '}';
		jw->lines[level] = 0;
	}
	jw->depth++;
	jw->first = 1;
}

void bp_json_object_begin(struct bp_json *jw, const char *key)
{
	begin(jw, key, '{');
}

void bp_json_array_begin(struct bp_json *jw, const char *key)
{
	begin(jw, key, '[');
}

void bp_json_array_begin_lines(struct bp_json *jw, const char *key)
{
	int level = jw->depth - jw->base;

	begin(jw, key, '[');
	if (level >= 0 && level < BP_JSON_MAX_DEPTH)
		jw->lines[level] = 1;
}

void bp_json_newline(struct bp_json *jw)
{
	jw->newline = 1;
}

void bp_json_end(struct bp_json *jw)
{
	int level = jw->depth - jw->base - 1;
	int lines = in_lines(jw);

	if (level < 0)
		return;
	jw->depth--;
	if (!jw->first && !jw->compact)
		fprintf(jw->out, "\n%*s", jw->depth * 2, "");
	else if (!jw->first && lines)
		fputc('\n', jw->out);
	fputc(level < BP_JSON_MAX_DEPTH ? jw->close[level] : '}', jw->out);
	jw->first = 0;
}

void bp_json_string(struct bp_json *jw, const char *key, const char *value)
{
	member(jw, key);
	bp_json_str(jw->out, value);
}

void bp_json_u64(struct bp_json *jw, const char *key, uint64_t value)
{
	member(jw, key);
	fprintf(jw->out, "%" PRIu64, value);
}

void bp_json_i64(struct bp_json *jw, const char *key, int64_t value)
{
	member(jw, key);
	fprintf(jw->out, "%" PRId64, value);
}

void bp_json_double(struct bp_json *jw, const char *key, double value)
{
	member(jw, key);
	if (value == value && value < 1e300 && value > -1e300)
		fprintf(jw->out, "%.3f", value);
	else
		fputs("null", jw->out);
}

void bp_json_bool(struct bp_json *jw, const char *key, int value)
{
	member(jw, key);
	fputs(value ? "true" : "false", jw->out);
}

void bp_json_null(struct bp_json *jw, const char *key)
{
	member(jw, key);
	fputs("null", jw->out);
}

void bp_json_u64_known(struct bp_json *jw, const char *key, uint64_t value, int known)
{
	if (known)
		bp_json_u64(jw, key, value);
	else
		bp_json_null(jw, key);
}

void bp_json_i64_known(struct bp_json *jw, const char *key, int64_t value, int known)
{
	if (known)
		bp_json_i64(jw, key, value);
	else
		bp_json_null(jw, key);
}

void bp_json_raw(struct bp_json *jw, const char *key, const char *json)
{
	member(jw, key);
	fputs(json, jw->out);
}
