// SPDX-License-Identifier: GPL-2.0
/*
 * The model's lifetime, lookups and the selections views list. Building
 * lives in build.c.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/model.h"
#include "util/xalloc.h"

static const char *const cause_names[BP_NCAUSES] = {
	[BP_CAUSE_READ] = "read",
	[BP_CAUSE_OPEN_STAT] = "open-stat",
	[BP_CAUSE_EXEC] = "exec",
	[BP_CAUSE_GETDENTS] = "getdents",
	[BP_CAUSE_FAULT] = "fault",
	[BP_CAUSE_SYNC] = "sync",
	[BP_CAUSE_OTHER] = "other",
};

const char *bp_cause_name(enum bp_cause cause)
{
	if ((unsigned)cause >= BP_NCAUSES)
		return "?";
	return cause_names[cause];
}

struct bp_page_chunk *bp_pages_chunk(struct bp_model_pages *p, uint32_t file, uint64_t chunk,
				     int create)
{
	uint64_t *slot;
	int inserted;

	if (!create) {
		slot = bp_map_get(&p->map, file, chunk);
		return slot ? &p->chunks[*slot] : NULL;
	}
	slot = bp_map_put(&p->map, file, chunk, &inserted);
	if (inserted) {
		BP_GROW(p->chunks, p->nchunks, p->cap);
		memset(&p->chunks[p->nchunks], 0, sizeof(p->chunks[0]));
		*slot = p->nchunks++;
	}
	return &p->chunks[*slot];
}

void bp_pages_release(struct bp_model_pages *p)
{
	bp_map_release(&p->map);
	free(p->chunks);
	free(p->file_ids);
	memset(p, 0, sizeof(*p));
}

struct bp_model *bp_model_new(void)
{
	struct bp_model *m = xcalloc(1, sizeof(*m));

	m->totals.attributed_permille = -1;
	m->pages = xcalloc(1, sizeof(*m->pages));
	return m;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void header_release(struct bp_model_header *h)
{
	free(h->hostname);
	free(h->kernel_release);
	free(h->kernel_version);
	free(h->machine);
	free(h->cmdline);
	free(h->clock);
	free(h->command);
	free(h->stop_reason);
	free(h->bootprof_version);
	free(h->warnings);
	free_strv(h->unavailable, h->nunavailable);
}

void bp_model_free(struct bp_model *m)
{
	size_t i;

	if (!m)
		return;
	header_release(&m->header);
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];

		free_strv(p->exec, p->nexec);
		free_strv(p->argv, p->nargv);
		free(p->exec_part);
		free(p->threads);
		free(p->files);
		free(p->children);
	}
	free(m->processes);
	free(m->threads);
	for (i = 0; i < m->nfiles; i++) {
		free(m->files[i].path);
		free(m->files[i].readers);
	}
	free(m->files);
	free(m->accesses);
	for (i = 0; i < m->ndisks; i++) {
		free(m->disks[i].name);
		free(m->disks[i].timeline);
	}
	free(m->disks);
	for (i = 0; i < m->nservices; i++)
		free(m->services[i].path);
	free(m->services);
	for (i = 0; i < m->nexecs; i++)
		free(m->execs[i].path);
	free(m->execs);
	free(m->timeline);
	free(m->command_timeline);
	if (m->pages)
		bp_pages_release(m->pages);
	free(m->pages);
	free(m);
}

struct bp_process *bp_model_find_process(const struct bp_model *m, int pid)
{
	struct bp_process *best = NULL;
	size_t i;

	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];

		if (p->pid == pid && (!best || p->start_ns >= best->start_ns))
			best = p;
	}
	return best;
}

struct bp_file *bp_model_find_file(const struct bp_model *m, uint32_t dev, uint64_t ino)
{
	size_t lo = 0, hi = m->nfiles;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct bp_file *f = &m->files[mid];

		if (f->dev == dev && f->ino == ino)
			return f;
		if (f->dev < dev || (f->dev == dev && f->ino < ino))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void bp_model_file_pages(const struct bp_model *m, const struct bp_file *f, uint64_t first,
			 size_t n, unsigned char *out)
{
	size_t pos = (size_t)(f - m->files), i;
	uint32_t id;

	memset(out, BP_PAGE_NONE, n);
	if (!m->pages || pos >= m->pages->nfile_ids)
		return;
	id = m->pages->file_ids[pos];
	for (i = 0; i < n;) {
		uint64_t page = first + i;
		const struct bp_page_chunk *c = bp_pages_chunk(m->pages, id, page >> 6, 0);
		size_t end = i + (64 - (page & 63));

		if (end > n)
			end = n;
		for (; c && i < end; i++) {
			uint64_t bit = 1ull << ((first + i) & 63);

			if (!(c->read & bit))
				continue;
			if (c->reread & bit)
				out[i] = BP_PAGE_REREAD;
			else if (c->used & bit)
				out[i] = BP_PAGE_USED;
			else if (c->mapped & bit)
				out[i] = BP_PAGE_MAPPED;
			else
				out[i] = BP_PAGE_NEVER_USED;
		}
		i = end;
	}
}

/* ---- filters and selections ---- */

