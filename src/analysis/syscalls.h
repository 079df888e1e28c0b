/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_SYSCALLS_H
#define BP_ANALYSIS_SYSCALLS_H

#include "analysis/model.h"

/* Syscall classes, per architecture (x86_64 and aarch64 numbers). */
enum bp_sys_class {
	BP_SYS_NONE = -1,
	BP_SYS_CLONE = BP_NCAUSES, /* clone(): flags in args[0] */
	BP_SYS_CLONE3,             /* clone3(): flags behind a pointer */
	BP_SYS_FORK,               /* fork, vfork */
};

enum bp_arch { BP_ARCH_X86_64, BP_ARCH_AARCH64 };

/* The architecture of a recording from its uname -m (NULL: x86_64). */
enum bp_arch bp_arch_of(const char *machine);
/* enum bp_cause for I/O syscalls, a bp_sys_class for clone/fork, else BP_CAUSE_OTHER. */
int bp_syscall_class(enum bp_arch arch, long nr);
/* The same, by name ("read", "openat" ...: a syscalls:sys_enter_NAME event). */
int bp_syscall_class_name(const char *name);
/*
 * Whether a syscall of class BP_CAUSE_READ also writes a file: sendfile,
 * splice and copy_file_range read one file into another, so the pages
 * they insert may be created, not read. By number, and by name.
 */
int bp_syscall_copies(enum bp_arch arch, long nr);
int bp_syscall_copies_name(const char *name);
/*
 * 1 for readahead(2): it only starts reads and never waits for them, so
 * what it inserts under a throttle is read though its task never waits
 * (a preloader).
 */
int bp_syscall_prefetch(enum bp_arch arch, long nr);
int bp_syscall_prefetch_name(const char *name);
/* 1 for futex(2): the critical path reads its waits and requeues (critical.c). */
int bp_syscall_futex(enum bp_arch arch, long nr);

#endif
