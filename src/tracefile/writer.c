// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat writer: version 6 of trace-cmd's format (man 5
 * trace-cmd.dat.v6), little or big endian as the host, so `trace-cmd report`
 * and KernelShark read bootprof recordings.
 *
 * During the run each CPU's raw ring-buffer pages are spliced into a spool
 * file in a hidden directory beside the output (".NAME.spool-XXXXXX"), since
 * the size of each CPU's data is only known at the end. bp_writer_finish()
 * writes the headers and then copies the spooled pages, page-aligned, behind
 * them; the spool is removed at finish or abort.
 *
 * A recorder killed before finishing (kill -9, power cut, OOM) must still
 * leave a readable recording. bp_writer_provisional() writes, at record
 * start, the headers with an empty CPU table and metadata that names the
 * spool ("spool XXXXXX", mkdtemp's suffix); the reader of such a file reads
 * the spooled pages instead. bp_writer_finish() then rewrites the file from
 * offset 0 and cuts it to its final length. When a full disk stops
 * bp_writer_finish(), the file goes back to being the provisional one, with
 * a line "spool_why disk-full" (or "quota") so that readers give the right
 * cause, and the spool is kept.
 *
 * Where bootprof's own metadata lives. trace-cmd 3.1.6 warns "unknown
 * option N" on stderr for any option id it does not know (handle_options()
 * in lib/trace-cmd/trace-input.c), and every known option it parses or keeps
 * for its own purpose (a second UNAME or VERSION would replace the real one).
 * So the metadata is placed where trace-cmd does not look: in the padding
 * between the flyrecord CPU table and the first page-aligned CPU data. The
 * table's offsets are absolute, so trace-cmd skips the gap unread. The blob
 * starts with BP_META_MAGIC and a 64-bit length (file endianness). It sits
 * before the CPU data, so a file cut anywhere in the data keeps it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracefile/internal.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/xalloc.h"

struct bp_writer {
	char *path;
	int out_fd;
	char *spool_dir;
	char **spool_paths;
	int *cpu_fds;
	int ncpus;
	int page_size;
	int finished;
	int provisional;  /* bp_writer_provisional() wrote the file */
	int keep_spool;   /* the file reads its pages from the spool: leave it */
};

/* Open the output; with force, an existing regular file (never a symlink) is replaced. */
static int open_output(const char *path, int force)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	struct stat st;
	int fd;

	fd = open(path, flags, 0600);
	if (fd >= 0 || errno != EEXIST)
		goto out;
	if (!force) {
		bp_set_error("'%s' already exists (use --force to replace it)", path);
		return -1;
	}
	if (lstat(path, &st) < 0)
		goto out;
	if (!S_ISREG(st.st_mode)) {
		bp_set_error("cannot replace '%s': not a regular file%s", path,
			     S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
		return -1;
	}
	if (unlink(path) < 0)
		goto out;
	/* O_EXCL again: if something else appeared meanwhile, fail rather than follow it. */
	fd = open(path, flags, 0600);
out:
	if (fd < 0)
		bp_set_error_errno("cannot create '%s'", path);
	return fd;
}

static void remove_spool(struct bp_writer *w)
{
	int i;

	for (i = 0; i < w->ncpus; i++) {
		if (w->cpu_fds[i] >= 0) {
			close(w->cpu_fds[i]);
			w->cpu_fds[i] = -1;
		}
		if (w->spool_paths[i]) {
			unlink(w->spool_paths[i]);
			free(w->spool_paths[i]);
			w->spool_paths[i] = NULL;
		}
	}
	if (w->spool_dir) {
		rmdir(w->spool_dir);
		free(w->spool_dir);
		w->spool_dir = NULL;
	}
}

static char *spool_template(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xasprintf(".%s.spool-XXXXXX", path);
	return xasprintf("%.*s/.%s.spool-XXXXXX", (int)(slash - path), path, slash + 1);
}

struct bp_writer *bp_writer_create(const char *path, int force, int ncpus, int page_size)
{
	struct bp_writer *w;
	int i;

