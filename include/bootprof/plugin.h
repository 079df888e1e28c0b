/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BOOTPROF_PLUGIN_H
#define BOOTPROF_PLUGIN_H

/*
 * The bootprof plugin ABI: the only public header of bootprof (see
 * bootprof-plugins(7)).
 *
 * A plugin exports one constant descriptor, struct bootprof_plugin. Plugins
 * shipped with bootprof are linked into the program and use the same
 * descriptor; external ones are shared objects loaded from the plugin
 * directory. A plugin never sees tracefs, the recording file or stdout: it
 * reads events and the model through the host functions in its context and
 * appends to its report section, which every output format renders.
 *
 * Build an external plugin:
 *   cc -shared -fPIC -I/usr/local/include -o myplugin.so myplugin.c
 *
 * and define its descriptor with BOOTPROF_PLUGIN(myplugin) = { ... }.
 *
 * Everything below is fixed for one BOOTPROF_PLUGIN_ABI value; a plugin
 * built against another value is refused by the loader.
 */

#include <stddef.h>
#include <stdint.h>

#define BOOTPROF_PLUGIN_ABI 1

/* The symbol an external plugin exports (its descriptor). */
#define BOOTPROF_PLUGIN_SYMBOL "bootprof_plugin"

/*
 * BOOTPROF_PLUGIN(name) = { ... };  defines the descriptor. Built into
 * bootprof (BOOTPROF_BUILTIN defined) it is bootprof_builtin_NAME; in a
 * shared object it is the exported symbol bootprof_plugin.
 */
#ifdef BOOTPROF_BUILTIN
#define BOOTPROF_PLUGIN(name)                                           \
	extern const struct bootprof_plugin bootprof_builtin_##name;    \
	const struct bootprof_plugin bootprof_builtin_##name
#else
#define BOOTPROF_PLUGIN(name)                                           \
	extern const struct bootprof_plugin bootprof_plugin;            \
	__attribute__((visibility("default"))) const struct bootprof_plugin bootprof_plugin
#endif

struct bootprof_host;
struct bootprof_field; /* a field of one event format (opaque) */
struct bootprof_model; /* the finished model (opaque; read it with the host) */

/**
 * struct bootprof_ctx - one plugin's run
 * @host: the functions a plugin calls (events, options, model, output)
 * @priv: the plugin's own state; set by init, freed by release
 *
 * Allocated by bootprof; the plugin only sets @priv.
 */
struct bootprof_ctx {
	const struct bootprof_host *host;
	void *priv;
};

/**
 * struct bootprof_event - one event of the merged, time-ordered stream
 * @ts: ns on the recording's clock (boot clock: since boot)
 * @cpu: the CPU that recorded it
 * @id: event id; compare with host->event_id()
 * @pid: common_pid, the task that was running
 * @priv: bootprof's; pass the event to host->field_u64()/field_str()
 *
 * Valid only during the event callback.
 */
struct bootprof_event {
	uint64_t ts;
	int cpu;
	int id;
	int pid;
	const void *priv;
};

/* "No such object": an index that does not exist. */
#define BOOTPROF_NONE ((size_t)-1)

/*
 * Model snapshots, filled by the host. Strings belong to the model and stay
 * valid during the model callback. Times in ns, sizes in bytes; the meaning
 * of every number is that of bootprof report (DESIGN §6).
 */
struct bootprof_process {
	size_t parent;          /* index of the parent process, or BOOTPROF_NONE */
	int pid;                /* tgid */
	int ppid;
	char comm[16];
	const char *exec;       /* last exec'd path, or NULL */
	size_t nexec;
	uint64_t start_ns;      /* 0: before the recording */
	uint64_t exit_ns;       /* 0: alive at the end */
	uint64_t wait_ns;       /* I/O wait */
	uint64_t run_ns;        /* CPU time */
	uint64_t bytes_read;    /* read from storage */
	uint64_t tree_wait_ns;
	uint64_t tree_bytes_read;
	size_t nthreads;
	size_t nfiles;
};

