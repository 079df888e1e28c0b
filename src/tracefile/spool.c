// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a recording whose pages are still in its spool, one file per CPU
 * (writer.c): the recorder's own scan of what it recorded so far, and a
 * recording whose recorder was killed (or stopped by a full disk) before
 * it could copy the pages into the file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracefile/reader-internal.h"
#include "util/error.h"
#include "util/xalloc.h"

/*
 * An unfinished recording's metadata names its spool: a line "spool XXXXXX"
 * (mkdtemp's suffix, letters and digits) before "end" (see writer.c), and,
 * when the writer knew why it could not finish, "spool_why WORD".
 */
void bp_spool_find(struct bp_reader *r, const uint8_t *p, uint64_t n)
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
	s = bp_stream_new(r, cpu, r->page_size);
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
int bp_spool_open(struct bp_reader *r)
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
		bp_reader_warn(r, "recording could not be finished (%s): every page recorded is "
			    "read from its spool", r->spool_why);
	else
		bp_reader_warn(r, "recording was not finished (recorder killed?): read from its spool");
	ret = 0;
out:
	if (dfd >= 0)
		close(dfd);
	free(found);
	free(tail);
	free(dir);
	return ret;
}

/*
 * A reader over per-CPU raw page streams held in descriptors (the writer's
 * spool): each fd is read from offset 0 to its current size, whole pages.
 */
static struct bp_reader *spool_reader_new(const struct bp_trace_headers *h, int ncpus,
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
	r = bp_reader_alloc("(spool)");
	r->version = 6;
	r->long_size = sizeof(long);
	r->page_size = page_size;
	r->ncpus = ncpus;
	if (bp_reader_init_tep(r))
		goto out_free;
	r->texts.header_page = xmalloc(h->header_page_len + 1);
	memcpy(r->texts.header_page, h->header_page, h->header_page_len);
	r->texts.header_page[h->header_page_len] = 0;
	r->texts.header_page_len = h->header_page_len;
	for (i = 0; i < h->nformats; i++)
		bp_trace_headers_add_format(&r->texts, h->formats[i].system, h->formats[i].text,
					    h->formats[i].len);
	/* The recorder's own texts from tracefs: trusted, parsed without a probe. */
	if (bp_formats_load(r, 0))
		goto out_free;
	if (h->cmdlines && h->cmdlines_len) {
		r->texts.cmdlines = xmalloc(h->cmdlines_len + 1);
		memcpy(r->texts.cmdlines, h->cmdlines, h->cmdlines_len);
		r->texts.cmdlines[h->cmdlines_len] = 0;
		r->texts.cmdlines_len = h->cmdlines_len;
		bp_formats_comms(r->tep, r->texts.cmdlines);
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
	if (bp_streams_setup(r))
		goto out_free;
	return r;

out_free:
	bp_reader_free(r);
	return NULL;
}

struct bp_reader *bp_writer_reader(struct bp_writer *w, const struct bp_trace_headers *h)
{
	const int *fds;
	int ncpus, page_size;

	if (bp_writer_spool(w, &ncpus, &page_size, &fds) < 0) {
		bp_set_error("no spooled recording to read");
		return NULL;
	}
	return spool_reader_new(h, ncpus, page_size, fds);
}