	if (ncpus <= 0 || ncpus > BP_MAX_CPUS) {
		bp_set_error("cannot record %d CPUs", ncpus);
		return NULL;
	}
	if (page_size < BP_MIN_PAGE || page_size > BP_MAX_PAGE || (page_size & (page_size - 1))) {
		bp_set_error("unsupported ring-buffer page size %d", page_size);
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->path = xstrdup(path);
	w->ncpus = ncpus;
	w->page_size = page_size;
	w->cpu_fds = xcalloc(ncpus, sizeof(*w->cpu_fds));
	w->spool_paths = xcalloc(ncpus, sizeof(*w->spool_paths));
	for (i = 0; i < ncpus; i++)
		w->cpu_fds[i] = -1;
	w->out_fd = open_output(path, force);
	if (w->out_fd < 0)
		goto out_free;
	w->spool_dir = spool_template(path);
	if (!mkdtemp(w->spool_dir)) {
		bp_set_error_errno("cannot create a spool directory beside '%s'", path);
		free(w->spool_dir);
		w->spool_dir = NULL;
		goto out_abort;
	}
	for (i = 0; i < ncpus; i++) {
		w->spool_paths[i] = xasprintf("%s/cpu%d", w->spool_dir, i);
		w->cpu_fds[i] = open(w->spool_paths[i],
				     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (w->cpu_fds[i] < 0) {
			bp_set_error_errno("cannot create '%s'", w->spool_paths[i]);
			goto out_abort;
		}
	}
	return w;

out_abort:
	bp_writer_abort(w);
out_free:
	bp_writer_free(w);
	return NULL;
}

int bp_writer_cpu_fd(struct bp_writer *w, int cpu)
{
	if (!w || cpu < 0 || cpu >= w->ncpus)
		return -1;
	return w->cpu_fds[cpu];
}

void bp_writer_abort(struct bp_writer *w)
{
	if (!w)
		return;
	remove_spool(w);
	if (w->out_fd >= 0) {
		close(w->out_fd);
		w->out_fd = -1;
		unlink(w->path);
	}
}

void bp_writer_free(struct bp_writer *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->ncpus; i++) {
		if (w->cpu_fds[i] >= 0)
			close(w->cpu_fds[i]);
		free(w->spool_paths[i]);
	}
	if (w->out_fd >= 0)
		close(w->out_fd);
	free(w->spool_dir);
	free(w->cpu_fds);
	free(w->spool_paths);
	free(w->path);
	free(w);
}

/* ---- the output stream ---- */

struct out {
	int fd;
	char buf[1 << 16];
	size_t len;
	uint64_t off;  /* file offset of buf[0] */
	int err;       /* first errno */
};

static void out_flush(struct out *o)
{
	size_t done = 0;

	while (!o->err && done < o->len) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 ? errno : ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	o->off += done;
	o->len = 0;
}

static void out_write(struct out *o, const void *p, size_t n)
{
	const char *s = p;

	while (n && !o->err) {
		size_t room = sizeof(o->buf) - o->len;
		size_t k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == sizeof(o->buf))
			out_flush(o);
	}
}

/* Host byte order: the file says which (byte 10 of the header). */
static void out_u16(struct out *o, uint16_t v)
{
	out_write(o, &v, 2);
}

static void out_u32(struct out *o, uint32_t v)
{
	out_write(o, &v, 4);
}

static void out_u64(struct out *o, uint64_t v)
{
	out_write(o, &v, 8);
}

static void out_str(struct out *o, const char *s)
{
	out_write(o, s, strlen(s) + 1);
}

static uint64_t out_pos(const struct out *o)
{
	return o->off + o->len;
}

static void out_blob64(struct out *o, const char *p, size_t len)
{
	out_u64(o, len);
	out_write(o, p, len);
}

static void out_blob32(struct out *o, const char *p, size_t len)
{
	if (len > UINT32_MAX)
		len = 0;
	out_u32(o, (uint32_t)len);
	out_write(o, p, len);
}

