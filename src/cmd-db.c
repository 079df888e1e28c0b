// SPDX-License-Identifier: GPL-2.0
/*
 * bootprof db add DB FILE... / db export DB TABLE / db schema: many boots
 * from many machines in one SQLite database, with the schema documented in
 * bootprof-db(1) and versioned (PRAGMA user_version and meta.schema_version).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analysis/summary.h"
#include "builtin.h"
#include "doc/format.h"
#include "util/error.h"
#include "util/parse-options.h"
#include "util/xalloc.h"

#define SCHEMA_VERSION 2
#define MAX_PHASES 32

static const char *const db_synopsis[] = {
	"bootprof db add [--phase NAME=END] [--all] DB FILE...",
	"bootprof db export [--format FMT] DB TABLE",
	"bootprof db schema [--clickhouse]",
	NULL,
};

static const struct bp_usage db_usage = {
	"db",
	db_synopsis,
	"A database of many boots: 'add' appends recordings to the SQLite database DB\n"
	"(created when missing), one transaction each; a recording already in it (same\n"
	"content) or one that cannot be read is refused with one line and leaves the\n"
	"database unchanged. 'export' writes one table (recordings, phases, processes,\n"
	"files, services) as CSV or JSON Lines, for a warehouse. 'schema' prints the\n"
	"tables (see bootprof-db(1)).\n",
	NULL,
	"@recording",
};

/*
 * Schema 1 called a process's, file's and service's bytes read_bytes;
 * JSON and CSV call them bytes_read, and so does schema 2. Queries written
 * for schema 1 keep working on these views.
 */
#define V1_VIEWS                                                                                \
	"CREATE VIEW IF NOT EXISTS processes_v1 AS SELECT recording_id, comm, exec, count,\n"    \
	"  span_ns, wait_ns, bytes_read AS read_bytes FROM processes;\n"                        \
	"CREATE VIEW IF NOT EXISTS files_v1 AS SELECT recording_id, path, span_ns, wait_ns,\n"   \
	"  bytes_read AS read_bytes, never_used_bytes FROM files;\n"                            \
	"CREATE VIEW IF NOT EXISTS services_v1 AS SELECT recording_id, path, count, wait_ns,\n"  \
	"  bytes_read AS read_bytes FROM services;\n"

