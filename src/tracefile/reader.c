// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat reader: versions 6 and 7 of trace-cmd's format (man 5
 * trace-cmd.dat.v6 / .v7), uncompressed or zstd-compressed, written by
 * bootprof or by trace-cmd, and the writer's spool during a recording.
 *
 * The file is mapped; every length and offset in it is checked against the
 * mapping before use, so a cut or corrupt file yields an error message or
 * the events up to its last complete page, never a crash. Each CPU's data
 * of each buffer (trace-cmd files may hold several instances) is a stream
 * of ring-buffer pages; a binary heap keyed by the timestamp of each
 * stream's current event merges them in time order. A page is copied into a
 * zero-padded buffer before libtraceevent's kbuffer parses it, so that no
 * field read of a corrupt event can leave our memory; the per-event path
 * does no allocation and no string work.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "tracefile/guard.h"
#include "tracefile/internal.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

/* Slack after each page copy: offsets of fields in a corrupt event stay inside. */
#define PAGE_PAD (128 * 1024 + 64)
/* Bounds on what a hostile file can make us allocate or loop over. */
#define MAX_SECTION (1ULL << 31)
#define MAX_OPTION_SECTIONS 256
#define MAX_BUFFERS 256
#define MAX_CHUNK (1U << 30)
/* 1 PiB: a CPU data offset or size beyond this is corrupt, not truncated. */
#define MAX_CPU_DATA (1ULL << 50)

struct chunk {
	uint64_t off;    /* file offset of the compressed bytes */
	uint32_t zsize;
	uint32_t size;
};

/* One CPU's pages of one buffer. */
struct stream {
	int cpu;
	int page_size;
	/* Uncompressed: pages at base[0 .. avail), whole pages only. */
	const uint8_t *base;
	uint64_t avail;
	/* zstd: the chunks, decompressed one at a time into zbuf. */
	struct chunk *chunks;
	size_t nchunks, next_chunk;
	uint8_t *zbuf;
	uint64_t zlen;
	uint64_t pos;            /* offset of the next page in base or zbuf */
	struct kbuffer *kbuf;
	uint8_t *page;           /* page_size + PAGE_PAD */
	void *rec;               /* current event in page, NULL when done */
	uint64_t ts;
	int rec_size;
};

struct bp_reader {
	char *path;
	const uint8_t *map;      /* the file */
	uint64_t size;
	void **maps;             /* spool mappings */
	size_t *map_lens;
	int nmaps;
	int version;
	int swap;                /* file endianness differs from ours */
	int long_size;
	int page_size;
	int ncpus;
	int compressed;
	ZSTD_DCtx *zctx;
	struct tep_handle *tep;
	struct tep_event **by_id; /* indexed by common_type */
	int *need;               /* by id: bytes the format's fields span */
	int nids;
	int type_offset, type_size;
	struct stream *streams;
	int nstreams;
	int *heap;               /* stream indexes, min-heap on (ts, cpu) */
	int nheap;
	int last;                /* stream of the event returned last, to advance */
	struct bp_meta meta;
	struct bp_read_stats stats;
	char *warnings;
	size_t warnings_len;
	uint64_t corrupt_pages;  /* not yet warned about */
	uint64_t truncated_declared; /* bytes of CPU data the truncated streams declare */
	int truncated_cpus, truncated_cpu; /* how many were cut, the first one */
	uint64_t table_end;      /* v6: where the CPU table ends; no data may start before */
	/* Header texts as found in the file, for bp_reader_headers(). */
	struct bp_trace_headers texts;
	size_t texts_cap;
	void **owned;            /* decompressed sections the texts point into */
	size_t nowned;
	/* trace-cmd options seen, for the metadata when bootprof's is absent */
	char *opt_uname, *opt_clock;
	char **opt_cpustats;     /* CPUSTAT texts, parsed once the CPU count is known */
	size_t nopt_cpustats;
	char spool[8];           /* an unfinished recording's spool suffix (writer.c) */
	const char *spool_why;   /* why it is unfinished, when known: "the disk was full" */
	int shrank;              /* a mapped read faulted: the file was cut meanwhile */
	int scanning;            /* bp_reader_page_losses(): warn of nothing, it reads again */
};

static void add_warning(struct bp_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_warning(struct bp_reader *r, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = strlen(line);
	r->warnings = xrealloc(r->warnings, r->warnings_len + n + 2);
	memcpy(r->warnings + r->warnings_len, line, n);
	r->warnings_len += n;
	r->warnings[r->warnings_len++] = '\n';
	r->warnings[r->warnings_len] = 0;
}

/* ---- bounded cursor over untrusted bytes ---- */

struct cur {
	const uint8_t *p;
	uint64_t len, pos;
	int swap;
	int err;
};

static void cur_init(struct cur *c, const void *p, uint64_t len, uint64_t pos, int swap)
{
	c->p = p;
	c->len = len;
	c->pos = pos;
	c->swap = swap;
	c->err = pos > len;
}

static const uint8_t *cur_take(struct cur *c, uint64_t n)
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

static uint64_t cur_num(struct cur *c, int n)
{
	const uint8_t *p = cur_take(c, n);
	uint64_t v = 0;
	int i;

	if (!p)
		return 0;
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? !c->swap : c->swap) {
		for (i = n - 1; i >= 0; i--)
			v = v << 8 | p[i];
	} else {
		for (i = 0; i < n; i++)
			v = v << 8 | p[i];
	}
	return v;
}

static uint16_t cur_u16(struct cur *c)
{
	return (uint16_t)cur_num(c, 2);
}

static uint32_t cur_u32(struct cur *c)
{
	return (uint32_t)cur_num(c, 4);
}

static uint64_t cur_u64(struct cur *c)
{
	return cur_num(c, 8);
}

/* A NUL-terminated string inside the bytes, or NULL (and c->err). */
static const char *cur_str(struct cur *c)
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

static int cur_expect(struct cur *c, const char *s, size_t n)
{
	const uint8_t *p = cur_take(c, n);

	return p && !memcmp(p, s, n) ? 0 : -1;
}

static uint64_t swap_num(const struct bp_reader *r, const void *p, int n)
{
	struct cur c;

	cur_init(&c, p, n, 0, r->swap);
	return cur_num(&c, n);
}

/* ---- headers: event formats, kallsyms, printk, cmdlines ---- */

