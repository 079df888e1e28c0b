/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_UNIT_H
#define BP_UTIL_UNIT_H

#include <stddef.h>

/**
 * bp_unit_of_cgroup() - the systemd unit a cgroup path names
 * @path: cgroup path ("/system.slice/systemd-udevd.service/udev")
 * @buf: filled with the unit ("systemd-udevd.service"), NUL-terminated
 * @len: size of @buf
 *
 * systemd puts each unit's processes into a cgroup named after the unit:
 * the unit is the deepest component ending in .service, .scope, .socket,
 * .mount, .swap, .device, .timer or .target ("getty@tty1.service",
 * "init.scope"), else the deepest .slice.
 *
 * Return: 0, or -1 when the path names no unit (the root, a cgroup made
 * by hand) or it does not fit @buf.
 */
int bp_unit_of_cgroup(const char *path, char *buf, size_t len);

#endif
