// SPDX-License-Identifier: GPL-2.0
/*
 * Which syscalls say what a task was waiting for. raw_syscalls carry only
 * the number, so the table is per architecture; a recording from another
 * machine names its architecture in the metadata (uname -m).
 */
#include <string.h>

#include "analysis/internal.h"

enum bp_arch bp_arch_of(const char *machine)
{
	if (machine && (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64")))
		return BP_ARCH_AARCH64;
	return BP_ARCH_X86_64;
}

static int x86_64_class(long nr)
{
	switch (nr) {
	case 0:   /* read */
	case 17:  /* pread64 */
	case 19:  /* readv */
	case 40:  /* sendfile */
	case 187: /* readahead */
	case 275: /* splice */
	case 295: /* preadv */
	case 326: /* copy_file_range */
	case 327: /* preadv2 */
		return BP_CAUSE_READ;
	case 2:   /* open */
	case 4:   /* stat */
	case 5:   /* fstat */
	case 6:   /* lstat */
	case 21:  /* access */
	case 89:  /* readlink */
	case 257: /* openat */
	case 262: /* newfstatat */
	case 267: /* readlinkat */
	case 269: /* faccessat */
	case 332: /* statx */
	case 437: /* openat2 */
	case 439: /* faccessat2 */
		return BP_CAUSE_OPEN_STAT;
	case 59:  /* execve */
	case 322: /* execveat */
		return BP_CAUSE_EXEC;
	case 78:  /* getdents */
	case 217: /* getdents64 */
		return BP_CAUSE_GETDENTS;
	case 26:  /* msync */
	case 74:  /* fsync */
	case 75:  /* fdatasync */
	case 162: /* sync */
	case 277: /* sync_file_range */
	case 306: /* syncfs */
		return BP_CAUSE_SYNC;
	case 56:
		return BP_SYS_CLONE;
	case 435:
		return BP_SYS_CLONE3;
	case 57:  /* fork */
	case 58:  /* vfork */
		return BP_SYS_FORK;
	default:
		return BP_CAUSE_OTHER;
	}
}

/* The generic table (include/uapi/asm-generic/unistd.h). */
static int aarch64_class(long nr)
{
	switch (nr) {
	case 63:  /* read */
	case 65:  /* readv */
	case 67:  /* pread64 */
	case 69:  /* preadv */
	case 71:  /* sendfile */
	case 76:  /* splice */
	case 213: /* readahead */
	case 285: /* copy_file_range */
	case 286: /* preadv2 */
		return BP_CAUSE_READ;
	case 48:  /* faccessat */
	case 56:  /* openat */
	case 78:  /* readlinkat */
	case 79:  /* newfstatat */
	case 80:  /* fstat */
	case 291: /* statx */
	case 437: /* openat2 */
	case 439: /* faccessat2 */
		return BP_CAUSE_OPEN_STAT;
	case 221: /* execve */
	case 281: /* execveat */
		return BP_CAUSE_EXEC;
	case 61:  /* getdents64 */
		return BP_CAUSE_GETDENTS;
	case 81:  /* sync */
	case 82:  /* fsync */
	case 83:  /* fdatasync */
	case 84:  /* sync_file_range */
	case 227: /* msync */
	case 267: /* syncfs */
		return BP_CAUSE_SYNC;
	case 220:
		return BP_SYS_CLONE;
	case 435:
		return BP_SYS_CLONE3;
	default:
		return BP_CAUSE_OTHER;
	}
}

int bp_syscall_class(enum bp_arch arch, long nr)
{
	return arch == BP_ARCH_AARCH64 ? aarch64_class(nr) : x86_64_class(nr);
}

/* Names are the same on every architecture: per-syscall events need no table per arch. */
static const struct {
	const char *name;
	int class;
} by_name[] = {
	{ "read", BP_CAUSE_READ }, { "pread64", BP_CAUSE_READ }, { "readv", BP_CAUSE_READ },
	{ "preadv", BP_CAUSE_READ }, { "preadv2", BP_CAUSE_READ }, { "sendfile64", BP_CAUSE_READ },
	{ "splice", BP_CAUSE_READ }, { "readahead", BP_CAUSE_READ },
	{ "copy_file_range", BP_CAUSE_READ },
	{ "open", BP_CAUSE_OPEN_STAT }, { "openat", BP_CAUSE_OPEN_STAT },
	{ "openat2", BP_CAUSE_OPEN_STAT }, { "newstat", BP_CAUSE_OPEN_STAT },
	{ "newfstat", BP_CAUSE_OPEN_STAT }, { "newlstat", BP_CAUSE_OPEN_STAT },
	{ "newfstatat", BP_CAUSE_OPEN_STAT }, { "statx", BP_CAUSE_OPEN_STAT },
	{ "access", BP_CAUSE_OPEN_STAT }, { "faccessat", BP_CAUSE_OPEN_STAT },
	{ "faccessat2", BP_CAUSE_OPEN_STAT }, { "readlink", BP_CAUSE_OPEN_STAT },
	{ "readlinkat", BP_CAUSE_OPEN_STAT },
	{ "execve", BP_CAUSE_EXEC }, { "execveat", BP_CAUSE_EXEC },
	{ "getdents", BP_CAUSE_GETDENTS }, { "getdents64", BP_CAUSE_GETDENTS },
	{ "sync", BP_CAUSE_SYNC }, { "syncfs", BP_CAUSE_SYNC }, { "fsync", BP_CAUSE_SYNC },
	{ "fdatasync", BP_CAUSE_SYNC }, { "sync_file_range", BP_CAUSE_SYNC },
	{ "msync", BP_CAUSE_SYNC },
	{ "clone", BP_SYS_CLONE }, { "clone3", BP_SYS_CLONE3 }, { "fork", BP_SYS_FORK },
	{ "vfork", BP_SYS_FORK },
};

int bp_syscall_class_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++) {
		if (!strcmp(by_name[i].name, name))
			return by_name[i].class;
	}
	return BP_CAUSE_OTHER;
}

int bp_syscall_copies(enum bp_arch arch, long nr)
{
	if (arch == BP_ARCH_AARCH64)
		return nr == 71 || nr == 76 || nr == 285;
	return nr == 40 || nr == 275 || nr == 326;
}

int bp_syscall_prefetch(enum bp_arch arch, long nr)
{
	return arch == BP_ARCH_AARCH64 ? nr == 213 : nr == 187;
}

int bp_syscall_futex(enum bp_arch arch, long nr)
{
	return arch == BP_ARCH_AARCH64 ? nr == 98 : nr == 202;
}

int bp_syscall_prefetch_name(const char *name)
{
	return !strcmp(name, "readahead");
}

int bp_syscall_copies_name(const char *name)
{
	return !strcmp(name, "sendfile64") || !strcmp(name, "sendfile") ||
	       !strcmp(name, "splice") || !strcmp(name, "copy_file_range");
}
