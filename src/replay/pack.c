// SPDX-License-Identifier: GPL-2.0
/*
 * The readahead pack's text format (bootprof-pack(5)): writing, and
 * parsing it back as untrusted input.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/pack.h"
#include "util/error.h"
#include "util/map.h"
#include "util/xalloc.h"

static const char *const count_names[BP_PACK_NCOUNTS] = {
	[BP_PACK_NEVER_USED] = "never-used",
	[BP_PACK_WRITTEN] = "written",
	[BP_PACK_REPLACED] = "replaced",
	[BP_PACK_GONE] = "gone",
	[BP_PACK_NONBLOCK] = "not-storage",
	[BP_PACK_RECORDING] = "recording",
	[BP_PACK_VAR_LOG] = "var-log",
	[BP_PACK_UNRESOLVED] = "unresolved",
	[BP_PACK_METADATA] = "metadata",
	[BP_PACK_OVER_CAP] = "over-cap",
	[BP_PACK_GAP] = "gap",
	[BP_PACK_UNCERTAIN] = "uncertain",
};

const char *bp_pack_count_name(enum bp_pack_count c)
{
	return (unsigned)c < BP_PACK_NCOUNTS ? count_names[c] : "?";
}

struct bp_pack *bp_pack_new(void)
{
	struct bp_pack *p = xcalloc(1, sizeof(*p));
	long ps = sysconf(_SC_PAGESIZE);

	p->page_size = ps > 0 ? (unsigned)ps : 4096;
	return p;
}

void bp_pack_free(struct bp_pack *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nfiles; i++) {
		free(p->files[i].ranges);
		free(p->files[i].path);
	}
	for (i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->files);
	free(p->crit.what);
	free(p->crit.to);
	free(p->crit.files);
	free(p->source);
	free(p);
}

struct bp_pack_file *bp_pack_add(struct bp_pack *p)
{
	struct bp_pack_file *f;

	BP_GROW(p->files, p->nfiles, p->cfiles);
	f = &p->files[p->nfiles++];
	memset(f, 0, sizeof(*f));
	return f;
}

struct bp_pack_whatif *bp_pack_add_whatif(struct bp_pack *p)
{
	struct bp_pack_whatif *w;

	p->crit.files = xrealloc(p->crit.files, (p->crit.nfiles + 1) * sizeof(*p->crit.files));
	w = &p->crit.files[p->crit.nfiles++];
	memset(w, 0, sizeof(*w));
	return w;
}

const struct bp_pack_whatif *bp_pack_whatif_of(const struct bp_pack *p, unsigned major,
					       unsigned minor, uint64_t ino)
{
	size_t i;

	for (i = 0; i < p->crit.nfiles; i++) {
		const struct bp_pack_whatif *w = &p->crit.files[i];

		if (w->major == major && w->minor == minor && w->ino == ino)
			return w;
	}
	return NULL;
}

size_t bp_pack_distinct_files(const struct bp_pack *p)
{
	struct bp_map seen;
	size_t i, n;

	if (!p->crit.set)
		return p->nfiles;  /* one entry a file */
	bp_map_init(&seen);
	for (i = 0; i < p->nfiles; i++)
		bp_map_put(&seen, p->files[i].ino,
			   (uint64_t)p->files[i].major << 32 | p->files[i].minor, NULL);
	n = seen.count;
	bp_map_release(&seen);
	return n;
}

void bp_pack_note(struct bp_pack *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	char *nl;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	while ((nl = strchr(buf, '\n')))
		*nl = ' ';
	p->notes = xrealloc(p->notes, (p->nnotes + 1) * sizeof(*p->notes));
	p->notes[p->nnotes++] = xstrdup(buf);
}

