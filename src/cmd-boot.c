// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof boot --once: record the next boot, once. A GRUB menu entry of
 * its own (an /etc/grub.d script: the 'bootprof cmdline' words, init=
 * bootprof-init, the stop) made the next boot's default by grub-reboot,
 * or a systemd-boot entry file chosen by bootctl set-oneshot;
 * bootprof-init's recorder removes it once the recording is saved.
 * --status says what is pending, --undo removes it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "builtin.h"
#include "capture/boot-once.h"
#include "capture/boot.h"
#include "util/error.h"
#include "util/install.h"
#include "util/parse-options.h"
#include "util/run-command.h"
#include "util/units.h"
#include "util/xalloc.h"

static const char *const boot_synopsis[] = {
	"bootprof boot --once [--until WHAT] [--duration T] [--kernel VERSION]",
	"              [--buffer-size KB] [--init PATH]",
	"bootprof boot --status | --undo",
	NULL,
};

static const struct bp_usage boot_usage = {
	"boot",
	boot_synopsis,
	"Record the next boot, once: a GRUB menu entry of its own (" BP_ONCE_GRUB_SCRIPT ",\n"
	"the words of 'bootprof cmdline' and init=bootprof-init), made the next\n"
	"boot's default by grub-reboot; with systemd-boot, an entry file chosen\n"
	"by bootctl set-oneshot. Later boots are the usual ones. The recorder\n"
	"saves /var/log/bootprof/boot-*.dat and removes the entry.\n",
	"WHAT is when the recording stops: greeter (the display manager's login\n"
	"screen), a systemd target (multi-user.target, graphical.target) reached,\n"
	"or exec:NAME. Default: greeter with a display manager, else the default\n"
	"target. --duration caps it (default 300 s).\n",
	NULL,
};

#define DEFAULT_BUFFER_KB 16384
#define DEFAULT_DURATION_S 300

/* The display managers' greeters: the program exec'd when the login screen starts. */
static const struct {
	const char *unit;
	const char *const greeters[4]; /* the first installed one; the last is the default */
} display_managers[] = {
	{ "gdm3.service", { "gnome-shell" } },
	{ "gdm.service", { "gnome-shell" } },
	{ "sddm.service", { "sddm-greeter-qt6", "sddm-greeter" } },
	{ "lightdm.service", { "slick-greeter", "lightdm-gtk-greeter" } },
	{ "lxdm.service", { "lxdm-greeter-gtk" } },
};

/* "/usr/bin/NAME" or "/usr/sbin/NAME" exists. */
static int installed(const char *name)
{
	static const char *const dirs[] = { "/usr/bin/", "/usr/sbin/", "/usr/libexec/" };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], name);
		if (access(path, X_OK) == 0)
			return 1;
	}
	return 0;
}

/* The greeter of the enabled display manager, or NULL when there is none. */
static const char *greeter(void)
{
	char link[PATH_MAX], *unit;
	ssize_t n;
	size_t i, g;

	n = readlink("/etc/systemd/system/display-manager.service", link, sizeof(link) - 1);
	if (n <= 0)
		return NULL;
	link[n] = '\0';
	unit = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	for (i = 0; i < sizeof(display_managers) / sizeof(display_managers[0]); i++) {
		if (strcmp(unit, display_managers[i].unit))
			continue;
		for (g = 0; g + 1 < 4 && display_managers[i].greeters[g + 1]; g++)
			if (installed(display_managers[i].greeters[g]))
				break;
		return display_managers[i].greeters[g];
	}
	return NULL;
}

