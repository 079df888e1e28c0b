#!/bin/sh
# bootprof init without the tracing words on the kernel command line: no
# boot-time buffer, so the recorder creates its own instance (clock boot)
# and records from the moment it starts; the rest of the boot is still
# attributed, and the instance is gone afterwards.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
# One CPU: these boots check behaviour, not per-CPU merging, and boot faster under TCG.
BOOT_SMP=1
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
boot_build_initramfs || skip_all "cannot build the initramfs"
boot_build_disk || skip_all "cannot build the disk"
boot_scenario boot 180 "bootprof.until-exec=stop-marker bootprof.buffer-size=4096"
rc=$?
con=$TEST_DIR/boot.console
echo "# booted in $BOOT_SECONDS s (status $rc)"
expect "boots, the test init runs to the end" "[ $rc = 0 ] && grep -q 'TEST-INIT: done' '$con'"
if ! boot_fetch_recording; then
	not_ok "the recording is saved"
	grep -E 'bootprof|TEST-INIT' "$con" | sed 's/^/#   /' | tail -n 20
	exit 0
fi
ok "the recording is saved"
dump=$TEST_DIR/dump.txt
"$BOOTPROF" dump "$TEST_DIR/latest.dat" >"$dump"
expect "recorded into an instance made after boot" \
	"grep -q 'bootprof: saved .* from the instance bootprof-[0-9]* (created after boot)' '$con'"
expect "clock boot" "grep -q '^# clock: boot' '$dump'"
# The kernel image's initcalls ran before the recorder; the modules the
# test init loads afterwards have theirs recorded, each after its load.
expect "no initcall of the kernel image (they ran before the recorder), only module inits" \
	"awk '\$5 == \"module_load:\" { m[\$3] = 1 } \$5 == \"initcall_start:\" && !m[\$3] { bad = 1 } END { exit bad }' '$dump'"
boot_recorder_checks "" "$TEST_DIR/latest.dat" "$dump"
inode=$(boot_inode /data/big.bin)
pid=$(sed -n 's/^TEST-INIT: dd pid \([0-9]*\).*/\1/p' "$con")
got=$(boot_bytes_added "$dump" "$(printf '%x' "$inode")" "$pid")
expect "big.bin read by dd (pid $pid): 1048576 bytes" "[ '$got' = 1048576 ]"
expect "stopped on the exec" "grep -q 'stopped: exec of stop-marker' '$con'"
expect "no instance left afterwards" "grep -q 'TEST-INIT: instances \[\]' '$con'"
