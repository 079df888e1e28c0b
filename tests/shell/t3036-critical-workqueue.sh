#!/bin/sh
# The critical path through a kworker: sync(1) queues the writeback work
# and sleeps until the kworker that ran it wakes it. A kworker runs for
# whoever queued the item it runs (workqueue_queue_work,
# workqueue_execute_start), not for whatever it ran before: every time
# the path leaves a kworker for another task, the kworker's run-queue
# segment must end where the raw events start that work item and begin
# where the other task last queued that same work struct.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
[ -d $TRACEFS/events/workqueue ] || skip_all "no workqueue events on this kernel"

cat >"$TEST_DIR/work.sh" <<SH
dd if=/dev/zero of="$TEST_DIR/dirty" bs=1M count=32 2>/dev/null
sync
SH
t3_record_whole "$TEST_DIR/r.dat" sh "$TEST_DIR/work.sh"
"$BOOTPROF" critical --format json "$TEST_DIR/r.dat" >"$TEST_DIR/c.json" ||
	{ not_ok 'bootprof critical --format json'; exit 0; }
"$BOOTPROF_FAST" dump --events workqueue:workqueue_queue_work,workqueue:workqueue_execute_start \
	"$TEST_DIR/r.dat" >"$TEST_DIR/wq.txt"

# Each hand-over from a kworker's run-queue segment to another task:
# "QUEUER_TID QUEUED_US KWORKER_TID STARTED_US" (µs, as dump prints them).
jq -r '.segments as $s | range(1; $s | length) as $i |
	select(($s[$i].comm | startswith("kworker")) and $s[$i].state == "runq" and
	       $s[$i - 1].tid != $s[$i].tid) |
	"\($s[$i - 1].tid) \($s[$i].start_ns / 1000 | floor) \($s[$i].tid) \($s[$i].end_ns / 1000 | floor)"' \
	"$TEST_DIR/c.json" >"$TEST_DIR/jumps"
n=$(wc -l <"$TEST_DIR/jumps")
sed 's/^/# hand-over: /' "$TEST_DIR/jumps"
expect "the path goes from a kworker to the task that queued its work ($n times)" "test $n -ge 1"

# Truth from the raw events: the work struct the kworker started at that
# microsecond, and who queued it last before.
bad=$(while read -r q qus k kus; do
	awk -v q="$q" -v qus="$qus" -v k="$k" -v kus="$kus" '
	function us(t) { split(t, f, "."); return f[1] * 1000000 + substr(f[2] "000000", 1, 6) }
	$5 == "workqueue_queue_work:" { w = $7; sub(/^struct=/, "", w); by[w] = $3; at[w] = us($1) }
	$5 == "workqueue_execute_start:" && $3 == k && us($1) == kus {
		w = $8; sub(/:$/, "", w)
		found = 1
		if (by[w] != q || at[w] != qus)
			print "work " w " started by " k " at " kus " was queued by " by[w] " at " at[w] ", path says " q " at " qus
	}
	END { if (!found) print "no work started by " k " at " kus }' "$TEST_DIR/wq.txt"
done <"$TEST_DIR/jumps")
[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'
expect "each hand-over is the raw events' queuing of the work started there" "test -z '$bad'"

# The path still tiles the recording to the end.
expect "the segments tile the path" \
	"jq -e '[.segments as \$s | range(1; \$s | length) as \$i | select(\$s[\$i].start_ns != \$s[\$i - 1].end_ns)] | length == 0' '$TEST_DIR/c.json'"