/* systemd's default target (as systemctl get-default reads it), into buf. */
static const char *default_target(char *buf, size_t size)
{
	static const char *const links[] = { "/etc/systemd/system/default.target",
					     "/lib/systemd/system/default.target",
					     "/usr/lib/systemd/system/default.target" };
	char link[PATH_MAX];
	size_t i;
	ssize_t n;

	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		n = readlink(links[i], link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		snprintf(buf, size, "%.*s", (int)(size - 1), strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		return buf;
	}
	snprintf(buf, size, "multi-user.target");
	return buf;
}

static int valid_name(const char *s)
{
	return *s && strlen(s) < 64 && !strpbrk(s, " \t\n'\"\\$/*?[]");
}

/*
 * The stop words for until ("greeter", "NAME.target", "exec:NAME"); *target
 * is the systemd target that needs the stop unit, else NULL. NULL with an
 * error for anything else.
 */
static char *stop_words(const char *until, const char **target)
{
	const char *name;

	*target = NULL;
	if (!strcmp(until, "greeter")) {
		name = greeter();
		if (!name) {
			bp_set_error("no display manager enabled (display-manager.service): "
				     "no greeter to stop at; use --until multi-user.target");
			return NULL;
		}
		return xasprintf("bootprof.until-exec=%s", name);
	}
	if (!strncmp(until, "exec:", 5)) {
		if (!valid_name(until + 5)) {
			bp_set_error("bad program name in --until '%s'", until);
			return NULL;
		}
		return xasprintf("bootprof.until-exec=%s", until + 5);
	}
	if (strlen(until) > 7 && !strcmp(until + strlen(until) - 7, ".target") &&
	    valid_name(until)) {
		*target = until;
		return xstrdup("bootprof.until-file=" BP_ONCE_STOP_FILE
			       " systemd.wants=bootprof-once.service");
	}
	bp_set_error("bad --until '%s' (want greeter, a systemd target such as "
		     "multi-user.target, or exec:NAME)",
		     until);
	return NULL;
}

/* GRUB's directory: /boot/grub (Debian), /boot/grub2 (Fedora). */
static const char *grub_dir(void)
{
	if (access("/boot/grub/grub.cfg", F_OK) == 0)
		return "/boot/grub";
	if (access("/boot/grub2/grub.cfg", F_OK) == 0)
		return "/boot/grub2";
	return NULL;
}

/* The first of two program names in PATH (update-grub, grub-mkconfig, grub2-...). */
static const char *program(const char *a, const char *b)
{
	const char *path = getenv("PATH"), *names[2] = { a, b };
	char file[PATH_MAX];
	size_t i, n;
	const char *p;

	if (!path || !*path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	for (i = 0; i < 2; i++) {
		if (!names[i])
			continue;
		for (p = path; *p; p += n + (p[n] == ':')) {
			n = strcspn(p, ":");
			snprintf(file, sizeof(file), "%.*s/%s", (int)n, p, names[i]);
			if (n && access(file, X_OK) == 0)
				return names[i];
		}
	}
	return NULL;
}

/*
 * GRUB writes next_entry back at boot (grub-reboot's "once") only where it
 * can write grubenv: not through LVM or mdraid, not on btrfs or zfs. The
 * same test as Debian's 00_header makes for recordfail. 0 when writable.
 */
static int grubenv_writable(const char *dir)
{
	const char *probe = program("grub-probe", "grub2-probe");
	const char *argv[] = { probe, "--target=abstraction", dir, NULL };
	char out[256];

	if (!probe)
		return bp_error("cannot record the next boot once: grub-probe not found");
	if (bp_command_run(argv, out, sizeof(out)) != 0)
		return bp_error("cannot record the next boot once: '%s --target=abstraction %s' "
				"failed",
				probe, dir);
	if (strstr(out, "lvm") || strstr(out, "diskfilter"))
		return bp_error("cannot record the next boot once: %s is on %s, where GRUB cannot "
				"write grubenv at boot (the entry would stay the default); put the "
				"words of 'bootprof cmdline' in GRUB's editor ('e') instead",
				dir, strstr(out, "lvm") ? "LVM" : "mdraid");
	argv[1] = "--target=fs";
	if (bp_command_run(argv, out, sizeof(out)) != 0)
		return bp_error("cannot record the next boot once: '%s --target=fs %s' failed",
				probe, dir);
	if (!strcmp(out, "btrfs") || !strcmp(out, "zfs"))
		return bp_error("cannot record the next boot once: %s is on %s, where GRUB cannot "
				"write grubenv at boot (the entry would stay the default); put the "
				"words of 'bootprof cmdline' in GRUB's editor ('e') instead",
				dir, out);
	return 0;
}

/* update-grub, else grub-mkconfig -o CFG. 0, or 1 after printing why. */
static int grub_mkconfig(const char *cfg)
{
	const char *update = program("update-grub", NULL);
	const char *mkconfig = program("grub-mkconfig", "grub2-mkconfig");
	const char *argv[4] = { NULL };
	int rc;

	if (update) {
		argv[0] = update;
	} else if (mkconfig) {
		argv[0] = mkconfig;
		argv[1] = "-o";
		argv[2] = cfg;
	} else {
		return bp_error("neither update-grub nor grub-mkconfig found");
	}
	rc = bp_command_run(argv, NULL, 0);
	if (rc < 0)
		return bp_error("%s", bp_last_error());
	if (rc)
		return bp_error("'%s' failed (status %d)", argv[0], rc);
	return 0;
}

/* The entry made by the script is in cfg: grub-reboot it. 0, or 1 after printing why. */
static int grub_once(const char *cfg, const char *kernel)
{
	const char *reboot = program("grub-reboot", "grub2-reboot");
	const char *grep[] = { "grep", "-qF", "-e", "--id " BP_ONCE_ID, cfg, NULL };
	const char *set[] = { reboot, BP_ONCE_ID, NULL };

	if (bp_command_run(grep, NULL, 0) != 0)
		return bp_error("'%s' has no entry " BP_ONCE_ID " (is /boot/vmlinuz-%s there?)", cfg,
				kernel);
	if (!reboot)
		return bp_error("cannot make " BP_ONCE_ID " the next boot's entry: grub-reboot "
				"not found");
	if (bp_command_run(set, NULL, 0) != 0)
		return bp_error("cannot make " BP_ONCE_ID " the next boot's entry: grub-reboot "
				"failed");
	return 0;
}

/* systemd-boot's EFI variables (Boot Loader Interface), as their files in efivarfs. */
#define LOADER_VAR(name) "/sys/firmware/efi/efivars/" name "-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

/* An EFI string variable (4 bytes of attributes, UTF-16LE) as ASCII into buf; 0 or -1. */
static int loader_var(const char *path, char *buf, size_t size)
{
	char raw[1024];
	size_t n = 0, i;
	ssize_t len;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	len = (ssize_t)fread(raw, 1, sizeof(raw), f);
	fclose(f);
	for (i = 4; i + 1 < (size_t)len && n + 1 < size; i += 2) {
		if (!raw[i] && !raw[i + 1])
			break;
		buf[n++] = raw[i + 1] ? '?' : raw[i];
	}
	buf[n] = '\0';
	return n ? 0 : -1;
}

static int sdboot_installed(void)
{
	const char *argv[] = { "bootctl", "is-installed", NULL };
	char out[64];

	return program("bootctl", NULL) && bp_command_run(argv, out, sizeof(out)) == 0;
}

/*
 * systemd-boot: an entry file made from the one booted now, plus words,
 * chosen for the next boot by bootctl set-oneshot. 0, or 1 after printing why.
 */
static int sdboot_once(const char *words, const char *until)
{
	const char *print[] = { "bootctl", "--print-boot-path", NULL };
	const char *set[] = { "bootctl", "set-oneshot", BP_ONCE_ID ".conf", NULL };
	char boot[PATH_MAX], id[256], base_path[PATH_MAX * 2], cfg[PATH_MAX + 64];
	char *base, *entry;
	int ret;

	if (bp_command_run(print, boot, sizeof(boot)) != 0 || boot[0] != '/')
		return bp_error("cannot record the next boot once: 'bootctl --print-boot-path' "
				"failed");
	if (loader_var(LOADER_VAR("LoaderEntrySelected"), id, sizeof(id)) < 0 ||
	    strchr(id, '/'))
		return bp_error("cannot record the next boot once: systemd-boot did not say which "
				"entry it booted (LoaderEntrySelected)");
	snprintf(base_path, sizeof(base_path), "%s/loader/entries/%s", boot, id);
	base = bp_once_read_file(base_path, 65536);
	if (!base) {
		snprintf(base_path, sizeof(base_path), "%s/loader/entries/%s.conf", boot, id);
		base = bp_once_read_file(base_path, 65536);
	}
	if (!base)
		return bp_error("cannot record the next boot once: the entry booted now, '%s', is "
				"no file in %s/loader/entries (a unified kernel image?)",
				id, boot);
	snprintf(cfg, sizeof(cfg), "%s/" BP_ONCE_SDBOOT_ENTRY, boot);
	entry = bp_once_sdboot_entry(base, words, cfg, until);
	free(base);
	if (!entry)
		return bp_error("cannot record the next boot once: %s", bp_last_error());
	ret = bp_once_write(cfg, entry, 0644);
	free(entry);
	if (ret < 0)
		return bp_error("%s", bp_last_error());
	if (bp_command_run(set, NULL, 0) != 0)
		return bp_error("cannot make " BP_ONCE_ID " the next boot's entry: bootctl "
				"set-oneshot failed");
	return 0;
}

static int undo(int quiet)
{
	struct bp_once_state state;
	const char *what, *editenv = program("grub-editenv", "grub2-editenv");
	const char *dir = grub_dir();
	char env[PATH_MAX], out[4096];
	const char *list[] = { editenv, env, "list", NULL };
	const char *unset[] = { editenv, env, "unset", "next_entry", NULL };

	if (bp_once_read("/", &state) < 0 || bp_once_remove("/", &what) < 0)
		return bp_error("%s", bp_last_error());
	/* grub-reboot's next_entry, when that boot has not happened yet. */
	if (editenv && dir) {
		snprintf(env, sizeof(env), "%s/grubenv", dir);
		if (access(env, F_OK) == 0 && bp_command_run(list, out, sizeof(out)) == 0 &&
		    strstr(out, "next_entry=" BP_ONCE_ID) &&
		    bp_command_run(unset, NULL, 0) != 0)
			return bp_error("cannot unset next_entry in '%s'", env);
	}
	/* bootctl set-oneshot's choice, likewise. */
	if (loader_var(LOADER_VAR("LoaderEntryOneShot"), out, sizeof(out)) == 0 &&
	    !strcmp(out, BP_ONCE_ID ".conf")) {
		const char *clear[] = { "bootctl", "set-oneshot", "", NULL };

		if (bp_command_run(clear, NULL, 0) != 0)
			return bp_error("cannot clear systemd-boot's one-shot entry");
	}
	if (!quiet)
		printf("%s%s\n", *what ? "removed " : "nothing to undo", what);
	return 0;
}

static int status(void)
{
	struct bp_once_state state;
	struct stat st;

	if (bp_once_read("/", &state) < 0)
		return bp_error("%s", bp_last_error());
	if (!state.loader[0]) {
		printf("no boot entry of bootprof: boots are not recorded\n");
	} else {
		printf("%s entry %s (%s): kernel %s, stops at %s\n", state.loader, BP_ONCE_ID,
		       strcmp(state.loader, "grub") ? state.config : BP_ONCE_GRUB_SCRIPT,
		       state.release[0] ? state.release : "as booted now", state.until);
		printf("%s\n", bp_once_booted() ? "this boot is the one recorded: the recorder "
						  "removes the entry once it has saved"
						: "the next boot is recorded, once");
	}
	if (stat(BP_BOOT_LOG_DIR "/latest.dat", &st) == 0)
		printf("latest recording: " BP_BOOT_LOG_DIR "/latest.dat\n");
	return 0;
}

int cmd_boot(int argc, char **argv)
{
	const char *until = NULL, *kernel = NULL, *real_init = NULL, *target, *dir, *arch;
	int once = 0, show = 0, remove = 0, buffer_kb = DEFAULT_BUFFER_KB, c, ret = 1;
	uint64_t duration = DEFAULT_DURATION_S * BP_NS_PER_S;
	char init[PATH_MAX], cfg[PATH_MAX], dflt[128], until_s[160];
	char *words = NULL, *missing = NULL, *no_list = NULL, *stop = NULL, *all = NULL;
	char *script = NULL, *unit = NULL;
	struct utsname uts;
	const struct bp_option options[] = {
		OPT_FLAG(0, "once", &once, "record the next boot only"),
		OPT_FLAG(0, "status", &show, "say whether the next boot is recorded"),
		OPT_FLAG(0, "undo", &remove, "remove the entry: the next boot is not recorded"),
		OPT_STRING_C(0, "until", &until, "WHAT",
			     "stop at greeter, a target (multi-user.target), exec:NAME",
			     "greeter multi-user.target graphical.target"),
		OPT_TIME_RANGE(0, "duration", &duration, "T",
			       "stop after T at the latest (default 300 s)", BP_NS_PER_S,
			       1000000 * BP_NS_PER_S),
		OPT_STRING_C(0, "kernel", &kernel, "VERSION",
			     "the kernel to boot (default: the running one)", "@kernel"),
		OPT_INT(0, "buffer-size", &buffer_kb, "KB", "ring buffer per CPU (default 16384)", 4,
			4 * 1024 * 1024),
		OPT_STRING_C(0, "init", &real_init, "PATH", "the real init (default /sbin/init)",
			     "@file"),
		OPT_END(),
	};

	argc = bp_parse_options(argc, argv, options, &boot_usage, 0, &c);
	if (argc < 0)
		return c;
	if (argc > 0)
		return bp_usage_error("boot", "unexpected argument '%s'", argv[0]);
	if (once + show + remove != 1)
		return bp_usage_error("boot", "want one of --once, --status, --undo");
	if (show)
		return status();
	if (geteuid() != 0)
		return bp_error("boot needs root (it writes the boot loader's configuration)");
	if (remove)
		return undo(0);
	if (real_init && (real_init[0] != '/' || !valid_name(strrchr(real_init, '/') + 1)))
		return bp_usage_error("boot", "bad --init '%s' (want an absolute path)", real_init);

	if (uname(&uts) < 0)
		return bp_error("cannot get the kernel release: %s", strerror(errno));
	if (!kernel)
		kernel = uts.release;
	if (!until)
		until = greeter() ? "greeter" : default_target(dflt, sizeof(dflt));
	stop = stop_words(until, &target);
	if (!stop)
		return bp_usage_error("boot", "%s", bp_last_error());
	dir = grub_dir();
	if (!dir || access("/etc/grub.d", F_OK) < 0) {
		dir = NULL;
		if (!sdboot_installed()) {
			bp_error("cannot record the next boot once: neither GRUB (/boot/grub/grub.cfg, "
				 "/etc/grub.d) nor systemd-boot (bootctl is-installed) here");
			goto out_free;
		}
		if (strcmp(kernel, uts.release)) {
			bp_usage_error("boot", "--kernel: systemd-boot boots the entry booted now "
				       "again, with the running kernel");
			goto out_free;
		}
	}
	bp_installed_init(init, sizeof(init));
	if (access(init, X_OK) < 0) {
		bp_error("cannot boot with init=%s: %s ('make install' puts bootprof-init beside "
			 "bootprof)",
			 init, strerror(errno));
		goto out_free;
	}
	arch = bp_boot_release_arch(kernel);
	words = bp_boot_cmdline_for(kernel, !strcmp(kernel, uts.release), BP_BOOT_INSTANCE,
				    arch ? arch : bp_boot_arch(uts.machine), (size_t)buffer_kb,
				    &missing, &no_list);
	if (!words) {
		bp_usage_error("boot", "bad --kernel '%s' (want MAJOR.MINOR...)", kernel);
		goto out_free;
	}
	if (no_list)
		bp_warn("%s; using the events known for %s", no_list, kernel);
	if (missing)
		bp_warn("not in %s: %s", kernel, missing);
	if (dir && grubenv_writable(dir))
		goto out_free;

	all = xasprintf("%s init=%s %s%s%s %s bootprof.duration=%llu", words, init,
			real_init ? "bootprof.init=" : "", real_init ? real_init : "",
			real_init ? " " BP_ONCE_WORD : BP_ONCE_WORD, stop,
			(unsigned long long)(duration / BP_NS_PER_S));
	snprintf(cfg, sizeof(cfg), "%s/grub.cfg", dir ? dir : "");
	if (!strcmp(until, "greeter"))
		snprintf(until_s, sizeof(until_s), "greeter (exec of %s), at most %llu s",
			 strchr(stop, '=') + 1, (unsigned long long)(duration / BP_NS_PER_S));
	else
		snprintf(until_s, sizeof(until_s), "%s, at most %llu s", until,
			 (unsigned long long)(duration / BP_NS_PER_S));
	if (dir) {
		script = bp_once_grub_script(kernel, all, cfg, until_s);
		if (!script) {
			bp_error("%s", bp_last_error());
			goto out_free;
		}
	}
	if (target) {
		unit = bp_once_stop_unit(target);
		if (bp_once_write(BP_ONCE_STOP_UNIT, unit, 0644) < 0) {
			bp_error("%s", bp_last_error());
			goto out_free;
		}
	}
	if (!dir) {
		if (sdboot_once(all, until_s))
			goto out_undo;
	} else if (bp_once_write(BP_ONCE_GRUB_SCRIPT, script, 0755) < 0) {
		bp_error("%s", bp_last_error());
		goto out_undo;
	} else if (grub_mkconfig(cfg) || grub_once(cfg, kernel)) {
		goto out_undo;
	}
	printf("the next boot is recorded, once: %s entry %s (kernel %s), stops at %s\n"
	       "the recording: " BP_BOOT_LOG_DIR "/latest.dat; 'bootprof boot --undo' "
	       "cancels\n",
	       dir ? "GRUB" : "systemd-boot", BP_ONCE_ID, kernel, until_s);
	ret = 0;
	goto out_free;
out_undo:
	undo(1);
	if (dir)
		grub_mkconfig(cfg);
out_free:
	free(words);
	free(missing);
	free(no_list);
	free(stop);
	free(all);
	free(script);
	free(unit);
	return ret;
}
