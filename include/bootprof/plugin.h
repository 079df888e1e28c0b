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
 * describes its results once, as typed tables and values; bootprof lays
 * them out in every format (text, Markdown, JSON), escaping included.
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

/*
 * 2: typed tables and values (host->table/row/value_*, option_u64);
 *    ABI 1's text rows and json_* calls are gone, and ABI 1 plugins are
 *    refused with a message saying to rebuild them.
 * 3: host->waiting: when a set of processes waited on I/O and how much
 *    CPU sat idle meanwhile, as the model measured it.
 * 4: host->mark: moments and spans for the timelines (chart, export),
 *    typed, beside the report's tables. Appended to the host functions,
 *    so a plugin built for ABI 3 still loads (it never calls it).
 * 5: a boot's end as a plugin knows it (BOOTPROF_MARK_END), and the task
 *    of a mark (struct bootprof_mark.pid), appended to the mark: a plugin
 *    built for ABI 3 or 4 still loads (the host reads only the fields its
 *    marks have).
 */
#define BOOTPROF_PLUGIN_ABI 5

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
 * @in_window: 1 when @ts is inside the report's window (--since/--until);
 *             events outside it still build state (who forked whom) but,
 *             as in the model, should add to no counter
 * @priv: bootprof's; pass the event to host->field_u64()/field_str()
 *
 * Valid only during the event callback.
 */
struct bootprof_event {
	uint64_t ts;
	int cpu;
	int id;
	int pid;
	int in_window;
	const void *priv;
};

/* "No such object": an index that does not exist. */
#define BOOTPROF_NONE ((size_t)-1)

/*
 * Model snapshots, filled by the host. Strings belong to the model and stay
 * valid during the model callback. Times in ns, sizes in bytes; the meaning
 * of every number is that of bootprof report (bootprof-report(1)).
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

/*
 * One program exec'd in the window, and how often; its I/O wait and bytes
 * are the processes' while they ran it (from the execve to their next exec).
 */
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

/*
 * When a set of processes waited on I/O (host->waiting): their threads'
 * I/O waits as the model decided them (bootprof_process.wait_ns), merged
 * in time, so a moment two of them waited counts once.
 */