/* A database of schema 1, opened to add to it, becomes schema 2. */
static const char migrate_v1_sql[] =
	"ALTER TABLE processes RENAME COLUMN read_bytes TO bytes_read;\n"
	"ALTER TABLE files RENAME COLUMN read_bytes TO bytes_read;\n"
	"ALTER TABLE services RENAME COLUMN read_bytes TO bytes_read;\n"
	V1_VIEWS;

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS meta (\n"
	"  key TEXT PRIMARY KEY,\n"
	"  value TEXT NOT NULL\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS recordings (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  content_hash TEXT NOT NULL UNIQUE,\n"
	"  file TEXT NOT NULL,\n"
	"  added_at INTEGER NOT NULL,\n"
	"  recorded_at INTEGER,\n"
	"  host TEXT,\n"
	"  kernel TEXT,\n"
	"  machine TEXT,\n"
	"  cmdline_hash TEXT,\n"
	"  bootprof_version TEXT,\n"
	"  boot_ns INTEGER NOT NULL,\n"
	"  span_ns INTEGER NOT NULL,\n"
	"  lost_events INTEGER NOT NULL,\n"
	"  read_bytes INTEGER NOT NULL,\n"
	"  wait_ns INTEGER NOT NULL,\n"
	"  idle_wait_ns INTEGER NOT NULL,\n"
	"  used_bytes INTEGER,\n"
	"  never_used_bytes INTEGER\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS phases (\n"
	"  recording_id INTEGER NOT NULL REFERENCES recordings(id),\n"
	"  name TEXT NOT NULL,\n"
	"  reached INTEGER NOT NULL,\n"
	"  duration_ns INTEGER NOT NULL,\n"
	"  wait_ns INTEGER NOT NULL,\n"
	"  read_bytes INTEGER NOT NULL,\n"
	"  idle_wait_ns INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS processes (\n"
	"  recording_id INTEGER NOT NULL REFERENCES recordings(id),\n"
	"  comm TEXT NOT NULL,\n"
	"  exec TEXT,\n"
	"  count INTEGER NOT NULL,\n"
	"  span_ns INTEGER NOT NULL,\n"
	"  wait_ns INTEGER NOT NULL,\n"
	"  bytes_read INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS files (\n"
	"  recording_id INTEGER NOT NULL REFERENCES recordings(id),\n"
	"  path TEXT NOT NULL,\n"
	"  span_ns INTEGER NOT NULL,\n"
	"  wait_ns INTEGER NOT NULL,\n"
	"  bytes_read INTEGER NOT NULL,\n"
	"  never_used_bytes INTEGER\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS services (\n"
	"  recording_id INTEGER NOT NULL REFERENCES recordings(id),\n"
	"  path TEXT NOT NULL,\n"
	"  count INTEGER NOT NULL,\n"
	"  wait_ns INTEGER NOT NULL,\n"
	"  bytes_read INTEGER NOT NULL\n"
	");\n"
	"CREATE INDEX IF NOT EXISTS recordings_host ON recordings(host);\n"
	"CREATE INDEX IF NOT EXISTS recordings_kernel ON recordings(kernel);\n"
	"CREATE INDEX IF NOT EXISTS phases_recording ON phases(recording_id);\n"
	"CREATE INDEX IF NOT EXISTS phases_name ON phases(name);\n"
	"CREATE INDEX IF NOT EXISTS processes_recording ON processes(recording_id);\n"
	"CREATE INDEX IF NOT EXISTS processes_comm ON processes(comm);\n"
	"CREATE INDEX IF NOT EXISTS files_recording ON files(recording_id);\n"
	"CREATE INDEX IF NOT EXISTS files_path ON files(path);\n"
	"CREATE INDEX IF NOT EXISTS services_recording ON services(recording_id);\n"
	"CREATE INDEX IF NOT EXISTS services_path ON services(path);\n"
	V1_VIEWS;

static const char clickhouse_sql[] =
	"-- ClickHouse: the same tables, loaded with\n"
	"--   bootprof db export --format jsonl fleet.db files |\n"
	"--     clickhouse-client --query 'INSERT INTO bootprof.files FORMAT JSONEachRow'\n"
	"-- recording ids are per SQLite file: load each database into its own\n"
	"-- range, or add a column naming the database.\n"
	"CREATE TABLE bootprof.recordings (\n"
	"  id UInt64, content_hash String, file String, added_at Int64,\n"
	"  recorded_at Nullable(Int64), host Nullable(String), kernel Nullable(String),\n"
	"  machine Nullable(String), cmdline_hash Nullable(String),\n"
	"  bootprof_version Nullable(String), boot_ns UInt64, span_ns UInt64,\n"
	"  lost_events UInt64, read_bytes UInt64, wait_ns UInt64, idle_wait_ns UInt64,\n"
	"  used_bytes Nullable(UInt64), never_used_bytes Nullable(UInt64)\n"
	") ENGINE = MergeTree ORDER BY (id);\n"
	"CREATE TABLE bootprof.phases (\n"
	"  recording_id UInt64, name String, reached UInt8, duration_ns UInt64,\n"
	"  wait_ns UInt64, read_bytes UInt64, idle_wait_ns UInt64\n"
	") ENGINE = MergeTree ORDER BY (name, recording_id);\n"
	"CREATE TABLE bootprof.processes (\n"
	"  recording_id UInt64, comm String, exec Nullable(String), count UInt64,\n"
	"  span_ns UInt64, wait_ns UInt64, bytes_read UInt64\n"
	") ENGINE = MergeTree ORDER BY (comm, recording_id);\n"
	"CREATE TABLE bootprof.files (\n"
	"  recording_id UInt64, path String, span_ns UInt64, wait_ns UInt64,\n"
	"  bytes_read UInt64, never_used_bytes Nullable(UInt64)\n"
	") ENGINE = MergeTree ORDER BY (path, recording_id);\n"
	"CREATE TABLE bootprof.services (\n"
	"  recording_id UInt64, path String, count UInt64, wait_ns UInt64, bytes_read UInt64\n"
	") ENGINE = MergeTree ORDER BY (path, recording_id);\n";

static const char *const tables[] = { "recordings", "phases", "processes", "files", "services",
				      NULL };

/* FNV-1a, 64 bits: the identity of a recording's bytes (with its size). */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static int content_hash(const char *path, char *out, size_t len, int64_t *mtime)
{
	static unsigned char buf[1 << 16];
	uint64_t h = 0xcbf29ce484222325ull, size = 0;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		bp_set_error_errno("cannot open '%s'", path);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		h = fnv1a(h, buf, (size_t)n);
		size += (uint64_t)n;
	}
	if (n < 0 || fstat(fd, &st)) {
		bp_set_error_errno("cannot read '%s'", path);
		close(fd);
		return -1;
	}
	close(fd);
	*mtime = (int64_t)st.st_mtime;
	snprintf(out, len, "fnv1a64:%016" PRIx64 ":%" PRIu64, h, size);
	return 0;
}

