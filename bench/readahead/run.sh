#!/bin/sh
# What a readahead pack wins on a boot: boot a 6.12 kernel under QEMU with a
# throttled disk (QEMU drive throttling, REPLAY_BPS bytes/s) and a planted
# workload (reads with CPU work between them; tests/boot/lib-replay.sh),
# once without a pack (the pack is made at its end), then N times with
# bootprof.replay=PACK. Prints, for the boot without and with the pack, the
# workload's end (seconds since boot: the boot time of this scenario), its
# process tree's I/O wait and the CPU-idle-while-waiting time, and the
# ratios with/without. Root, QEMU and a cached kernel (BOOT_CACHE) needed.
#
#   bench/readahead/run.sh     (BENCH_DIR, default /var/tmp/bootprof-bench-readahead; REPLAY_* as in lib-replay.sh)
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BOOTPROF=${BOOTPROF:-$TOP/build/bootprof}
TEST_DIR=${BENCH_DIR:-/var/tmp/bootprof-bench-readahead}
BENCH_NAME=${BENCH_NAME:-readahead}
. "$TOP/bench/lib.sh"
mkdir -p "$TEST_DIR"
. "$TOP/tests/boot/lib.sh"
. "$TOP/tests/boot/lib-replay.sh"
[ "$(id -u)" = 0 ] || bench_skip "needs root (QEMU boots, debugfs)"
why=$(boot_require_tools) || bench_skip "$why"
boot_kernel 6.12 2>/dev/null || bench_skip "no 6.12 kernel in $BOOT_CACHE (scripts/boot-kernel.sh 6.12)"
boot_build_initramfs && replay_build_disk || { echo "bench: cannot build the images" >&2; exit 1; }
words="$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null) bootprof.until-file=/run/test-done"

replay_boot cold "$words test.build-pack=1" || { echo "bench: the boot without a pack failed" >&2; exit 1; }
set -- $(replay_numbers cold)
c_end=$1 c_wait=$2 c_idle=$3
replay_boot warm "$words bootprof.replay=/var/lib/bootprof/boot.pack test.wait-replay=1" ||
	{ echo "bench: the boot with the pack failed" >&2; exit 1; }
set -- $(replay_numbers warm)
w_end=$1 w_wait=$2 w_idle=$3
summary=$(sed -n 's/.*bootprof-replay: \(preloaded .*\)/\1/p' "$TEST_DIR/warm.console" | head -n 1)

echo "readahead: QEMU TCG, 6.12, disk reads throttled to $REPLAY_BPS B/s; workload: $REPLAY_FILES files of $REPLAY_FILE_KB KiB with CPU work between reads"
echo "replay: $summary"
awk -v ce="$c_end" -v we="$w_end" -v cw="$c_wait" -v ww="$w_wait" -v ci="$c_idle" -v wi="$w_idle" 'BEGIN {
	printf "%-34s %12s %12s %8s\n", "", "no pack", "replayed", "ratio"
	printf "%-34s %10.3f s %10.3f s %8.3f\n", "boot time (workload end)", ce, we, ce ? we / ce : 0
	printf "%-34s %10.3f s %10.3f s %8.3f\n", "workload I/O wait", cw / 1e9, ww / 1e9, cw ? ww / cw : 0
	printf "%-34s %10.3f s %10.3f s %8.3f\n", "CPU idle while waiting (all tasks)", ci / 1e9, wi / 1e9, ci ? wi / ci : 0
}'
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }
bench_ratio "boot time (workload end), replayed" "$(ratio "$w_end" "$c_end")" "the same boot without a pack"
bench_ratio "workload I/O wait, replayed" "$(ratio "$w_wait" "$c_wait")" "the same boot without a pack"
bench_ratio "CPU idle while waiting, replayed" "$(ratio "$w_idle" "$c_idle")" "the same boot without a pack"
