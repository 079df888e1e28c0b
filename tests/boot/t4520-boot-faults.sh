#!/bin/sh
# bootprof init never prevents a boot: with tracefs missing (simulated),
# bad and unknown options, an unwritable log directory, and the recorder
# killed, the test init still runs to the end, and the kernel log says why.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
# One CPU: these boots check behaviour, not per-CPU merging, and boot faster under TCG.
BOOT_SMP=1
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
boot_build_initramfs || skip_all "cannot build the initramfs"
words=$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 4096 2>/dev/null)
stop="bootprof.until-file=/run/test-done"

# fault_boot NAME DISK-MODE WORDS...: boot; console in $TEST_DIR/NAME.console
fault_boot() {
	name=$1 mode=$2
	shift 2
	boot_build_disk $mode || { not_ok "$name: build the disk"; return 1; }
	boot_scenario "$name" 180 "$*"
	rc=$?
	con=$TEST_DIR/$name.console
	echo "# $name: booted in $BOOT_SECONDS s (status $rc)"
	expect "$name: the test init still runs to the end" \
		"[ $rc = 0 ] && grep -q 'TEST-INIT: root pid 1' '$con' && grep -q 'TEST-INIT: done' '$con'"
}

# 1. No tracefs (test fault), an unknown option and a bad value.
if fault_boot no-tracefs "" "$words $stop bootprof.test=1 bootprof.fault=no-tracefs" \
	"bootprof.bogus=1 bootprof.duration=abc test.wait=2"; then
	expect "no-tracefs: the kernel log says why there is no recording" \
		"grep -q 'bootprof: cannot record the boot: tracefs is not available' '$con'"
	expect "no-tracefs: unknown option reported" \
		"grep -q \"bootprof: warning: ignoring unknown option 'bootprof.bogus'\" '$con'"
	expect "no-tracefs: bad value reported" \
		"grep -q \"bootprof: warning: ignoring bad bootprof.duration='abc'\" '$con'"
	expect "no-tracefs: nothing saved" "! grep -q 'bootprof: saved' '$con'"
fi

# 2. /var/log/bootprof immutable: saving fails, the boot goes on.
if fault_boot read-only-log immutable-log-dir "$words $stop test.wait=5"; then
	expect "read-only-log: the kernel log says the recording could not be saved" \
		"grep -q \"bootprof: cannot save the recording: cannot create '/var/log/bootprof/boot-.*Operation not permitted\" '$con'"
fi

# 3. The recorder killed; a fault word without bootprof.test=1 is ignored.
if fault_boot killed "" "$words $stop test.kill-recorder=1 test.wait=2 bootprof.fault=no-tracefs"; then
	expect "killed: the recorder was there to kill" "grep -q 'TEST-INIT: killed the recorder' '$con'"
	expect "killed: fault words need bootprof.test=1" \
		"grep -q 'ignoring bootprof.fault= without bootprof.test=1' '$con'"
fi