static int db_error(sqlite3 *db, const char *what, const char *path)
{
	bp_set_error("%s '%s': %s", what, path, sqlite3_errmsg(db));
	return -1;
}

static int exec_sql(sqlite3 *db, const char *sql, const char *path)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		bp_set_error("database '%s': %s", path, err ? err : "error");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* Run @sql and stamp the current schema version, in one transaction. */
static int to_current(sqlite3 *db, const char *path, const char *sql)
{
	char *all = xasprintf("BEGIN IMMEDIATE;\n%s"
			      "INSERT OR REPLACE INTO meta VALUES ('schema_version', '%d');\n"
			      "PRAGMA user_version = %d;\nCOMMIT;",
			      sql, SCHEMA_VERSION, SCHEMA_VERSION);
	int rc = exec_sql(db, all, path);

	free(all);
	if (rc)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static sqlite3 *open_db(const char *path, int create)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	int version = -1;

	if (sqlite3_open_v2(path, &db, create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE :
						SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		db_error(db, "cannot open database", path);
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			version = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	if (version < 0) {
		db_error(db, "cannot read database", path);
		goto fail;
	}
	if (version > SCHEMA_VERSION) {
		bp_set_error("database '%s' has schema version %d; this bootprof knows %d", path,
			     version, SCHEMA_VERSION);
		goto fail;
	}
	if (version == 0 && !create) {
		bp_set_error("'%s' is not a bootprof database", path);
		goto fail;
	}
	/* A new database gets the schema; one of schema 1 opened to add to, the new names. */
	if ((version == 0 || version == 1) && create &&
	    to_current(db, path, version ? migrate_v1_sql : schema_sql))
		goto fail;
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
	sqlite3_bind_int64(st, i, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

/* Run a prepared insert with its bindings; reset it for the next row. */
static int step(sqlite3 *db, sqlite3_stmt *st, const char *path)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : db_error(db, "cannot write to database", path);
}

static int insert_rows(sqlite3 *db, const char *dbpath, sqlite3_int64 id,
		       const struct bp_summary *s)
{
	static const char *const sql[BP_NROW_KINDS] = {
		"INSERT INTO phases VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		"INSERT INTO processes VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		"INSERT INTO files VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
		"INSERT INTO services VALUES (?1, ?2, ?3, ?4, ?5)",
	};
	sqlite3_stmt *st[BP_NROW_KINDS] = { 0 };
	size_t i;
	int k, rc = -1;

	for (k = 0; k < BP_NROW_KINDS; k++) {
		if (sqlite3_prepare_v2(db, sql[k], -1, &st[k], NULL) != SQLITE_OK) {
			db_error(db, "cannot write to database", dbpath);
			goto out;
		}
	}
	for (i = 0; i < s->nrows; i++) {
		const struct bp_summary_row *r = &s->rows[i];
		sqlite3_stmt *q = st[r->kind];

		sqlite3_bind_int64(q, 1, id);
		switch (r->kind) {
		case BP_ROW_PHASE:
			bind_text(q, 2, r->key);
			sqlite3_bind_int(q, 3, r->reached);
			bind_u64(q, 4, r->span_ns);
			bind_u64(q, 5, r->wait_ns);
			bind_u64(q, 6, r->bytes);
			bind_u64(q, 7, r->idle_wait_ns);
			break;
		case BP_ROW_PROCESS:
			bind_text(q, 2, r->comm);
			bind_text(q, 3, r->exec);
			bind_u64(q, 4, r->count);
			bind_u64(q, 5, r->span_ns);
			bind_u64(q, 6, r->wait_ns);
			bind_u64(q, 7, r->bytes);
			break;
		case BP_ROW_FILE:
			bind_text(q, 2, r->key);
			bind_u64(q, 3, r->span_ns);
			bind_u64(q, 4, r->wait_ns);
			bind_u64(q, 5, r->bytes);
			if (s->access_missing)
				sqlite3_bind_null(q, 6);
			else
				bind_u64(q, 6, r->never_used_bytes);
			break;
		case BP_ROW_SERVICE:
			bind_text(q, 2, r->key);
			bind_u64(q, 3, r->count);
			bind_u64(q, 4, r->wait_ns);
			bind_u64(q, 5, r->bytes);
			break;
		case BP_NROW_KINDS:
			break;
		}
		if (step(db, q, dbpath))
			goto out;
	}
	rc = 0;
out:
	for (k = 0; k < BP_NROW_KINDS; k++)
		sqlite3_finalize(st[k]);
	return rc;
}

/* One recording, one transaction: all of it or nothing. 1: already there. */
static int add_one(sqlite3 *db, const char *dbpath, const char *file,
		   const struct bp_summary_opts *so)
{
	char hash[64], cmdline_hash[32];
	struct bp_summary *s = NULL;
	sqlite3_stmt *st = NULL;
	sqlite3_int64 id;
	int64_t mtime;
	int rc = -1;

	if (content_hash(file, hash, sizeof(hash), &mtime))
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT id FROM recordings WHERE content_hash = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(db, "cannot read database", dbpath);
	bind_text(st, 1, hash);
	if (sqlite3_step(st) == SQLITE_ROW) {
		bp_set_error("'%s' is already in '%s' (recording %lld): not added again", file,
			     dbpath, (long long)sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
		return 1;
	}
	sqlite3_finalize(st);
	st = NULL;
	/* Read the whole recording before touching the database. */
	s = bp_summary_load(file, so);
	if (!s)
		return -1;
	bp_warnings_print(&s->warnings);
	if (exec_sql(db, "BEGIN IMMEDIATE", dbpath))
		goto out;
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO recordings (content_hash, file, added_at, recorded_at, "
			       "host, kernel, machine, cmdline_hash, bootprof_version, boot_ns, "
			       "span_ns, lost_events, read_bytes, wait_ns, idle_wait_ns, used_bytes, "
			       "never_used_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
			       "?11, ?12, ?13, ?14, ?15, ?16, ?17)",
			       -1, &st, NULL) != SQLITE_OK) {
		db_error(db, "cannot write to database", dbpath);
		goto rollback;
	}
	bind_text(st, 1, hash);
	bind_text(st, 2, file);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
	sqlite3_bind_int64(st, 4, mtime);
	bind_text(st, 5, s->hostname);
	bind_text(st, 6, s->kernel_release);
	bind_text(st, 7, s->machine);
	if (s->cmdline) {
		snprintf(cmdline_hash, sizeof(cmdline_hash), "%016" PRIx64,
			 fnv1a(0xcbf29ce484222325ull, (const unsigned char *)s->cmdline,
			       strlen(s->cmdline)));
		bind_text(st, 8, cmdline_hash);
	} else {
		sqlite3_bind_null(st, 8);
	}
	bind_text(st, 9, s->bootprof_version);
	bind_u64(st, 10, s->boot_ns);
	bind_u64(st, 11, s->span_ns);
	bind_u64(st, 12, s->lost_events);
	bind_u64(st, 13, s->read_bytes);
	bind_u64(st, 14, s->wait_ns);
	bind_u64(st, 15, s->idle_wait_ns);
	if (s->access_missing) {
		sqlite3_bind_null(st, 16);
		sqlite3_bind_null(st, 17);
	} else {
		bind_u64(st, 16, s->used_bytes);
		bind_u64(st, 17, s->never_used_bytes);
	}
	if (step(db, st, dbpath))
		goto rollback;
	id = sqlite3_last_insert_rowid(db);
	if (insert_rows(db, dbpath, id, s))
		goto rollback;
	if (exec_sql(db, "COMMIT", dbpath))
		goto rollback;
	rc = 0;
	goto out;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(st);
	bp_summary_free(s);
	return rc;
}

static int db_add(int argc, char **argv, const struct bp_summary_opts *so)
{
	const char *dbpath;
	sqlite3 *db;
	int i, failed = 0, added = 0, dup = 0;

	if (argc < 2)
		return bp_usage_error("db", "add needs a database and at least one recording");
	dbpath = argv[0];
	db = open_db(dbpath, 1);
	if (!db)
		return bp_error_last();
	for (i = 1; i < argc; i++) {
		int rc = add_one(db, dbpath, argv[i], so);

		if (rc) {
			bp_error("%s", bp_last_error());
			failed++;
			dup += rc == 1;
		} else {
			added++;
		}
	}
	if (sqlite3_close(db) != SQLITE_OK) {
		bp_error("cannot close database '%s'", dbpath);
		return BP_EXIT_FAILURE;
	}
	if (argc > 2)
		fprintf(stderr, "bootprof: added %d of %d recordings to '%s'\n", added, argc - 1,
			dbpath);
	return failed ? BP_EXIT_FAILURE : 0;
}

static void export_value(FILE *out, sqlite3_stmt *st, int i, int jsonl)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		if (jsonl)
			fputs("null", out);
		break;
	case SQLITE_INTEGER:
		fprintf(out, "%lld", (long long)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		fprintf(out, "%.17g", sqlite3_column_double(st, i));
		break;
	default:
		if (jsonl)
			bp_json_str(out, (const char *)sqlite3_column_text(st, i));
		else
			bp_csv_str(out, (const char *)sqlite3_column_text(st, i));
		break;
	}
}

static int db_export(int argc, char **argv, const char *format)
{
	const char *const *t;
	sqlite3_stmt *st = NULL;
	sqlite3 *db;
	char *sql;
	int jsonl, n, i, rc;

	if (argc != 2)
		return bp_usage_error("db", "export needs a database and a table");
	for (t = tables; *t && strcmp(*t, argv[1]); t++)
		;
	if (!*t)
		return bp_usage_error("db", "unknown table '%s' (recordings, phases, processes, "
				      "files, services)", argv[1]);
	jsonl = !strcmp(format, "jsonl");
	if (access(argv[0], F_OK)) {
		bp_error("cannot open database '%s': %s", argv[0], strerror(errno));
		return BP_EXIT_FAILURE;
	}
	db = open_db(argv[0], 0);
	if (!db)
		return bp_error_last();
	sql = xasprintf("SELECT * FROM %s ORDER BY rowid", *t);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK) {
		db_error(db, "cannot read database", argv[0]);
		sqlite3_close(db);
		return bp_error_last();
	}
	n = sqlite3_column_count(st);
	if (!jsonl) {
		for (i = 0; i < n; i++) {
			fputs(i ? "," : "", stdout);
			bp_csv_str(stdout, sqlite3_column_name(st, i));
		}
		fputc('\n', stdout);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < n; i++) {
			if (jsonl) {
				fputs(i ? "," : "{", stdout);
				bp_json_str(stdout, sqlite3_column_name(st, i));
				fputc(':', stdout);
			} else if (i) {
				fputc(',', stdout);
			}
			export_value(stdout, st, i, jsonl);
		}
		fputs(jsonl ? "}\n" : "\n", stdout);
	}
	if (rc != SQLITE_DONE)
		db_error(db, "cannot read database", argv[0]);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc == SQLITE_DONE ? 0 : bp_error_last();
}