static char *nul_copy(const uint8_t *p, uint64_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

static void keep_format(struct bp_reader *r, const char *system, const uint8_t *text,
			uint64_t len)
{
	struct bp_event_format *f;

	BP_GROW(r->texts.formats, r->texts.nformats, r->texts_cap);
	f = &r->texts.formats[r->texts.nformats++];
	f->system = xstrdup(system);
	f->text = nul_copy(text, len);
	f->len = len;
}

static int parse_header_info(struct bp_reader *r, struct cur *c)
{
	uint64_t n;
	const uint8_t *p;

	if (cur_expect(c, "header_page", 12))
		return -1;
	n = cur_u64(c);
	p = cur_take(c, n);
	if (!p)
		return -1;
	r->texts.header_page = nul_copy(p, n);
	r->texts.header_page_len = n;
	if (cur_expect(c, "header_event", 13))
		return -1;
	n = cur_u64(c);
	p = cur_take(c, n);
	if (!p)
		return -1;
	r->texts.header_event = nul_copy(p, n);
	r->texts.header_event_len = n;
	return 0;
}

static void parse_one_format(struct bp_reader *r, const char *system, const uint8_t *p,
			     uint64_t n)
{
	/* Parsed later, all together, by load_tep(). */
	keep_format(r, system, p, n);
}

static int parse_ftrace_formats(struct bp_reader *r, struct cur *c)
{
	uint32_t count = cur_u32(c), i;

	for (i = 0; i < count && !c->err; i++) {
		uint64_t n = cur_u64(c);
		const uint8_t *p = cur_take(c, n);

		if (p)
			parse_one_format(r, "ftrace", p, n);
	}
	return c->err ? -1 : 0;
}

static int parse_event_formats(struct bp_reader *r, struct cur *c)
{
	uint32_t nsys = cur_u32(c), i, j;

	for (i = 0; i < nsys && !c->err; i++) {
		const char *sys = cur_str(c);
		uint32_t count = cur_u32(c);

		for (j = 0; j < count && !c->err; j++) {
			uint64_t n = cur_u64(c);
			const uint8_t *p = cur_take(c, n);

			if (p)
				parse_one_format(r, sys, p, n);
		}
	}
	return c->err ? -1 : 0;
}

static int parse_kallsyms(struct bp_reader *r, struct cur *c)
{
	uint32_t n = cur_u32(c);
	const uint8_t *p = cur_take(c, n);

	if (!p)
		return -1;
	if (n) {
		r->texts.kallsyms = nul_copy(p, n);
		r->texts.kallsyms_len = n;
	}
	return 0;
}

static int parse_printk(struct bp_reader *r, struct cur *c)
{
	uint32_t n = cur_u32(c);
	const uint8_t *p = cur_take(c, n);

	if (!p)
		return -1;
	if (n) {
		r->texts.printk = nul_copy(p, n);
		r->texts.printk_len = n;
	}
	return 0;
}

/* saved_cmdlines: "pid comm" per line; comms let dump print names. */
static int parse_cmdlines(struct bp_reader *r, struct cur *c)
{
	uint64_t n = cur_u64(c);
	const uint8_t *p = cur_take(c, n);
	char *line, *next;

	if (!p)
		return -1;
	if (!n)
		return 0;
	r->texts.cmdlines = nul_copy(p, n);
	r->texts.cmdlines_len = n;
	line = xstrdup(r->texts.cmdlines);
	for (next = line; next && *next;) {
		char *end = strchr(next, '\n'), *sp, *stop;
		long pid;

		if (end)
			*end = 0;
		pid = strtol(next, &stop, 10);
		sp = stop;
		if (sp != next && *sp == ' ' && sp[1] && pid > 0 && pid <= 0x7fffffff)
			tep_register_comm(r->tep, sp + 1, (int)pid);
		next = end ? end + 1 : NULL;
	}
	free(line);
	return 0;
}

/* ---- handing the texts to libtraceevent ---- */

/*
 * The texts are parsed by libtraceevent, whose parser crashes on some
 * corrupt formats (a NULL strcmp, a division by zero: found by fuzzing
 * 1.7.1). A file is untrusted, so its texts are first parsed in a child
 * process that reports, through a pipe, the index of each text before
 * parsing it: a text the child dies on is skipped (with a warning) when the
 * parent parses for real. Index 0 is the page header, then the formats,
 * then kallsyms and printk formats.
 */
static int parse_text(struct tep_handle *tep, const struct bp_trace_headers *t, int long_size,
		      size_t i)
{
	if (i == 0)
		return tep_parse_header_page(tep, t->header_page, t->header_page_len, long_size);
	if (i <= t->nformats)
		return tep_parse_event(tep, t->formats[i - 1].text, t->formats[i - 1].len,
				       t->formats[i - 1].system) ? -1 : 0;
	if (i == t->nformats + 1)
		return t->kallsyms ? tep_parse_kallsyms(tep, t->kallsyms) : 0;
	return t->printk ? tep_parse_printk_formats(tep, t->printk) : 0;
}

static void setup_tep_geometry(struct bp_reader *r, struct tep_handle *tep);

/* Parse texts from..last in a child; 0 when none crashes, else 1 and *bad. */
enum { TEXT_PROBE, TEXT_KNOWN, TEXT_CRASHED };

static size_t text_len(const struct bp_trace_headers *t, size_t i, const char **p)
{
	if (i == 0) {
		*p = t->header_page;
		return t->header_page_len;
	}
	if (i <= t->nformats) {
		*p = t->formats[i - 1].text;
		return t->formats[i - 1].len;
	}
	*p = i == t->nformats + 1 ? t->kallsyms : t->printk;
	return *p ? strlen(*p) : 0;
}

/*
 * Texts that parsed without crashing in an earlier probe of this process:
 * a set of 64-bit hashes, so that a process opening many recordings of the
 * same machine forks a probe only for texts it has not seen.
 */
static struct {
	pthread_mutex_t lock;
	uint64_t *slots;  /* 0: empty */
	size_t cap, count;
} known = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

static uint64_t text_hash(const struct bp_trace_headers *t, size_t i)
{
	uint64_t h = 1469598103934665603ULL ^ i * 0x9e3779b97f4a7c15ULL;
	const char *p;
	size_t n = text_len(t, i, &p), k;

	for (k = 0; k < n; k++)
		h = (h ^ (unsigned char)p[k]) * 1099511628211ULL;
	return h ? h : 1;
}

/* Called with known.lock held. */
static int known_has(uint64_t h)
{
	size_t i;

	if (!known.cap)
		return 0;
	for (i = h & (known.cap - 1); known.slots[i]; i = (i + 1) & (known.cap - 1)) {
		if (known.slots[i] == h)
			return 1;
	}
	return 0;
}

static void known_add(uint64_t h)
{
	size_t i;

	if (known_has(h))
		return;
	if ((known.count + 1) * 2 > known.cap) {
		uint64_t *old = known.slots;
		size_t old_cap = known.cap, k;

		known.cap = known.cap ? known.cap * 2 : 1024;
		known.slots = xcalloc(known.cap, sizeof(*known.slots));
		known.count = 0;
		for (k = 0; k < old_cap; k++) {
			if (old[k])
				known_add(old[k]);
		}
		free(old);
	}
	for (i = h & (known.cap - 1); known.slots[i]; i = (i + 1) & (known.cap - 1))
		;
	known.slots[i] = h;
	known.count++;
}

/* Present in sanitizer builds only. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static int probe_texts(struct bp_reader *r, size_t from, const char *state, size_t *bad)
{
	const size_t last = r->texts.nformats + 2, done = (size_t)-1;
	size_t i, got = done;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) < 0)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		struct tep_handle *tep = tep_alloc();
		int null = open("/dev/null", O_WRONLY);

		/*
		 * Die quietly: the crash being probed for must not reach the
		 * terminal, nor be caught by a handler of the parent's (a test
		 * runner's, a sanitizer's) that would carry on in the child.
		 */
		if (null >= 0)
			dup2(null, 2);
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		/* A sanitizer's death callback (a fuzzer's crash report) is not for it either. */
		if (__sanitizer_set_death_callback)
			__sanitizer_set_death_callback(NULL);
		/* A parser stuck in a loop counts as a crash. */
		signal(SIGALRM, SIG_DFL);
		alarm(30);
		close(fds[0]);
		if (!tep)
			_exit(1);
		setup_tep_geometry(r, tep);
		for (i = from; i <= last; i++) {
			if (state[i] != TEXT_PROBE)
				continue;
			if (write(fds[1], &i, sizeof(i)) != sizeof(i))
				_exit(1);
			parse_text(tep, &r->texts, r->long_size, i);
		}
		if (write(fds[1], &done, sizeof(done)) != sizeof(done))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	while (read(fds[0], &i, sizeof(i)) == sizeof(i))
		got = i;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == done)
		return 0;
	/* The child died after announcing text got (or could not start: got is done). */
	*bad = got;
	return 1;
}

static int load_tep(struct bp_reader *r, int untrusted)
{
	const size_t last = r->texts.nformats + 2;
	char *state = xcalloc(last + 1, 1);
	uint64_t *hash = xcalloc(last + 1, sizeof(*hash));
	size_t i, from = 0, bad, crashes = 0, unknown = 0;
	int ret = -1;

	pthread_mutex_lock(&known.lock);
	for (i = 0; i <= last; i++) {
		hash[i] = text_hash(&r->texts, i);
		state[i] = !untrusted || known_has(hash[i]) ? TEXT_KNOWN : TEXT_PROBE;
		unknown += state[i] == TEXT_PROBE;
	}
	pthread_mutex_unlock(&known.lock);
	while (unknown && probe_texts(r, from, state, &bad)) {
		if (bad == 0 || ++crashes > 64) {
			bp_set_error("'%s' has corrupt event formats", r->path);
			goto out;
		}
		state[bad] = TEXT_CRASHED;
		from = bad + 1;
	}
	pthread_mutex_lock(&known.lock);
	for (i = 0; untrusted && i <= last; i++) {
		if (state[i] == TEXT_PROBE)
			known_add(hash[i]);
	}
	pthread_mutex_unlock(&known.lock);
	if (parse_text(r->tep, &r->texts, r->long_size, 0)) {
		bp_set_error("'%s' has a corrupt ring-buffer page header", r->path);
		goto out;
	}
	for (i = 1; i <= last; i++) {
		if (state[i] == TEXT_CRASHED || parse_text(r->tep, &r->texts, r->long_size, i)) {
			/* An unparsable format loses that event type only, as in trace-cmd. */
			if (i <= r->texts.nformats)
				add_warning(r, "cannot parse an event format of system '%s'",
					    r->texts.formats[i - 1].system);
			else
				add_warning(r, "cannot parse the %s", i == last - 1
					    ? "kernel symbols" : "printk formats");
		}
	}
	ret = 0;
out:
	free(state);
	free(hash);
	return ret;
}

