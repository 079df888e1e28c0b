// SPDX-License-Identifier: GPL-2.0
/*
 * The pack's view of the event stream: first use per file, last inserter
 * per page. Fields are looked up once per event id.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/focus.h"
#include "replay/scan.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

enum { K_NONE, K_ACCESS, K_ADD };

struct fld {
	int off, size;
};

struct scan_kind {
	int kind;
	struct fld dev, ino, index, order, pid;
};

static struct fld field(struct tep_event *e, const char *name, const char *alt, int common)
{
	struct tep_format_field *f = common ? tep_find_common_field(e, name) : tep_find_field(e, name);
	struct fld r = { 0, 0 };

	if (!f && alt)
		f = tep_find_field(e, alt);
	if (!f || f->offset < 0 || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return r;
	r.off = f->offset;
	r.size = f->size;
	return r;
}

static int get(const struct bp_event *ev, struct fld f, uint64_t *v)
{
	if (!f.size || f.off + f.size > ev->size)
		return -1;
	*v = tep_read_number(ev->format->tep, (const char *)ev->data + f.off, f.size);
	return 0;
}

static const struct scan_kind *kind_of(struct bp_replay_scan *s, const struct bp_event *ev)
{
	struct tep_event *e = ev->format;
	struct scan_kind k = { K_NONE };
	uint64_t *slot;
	int inserted;

	slot = bp_map_put(&s->kinds, (uint64_t)(int64_t)ev->id, 0, &inserted);
	if (!inserted)
		return &s->k[*slot];
	if (e && e->system && e->name && !strcmp(e->system, "filemap")) {
		if (!strcmp(e->name, "mm_filemap_get_pages") || !strcmp(e->name, "mm_filemap_map_pages") ||
		    !strcmp(e->name, "mm_filemap_fault"))
			k.kind = K_ACCESS;
		else if (!strcmp(e->name, "mm_filemap_add_to_page_cache"))
			k.kind = K_ADD;
		k.dev = field(e, "s_dev", NULL, 0);
		k.ino = field(e, "i_ino", NULL, 0);
		k.index = field(e, "index", "start_index", 0);
		k.order = field(e, "order", NULL, 0);
		k.pid = field(e, "common_pid", NULL, 1);
		if (!k.dev.size || !k.ino.size || !k.index.size)
			k.kind = K_NONE;
	}
	BP_GROW(s->k, s->nk, s->ck);
	s->k[s->nk] = k;
	slot = bp_map_get(&s->kinds, (uint64_t)(int64_t)ev->id, 0);
	*slot = s->nk++;
	return &s->k[*slot];
}

void bp_replay_scan_init(struct bp_replay_scan *s, uint64_t since_ns, uint64_t until_ns)
{
	memset(s, 0, sizeof(*s));
	s->since_ns = since_ns;
	s->until_ns = until_ns ? until_ns : UINT64_MAX;
	bp_map_init(&s->first_use);
	bp_map_init(&s->inserts);
	bp_map_init(&s->kinds);
}

void bp_replay_scan_release(struct bp_replay_scan *s)
{
	bp_map_release(&s->first_use);
	bp_map_release(&s->inserts);
	bp_map_release(&s->kinds);
	free(s->k);
	s->k = NULL;
}

void bp_replay_scan_event(void *arg, const struct bp_event *ev)
{
	struct bp_replay_scan *s = arg;
	const struct scan_kind *k;
	uint64_t dev, ino, index, pid = 0, order = 0, *slot, k1, k2, i;
	int inserted;

	if (!ev->format)
		return;
	k = kind_of(s, ev);
	if (k->kind == K_NONE || get(ev, k->dev, &dev) || get(ev, k->ino, &ino) ||
	    get(ev, k->index, &index))
		return;
	if (k->kind == K_ACCESS) {
		/* The first access at or after the window's start: the file's first use. */
		if (ev->ts < s->since_ns)
			return;
		slot = bp_map_put(&s->first_use, (uint32_t)dev, ino, &inserted);
		if (inserted)
			*slot = ev->ts + 1;
		return;
	}
	if (!s->want_inserts || get(ev, k->pid, &pid))
		return;
	if (k->order.size && (get(ev, k->order, &order) || order > 9))
		return;  /* larger than a PMD folio: not a page-cache insertion we know */
	for (i = 0; i < (1ull << order); i++) {
		bp_replay_page_key((uint32_t)dev, ino, index + i, &k1, &k2);
		*bp_map_put(&s->inserts, k1, k2, NULL) = pid;
	}
}

struct bp_model *bp_replay_open_model(const char *path, const struct bp_window *w,
				      struct bp_replay_scan *s, struct bp_reader **reader)
{
	struct bp_build_hooks hooks = { bp_replay_scan_event, NULL, s };
	struct bp_reader *r;
	struct bp_model *m;

	*reader = NULL;
	r = bp_reader_open(path);
	if (!r)
		return NULL;
	m = bp_model_build(r, w, &hooks);
	if (!m) {
		bp_set_error("cannot read '%s': %s", path, bp_last_error());
		bp_reader_free(r);
		return NULL;
	}
	if (bp_reader_stats(r)->corrupt_pages) {
		bp_set_error("'%s' is corrupt: %llu ring-buffer pages are damaged or do not match "
			     "the event formats", path,
			     (unsigned long long)bp_reader_stats(r)->corrupt_pages);
		bp_model_free(m);
		bp_reader_free(r);
		return NULL;
	}
	if (bp_focus_window_check(m, w)) {
		bp_model_free(m);
		bp_reader_free(r);
		return NULL;
	}
	*reader = r;
	return m;
}
