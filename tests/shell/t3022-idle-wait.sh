#!/bin/sh
# CPU idle while waiting on the fixture recordings, computed again without
# the model's idle accounting: the union of every process's I/O-wait spans
# in `bootprof export --format chrome`, cut by the instants every CPU ran
# its idle task in trace-cmd's own reading of the sched_switch events. The
# report's total is that, to the nanosecond: the same waits, the same
# ends (a task woken onto an idle CPU stops waiting at its wakeup, not when
# that CPU switches it in).
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
command -v trace-cmd >/dev/null 2>&1 || skip_all "trace-cmd not installed"

for f in basic boot; do
	dat=$TOP/tests/fixtures/$f.dat
	w=$(t3_waiting "$dat")
	"$BOOTPROF" report --format json "$dat" >"$TEST_DIR/$f.json" 2>/dev/null
	t() { jq -r ".totals.$1" "$TEST_DIR/$f.json"; }
	expect "$f.dat: waiting wall time and CPU idle meanwhile, computed again: ${w:-?} ns" \
		"test -n '$w' && test \"\${w#* }\" = \"\$(t idle_wait_ns)\""
	expect "$f.dat: the timeline buckets add up to the total" \
		"test \"\$(jq '[.timeline.buckets[][1]] | add // 0' '$TEST_DIR/$f.json')\" = \"\$(t idle_wait_ns)\""
done
expect 'boot.dat: CPUs were idle while init'"'"'s children waited' \
	"test \"\$(jq .totals.idle_wait_ns '$TEST_DIR/boot.json')\" -gt 0"