/* ---- trace-cmd options ---- */

static void parse_cpustat(struct bp_reader *r, const char *text)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "entries: ", offsetof(struct bp_cpu_stat, entries) },
		{ "overrun: ", offsetof(struct bp_cpu_stat, overrun) },
		{ "commit overrun: ", offsetof(struct bp_cpu_stat, commit_overrun) },
		{ "dropped events: ", offsetof(struct bp_cpu_stat, dropped) },
		{ "read events: ", offsetof(struct bp_cpu_stat, read) },
	};
	const char *cpu_line = strstr(text, "CPU: ");
	struct bp_cpu_stat *st;
	size_t k;
	long cpu;

	if (!cpu_line || r->ncpus <= 0)
		return;
	/* Several buffers (instances) each have CPU N: their counts add up. */
	cpu = strtol(cpu_line + 5, NULL, 10);
	if (cpu < 0 || cpu >= r->ncpus)
		return;
	if (!r->meta.cpu_stats)
		r->meta.cpu_stats = xcalloc(r->ncpus, sizeof(*r->meta.cpu_stats));
	st = &r->meta.cpu_stats[cpu];
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *line = text;

		/* At the start of a line: "commit overrun: " also contains "overrun: ". */
		while ((line = strstr(line, keys[k].key))) {
			if (line == text || line[-1] == '\n') {
				*(uint64_t *)((char *)st + keys[k].off) +=
					strtoull(line + strlen(keys[k].key), NULL, 10);
				break;
			}
			line++;
		}
	}
}

static char *option_string(const uint8_t *p, uint32_t n)
{
	return xstrndup((const char *)p, n);
}

static int add_buffer_v7(struct bp_reader *r, const uint8_t *p, uint32_t n);
static int add_buffer_v6(struct bp_reader *r, uint64_t offset);

/*
 * One options list (v6: all of them, ended by id 0; v7: one section, its
 * DONE carries the offset of the next section, returned in *next).
 */
static int parse_options(struct bp_reader *r, struct cur *c, uint64_t *next, int top)
{
	int count = 0;

	*next = 0;
	for (;;) {
		uint16_t id = cur_u16(c);
		uint32_t n;
		const uint8_t *p;

		if (c->err)
			return -1;
		if (id == BP_OPT_DONE && r->version < 7)
			return 0;
		n = cur_u32(c);
		p = cur_take(c, n);
		if (!p)
			return -1;
		if (++count > 1 << 20)
			return -1;
		if (!top && id != BP_OPT_DONE)
			continue;
		switch (id) {
		case BP_OPT_DONE:
			if (n >= 8)
				*next = swap_num(r, p, 8);
			return 0;
		case BP_OPT_UNAME:
			free(r->opt_uname);
			r->opt_uname = option_string(p, n);
			break;
		case BP_OPT_TRACECLOCK: {
			char *s = option_string(p, n), *open = strchr(s, '['), *close;

			close = open ? strchr(open, ']') : NULL;
			if (close) {
				free(r->opt_clock);
				r->opt_clock = xstrndup(open + 1, (size_t)(close - open - 1));
			}
			free(s);
			break;
		}
		case BP_OPT_CPUSTAT:
			if (r->nopt_cpustats < BP_MAX_CPUS * 4) {
				r->opt_cpustats = xrealloc(r->opt_cpustats, (r->nopt_cpustats + 1) *
								      sizeof(*r->opt_cpustats));
				r->opt_cpustats[r->nopt_cpustats++] = option_string(p, n);
			}
			break;
		case BP_OPT_CPUCOUNT:
			if (n >= 4 && r->version >= 7) {
				uint32_t cpus = (uint32_t)swap_num(r, p, 4);

				if (cpus > 0 && cpus <= BP_MAX_CPUS && !r->ncpus)
					r->ncpus = (int)cpus;
			}
			break;
		case BP_OPT_BUFFER:
			if (r->version >= 7) {
				if (add_buffer_v7(r, p, n))
					return -1;
			} else if (n >= 8 && add_buffer_v6(r, swap_num(r, p, 8))) {
				return -1;
			}
			break;
		default:
			/* Section offsets (v7) are collected by the caller; others not needed. */
			break;
		}
	}
}

/* ---- CPU data streams ---- */

static struct stream *new_stream(struct bp_reader *r, int cpu, int page_size)
{
	struct stream *s;

	if (r->nstreams >= BP_MAX_CPUS * 4) {
		bp_set_error("too many CPU data streams");
		return NULL;
	}
	r->streams = xrealloc(r->streams, (r->nstreams + 1) * sizeof(*r->streams));
	s = &r->streams[r->nstreams++];
	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	s->page_size = page_size;
	return s;
}

/* Counted per CPU, warned about once for the file (warn_truncated()). */
static void note_truncated(struct bp_reader *r, int cpu, uint64_t missing, uint64_t declared)
{
	if (!r->truncated_cpus++)
		r->truncated_cpu = cpu;
	r->stats.truncated = 1;
	r->stats.truncated_bytes += missing;
	r->truncated_declared += declared;
}

static void warn_truncated(struct bp_reader *r)
{
	if (!r->stats.truncated_bytes)
		return;
	if (r->truncated_cpus == 1)
		add_warning(r, "recording truncated: %llu of %llu bytes of CPU %d data missing",
			    (unsigned long long)r->stats.truncated_bytes,
			    (unsigned long long)r->truncated_declared, r->truncated_cpu);
	else
		add_warning(r, "recording truncated: %llu of %llu bytes of data of %d CPUs missing",
			    (unsigned long long)r->stats.truncated_bytes,
			    (unsigned long long)r->truncated_declared, r->truncated_cpus);
}

/* Uncompressed data of one CPU at [off, off + size) of the file. */
static int add_plain_stream(struct bp_reader *r, int cpu, int page_size, uint64_t off,
			    uint64_t size)
{
	struct stream *s;
	uint64_t avail;

	if (!size)
		return 0;
	avail = off >= r->size ? 0 : r->size - off;
	if (avail < size)
		note_truncated(r, cpu, size - avail, size);
	else
		avail = size;
	avail = avail / page_size * page_size;
	s = new_stream(r, cpu, page_size);
	if (!s)
		return -1;
	s->base = avail ? r->map + off : NULL;
	s->avail = avail;
	return 0;
}

/* zstd data of one CPU: "count, then (zsize, size, bytes) per chunk" at off. */
static int add_zstd_stream(struct bp_reader *r, int cpu, int page_size, uint64_t off,
			   uint64_t size)
{
	struct stream *s;
	struct cur c;
	uint32_t count, i;
	uint64_t end;

	if (!size)
		return 0;
	s = new_stream(r, cpu, page_size);
	if (!s)
		return -1;
	/* trace-cmd's size leaves out the 4-byte chunk count. */
	size += 4;
	end = off + size < off || off + size > r->size ? r->size : off + size;
	cur_init(&c, r->map, end, off, r->swap);
	count = cur_u32(&c);
	if (c.err) {
		note_truncated(r, cpu, size, size);
		return 0;
	}
	for (i = 0; i < count; i++) {
		struct chunk ch;

		ch.zsize = cur_u32(&c);
		ch.size = cur_u32(&c);
		ch.off = c.pos;
		if (c.err || !cur_take(&c, ch.zsize)) {
			uint64_t missing = off + size > c.len ? off + size - c.len : 0;

			if (!missing) {
				add_warning(r, "corrupt compressed data of CPU %d", cpu);
				break;
			}
			note_truncated(r, cpu, missing, size);
			break;
		}
		if (ch.size > MAX_CHUNK || ch.size % page_size) {
			add_warning(r, "corrupt compressed data of CPU %d", cpu);
			break;
		}
		if (!(s->nchunks & (s->nchunks - 1)) || !s->nchunks)
			s->chunks = xrealloc(s->chunks, (s->nchunks ? 2 * s->nchunks : 1) *
							sizeof(*s->chunks));
		s->chunks[s->nchunks++] = ch;
	}
	return 0;
}

