#!/bin/sh
# No event is dropped silently: an independent tracefs instance records
# block_rq_issue/block_rq_complete beside `bootprof record -- dd
# iflag=direct`; every request dd issued in the reference, and its
# completion, must be in bootprof's recording. Completions arrive in
# interrupt context while any task is current, the recorder's own threads
# included: a filter on the current task (set_event_notrace_pid,
# common_pid) drops some of them. Lost events (ring-buffer overruns) are
# counted in the recording and shown by dump.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

tracing_snapshot

BIG=$TEST_DIR/big
dd if=/dev/urandom of="$BIG" bs=1M count=64 status=none || skip_all "cannot write a 64 MiB file"
sync

# The reference: our own instance (not bootprof-*), removed on every exit.
REF=t2012-ref-$$
REFDIR=$TRACEFS/instances/$REF
trap '[ -d "$REFDIR" ] && { echo 0 >"$REFDIR/tracing_on"; rmdir "$REFDIR"; }; rm -rf "$TEST_DIR"' EXIT
mkdir "$REFDIR" || skip_all "cannot create a trace instance"
echo 0 >"$REFDIR/tracing_on"
echo boot >"$REFDIR/trace_clock"
echo 16384 >"$REFDIR/buffer_size_kb"
echo 1 >"$REFDIR/events/block/block_rq_issue/enable"
echo 1 >"$REFDIR/events/block/block_rq_complete/enable"
echo 1 >"$REFDIR/tracing_on"

sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" $BOOTPROF record -o "$TEST_DIR/rec.dat" -- \
	dd if="$BIG" of=/dev/null bs=4k iflag=direct status=none 2>"$TEST_DIR/rec.err"
rc=$?

echo 0 >"$REFDIR/tracing_on"
cat "$REFDIR/trace" >"$TEST_DIR/ref.txt"
ref_lost=$(cat "$REFDIR"/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { n += $NF } END { print n + 0 }')
echo 0 >"$REFDIR/events/enable"
rmdir "$REFDIR"

expect "record -- dd exits 0" "[ $rc = 0 ] || { cat '$TEST_DIR/rec.err'; false; }"
[ "$ref_lost" = 0 ] || skip_all "the reference instance itself lost $ref_lost events"

# KIND DEV SECTOR NR COMM TASK, one line per request event. The kernel's
# text and bootprof's dump both print "DEV RWBS ... SECTOR + NR"; the
# kernel's lines start with the current task, COMM-PID.
requests() {
	awk '{
		for (i = 1; i <= NF; i++) if ($i ~ /^block_rq_(issue|complete):$/) break
		if (i > NF) next
		for (j = i + 1; j <= NF; j++) if ($j == "+") break
		if (j > NF) next
		kind = substr($i, 10, length($i) - 10)
		print kind, $(i + 1), $(j - 1), $(j + 1), ($NF == "[dd]" ? "dd" : "-"), $1
	}'
}
requests <"$TEST_DIR/ref.txt" >"$TEST_DIR/ref.req"
$BOOTPROF_FAST dump "$TEST_DIR/rec.dat" 2>/dev/null | requests >"$TEST_DIR/rec.req"

# The recorded dd's requests in the reference (another test's dd may read
# the same disk before or after the recording): (dev, sector, nr), then
# both events of each.
dd_pid=$($BOOTPROF_FAST report --format json --all "$TEST_DIR/rec.dat" 2>/dev/null | jq -r '.recording.command_pid')
awk -v task="dd-$dd_pid" '$1 == "issue" && $5 == "dd" && $6 == task { print $2, $3, $4 }' \
	"$TEST_DIR/ref.req" | sort -u >"$TEST_DIR/dd.keys"
n_dd=$(wc -l <"$TEST_DIR/dd.keys")
echo "# dd issued $n_dd requests (reference)"
expect "the reference saw dd's direct reads" "[ $n_dd -ge 10000 ]"

# missing KIND: how many of dd's requests have fewer KIND events in
# bootprof's recording than in the reference.
missing() {
	awk -v kind="$1" '
		FILENAME == ARGV[1] { want[$1 " " $2 " " $3] = 1; next }
		FILENAME == ARGV[2] { if ($1 == kind && (($2 " " $3 " " $4) in want)) ref[$2 " " $3 " " $4]++; next }
		{ if ($1 == kind && (($2 " " $3 " " $4) in want)) got[$2 " " $3 " " $4]++ }
		END { for (k in ref) if (got[k] < ref[k]) n++; print n + 0 }
	' "$TEST_DIR/dd.keys" "$TEST_DIR/ref.req" "$TEST_DIR/rec.req"
}
mi=$(missing issue)
mc=$(missing complete)
echo "# missing from bootprof's recording: $mi issues, $mc completions of $n_dd"
lost=$($BOOTPROF_FAST dump --meta "$TEST_DIR/rec.dat" | sed -n 's/^# lost events: //p')
echo "# lost events (overruns) in bootprof's recording: $lost"
expect "dump shows the lost-event count" "[ -n '$lost' ]"
if [ "$lost" = 0 ]; then
	expect "every issue dd made is in the recording" "[ $mi = 0 ]"
	expect "every completion of dd's requests is in the recording" "[ $mc = 0 ]"
else
	expect "events were lost, and record said so" "grep -q 'events lost' '$TEST_DIR/rec.err'"
fi

# The recorder's own tasks are listed in the recording, with every task's process.
expect "the recorder's threads are in the metadata" \
	"[ \$(grep -a -c '^task [0-9]* [0-9]* 1\$' '$TEST_DIR/rec.dat') -ge 2 ]"
expect "threads alive at start and stop are in the metadata" \
	"[ \$(grep -a -c '^task [0-9]* [0-9]* 0\$' '$TEST_DIR/rec.dat') -ge 10 ]"
grep -a '^task [0-9]* [0-9]* 1$' "$TEST_DIR/rec.dat" >"$TEST_DIR/recorder.tasks"
$BOOTPROF_FAST dump "$TEST_DIR/rec.dat" 2>/dev/null | awk '
	NR == FNR { rec[$2] = 1; next }
	$1 ~ /^[0-9]+\.[0-9]+$/ { n++; if ($3 in rec) r++ }
	END { print r + 0, n + 0 }' "$TEST_DIR/recorder.tasks" - >"$TEST_DIR/share"
read r n <"$TEST_DIR/share"
echo "# the recorder's own events: $r of $n"
expect "the recorder's own events are a small share (< 3 %)" "[ $n -gt 0 ] && [ $((r * 100)) -lt $((n * 3)) ]"
expect_tracing_clean "record -- dd" "$(cat "$TEST_DIR/pid")"
