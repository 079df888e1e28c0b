#!/bin/sh
# bootprof init never prevents a boot: with tracefs missing (simulated),
# bad and unknown options, an unwritable log directory, and the recorder
# killed, the test init still runs to the end, and the kernel log says why.
# And bootprof.exact-mmap=1: a sparse mmap (every 16th page of 8 MiB) is
# exact with fault-around at one page until the recording stops, restored
# after; without it, the pages fault-around mapped are "mapped, not known
# to be used", never "used".
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

# 4. A sparse mmap, exact (bootprof.exact-mmap=1) and by default.
# sparse_pages NAME: "READ USED NEVER MAPPED TOUCHED" of /data/sparse.bin
sparse_pages() {
	boot_fetch_recording || return 1
	cp "$TEST_DIR/latest.dat" "$TEST_DIR/$1.dat"
	"$BOOTPROF" report --format csv --table files --file /data/sparse.bin "$TEST_DIR/$1.dat" |
		awk -F, '$1 == "/data/sparse.bin" { printf "%s %s %s %s ", $5, $7, $8, $13 }'
	sed -n 's/.*mmap-touch: \/data\/sparse.bin .* touched \([0-9]*\) pages.*/\1/p' "$con"
}
if fault_boot sparse-exact "" "$words $stop bootprof.exact-mmap=1 test.sparse=16"; then
	expect "sparse-exact: fault-around was one page while recording, 64 KiB again after the stop" \
		"grep -q 'TEST-INIT: fault_around_bytes recording 4096' '$con' &&
		 grep -q 'TEST-INIT: fault_around_bytes after 65536' '$con'"
	set -- $(sparse_pages sparse-exact)
	echo "# sparse-exact: read $1, used $2, never used $3, mapped $4; truth: $5 pages touched"
	expect "sparse-exact: >= 90 % of the pages read are never used, none only mapped" \
		"[ $# = 5 ] && [ '$4' = 0 ] && [ \$(( $3 * 10 )) -ge \$(( $1 * 9 )) ]"
	expect "sparse-exact: used = the touched pages, used + never used = read" \
		"[ $# = 5 ] && [ '$2' = \$(( $5 * 4096 )) ] && [ \$(( $2 + $3 )) = '$1' ]"
	expect "sparse-exact: the report says the mmap accounting was exact" \
		"'$BOOTPROF' report '$TEST_DIR/sparse-exact.dat' | grep -q '^mmap: exact (fault-around set to 4.0 KiB'"
fi
if fault_boot sparse-default "" "$words $stop test.sparse=16"; then
	expect "sparse-default: fault-around at 64 KiB throughout" \
		"grep -q 'TEST-INIT: fault_around_bytes recording 65536' '$con' &&
		 grep -q 'TEST-INIT: fault_around_bytes after 65536' '$con'"
	set -- $(sparse_pages sparse-default)
	echo "# sparse-default: read $1, used $2, never used $3, mapped $4; truth: $5 pages touched"
	expect "sparse-default: used is at most the touched pages, used + never used + mapped = read" \
		"[ $# = 5 ] && [ '$2' -le \$(( $5 * 4096 )) ] && [ \$(( $2 + $3 + $4 )) = '$1' ]"
	expect "sparse-default: the pages fault-around mapped are mapped, not known to be used" \
		"[ $# = 5 ] && [ \$(( $4 * 2 )) -ge '$1' ]"
	expect "sparse-default: the report says so" \
		"'$BOOTPROF' report '$TEST_DIR/sparse-default.dat' | grep -q '^mapped by fault-around: .*not known to be used' &&
		 ! '$BOOTPROF' report '$TEST_DIR/sparse-default.dat' | grep -q '^mmap: exact'"
fi
