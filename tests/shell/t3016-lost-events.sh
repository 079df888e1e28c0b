#!/bin/sh
# Lost events: a busy workload recorded into a tiny ring buffer loses
# events; the report says so in its header (totals are lower bounds), on
# stderr, and in json, with at least the count the recorder reported.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

F=$TEST_DIR/data
head -c 1048576 /dev/urandom >"$F"
"$BOOTPROF_FAST" record -b 16 -o "$TEST_DIR/r.dat" -- sh -c \
	"i=0; while [ \$i -lt 300 ]; do cat '$F' '$F' '$F' >/dev/null; i=\$((i + 1)); done" \
	2>"$TEST_DIR/record.err"
said=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' "$TEST_DIR/record.err")
[ -n "$said" ] || skip_all "the recording lost no events"
"$BOOTPROF" report "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt" 2>"$TEST_DIR/report.err"
expect 'the header warns that totals are lower bounds' \
	"grep -q '^LOST EVENTS: [0-9]*.*lower bound' '$TEST_DIR/report.txt'"
expect 'stderr warns too' "grep -q 'lost events while recording' '$TEST_DIR/report.err'"
lost=$("$BOOTPROF" report --format csv --table totals "$TEST_DIR/r.dat" 2>/dev/null | awk -F, '$1 == "lost_events" { print $2 }')
echo "# recorder: $said lost, report: $lost"
expect 'the report counts at least what the recorder counted' "test '${lost:-0}' -ge '$said'"
expect 'json marks the totals as lower bounds' \
	"'$BOOTPROF' report --format json '$TEST_DIR/r.dat' 2>/dev/null | grep -q '\"lower_bound\": true'"
