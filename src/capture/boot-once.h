/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_BOOT_ONCE_H
#define BP_CAPTURE_BOOT_ONCE_H

#include <stddef.h>

/*
 * Recording the next boot only (bootprof-boot(1)): a boot loader entry of
 * its own that carries the tracing words and init=bootprof-init, booted
 * once (grub-reboot, bootctl set-oneshot) and removed by the recorder once
 * the recording is saved. The files written are the state: --status and
 * --undo read them, nothing else is kept.
 */

/* The entry's id (GRUB --id, systemd-boot's entry file bootprof-once.conf). */
#define BP_ONCE_ID "bootprof-once"
/* The word on the entry's command line that makes the recorder remove it. */
#define BP_ONCE_WORD "bootprof.once=1"
/* GRUB: the script grub-mkconfig runs; it is also the state. */
#define BP_ONCE_GRUB_SCRIPT "/etc/grub.d/42_bootprof"
/* A systemd target as the stop: a unit after it touches the stop file. */
#define BP_ONCE_STOP_UNIT "/etc/systemd/system/bootprof-once.service"
#define BP_ONCE_STOP_FILE "/run/bootprof-once.stop"
/* systemd-boot: the entry file, under the ESP or XBOOTLDR (/efi, /boot, /boot/efi). */
#define BP_ONCE_SDBOOT_ENTRY "loader/entries/" BP_ONCE_ID ".conf"

/* What a pending one-shot entry is, read back from its files. */
struct bp_once_state {
	char loader[16];     /* "grub", "systemd-boot"; "" when nothing is pending */
	char release[128];   /* the kernel it boots */
	char config[256];    /* grub.cfg, or the systemd-boot entry file */
	char until[128];     /* the stop, as bootprof-boot(1) says it */
};

/*
 * The /etc/grub.d script of the entry: at grub-mkconfig time it prints one
 * menuentry (--id bootprof-once) for kernel release, on the root device
 * grub-mkconfig found, with GRUB_CMDLINE_LINUX(_DEFAULT) and then words,
 * each word quoted for GRUB. config (grub.cfg) and until are noted in it
 * for bp_once_read(). NULL with bp_set_error() when a word cannot be
 * quoted; a heap string the caller frees.
 */
char *bp_once_grub_script(const char *release, const char *words, const char *config,
			  const char *until);

/*
 * A systemd-boot entry file (Boot Loader Specification type #1) made from
 * base, the text of the entry booted now: its title replaced, words
 * appended to its options, release, config (the file's own path) and
 * until noted in comments. NULL with bp_set_error() when base has no
 * linux line (a unified kernel image has no options to extend); a heap
 * string the caller frees.
 */
char *bp_once_sdboot_entry(const char *base, const char *words, const char *config,
			   const char *until);

/*
 * The unit that marks target reached (BP_ONCE_STOP_FILE), pulled in only
 * by systemd.wants= on the entry's command line. A heap string.
 */
char *bp_once_stop_unit(const char *target);

/*
 * Write text to path (mode), replacing it atomically (PATH.tmp, rename).
 * 0, or -1 with bp_set_error().
 */
int bp_once_write(const char *path, const char *text, unsigned mode);

/*
 * The pending entry under root ("" or "/"): the GRUB script, else the
 * systemd-boot entry file under /efi, /boot or /boot/efi; state->loader ""
 * when none. 0 or -1.
 */
int bp_once_read(const char *root, struct bp_once_state *state);

/*
 * Remove the entry under root: the GRUB script and its section of grub.cfg
 * (no grub-mkconfig: the recorder runs early in boot), or the systemd-boot
 * entry file; and the stop unit. *what is set to a static description of
 * what was removed ("" when nothing was). 0, or -1 with bp_set_error().
 */
int bp_once_remove(const char *root, const char **what);

/*
 * A small regular file (at most limit bytes) as a heap string; NULL with
 * errno (ENOENT: absent, EFBIG: larger) and no error set.
 */
char *bp_once_read_file(const char *path, size_t limit);

/* 1 when the running kernel's command line has BP_ONCE_WORD. */
int bp_once_booted(void);

#endif