static int add_cpu_data(struct bp_reader *r, int cpu, int page_size, uint64_t off, uint64_t size)
{
	if (r->compressed)
		return add_zstd_stream(r, cpu, page_size, off, size);
	return add_plain_stream(r, cpu, page_size, off, size);
}

/*
 * trace-cmd and bootprof write each CPU's data after the headers, in CPU
 * order: a table that says otherwise is not a cut file but a corrupt one.
 * Say what is wrong with CPU cpu's entry, or 0 when nothing is. prev is
 * the last CPU with data before it (-1: none), whose data ends at end.
 */
static int bad_cpu_entry(struct bp_reader *r, int cpu, uint64_t off, uint64_t size, int prev,
			 uint64_t end)
{
	const unsigned long long o = off, n = size, e = end;

	if (!size)
		return 0;
	if (size > MAX_CPU_DATA)
		bp_set_error("'%s' is corrupt: its CPU table gives CPU %d an impossible %llu bytes "
			     "of data", r->path, cpu, n);
	else if (off > MAX_CPU_DATA)
		bp_set_error("'%s' is corrupt: its CPU table puts CPU %d's data at an impossible "
			     "offset %llu", r->path, cpu, o);
	else if (off < end && prev < 0)
		bp_set_error("'%s' is corrupt: its CPU table puts CPU %d's data (%llu bytes) at "
			     "offset %llu, inside the headers, which end at %llu", r->path, cpu, n,
			     o, e);
	else if (off < end)
		bp_set_error("'%s' is corrupt: its CPU table puts CPU %d's data (%llu bytes) at "
			     "offset %llu, inside CPU %d's data, which ends at %llu", r->path, cpu,
			     n, o, prev, e);
	else
		return 0;
	return -1;
}

/* v6 flyrecord CPU table: ncpus (offset, size) pairs at the cursor. */
static int parse_cpu_table(struct bp_reader *r, struct cur *c)
{
	uint64_t end = c->pos + 16 * (uint64_t)r->ncpus;
	int cpu, prev = -1;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		uint64_t off = cur_u64(c), size = cur_u64(c);

		if (c->err)
			return -1;
		if (bad_cpu_entry(r, cpu, off, size, prev, end))
			return -2;
		if (add_cpu_data(r, cpu, r->page_size, off, size))
			return -1;
		if (size) {
			end = off + size;
			prev = cpu;
		}
	}
	return 0;
}

static int add_buffer_v6(struct bp_reader *r, uint64_t offset)
{
	struct cur c;
	uint64_t next;

	cur_init(&c, r->map, r->size, offset, r->swap);
	if (!cur_expect(&c, "options  ", 10)) {
		if (parse_options(r, &c, &next, 0))
			return -1;
	} else {
		cur_init(&c, r->map, r->size, offset, r->swap);
	}
	if (cur_expect(&c, "flyrecord", 10))
		return 0; /* a latency buffer or garbage: no pages */
	return parse_cpu_table(r, &c);
}

/* v7 BUFFER option: offset, name, clock, page size, cpus, (cpu, offset, size)... */
static int add_buffer_v7(struct bp_reader *r, const uint8_t *p, uint32_t n)
{
	struct cur c;
	const char *name, *clock;
	uint32_t page_size, cpus, i;

	cur_init(&c, p, n, 0, r->swap);
	cur_u64(&c);
	name = cur_str(&c);
	clock = cur_str(&c);
	page_size = cur_u32(&c);
	cpus = cur_u32(&c);
	if (c.err || page_size < BP_MIN_PAGE || page_size > BP_MAX_PAGE || cpus > BP_MAX_CPUS)
		return -1;
	if (clock && *clock && (!*name || !r->opt_clock)) {
		free(r->opt_clock);
		r->opt_clock = xstrdup(clock);
	}
	for (i = 0; i < cpus; i++) {
		uint32_t cpu = cur_u32(&c);
		uint64_t off = cur_u64(&c), size = cur_u64(&c);

		if (c.err || cpu >= BP_MAX_CPUS)
			return -1;
		if (add_cpu_data(r, (int)cpu, (int)page_size, off, size))
			return -1;
		if ((int)cpu >= r->ncpus)
			r->ncpus = (int)cpu + 1;
	}
	return 0;
}

struct unzip {
	ZSTD_DCtx *zctx;
	void *dst;
	const void *src;
	size_t size, zsize, got;
};

static int unzip(void *arg)
{
	struct unzip *u = arg;

	u->got = ZSTD_decompressDCtx(u->zctx, u->dst, u->size, u->src, u->zsize);
	return 0;
}

/* Decompress the chunk into s->zbuf. 0, or -1 when it is corrupt (or was cut: r->shrank). */
static int load_chunk(struct bp_reader *r, struct stream *s)
{
	const struct chunk *ch = &s->chunks[s->next_chunk++];
	struct unzip u;
	size_t got;
	int unused;

	if (!r->zctx)
		r->zctx = ZSTD_createDCtx();
	if (s->zlen < ch->size) {
		free(s->zbuf);
		s->zbuf = xmalloc(ch->size);
	}
	u.zctx = r->zctx;
	u.dst = s->zbuf;
	u.src = r->map + ch->off;
	u.size = ch->size;
	u.zsize = ch->zsize;
	if (bp_guard_run(u.src, u.zsize, unzip, &u, &unused)) {
		r->shrank = 1;
		s->zlen = 0;
		return -1;
	}
	got = u.got;
	if (ZSTD_isError(got) || got != ch->size) {
		s->zlen = 0;
		return -1;
	}
	s->zlen = ch->size;
	s->pos = 0;
	return 0;
}

/* The next raw page of a stream, or NULL at its end. */
static const uint8_t *next_raw_page(struct bp_reader *r, struct stream *s)
{
	const uint8_t *page;

	if (!s->chunks) {
		if (s->pos + s->page_size > s->avail)
			return NULL;
		page = s->base + s->pos;
		s->pos += s->page_size;
		return page;
	}
	while (s->pos + s->page_size > s->zlen) {
		if (s->next_chunk >= s->nchunks)
			return NULL;
		if (load_chunk(r, s)) {
			if (!r->shrank && !r->scanning)
				add_warning(r, "corrupt compressed data of CPU %d", s->cpu);
			s->next_chunk = s->nchunks;
			return NULL;
		}
	}
	page = s->zbuf + s->pos;
	s->pos += s->page_size;
	return page;
}

/* Is the event kbuffer points at wholly inside the page? */
static int event_in_page(const struct stream *s, const void *rec, int size)
{
	const uint8_t *p = rec;

	return size >= 0 && p >= s->page &&
	       (uint64_t)(p - s->page) + (uint64_t)size <= (uint64_t)s->page_size;
}

static unsigned event_id(const struct bp_reader *r, const void *rec)
{
	uint16_t v;

	if (r->type_size == 2) {
		memcpy(&v, (const uint8_t *)rec + r->type_offset, 2);
		return r->swap ? (uint16_t)(v >> 8 | v << 8) : v;
	}
	return (unsigned)swap_num(r, (const uint8_t *)rec + r->type_offset, r->type_size);
}

/*
 * Is the current event sound: inside its page, of an id some format
 * describes, and as long as that format's fields? A page holding one that
 * is not is corrupt (see bp_reader_next()).
 */
static int event_ok(const struct bp_reader *r, const struct stream *s)
{
	unsigned id;

	if (!event_in_page(s, s->rec, s->rec_size))
		return 0;
	if (!r->nids)
		return 1; /* no formats at all: nothing to check against */
	if (s->rec_size < r->type_offset + r->type_size)
		return 0;
	id = event_id(r, s->rec);
	return id < (unsigned)r->nids && r->by_id[id] && s->rec_size >= r->need[id];
}

static void corrupt_page(struct bp_reader *r)
{
	r->corrupt_pages++;
	r->stats.corrupt_pages++;
}

