#!/bin/sh
# What a readahead pack wins on a boot: boot a 6.12 kernel under QEMU with a
# throttled disk (QEMU drive throttling, REPLAY_BPS bytes/s) and a planted
# workload (reads with CPU work between them; tests/boot/lib-replay.sh),
# BENCH_BOOTS times (default 3) without a pack (the first makes the pack),
# then as many times with bootprof.replay=PACK. Prints, for the medians of
# the boots without and with the pack, the
# workload's end (seconds since boot: the boot time of this scenario), its
# process tree's I/O wait and the CPU-idle-while-waiting time, and the
# ratios with/without, and what became of the preloaded pages in the first
# replayed boot (readahead --preloaded: hit, late, overtaken, miss, wasted, read again,
# late waits ...). Root, QEMU and a cached kernel (BOOT_CACHE) needed.
#
#   bench/readahead/run.sh     (BENCH_DIR, default /var/tmp/bootprof-bench-readahead; REPLAY_* as in lib-replay.sh;
#                               BENCH_ORDER=critical: the pack in readahead --order critical)
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

# BENCH_BOOTS boots each way (default 3): the medians are compared.
n=${BENCH_BOOTS:-3}
# median of the arguments
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# boots NAME WORDS FIRST: BENCH_BOOTS boots NAME1 ...; the first also
# gets the words FIRST. Sets med_end, med_wait, med_idle.
boots() {
	_ends='' _waits='' _idles='' _i=1
	while [ $_i -le "$n" ]; do
		replay_boot "$1$_i" "$2 $([ $_i = 1 ] && echo "$3")" ||
			{ echo "bench: boot $1$_i failed" >&2; exit 1; }
		_nums=$(replay_numbers "$1$_i")
		_ends="$_ends ${_nums%% *}"
		_nums=${_nums#* }
		_waits="$_waits ${_nums%% *}" _idles="$_idles ${_nums#* }"
		_i=$((_i + 1))
	done
	med_end=$(median $_ends) med_wait=$(median $_waits) med_idle=$(median $_idles)
}
# The first boot without a pack makes it; the others only run. With
# BENCH_EXACT_MMAP=1 that boot records with fault-around off
# (bootprof.exact-mmap=1), so the pack holds no page fault-around mapped
# without a use being seen.
boots cold "$words" "test.build-pack=1 ${BENCH_ORDER:+test.pack-order=$BENCH_ORDER} $([ "${BENCH_EXACT_MMAP:-0}" = 1 ] && echo bootprof.exact-mmap=1)"
c_end=$med_end c_wait=$med_wait c_idle=$med_idle
boots warm "$words bootprof.replay=/var/lib/bootprof/boot.pack test.wait-replay=1" ''
w_end=$med_end w_wait=$med_wait w_idle=$med_idle
summary=$(sed -n 's/.*bootprof-replay: \(preloaded .*\|started reads .*\)/\1/p' "$TEST_DIR/warm1.console" | head -n 1)

echo "readahead: QEMU TCG, 6.12, disk reads throttled to $REPLAY_BPS B/s; workload: $REPLAY_FILES files of $REPLAY_FILE_KB KiB with CPU work between reads"
echo "replay (boot 1 of $n): $summary"
echo "medians of $n boots each way; the pack made with exact mmap: ${BENCH_EXACT_MMAP:-0}"
awk -v ce="$c_end" -v we="$w_end" -v cw="$c_wait" -v ww="$w_wait" -v ci="$c_idle" -v wi="$w_idle" 'BEGIN {
	printf "%-34s %12s %12s %8s\n", "", "no pack", "replayed", "ratio"
	printf "%-34s %10.3f s %10.3f s %8.3f\n", "boot time (workload end)", ce, we, ce ? we / ce : 0
	printf "%-34s %10.3f s %10.3f s %8.3f\n", "workload I/O wait", cw / 1e9, ww / 1e9, cw ? ww / cw : 0
	printf "%-34s %10.3f s %10.3f s %8.3f\n", "CPU idle while waiting (all tasks)", ci / 1e9, wi / 1e9, ci ? wi / ci : 0
}'
# What became of the preloaded pages in the first replayed boot: the verdict per file.
echo "verdict, replayed boot 1 (bootprof readahead --preloaded):"
"$BOOTPROF" readahead --preloaded "$TEST_DIR/warm1.dat" | sed 's/^/  /'
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }
bench_ratio "boot time (workload end), replayed" "$(ratio "$w_end" "$c_end")" "the same boot without a pack"
bench_ratio "workload I/O wait, replayed" "$(ratio "$w_wait" "$c_wait")" "the same boot without a pack"
bench_ratio "CPU idle while waiting, replayed" "$(ratio "$w_idle" "$c_idle")" "the same boot without a pack"
