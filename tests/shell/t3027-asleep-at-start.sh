#!/bin/sh
# A task already asleep when the recording starts. dd reads a 1 MiB file
# with O_DIRECT in a cgroup v1 blkio group limited to 100 KB/s: the
# throttle holds its one read request for about 10 s, and dd sleeps in
# read() meanwhile (state D) without a single event. A 1 s recording made
# while it sleeps reports dd, by its name, with an I/O wait in read of the
# whole recording. Ground truth: dd is in state D before and after the
# recording and its /proc/PID/schedstat (time run, time runnable, times
# run) does not change across it, so it slept from before the first event
# to after the last: its wait is the recording's span (totals.span_ns).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 100000
# Lifting the limit lets the held request go: dd ends, the group empties.
t3_at_exit='echo "$dev 0" >"$CG/blkio.throttle.read_bps_device"; [ -z "$pid" ] || wait "$pid"'

head -c 1048576 /dev/urandom >"$TEST_DIR/slow.bin"
sync
# dd's own pages cached: under the throttle, loading them would be slow too.
dd --version >/dev/null 2>&1
sh -c 'echo $$ >"$1/cgroup.procs"; exec dd if="$2" of=/dev/null bs=1M count=1 iflag=direct' \
	sleeper "$CG" "$TEST_DIR/slow.bin" 2>/dev/null &
pid=$!
# state PID: the state of a task (the name in field 2 holds no space here)
state() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }
# in_read PID: it sleeps in read(2) (x86-64 and arm64 number it 0 and 63)
in_read() {
	case "$(uname -m) $(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)" in
	'x86_64 0' | 'aarch64 63') test "$(state "$1")" = D ;;
	*) false ;;
	esac
}
i=0
while [ "$(cat /proc/$pid/comm 2>/dev/null)" != dd ] || ! in_read $pid; do
	i=$((i + 1))
	[ $i -le 50 ] || skip_all "dd never slept in an O_DIRECT read under the throttle"
	sleep 0.1
done
before=$(cat /proc/$pid/schedstat)
"$BOOTPROF_FAST" record -o "$TEST_DIR/r.dat" --duration 1 2>"$TEST_DIR/record.err" ||
	{ cat "$TEST_DIR/record.err"; not_ok 'recorded'; exit 0; }
after=$(cat /proc/$pid/schedstat)
after_state=$(state $pid)
echo "# dd pid $pid: schedstat before '$before', after '$after', state after $after_state"
expect 'dd slept through the recording (state D, did not run)' \
	"test '$after_state' = D && test '$before' = '$after'"

# The premise: nothing in the recording shows dd, not even a wake-up.
seen=$("$BOOTPROF_FAST" dump "$TEST_DIR/r.dat" | awk -v p="$pid" '
	$3 == p || $0 ~ ("[ _]pid=" p " ") { n++ } END { print n + 0 }')
expect "no event of dd in the recording (got $seen)" "test '$seen' = 0"

"$BOOTPROF" report --format json --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/r.json" ||
	{ not_ok 'the report'; exit 0; }
span=$(jq '.totals.span_ns' "$TEST_DIR/r.json")
set -- $(jq -r --argjson p "$pid" '.processes[] | select(.pid == $p) |
	"\(.comm) \(.wait_ns) \(.wait_by_cause.read)"' "$TEST_DIR/r.json")
echo "# span $span ns; dd in the report: ${1:-absent}, wait ${2:-none} ns, in read ${3:-none} ns"
expect 'dd is in the report, by its name' "test '${1:-}' = dd"
expect "dd's I/O wait is the recording's span ($span ns, got ${2:-none})" \
	"t3_within '${2:-0}' '$span' 1"
expect 'all of it in read' "test '${3:-x}' = '${2:-y}'"
