// SPDX-License-Identifier: GPL-2.0
/*
 * The one-shot boot entry (bootprof-boot(1)): its files, written and read
 * back, and its removal. Running grub-mkconfig and grub-reboot is the
 * command's (src/cmd-boot.c); nothing here runs a program, so the
 * recorder can remove the entry early in boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/boot-once.h"
#include "util/error.h"
#include "util/xalloc.h"

/* Noted in the script, read back by bp_once_read(). */
#define NOTE_CONFIG "# bootprof-config: "
#define NOTE_RELEASE "# bootprof-release: "
#define NOTE_UNTIL "# bootprof-until: "
#define NOTE_LOADER "# bootprof-loader: "

/* Each word of words in single quotes: GRUB would expand an unquoted "initcall:*". */
static char *grub_quote_words(const char *words)
{
	size_t len = strlen(words), i, o = 0;
	char *q = xmalloc(len * 3 + 3);
	int in_word = 0;

	for (i = 0; i < len; i++) {
		char c = words[i];

		if (c == '\'' || c == '\n' || c == '\\' || c == '$' || c == '"') {
			free(q);
			bp_set_error("cannot put '%c' of the words in a GRUB entry", c);
			return NULL;
		}
		if (c == ' ' || c == '\t') {
			if (in_word)
				q[o++] = '\'';
			in_word = 0;
			if (o && q[o - 1] != ' ')
				q[o++] = ' ';
			continue;
		}
		if (!in_word)
			q[o++] = '\'';
		in_word = 1;
		q[o++] = c;
	}
	if (in_word)
		q[o++] = '\'';
	while (o && q[o - 1] == ' ')
		o--;
	q[o] = '\0';
	return q;
}

char *bp_once_grub_script(const char *release, const char *words, const char *config,
			  const char *until)
{
	char *quoted, *script;

	if (strpbrk(release, "'\"\\$ \n") || strpbrk(config, "'\"\\$\n") ||
	    strpbrk(until, "'\"\\$\n")) {
		bp_set_error("cannot put release '%s' in a GRUB entry", release);
		return NULL;
	}
	quoted = grub_quote_words(words);
	if (!quoted)
		return NULL;
	script = xasprintf(
		"#!/bin/sh\n"
		"# Written by 'bootprof boot --once': one GRUB menu entry that records\n"
		"# the next boot (grub-reboot " BP_ONCE_ID "). The recorder removes this\n"
		"# file and the entry once the recording is saved; 'bootprof boot --undo'\n"
		"# does the same.\n"
		NOTE_LOADER "grub\n"
		NOTE_CONFIG "%s\n"
		NOTE_RELEASE "%s\n"
		NOTE_UNTIL "%s\n"
		"set -e\n"
		". \"${pkgdatadir:-/usr/share/grub}/grub-mkconfig_lib\"\n"
		"release='%s'\n"
		"kernel=/boot/vmlinuz-$release\n"
		"[ -f \"$kernel\" ] || exit 0\n"
		"initrd=\n"
		"for f in initrd.img-$release initramfs-$release.img initrd-$release; do\n"
		"\tif [ -f \"/boot/$f\" ]; then initrd=/boot/$f; break; fi\n"
		"done\n"
		"if [ -z \"$GRUB_DEVICE_UUID\" ] || [ \"$GRUB_DISABLE_LINUX_UUID\" = true ]; then\n"
		"\troot=$GRUB_DEVICE\n"
		"else\n"
		"\troot=UUID=$GRUB_DEVICE_UUID\n"
		"fi\n"
		"echo \"menuentry 'bootprof: record this boot ($release)' --id " BP_ONCE_ID " {\"\n"
		"prepare_grub_to_access_device \"$GRUB_DEVICE_BOOT\" | sed 's/^/\\t/'\n"
		"echo \"\techo 'bootprof: recording this boot'\"\n"
		"echo \"\tlinux $(make_system_path_relative_to_its_root \"$kernel\") root=$root ro "
		"$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT %s\"\n"
		"if [ -n \"$initrd\" ]; then\n"
		"\techo \"\tinitrd $(make_system_path_relative_to_its_root \"$initrd\")\"\n"
		"fi\n"
		"echo \"}\"\n",
		config, release, until, release, quoted);
	free(quoted);
	return script;
}