static int process_matches_self(const struct bp_process *p, const struct bp_filter *f)
{
	size_t i;

	if (f->pid && p->pid != f->pid)
		return 0;
	if (!f->comm)
		return 1;
	if (strstr(p->comm, f->comm))
		return 1;
	for (i = 0; i < p->nexec; i++) {
		if (strstr(p->exec[i], f->comm))
			return 1;
	}
	return 0;
}

static int process_matches_who(const struct bp_process *p, const struct bp_filter *f)
{
	const struct bp_process *a;

	if (!f->pid && !f->comm)
		return 1;
	for (a = p; a; a = f->tree ? a->parent : NULL) {
		if (process_matches_self(a, f))
			return 1;
	}
	return 0;
}

char *bp_process_args(const struct bp_process *p, char *buf, size_t len)
{
	size_t n = 0, i;

	if (!len)
		return buf;
	buf[0] = 0;
	for (i = 1; i < p->nargv && n + 1 < len; i++) {
		const char *a = p->argv[i];
		size_t k = strlen(a);

		if (n)
			buf[n++] = ' ';
		if (n + k >= len) {
			k = len - 1 - n;
			/* Not inside a UTF-8 sequence: back over continuation bytes. */
			while (k && ((unsigned char)a[k] & 0xc0) == 0x80)
				k--;
		}
		memcpy(buf + n, a, k);
		n += k;
	}
	buf[n] = 0;
	return buf;
}

int bp_process_matches(const struct bp_model *m, const struct bp_process *p,
		       const struct bp_filter *f)
{
	size_t i;

	(void)m;
	if (!f)
		return 1;
	if (!process_matches_who(p, f))
		return 0;
	if (!f->file)
		return 1;
	for (i = 0; i < p->nfiles; i++) {
		if (strstr(p->files[i]->file->path, f->file))
			return 1;
	}
	return 0;
}

int bp_file_matches(const struct bp_model *m, const struct bp_file *file,
		    const struct bp_filter *f)
{
	size_t i;

	(void)m;
	if (!f)
		return 1;
	if (f->file && !strstr(file->path, f->file))
		return 0;
	if (!f->pid && !f->comm)
		return 1;
	for (i = 0; i < file->nreaders; i++) {
		if (process_matches_who(file->readers[i]->process, f))
			return 1;
	}
	return 0;
}

/* Whether @f selects processes at all (--pid, --comm): else every reader is selected. */
static int filter_has_who(const struct bp_filter *f)
{
	return f && (f->pid || f->comm);
}

int bp_reader_selected(const struct bp_access *a, const struct bp_filter *f)
{
	return !filter_has_who(f) || process_matches_who(a->process, f);
}

void bp_file_part(const struct bp_model *m, const struct bp_file *file, const struct bp_filter *f,
		  struct bp_file_part *out)
{
	size_t i;

