// SPDX-License-Identifier: GPL-2.0
/* The boot-time command-line words: versions, event lists, fallbacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture/boot.h"
#include "capture/kallsyms.h"

static void test_kernel_version(void **state)
{
	(void)state;
	assert_int_equal(bp_kernel_version("6.1.0-50-amd64"), BP_KVER(6, 1));
	assert_int_equal(bp_kernel_version("6.12.95+deb12-amd64"), BP_KVER(6, 12));
	assert_int_equal(bp_kernel_version("6.3"), BP_KVER(6, 3));
	assert_int_equal(bp_kernel_version("5.10.0-rt"), BP_KVER(5, 10));
	assert_true(bp_kernel_version("6.12") > bp_kernel_version("6.3"));
	assert_int_equal(bp_kernel_version("6"), -1);
	assert_int_equal(bp_kernel_version("linux-6.1"), -1);
	assert_int_equal(bp_kernel_version(""), -1);
	assert_int_equal(bp_kernel_version(NULL), -1);
	assert_int_equal(bp_kernel_version("6.-1"), -1);
}

static void test_listed(void **state)
{
	const char *list = "sched:sched_switch\ninitcall:initcall_start\nfilemap:mm_filemap_fault\n";

	(void)state;
	assert_true(bp_boot_event_listed(list, "sched:sched_switch"));
	assert_true(bp_boot_event_listed(list, "filemap:mm_filemap_fault"));
	assert_false(bp_boot_event_listed(list, "sched:sched_sw"));
	assert_false(bp_boot_event_listed(list, "sched:sched_switch2"));
	assert_true(bp_boot_event_listed(list, "initcall:*"));
	assert_false(bp_boot_event_listed(list, "block:*"));
	assert_false(bp_boot_event_listed("", "sched:sched_switch"));
}

static void test_old_kernel(void **state)
{
	char *missing = NULL;
	char *w = bp_boot_cmdline(BP_KVER(6, 1), "bootprof", NULL, NULL, 1, 16384, &missing);

	(void)state;
	assert_true(!strncmp(w, "trace_event=sched:sched_switch,", 31));
	assert_non_null(strstr(w, ",initcall:*,module:module_load,syscalls:sys_enter_read,"));
	assert_non_null(strstr(w, ",syscalls:sys_exit_execve,"));
	assert_non_null(strstr(w, ",syscalls:sys_enter_fsync,syscalls:sys_exit_fsync,"));
	assert_non_null(strstr(w, ",syscalls:sys_exit_sync trace_buf_size=16384K trace_clock=boot"));
	assert_null(strstr(w, "raw_syscalls"));
	assert_null(strstr(w, "mm_filemap_fault"));
	assert_null(strstr(w, "bootprof,"));
	assert_non_null(missing);
	assert_non_null(strstr(missing, "filemap:mm_filemap_map_pages"));
	free(w);
	free(missing);
}

static void test_instance_kernel(void **state)
{
	char *missing = NULL;
	char *w = bp_boot_cmdline(BP_KVER(6, 12), "early", NULL, NULL, 1, 8192, &missing);

	(void)state;
	assert_true(!strncmp(w, "trace_instance=early,sched:sched_switch,", 40));
	assert_non_null(strstr(w, "filemap:mm_filemap_map_pages"));
	/* trace_clock= would only set the top-level buffer. */
	assert_null(strstr(w, "trace_clock"));
	assert_non_null(strstr(w, " trace_buf_size=8192K"));
	free(w);
	free(missing);
}

/*
 * An architecture's missing syscalls are left out, and not missed: arm64
 * has no open or access, i386 no newfstatat; names from uname -m, Debian
 * and kernel flavours.
 */
static void test_arch(void **state)
{
	char *missing = NULL;
	char *w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", NULL, "arm64", 1, 8192, &missing);

	(void)state;
	assert_null(strstr(w, "sys_enter_open,"));
	assert_null(strstr(w, "sys_exit_open,"));
	assert_null(strstr(w, "sys_enter_access,"));
	assert_non_null(strstr(w, ",syscalls:sys_enter_openat,syscalls:sys_exit_openat,"));
	assert_non_null(strstr(w, ",syscalls:sys_enter_newfstatat,"));
	assert_non_null(strstr(w, ",syscalls:sys_enter_faccessat,"));
	assert_true(missing == NULL || !strstr(missing, "sys_enter_open "));
	free(w);
	free(missing);

	w = bp_boot_cmdline(BP_KVER(6, 1), "bootprof", NULL, "i386", 1, 8192, &missing);
	assert_null(strstr(w, "newfstatat"));
	assert_non_null(strstr(w, ",syscalls:sys_enter_open,"));
	free(w);
	free(missing);

	w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", NULL, "x86_64", 1, 8192, &missing);
	assert_non_null(strstr(w, ",syscalls:sys_enter_open,"));
	assert_non_null(strstr(w, ",syscalls:sys_enter_newfstatat,"));
	free(w);
	free(missing);

	assert_string_equal(bp_boot_arch("aarch64"), "arm64");
	assert_string_equal(bp_boot_arch("amd64"), "x86_64");
	assert_string_equal(bp_boot_arch("i686"), "i386");
	assert_null(bp_boot_arch("vax"));
	assert_null(bp_boot_arch(NULL));
	assert_string_equal(bp_boot_release_arch("6.12.95+deb12-arm64"), "arm64");
	assert_string_equal(bp_boot_release_arch("6.1.0-50-686-pae"), "i386");
	assert_string_equal(bp_boot_release_arch("6.1.0-50-686"), "i386");
	assert_null(bp_boot_release_arch("6.1.25-android14-11-g1234"));
}