/* Load pages until one has an event; s->rec NULL at the end of the stream. */
static void load_next_page(struct bp_reader *r, struct stream *s)
{
	const int hdr = r->long_size == 4 ? 12 : 16;
	const uint8_t *raw;
	unsigned long long ts;

	s->rec = NULL;
	while (!r->shrank && (raw = next_raw_page(r, s))) {
		uint64_t commit;
		int missed;

		/* The only read of the mapped page: the file may be cut meanwhile. */
		if (bp_guard_copy(s->page, raw, s->page_size)) {
			r->shrank = 1;
			return;
		}
		commit = swap_num(r, s->page + 8, r->long_size == 4 ? 4 : 8);
		r->stats.pages++;
		/* Low 27 bits: bytes of events; the top bits flag missed events. */
		if ((commit & ((1U << 27) - 1)) > (uint64_t)(s->page_size - hdr)) {
			corrupt_page(r);
			continue;
		}
		if (kbuffer_load_subbuffer(s->kbuf, s->page) < 0) {
			corrupt_page(r);
			continue;
		}
		missed = kbuffer_missed_events(s->kbuf);
		if (missed > 0)
			r->stats.missed_events += (uint64_t)missed;
		else if (missed < 0)
			r->stats.missed_pages++;
		s->rec = kbuffer_read_event(s->kbuf, &ts);
		if (!s->rec)
			continue;
		s->rec_size = kbuffer_event_size(s->kbuf);
		if (!event_ok(r, s)) {
			corrupt_page(r);
			s->rec = NULL;
			continue;
		}
		s->ts = ts;
		return;
	}
}

static void advance(struct bp_reader *r, struct stream *s)
{
	unsigned long long ts;

	s->rec = kbuffer_next_event(s->kbuf, &ts);
	if (s->rec) {
		s->rec_size = kbuffer_event_size(s->kbuf);
		if (event_ok(r, s)) {
			s->ts = ts;
			return;
		}
		corrupt_page(r);
	}
	load_next_page(r, s);
}

static int stream_less(const struct bp_reader *r, int a, int b)
{
	const struct stream *sa = &r->streams[a], *sb = &r->streams[b];

	if (sa->ts != sb->ts)
		return sa->ts < sb->ts;
	return sa->cpu < sb->cpu;
}

static void sift_down(struct bp_reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i, t;

		if (l < r->nheap && stream_less(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && stream_less(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

static void start_streams(struct bp_reader *r)
{
	int i;

	r->nheap = 0;
	r->last = -1;
	r->stats.corrupt_pages = 0;
	for (i = 0; i < r->nstreams; i++) {
		struct stream *s = &r->streams[i];

		s->pos = 0;
		s->next_chunk = 0;
		s->zlen = 0;
		load_next_page(r, s);
		if (s->rec)
			r->heap[r->nheap++] = i;
	}
	for (i = r->nheap / 2 - 1; i >= 0; i--)
		sift_down(r, i);
}

/*
 * Opening names the file; reading events does not (callers such as report
 * say "cannot read 'FILE': " before it).
 */
static int shrank_error(const struct bp_reader *r, int opening)
{
	if (opening)
		bp_set_error("cannot read '%s': the recording shrank while being read", r->path);
	else
		bp_set_error("the recording shrank while being read");
	return -1;
}

int bp_reader_next(struct bp_reader *r, struct bp_event *ev)
{
	struct stream *s;
	unsigned id;

	if (!r)
		return -1;
	if (r->last >= 0) {
		/* Only now may the previous event's page be replaced. */
		advance(r, &r->streams[r->last]);
		if (!r->streams[r->last].rec)
			r->heap[0] = r->heap[--r->nheap];
		r->last = -1;
		if (r->nheap)
			sift_down(r, 0);
	}
	if (r->shrank)
		return shrank_error(r, 0);
	if (!r->nheap)
		return 0;
	r->last = r->heap[0];
	s = &r->streams[r->last];
	ev->ts = s->ts;
	ev->cpu = s->cpu;
	ev->data = s->rec;
	ev->size = s->rec_size;
	id = event_id(r, s->rec);
	ev->id = (int)id;
	ev->format = id < (unsigned)r->nids ? r->by_id[id] : NULL;
	r->stats.events++;
	return 1;
}

int bp_reader_page_losses(struct bp_reader *r, uint64_t *events, uint64_t *pages)
{
	const int hdr = r->long_size == 4 ? 12 : 16;
	int i;

	*events = *pages = 0;
	r->scanning = 1;
	for (i = 0; i < r->nstreams && !r->shrank; i++) {
		struct stream *s = &r->streams[i];
		const uint8_t *raw;

		s->pos = 0;
		s->next_chunk = 0;
		s->zlen = 0;
		while ((raw = next_raw_page(r, s))) {
			int missed;

			/* As load_next_page() counts them: pages kbuffer loads. */
			if (bp_guard_copy(s->page, raw, s->page_size)) {
				r->shrank = 1;
				break;
			}
			if ((swap_num(r, s->page + 8, r->long_size == 4 ? 4 : 8) &
			     ((1U << 27) - 1)) > (uint64_t)(s->page_size - hdr) ||
			    kbuffer_load_subbuffer(s->kbuf, s->page) < 0)
				continue;
			missed = kbuffer_missed_events(s->kbuf);
			if (missed > 0)
				*events += (uint64_t)missed;
			else if (missed < 0)
				(*pages)++;
		}
	}
	r->scanning = 0;
	/* Back to the first event; the pages counted above were not read. */
	return bp_reader_rewind(r);
}

int bp_reader_rewind(struct bp_reader *r)
{
	if (!r)
		return -1;
	r->stats.events = 0;
	r->stats.pages = 0;
	r->stats.missed_events = 0;
	r->stats.missed_pages = 0;
	start_streams(r);
	return r->shrank ? shrank_error(r, 0) : 0;
}

/* ---- setting up ---- */

static void setup_tep_geometry(struct bp_reader *r, struct tep_handle *tep)
{
	const int host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	tep_set_file_bigendian(tep, (host_big ^ r->swap) ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, r->long_size);
	tep_set_page_size(tep, r->page_size);
}

static int init_tep(struct bp_reader *r)
{
	r->tep = tep_alloc();
	if (!r->tep) {
		bp_set_error("out of memory");
		return -1;
	}
	setup_tep_geometry(r, r->tep);
	return 0;
}

/* Bytes an event of this format spans at least: the end of its last fixed field. */
static int format_need(const struct tep_event *e)
{
	const struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };
	const struct tep_format_field *f;
	long need = 0;
	int i;

	for (i = 0; i < 2; i++) {
		for (f = lists[i]; f; f = f->next) {
			/* An absurd field makes every event of the format corrupt. */
			if (f->offset < 0 || f->size < 0 || f->offset > 65535 || f->size > 65535)
				return 1 << 30;
			if ((long)f->offset + f->size > need)
				need = (long)f->offset + f->size;
		}
	}
	return (int)need;
}

/* Index formats by id, find common_type, allocate the per-stream parsers. */
static int finish_setup(struct bp_reader *r)
{
	int i, n = tep_get_events_count(r->tep);

	r->type_offset = 0;
	r->type_size = 2;
	r->nids = 0;
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(r->tep, i);

		if (e && e->id >= r->nids && e->id < 65536)
			r->nids = e->id + 1;
	}
	r->by_id = xcalloc(r->nids ? r->nids : 1, sizeof(*r->by_id));
	r->need = xcalloc(r->nids ? r->nids : 1, sizeof(*r->need));
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(r->tep, i);
		struct tep_format_field *f;

		if (!e || e->id < 0 || e->id >= r->nids)
			continue;
		r->by_id[e->id] = e;
		r->need[e->id] = format_need(e);
		f = tep_find_common_field(e, "common_type");
		if (f && (f->size == 1 || f->size == 2 || f->size == 4) && f->offset >= 0 &&
		    f->offset + f->size <= 64) {
			r->type_offset = f->offset;
			r->type_size = f->size;
		}
	}
	if (r->ncpus <= 0) {
		for (i = 0; i < r->nstreams; i++) {
			if (r->streams[i].cpu >= r->ncpus)
				r->ncpus = r->streams[i].cpu + 1;
		}
	}
	tep_set_cpus(r->tep, r->ncpus);
	for (i = 0; i < r->nstreams; i++) {
		struct stream *s = &r->streams[i];

		s->kbuf = kbuffer_alloc(r->long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
					tep_is_file_bigendian(r->tep) ? KBUFFER_ENDIAN_BIG
								      : KBUFFER_ENDIAN_LITTLE);
		if (!s->kbuf) {
			bp_set_error("out of memory");
			return -1;
		}
		if (tep_is_old_format(r->tep))
			kbuffer_set_old_format(s->kbuf);
		s->page = xcalloc(1, (size_t)s->page_size + PAGE_PAD);
	}
	r->heap = xcalloc(r->nstreams ? r->nstreams : 1, sizeof(*r->heap));
	start_streams(r);
	return r->shrank ? shrank_error(r, 1) : 0;
}

/* Fill what bootprof's metadata would say from trace-cmd's options. */
static void meta_from_options(struct bp_reader *r)
{
	struct bp_meta *m = &r->meta;

	if (r->opt_uname && !m->hostname) {
		/* "sysname nodename release machine" */
		char *copy = xstrdup(r->opt_uname), *save = NULL;
		char *sysname = strtok_r(copy, " ", &save);
		char *node = sysname ? strtok_r(NULL, " ", &save) : NULL;
		char *release = node ? strtok_r(NULL, " ", &save) : NULL;
		char *machine = release ? strtok_r(NULL, " ", &save) : NULL;

		if (node)
			m->hostname = xstrdup(node);
		if (release && !m->kernel_release)
			m->kernel_release = xstrdup(release);
		if (machine && !m->machine)
			m->machine = xstrdup(machine);
		free(copy);
	}
	if (r->opt_clock && !m->clock)
		m->clock = xstrdup(r->opt_clock);
	if (!m->ncpus)
		m->ncpus = r->ncpus;
	if (!m->cpu_stats && m->ncpus == r->ncpus) {
		size_t i;

		for (i = 0; i < r->nopt_cpustats; i++)
			parse_cpustat(r, r->opt_cpustats[i]);
	}
	if (!m->ncpus)
		m->ncpus = r->ncpus;
	if (!m->page_size)
		m->page_size = r->page_size;
}

/*
 * An unfinished recording's metadata names its spool: a line "spool XXXXXX"
 * (mkdtemp's suffix, letters and digits) before "end" (see writer.c), and,
 * when the writer knew why it could not finish, "spool_why WORD".
 */
static void find_spool(struct bp_reader *r, const uint8_t *p, uint64_t n)
{
	static const char key[] = "\nspool ";
	static const struct {
		const char *line, *why;
	} whys[] = {
		{ "\nspool_why disk-full\n", "the disk was full" },
		{ "\nspool_why quota\n", "the disk quota was exceeded" },
	};
	const uint8_t *k = memmem(p, n, key, sizeof(key) - 1);
	size_t i;

	for (i = 0; i < sizeof(whys) / sizeof(whys[0]); i++) {
		if (memmem(p, n, whys[i].line, strlen(whys[i].line)))
			r->spool_why = whys[i].why;
	}

	if (!k || (uint64_t)(k - p) + sizeof(key) - 1 + 7 > n)
		return;
	k += sizeof(key) - 1;
	for (i = 0; i < 6; i++) {
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' && k[i] <= 'Z') ||
		      (k[i] >= '0' && k[i] <= '9')))
			return;
	}
	if (k[6] != '\n')
		return;
	memcpy(r->spool, k, 6);
	r->spool[6] = 0;
}

