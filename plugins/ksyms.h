/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BOOTPROF_PLUGINS_KSYMS_H
#define BOOTPROF_PLUGINS_KSYMS_H

/*
 * Kernel symbols from a kallsyms text ("ADDR TYPE NAME [module]" lines:
 * /proc/kallsyms, System.map, a recording's kallsyms), by address, and the
 * one rule that names an address with them. kallsyms has no sizes: a
 * symbol is bounded by the next symbol's address, and a module's last
 * symbol by its module's end (module memory is not contiguous: what lies
 * past it is another module's, or a freed init section), so an address is
 * "name+0xoff" only below that bound and unnamed otherwise: never a guess.
 * Header-only, so the host and plugins built as .so share it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym {
	uint64_t addr;
	char *name;    /* owned; NULL: no function (a data symbol), only a bound */
	char *module;  /* owned; "[ext4]" of a module's symbol, else NULL */
};

struct ksyms {
	struct ksym *syms; /* by address */
	size_t n;
	char buf[256];     /* ksyms_name()'s result */
};

static inline int ksyms_by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static inline void ksyms_release(struct ksyms *k)
{
	size_t i;

	for (i = 0; i < k->n; i++) {
		free(k->syms[i].name);
		free(k->syms[i].module);
	}
	free(k->syms);
	k->syms = NULL;
	k->n = 0;
}

/* Add the lines of text (NUL-terminated); 0, or -1 when out of memory. */
static inline int ksyms_parse(struct ksyms *k, const char *text)
{
	size_t cap = k->n;
	int ret = 0;

	while (text && *text) {
		const char *eol = strchr(text, '\n');
		size_t l = eol ? (size_t)(eol - text) : strlen(text);
		char line[512], type, name[256], module[128];
		unsigned long long addr;
		struct ksym *s;
		int f;

		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l : sizeof(line) - 1),
			 text);
		text += l + (eol ? 1 : 0);
		f = sscanf(line, "%llx %c %255s %127s", &addr, &type, name, module);
		if (f < 3 || !addr)
			continue;
		if (k->n == cap) {
			struct ksym *grown;

			cap = cap ? cap * 2 : 1024;
			grown = realloc(k->syms, cap * sizeof(*grown));
			if (!grown) {
				ret = -1;
				break;
			}
			k->syms = grown;
		}
		s = &k->syms[k->n];
		s->addr = addr;
		s->name = type == 't' || type == 'T' ? strdup(name) : NULL;
		s->module = f == 4 ? strdup(module) : NULL;
		if (((type == 't' || type == 'T') && !s->name) || (f == 4 && !s->module)) {
			free(s->name);
			free(s->module);
			ret = -1;
			break;
		}
		k->n++;
	}
	if (k->n)
		qsort(k->syms, k->n, sizeof(*k->syms), ksyms_by_addr);
	return ret;
}

static inline int ksyms_same_module(const struct ksym *a, const struct ksym *b)
{
	return a->module && b->module ? !strcmp(a->module, b->module) : a->module == b->module;
}

/*
 * The function at addr, "name" or "name+0xoff" (in k->buf, until the next
 * call); NULL below the first symbol, at or past the next symbol (or past
 * the last one of its module or of the table), or where only data is.
 */
static inline const char *ksyms_name(struct ksyms *k, uint64_t addr)
{
	const struct ksym *s = NULL;
	size_t lo = 0, hi = k->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* A function among the symbols at the highest address <= addr (aliases). */
	for (i = lo; i > 0 && k->syms[i - 1].addr == k->syms[lo - 1].addr; i--) {
		if (k->syms[i - 1].name) {
			s = &k->syms[i - 1];
			break;
		}
	}
	if (!s)
		return NULL;
	if (s->addr == addr)
		return s->name;
	if (lo == k->n || !ksyms_same_module(s, &k->syms[lo]))
		return NULL;
	snprintf(k->buf, sizeof(k->buf), "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
	return k->buf;
}

#endif
