// SPDX-License-Identifier: GPL-2.0
/*
 * What plugins call (struct bootprof_host) and how they are driven: init
 * against the recording's formats, their events during the model's single
 * pass, and the model callback that writes their section.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "analysis/syscalls.h"
#include "plugin/internal.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/unit.h"
#include "util/units.h"
#include "util/xalloc.h"

static struct bp_plugin_run *run_of(struct bootprof_ctx *ctx)
{
	return (struct bp_plugin_run *)ctx;
}

/* ---- events ---- */

static int host_event_id(struct bootprof_ctx *ctx, const char *system, const char *name)
{
	struct bp_plugin_set *set = run_of(ctx)->set;
	struct tep_event *e;

	if (!set->tep)
		return -1;
	e = tep_find_event_by_name(set->tep, system, name);
	return e ? e->id : -1;
}

static const struct bootprof_field *host_field(struct bootprof_ctx *ctx, int id, const char *name)
{
	struct bp_plugin_run *run = run_of(ctx);
	struct tep_format_field *tf;
	struct bootprof_field *f;
	struct tep_event *e;

	if (!run->set->tep || id < 0)
		return NULL;
	e = tep_find_event(run->set->tep, id);
	if (!e)
		return NULL;
	tf = tep_find_field(e, name);
	if (!tf)
		tf = tep_find_common_field(e, name);
	if (!tf)
		return NULL;
	f = xcalloc(1, sizeof(*f));
	f->off = tf->offset;
	f->size = tf->size;
	f->dyn = !!(tf->flags & TEP_FIELD_IS_DYNAMIC);
	f->rel = !!(tf->flags & TEP_FIELD_IS_RELATIVE);
	f->is_signed = !!(tf->flags & TEP_FIELD_IS_SIGNED);
	f->swap = run->set->swap;
	f->next = run->fields;
	run->fields = f;
	return f;
}

static uint64_t read_raw(const struct bp_event *ev, int off, int size, int swap, int is_signed)
{
	const unsigned char *p;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	if (off < 0 || size <= 0 || off > ev->size || size > ev->size - off)
		return 0;
	p = (const unsigned char *)ev->data + off;
	switch (size) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)(int8_t)*p : *p;
	case 2:
		memcpy(&v16, p, 2);
		if (swap)
			v16 = __builtin_bswap16(v16);
		return is_signed ? (uint64_t)(int64_t)(int16_t)v16 : v16;
	case 4:
		memcpy(&v32, p, 4);
		if (swap)
			v32 = __builtin_bswap32(v32);
		return is_signed ? (uint64_t)(int64_t)(int32_t)v32 : v32;
	case 8:
		memcpy(&v64, p, 8);
		return swap ? __builtin_bswap64(v64) : v64;
	default:
		return 0;
	}
}

static uint64_t host_field_u64(const struct bootprof_event *ev, const struct bootprof_field *f)
{
	if (!f || !ev->priv)
		return 0;
	return read_raw(ev->priv, f->off, f->dyn ? 4 : f->size, f->swap, f->is_signed);
}

static size_t host_field_str(const struct bootprof_event *ev, const struct bootprof_field *f,
			     char *buf, size_t len)
{
	const struct bp_event *raw = ev->priv;
	size_t off, n;

	if (!len)
		return 0;
	buf[0] = 0;
	if (!f || !raw)
		return 0;
	if (f->dyn) {
		uint32_t loc = (uint32_t)read_raw(raw, f->off, 4, f->swap, 0);

		off = loc & 0xffff;
		n = loc >> 16;
		/* __rel_loc: the offset counts from the end of the field. */
		if (f->rel)
			off += (size_t)f->off + 4;
	} else {
		off = (size_t)f->off;
		n = (size_t)f->size;
		/* A flexible array (ftrace:print's char buf[], size 0): to the record's end. */
		if (!n && off <= (size_t)raw->size)
			n = (size_t)raw->size - off;
	}
	if (off > (size_t)raw->size || n > (size_t)raw->size - off)
		return 0;
	n = strnlen((const char *)raw->data + off, n);
	if (n >= len)
		n = len - 1;
	memcpy(buf, (const char *)raw->data + off, n);
	buf[n] = 0;
	return n;
}

