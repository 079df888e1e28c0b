/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_DEFAULT_FILE_H
#define BP_UTIL_DEFAULT_FILE_H

/*
 * The one rule for the recording a command reads when none is named
 * (report, top, dump ...): the newest boot recorded by `bootprof init` or
 * `bootprof collect`, else ./bootprof.dat (what `bootprof record` writes).
 */
#define BP_LATEST_RECORDING "/var/log/bootprof/latest.dat"
#define BP_LOCAL_RECORDING "bootprof.dat"

/* For usage texts: "FILE defaults to ..., else ./...". */
#define BP_DEFAULT_RECORDING_TEXT \
	"FILE defaults to " BP_LATEST_RECORDING ", else ./" BP_LOCAL_RECORDING ".\n"

/**
 * bp_default_recording() - the first of the default recordings that exists
 *
 * Return: a static path, or NULL with bp_set_error() naming what was tried
 * and how to make a recording.
 */
const char *bp_default_recording(void);

#endif