uint64_t bp_pack_file_bytes(const struct bp_pack *p, const struct bp_pack_file *f)
{
	uint64_t sum = 0, a, b;
	size_t i;

	for (i = 0; i < f->nranges; i++) {
		a = f->ranges[i].start * p->page_size;
		b = a + f->ranges[i].count * p->page_size;
		if (a >= f->size)
			continue;
		sum += (b > f->size ? f->size : b) - a;
	}
	return sum;
}

/* ---- writing ---- */

static void put_path(FILE *out, const char *s)
{
	const unsigned char *c;

	for (c = (const unsigned char *)s; *c; c++) {
		if (*c <= 0x20 || *c == 0x7f || *c == '\\')
			fprintf(out, "\\%03o", *c);
		else
			fputc(*c, out);
	}
}

static void put_ns(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

int bp_pack_write(const struct bp_pack *p, FILE *out)
{
	size_t i, j;

	fprintf(out, "bootprof-pack %d\n", BP_PACK_VERSION);
	fprintf(out, "page-size %u\n", p->page_size);
	fprintf(out, "order %s\n", p->disk_order ? "disk" : "first-use");
	fprintf(out, "pages %s\n", p->inserted_only ? "inserted" : "used");
	if (p->source) {
		fputs("source ", out);
		put_path(out, p->source);
		fputc('\n', out);
	}
	fputs("window ", out);
	put_ns(out, p->since_ns);
	fputc(' ', out);
	put_ns(out, p->until_ns);
	fputc('\n', out);
	for (i = 0; i < BP_PACK_NCOUNTS; i++)
		fprintf(out, "count %s %" PRIu64 " %" PRIu64 "\n", count_names[i],
			p->counts[i].files, p->counts[i].bytes);
	for (i = 0; i < p->nnotes; i++)
		fprintf(out, "note %s\n", p->notes[i]);
	if (p->crit.set) {
		fprintf(out, "critical %zu ", p->crit.entries);
		put_ns(out, p->crit.end_ns);
		fputc(' ', out);
		put_ns(out, p->crit.len_ns);
		fprintf(out, " %s %d ", p->crit.what, p->crit.pid);
		put_path(out, p->crit.to);
		fputc('\n', out);
	}
	for (i = 0; i < p->crit.nfiles; i++) {
		const struct bp_pack_whatif *w = &p->crit.files[i];

		fprintf(out, "what-if %u:%u %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", w->major,
			w->minor, w->ino, w->io_ns, w->segments);
	}
	for (i = 0; i < p->nfiles; i++) {
		const struct bp_pack_file *f = &p->files[i];

		fprintf(out, "file %u:%u %" PRIu64 " %" PRIu64 " %" PRId64 ".%09ld %" PRId64 ".%09ld ",
			f->major, f->minor, f->ino, f->size, f->mtime_sec, f->mtime_nsec,
			f->ctime_sec, f->ctime_nsec);
		put_ns(out, f->first_ns);
		fprintf(out, " %" PRIu64 " ", f->left_bytes);
		for (j = 0; j < f->nranges; j++)
			fprintf(out, "%s%" PRIu64 "+%" PRIu64, j ? "," : "", f->ranges[j].start,
				f->ranges[j].count);
		fputc(' ', out);
		put_path(out, f->path);
		fputc('\n', out);
	}
	if (fflush(out) || ferror(out)) {
		bp_set_error_errno("cannot write the pack");
		return -1;
	}
	return 0;
}

/* ---- parsing: a cursor over one line ---- */

struct cur {
	const char *p, *end;
	int bad;
};

static int at_end(const struct cur *c)
{
	return c->p >= c->end;
}

/* One space-separated word; sets bad when there is none. */
static void word(struct cur *c, const char **w, size_t *n)
{
	const char *s = c->p;

	while (c->p < c->end && *c->p != ' ')
		c->p++;
	*w = s;
	*n = (size_t)(c->p - s);
	if (!*n)
		c->bad = 1;
	if (c->p < c->end)
		c->p++;
}

static uint64_t num(struct cur *c, char stop)
{
	uint64_t v = 0;
	int digits = 0;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			c->bad = 1;
		v = v * 10 + (uint64_t)(*c->p - '0');
		c->p++;
		digits++;
	}
	if (!digits || digits > 20)
		c->bad = 1;
	if (stop) {
		if (c->p < c->end && *c->p == stop)
			c->p++;
		else if (!(stop == ' ' && at_end(c)))
			c->bad = 1;
	}
	return v;
}