static void out_option(struct out *o, uint16_t id, const void *p, size_t len)
{
	out_u16(o, id);
	out_u32(o, (uint32_t)len);
	out_write(o, p, len);
}

/* Formats grouped by system, in order of first appearance, ftrace apart. */
static void write_formats(struct out *o, const struct bp_trace_headers *h)
{
	size_t i, j, nsys = 0;
	uint32_t n = 0;

	for (i = 0; i < h->nformats; i++)
		n += !strcmp(h->formats[i].system, "ftrace");
	out_u32(o, n);
	for (i = 0; i < h->nformats; i++) {
		if (!strcmp(h->formats[i].system, "ftrace"))
			out_blob64(o, h->formats[i].text, h->formats[i].len);
	}
	for (i = 0; i < h->nformats; i++) {
		for (j = 0; j < i && strcmp(h->formats[j].system, h->formats[i].system); j++)
			;
		nsys += j == i && strcmp(h->formats[i].system, "ftrace");
	}
	out_u32(o, (uint32_t)nsys);
	for (i = 0; i < h->nformats; i++) {
		const char *sys = h->formats[i].system;

		for (j = 0; j < i && strcmp(h->formats[j].system, sys); j++)
			;
		if (j < i || !strcmp(sys, "ftrace"))
			continue;
		out_str(o, sys);
		for (n = 0, j = i; j < h->nformats; j++)
			n += !strcmp(h->formats[j].system, sys);
		out_u32(o, n);
		for (j = i; j < h->nformats; j++) {
			if (!strcmp(h->formats[j].system, sys))
				out_blob64(o, h->formats[j].text, h->formats[j].len);
		}
	}
}

/* trace-cmd's own CPUSTAT text: "CPU: N\n" and the lines of per_cpu/cpuN/stats. */
static void write_cpustats(struct out *o, const struct bp_meta *meta, int ncpus)
{
	int cpu;

	if (!meta || !meta->cpu_stats)
		return;
	for (cpu = 0; cpu < ncpus && cpu < meta->ncpus; cpu++) {
		const struct bp_cpu_stat *c = &meta->cpu_stats[cpu];
		char *s = xasprintf("CPU: %d\nentries: %llu\noverrun: %llu\ncommit overrun: %llu\n"
				    "dropped events: %llu\nread events: %llu\n",
				    cpu, (unsigned long long)c->entries,
				    (unsigned long long)c->overrun,
				    (unsigned long long)c->commit_overrun,
				    (unsigned long long)c->dropped, (unsigned long long)c->read);

		out_option(o, BP_OPT_CPUSTAT, s, strlen(s) + 1);
		free(s);
	}
}

static void write_options(struct out *o, const struct bp_meta *meta, int ncpus)
{
	char *s;

	if (meta && (meta->hostname || meta->kernel_release || meta->machine)) {
		/* As trace-cmd writes it: sysname nodename release machine. */
		s = xasprintf("Linux %s %s %s", meta->hostname ? meta->hostname : "-",
			      meta->kernel_release ? meta->kernel_release : "-",
			      meta->machine ? meta->machine : "-");
		out_option(o, BP_OPT_UNAME, s, strlen(s) + 1);
		free(s);
	}
	if (meta && meta->clock) {
		s = xasprintf("[%s]", meta->clock);
		out_option(o, BP_OPT_TRACECLOCK, s, strlen(s) + 1);
		free(s);
	}
	write_cpustats(o, meta, ncpus);
	s = xasprintf("bootprof %s", meta && meta->bootprof_version ? meta->bootprof_version
								      : BOOTPROF_VERSION);
	out_option(o, BP_OPT_VERSION, s, strlen(s) + 1);
	free(s);
	out_u16(o, BP_OPT_DONE);
}

/*
 * Write everything before the CPU data; offsets[] and sizes[] are the CPU
 * table. Returns the offset where the first CPU's data goes.
 */