/* bootprof's metadata in the gap after the v6 CPU table (see writer.c). */
static int parse_bootprof_meta(struct bp_reader *r, struct cur *c)
{
	uint64_t n;
	const uint8_t *p;
	struct bp_meta m;
	size_t i;

	if (cur_expect(c, BP_META_MAGIC, sizeof(BP_META_MAGIC)))
		return 0;
	/* It lies between the CPU table and the first page of data. */
	n = cur_u64(c);
	p = cur_take(c, n);
	for (i = 0; p && i < (size_t)r->nstreams; i++) {
		if (r->streams[i].base && r->streams[i].base < p + n)
			p = NULL;
	}
	if (!p) {
		bp_set_error("'%s' is corrupt: its bootprof metadata (%llu bytes) runs past "
			     "its place", r->path, (unsigned long long)n);
		return -1;
	}
	if (bp_meta_parse(&m, (const char *)p, n)) {
		/* The cause is in the buffer bp_set_error() writes: copy it first. */
		char *why = xstrdup(bp_last_error());

		bp_set_error("'%s' is corrupt: %s", r->path, why);
		free(why);
		return -1;
	}
	if ((m.ncpus && m.ncpus != r->ncpus) || (m.page_size && m.page_size != r->page_size)) {
		bp_set_error("'%s' is corrupt: its metadata says %d CPUs and %d-byte pages, "
			     "its data %d and %d", r->path, m.ncpus, m.page_size, r->ncpus,
			     r->page_size);
		bp_meta_release(&m);
		return -1;
	}
	find_spool(r, p, n);
	/* trace-cmd's options fill only what this leaves empty (meta_from_options). */
	bp_meta_release(&r->meta);
	r->meta = m;
	return 0;
}

/* CPU cpu's spooled pages in fd, whole pages only, as a stream. */
static int map_spool_cpu(struct bp_reader *r, int cpu, int fd)
{
	struct stat st;
	struct stream *s;
	uint64_t len;

	if (fstat(fd, &st) < 0) {
		bp_set_error_errno("cannot read the spooled data of CPU %d", cpu);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		bp_set_error("cannot read the spooled data of CPU %d: not a regular file", cpu);
		return -1;
	}
	len = (uint64_t)st.st_size / r->page_size * r->page_size;
	if (!len)
		return 0;
	r->maps[cpu] = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (r->maps[cpu] == MAP_FAILED) {
		r->maps[cpu] = NULL;
		bp_set_error_errno("cannot map the spooled data of CPU %d", cpu);
		return -1;
	}
	r->map_lens[cpu] = len;
	s = new_stream(r, cpu, r->page_size);
	if (!s)
		return -1;
	s->base = r->maps[cpu];
	s->avail = len;
	return 0;
}

/*
 * An unfinished recording (its recorder was killed): the pages are in the
 * spool directory beside it, ".NAME.spool-XXXXXX" (any NAME: the file may
 * have been renamed), one file per CPU.
 */
static int open_spool(struct bp_reader *r)
{
	const char *slash = strrchr(r->path, '/');
	char *dir = slash ? xstrndup(r->path, (size_t)(slash - r->path + 1)) : xstrdup(".");
	char *tail = xasprintf(".spool-%s", r->spool), *found = NULL;
	size_t tail_len = strlen(tail);
	struct dirent *d;
	struct stat st;
	DIR *dp;
	int cpu, dfd = -1, ret = -1;

	if (r->nstreams) {
		bp_set_error("'%s' is corrupt: an unfinished recording with data", r->path);
		goto out;
	}
	dp = opendir(dir);
	while (dp && (d = readdir(dp))) {
		size_t n = strlen(d->d_name);

		if (n > tail_len && d->d_name[0] == '.' &&
		    !strcmp(d->d_name + n - tail_len, tail)) {
			found = xstrdup(d->d_name);
			break;
		}
	}
	if (dp) {
		if (found)
			dfd = openat(dirfd(dp), found, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		closedir(dp);
	}
	if (dfd < 0) {
		if (r->spool_why)
			bp_set_error("'%s' could not be finished (%s) and its spool '.*%s' is gone",
				     r->path, r->spool_why, tail);
		else
			bp_set_error("'%s' was not finished (recorder killed?) and its spool "
				     "'.*%s' is gone", r->path, tail);
		goto out;
	}
	r->maps = xcalloc(r->ncpus, sizeof(*r->maps));
	r->map_lens = xcalloc(r->ncpus, sizeof(*r->map_lens));
	r->nmaps = r->ncpus;
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		char name[32];
		int fd;

		snprintf(name, sizeof(name), "cpu%d", cpu);
		/* O_NONBLOCK: a FIFO planted in the spool must not block the open. */
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;
			bp_set_error_errno("cannot read the spool of '%s': '%s/%s'", r->path,
					   found, name);
			goto out;
		}
		if (fstat(fd, &st) < 0) {
			bp_set_error_errno("cannot read the spool of '%s': '%s/%s'", r->path,
					   found, name);
			close(fd);
			goto out;
		}
		if (!S_ISREG(st.st_mode)) {
			bp_set_error("cannot read the spool of '%s': '%s/%s' is not a regular file",
				     r->path, found, name);
			close(fd);
			goto out;
		}
		ret = map_spool_cpu(r, cpu, fd);
		close(fd);
		if (ret)
			goto out;
		ret = -1;
	}
	/* Killed, its last pages may be lost; stopped by a full disk, the spool is whole. */
	r->stats.truncated = !r->spool_why;
	if (r->spool_why)
		add_warning(r, "recording could not be finished (%s): every page recorded is "
			    "read from its spool", r->spool_why);
	else
		add_warning(r, "recording was not finished (recorder killed?): read from its spool");
	ret = 0;