/* SEC.NSEC with exactly 9 digits of ns; the seconds may be negative for times. */
static void timespec_field(struct cur *c, int64_t *sec, long *nsec, int sign_ok)
{
	int neg = 0;
	uint64_t s, ns;
	const char *f;

	if (sign_ok && c->p < c->end && *c->p == '-') {
		neg = 1;
		c->p++;
	}
	s = num(c, '.');
	for (f = c->p; f < c->end && *f >= '0' && *f <= '9'; f++)
		;
	if (f - c->p != 9)
		c->bad = 1;
	ns = num(c, ' ');
	if (s > INT64_MAX || ns >= 1000000000u)
		c->bad = 1;
	*sec = neg ? -(int64_t)s : (int64_t)s;
	*nsec = (long)ns;
}

static uint64_t ns_field(struct cur *c)
{
	int64_t s;
	long ns;

	timespec_field(c, &s, &ns, 0);
	if ((uint64_t)s > UINT64_MAX / 1000000000u - 1)
		c->bad = 1;
	return (uint64_t)s * 1000000000u + (uint64_t)ns;
}

static char *unescape_path(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\') {
			unsigned v;

			if (n - i < 4 || s[i + 1] < '0' || s[i + 1] > '3' || s[i + 2] < '0' ||
			    s[i + 2] > '7' || s[i + 3] < '0' || s[i + 3] > '7')
				goto bad;
			v = (unsigned)(s[i + 1] - '0') * 64 + (unsigned)(s[i + 2] - '0') * 8 +
			    (unsigned)(s[i + 3] - '0');
			if (!v)
				goto bad;
			*o++ = (char)v;
			i += 3;
		} else if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f) {
			goto bad;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

static int parse_file_line(struct bp_pack *p, struct cur *c)
{
	struct bp_pack_file *f;
	uint64_t maj, min, prev_end = 0;
	size_t cap = 0;
	const char *w;
	size_t n;

	if (p->nfiles >= BP_PACK_MAX_FILES) {
		bp_set_error("more than %u files", BP_PACK_MAX_FILES);
		return -1;
	}
	f = bp_pack_add(p);
	maj = num(c, ':');
	min = num(c, ' ');
	if (maj > 0xfff || min > 0xfffff)
		c->bad = 1;
	f->major = (unsigned)maj;
	f->minor = (unsigned)min;
	f->ino = num(c, ' ');
	f->size = num(c, ' ');
	timespec_field(c, &f->mtime_sec, &f->mtime_nsec, 1);
	timespec_field(c, &f->ctime_sec, &f->ctime_nsec, 1);
	f->first_ns = ns_field(c);
	f->left_bytes = num(c, ' ');
	while (!c->bad) {
		struct bp_pack_range r;

		r.start = num(c, '+');
		r.count = num(c, 0);
		if (c->bad)
			break;
		/* In order, not overlapping, no empty range, no overflow. */
		if (!r.count || r.start > UINT64_MAX / 2 || r.count > UINT64_MAX / 2 ||
		    (f->nranges && r.start < prev_end) || f->nranges >= BP_PACK_MAX_RANGES) {
			c->bad = 1;
			break;
		}
		prev_end = r.start + r.count;
		BP_GROW(f->ranges, f->nranges, cap);
		f->ranges[f->nranges++] = r;
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == ' ') {
			c->p++;
			break;
		}
		c->bad = 1;
	}
	if (c->bad || !f->nranges || at_end(c))
		return -1;
	w = c->p;
	n = (size_t)(c->end - c->p);
	f->path = unescape_path(w, n);
	if (!f->path || f->path[0] != '/')
		return -1;
	return 0;
}

