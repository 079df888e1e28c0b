// SPDX-License-Identifier: GPL-2.0
/*
 * What bootprof records by default (docs/design.md, 'What is recorded') and which syscalls count as
 * I/O. The syscall numbers come from this machine's <sys/syscall.h>, so the
 * table is right for the architecture the recorder runs on (x86_64 here);
 * a syscall the architecture lacks (open, stat on arm64; newfstatat on
 * i386, which has fstatat64) is simply absent.
 */
#include <stddef.h>
#include <sys/syscall.h>

#include "capture/capture.h"
#include "capture/schedstats.h"

const struct bp_event_spec bp_default_events[] = {
	{ "sched", "sched_switch", NULL, 0, NULL },
	{ "sched", "sched_waking", "sched_wakeup", 0, NULL },
	{ "sched", "sched_process_fork", NULL, 0, NULL },
	{ "sched", "sched_process_exec", NULL, 0, NULL },
	{ "sched", "sched_process_exit", NULL, 0, NULL },
	/*
	 * The kernel's own count of I/O wait (schedstats.h): reported at
	 * each wake-up while schedstats are on, which record sees to. A
	 * kernel without schedstats has neither event nor anything to miss.
	 */
	{ "sched", "sched_stat_iowait", NULL, 0, BP_SCHEDSTATS_KNOB },
	{ "sched", "sched_stat_blocked", NULL, 0, BP_SCHEDSTATS_KNOB },
	{ "block", "block_rq_issue", NULL, 0, NULL },
	{ "block", "block_rq_complete", NULL, 0, NULL },
	{ "block", "block_bio_queue", NULL, 0, NULL },
	/*
	 * A bio on a partition, device-mapper (LVM, dm-crypt, dm-verity) or
	 * md moved to the device below: which file-system sector a request
	 * of the lower device was asked for, and by whom.
	 */
	{ "block", "block_bio_remap", NULL, 0, NULL },
	{ "filemap", "mm_filemap_add_to_page_cache", NULL, 0, NULL },
	{ "filemap", "mm_filemap_delete_from_page_cache", NULL, 0, NULL },
	{ "filemap", "mm_filemap_fault", NULL, 0, NULL },
	{ "filemap", "mm_filemap_get_pages", NULL, 0, NULL },
	{ "filemap", "mm_filemap_map_pages", NULL, 0, NULL },
	{ "readahead", "page_cache_sync_ra", NULL, 0, NULL },
	{ "readahead", "page_cache_async_ra", NULL, 0, NULL },
	{ "raw_syscalls", "sys_enter", NULL, BP_FILTER_SYSCALLS, NULL },
	{ "raw_syscalls", "sys_exit", NULL, BP_FILTER_SYSCALLS, NULL },
	/*
	 * A task queued on an rwsem, reading or writing: the critical path
	 * needs to know a reader's wait (docs/design.md, 'Critical path').
	 * A kernel before 5.19 has no lock events, nothing to miss.
	 */
	{ "lock", "contention_begin", NULL, BP_FILTER_RWSEM, "/sys/kernel/tracing/events/lock" },
	{ "cgroup", "cgroup_attach_task", NULL, 0, NULL },
	/* Who queued the work a kworker runs: the critical path follows it. */
	{ "workqueue", "workqueue_queue_work", NULL, 0, NULL },
	{ "workqueue", "workqueue_execute_start", NULL, 0, NULL },
	/*
	 * A module loaded while recording: its init's time, named after the
	 * module. Nothing to miss on a kernel that loads no modules.
	 */
	{ "module", "module_load", NULL, 0, "/proc/modules" },
	{ "initcall", "initcall_start", NULL, 0, "/proc/modules" },
	{ "initcall", "initcall_finish", NULL, 0, "/proc/modules" },
	{ NULL, NULL, NULL, 0, NULL },
};

#define SC(n) { #n, __NR_##n }

const struct bp_syscall bp_syscalls[] = {
	/* reading data */
	SC(read), SC(pread64), SC(readv), SC(preadv), SC(preadv2), SC(readahead),
	SC(sendfile), SC(copy_file_range), SC(splice), SC(mmap),
#ifdef __NR_fadvise64
	SC(fadvise64),
#endif
#ifdef __NR_mmap2 /* 32-bit ABIs: the 64-bit-offset variants */
	SC(mmap2), SC(sendfile64), SC(fadvise64_64),
#endif
	/* opening and looking up paths */
#ifdef __NR_open
	SC(open),
#endif
	SC(openat), SC(openat2), SC(close),
#ifdef __NR_stat
	SC(stat), SC(lstat),
#endif
	SC(fstat),
#ifdef __NR_newfstatat
	SC(newfstatat),
#endif
#ifdef __NR_fstatat64
	SC(fstatat64), SC(stat64), SC(lstat64), SC(fstat64),
#endif
	SC(statx),
#ifdef __NR_access
	SC(access),
#endif
	SC(faccessat), SC(faccessat2), SC(getdents64),
	/* loading programs */
	SC(execve), SC(execveat),
	/* waiting for writes to reach storage (writeback/sync waits, not reads) */
	SC(sync), SC(syncfs), SC(fsync), SC(fdatasync), SC(sync_file_range), SC(msync),
	/*
	 * Not I/O: a futex wait and the requeue that moves it to another
	 * futex, which the critical path needs (docs/design.md, 'Critical
	 * path'). Its waits are S-sleeps: no I/O wait is charged to it.
	 */
	SC(futex),
};

const size_t bp_nsyscalls = sizeof(bp_syscalls) / sizeof(bp_syscalls[0]);

const char *bp_syscall_name(long id)
{
	size_t i;

	for (i = 0; i < bp_nsyscalls; i++) {
		if (bp_syscalls[i].id == id)
			return bp_syscalls[i].name;
	}
	return NULL;
}