char *bp_once_stop_unit(const char *target)
{
	return xasprintf("# Written by 'bootprof boot --once': marks %s reached for the\n"
			 "# recorder of the one boot whose command line pulls this unit in\n"
			 "# (systemd.wants=); removed with that boot's entry.\n"
			 "[Unit]\n"
			 "Description=bootprof: %s reached, stop recording\n"
			 "DefaultDependencies=no\n"
			 "After=%s\n"
			 "ConditionKernelCommandLine=" BP_ONCE_WORD "\n"
			 "\n"
			 "[Service]\n"
			 "Type=oneshot\n"
			 "ExecStart=/bin/touch " BP_ONCE_STOP_FILE "\n",
			 target, target, target);
}

int bp_once_write(const char *path, const char *text, unsigned mode)
{
	char *tmp = xasprintf("%s.tmp", path);
	size_t len = strlen(text);
	int fd, ret = -1;

	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0) {
		bp_set_error_errno("cannot create '%s'", tmp);
		goto out_free;
	}
	if (write(fd, text, len) != (ssize_t)len || fchmod(fd, mode) < 0 || fsync(fd) < 0) {
		bp_set_error_errno("cannot write '%s'", tmp);
		close(fd);
		unlink(tmp);
		goto out_free;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		bp_set_error_errno("cannot replace '%s'", path);
		unlink(tmp);
		goto out_free;
	}
	ret = 0;
out_free:
	free(tmp);
	return ret;
}

/* A whole small text file as a heap string, NULL with errno (ENOENT: absent). */
char *bp_once_read_file(const char *path, size_t limit)
{
	struct stat st;
	char *text;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > limit) {
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	text = xmalloc((size_t)st.st_size + 1);
	n = read(fd, text, (size_t)st.st_size);
	close(fd);
	if (n != st.st_size) {
		free(text);
		errno = EIO;
		return NULL;
	}
	text[n] = '\0';
	return text;
}

static void note(const char *text, const char *key, char *out, size_t size)
{
	const char *p = strstr(text, key);
	size_t n;

	out[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	n = strcspn(p, "\n");
	if (n < size)
		snprintf(out, size, "%.*s", (int)n, p);
}

static char *under(const char *root, const char *path)
{
	return xasprintf("%s%s", strcmp(root, "/") ? root : "", path);
}

/* Remove root's @path; one already gone is no error. Return: 0 or -1 (bp_set_error). */
static int remove_under(const char *root, const char *path)
{
	char *p = under(root, path);
	int rc = unlink(p) < 0 && errno != ENOENT ? -1 : 0;

	if (rc)
		bp_set_error_errno("cannot remove '%s'", p);
	free(p);
	return rc;
}

/* Where a systemd-boot entry file is looked for: the ESP's and XBOOTLDR's mount points. */
static const char *const sdboot_dirs[] = { "/efi/", "/boot/", "/boot/efi/" };

char *bp_once_sdboot_entry(const char *base, const char *words, const char *config,
			   const char *until)
{
	size_t size = strlen(base) + strlen(words) + strlen(config) + strlen(until) + 512;
	char *out = xmalloc(size), *copy = xstrdup(base), *save = NULL, *line;
	int has_linux = 0, has_options = 0;
	size_t o;

	o = (size_t)snprintf(out, size,
			     "# Written by 'bootprof boot --once': the entry booted once (bootctl\n"
			     "# set-oneshot) to record that boot. The recorder removes this file once\n"
			     "# the recording is saved; 'bootprof boot --undo' does the same.\n"
			     NOTE_LOADER "systemd-boot\n" NOTE_CONFIG "%s\n" NOTE_UNTIL "%s\n"
			     "title bootprof: record this boot\n",
			     config, until);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *key = line + strspn(line, " \t");
		size_t klen = strcspn(key, " \t");

		if (*key == '#' || !klen || (klen == 5 && !strncmp(key, "title", 5)))
			continue;
		if (klen == 5 && !strncmp(key, "linux", 5))
			has_linux = 1;
		if (klen == 7 && !strncmp(key, "options", 7) && !has_options) {
			/* The words once, on the first options line (the loader joins them all). */
			o += (size_t)snprintf(out + o, size - o, "%s %s\n", line, words);
			has_options = 1;
			continue;
		}
		if (klen == 7 && !strncmp(key, "version", 7))
			o += (size_t)snprintf(out + o, size - o, NOTE_RELEASE "%s\n",
					      key + klen + strspn(key + klen, " \t"));
		o += (size_t)snprintf(out + o, size - o, "%s\n", line);
	}
	free(copy);
	if (!has_linux) {
		free(out);
		bp_set_error("the entry booted now has no 'linux' line (a unified kernel image?): "
			     "its command line cannot be extended");
		return NULL;
	}
	if (!has_options)
		snprintf(out + o, size - o, "options %s\n", words);
	return out;
}

