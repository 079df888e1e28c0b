// SPDX-License-Identifier: GPL-2.0
/*
 * Installed paths relative to the running binary; see install.h.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/install.h"

#ifndef BOOTPROF_PLUGIN_DIR
#define BOOTPROF_PLUGIN_DIR "/usr/local/lib/bootprof/plugins"
#endif
#ifndef BOOTPROF_BINDIR
#define BOOTPROF_BINDIR "/usr/local/bin"
#endif

const char *bp_self_relative(char *buf, size_t size, const char *rel)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	int len;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	len = snprintf(buf, size, "%s/%s", exe, rel);
	if (len < 0 || (size_t)len >= size)
		return NULL;
	return buf;
}

static int is_dir(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *bp_install_plugin_dir(void)
{
	static char dir[PATH_MAX];
	char rel[PATH_MAX];

	if (!dir[0]) {
		if (is_dir(bp_self_relative(rel, sizeof(rel), "../lib/bootprof/plugins")) &&
		    realpath(rel, dir))
			return dir;
		snprintf(dir, sizeof(dir), "%s", BOOTPROF_PLUGIN_DIR);
	}
	return dir;
}

const char *bp_installed_init(char *buf, size_t size)
{
	struct stat st;

	if (bp_self_relative(buf, size, "bootprof-init") && lstat(buf, &st) == 0)
		return buf;
	snprintf(buf, size, "%s/bootprof-init", BOOTPROF_BINDIR);
	return buf;
}