/* A live list decides, and an old event stands in for a missing one. */
static void test_live_list_and_fallback(void **state)
{
	const char *live = "sched:sched_switch\nsched:sched_wakeup\ninitcall:initcall_level\n";
	char *missing = NULL;
	char *w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", live, NULL, 1, 1024, &missing);

	(void)state;
	assert_string_equal(w, "trace_instance=bootprof,sched:sched_switch,sched:sched_wakeup,"
			       "initcall:* trace_buf_size=1024K");
	assert_non_null(strstr(missing, "filemap:mm_filemap_add_to_page_cache"));
	assert_null(strstr(missing, "sched:sched_waking"));
	free(w);
	free(missing);
}

/*
 * Schedstats: the two events and schedstats=enable for a kernel that has
 * them; nothing, and nothing missed, for one that does not; before 4.6
 * they were always on and the word did not exist; a live kernel without
 * the events gets no word either.
 */
static void test_schedstats(void **state)
{
	const char *live = "sched:sched_switch\nsched:sched_stat_iowait\n";
	char *missing = NULL;
	char *w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", NULL, NULL, 1, 8192, &missing);

	(void)state;
	assert_non_null(strstr(w, ",sched:sched_process_exit,sched:sched_stat_iowait,"
				  "sched:sched_stat_blocked,block:"));
	assert_non_null(strstr(w, " trace_buf_size=8192K schedstats=enable"));
	assert_null(strstr(missing, "sched_stat"));
	free(w);
	free(missing);

	w = bp_boot_cmdline(BP_KVER(6, 1), "bootprof", NULL, NULL, 1, 8192, &missing);
	assert_non_null(strstr(w, ",sched:sched_stat_iowait,sched:sched_stat_blocked,"));
	assert_non_null(strstr(w, " trace_clock=boot schedstats=enable"));
	free(w);
	free(missing);

	w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", NULL, NULL, 0, 8192, &missing);
	assert_null(strstr(w, "sched_stat"));
	assert_null(strstr(w, "schedstats"));
	assert_null(strstr(missing, "sched_stat"));
	free(w);
	free(missing);

	w = bp_boot_cmdline(BP_KVER(4, 5), "bootprof", NULL, NULL, 1, 8192, &missing);
	assert_non_null(strstr(w, ",sched:sched_stat_iowait,sched:sched_stat_blocked,"));
	assert_null(strstr(w, "schedstats="));
	free(w);
	free(missing);

	w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", live, NULL, 1, 1024, &missing);
	assert_string_equal(w, "trace_instance=bootprof,sched:sched_switch,sched:sched_stat_iowait"
			       " trace_buf_size=1024K schedstats=enable");
	assert_non_null(strstr(missing, "sched:sched_stat_blocked"));
	free(w);
	free(missing);

	w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", "sched:sched_switch\n", NULL, 1, 1024, &missing);
	assert_string_equal(w, "trace_instance=bootprof,sched:sched_switch trace_buf_size=1024K");
	free(w);
	free(missing);
}

/*
 * The kallsyms a boot recording keeps, read when it is saved: the kernel
 * image's symbol at or below each initcall address and the next symbol
 * (its bound); nothing of modules, whose init sections were freed and
 * reused by then (the boot that named module inits after jbd2 and
 * ata_piix functions).
 */
static void test_kallsyms_keep(void **state)
{
	static const char text[] =
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff82a03000 t ext4_init_fs\n"       /* out of order: sorted */
		"ffffffff81000000 T _stext\n"
		"ffffffff82a01230 t pci_subsys_init\n"
		"ffffffff82a01300 t pci_subsys_init_alias\n"
		"ffffffff82a01300 t next_one\n"
		"ffffffff82a02000 t virtio_blk_init\n"
		"ffffffff82a04000 T _etext\n"
		"ffffffffc0a80000 t wait_transaction_locked\t[jbd2]\n"
		"ffffffffc0ab5240 t ich_pata_cable_detect\t[ata_piix]\n"
		"ffffffffc0c00000 t bpf_prog_x\t[bpf]";        /* no final newline */
	const uint64_t addrs[] = {
		0xffffffff82a01230ull, /* exact: it and its bound (two aliases) */
		0xffffffff82a03000ull, /* exact: it and _etext */
		0xffffffff82a04000ull, /* the last image symbol: no bound, nothing */
		0xffffffffc0ab5240ull, /* a module's address: nothing */
		0xffffffff80000000ull, /* below everything: nothing */
	};
	size_t len = 0;
	char *kept = bp_kallsyms_keep(text, strlen(text), addrs, 5, &len);

	(void)state;
	assert_non_null(kept);
	assert_string_equal(kept, "ffffffff82a01230 t pci_subsys_init\n"
				  "ffffffff82a01300 t pci_subsys_init_alias\n"
				  "ffffffff82a01300 t next_one\n"
				  "ffffffff82a03000 t ext4_init_fs\n"
				  "ffffffff82a04000 T _etext\n");
	assert_int_equal(len, strlen(kept));
	free(kept);
	/* Only modules' addresses, or kallsyms with zeros (kptr_restrict): nothing. */
	assert_null(bp_kallsyms_keep(text, strlen(text), addrs + 3, 2, &len));
	assert_int_equal(len, 0);
	assert_null(bp_kallsyms_keep("0000000000000000 t a\n0000000000000000 t b\n", 42, addrs,
				     1, &len));
	assert_null(bp_kallsyms_keep("", 0, addrs, 1, &len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_version),
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_old_kernel),
		cmocka_unit_test(test_instance_kernel),
		cmocka_unit_test(test_arch),
		cmocka_unit_test(test_live_list_and_fallback),
		cmocka_unit_test(test_schedstats),
		cmocka_unit_test(test_kallsyms_keep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
