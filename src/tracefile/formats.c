// SPDX-License-Identifier: GPL-2.0
/*
 * Handing a recording's texts (page header, event formats, kernel symbols,
 * printk formats, process names) to libtraceevent, whose parser crashes on
 * some corrupt formats: each text is first parsed in a throw-away child.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "tracefile/reader-internal.h"
#include "util/error.h"
#include "util/xalloc.h"

void bp_formats_geometry(struct bp_reader *r, struct tep_handle *tep)
{
	const int host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	tep_set_file_bigendian(tep, (host_big ^ r->swap) ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, r->long_size);
	tep_set_page_size(tep, r->page_size);
}

/* saved_cmdlines: "pid comm" per line; comms let dump print names. */
void bp_formats_comms(struct tep_handle *tep, const char *text)
{
	char *line, *next;

	line = xstrdup(text);
	for (next = line; next && *next;) {
		char *end = strchr(next, '\n'), *sp, *stop;
		long pid;

		if (end)
			*end = 0;
		pid = strtol(next, &stop, 10);
		sp = stop;
		if (sp != next && *sp == ' ' && sp[1] && pid > 0 && pid <= 0x7fffffff)
			tep_register_comm(tep, sp + 1, (int)pid);
		next = end ? end + 1 : NULL;
	}
	free(line);
}

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
		bp_formats_geometry(r, tep);
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

int bp_formats_load(struct bp_reader *r, int untrusted)
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
				bp_reader_warn(r, "cannot parse an event format of system '%s'",
					    r->texts.formats[i - 1].system);
			else
				bp_reader_warn(r, "cannot parse the %s", i == last - 1
					    ? "kernel symbols" : "printk formats");
		}
	}
	ret = 0;
out:
	free(state);
	free(hash);
	return ret;
}
