/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_REDACT_H
#define BP_ANALYSIS_REDACT_H

struct bp_model;

/*
 * Redaction (report --redact): private strings of a recording replaced by
 * stable tokens, 8 hex digits of the string's 32-bit FNV-1a hash (no key),
 * so the same path gives the same token in every report and on every
 * machine. Numbers are never touched.
 */

/**
 * bp_redact_path() - a path fit for sharing
 * @path: a path (absolute or not)
 *
 * System paths (under /usr, /lib*, /bin, /sbin, /etc, /system, /vendor,
 * /apex, /opt) are kept; any other becomes "[path xxxxxxxx]".
 *
 * Return: a new string (caller frees).
 */
char *bp_redact_path(const char *path);

/**
 * bp_model_redact() - redact a model's strings in place
 * @m: a built model
 *
 * File and exec paths as bp_redact_path(), and the comm of a process that
 * exec'd a private program ("#xxxxxxxx"); the hostname, the recorded
 * command ("[host ...]", "[command ...]"); the kernel command line keeps
 * its words but every value (key=VALUE, and init's arguments after "--")
 * becomes "#xxxxxxxx"; paths inside the stop reason as bp_redact_path().
 */
void bp_model_redact(struct bp_model *m);

#endif
