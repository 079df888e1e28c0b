#!/bin/sh
# The recorder under faults: kill -9 in the middle of a run, a full disk, a
# disk returning EIO (the LD_PRELOAD shim tests/fault/fault.c), a ring
# buffer too small for the I/O. Each leaves a readable recording (to its
# last complete page), says what happened in one line, counts lost events
# in every view, and leaves tracing as it found it.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

SHIM=$BUILD/tests/fault.so
# Readers of the damaged recordings: one line at most on stderr, no sanitizer.
readable() {
	$BOOTPROF dump --count "$1" >"$TEST_DIR/count" 2>"$TEST_DIR/rerr" &&
		[ "$(sed -n 's/ total$//p' "$TEST_DIR/count")" -gt 0 ] &&
		! grep -q -e Sanitizer -e 'runtime error' "$TEST_DIR/rerr" &&
		[ "$(wc -l <"$TEST_DIR/rerr")" -le 1 ]
}
one_line() {
	[ "$(wc -l <"$TEST_DIR/stderr")" = 1 ] && grep -q "^bootprof: $1" "$TEST_DIR/stderr"
}
# I/O for the recorder to trace, run by sh -c.
WORK='cat /usr/lib/x86_64-linux-gnu/*.so* /usr/bin/* >/dev/null 2>&1; find /usr/share >/dev/null 2>&1'


tracing_snapshot

# ---- kill -9 in the middle of a run ----
out=$TEST_DIR/killed.dat
$BOOTPROF record -o "$out" --buffer-size 256 --duration 120 -- sh -c "$WORK; sleep 120" \
	>/dev/null 2>"$TEST_DIR/stderr" &
pid=$!
i=0
while [ $i -lt 200 ] && ! [ -d $TRACEFS/instances/bootprof-$pid ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 4
kill -9 $pid
wait $pid 2>/dev/null
expect 'kill -9: the recording is readable' "readable '$out'"
expect 'kill -9: dump warns it was not finished' \
	"grep -q 'recording was not finished (recorder killed?): read from its spool' '$TEST_DIR/rerr'"
expect 'kill -9: report reads it, says truncated' \
	"$BOOTPROF report '$out' >'$TEST_DIR/report' 2>'$TEST_DIR/rerr' && grep -q TRUNCATED '$TEST_DIR/report' &&
	 grep -q 'not finished' '$TEST_DIR/rerr' && ! grep -q Sanitizer '$TEST_DIR/rerr'"
expect 'kill -9: report --format json reads it' \
	"$BOOTPROF report --format json '$out' 2>/dev/null | grep -q '\"truncated\": true'"
expect 'kill -9: its instance is left behind' "test -d $TRACEFS/instances/bootprof-$pid"
# The next recording removes it, with a warning.
$BOOTPROF record -o "$TEST_DIR/next.dat" --duration 0.2 2>"$TEST_DIR/stderr"
expect 'next record: removes the stale instance, with a warning' \
	"grep -q \"warning: removed trace instance 'bootprof-$pid' left by a recorder that is gone\" '$TEST_DIR/stderr'"
expect_tracing_clean 'kill -9, then the next record' $pid
# Recordings taken with a live recorder's instance left alone: ours only.
pkill -P $$ -x sleep 2>/dev/null

# ---- a full disk (ENOSPC) ----
mkdir "$TEST_DIR/full" "$TEST_DIR/tiny"
if mount -t tmpfs -o size=2m tmpfs "$TEST_DIR/full" 2>/dev/null; then
	sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" $BOOTPROF record -o "$TEST_DIR/full/x.dat" \
		-- sh -c "$WORK" >/dev/null 2>"$TEST_DIR/stderr"
	rc=$?
	pid=$(cat "$TEST_DIR/pid")
	# With -- CMD, bootprof's own failure is 125 (bootprof-record(1)).
	expect 'ENOSPC: exit 125, one line' "[ $rc = 125 ] && one_line \"cannot write .*No space left\""
	expect 'ENOSPC: the prefix is readable' "readable '$TEST_DIR/full/x.dat'"
	expect 'ENOSPC: report reads the prefix' "$BOOTPROF report '$TEST_DIR/full/x.dat' >/dev/null 2>&1"
	# The copy out of the spool did not fit: the file reads every page from it.
	expect 'ENOSPC: every recorded page kept, in the spool' \
		"ls -d '$TEST_DIR/full/'.x.dat.spool-* && grep -q 'read from its spool' '$TEST_DIR/rerr'"
	expect 'ENOSPC: record and readers say what was kept, and why' \
		"grep -q 'every recorded page was kept in the spool' '$TEST_DIR/stderr' &&
		 grep -q 'could not be finished (the disk was full)' '$TEST_DIR/rerr' ||
		 { cat '$TEST_DIR/stderr' '$TEST_DIR/rerr'; false; }"
	expect_tracing_clean 'ENOSPC' "$pid"
	umount "$TEST_DIR/full"
else
	skip 'ENOSPC' 'cannot mount a small tmpfs'
fi
# Too small even for the headers: fails at once, leaves nothing.
if mount -t tmpfs -o size=16k tmpfs "$TEST_DIR/tiny" 2>/dev/null; then
	sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" $BOOTPROF record -o "$TEST_DIR/tiny/x.dat" \
		--duration 1 >/dev/null 2>"$TEST_DIR/stderr"
	rc=$?
	pid=$(cat "$TEST_DIR/pid")
	expect 'ENOSPC at the headers: exit 1, one line' "[ $rc = 1 ] && one_line 'cannot write'"
	expect 'ENOSPC at the headers: no spool left' "! ls -d '$TEST_DIR/tiny/'.*spool* 2>/dev/null"
	expect_tracing_clean 'ENOSPC at the headers' "$pid"
	umount "$TEST_DIR/tiny"
else
	skip 'ENOSPC at the headers' 'cannot mount a small tmpfs'
fi

# ---- EIO: on the spool while recording, on the output while finishing ----
if [ -f "$SHIM" ]; then
	for where in spool output; do
		out=$TEST_DIR/eio-$where.dat
		case $where in
		spool) path=/.eio-$where.dat.spool ;;
		output) path=/eio-$where.dat ;;
		esac
		sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" env BP_FAULT_PATH=$path \
			BP_FAULT_AFTER=1500000 LD_PRELOAD="$SHIM" \
			ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" \
			$BOOTPROF record -o "$out" -- sh -c "$WORK" \
			>/dev/null 2>"$TEST_DIR/stderr"
		rc=$?
		pid=$(cat "$TEST_DIR/pid")
		expect "EIO on the $where: exit 125 (own failure with -- CMD), one line" \
			"[ $rc = 125 ] && one_line \"cannot write .*Input/output error\" || { cat '$TEST_DIR/stderr'; false; }"
		expect "EIO on the $where: the prefix is readable" "readable '$out'"
		expect "EIO on the $where: no spool left" "! ls -d '$TEST_DIR/'.eio-$where*spool* 2>/dev/null"
		expect_tracing_clean "EIO on the $where" "$pid"
	done
