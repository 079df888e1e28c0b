#!/bin/sh
# The critical path through an event loop. t3-epoll's server waits in
# epoll_wait on two pipes: t3-noise wakes it every 10 ms for nothing,
# t3-producer sleeps 200 ms, spins 300 ms of CPU and writes the byte the
# server exits on. Of the many wakings of the server (counted here from
# the raw sched_waking events), the path to the command's exit must take
# the producer's: before the server's last run the path is the
# producer's, the producer's spin is CPU on the path (against its time on a CPU from the
# raw sched_switch events) and its sleep an interrupt segment; the noise
# is on no segment and woke no wait of the path.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_helper t3-epoll

t3_record_whole "$TEST_DIR/r.dat" "$TEST_DIR/t3-epoll" 200 300
"$BOOTPROF" critical --format json "$TEST_DIR/r.dat" >"$TEST_DIR/c.json" ||
	{ not_ok 'bootprof critical --format json'; exit 0; }
"$BOOTPROF_FAST" dump "$TEST_DIR/r.dat" >"$TEST_DIR/dump.txt"

# Who is who, from the raw events: each by the comm it switched out with.
pid_of() {
	sed -n "s/.* sched_switch: prev_comm=$1 prev_pid=\([0-9]*\) .*/\1/p" "$TEST_DIR/dump.txt" | head -n 1
}
S=$(pid_of t3-server) P=$(pid_of t3-producer) N=$(pid_of t3-noise)
# Wakings of the server, by the task in whose context they were traced.
wakes() {
	awk -v by="$1" -v s="$S" '$5 == "sched_waking:" && $3 == by && index($0, " pid=" s " ")' \
		"$TEST_DIR/dump.txt" | wc -l
}
nw=$(wakes "$N") pw=$(wakes "$P")
echo "# server $S, producer $P, noise $N; the server woken $nw times by the noise, $pw by the producer"
expect 'the premise: the noise woke the server 10 times or more, the producer once' \
	"[ -n '$S' ] && [ -n '$P' ] && [ -n '$N' ] && [ '$nw' -ge 10 ] && [ '$pw' = 1 ]"
expect 'the path ends at the server'"'"'s exit and tiles the recording' \
	"t3_critical_tiles '$TEST_DIR/c.json' && jq -e '.end.what == \"exit\" and .end.tid == $S' '$TEST_DIR/c.json'"
# From the server's last run the path goes back to the producer, at the
# waking its byte made.
expect "before the server's last run, the path is the producer's, and the server's last wait one on it" \
	"jq -e '[.segments[] | select(.tid != $S)][-1].tid == $P and
		[.waits[] | select(.tid == $S)][-1].waker.tid == $P' '$TEST_DIR/c.json'"
set -- $(jq -r --argjson p "$P" '[.segments[] | select(.tid == $p)] |
	"\(map(select(.state == "cpu") | .ns) | add // 0) \(map(select(.state == "cpu")) | length) \(map(select(.state == "interrupt") | .ns) | add // 0)"' \
	"$TEST_DIR/c.json")
cpu=$1 nruns=$2 nap=$3
oncpu=$(awk -v p="$P" '
	$5 == "sched_switch:" && index($0, "next_pid=" p " ") { on = $1 }
	on && $5 == "sched_switch:" && index($0, "prev_pid=" p " ") { sum += $1 - on; on = 0 }
	END { printf "%.0f\n", sum * 1e9 }' "$TEST_DIR/dump.txt")
echo "# the producer on the path: CPU $cpu ns in $nruns runs (on a CPU: $oncpu ns), asleep on its timer $nap ns"
expect "the producer's CPU on the path is its time on a CPU (within 1 % + 2 ms)" \
	"awk -v a='$cpu' -v b='$oncpu' 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 100 + 2000000) }'"
low=$((300000000 - 1000000 - nruns * 75000))
expect "its 300 ms of spinning are on the path (at least $low ns)" "[ '$cpu' -ge '$low' ]"
expect 'its 200 ms nap is an interrupt segment (its timer)' "[ '$nap' -ge 190000000 ]"
expect 'the noise is on no segment and woke no wait of the path' \
	"jq -e --argjson n '$N' '([.segments[] | select(.tid == \$n)] | length == 0) and
		([.waits[] | select(.tid == \$n or .waker.tid == \$n)] | length == 0)' '$TEST_DIR/c.json'"
