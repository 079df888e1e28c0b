#!/bin/sh
# A recording cut while it is being read (it is mapped: the pages past the
# new end fault with SIGBUS) ends the command with one line, "the recording
# shrank while being read", and exit 1: never a crash.
. "$(dirname "$0")/../test-lib.sh"

command -v python3 >/dev/null || skip_all "python3 not installed"
seed=$TOP/tests/fuzz/corpus/recordings/bootprof-default-events.dat
# About 10 MB, 200 000 events: far more than a pipe holds.
python3 "$TOP/tests/fuzz/tracedat.py" repeat "$seed" "$TEST_DIR/big.dat" 400 ||
	skip_all "cannot lay out a large recording"
mkfifo "$TEST_DIR/pipe" || skip_all "cannot make a FIFO"

# Deterministic: dump writes into a pipe nobody reads, so it stops early
# in the file; the file is cut to its headers and one page; then the pipe
# is drained and dump reads on, into pages that are gone.
cp "$TEST_DIR/big.dat" "$TEST_DIR/cut.dat"
(
	$BOOTPROF dump "$TEST_DIR/cut.dat" >"$TEST_DIR/pipe" 2>"$TEST_DIR/err"
	echo $? >"$TEST_DIR/rc"
) &
exec 3<"$TEST_DIR/pipe"
head -n 10 <&3 >/dev/null
truncate -s 36864 "$TEST_DIR/cut.dat"
cat <&3 >/dev/null
exec 3<&-
wait
expect 'dump of a file cut while read: exit 1, one line' \
	"[ \$(cat '$TEST_DIR/rc') = 1 ] && [ \$(wc -l <'$TEST_DIR/err') = 1 ] &&
	 grep -qx \"bootprof: cannot read '$TEST_DIR/cut.dat': the recording shrank while being read\" \
		'$TEST_DIR/err' || { cat '$TEST_DIR/rc' '$TEST_DIR/err'; false; }"

# report reads without output to block on: stopped as soon as it has
# opened the file (its map is in /proc/PID/maps), cut, then let go.
cp "$TEST_DIR/big.dat" "$TEST_DIR/cut2.dat"
$BOOTPROF report "$TEST_DIR/cut2.dat" >/dev/null 2>"$TEST_DIR/err2" &
pid=$!
i=0
while [ $i -lt 2000 ] && ! grep -q "cut2.dat" /proc/$pid/maps 2>/dev/null; do
	i=$((i + 1))
done
if kill -STOP $pid 2>/dev/null; then
	truncate -s 36864 "$TEST_DIR/cut2.dat"
	kill -CONT $pid
	wait $pid
	rc=$?
	if [ $rc = 0 ]; then
		skip 'report of a file cut while read' 'it had read the file before it was cut'
	else
		expect 'report of a file cut while read: exit 1, one line' \
			"[ $rc = 1 ] && [ \$(wc -l <'$TEST_DIR/err2') = 1 ] &&
			 grep -q 'shrank while being read' '$TEST_DIR/err2' ||
			 { echo rc=$rc; cat '$TEST_DIR/err2'; false; }"
	fi
else
	wait $pid
	skip 'report of a file cut while read' 'it ended before it could be stopped'
fi