int cmd_db(int argc, char **argv)
{
	struct bp_phase_spec specs[MAX_PHASES];
	struct bp_phase_spec_list phases = { specs, 0, MAX_PHASES };
	struct bp_summary_opts so = { 0 };
	const char *format = "csv", *sub;
	size_t i;
	int clickhouse = 0, rc;
	const struct bp_option options[] = {
		OPT_CALLBACK(0, "phase", &phases, "NAME=END",
			     "add: a phase ending at END: exec:PROG, file:PATH\n"
			     "or service:UNIT (repeatable)", bp_phase_spec_opt),
		OPT_FLAG(0, "all", &so.all,
			 "add: every process of a `record -- CMD` recording, not\n"
			 "only CMD's process tree"),
		OPT_FORMAT(&format, "csv jsonl",
			   "export: CSV (the default, csv) or JSON Lines (jsonl)"),
		OPT_FLAG(0, "clickhouse", &clickhouse,
			 "schema: ClickHouse CREATE TABLE statements instead"),
		OPT_END(),
	};

	/* The first argument that is not an option is the subcommand. */
	argc = bp_parse_options(argc, argv, options, &db_usage, 0, &rc);
	if (argc < 0)
		goto out;
	if (!argc) {
		rc = bp_usage_error("db", "give a subcommand: add, export or schema");
		goto out;
	}
	sub = argv[0];
	so.specs = specs;
	so.nspecs = phases.n;
	if (!strcmp(sub, "add")) {
		rc = db_add(argc - 1, argv + 1, &so);
	} else if (!strcmp(sub, "export")) {
		rc = db_export(argc - 1, argv + 1, format);
	} else if (!strcmp(sub, "schema")) {
		if (argc > 1)
			rc = bp_usage_error("db", "schema takes no argument");
		else {
			fputs(clickhouse ? clickhouse_sql : schema_sql, stdout);
			rc = 0;
		}
	} else {
		rc = bp_usage_error("db", "unknown subcommand '%s' (add, export, schema)", sub);
	}
out:
	for (i = 0; i < phases.n; i++)
		bp_phase_spec_release(&specs[i]);
	return rc;
}