out:
	if (dfd >= 0)
		close(dfd);
	free(found);
	free(tail);
	free(dir);
	return ret;
}

static int not_a_recording(const char *path)
{
	bp_set_error("'%s' is not a trace.dat recording", path);
	return -1;
}

static int truncated_headers(const char *path)
{
	bp_set_error("'%s' is cut short or corrupt in its headers", path);
	return -1;
}

static int parse_v6(struct bp_reader *r, struct cur *c)
{
	int ret;
	uint32_t cpus;
	uint64_t next;
	const uint8_t *kind;

	if (parse_header_info(r, c) || parse_ftrace_formats(r, c) || parse_event_formats(r, c) ||
	    parse_kallsyms(r, c) || parse_printk(r, c) || parse_cmdlines(r, c))
		return truncated_headers(r->path);
	cpus = cur_u32(c);
	if (c->err)
		return truncated_headers(r->path);
	if (!cpus || cpus > BP_MAX_CPUS) {
		bp_set_error("'%s' declares %u CPUs", r->path, cpus);
		return -1;
	}
	r->ncpus = (int)cpus;
	for (;;) {
		kind = cur_take(c, 10);
		if (!kind)
			return truncated_headers(r->path);
		if (!memcmp(kind, "options  ", 10)) {
			if (parse_options(r, c, &next, 1))
				return truncated_headers(r->path);
			continue;
		}
		if (!memcmp(kind, "latency  ", 10)) {
			add_warning(r, "latency-tracer recording: no events to read");
			return 0;
		}
		if (!memcmp(kind, "flyrecord", 10))
			break;
		return truncated_headers(r->path);
	}
	ret = parse_cpu_table(r, c);
	if (ret)
		return ret == -2 ? -1 : truncated_headers(r->path);
	if (parse_bootprof_meta(r, c))
		return -1;
	if (r->spool[0])
		return open_spool(r);
	return 0;
}

/*
 * A v7 section at off: its payload (decompressed if flagged) in *c.
 * Decompressed payloads are owned by the reader.
 */
static int open_section(struct bp_reader *r, uint64_t off, uint16_t want, struct cur *c)
{
	struct cur h;
	uint16_t id, flags;
	uint64_t size;
	const uint8_t *p;

	cur_init(&h, r->map, r->size, off, r->swap);
	id = cur_u16(&h);
	flags = cur_u16(&h);
	cur_u32(&h);
	size = cur_u64(&h);
	if (h.err || id != want)
		return -1;
	if (!(flags & 1)) {
		/* The size of an uncompressed section is not always filled in. */
		cur_init(c, r->map, r->size, h.pos, r->swap);
		return 0;
	}
	{
		uint32_t zsize = cur_u32(&h), usize = cur_u32(&h);
		void *buf;
		size_t got;

		(void)size;
		p = cur_take(&h, zsize);
		if (!p || usize > MAX_SECTION || !r->compressed)
			return -1;
		if (!r->zctx)
			r->zctx = ZSTD_createDCtx();
		buf = xmalloc(usize ? usize : 1);
		got = ZSTD_decompressDCtx(r->zctx, buf, usize, p, zsize);
		if (ZSTD_isError(got) || got != usize) {
			free(buf);
			return -1;
		}
		r->owned = xrealloc(r->owned, (r->nowned + 1) * sizeof(*r->owned));
		r->owned[r->nowned++] = buf;
		cur_init(c, buf, usize, 0, r->swap);
	}
	return 0;
}

struct v7_sections {
	uint64_t off[BP_OPT_MODULES_FILE + 1];
};

/* Walk the chain of options sections, collecting section offsets. */
static int parse_v7_options(struct bp_reader *r, uint64_t first, struct v7_sections *sec)
{
	uint64_t off = first, next;
	int n;

	for (n = 0; off && n < MAX_OPTION_SECTIONS; n++) {
		struct cur c, scan;

		if (open_section(r, off, BP_OPT_DONE, &c))
			return -1;
		/* Section offsets: pre-scan for ids 16..21 (8-byte offsets). */
		scan = c;
		for (;;) {
			uint16_t id = cur_u16(&scan);
			uint32_t len = cur_u32(&scan);
			const uint8_t *p = cur_take(&scan, len);

			if (!p || id == BP_OPT_DONE)
				break;
			if (id >= BP_OPT_HEADER_INFO && id <= BP_OPT_CMDLINES && len >= 8)
				sec->off[id] = swap_num(r, p, 8);
		}
		if (parse_options(r, &c, &next, 1))
			return -1;
		off = next;
	}
	return 0;
}

static int parse_v7(struct bp_reader *r, struct cur *c)
{
	const char *zname, *zver;
	struct v7_sections sec = { { 0 } };
	uint64_t first;
	struct cur s;

	zname = cur_str(c);
	zver = cur_str(c);
	first = cur_u64(c);
	if (c->err)
		return truncated_headers(r->path);
	(void)zver;
	if (!strcmp(zname, "zstd")) {
		r->compressed = 1;
	} else if (strcmp(zname, "none") && *zname) {
		bp_set_error("'%s' is compressed with '%s', which bootprof cannot read", r->path,
			     zname);
		return -1;
	}
	if (parse_v7_options(r, first, &sec))
		return truncated_headers(r->path);
	if (!sec.off[BP_OPT_HEADER_INFO] ||
	    open_section(r, sec.off[BP_OPT_HEADER_INFO], BP_OPT_HEADER_INFO, &s) ||
	    parse_header_info(r, &s))
		return truncated_headers(r->path);
	if (sec.off[BP_OPT_FTRACE_EVENTS] &&
	    (open_section(r, sec.off[BP_OPT_FTRACE_EVENTS], BP_OPT_FTRACE_EVENTS, &s) ||
	     parse_ftrace_formats(r, &s)))
		return truncated_headers(r->path);
	if (sec.off[BP_OPT_EVENT_FORMATS] &&
	    (open_section(r, sec.off[BP_OPT_EVENT_FORMATS], BP_OPT_EVENT_FORMATS, &s) ||
	     parse_event_formats(r, &s)))
		return truncated_headers(r->path);
	if (sec.off[BP_OPT_KALLSYMS] &&
	    (open_section(r, sec.off[BP_OPT_KALLSYMS], BP_OPT_KALLSYMS, &s) ||
	     parse_kallsyms(r, &s)))
		add_warning(r, "cannot read the kernel symbols");
	if (sec.off[BP_OPT_PRINTK] &&
	    (open_section(r, sec.off[BP_OPT_PRINTK], BP_OPT_PRINTK, &s) || parse_printk(r, &s)))
		add_warning(r, "cannot read the printk formats");
	if (sec.off[BP_OPT_CMDLINES] &&
	    (open_section(r, sec.off[BP_OPT_CMDLINES], BP_OPT_CMDLINES, &s) ||
	     parse_cmdlines(r, &s)))
		add_warning(r, "cannot read the process names");
	return 0;
}

static struct bp_reader *reader_alloc(const char *path)
{
	struct bp_reader *r = xcalloc(1, sizeof(*r));

	r->path = xstrdup(path);
	r->last = -1;
	bp_meta_init(&r->meta);
	return r;
}

static int parse_file(struct bp_reader *r)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cur c;
	const char *ver;
	char *end;
	long v;
	uint8_t endian, lsize;
	uint32_t psize;

	cur_init(&c, r->map, r->size, 0, 0);
	if (cur_expect(&c, magic, sizeof(magic)))
		return not_a_recording(r->path);
	ver = cur_str(&c);
	if (!ver || !*ver || strlen(ver) > 8)
		return not_a_recording(r->path);
	v = strtol(ver, &end, 10);
	if (*end)
		return not_a_recording(r->path);
	if (v != 6 && v != 7) {
		bp_set_error("unsupported trace.dat version %s", ver);
		return -1;
	}
	r->version = (int)v;
	endian = (uint8_t)cur_num(&c, 1);
	lsize = (uint8_t)cur_num(&c, 1);
	if (c.err)
		return truncated_headers(r->path);
	if (endian > 1 || (lsize != 4 && lsize != 8))
		return not_a_recording(r->path);
	r->swap = endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	c.swap = r->swap;
	r->long_size = lsize;
	psize = cur_u32(&c);
	if (c.err)
		return truncated_headers(r->path);
	if (psize < BP_MIN_PAGE || psize > BP_MAX_PAGE || (psize & (psize - 1))) {
		bp_set_error("'%s' has an unsupported page size %u", r->path, psize);
		return -1;
	}
	r->page_size = (int)psize;
	if (init_tep(r))
		return -1;
	if (r->version == 6 ? parse_v6(r, &c) : parse_v7(r, &c))
		return -1;
	if (load_tep(r, 1))
		return -1;
	meta_from_options(r);
	warn_truncated(r);
	return finish_setup(r);
}

