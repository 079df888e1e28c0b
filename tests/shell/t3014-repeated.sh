#!/bin/sh
# Repeated work: a script exec'ing /bin/true 100 times is reported as 100
# execs of /bin/true, in the text report and the csv table.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

t3_record "$TEST_DIR/r.dat" sh -c 'i=0; while [ $i -lt 100 ]; do /bin/true; i=$((i + 1)); done'
t3_csv "$TEST_DIR/r.dat" execs >"$TEST_DIR/execs.csv"
n=$(t3_field "$TEST_DIR/execs.csv" 1 /bin/true 2)
expect "/bin/true exec'd 100 times (got ${n:-none})" "test '${n:-0}' = 100"
"$BOOTPROF" report "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
expect 'the text report shows it under repeated work' \
	"sed -n '/^== Repeated work: programs/,/^== /p' '$TEST_DIR/report.txt' | grep -Eq '^ *100 .*/bin/true\$'"
t3_csv "$TEST_DIR/r.dat" processes >"$TEST_DIR/procs.csv"
expect '100 processes ran /bin/true' "test \$(grep -c ',/bin/true,' '$TEST_DIR/procs.csv') = 100"