static int host_ncpus(struct bootprof_ctx *ctx)
{
	struct bp_plugin_set *set = run_of(ctx)->set;

	return set->tep ? tep_get_cpus(set->tep) : 0;
}

static enum bootprof_syscall host_syscall(struct bootprof_ctx *ctx, long nr)
{
	int c = bp_syscall_class(run_of(ctx)->set->arch, nr);

	switch (c) {
	case BP_CAUSE_READ:
		return BOOTPROF_SYS_READ;
	case BP_CAUSE_OPEN_STAT:
		return BOOTPROF_SYS_OPEN_STAT;
	case BP_CAUSE_EXEC:
		return BOOTPROF_SYS_EXEC;
	case BP_CAUSE_GETDENTS:
		return BOOTPROF_SYS_GETDENTS;
	default:
		return BOOTPROF_SYS_OTHER;
	}
}

static const char *host_ksym(struct bootprof_ctx *ctx, uint64_t addr)
{
	return addr ? ksyms_name(&run_of(ctx)->set->ksyms, addr) : NULL;
}

static void host_warn(struct bootprof_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- options ---- */

static const char *host_option(struct bootprof_ctx *ctx, const char *key)
{
	struct bp_plugin_run *run = run_of(ctx);
	size_t nlen = strlen(run->p->name), klen = strlen(key), i;
	const char *val = NULL;

	/* The last occurrence wins, as with any repeated option. */
	for (i = 0; i < run->set->nopts; i++) {
		const char *o = run->set->opts[i];

		if (!strncmp(o, run->p->name, nlen) && o[nlen] == '.' &&
		    !strncmp(o + nlen + 1, key, klen) && o[nlen + 1 + klen] == '=')
			val = o + nlen + 2 + klen;
	}
	return val;
}

static uint64_t host_option_u64(struct bootprof_ctx *ctx, const char *key, uint64_t def)
{
	const char *v = host_option(ctx, key);
	uint64_t n;

	if (!v)
		return def;
	if (bp_parse_count(v, UINT64_MAX, &n)) {
		host_warn(ctx, "option %s='%s' is not a number; using %llu", key, v,
			  (unsigned long long)def);
		return def;
	}
	return n;
}

static int host_match(const char *patterns, const char *s)
{
	char pat[256];
	const char *p = patterns;

	if (!patterns || !s)
		return 0;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len && len < sizeof(pat)) {
			memcpy(pat, p, len);
			pat[len] = 0;
			if (!fnmatch(pat, s, 0))
				return 1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* ---- the model ---- */

#define VIEW(m) ((const struct bp_plugin_model *)(const void *)(m))

static size_t host_count(const struct bootprof_model *bm, enum bootprof_table t)
{
	const struct bp_plugin_model *v = VIEW(bm);

	switch (t) {
	case BOOTPROF_PROCESSES:
		return v->nprocs;
	case BOOTPROF_FILES:
		return v->nfiles;
	case BOOTPROF_ACCESSES:
		return v->naccesses;
	case BOOTPROF_EXECS:
		return v->nexecs;
	case BOOTPROF_THREADS:
		return v->nthreads;
	}
	return 0;
}

/* A process's index in the view; BOOTPROF_NONE for none or one outside the selection. */
static size_t proc_index(const struct bp_plugin_model *v, const struct bp_process *p)
{
	return p ? v->proc_slot[p - v->m->processes] : BOOTPROF_NONE;
}

static int host_process(const struct bootprof_model *bm, size_t i, struct bootprof_process *o)
{
	const struct bp_plugin_model *v = VIEW(bm);
	const struct bp_process *p;

	if (i >= v->nprocs)
		return -1;
	p = v->procs[i];
	memset(o, 0, sizeof(*o));
	o->parent = proc_index(v, p->parent);
	o->pid = p->pid;
	o->ppid = p->ppid;
	memcpy(o->comm, p->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
	o->exec = p->nexec ? p->exec[p->nexec - 1] : NULL;
	o->nexec = p->nexec;
	o->start_ns = p->start_ns;
	o->exit_ns = p->exit_ns;
	o->wait_ns = p->wait_ns;
	o->run_ns = p->run_ns;
	o->bytes_read = p->bytes_read;
	o->tree_wait_ns = p->tree_wait_ns;
	o->tree_bytes_read = p->tree_bytes_read;
	o->nthreads = p->nthreads;
	o->nfiles = p->nfiles;
	return 0;
}

static int host_file(const struct bootprof_model *bm, size_t i, struct bootprof_file *o)
{
	const struct bp_plugin_model *v = VIEW(bm);
	struct bp_file_part part;
	const struct bp_file *f;

	if (i >= v->nfiles)
		return -1;
	f = v->files[i];
	bp_file_part(v->m, f, &v->filter, &part);
	memset(o, 0, sizeof(*o));
	o->path = f->path;
	o->dev = f->dev;
	o->ino = f->ino;
	o->metadata = f->kind == BP_FILE_METADATA;
	o->resolved = f->resolved;
	o->bytes_read = part.bytes_read;
	o->wait_ns = part.wait_ns;
	o->used_bytes = f->used_bytes;
	o->never_used_bytes = f->never_used_bytes;
	o->reread_bytes = f->reread_bytes;
	o->size_pages = f->size_pages;
	o->first_ns = f->first_ns;
	o->last_ns = f->last_ns;
	o->nreaders = part.nreaders;
	return 0;
}

static int host_access(const struct bootprof_model *bm, size_t i, struct bootprof_access *o)
{
	const struct bp_plugin_model *v = VIEW(bm);
	const struct bp_access *a;

	if (i >= v->naccesses)
		return -1;
	a = v->accesses[i];
	memset(o, 0, sizeof(*o));
	o->process = proc_index(v, a->process);
	o->file = v->file_slot[a->file - v->m->files];
	o->wait_ns = a->wait_ns;
	o->bytes_read = a->bytes_read;
	o->first_ns = a->first_ns;
	o->last_ns = a->last_ns;
	return 0;
}

static int host_exec(const struct bootprof_model *bm, size_t i, struct bootprof_exec *o)
{
	const struct bp_plugin_model *v = VIEW(bm);

	if (i >= v->nexecs)
		return -1;
	memset(o, 0, sizeof(*o));
	o->path = v->execs[i].path;
	o->count = v->execs[i].count;
	o->wait_ns = v->execs[i].wait_ns;
	o->bytes_read = v->execs[i].bytes_read;
	return 0;
}

static int host_thread(const struct bootprof_model *bm, size_t i, struct bootprof_thread *o)
{
	const struct bp_plugin_model *v = VIEW(bm);
	const struct bp_thread *t;

	if (i >= v->nthreads)
		return -1;
	t = v->threads[i];
	memset(o, 0, sizeof(*o));
	o->tid = t->tid;
	o->process = proc_index(v, t->process);
	memcpy(o->comm, t->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
	o->wait_ns = t->wait_ns;
	o->run_ns = t->run_ns;
	return 0;
}

static void host_totals(const struct bootprof_model *bm, struct bootprof_totals *o)
{
	const struct bp_model *m = VIEW(bm)->m;
	const struct bp_totals *t = &m->totals;

	memset(o, 0, sizeof(*o));
	o->read_bytes = t->read_bytes;
	o->wait_ns = t->wait_ns;
	o->idle_wait_ns = t->idle_wait_ns;
	o->used_bytes = t->used_bytes;
	o->never_used_bytes = t->never_used_bytes;
	o->access_available = !(m->missing & BP_MISSING_ACCESS);
	o->first_ns = t->first_ns;
	o->last_ns = t->last_ns;
	o->span_ns = t->span_ns;
	o->lost_events = t->lost_events;
	o->ncpus = m->header.ncpus;
	o->page_size = m->header.page_size;
}

static int host_waiting(const struct bootprof_model *bm, const unsigned char *in,
			struct bootprof_waiting *out)
{
	const struct bp_plugin_model *v = VIEW(bm);

	if (!v->waits || !in) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return bp_plugin_waits_of(v->waits, v, in, out);
}

/* ---- output ---- */

_Static_assert((int)BOOTPROF_TEXT == (int)BP_TEXT && (int)BOOTPROF_PATH == (int)BP_PATH &&
	       (int)BOOTPROF_U64 == (int)BP_U64 && (int)BOOTPROF_I64 == (int)BP_I64 &&
	       (int)BOOTPROF_NS == (int)BP_NS && (int)BOOTPROF_BYTES == (int)BP_BYTES &&
	       (int)BOOTPROF_TIME == (int)BP_TIME && (int)BOOTPROF_DOUBLE == (int)BP_DOUBLE &&
	       (int)BOOTPROF_BOOL == (int)BP_BOOL, "plugin types are the document's types");

static int is_string(enum bootprof_type t)
{
	return t == BOOTPROF_TEXT || t == BOOTPROF_PATH;
}

static int valid_type(enum bootprof_type t)
{
	return t >= BOOTPROF_TEXT && t <= BOOTPROF_BOOL;
}

static void host_section(struct bootprof_ctx *ctx, const char *title)
{
	struct bp_plugin_run *run = run_of(ctx);

	free(run->title);
	run->title = xstrdup(title ? title : run->p->name);
	run->section = -1;
}

/* The section lines go to: the current one, or a new one titled as host->section() said. */
static struct bp_section *current(struct bp_plugin_run *run)
{
	struct bp_section *s;

	if (run->section >= 0)
		return &run->out.sections[run->section];
	s = bp_doc_section(&run->out, run->title ? run->title : run->p->name);
	s->optional = 1;
	run->section = (long)run->out.nsections - 1;
	return s;
}

static void host_line(struct bootprof_ctx *ctx, const char *fmt, ...)
{
	struct bp_plugin_run *run = run_of(ctx);
	struct bp_section *s = current(run);
	va_list ap;

	/* Lines come before the table: after one, they start the next section. */
	if (s->ncols) {
		run->section = -1;
		s = current(run);
	}
	va_start(ap, fmt);
	bp_section_vline(s, fmt, ap);
	va_end(ap);
}

static struct bp_out_frame *top(struct bp_plugin_run *run)
{
	return run->depth ? &run->stack[run->depth - 1] : NULL;
}

/* The JSON object values go into: the innermost object or row, or the plugin's own. */
static struct bp_node *json_object(struct bp_plugin_run *run)
{
	struct bp_out_frame *f = top(run);

	if (run->overflow)
		return NULL;
	if (!f)
		return run->out.json;
	return f->kind == 't' ? NULL : f->node;
}

static struct bp_out_frame *push(struct bp_plugin_run *run, char kind, struct bp_node *node)
{
	struct bp_out_frame *f;

	if (run->depth >= BP_OUT_DEPTH) {
		run->overflow++;
		return NULL;
	}
	f = &run->stack[run->depth++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->node = node;
	f->section = -1;
	return f;
}

static void pop(struct bp_plugin_run *run)
{
	struct bp_out_frame *f;

	if (run->overflow) {
		run->overflow--;
		return;
	}
	if (!run->depth)
		return;
	f = &run->stack[--run->depth];
	free(f->cols);
}

static void host_object_begin(struct bootprof_ctx *ctx, const char *key)
{
	struct bp_plugin_run *run = run_of(ctx);
	struct bp_node *parent = json_object(run);

	push(run, 'o', parent ? bp_node_new(parent, key ? key : "", '{') : NULL);
}

static void host_object_end(struct bootprof_ctx *ctx)
{
	struct bp_plugin_run *run = run_of(ctx);
	struct bp_out_frame *f = top(run);

	if (run->overflow || (f && f->kind == 'o'))
		pop(run);
}

static void host_table_end(struct bootprof_ctx *ctx)
{
	struct bp_plugin_run *run = run_of(ctx);
	struct bp_out_frame *f = top(run);

	if (!run->overflow && f && f->kind == 'r') {
		pop(run);
		f = top(run);
	}
	if (run->overflow || (f && f->kind == 't'))
		pop(run);
}

static void host_table(struct bootprof_ctx *ctx, const struct bootprof_table_spec *spec)
{
	struct bp_plugin_run *run = run_of(ctx);
	const char *titles[64];
	enum bp_type types[64];
	struct bp_out_frame *f = top(run);
	struct bp_node *parent;
	size_t c, n = 0;

	if (!spec || !spec->columns || !spec->ncols || spec->ncols > 64)
		return;
	/* A table inside a table (not a row of it) follows it instead. */
	if (f && f->kind == 't')
		host_table_end(ctx);
	parent = json_object(run);
	f = push(run, 't', parent && spec->key ? bp_node_new(parent, spec->key, '[') : NULL);
	if (!f)
		return;
	f->ncols = spec->ncols;
	f->cols = xcalloc(spec->ncols, sizeof(*f->cols));
	memcpy(f->cols, spec->columns, spec->ncols * sizeof(*f->cols));
	f->top = spec->top;
	for (c = 0; c < spec->ncols; c++) {
		if (!valid_type(f->cols[c].type))
			f->cols[c].type = BOOTPROF_TEXT;
		if (f->cols[c].title) {
			titles[n] = f->cols[c].title;
			types[n++] = (enum bp_type)f->cols[c].type;
		}
	}
	if (n) {
		struct bp_section *s = current(run);

		/* One table per section: a second one gets a section of its own. */
		if (s->ncols) {
			run->section = -1;
			s = current(run);
		}
		bp_section_columns(s, n, titles, types, NULL);
		f->section = run->section;
	}
}

static void set_value(union bp_value *to, enum bootprof_type t, const union bootprof_value *v,
		      int printable)
{
	if (is_string(t))
		to->s = printable ? bp_cell_str(v->s) : (v->s ? xstrdup(v->s) : NULL);
	else if (t == BOOTPROF_I64)
		to->i = v->i;
	else if (t == BOOTPROF_DOUBLE)
		to->d = v->d;
	else if (t == BOOTPROF_BOOL)
		to->b = !!v->b;
	else
		to->u = v->u;
}

static void add_value(struct bp_node *parent, const char *key, enum bootprof_type t,
		      const union bootprof_value *v)
{
	struct bp_node *n;

	if (!parent)
		return;
	n = bp_node_new(parent, parent->kind == '{' ? (key ? key : "") : NULL, 'v');
	n->type = (enum bp_type)t;
	set_value(&n->v, t, v, 0);
}

static void host_row(struct bootprof_ctx *ctx, const union bootprof_value *values)
{
	struct bp_plugin_run *run = run_of(ctx);
	struct bp_out_frame *f = top(run), *t;
	struct bp_node *obj = NULL;
	size_t c;

	if (run->overflow || !values)
		return;
	if (f && f->kind == 'r') {
		pop(run);
		f = top(run);
	}
	if (!f || f->kind != 't')
		return;
	t = f;
	if (t->section >= 0) {
		struct bp_section *s = &run->out.sections[t->section];

		if (t->top && s->nrows >= t->top) {
			s->more++;
			if (!s->more_hint) {
				s->more_hint = xasprintf("use --plugin-opt %s.top=0", run->p->name);
			}
		} else {
			union bp_value *cells = bp_section_row(s, NULL);
			size_t k = 0;

			for (c = 0; c < t->ncols; c++) {
				if (t->cols[c].title)
					set_value(&cells[k++], t->cols[c].type, &values[c], 1);
			}
		}
	}
	if (t->node) {
		obj = bp_node_new(t->node, NULL, '{');
		for (c = 0; c < t->ncols; c++) {
			if (t->cols[c].key)
				add_value(obj, t->cols[c].key, t->cols[c].type, &values[c]);
		}
	}
	push(run, 'r', obj);
}

static void host_value_u64(struct bootprof_ctx *ctx, const char *key, uint64_t v)
{
	union bootprof_value u = { .u = v };

	add_value(json_object(run_of(ctx)), key, BOOTPROF_U64, &u);
}

static void host_value_i64(struct bootprof_ctx *ctx, const char *key, int64_t v)
{
	union bootprof_value u = { .i = v };

	add_value(json_object(run_of(ctx)), key, BOOTPROF_I64, &u);
}

static void host_value_double(struct bootprof_ctx *ctx, const char *key, double v)
{
	union bootprof_value u = { .d = v };

	add_value(json_object(run_of(ctx)), key, BOOTPROF_DOUBLE, &u);
}

static void host_value_str(struct bootprof_ctx *ctx, const char *key, const char *v)
{
	union bootprof_value u = { .s = v };

	add_value(json_object(run_of(ctx)), key, BOOTPROF_TEXT, &u);
}

static void host_value_bool(struct bootprof_ctx *ctx, const char *key, int v)
{
	union bootprof_value u = { .b = v };

	add_value(json_object(run_of(ctx)), key, BOOTPROF_BOOL, &u);
}

static void host_warn(struct bootprof_ctx *ctx, const char *fmt, ...)
{
	struct bp_plugin_run *run = run_of(ctx);
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	bp_plugin_warn(run->set, "plugin '%s': %s", run->p->name, msg);
	free(msg);
}

/* ---- the timelines' marks: typed, kept apart from the document ---- */

/*
 * A plugin built before ABI 5 passes a mark without @pid, and knows no
 * END: only the fields its struct has are read.
 */
static void host_mark(struct bootprof_ctx *ctx, const struct bootprof_mark *mark)
{
	const struct bp_plugin_run *run = run_of(ctx);
	struct bp_plugin_set *set = run->set;
	int abi5 = run->p->abi >= 5;
	struct bootprof_mark *m;

	if (!mark || !mark->name || (mark->kind != BOOTPROF_MARK_PHASE &&
				     mark->kind != BOOTPROF_MARK_SPAN &&
				     (mark->kind != BOOTPROF_MARK_END || !abi5)))
		return;
	if (set->nmarks == set->cmarks) {
		set->cmarks = set->cmarks ? set->cmarks * 2 : 64;
		set->marks = xrealloc(set->marks, set->cmarks * sizeof(*set->marks));
		set->mark_by = xrealloc(set->mark_by, set->cmarks * sizeof(*set->mark_by));
	}
	set->mark_by[set->nmarks] = run->p->name;
	m = &set->marks[set->nmarks++];
	m->kind = mark->kind;
	m->ns = mark->ns;
	m->duration_ns = mark->duration_ns;
	m->name = xstrdup(mark->name);
	m->detail = mark->detail ? xstrdup(mark->detail) : NULL;
	m->pid = abi5 ? mark->pid : 0;
}

size_t bp_plugins_marks(const struct bp_plugin_set *set, const struct bootprof_mark **out)
{
	*out = set->marks;
	return set->nmarks;
}

const char *bp_plugins_mark_by(const struct bp_plugin_set *set, size_t i)
{
	return i < set->nmarks ? set->mark_by[i] : NULL;
}

void bp_plugin_marks_release(struct bp_plugin_set *set)
{
	size_t i;

	for (i = 0; i < set->nmarks; i++) {
		free((char *)set->marks[i].name);
		free((char *)set->marks[i].detail);
	}
	free(set->marks);
	free(set->mark_by);
	set->marks = NULL;
	set->mark_by = NULL;
	set->nmarks = set->cmarks = 0;
}

/* The report's own units, so plugin lines read like the rest. */
static const char *host_fmt_ns(char *buf, uint64_t ns)
{
	return bp_fmt_ns(buf, ns);
}

static const char *host_fmt_bytes(char *buf, uint64_t b)
{
	return bp_fmt_bytes(buf, b);
}

const struct bootprof_host bp_plugin_host = {
	.event_id = host_event_id,
	.field = host_field,
	.field_u64 = host_field_u64,
	.field_str = host_field_str,
	.ncpus = host_ncpus,
	.syscall = host_syscall,
	.ksym = host_ksym,
	.option = host_option,
	.option_u64 = host_option_u64,
	.match = host_match,
	.unit_of_cgroup = bp_unit_of_cgroup,
	.count = host_count,
	.process = host_process,
	.file = host_file,
	.access = host_access,
	.exec = host_exec,
	.thread = host_thread,
	.totals = host_totals,
	.waiting = host_waiting,
	.section = host_section,
	.line = host_line,
	.table = host_table,
	.row = host_row,
	.table_end = host_table_end,
	.object_begin = host_object_begin,
	.object_end = host_object_end,
	.value_u64 = host_value_u64,
	.value_i64 = host_value_i64,
	.value_double = host_value_double,
	.value_str = host_value_str,
	.value_bool = host_value_bool,
	.warn = host_warn,
	.fmt_ns = host_fmt_ns,
	.fmt_bytes = host_fmt_bytes,
	.mark = host_mark,
};

void bp_plugin_output_release(struct bp_plugin_run *run)
{
	while (run->depth || run->overflow)
		pop(run);
	bp_doc_release(&run->out);
	free(run->title);
	run->title = NULL;
	run->section = -1;
}

void bp_plugin_output_publish(struct bp_plugin_run *run)
{
	struct bp_doc *doc = &run->set->doc;
	size_t i;

	while (run->depth || run->overflow)
		pop(run);
	if (!doc->json)
		doc->json = bp_node_new(NULL, NULL, '{');
	if (run->out.json) {
		BP_GROW(doc->json->kids, doc->json->nkids, doc->json->cap);
		doc->json->kids[doc->json->nkids++] = run->out.json;
		free(run->out.json->key);
		run->out.json->key = xstrdup(run->p->name);
		run->out.json = NULL;
	}
	for (i = 0; i < run->out.nsections; i++) {
		doc->sections = xrealloc(doc->sections, (doc->nsections + 1) * sizeof(*doc->sections));
		doc->sections[doc->nsections++] = run->out.sections[i];
	}
	free(run->out.sections);
	run->out.sections = NULL;
	run->out.nsections = 0;
	bp_plugin_output_release(run);
}

const struct bp_doc *bp_plugins_doc(const struct bp_plugin_set *set)
{
	return set ? &set->doc : NULL;
}

/* ---- driving ---- */

/* Mark the events a plugin asked for ("system:event"; "system:*" for all of a system). */
static void resolve_wants(struct bp_plugin_run *run)
{
	struct bp_plugin_set *set = run->set;
	const char *const *ev = run->p->events;
	int i, n = tep_get_events_count(set->tep);

	run->nwants = set->nids;
	run->wants = xcalloc(set->nids ? set->nids : 1, 1);
	for (; ev && *ev; ev++) {
		const char *colon = strchr(*ev, ':');

		if (!colon)
			continue;
		for (i = 0; i < n; i++) {
			struct tep_event *e = tep_get_event(set->tep, i);
			size_t slen = (size_t)(colon - *ev);

			if (!e || !e->system || !e->name || e->id < 0 || (size_t)e->id >= set->nids)
				continue;
			if (strlen(e->system) != slen || strncmp(e->system, *ev, slen))
				continue;
			if (strcmp(colon + 1, "*") && strcmp(colon + 1, e->name))
				continue;
			run->wants[e->id] = 1;
			set->any_wants[e->id] = 1;
		}
	}
}

void bp_plugins_start(struct bp_plugin_set *set, struct tep_handle *tep, const char *machine)
{
	int i, n, maxid = -1;
	size_t r;

	if (!set)
		return;
	set->tep = tep;
	set->arch = bp_arch_of(machine);
	n = tep ? tep_get_events_count(tep) : 0;
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(tep, i);

		if (e && e->id > maxid)
			maxid = e->id;
	}
	set->nids = (size_t)(maxid + 1);
	set->any_wants = xcalloc(set->nids ? set->nids : 1, 1);
	set->pid_off = xcalloc(set->nids ? set->nids : 1, sizeof(*set->pid_off));
	for (r = 0; r < set->nids; r++)
		set->pid_off[r] = -1;
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(tep, i);
		struct tep_format_field *f = e ? tep_find_common_field(e, "common_pid") : NULL;

		if (f && f->size == 4 && e->id >= 0)
			set->pid_off[e->id] = f->offset;
	}
	set->swap = tep ? tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep) : 0;

	for (r = 0; r < set->nruns; r++) {
		struct bp_plugin_run *run = set->runs[r];

		if (run->started)
			continue;
		if (tep)
			resolve_wants(run);
		run->started = 1;
		run->active = 1;
		run->out.json = bp_node_new(NULL, NULL, '{');
		if (run->p->init && run->p->init(&run->ctx)) {
			bp_plugin_warn(set, "plugin '%s' could not start; skipped", run->p->name);
			run->active = 0;
		}
	}
}

void bp_plugins_kallsyms(struct bp_plugin_set *set, const char *text)
{
	if (!set)
		return;
	ksyms_release(&set->ksyms);
	/* Out of memory: the symbols parsed so far name what they can. */
	ksyms_parse(&set->ksyms, text);
}

void bp_plugins_window(struct bp_plugin_set *set, uint64_t since_ns, uint64_t until_ns)
{
	if (!set)
		return;
	set->since_ns = since_ns;
	set->until_ns = until_ns;
}

static void dispatch(void *arg, const struct bp_event *raw)
{
	struct bp_plugin_set *set = arg;
	struct bootprof_event ev;
	size_t r;

	if (raw->id < 0 || (size_t)raw->id >= set->nids || !set->any_wants[raw->id])
		return;
	ev.ts = raw->ts;
	ev.cpu = raw->cpu;
	ev.id = raw->id;
	ev.pid = (int)(int32_t)read_raw(raw, set->pid_off[raw->id], 4, set->swap, 1);
	ev.in_window = raw->ts >= set->since_ns && (!set->until_ns || raw->ts <= set->until_ns);
	ev.priv = raw;
	for (r = 0; r < set->nruns; r++) {
		struct bp_plugin_run *run = set->runs[r];

		if (run->active && run->wants[raw->id] && run->p->event)
			run->p->event(&run->ctx, &ev);
	}
}

static void no_events(void *arg, const struct bp_event *raw)
{
	(void)arg;
	(void)raw;
}

static void keep_span(void *arg, const struct bp_span *span)
{
	struct bp_plugin_set *set = arg;

	bp_plugin_waits_span(&set->waits, span);
}

void bp_plugins_hooks(struct bp_plugin_set *set, struct bp_build_hooks *hooks)
{
	*hooks = (struct bp_build_hooks){
		.event = set && set->nruns ? dispatch : no_events,
		.span = set && set->nruns ? keep_span : NULL,
		.arg = set,
	};
	if (hooks->span)
		set->waits.fed = 1;
}

void bp_plugins_finish(struct bp_plugin_set *set, const struct bp_model *m,
		       const struct bp_filter *f)
{
	struct bp_plugin_model view;
	size_t r;

	if (!set || !m)
		return;
	bp_plugin_model_init(&view, m, f);
	view.waits = &set->waits;
	for (r = 0; r < set->nruns; r++) {
		struct bp_plugin_run *run = set->runs[r];

		if (!run->active || !run->p->model)
			continue;
		if (run->p->model(&run->ctx, (const struct bootprof_model *)(const void *)&view)) {
			bp_plugin_warn(set, "plugin '%s' failed; its section is left out",
				       run->p->name);
			bp_plugin_output_release(run);
			run->active = 0;
		}
	}
	bp_plugin_model_release(&view);
	if (!set->doc.json)
		set->doc.json = bp_node_new(NULL, NULL, '{');
	for (r = 0; r < set->nruns; r++) {
		if (set->runs[r]->active)
			bp_plugin_output_publish(set->runs[r]);
	}
}
