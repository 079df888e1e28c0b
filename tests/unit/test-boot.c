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
	char *w = bp_boot_cmdline(BP_KVER(6, 1), "bootprof", NULL, 16384, &missing);

	(void)state;
	assert_true(!strncmp(w, "trace_event=sched:sched_switch,", 31));
	assert_non_null(strstr(w, ",initcall:*,syscalls:sys_enter_read,syscalls:sys_exit_read,"));
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
	char *w = bp_boot_cmdline(BP_KVER(6, 12), "early", NULL, 8192, &missing);

	(void)state;
	assert_true(!strncmp(w, "trace_instance=early,sched:sched_switch,", 40));
	assert_non_null(strstr(w, "filemap:mm_filemap_map_pages"));
	/* trace_clock= would only set the top-level buffer. */
	assert_null(strstr(w, "trace_clock"));
	assert_non_null(strstr(w, " trace_buf_size=8192K"));
	free(w);
	free(missing);
}

/* A live list decides, and an old event stands in for a missing one. */
static void test_live_list_and_fallback(void **state)
{
	const char *live = "sched:sched_switch\nsched:sched_wakeup\ninitcall:initcall_level\n";
	char *missing = NULL;
	char *w = bp_boot_cmdline(BP_KVER(6, 12), "bootprof", live, 1024, &missing);

	(void)state;
	assert_string_equal(w, "trace_instance=bootprof,sched:sched_switch,sched:sched_wakeup,"
			       "initcall:* trace_buf_size=1024K");
	assert_non_null(strstr(missing, "filemap:mm_filemap_add_to_page_cache"));
	assert_null(strstr(missing, "sched:sched_waking"));
	free(w);
	free(missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_version),
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_old_kernel),
		cmocka_unit_test(test_instance_kernel),
		cmocka_unit_test(test_live_list_and_fallback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