static uint64_t write_headers(struct out *o, const struct bp_trace_headers *h,
			      const struct bp_meta *meta, int ncpus, int page_size,
			      const uint64_t *sizes, const char *spool, const char *spool_why)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint64_t table_pos, data_pos, off;
	char *blob = NULL;
	size_t blob_len = 0;
	int cpu;
	uint8_t b;

	out_write(o, magic, sizeof(magic));
	out_str(o, "6");
	b = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	out_write(o, &b, 1);
	b = sizeof(long);
	out_write(o, &b, 1);
	out_u32(o, (uint32_t)page_size);
	out_str(o, "header_page");
	out_blob64(o, h->header_page, h->header_page_len);
	out_str(o, "header_event");
	out_blob64(o, h->header_event, h->header_event_len);
	write_formats(o, h);
	out_blob32(o, h->kallsyms, h->kallsyms ? h->kallsyms_len : 0);
	out_blob32(o, h->printk, h->printk ? h->printk_len : 0);
	out_blob64(o, h->cmdlines, h->cmdlines ? h->cmdlines_len : 0);
	out_u32(o, (uint32_t)ncpus);
	out_write(o, "options  ", 10);
	write_options(o, meta, ncpus);
	out_write(o, "flyrecord", 10);

	table_pos = out_pos(o);
	if (meta)
		blob = bp_meta_serialize(meta, &blob_len);
	if (blob && spool && blob_len >= 4 && !memcmp(blob + blob_len - 4, "end\n", 4)) {
		/* The provisional file names its spool before the end line. */
		char *with = xasprintf("%.*sspool %s\n%s%s%send\n", (int)(blob_len - 4), blob,
				       spool, spool_why ? "spool_why " : "",
				       spool_why ? spool_why : "", spool_why ? "\n" : "");

		free(blob);
		blob = with;
		blob_len = strlen(with);
	}
	data_pos = table_pos + 16 * (uint64_t)ncpus;
	if (blob)
		data_pos += sizeof(BP_META_MAGIC) + 8 + blob_len;
	data_pos = (data_pos + page_size - 1) / page_size * page_size;
	for (off = data_pos, cpu = 0; cpu < ncpus; cpu++) {
		out_u64(o, off);
		out_u64(o, sizes[cpu]);
		off += sizes[cpu];
	}
	if (blob) {
		out_write(o, BP_META_MAGIC, sizeof(BP_META_MAGIC));
		out_u64(o, blob_len);
		out_write(o, blob, blob_len);
		free(blob);
	}
	while (!o->err && out_pos(o) < data_pos) {
		static const char zeros[256];
		uint64_t n = data_pos - out_pos(o);

		out_write(o, zeros, n < sizeof(zeros) ? n : sizeof(zeros));
	}
	out_flush(o);
	return data_pos;
}

static int write_provisional(struct bp_writer *w, const struct bp_trace_headers *h,
			     const struct bp_meta *meta, const char *why);

/*
 * Turn the output back into the provisional file (over blocks it already
 * has, so a full disk allows it) and keep the spool it reads from. errno
 * (ENOSPC or EDQUOT) is the cause, written for readers and preserved.
 */
static int keep_in_spool(struct bp_writer *w, const struct bp_trace_headers *h,
			 const struct bp_meta *meta)
{
	int err = errno;
	const char *why = err == EDQUOT ? "quota" : "disk-full";
	off_t end;

	/* The full metadata may not fit where the start's did: then without it. */
	if (write_provisional(w, h, meta, why) < 0 && write_provisional(w, h, NULL, why) < 0)
		goto fail;
	end = lseek(w->out_fd, 0, SEEK_CUR);
	if (end < 0 || ftruncate(w->out_fd, end) < 0)
		goto fail;
	w->keep_spool = 1;
	errno = err;
	return 0;
fail:
	errno = err;
	return -1;
}