	(void)m;
	memset(out, 0, sizeof(*out));
	if (!filter_has_who(f)) {
		out->wait_ns = file->wait_ns;
		out->bytes_read = file->bytes_read;
		out->nreaders = file->nreaders;
	}
	for (i = 0; i < file->nreaders; i++) {
		const struct bp_access *a = file->readers[i];

		if (!bp_reader_selected(a, f))
			continue;
		if (filter_has_who(f)) {
			out->wait_ns += a->wait_ns;
			out->bytes_read += a->bytes_read;
			out->nreaders++;
		}
		out->nstorage_readers += a->bytes_read > 0;
	}
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

static int cmp_u64_asc(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* qsort has no argument; a selection is single-threaded and short-lived. */
static __thread int sort_key;
/* Files: the selection's parts, by file index (NULL: the files' own numbers). */
static __thread const struct bp_file_part *sort_parts;
static __thread const struct bp_file *sort_files;

static struct bp_file_part file_numbers(const struct bp_file *f)
{
	struct bp_file_part p = { f->wait_ns, f->bytes_read, f->nreaders, 0 };

	return sort_parts ? sort_parts[f - sort_files] : p;
}

static int cmp_process(const void *pa, const void *pb)
{
	const struct bp_process *a = *(struct bp_process *const *)pa;
	const struct bp_process *b = *(struct bp_process *const *)pb;
	int c = 0;

	switch (sort_key) {
	case BP_SORT_PROC_WAIT:
		c = cmp_u64_desc(a->wait_ns, b->wait_ns);
		if (!c)
			c = cmp_u64_desc(a->bytes_read, b->bytes_read);
		break;
	case BP_SORT_PROC_BYTES:
		c = cmp_u64_desc(a->bytes_read, b->bytes_read);
		if (!c)
			c = cmp_u64_desc(a->wait_ns, b->wait_ns);
		break;
	case BP_SORT_PROC_TREE_WAIT:
		c = cmp_u64_desc(a->tree_wait_ns, b->tree_wait_ns);
		if (!c)
			c = cmp_u64_desc(a->tree_bytes_read, b->tree_bytes_read);
		break;
	case BP_SORT_PROC_RUN:
		c = cmp_u64_desc(a->run_ns, b->run_ns);
		break;
	case BP_SORT_PROC_OTHER_WAIT:
		c = cmp_u64_desc(a->other_wait_ns, b->other_wait_ns);
		break;
	case BP_SORT_PROC_START:
		c = cmp_u64_asc(a->start_ns, b->start_ns);
		break;
	default:
		break;
	}
	if (!c)
		c = (a->pid > b->pid) - (a->pid < b->pid);
	if (!c)
		c = cmp_u64_asc(a->start_ns, b->start_ns);
	return c;
}

static int cmp_file(const void *pa, const void *pb)
{
	const struct bp_file *a = *(struct bp_file *const *)pa;
	const struct bp_file *b = *(struct bp_file *const *)pb;
	struct bp_file_part x = file_numbers(a), y = file_numbers(b);
	int c = 0;

	switch (sort_key) {
	case BP_SORT_FILE_WAIT:
		c = cmp_u64_desc(x.wait_ns, y.wait_ns);
		if (!c)
			c = cmp_u64_desc(x.bytes_read, y.bytes_read);
		break;
	case BP_SORT_FILE_BYTES:
		c = cmp_u64_desc(x.bytes_read, y.bytes_read);
		if (!c)
			c = cmp_u64_desc(x.wait_ns, y.wait_ns);
		break;
	case BP_SORT_FILE_NEVER_USED:
		c = cmp_u64_desc(a->never_used_bytes, b->never_used_bytes);
		if (!c)
			c = cmp_u64_desc(x.bytes_read, y.bytes_read);
		break;
	case BP_SORT_FILE_MAPPED:
		c = cmp_u64_desc(a->mapped_unknown_bytes, b->mapped_unknown_bytes);
		if (!c)
			c = cmp_u64_desc(a->bytes_read, b->bytes_read);
		break;
	case BP_SORT_FILE_REREAD:
		c = cmp_u64_desc(a->reread_bytes, b->reread_bytes);
		if (!c)
			c = cmp_u64_desc(x.bytes_read, y.bytes_read);
		break;
	case BP_SORT_FILE_READERS:
		c = cmp_u64_desc(x.nreaders, y.nreaders);
		if (!c)
			c = cmp_u64_desc(x.bytes_read, y.bytes_read);
		break;
	default:
		break;
	}
	if (!c)
		c = strcmp(a->path, b->path);
	if (!c)
		c = cmp_u64_asc(a->dev, b->dev);
	if (!c)
		c = cmp_u64_asc(a->ino, b->ino);
	return c;
}

size_t bp_model_select_processes(const struct bp_model *m, const struct bp_filter *f,
				 enum bp_process_sort key, struct bp_process ***out)
{
	struct bp_process **v = NULL;
	size_t i, n = 0;

	for (i = 0; i < m->nprocesses; i++) {
		if (bp_process_matches(m, &m->processes[i], f)) {
			if (!v)
				v = xmalloc(m->nprocesses * sizeof(*v));
			v[n++] = &m->processes[i];
		}
	}
	sort_key = key;
	if (n)
		qsort(v, n, sizeof(*v), cmp_process);
	*out = v;
	return n;
}

size_t bp_model_select_files(const struct bp_model *m, const struct bp_filter *f,
			     enum bp_file_sort key, struct bp_file ***out)
{
	struct bp_file **v = NULL;
	size_t i, n = 0;

	struct bp_file_part *parts = NULL;

	for (i = 0; i < m->nfiles; i++) {
		if (bp_file_matches(m, &m->files[i], f)) {
			if (!v)
				v = xmalloc(m->nfiles * sizeof(*v));
			v[n++] = &m->files[i];
		}
	}
	/* Under a process filter, files sort by what the selection did with them. */
	if (n && filter_has_who(f)) {
		parts = xcalloc(m->nfiles, sizeof(*parts));
		for (i = 0; i < n; i++)
			bp_file_part(m, v[i], f, &parts[v[i] - m->files]);
	}
	sort_key = key;
	sort_parts = parts;
	sort_files = m->files;
	if (n)
		qsort(v, n, sizeof(*v), cmp_file);
	sort_parts = NULL;
	free(parts);
	*out = v;
	return n;
}

int bp_cmp_exec_count(const void *pa, const void *pb)
{
	const struct bp_exec_count *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* The entry for @path in v[0..*n), added when missing (v has room for it). */
static struct bp_exec_count *exec_slot(struct bp_exec_count *v, size_t *n, const char *path)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (!strcmp(v[i].path, path))
			return &v[i];
	}
	memset(&v[*n], 0, sizeof(v[*n]));
	v[*n].path = (char *)path;
	return &v[(*n)++];
}

size_t bp_model_select_execs(const struct bp_model *m, const struct bp_filter *f,
			     struct bp_exec_count **out)
{
	struct bp_exec_count *v = NULL;
	size_t i, j, k, n = 0, cap = 0;

