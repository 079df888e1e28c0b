// SPDX-License-Identifier: GPL-2.0
/*
 * report --redact: recordings hold paths, command lines, the hostname and
 * the kernel command line; a user attaching one to a public bug tracker
 * shares the report without them. See redact.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model.h"
#include "analysis/redact.h"
#include "util/xalloc.h"

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Directories whose contents are the same on every machine of a distribution. */
static int system_path(const char *path)
{
	static const char *const dirs[] = { "usr", "bin", "sbin", "etc", "system", "vendor",
					    "apex", "opt" };
	const char *end;
	size_t i, n;

	if (path[0] != '/')
		return 0;
	end = strchr(path + 1, '/');
	n = end ? (size_t)(end - path - 1) : strlen(path + 1);
	/* "/usr/../home/x": a system prefix must not lead outside it. */
	if (strstr(path, "/.."))
		return 0;
	if (n >= 3 && !strncmp(path + 1, "lib", 3))
		return 1; /* /lib, /lib64, /lib32 ... */
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (n == strlen(dirs[i]) && !strncmp(path + 1, dirs[i], n))
			return 1;
	}
	return 0;
}

char *bp_redact_path(const char *path)
{
	if (system_path(path))
		return xstrdup(path);
	return xasprintf("[path %08x]", fnv1a(path, strlen(path)));
}

static void replace(char **s, char *with)
{
	free(*s);
	*s = with;
}

static void redact_path(char **s)
{
	if (*s)
		replace(s, bp_redact_path(*s));
}

/* Each word starting with '/' of a text, as a path. */
static char *redact_paths_in(const char *text)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out = xmalloc(cap);
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");
		char *word = xstrndup(p, n), *w;

		w = word[0] == '/' ? bp_redact_path(word) : xstrdup(word);
		cap += strlen(w) + 1;
		out = xrealloc(out, cap);
		memcpy(out + len, w, strlen(w));
		len += strlen(w);
		free(w);
		free(word);
		p += n;
		if (*p)
			out[len++] = *p++;
	}
	out[len] = 0;
	return out;
}

/* key=VALUE -> key=#hash; words after "--" (init's arguments) -> #hash. */
static char *redact_cmdline(const char *cmdline)
{
	size_t cap = strlen(cmdline) * 2 + 16, len = 0;
	char *out = xmalloc(cap);
	const char *p = cmdline;
	int init_args = 0;

	while (*p) {
		size_t n = strcspn(p, " \n"), keep = n;
		const char *eq = memchr(p, '=', n);

		if (init_args)
			keep = 0;
		else if (eq)
			keep = (size_t)(eq - p) + 1;
		if (len + keep + 16 > cap) {
			cap = (len + keep + 16) * 2;
			out = xrealloc(out, cap);
		}
		memcpy(out + len, p, keep);
		len += keep;
		if (keep < n)
			len += (size_t)snprintf(out + len, cap - len, "#%08x",
						fnv1a(p + keep, n - keep));
		if (n == 2 && !strncmp(p, "--", 2))
			init_args = 1;
		p += n;
		while (*p == ' ' || *p == '\n') {
			if (len + 2 > cap)
				out = xrealloc(out, cap *= 2);
			out[len++] = ' ';
			p++;
		}
	}
	out[len] = 0;
	return out;
}

static void redact_comm(char comm[16])
{
	snprintf(comm, 16, "#%08x", fnv1a(comm, strnlen(comm, 16)));
}

void bp_model_redact(struct bp_model *m)
{
	struct bp_model_header *h = &m->header;
	size_t i, j;

	if (h->hostname)
		replace(&h->hostname, xasprintf("[host %08x]", fnv1a(h->hostname,
								      strlen(h->hostname))));
	if (h->command)
		replace(&h->command, xasprintf("[command %08x]", fnv1a(h->command,
									strlen(h->command))));
	if (h->cmdline)
		replace(&h->cmdline, redact_cmdline(h->cmdline));
	if (h->stop_reason)
		replace(&h->stop_reason, redact_paths_in(h->stop_reason));
	for (i = 0; i < m->nfiles; i++) {
		/* "[unresolved ...]" and "[metadata ...]" name no path. */
		if (m->files[i].path && m->files[i].path[0] != '[')
			redact_path(&m->files[i].path);
	}
	for (i = 0; i < m->nprocesses; i++) {
		struct bp_process *p = &m->processes[i];
		int private = 0;

		for (j = 0; j < p->nexec; j++) {
			private |= !system_path(p->exec[j]);
			redact_path(&p->exec[j]);
		}
		/* Arguments hold anything (names, tokens, passwords): none are kept. */
		for (j = 0; j < p->nargv; j++)
			free(p->argv[j]);
		free(p->argv);
		p->argv = NULL;
		p->nargv = 0;
		/* The comm of a private program is its file name: a token too. */
		if (private) {
			redact_comm(p->comm);
			for (j = 0; j < p->nthreads; j++)
				redact_comm(p->threads[j]->comm);
		}
	}
	for (i = 0; i < m->nexecs; i++)
		redact_path(&m->execs[i].path);
}
