#!/bin/sh
# Boot bookworm-backports' 6.12 kernel under QEMU with bootprof as init and
# trace_instance=bootprof,...: filemap access events, never-used pages; the
# instance keeps the local clock (trace_clock= sets only the top level).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
boot_main_test 6.12 "bootprof.until-file=/run/test-done" "file /run/test-done appeared" local