int bp_once_read(const char *root, struct bp_once_state *state)
{
	char *path = under(root, BP_ONCE_GRUB_SCRIPT), *text;
	size_t i;

	memset(state, 0, sizeof(*state));
	text = bp_once_read_file(path, 65536);
	for (i = 0; !text && errno == ENOENT && i < sizeof(sdboot_dirs) / sizeof(sdboot_dirs[0]);
	     i++) {
		free(path);
		path = xasprintf("%s%s" BP_ONCE_SDBOOT_ENTRY, strcmp(root, "/") ? root : "",
				 sdboot_dirs[i]);
		text = bp_once_read_file(path, 65536);
	}
	if (!text) {
		int absent = errno == ENOENT;

		if (!absent)
			bp_set_error_errno("cannot read '%s'", path);
		free(path);
		return absent ? 0 : -1;
	}
	note(text, NOTE_LOADER, state->loader, sizeof(state->loader));
	note(text, NOTE_CONFIG, state->config, sizeof(state->config));
	note(text, NOTE_RELEASE, state->release, sizeof(state->release));
	note(text, NOTE_UNTIL, state->until, sizeof(state->until));
	if (!state->loader[0])
		snprintf(state->loader, sizeof(state->loader), "grub");
	free(text);
	free(path);
	return 0;
}

/*
 * Cut "### BEGIN /etc/grub.d/42_bootprof ###" ... "### END ... ###" out of
 * grub.cfg: what grub-mkconfig would write without the script. 1 when cut,
 * 0 when not there, -1 on error.
 */
static int grub_cfg_cut(const char *cfg)
{
	const char *begin_mark = "### BEGIN " BP_ONCE_GRUB_SCRIPT " ###\n";
	const char *end_mark = "### END " BP_ONCE_GRUB_SCRIPT " ###\n";
	char *text, *begin, *end, *rest;
	struct stat st;
	int ret;

	text = bp_once_read_file(cfg, 64 << 20);
	if (!text) {
		if (errno == ENOENT)
			return 0;
		bp_set_error_errno("cannot read '%s'", cfg);
		return -1;
	}
	begin = strstr(text, begin_mark);
	end = begin ? strstr(begin, end_mark) : NULL;
	if (!begin || !end) {
		free(text);
		return 0;
	}
	end += strlen(end_mark);
	memmove(begin, end, strlen(end) + 1);
	rest = text;
	ret = bp_once_write(cfg, rest, stat(cfg, &st) == 0 ? st.st_mode & 07777 : 0444);
	free(text);
	return ret < 0 ? -1 : 1;
}

int bp_once_remove(const char *root, const char **what)
{
	struct bp_once_state state;
	char *path, *cfg;
	int cut = 0, unit;

	*what = "";
	if (bp_once_read(root, &state) < 0)
		return -1;
	if (!strcmp(state.loader, "systemd-boot")) {
		if (remove_under(root, state.config))
			return -1;
		path = under(root, BP_ONCE_STOP_UNIT);
		unlink(path);
		free(path);
		*what = "the systemd-boot entry " BP_ONCE_ID ".conf";
		return 0;
	}
	if (state.loader[0] && state.config[0]) {
		cfg = under(root, state.config);
		cut = grub_cfg_cut(cfg);
		free(cfg);
		if (cut < 0)
			return -1;
	}
	if (remove_under(root, BP_ONCE_GRUB_SCRIPT))
		return -1;
	path = under(root, BP_ONCE_STOP_UNIT);
	unit = unlink(path) == 0;
	free(path);
	if (state.loader[0])
		*what = cut ? "the GRUB entry " BP_ONCE_ID " (" BP_ONCE_GRUB_SCRIPT " and its grub.cfg section)"
			    : "the GRUB entry " BP_ONCE_ID " (" BP_ONCE_GRUB_SCRIPT ")";
	else if (unit)
		*what = BP_ONCE_STOP_UNIT;
	return 0;
}

int bp_once_booted(void)
{
	char text[16384], *p;
	size_t n = strlen(BP_ONCE_WORD);
	ssize_t len;
	int fd;

	/* A proc file: its size is 0 to stat, so read as much as comes. */
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	text[len] = '\0';
	for (p = text; (p = strstr(p, BP_ONCE_WORD)); p += n) {
		if ((p == text || p[-1] == ' ') && (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return 1;
	}
	return 0;
}