static int parse_file_cb(void *r)
{
	return parse_file(r);
}

struct bp_reader *bp_reader_open(const char *path)
{
	struct bp_reader *r;
	struct stat st;
	int fd, ret;

	/*
	 * Refuse anything but a regular file before opening it (opening a
	 * FIFO blocks until a writer comes; a device may act on open), and
	 * open without blocking in case it was swapped meanwhile: fstat()
	 * below decides.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		bp_set_error("cannot open '%s': not a regular file", path);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		bp_set_error("cannot open '%s': not a regular file", path);
		close(fd);
		return NULL;
	}
	r = reader_alloc(path);
	r->size = (uint64_t)st.st_size;
	if (r->size) {
		void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			bp_set_error_errno("cannot map '%s'", path);
			close(fd);
			bp_reader_free(r);
			return NULL;
		}
		r->map = m;
		madvise(m, r->size, MADV_SEQUENTIAL);
	}
	close(fd);
	/* Every read of the headers is of the mapping, which a cut file faults. */
	if (bp_guard_run(r->map, r->size, parse_file_cb, r, &ret)) {
		shrank_error(r, 1);
		ret = -1;
	}
	if (ret) {
		bp_reader_free(r);
		return NULL;
	}
	return r;
}

struct bp_reader *bp_reader_new_spool(const struct bp_trace_headers *h, int ncpus,
				      int page_size, const int *fds)
{
	struct bp_reader *r;
	size_t i;
	int cpu;

	if (!h || !h->header_page || ncpus <= 0 || ncpus > BP_MAX_CPUS ||
	    page_size < BP_MIN_PAGE || page_size > BP_MAX_PAGE) {
		bp_set_error("cannot read the spooled recording: no headers");
		return NULL;
	}
	r = reader_alloc("(spool)");
	r->version = 6;
	r->long_size = sizeof(long);
	r->page_size = page_size;
	r->ncpus = ncpus;
	if (init_tep(r))
		goto out_free;
	r->texts.header_page = nul_copy((const uint8_t *)h->header_page, h->header_page_len);
	r->texts.header_page_len = h->header_page_len;
	for (i = 0; i < h->nformats; i++)
		parse_one_format(r, h->formats[i].system, (const uint8_t *)h->formats[i].text,
				 h->formats[i].len);
	/* The recorder's own texts from tracefs: trusted, parsed without a probe. */
	if (load_tep(r, 0))
		goto out_free;
	if (h->cmdlines) {
		struct cur c;
		uint8_t *buf = xmalloc(8 + h->cmdlines_len);
		uint64_t n = h->cmdlines_len;

		memcpy(buf, &n, 8);
		memcpy(buf + 8, h->cmdlines, h->cmdlines_len);
		cur_init(&c, buf, 8 + n, 0, 0);
		parse_cmdlines(r, &c);
		free(buf);
	}
	r->maps = xcalloc(ncpus, sizeof(*r->maps));
	r->map_lens = xcalloc(ncpus, sizeof(*r->map_lens));
	r->nmaps = ncpus;
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (map_spool_cpu(r, cpu, fds[cpu]))
			goto out_free;
	}
	r->meta.ncpus = ncpus;
	r->meta.page_size = page_size;
	if (finish_setup(r))
		goto out_free;
	return r;

out_free:
	bp_reader_free(r);
	return NULL;
}

void bp_reader_free(struct bp_reader *r)
{
	int i;
	size_t k;

	if (!r)
		return;
	for (i = 0; i < r->nstreams; i++) {
		if (r->streams[i].kbuf)
			kbuffer_free(r->streams[i].kbuf);
		free(r->streams[i].page);
		free(r->streams[i].chunks);
		free(r->streams[i].zbuf);
	}
	free(r->streams);
	free(r->heap);
	for (i = 0; i < r->nmaps; i++) {
		if (r->maps[i])
			munmap(r->maps[i], r->map_lens[i]);
	}
	free(r->maps);
	free(r->map_lens);
	if (r->map)
		munmap((void *)r->map, r->size);
	if (r->zctx)
		ZSTD_freeDCtx(r->zctx);
	if (r->tep)
		tep_free(r->tep);
	free(r->by_id);
	free(r->need);
	bp_meta_release(&r->meta);
	bp_trace_headers_release(&r->texts);
	for (k = 0; k < r->nowned; k++)
		free(r->owned[k]);
	free(r->owned);
	free(r->opt_uname);
	free(r->opt_clock);
	for (k = 0; k < r->nopt_cpustats; k++)
		free(r->opt_cpustats[k]);
	free(r->opt_cpustats);
	free(r->warnings);
	free(r->path);
	free(r);
}

struct tep_handle *bp_reader_tep(struct bp_reader *r)
{
	return r ? r->tep : NULL;
}

const struct bp_meta *bp_reader_meta(struct bp_reader *r)
{
	return r ? &r->meta : NULL;
}

const struct bp_read_stats *bp_reader_stats(struct bp_reader *r)
{
	return r ? &r->stats : NULL;
}

int bp_reader_version(struct bp_reader *r)
{
	return r ? r->version : 0;
}

const char *bp_reader_warnings(struct bp_reader *r)
{
	if (!r)
		return NULL;
	if (r->corrupt_pages) {
		/* Reported once, when asked, so that reading stays cheap. */
		add_warning(r, "%llu corrupt ring-buffer pages skipped",
			    (unsigned long long)r->corrupt_pages);
		r->corrupt_pages = 0;
	}
	return r->warnings;
}

/* ---- for rewriting recordings ---- */

static char *dup_text(const char *s, size_t n)
{
	return s ? nul_copy((const uint8_t *)s, n) : NULL;
}

int bp_reader_headers(struct bp_reader *r, struct bp_trace_headers *h)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->header_page = dup_text(r->texts.header_page, r->texts.header_page_len);
	h->header_page_len = r->texts.header_page_len;
	h->header_event = dup_text(r->texts.header_event, r->texts.header_event_len);
	h->header_event_len = r->texts.header_event_len;
	h->kallsyms = dup_text(r->texts.kallsyms, r->texts.kallsyms_len);
	h->kallsyms_len = r->texts.kallsyms_len;
	h->printk = dup_text(r->texts.printk, r->texts.printk_len);
	h->printk_len = r->texts.printk_len;
	h->cmdlines = dup_text(r->texts.cmdlines, r->texts.cmdlines_len);
	h->cmdlines_len = r->texts.cmdlines_len;
	h->formats = xcalloc(r->texts.nformats ? r->texts.nformats : 1, sizeof(*h->formats));
	for (i = 0; i < r->texts.nformats; i++) {
		h->formats[i].system = xstrdup(r->texts.formats[i].system);
		h->formats[i].text = dup_text(r->texts.formats[i].text, r->texts.formats[i].len);
		h->formats[i].len = r->texts.formats[i].len;
	}
	h->nformats = r->texts.nformats;
	return 0;
}

int bp_reader_ncpus(struct bp_reader *r)
{
	return r->ncpus;
}

int bp_reader_page_size(struct bp_reader *r)
{
	return r->page_size;
}

const void *bp_reader_cpu_pages(struct bp_reader *r, int cpu, uint64_t *size)
{
	int i;

	for (i = 0; i < r->nstreams; i++) {
		if (r->streams[i].cpu == cpu && !r->streams[i].chunks) {
			*size = r->streams[i].avail;
			return r->streams[i].base;
		}
	}
	*size = 0;
	return NULL;
}

/*
 * libtraceevent 1.7.1 leaks a few bytes per event format whose print format
 * concatenates string literals (kvm's __print_symbolic(..., { 0, "#" "DE" })),
 * and trace-cmd stores every format of the machine. Only LeakSanitizer
 * builds call this hook; it keeps those leaks out of the test reports.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* ... and keeps them quiet: stderr is part of what tests compare. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
