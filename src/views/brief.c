// SPDX-License-Identifier: GPL-2.0
/*
 * Long header values in one line: the kernel command line with its lists
 * of events counted, a list of names cut after what fits. Whole words
 * only: nothing is ever cut inside one. `report --verbose` and JSON print
 * the values in full.
 */
#include <stdio.h>
#include <string.h>

#include "util/xalloc.h"
#include "views/brief.h"

/* A value longer than this that lists 4 or more items is counted, not listed. */
#define LONG_VALUE 24

/* Items of a comma-separated list. */
static size_t items(const char *v, size_t len)
{
	size_t n = 1, i;

	for (i = 0; i < len; i++)
		n += v[i] == ',';
	return n;
}

/*
 * One word of a command line, shortened: "trace_instance=NAME,EV,EV..."
 * as "trace_instance=NAME (58 events)", "trace_event=EV,EV..." as
 * "trace_event=(58 events)", another long list "key=FIRST,... (N values)".
 */
static void brief_word(char *out, size_t cap, const char *w, size_t len)
{
	const char *eq = memchr(w, '=', len);
	size_t key = eq ? (size_t)(eq - w) + 1 : 0, vlen = len - key, first, n;

	if (!eq || vlen <= LONG_VALUE || items(eq + 1, vlen) < 4) {
		snprintf(out, cap, "%.*s", (int)len, w);
		return;
	}
	n = items(eq + 1, vlen);
	first = strcspn(eq + 1, ",");
	if (key == sizeof("trace_instance=") - 1 && !strncmp(w, "trace_instance=", key))
		snprintf(out, cap, "%.*s (%zu events)", (int)(key + first), w, n - 1);
	else if (key == sizeof("trace_event=") - 1 && !strncmp(w, "trace_event=", key))
		snprintf(out, cap, "%.*s(%zu events)", (int)key, w, n);
	else
		snprintf(out, cap, "%.*s,... (%zu values)", (int)(key + first), w, n);
}

char *bp_brief_words(const char *s, size_t room, int lists)
{
	size_t n = 0, cap = strlen(s) + 64, words = 0, shown = 0;
	char *out = xmalloc(cap), word[512];
	const char *p;

	out[0] = 0;
	for (p = s + strspn(s, " "); *p; p += strspn(p, " "))
		words++, p += strcspn(p, " ");
	for (p = s + strspn(s, " "); *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " "), wl;
		/* Room for " (+N more)" unless every word is shown. */
		size_t tail = shown + 1 < words ? 11 : 0;

		if (lists)
			brief_word(word, sizeof(word), p, len);
		else
			snprintf(word, sizeof(word), "%.*s", (int)len, p);
		wl = strlen(word);
		p += len;
		/* A word that does not fit is left out; a shorter one after it may fit. */
		if (shown && n + 1 + wl + tail > room)
			continue;
		n += (size_t)snprintf(out + n, cap - n, "%s%s", shown ? " " : "", word);
		shown++;
	}
	if (shown < words)
		snprintf(out + n, cap - n, " (+%zu more)", words - shown);
	return out;
}