static int parse_critical_line(struct bp_pack *p, struct cur *c)
{
	const char *w;
	size_t n;
	uint64_t pid;

	if (p->crit.set)
		return -1;  /* one path per pack */
	p->crit.entries = (size_t)num(c, ' ');
	p->crit.end_ns = ns_field(c);
	p->crit.len_ns = ns_field(c);
	word(c, &w, &n);
	if (c->bad || n > 16)
		return -1;
	p->crit.what = xstrndup(w, n);
	pid = num(c, ' ');
	if (c->bad || !pid || pid > 0x7fffffff || at_end(c))
		return -1;
	p->crit.pid = (int)pid;
	p->crit.to = unescape_path(c->p, (size_t)(c->end - c->p));
	if (!p->crit.to)
		return -1;
	p->crit.set = 1;
	return 0;
}

static int parse_whatif_line(struct bp_pack *p, struct cur *c)
{
	struct bp_pack_whatif w;
	uint64_t maj, min;

	if (p->crit.nfiles >= BP_PACK_MAX_FILES)
		return -1;
	maj = num(c, ':');
	min = num(c, ' ');
	w.ino = num(c, ' ');
	w.io_ns = num(c, ' ');
	w.segments = num(c, ' ');
	if (c->bad || !at_end(c) || maj > 0xfff || min > 0xfffff)
		return -1;
	w.major = (unsigned)maj;
	w.minor = (unsigned)min;
	*bp_pack_add_whatif(p) = w;
	return 0;
}

static int parse_line(struct bp_pack *p, const char *s, size_t n, size_t lineno)
{
	struct cur c = { s, s + n, 0 };
	const char *w, *v;
	size_t wn, vn;
	size_t i;

	if (lineno == 1) {
		word(&c, &w, &wn);
		if (c.bad || wn != 13 || memcmp(w, "bootprof-pack", 13)) {
			bp_set_error("not a bootprof pack (no 'bootprof-pack' version line)");
			return -1;
		}
		if (num(&c, ' ') != BP_PACK_VERSION || c.bad || !at_end(&c)) {
			bp_set_error("unsupported pack version (this bootprof reads version %d)",
				     BP_PACK_VERSION);
			return -1;
		}
		return 0;
	}
	if (!n || s[0] == '#')
		return 0;
	word(&c, &w, &wn);
	if (wn == 4 && !memcmp(w, "file", 4)) {
		if (!parse_file_line(p, &c))
			return 0;
	} else if (wn == 9 && !memcmp(w, "page-size", 9)) {
		uint64_t ps = num(&c, ' ');

		/* A power of two between 512 bytes and 1 MiB. */
		if (!c.bad && at_end(&c) && ps >= 512 && ps <= (1u << 20) && !(ps & (ps - 1))) {
			p->page_size = (unsigned)ps;
			return 0;
		}
	} else if (wn == 5 && !memcmp(w, "order", 5)) {
		word(&c, &v, &vn);
		if (!c.bad && at_end(&c) && vn == 4 && !memcmp(v, "disk", 4)) {
			p->disk_order = 1;
			return 0;
		}
		if (!c.bad && at_end(&c) && vn == 9 && !memcmp(v, "first-use", 9))
			return 0;
	} else if (wn == 5 && !memcmp(w, "pages", 5)) {
		word(&c, &v, &vn);
		if (!c.bad && at_end(&c) && vn == 8 && !memcmp(v, "inserted", 8)) {
			p->inserted_only = 1;
			return 0;
		}
		if (!c.bad && at_end(&c) && vn == 4 && !memcmp(v, "used", 4))
			return 0;
	} else if (wn == 6 && !memcmp(w, "source", 6)) {
		free(p->source);
		p->source = unescape_path(c.p, (size_t)(c.end - c.p));
		if (p->source)
			return 0;
	} else if (wn == 6 && !memcmp(w, "window", 6)) {
		p->since_ns = ns_field(&c);
		p->until_ns = ns_field(&c);
		if (!c.bad && at_end(&c))
			return 0;
	} else if (wn == 5 && !memcmp(w, "count", 5)) {
		uint64_t files, bytes;

		word(&c, &v, &vn);
		files = num(&c, ' ');
		bytes = num(&c, ' ');
		if (!c.bad && at_end(&c)) {
			for (i = 0; i < BP_PACK_NCOUNTS; i++) {
				if (strlen(count_names[i]) == vn && !memcmp(count_names[i], v, vn)) {
					p->counts[i].files = files;
					p->counts[i].bytes = bytes;
				}
			}
			/* Unknown counts are a newer writer's: ignored. */
			return 0;
		}
	} else if (wn == 8 && !memcmp(w, "critical", 8)) {
		if (!parse_critical_line(p, &c))
			return 0;
	} else if (wn == 7 && !memcmp(w, "what-if", 7)) {
		if (!parse_whatif_line(p, &c))
			return 0;
	} else if (wn == 4 && !memcmp(w, "note", 4)) {
		bp_pack_note(p, "%.*s", (int)(c.end - c.p), c.p);
		return 0;
	} else {
		/* Keywords a newer writer may add are ignored; 'file' lines are not. */
		return 0;
	}
	bp_set_error("line %zu: malformed '%.*s' line", lineno, (int)(wn > 16 ? 16 : wn), w);
	return -1;
}

