/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_REPLAY_PACK_H
#define BP_REPLAY_PACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A readahead pack: per file, the page ranges a recording showed were used,
 * in the order the next boot should read them. Line-based text (one file a
 * line), so packs diff and review; documented in bootprof-pack(5).
 *
 *   bootprof-pack 1
 *   page-size 4096
 *   order first-use|disk
 *   pages used|inserted
 *   source boot.dat
 *   window 0.000000000 12.345678900
 *   count NAME FILES BYTES          (what was left out, and why; see BP_PACK_COUNTS)
 *   note metadata vda 1048576       (free text, kept for --explain)
 *   critical ENTRIES END LENGTH WHAT PID TO   (readahead --order critical)
 *   what-if MAJ:MIN INO NS SEGMENTS (per file of the pack on that path)
 *   file MAJ:MIN INO SIZE MTIME CTIME FIRST LEFT RANGES PATH
 *
 * MTIME, CTIME: SEC.NSEC; FIRST: first use in the recording, SEC.NSEC on
 * its clock; LEFT: never-used bytes of the file left out; RANGES:
 * START+COUNT[,START+COUNT...] in pages of page-size; PATH: the rest of
 * the line, bytes below 0x21, 0x7f and '\' written as \ooo.
 *
 * critical: the first ENTRIES file lines are the pages the critical path
 * to an end point waited on, in the order it waited for them (a file may
 * have several entries); the rest follow in the order of the 'order'
 * line. END: the end point (SEC.NSEC on the recording's clock); LENGTH:
 * the path's (SEC.NSEC); WHAT: exit, exec, file or last-run; PID: the
 * process that reached it; TO: the rest of the line, as --to took it
 * ("default" without one), escaped as a path. what-if: the path's I/O
 * time on a file (NS, in SEGMENTS segments): the prediction of how much
 * earlier the end comes with the file in the page cache. Readers that
 * do not know these keywords ignore them.
 */

#define BP_PACK_VERSION 1
/* Hard limits when reading: a pack is untrusted input. */
#define BP_PACK_MAX_BYTES (64u << 20)   /* whole file */
#define BP_PACK_MAX_FILES 1000000u
#define BP_PACK_MAX_RANGES 65536u        /* per file */

struct bp_pack_range {
	uint64_t start;   /* first page */
	uint64_t count;   /* pages, > 0 */
};

/**
 * struct bp_pack_file - one file of a pack
 * @major, @minor: the filesystem's device (st_dev) when the pack was made
 * @ino: inode number
 * @size: st_size
 * @mtime_sec, @mtime_nsec, @ctime_sec, @ctime_nsec: its times; any change
 *        of identity makes the entry stale at replay
 * @first_ns: first use in the recording (recording clock)
 * @left_bytes: never-used bytes of this file left out
 * @ranges: page ranges, by start, not overlapping; owned
 * @nranges: entries (>= 1)
 * @path: owned
 */
struct bp_pack_file {
	unsigned major, minor;
	uint64_t ino;
	uint64_t size;
	int64_t mtime_sec, ctime_sec;
	long mtime_nsec, ctime_nsec;
	uint64_t first_ns;
	uint64_t left_bytes;
	struct bp_pack_range *ranges;
	size_t nranges;
	char *path;
};

/* What a pack left out, counted (files and bytes each). */
enum bp_pack_count {
	BP_PACK_NEVER_USED,   /* pages read and never used (bytes; files = files with some) */
	BP_PACK_WRITTEN,      /* files changed during or since the recording */
	BP_PACK_REPLACED,     /* the path names another inode now */
	BP_PACK_GONE,         /* the path no longer exists (or is not a regular file) */
	BP_PACK_NONBLOCK,     /* tmpfs, proc ...: not storage */
	BP_PACK_RECORDING,    /* the recording itself, its spool */
	BP_PACK_VAR_LOG,      /* under /var/log */
	BP_PACK_UNRESOLVED,   /* no path in the recording */
	BP_PACK_METADATA,     /* filesystem metadata: no file to preload through */
	BP_PACK_OVER_CAP,     /* beyond the size cap */
	BP_PACK_GAP,          /* not left out: never-used or unread pages inside merged gaps */
	/*
	 * Not left out: pages whose use is not known (kept, conservatively):
	 * mapped by fault-around but never faulted or read themselves.
	 */
	BP_PACK_UNCERTAIN,
	BP_PACK_NCOUNTS
};

struct bp_pack_tally {
	uint64_t files;
	uint64_t bytes;
};

/**
 * struct bp_pack_whatif - the critical path's I/O on one file of the pack
 * @major, @minor, @ino: the file, as its entries name it
 * @io_ns: the path's I/O time on it (the what-if of `bootprof critical`)
 * @segments: in how many I/O segments
 */
struct bp_pack_whatif {
	unsigned major, minor;
	uint64_t ino;
	uint64_t io_ns;
	uint64_t segments;
};

/**
 * struct bp_pack_critical - a pack in critical order (@set)
 * @entries: the leading entries that are the path's pages, in path order
 * @end_ns: the end point on the recording's clock
 * @len_ns: the path's length
 * @what: "exit", "exec", "file", "last-run"; owned
 * @pid: the process that reached the end
 * @to: the end point as --to took it, "default" without one; owned
 * @files: the path's I/O per file of the pack, most first; owned
 */
struct bp_pack_critical {
	int set;
	size_t entries;
	uint64_t end_ns, len_ns;
	char *what;
	int pid;
	char *to;
	struct bp_pack_whatif *files;
	size_t nfiles;
};

/**
 * struct bp_pack - a pack in memory
 * @page_size: bytes per page of the ranges
 * @disk_order: 1 when files are in physical order (rotational disk)
 * @inserted_only: 1 when the recording had no access events: ranges are
 *                 every page read, used or not
 * @source: the recording it was made from, or NULL; owned
 * @since_ns, @until_ns: the window of the recording used
 * @counts: what was left out (BP_PACK_*)
 * @notes: free-text notes, one per entry; owned
 * @files: entries in replay order; owned
 * @crit: how the leading entries follow a critical path, when they do
 */
struct bp_pack {
	unsigned page_size;
	int disk_order;
	int inserted_only;
	char *source;
	uint64_t since_ns, until_ns;
	struct bp_pack_tally counts[BP_PACK_NCOUNTS];
	char **notes;
	size_t nnotes;
	struct bp_pack_file *files;
	size_t nfiles;
	size_t cfiles;
	struct bp_pack_critical crit;
};

/* The name of a count as the pack writes it ("never-used" ...). Static. */
const char *bp_pack_count_name(enum bp_pack_count c);

/* An empty pack (page size of this machine); free with bp_pack_free(). */
struct bp_pack *bp_pack_new(void);
/* Free a pack and everything it owns; NULL is a no-op. */
void bp_pack_free(struct bp_pack *p);
/* Append an entry (zeroed); the pack owns what the caller puts in it. */
struct bp_pack_file *bp_pack_add(struct bp_pack *p);
/* Append a what-if (zeroed) to @p->crit. */
struct bp_pack_whatif *bp_pack_add_whatif(struct bp_pack *p);
/* The what-if of a file of @p, or NULL. */
const struct bp_pack_whatif *bp_pack_whatif_of(const struct bp_pack *p, unsigned major,
					       unsigned minor, uint64_t ino);
/* Files of a pack: its entries, a file with several (critical order) counted once. */
size_t bp_pack_distinct_files(const struct bp_pack *p);
/* Append a note (copied). */
void bp_pack_note(struct bp_pack *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Bytes an entry preloads: its ranges, clipped to its size. */
uint64_t bp_pack_file_bytes(const struct bp_pack *p, const struct bp_pack_file *f);

/**
 * bp_pack_write() - write a pack in its text format
 * @p: the pack
 * @out: stream
 *
 * Return: 0, or -1 with bp_set_error() on a write error.
 */
int bp_pack_write(const struct bp_pack *p, FILE *out);

/**
 * bp_pack_parse() - parse a pack
 * @buf: its text (need not be NUL-terminated)
 * @len: bytes
 *
 * Return: a new pack, or NULL with bp_set_error() ("line N: why") on a
 * malformed, oversized or unknown-version pack.
 */
struct bp_pack *bp_pack_parse(const char *buf, size_t len);

/**
 * bp_pack_load() - read and parse a pack file
 * @path: the file
 *
 * Return: a new pack, or NULL with bp_set_error().
 */
struct bp_pack *bp_pack_load(const char *path);

#endif