struct bootprof_file {
	const char *path;
	uint32_t dev;           /* kernel encoding: major = dev >> 20 */
	uint64_t ino;
	int metadata;           /* filesystem metadata of a disk */
	int resolved;           /* path known from the recording */
	uint64_t bytes_read;
	uint64_t wait_ns;
	uint64_t used_bytes;
	uint64_t never_used_bytes;
	uint64_t reread_bytes;
	uint64_t size_pages;    /* highest page index seen + 1 */
	uint64_t first_ns;
	uint64_t last_ns;
	size_t nreaders;
};

/* What one process did with one file. */
struct bootprof_access {
	size_t process;         /* process index */
	size_t file;            /* file index */
	uint64_t wait_ns;
	uint64_t bytes_read;
	uint64_t first_ns;
	uint64_t last_ns;
};

/* One program exec'd in the window, and how often. */
struct bootprof_exec {
	const char *path;
	uint64_t count;
	uint64_t wait_ns;
	uint64_t bytes_read;
};

/* One thread (tid) and its process. */
struct bootprof_thread {
	int tid;
	size_t process;         /* process index */
	char comm[16];
	uint64_t wait_ns;
	uint64_t run_ns;
};

struct bootprof_totals {
	uint64_t read_bytes;
	uint64_t wait_ns;
	uint64_t idle_wait_ns;  /* all CPUs idle while someone waited on I/O */
	uint64_t used_bytes;
	uint64_t never_used_bytes;
	int access_available;   /* used/never-used measured (kernel >= 6.12) */
	uint64_t first_ns;
	uint64_t last_ns;
	uint64_t span_ns;
	uint64_t lost_events;
	int ncpus;
	unsigned page_size;
};

/* What a syscall does, for telling I/O waits from other sleeps. */
enum bootprof_syscall {
	BOOTPROF_SYS_READ,      /* read, pread64, readv, sendfile, splice, readahead ... */
	BOOTPROF_SYS_OPEN_STAT, /* open(at), stat family, access, readlink */
	BOOTPROF_SYS_EXEC,      /* execve, execveat */
	BOOTPROF_SYS_GETDENTS,  /* getdents(64) */
	BOOTPROF_SYS_OTHER,
};

enum bootprof_table {
	BOOTPROF_PROCESSES,
	BOOTPROF_FILES,
	BOOTPROF_ACCESSES,
	BOOTPROF_EXECS,
	BOOTPROF_THREADS,
};

/**
 * struct bootprof_host - what bootprof offers a plugin
 *
 * Events (from init, once; ids and fields are stable for the run):
 * @event_id: id of SYSTEM:NAME in the recording, or -1 when it was not recorded
 * @field: a field of event @id, or NULL when the format has none by that name
 * @field_u64: an integer field of @ev (0 when @field is NULL)
 * @field_str: a string field of @ev copied into @buf (NUL-terminated);
 *             returns its length
 * @ncpus: CPUs of the recording
 * @syscall: what syscall number @nr (raw_syscalls id) does on the
 *           recording's architecture
 * @ksym: the kernel symbol at @addr from the recording's kallsyms
 *        ("name+0xoff" when inside one), or NULL when unknown; static
 *        storage until the next call
 *
 * Options (--plugin-opt NAME.KEY=VALUE):
 * @option: the value of KEY, or NULL when not given
 * @match: 1 when @s matches one of the comma-separated fnmatch(3) @patterns
 *
 * The model (in the model callback):
 * @count: number of objects in a table
 * @process, @file, @access, @exec, @thread: fill @out with object @i;
 *          return 0, or -1 when @i is out of range
 * @totals: the window's totals
 *
 * Output (the report section; never print):
 * @section: start the plugin's text section with a title
 * @line: a line of text in the section (printf format)
 * @table: start a table: @ncols columns, @head titles, @align 'l'/'r' each
 * @row: one row of @ncols cells
 * @json_open: open an object ('{') or array ('[') named @key (NULL inside
 *             an array), under the plugin's own JSON object
 * @json_close: close the innermost open object or array
 * @json_u64, @json_i64, @json_double, @json_str (NULL: null), @json_bool:
 *          a member
 * @warn: a warning, shown once on stderr by the command
 *
 * Formatting for sections (write into @buf, at least 32 bytes; return @buf):
 * @fmt_ns: "1.234 s", "12.3 ms" ...
 * @fmt_bytes: "1.5 MiB", "4.0 KiB", "512 B"
 */