struct bootprof_waiting {
	uint64_t wall_ns;       /* wall time with at least one of them in an I/O wait */
	uint64_t idle_ns;       /* part of wall_ns with every CPU idle: CPU idle while they waited */
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

/**
 * enum bootprof_type - what a table cell or value holds, and how it shows
 * @BOOTPROF_TEXT: a string (.s; NULL: "-" in text, null in JSON)
 * @BOOTPROF_PATH: a file path (.s): shortened in the middle in text, never
 *                 in JSON, CSV or Markdown
 * @BOOTPROF_U64: a count (.u)
 * @BOOTPROF_I64: a signed integer (.i)
 * @BOOTPROF_NS: a duration in ns (.u): "12.3 ms" in text, ns in JSON
 * @BOOTPROF_BYTES: a size in bytes (.u): "1.5 MiB" in text, bytes in JSON
 * @BOOTPROF_TIME: an instant in ns on the recording's clock (.u):
 *                 "5.123456" seconds in text, ns in JSON
 * @BOOTPROF_DOUBLE: a real number (.d): one decimal in text, three in JSON
 * @BOOTPROF_BOOL: true or false (.b): "yes"/"no" in text
 */
enum bootprof_type {
	BOOTPROF_TEXT,
	BOOTPROF_PATH,
	BOOTPROF_U64,
	BOOTPROF_I64,
	BOOTPROF_NS,
	BOOTPROF_BYTES,
	BOOTPROF_TIME,
	BOOTPROF_DOUBLE,
	BOOTPROF_BOOL,
};

/* One cell or value; which member is set follows its enum bootprof_type. */
union bootprof_value {
	uint64_t u;
	int64_t i;
	double d;
	const char *s;
	int b;
};

/**
 * struct bootprof_column - one column of a plugin's table, declared once
 * @title: its heading in text and Markdown; NULL: JSON only
 * @key: its member name in each JSON row object; NULL: text only
 * @type: what its cells hold
 */
struct bootprof_column {
	const char *title;
	const char *key;
	enum bootprof_type type;
};

/**
 * struct bootprof_table_spec - a table: its columns and where it goes
 * @key: the JSON array that holds its rows (one object per row, keyed by
 *       the columns' keys), in the current JSON object; NULL: text only
 * @columns: @ncols columns
 * @ncols: columns
 * @top: rows shown in text and Markdown (0: all), followed by a line
 *       saying how many more there are; JSON always has every row
 */
struct bootprof_table_spec {
	const char *key;
	const struct bootprof_column *columns;
	size_t ncols;
	size_t top;
};

enum bootprof_table {
	BOOTPROF_PROCESSES,
	BOOTPROF_FILES,
	BOOTPROF_ACCESSES,
	BOOTPROF_EXECS,
	BOOTPROF_THREADS,
};

/**
 * struct bootprof_mark - a moment or a span for the timelines (host->mark)
 * @kind: BOOTPROF_MARK_PHASE: a boundary at @ns, a line across the chart
 *        labelled @name ("initramfs /init", "boot completed");
 *        BOOTPROF_MARK_SPAN: [@ns, @ns + @duration_ns], a bar in the
 *        plugin's strip (an initcall);
 *        BOOTPROF_MARK_END (ABI 5): the instant the boot is done as the
 *        plugin knows it ("boot completed"): a phase line, and the end
 *        `bootprof critical` walks back from by default (the latest
 *        such mark of any plugin)
 * @ns: when, on the recording clock (the events' timestamps)
 * @duration_ns: a span's length; 0 for a phase
 * @name: what it is (copied)
 * @detail: a span's group in its strip (an initcall's level), or NULL (copied)
 * @pid: (ABI 5) the task whose event @ns is (it wrote the line, it
 *       exited), 0 when none; an END mark without one is not an end
 */
enum bootprof_mark_kind {
	BOOTPROF_MARK_PHASE,
	BOOTPROF_MARK_SPAN,
	BOOTPROF_MARK_END,
};

struct bootprof_mark {
	enum bootprof_mark_kind kind;
	uint64_t ns;
	uint64_t duration_ns;
	const char *name;
	const char *detail;
	/* ABI 5 */
	int pid;
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
 *        ("name+0xoff" when inside one: below the next symbol's address,
 *        as kallsyms has no sizes), or NULL when unknown; static storage
 *        until the next call
 *
 * Options (--plugin-opt NAME.KEY=VALUE; every option a plugin reads must
 * be listed in its descriptor's @options):
 * @option: the value of KEY, or NULL when not given
 * @option_u64: KEY as a non-negative integer, @def when not given; a value
 *              that is not one is warned about ("plugin 'NAME': option
 *              KEY='VALUE' is not a number; using DEF") and @def is used
 * @match: 1 when @s matches one of the comma-separated fnmatch(3) @patterns
 * @unit_of_cgroup: the systemd unit a cgroup path names, into @buf: the
 *                  deepest component ending in .service, .scope, .socket,
 *                  .mount, .swap, .device, .timer or .target, else the
 *                  deepest .slice; 0, or -1 when it names none (or does not
 *                  fit @len); the report's services use the same rule
 *
 * The model (in the model callback). It is the report's selection: the
 * processes its filter selects (the traced command's process tree for a
 * `bootprof record -- CMD` recording unless --all; --pid, --comm, --file),
 * their threads, accesses and execs, and the files they touched, whose
 * bytes_read, wait_ns and nreaders are those processes' part; totals are
 * the whole window's. Events are every event: a plugin that counts
 * events keeps those of the model's processes (match bootprof_event.pid
 * and the time against a process's pid, start_ns and exit_ns):
 * @count: number of objects in a table
 * @process, @file, @access, @exec, @thread: fill @out with object @i;
 *          return 0, or -1 when @i is out of range
 * @totals: the window's totals
 * @waiting: when the processes @in marks waited on I/O (@in: one byte per
 *           process, count(m, BOOTPROF_PROCESSES) of them, non-zero: in the
 *           set), into @out: their threads' I/O waits, each from its sleep
 *           to its wakeup as the model decided it, and the CPU idle
 *           meanwhile. Return 0, or -1 when bootprof did not follow the
 *           waits (the model was not built by the pass that fed the
 *           plugins)
 *
 * Output (in the model callback; rendered in every format, never print).
 * Text goes into sections; JSON into the plugin's object (plugins.NAME):
 * @section: start a section titled @title (text and Markdown); it is shown
 *           only when something is added to it, so a plugin with nothing
 *           to say shows nothing
 * @line: a line of text in the current section, before its table (printf
 *        format); text and Markdown only
 * @table: start a table: in the current section when any column has a
 *         title (a section holds one table; the next table starts a new
 *         section with the same title), and as the array @spec->key in the
 *         current JSON object. @spec is copied.
 * @row: one row of the current table: @values[i] for column i. In JSON the
 *       row's object stays current until the next row or table_end, so
 *       value_*() and a nested table (columns without titles: JSON only)
 *       can add to it.
 * @table_end: end the current table (and its current row); tables still
 *             open when the model callback returns are ended
 * @object_begin: open a JSON object named @key in the current one
 * @object_end: close it
 * @value_u64, @value_i64, @value_double, @value_str (NULL: null),
 * @value_bool: a member of the current JSON object (or row)
 * @warn: a warning, shown once on stderr by the command
 *
 * Formatting, for lines (write into @buf, at least 32 bytes; return @buf):
 * @fmt_ns: "1.25 s", "12.3 ms" ...
 * @fmt_bytes: "1.5 MiB", "4.0 KiB", "512 B"
 *
 * For the timelines (any callback; ignored by the report):
 * @mark: a moment or a span (struct bootprof_mark) for chart and export
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
	uint64_t (*option_u64)(struct bootprof_ctx *ctx, const char *key, uint64_t def);
	int (*match)(const char *patterns, const char *s);
	int (*unit_of_cgroup)(const char *path, char *buf, size_t len);

	size_t (*count)(const struct bootprof_model *m, enum bootprof_table table);
	int (*process)(const struct bootprof_model *m, size_t i, struct bootprof_process *out);
	int (*file)(const struct bootprof_model *m, size_t i, struct bootprof_file *out);
	int (*access)(const struct bootprof_model *m, size_t i, struct bootprof_access *out);
	int (*exec)(const struct bootprof_model *m, size_t i, struct bootprof_exec *out);
	int (*thread)(const struct bootprof_model *m, size_t i, struct bootprof_thread *out);
	void (*totals)(const struct bootprof_model *m, struct bootprof_totals *out);
	int (*waiting)(const struct bootprof_model *m, const unsigned char *in,
		       struct bootprof_waiting *out);

	void (*section)(struct bootprof_ctx *ctx, const char *title);
	void (*line)(struct bootprof_ctx *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	void (*table)(struct bootprof_ctx *ctx, const struct bootprof_table_spec *spec);
	void (*row)(struct bootprof_ctx *ctx, const union bootprof_value *values);
	void (*table_end)(struct bootprof_ctx *ctx);
	void (*object_begin)(struct bootprof_ctx *ctx, const char *key);
	void (*object_end)(struct bootprof_ctx *ctx);
	void (*value_u64)(struct bootprof_ctx *ctx, const char *key, uint64_t v);
	void (*value_i64)(struct bootprof_ctx *ctx, const char *key, int64_t v);
	void (*value_double)(struct bootprof_ctx *ctx, const char *key, double v);
	void (*value_str)(struct bootprof_ctx *ctx, const char *key, const char *v);
	void (*value_bool)(struct bootprof_ctx *ctx, const char *key, int v);
	void (*warn)(struct bootprof_ctx *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));

	const char *(*fmt_ns)(char *buf, uint64_t ns);
	const char *(*fmt_bytes)(char *buf, uint64_t bytes);

	/* ABI 4 */
	void (*mark)(struct bootprof_ctx *ctx, const struct bootprof_mark *mark);
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
 * @model: once, with the finished model: its sections, tables and values;
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
