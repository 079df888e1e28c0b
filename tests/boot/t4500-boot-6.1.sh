#!/bin/sh
# Boot Debian's 6.1 kernel under QEMU with bootprof as init and trace_event=
# (no trace_instance= before 6.3): the top-level buffer holds the boot.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
boot_main_test 6.1 "bootprof.until-exec=stop-marker" "exec of stop-marker" boot
