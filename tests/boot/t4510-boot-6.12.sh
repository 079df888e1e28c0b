#!/bin/sh
# Boot bookworm-backports' 6.12 kernel under QEMU with bootprof as init and
# trace_instance=bootprof,...: filemap access events, never-used pages; the
# instance keeps the local clock (trace_clock= sets only the top level);
# syscall context from the first process; a reader's I/O wait against its
# schedstat truth.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
# Reads throttled (QEMU) so the reader's waits are long enough to judge: its
# I/O wait must match its schedstat truth within 3 %, and the kernel's own
# count of it (sched_stat_iowait) within 2 % (the I/O-wait rule:
# docs/design.md, 'I/O wait').
BOOT_READ_BPS=4194304
boot_main_test 6.12 "bootprof.until-file=/run/test-done" "file /run/test-done appeared" local