else
	skip 'EIO' "no $SHIM"
fi

# ---- a ring buffer far too small: lost events, counted everywhere ----
out=$TEST_DIR/overflow.dat
sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" $BOOTPROF record -o "$out" --buffer-size 8 \
	-- sh -c "$WORK" >/dev/null 2>"$TEST_DIR/stderr"
rc=$?
pid=$(cat "$TEST_DIR/pid")
expect 'overflow: recorded, warns of lost events' \
	"[ $rc = 0 ] && grep -q 'warning: [0-9]* events lost (ring buffer overrun)' '$TEST_DIR/stderr'"
expect_tracing_clean 'overflow' "$pid"
lost=$($BOOTPROF_FAST dump "$out" 2>/dev/null | sed -n 's/^# lost events: \([0-9]*\).*/\1/p')
expect 'overflow: dump counts lost events' "[ '${lost:-0}' -gt 0 ]"
expect 'overflow: report says so' \
	"$BOOTPROF_FAST report '$out' 2>'$TEST_DIR/rerr' | grep -q '^LOST EVENTS: [1-9]' &&
	 grep -q 'lost events while recording' '$TEST_DIR/rerr'"
expect 'overflow: report --format json says so' \
	"$BOOTPROF_FAST report --format json '$out' 2>/dev/null | grep -q '\"lost_events\": [1-9]' &&
	 $BOOTPROF_FAST report --format json '$out' 2>/dev/null | grep -q '\"lower_bound\": true'"
expect 'overflow: top --batch says so' \
	"$BOOTPROF_FAST top --batch '$out' 2>/dev/null | grep -q 'lost [1-9]'"
# Never counted twice: the per-CPU stats and the page headers count the same losses.
expect 'overflow: report counts as many as the recording, not more' \
	"$BOOTPROF_FAST report --format json '$out' 2>/dev/null | grep -q '\"lost_events\": $lost[,}]' ||
	 [ \$($BOOTPROF_FAST dump '$out' 2>/dev/null | sed -n 's/^# events missed (page headers): \([0-9]*\).*/\1/p') -gt $lost ]"