/* Copy size bytes of fd from offset 0 to the output at its current offset. */
static int copy_cpu_data(int out_fd, int in_fd, uint64_t size, uint64_t *copied)
{
	loff_t in_off = 0;
	char *buf = NULL;
	int ret = 0;

	*copied = 0;
	while (*copied < size) {
		size_t want = size - *copied > (1 << 20) ? (1 << 20) : size - *copied;
		ssize_t n;

		if (!buf) {
			n = copy_file_range(in_fd, &in_off, out_fd, NULL, want, 0);
			if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
				      errno == EOPNOTSUPP)) {
				buf = xmalloc(1 << 20);
				continue;
			}
		} else {
			n = pread(in_fd, buf, want, in_off);
			if (n > 0) {
				ssize_t k = 0, w;

				while (k < n) {
					w = write(out_fd, buf + k, (size_t)(n - k));
					if (w < 0 && errno == EINTR)
						continue;
					if (w <= 0) {
						if (!w)
							errno = ENOSPC;
						/* Keep what reached the file. */
						*copied += (uint64_t)k;
						ret = -1;
						goto out;
					}
					k += w;
				}
				in_off += n;
			}
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -1;
			break;
		}
		if (n == 0) {
			/* The spool shrank under us: nothing more to copy. */
			errno = EIO;
			ret = -1;
			break;
		}
		*copied += (uint64_t)n;
	}
out:
	free(buf);
	return ret;
}

/* After a failed write (errno): on a full disk, back to the provisional file (keep_in_spool()). */
static int keep_if_full(struct bp_writer *w, const struct bp_trace_headers *h,
			const struct bp_meta *meta)
{
	if ((errno != ENOSPC && errno != EDQUOT) || !w->provisional)
		return -1;
	return keep_in_spool(w, h, meta);
}

/* What a recording kept in its spool has, for the error message. */
static const char *kept_spool(const struct bp_writer *w)
{
	static __thread char msg[PATH_MAX + 128];

	snprintf(msg, sizeof(msg), "every recorded page was kept in the spool '%s', which the "
		 "file reads from (keep it beside the file)", w->spool_dir);
	return msg;
}

static uint64_t total_size(const uint64_t *sizes, int n)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += sizes[i];
	return sum;
}

int bp_writer_finish(struct bp_writer *w, const struct bp_trace_headers *h,
		     const struct bp_meta *meta)
{
	struct out *o;
	uint64_t *sizes, pos, data_pos, copied;
	int cpu, ret = -1;

	if (!w || w->finished || w->out_fd < 0) {
		bp_set_error("recording already finished");
		return -1;
	}
	if (!h || !h->header_page || !h->header_event) {
		bp_set_error("no ring-buffer headers to write");
		return -1;
	}
	w->finished = 1;
	sizes = xcalloc(w->ncpus, sizeof(*sizes));
	for (cpu = 0; cpu < w->ncpus; cpu++) {
		struct stat st;

		if (fstat(w->cpu_fds[cpu], &st) < 0) {
			bp_set_error_errno("cannot read the spooled data of CPU %d", cpu);
			goto out;
		}
		/* Only whole pages: a partial page cannot be parsed. */
		sizes[cpu] = (uint64_t)st.st_size / w->page_size * w->page_size;
	}
	/* Over the provisional file, if one was written. */
	if (lseek(w->out_fd, 0, SEEK_SET) < 0) {
		bp_set_error_errno("cannot seek in '%s'", w->path);
		goto out;
	}
	o = xmalloc(sizeof(*o));
	o->fd = w->out_fd;
	o->len = 0;
	o->off = 0;
	o->err = 0;
	data_pos = pos = write_headers(o, h, meta, w->ncpus, w->page_size, sizes, NULL, NULL);
	if (o->err) {
		int err = o->err;

		free(o);
		errno = err;
		/* The final metadata did not fit: keep reading from the spool. */
		if (keep_if_full(w, h, meta) == 0)
			bp_set_error("cannot write the headers: %s; %s", strerror(err),
				     kept_spool(w));
		else
			bp_set_error("cannot write the headers: %s; nothing readable was kept",
				     strerror(err));
		goto out;
	}
	free(o);
	if (lseek(w->out_fd, (off_t)pos, SEEK_SET) < 0) {
		bp_set_error_errno("cannot seek in '%s'", w->path);
		goto out;
	}
	for (cpu = 0; cpu < w->ncpus; cpu++) {
		if (copy_cpu_data(w->out_fd, w->cpu_fds[cpu], sizes[cpu], &copied) < 0) {
			int err = errno;

			/*
			 * A full disk: the spool holds every page, the copy only
			 * a prefix. Back to the provisional file over the spool.
			 */
			if (keep_if_full(w, h, meta) == 0) {
				bp_set_error("cannot write the data of CPU %d: %s; %s", cpu,
					     strerror(err), kept_spool(w));
				goto out;
			}
			/* Keep the valid prefix: whole pages only (readers see it truncated). */
			copied = copied / w->page_size * w->page_size;
			pos += copied;
			if (ftruncate(w->out_fd, (off_t)pos) < 0) {
				bp_set_error_errno("cannot write the data of CPU %d: %s; cannot cut "
						   "the file to its last whole page", cpu,
						   strerror(err));
				goto out;
			}
			bp_set_error("cannot write the data of CPU %d: %s; kept a valid prefix: "
				     "%llu of %llu bytes of ring-buffer pages", cpu, strerror(err),
				     (unsigned long long)(pos - data_pos),
				     (unsigned long long)total_size(sizes, w->ncpus));
			goto out;
		}
		pos += copied;
	}
	/* The provisional file may have been longer. */
	if (ftruncate(w->out_fd, (off_t)pos) < 0) {
		bp_set_error_errno("cannot cut the file to its length");
		goto out;
	}
	if (fsync(w->out_fd) < 0) {
		bp_set_error_errno("cannot flush the file to disk");
		goto out;
	}
	ret = 0;
out:
	if (close(w->out_fd) < 0 && !ret) {
		bp_set_error_errno("cannot flush the file to disk");
		ret = -1;
	}
	w->out_fd = -1;
	if (!w->keep_spool)
		remove_spool(w);
	free(sizes);
	return ret;
}

