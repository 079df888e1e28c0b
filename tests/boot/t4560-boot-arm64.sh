#!/bin/sh
# Boot bookworm-backports' 6.12 arm64 kernel under qemu-system-aarch64 -M virt
# (TCG) with the static arm64 bootprof as init, as t4510 boots the x86_64
# one: exact bytes of planted files, initcalls named, module inits, the
# reader's I/O wait against its schedstat truth and against the kernel's
# blkio delay (delayacct), the boot buffer gone afterwards. The words come
# from the arm64 bootprof itself (run by qemu-aarch64): an arm64 kernel's
# (no open, no access; the kernel ignores unknown events in the words
# silently, so t4000 and the unit tests check the list).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
BOOT_ARCH=arm64
. "$TOP/tests/boot/lib.sh"
require_root
BOOT_READ_BPS=4194304
boot_main_test 6.12 "bootprof.until-file=/run/test-done delayacct" "file /run/test-done appeared" local
# The report's header (less the words) and headline, for the record.
[ -s "$TEST_DIR/report.txt" ] &&
	sed -n -e '/^\(host\|command\|span\|lost\|recorder\|attributed\):/p' \
		-e '/^== Summary/,/^$/p' "$TEST_DIR/report.txt" | sed 's/^/# /'