struct bootprof_host {
	int (*event_id)(struct bootprof_ctx *ctx, const char *system, const char *name);
	const struct bootprof_field *(*field)(struct bootprof_ctx *ctx, int id, const char *name);
	uint64_t (*field_u64)(const struct bootprof_event *ev, const struct bootprof_field *field);
	size_t (*field_str)(const struct bootprof_event *ev, const struct bootprof_field *field,
			    char *buf, size_t len);
	int (*ncpus)(struct bootprof_ctx *ctx);
	enum bootprof_syscall (*syscall)(struct bootprof_ctx *ctx, long nr);
	const char *(*ksym)(struct bootprof_ctx *ctx, uint64_t addr);

	const char *(*option)(struct bootprof_ctx *ctx, const char *key);
	int (*match)(const char *patterns, const char *s);

	size_t (*count)(const struct bootprof_model *m, enum bootprof_table table);
	int (*process)(const struct bootprof_model *m, size_t i, struct bootprof_process *out);
	int (*file)(const struct bootprof_model *m, size_t i, struct bootprof_file *out);
	int (*access)(const struct bootprof_model *m, size_t i, struct bootprof_access *out);
	int (*exec)(const struct bootprof_model *m, size_t i, struct bootprof_exec *out);
	int (*thread)(const struct bootprof_model *m, size_t i, struct bootprof_thread *out);
	void (*totals)(const struct bootprof_model *m, struct bootprof_totals *out);

	void (*section)(struct bootprof_ctx *ctx, const char *title);
	void (*line)(struct bootprof_ctx *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	void (*table)(struct bootprof_ctx *ctx, size_t ncols, const char *const *head,
		      const char *align);
	void (*row)(struct bootprof_ctx *ctx, const char *const *cells);
	void (*json_open)(struct bootprof_ctx *ctx, const char *key, char bracket);
	void (*json_close)(struct bootprof_ctx *ctx);
	void (*json_u64)(struct bootprof_ctx *ctx, const char *key, uint64_t v);
	void (*json_i64)(struct bootprof_ctx *ctx, const char *key, int64_t v);
	void (*json_double)(struct bootprof_ctx *ctx, const char *key, double v);
	void (*json_str)(struct bootprof_ctx *ctx, const char *key, const char *v);
	void (*json_bool)(struct bootprof_ctx *ctx, const char *key, int v);
	void (*warn)(struct bootprof_ctx *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));

	const char *(*fmt_ns)(char *buf, uint64_t ns);
	const char *(*fmt_bytes)(char *buf, uint64_t bytes);
};

/**
 * struct bootprof_plugin - the descriptor (one per plugin, const)
 * @abi: BOOTPROF_PLUGIN_ABI; first, so any version can be checked
 * @name: short lower-case name: its report section, JSON key
 *        (plugins.NAME) and option prefix (NAME.KEY=VALUE)
 * @summary: one line for --list-plugins
 * @events: "system:event" names it wants, NULL-terminated; its event
 *          callback sees only these
 * @options: "KEY=VALUE  help" lines, NULL-terminated, or NULL
 * @json_keys: the keys it writes in its JSON object, NULL-terminated
 * @init: before the pass: resolve event ids and fields, read options, set
 *        ctx->priv; return 0, or -1 to skip the plugin (with a warning)
 * @event: every wanted event, in time order, during the model's pass
 * @model: once, with the finished model: write the section and JSON;
 *         return 0, or -1 when it failed (its output is dropped, warned)
 * @release: free ctx->priv (also after a failed init or model)
 *
 * Any callback may be NULL.
 */
struct bootprof_plugin {
	unsigned abi;
	const char *name;
	const char *summary;
	const char *const *events;
	const char *const *options;
	const char *const *json_keys;
	int (*init)(struct bootprof_ctx *ctx);
	void (*event)(struct bootprof_ctx *ctx, const struct bootprof_event *ev);
	int (*model)(struct bootprof_ctx *ctx, const struct bootprof_model *m);
	void (*release)(struct bootprof_ctx *ctx);
};

#endif
