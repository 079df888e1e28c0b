/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_CAPTURE_FAULT_AROUND_H
#define BP_CAPTURE_FAULT_AROUND_H

/*
 * Exact mmap accounting. On a page fault in a file mapping the kernel
 * first maps up to fault_around_bytes (64 KiB) of cached pages around the
 * address (do_fault_around), reporting the whole window in one
 * mm_filemap_map_pages event that does not say which page faulted. With
 * the knob at one page there is no fault-around: every touched page
 * faults, and mm_filemap_fault names it. The knob is in debugfs only.
 */
#define BP_FAULT_AROUND_KNOB "/sys/kernel/debug/fault_around_bytes"

/**
 * struct bp_fault_around - the knob while a recording holds it
 * @fd: the knob, open for writing; -1 when closed
 * @saved: the value to restore; 0 when there is nothing to restore
 */
struct bp_fault_around {
	int fd;
	unsigned long saved;
};

#define BP_FAULT_AROUND_INIT { -1, 0 }

/**
 * bp_fault_around_exact() - set fault-around to one page
 * @fa: holds the knob open and the value it had, for the restore
 *
 * Mounts debugfs on /sys/kernel/debug just long enough to open the knob
 * when nothing is mounted there; no mount stays behind.
 *
 * Return: the bytes now set (the page size), or -1 with bp_set_error()
 * (no debugfs, or a kernel that refuses: lockdown gives EPERM even to
 * read it), the knob then left as it was.
 */
long bp_fault_around_exact(struct bp_fault_around *fa);

/**
 * bp_fault_around_restore() - write the saved value back and close
 * @fa: as bp_fault_around_exact() left it, or with @fd -1 and @saved set
 *      (the knob is opened again: a process other than the one that set it)
 *
 * A no-op when nothing is saved; nothing is saved afterwards either way.
 *
 * Return: 0, or -1 with bp_set_error().
 */
int bp_fault_around_restore(struct bp_fault_around *fa);

#endif
