#!/bin/sh
# The critical path through a futex requeue. t3-requeue's main thread
# waits on futex A; t3-signaler reads cond.bin (2 MB, cold, through a
# 4 MB/s blkio limit), makes the condition true and moves A's waiters
# onto futex B with FUTEX_CMP_REQUEUE, waking none; t3-unlocker, which
# releases B every 10 ms, wakes the main thread there. The wait ended at
# the unlocker's waking, but up to the requeue it was for the condition:
# the path must reach the signaler's I/O, not the unlocker's timers.
# Truth from the raw events (`dump`): the requeue (the signaler's
# sys_enter of futex with FUTEX_CMP_REQUEUE_PRIVATE), the main thread's
# last waking (by the unlocker), the signaler's D-sleeps.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
[ "$(uname -m)" = x86_64 ] || skip_all "futex syscall number checked on x86_64 only"
t3_blkio_cgroup blkio.throttle.read_bps_device 4000000
t3_helper t3-requeue

D=$TEST_DIR/files
mkdir -p "$D"
head -c 2000000 /dev/urandom >"$D/cond.bin"
sync
cat >"$TEST_DIR/run.sh" <<EOF2
echo \$\$ >$CG/cgroup.procs
exec "$TEST_DIR/t3-requeue" "$D/cond.bin" >"$TEST_DIR/out.txt"
EOF2
t3_before_record() {
	drop_caches
	"$TEST_DIR/t3-requeue" /dev/null >/dev/null
}
t3_record_whole "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh"
"$BOOTPROF" critical --format json "$TEST_DIR/r.dat" >"$TEST_DIR/c.json" ||
	{ not_ok 'bootprof critical --format json'; exit 0; }
"$BOOTPROF" critical "$TEST_DIR/r.dat" >"$TEST_DIR/c.txt" || not_ok 'bootprof critical'
"$BOOTPROF_FAST" dump "$TEST_DIR/r.dat" >"$TEST_DIR/dump.txt"
sed -n '/== Totals/,$p' "$TEST_DIR/c.txt" | sed 's/^/# /'

S=$(awk '$1 == "requeue" { print $2 }' "$TEST_DIR/out.txt")
U=$(awk '$1 == "unlock" { print $2 }' "$TEST_DIR/out.txt")
V=$(jq .end.tid "$TEST_DIR/c.json")
# The requeue: the signaler's futex call with op FUTEX_CMP_REQUEUE_PRIVATE (0x84).
rq=$(awk -v s="$S" '$3 == s && $5 == "sys_enter:" && $7 == 202 && $9 == "84," { print $1; exit }' \
	"$TEST_DIR/dump.txt")
# Who woke the main thread last, before its exit.
last_waker=$(awk -v v="$V" '$5 == "sched_waking:" && index($0, " pid=" v " ") { w = $3 }
	$5 == "sched_process_exit:" && $3 == v { print w; exit }' "$TEST_DIR/dump.txt")
# ns the signaler slept in D: switched out in D until its next waking.
s_dsleep=$(awk -v p="$S" '
	$5 == "sched_switch:" && index($0, " prev_pid=" p " ") && / prev_state=D/ { start = $1; asleep = 1; next }
	asleep && $5 == "sched_waking:" && index($0, " pid=" p " ") { sum += $1 - start; asleep = 0 }
	END { printf "%.0f\n", sum * 1e9 }' "$TEST_DIR/dump.txt")
echo "# main $V, signaler $S (requeue at $rq, D-sleep $s_dsleep ns), unlocker $U; the main thread last woken by $last_waker"
expect 'the premises: the requeue is in the raw events, the unlocker woke the main thread, the throttle held the signaler over 300 ms' \
	"[ -n '$S' ] && [ -n '$U' ] && [ -n '$rq' ] && [ '$last_waker' = '$U' ] && [ '$s_dsleep' -gt 300000000 ]"
expect 'the path ends at the command'"'"'s exit and tiles the recording' \
	"t3_critical_tiles '$TEST_DIR/c.json' && jq -e '.end.what == \"exit\"' '$TEST_DIR/c.json'"

io=$(jq --argjson s "$S" --arg f "$D/cond.bin" \
	'[.segments[] | select(.tid == $s and .state == "io" and .file.path == $f) | .ns] | add // 0' \
	"$TEST_DIR/c.json")
echo "# the signaler's I/O on cond.bin on the path: $io ns"
expect "the path holds the signaler's I/O on cond.bin: its D-sleep, within 3 %" \
	"t3_within '$io' '$s_dsleep' 3"
# The main thread's wait: on the signaler up to the requeue, on the
# unlocker after it.
set -- $(jq -r --argjson v "$V" --argjson s "$S" --argjson u "$U" '
	[.waits[] | select(.tid == $v and .ns > 100000000)] as $w |
	"\($w | length) \([$w[] | select(.waker.tid == $s and .via == "requeue")] | length)
	 \([.waits[] | select(.tid == $v and .waker.tid == $s and .via == "requeue") | .end_ns][0] // 0)
	 \([.waits[] | select(.tid == $v and .waker.tid == $u and .via == null) | .start_ns][0] // 0)"' \
	"$TEST_DIR/c.json")
nlong=$1 non_s=$2 s_end=$3 u_start=$4
echo "# long waits of the main thread: $nlong, on the signaler up to the requeue: $non_s (to $s_end), on the unlocker from $u_start"
expect "the main thread's long wait is on the signaler, up to the requeue" \
	"[ '$nlong' = 1 ] && [ '$non_s' = 1 ] && [ '$(t3_us "$s_end")' = '$rq' ] && [ '$u_start' = '$s_end' ]"
u_before=$(jq --argjson u "$U" --argjson r "$s_end" \
	'[.segments[] | select(.tid == $u and .start_ns < $r)] | length' "$TEST_DIR/c.json")
u_ns=$(jq --argjson u "$U" '[.segments[] | select(.tid == $u) | .ns] | add // 0' "$TEST_DIR/c.json")
echo "# the unlocker on the path: $u_ns ns, $u_before segments before the requeue"
expect 'the unlocker is on the path only after the requeue, one period at most (12 ms)' \
	"[ '$u_before' = 0 ] && [ '$u_ns' -le 12000000 ]"
expect 'the text names the requeue' \
	"grep -q 'requeued t3-requeue\\[$V\\]' '$TEST_DIR/c.txt' && grep -q 't3-signaler\\[$S\\] (requeue)' '$TEST_DIR/c.txt'"