int bp_writer_provisional(struct bp_writer *w, const struct bp_trace_headers *h,
			  const struct bp_meta *meta)
{
	if (!w || w->finished || w->out_fd < 0 || !w->spool_dir) {
		bp_set_error("recording already finished");
		return -1;
	}
	if (!h || !h->header_page || !h->header_event) {
		bp_set_error("no ring-buffer headers to write");
		return -1;
	}
	if (write_provisional(w, h, meta, NULL))
		return -1;
	w->provisional = 1;
	return 0;
}

/*
 * The headers, an empty CPU table and metadata naming the spool (and why
 * the recording is read from it, when not because it is still running or
 * was killed), from offset 0.
 */
static int write_provisional(struct bp_writer *w, const struct bp_trace_headers *h,
			     const struct bp_meta *meta, const char *why)
{
	struct bp_meta empty;
	struct out *o;
	uint64_t *sizes;
	int err;

	bp_meta_init(&empty);
	empty.ncpus = w->ncpus;
	empty.page_size = w->page_size;
	sizes = xcalloc(w->ncpus, sizeof(*sizes));
	o = xmalloc(sizeof(*o));
	o->fd = w->out_fd;
	o->len = 0;
	o->off = 0;
	o->err = lseek(w->out_fd, 0, SEEK_SET) < 0 ? errno : 0;
	/* mkdtemp's suffix: the reader finds the spool beside the file by it. */
	write_headers(o, h, meta ? meta : &empty, w->ncpus, w->page_size, sizes,
		      strrchr(w->spool_dir, '-') + 1, why);
	err = o->err;
	free(o);
	free(sizes);
	if (err) {
		errno = err;
		bp_set_error_errno("cannot write '%s'", w->path);
		return -1;
	}
	return 0;
}

int bp_writer_spool(struct bp_writer *w, int *ncpus, int *page_size, const int **fds)
{
	if (!w || w->finished || !w->spool_dir)
		return -1;
	*ncpus = w->ncpus;
	*page_size = w->page_size;
	*fds = w->cpu_fds;
	return 0;
}