	if (!f || (!filter_has_who(f) && !f->file)) {
		if (m->nexecs) {
			v = xmalloc(m->nexecs * sizeof(*v));
			memcpy(v, m->execs, m->nexecs * sizeof(*v));
		}
		*out = v;
		return m->nexecs;
	}
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		if (!bp_process_matches(m, p, f))
			continue;
		cap += p->nexec;
	}
	if (cap)
		v = xmalloc(cap * sizeof(*v));
	for (i = 0; i < m->nprocesses; i++) {
		const struct bp_process *p = &m->processes[i];

		if (!bp_process_matches(m, p, f))
			continue;
		for (j = p->exec_window; j < p->nexec; j++)
			exec_slot(v, &n, p->exec[j])->count++;
		/* Cost per exec part, as the model's: the parts before the window too. */
		for (j = 0; j < p->nexec; j++) {
			for (k = 0; k < n && strcmp(v[k].path, p->exec[j]); k++)
				;
			if (k < n) {
				v[k].wait_ns += p->exec_part[j].wait_ns;
				v[k].bytes_read += p->exec_part[j].bytes_read;
			}
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), bp_cmp_exec_count);
	*out = v;
	return n;
}

const struct bp_thread *bp_model_find_thread(const struct bp_model *m, int tid, uint64_t ns)
{
	size_t lo = 0, hi = m->nthreads;
	const struct bp_thread *best = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->nthreads && m->threads[lo].tid == tid; lo++) {
		if (!best || m->threads[lo].start_ns <= ns)
			best = &m->threads[lo];
	}
	return best;
}

const char *bp_iowait_source_name(int source)
{
	return source == BP_IOWAIT_KERNEL ? "kernel" : "inferred";
}
