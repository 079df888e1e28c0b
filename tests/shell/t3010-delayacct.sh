#!/bin/sh
# Per-process I/O wait agrees with the kernel's delay accounting within 5 %:
# three concurrent readers doing random 4 KiB preads over their own cold
# 128 MiB files for 3 s each; the helper reads each reader's
# blkio_delay_total (taskstats) while it is stopped, before it is reaped.
# The readers run SCHED_FIFO: for fair tasks, EEVDF's delayed dequeue makes
# the kernel's own blkio numbers wrong (see tests/helpers/t3-readers.c).
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
[ -e /proc/sys/kernel/task_delayacct ] || skip_all "no delay accounting in this kernel"
t3_helper t3-readers

D=$TEST_DIR/readers
mkdir -p "$D"
"$TEST_DIR/t3-readers" create "$D" 3 128 || skip_all "cannot create the files"
old=$(cat /proc/sys/kernel/task_delayacct)
restore() {
	echo "$old" >/proc/sys/kernel/task_delayacct
	rm -rf "$TEST_DIR"
}
trap restore EXIT
echo 1 >/proc/sys/kernel/task_delayacct

# Another process toggling delay accounting mid-wait garbles the kernel's
# numbers (a wait ending without a start counts the whole uptime): retry.
for attempt in 1 2 3; do
	drop_caches
	rm -f "$TEST_DIR/r.dat"
	T3_FIFO=1 t3_record "$TEST_DIR/r.dat" "$TEST_DIR/t3-readers" run "$D" 3 3 \
		>"$TEST_DIR/truth" || break
	awk '$2 < 1000000000 || $2 > 10000000000 { bad = 1 } END { exit bad }' \
		"$TEST_DIR/truth" && break
done
echo "$old" >/proc/sys/kernel/task_delayacct

expect 'readers ran and were measured' "test \$(wc -l <'$TEST_DIR/truth') = 3"
expect 'each reader waited at least 1 s (taskstats)' \
	"awk '\$2 < 1000000000 { exit 1 }' '$TEST_DIR/truth'"
t3_csv "$TEST_DIR/r.dat" processes >"$TEST_DIR/procs.csv"
i=0
while read -r pid truth ticks; do
	got=$(t3_field "$TEST_DIR/procs.csv" 1 "$pid" 8)
	read_ns=$(t3_field "$TEST_DIR/procs.csv" 1 "$pid" 9)
	worst=$(t3_field "$TEST_DIR/procs.csv" 1 "$pid" 20)
	echo "# pid $pid: bootprof ${got:-none} ns, delay accounting $truth ns ($ticks ticks)"
	expect "pid $pid: I/O wait within 5% of blkio_delay_total" \
		"t3_within '${got:-0}' '$truth' 5"
	expect "pid $pid: the wait is in read and charged to its file" \
		"test '$worst' = '$D/r$i' && t3_within '${read_ns:-0}' '${got:-0}' 2"
	i=$((i + 1))
done <"$TEST_DIR/truth"
