/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_INSTALL_H
#define BP_UTIL_INSTALL_H

#include <stddef.h>

/*
 * Where the installed files are, found from the running binary
 * (/proc/self/exe), so that `make` and `make install PREFIX=...` can be
 * run in any order and a staged DESTDIR tree works where it is: the
 * plugins of $PREFIX/bin/bootprof are in $PREFIX/lib/bootprof/plugins.
 * The paths compiled in (BOOTPROF_BINDIR, BOOTPROF_PLUGIN_DIR) are the
 * fallback when the binary is not in an installed tree (./build).
 */

/**
 * bp_self_relative() - "DIR/@rel" where DIR holds the running binary
 * Return: @buf, or NULL when /proc/self/exe cannot be read or @buf is short.
 */
const char *bp_self_relative(char *buf, size_t size, const char *rel);

/* The plugin directory of this install (a static string, never NULL). */
const char *bp_install_plugin_dir(void);

/*
 * The path to give as init= on the kernel command line: bootprof-init
 * beside the running binary when it is there, else in BOOTPROF_BINDIR.
 * Return: @buf.
 */
const char *bp_installed_init(char *buf, size_t size);

#endif