struct bp_pack *bp_pack_parse(const char *buf, size_t len)
{
	struct bp_pack *p;
	size_t lineno = 0;
	const char *s = buf, *end = buf + len, *nl;

	if (len > BP_PACK_MAX_BYTES) {
		bp_set_error("pack too large (%zu bytes, at most %u)", len, BP_PACK_MAX_BYTES);
		return NULL;
	}
	p = bp_pack_new();
	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl) {
			bp_set_error("line %zu: not terminated (truncated pack)", lineno + 1);
			goto bad;
		}
		if (memchr(s, '\0', (size_t)(nl - s))) {
			bp_set_error("line %zu: NUL byte", lineno + 1);
			goto bad;
		}
		if (parse_line(p, s, (size_t)(nl - s), ++lineno))
			goto bad;
		s = nl + 1;
	}
	if (!lineno) {
		bp_set_error("empty pack");
		goto bad;
	}
	if (p->crit.entries > p->nfiles) {
		bp_set_error("'critical' names %zu entries of %zu", p->crit.entries, p->nfiles);
		goto bad;
	}
	return p;
bad:
	bp_pack_free(p);
	return NULL;
}

struct bp_pack *bp_pack_load(const char *path)
{
	struct bp_pack *p = NULL;
	struct stat st;
	char *buf;
	size_t got = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		return NULL;
	}
	if (fstat(fd, &st)) {
		bp_set_error_errno("cannot read '%s'", path);
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		bp_set_error("cannot read '%s': not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size > BP_PACK_MAX_BYTES) {
		bp_set_error("'%s': pack too large (%jd bytes, at most %u)", path,
			     (intmax_t)st.st_size, BP_PACK_MAX_BYTES);
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got <= (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			bp_set_error_errno("cannot read '%s'", path);
			goto out;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	if (got > (size_t)st.st_size) {
		bp_set_error("'%s' grew while being read", path);
		goto out;
	}
	p = bp_pack_parse(buf, got);
	if (!p) {
		char why[256];

		snprintf(why, sizeof(why), "%s", bp_last_error());
		bp_set_error("'%s': %s", path, why);
	}
out:
	free(buf);
	close(fd);
	return p;
}
