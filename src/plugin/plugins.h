/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_PLUGIN_PLUGINS_H
#define BP_PLUGIN_PLUGINS_H

#include <stdio.h>
#include <sys/stat.h>

#include "analysis/model.h"
#include "bootprof/plugin.h"

/*
 * Running plugins (include/bootprof/plugin.h) for a command: the registry
 * of built-in plugins, loading external ones, and their output.
 *
 *   set = bp_plugins_load(&opts);          built-ins + trusted .so files
 *   bp_plugins_start(set, tep, machine);   each plugin's init
 *   bp_plugins_hooks(set, &hooks);         a hook of the model's pass (bp_session_build())
 *   bp_plugins_finish(set, model);         each plugin's model callback
 *   bp_plugins_doc(set)                    the views render its sections and JSON
 *   bp_plugins_free(set);
 *
 * Nothing here prints: warnings (refused plugins, failed callbacks) are
 * collected and the command prints them (bp_plugins_warnings()).
 */

struct tep_handle;
struct bp_doc;
struct bp_plugin_set;

/**
 * struct bp_plugin_opts - which plugins a command runs
 * @disabled: --no-plugins: no plugin at all (built-in or external)
 * @select: --plugin NAME[,NAME...]: only these; NULL: all
 * @opts: --plugin-opt NAME.KEY=VALUE strings, borrowed
 * @nopts: entries in @opts
 * @dirs: directories to load .so files from, in order, borrowed; NULL
 *        entries are skipped (bp_plugin_dirs() gives the default pair)
 * @ndirs: entries in @dirs
 */
struct bp_plugin_opts {
	int disabled;
	const char *select;
	const char *const *opts;
	size_t nopts;
	const char *const *dirs;
	size_t ndirs;
};

/* The built-in plugins, NULL-terminated. */
extern const struct bootprof_plugin *const bp_builtin_plugins[];

/**
 * bp_plugin_dirs() - the default plugin directories
 * @dirs: filled with the install's plugin directory (bp_install_plugin_dir(),
 *        beside the binary) and $BOOTPROF_PLUGIN_DIR (or NULL)
 *
 * Return: 2.
 */
size_t bp_plugin_dirs(const char *dirs[2]);

/**
 * bp_plugin_untrusted() - why a plugin file or directory must not be loaded
 * @st: its stat
 * @uid: the user running bootprof (geteuid())
 * @gid: that user's group (getegid())
 *
 * Refused: owned by neither root nor @uid, writable by others, or
 * group-writable for a group other than root's or @gid.
 *
 * Return: NULL when trusted, else the reason ("writable by others" ...),
 * static storage.
 */
const char *bp_plugin_untrusted(const struct stat *st, uid_t uid, gid_t gid);

/**
 * bp_plugins_load() - the plugins a command runs
 * @o: options
 *
 * Refused external plugins (untrusted, other ABI, no descriptor, a name
 * already loaded) become warnings, never errors.
 *
 * Return: a new set (bp_plugins_free()), or NULL with bp_set_error() when
 * @o names a plugin that does not exist or an option is malformed.
 */
struct bp_plugin_set *bp_plugins_load(const struct bp_plugin_opts *o);

/**
 * bp_plugins_add() - add one descriptor to a set (tests, the loader)
 * @set: set
 * @p: descriptor, borrowed for the set's lifetime
 * @origin: "built-in" or the .so path (copied)
 *
 * Return: 0, or -1 with bp_set_error() (other ABI, no name, duplicate name).
 */
int bp_plugins_add(struct bp_plugin_set *set, const struct bootprof_plugin *p, const char *origin);

/* The number of plugins in the set, and plugin i's descriptor and origin. */
size_t bp_plugins_count(const struct bp_plugin_set *set);
const struct bootprof_plugin *bp_plugins_get(const struct bp_plugin_set *set, size_t i,
					     const char **origin);

/**
 * bp_plugins_start() - run each plugin's init against a recording
 * @set: set (NULL: no-op)
 * @tep: the recording's event formats (bp_reader_tep())
 * @machine: the recording's architecture (uname -m, from its metadata), or
 *           NULL when unknown (x86_64 is assumed)
 *
 * A plugin whose init fails is dropped with a warning.
 */
void bp_plugins_start(struct bp_plugin_set *set, struct tep_handle *tep, const char *machine);

/**
 * bp_plugins_kallsyms() - the kernel symbols plugins' ksym() names addresses with
 * @set: set (NULL: no-op)
 * @text: the recording's kallsyms (bp_reader_kallsyms()), or NULL; parsed
 *        here, not kept
 */
void bp_plugins_kallsyms(struct bp_plugin_set *set, const char *text);

/**
 * bp_plugins_window() - the window the model counts (bootprof_event.in_window)
 * @set: set (NULL: no-op)
 * @since_ns: first instant counted, 0: from the start
 * @until_ns: last instant counted, 0: to the end
 */
void bp_plugins_window(struct bp_plugin_set *set, uint64_t since_ns, uint64_t until_ns);

/**
 * bp_plugins_hooks() - the hooks that feed plugins during the model's pass
 * @set: a started set (NULL: hooks that do nothing)
 * @hooks: filled: @event gives plugins their events, @span keeps the
 *         model's waits for host->waiting; pass both (a caller that
 *         drops @span leaves host->waiting with no waits to answer from)
 */
void bp_plugins_hooks(struct bp_plugin_set *set, struct bp_build_hooks *hooks);

/**
 * bp_plugins_finish() - run each plugin's model callback
 * @set: a started set (NULL: no-op)
 * @m: the finished model
 * @f: the views' filter (the traced command's tree by default), or NULL:
 *     plugins see only the processes it selects, their threads, accesses
 *     and execs, and the files they touched (with their part of each)
 */
struct bp_filter;
void bp_plugins_finish(struct bp_plugin_set *set, const struct bp_model *m,
		       const struct bp_filter *f);

/**
 * bp_plugins_doc() - what the plugins of a finished set have to show
 * @set: a finished set (NULL: NULL)
 *
 * Their sections in plugin order (each shown only when it has something),
 * and as its JSON an object with one member per plugin that ran, named
 * after it. The views render it after the report's own (doc/doc.h).
 *
 * Return: the set's document, valid until bp_plugins_free().
 */
const struct bp_doc *bp_plugins_doc(const struct bp_plugin_set *set);

/*
 * The marks the plugins gave through host->mark (for the timelines), in
 * the order given; owned by @set. Return: their number.
 */
size_t bp_plugins_marks(const struct bp_plugin_set *set, const struct bootprof_mark **out);
/* The name of the plugin that gave mark @i of bp_plugins_marks(), or NULL. */
const char *bp_plugins_mark_by(const struct bp_plugin_set *set, size_t i);

/**
 * bp_plugins_list() - the names of the plugins of a set, one per line
 * @set: set
 * @out: stream
 *
 * Names only: shell completion offers them as they are.
 */
void bp_plugins_list(const struct bp_plugin_set *set, FILE *out);

/*
 * Warnings collected so far, oldest first; bp_plugins_clear_warnings()
 * drops them once printed.
 */
size_t bp_plugins_nwarnings(const struct bp_plugin_set *set);
const char *bp_plugins_warning(const struct bp_plugin_set *set, size_t i);
void bp_plugins_clear_warnings(struct bp_plugin_set *set);

/* Free a set, its plugins' state and output, and unload .so files. NULL is a no-op. */
void bp_plugins_free(struct bp_plugin_set *set);

#endif
