#!/bin/sh
# bootprof top --live against a real cold-cache read: the file appears in
# the --batch screens with its size in pages, and the trace instance and
# temporary files are gone after --batch ends, after q, after SIGTERM and
# after SIGINT.
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

TMP_LIVE=$TEST_DIR/tmp
mkdir -p "$TMP_LIVE"
export TMPDIR=$TMP_LIVE
SIZE=3000000
head -c $SIZE /dev/urandom >"$TEST_DIR/workload.bin"
pages=$(( (SIZE + 4095) / 4096 ))
want=$(awk -v b=$((pages * 4096)) 'BEGIN { printf "%.1f MiB", b / 1048576 }')

# 1. --batch -n 2 -d 1 while a reader runs.
tracing_snapshot
drop_caches
"$BOOTPROF" top --live --batch -n 2 -d 1 --width 200 >"$TEST_DIR/live.txt" 2>"$TEST_DIR/err" &
pid=$!
sleep 0.5
cat "$TEST_DIR/workload.bin" >/dev/null
wait $pid
status=$?
expect "--live --batch -n 2 -d 1: exit 0" "[ $status = 0 ]"
expect "--live --batch: two screens" "[ \$(grep -c '^bootprof top - live' '$TEST_DIR/live.txt') = 2 ]"
expect "--live --batch: the workload's file, read from storage in full ($want)" \
	"grep ' $want .*workload.bin\$' '$TEST_DIR/live.txt'"
expect_tracing_clean "--live --batch" $pid
expect "--live --batch: no temporary files left" "[ -z \"\$(ls -A '$TMP_LIVE')\" ]"

# 2. Interactive, in tmux: q, SIGTERM, SIGINT (Ctrl-C).
if ! command -v tmux >/dev/null; then
	skip "--live in a terminal" "tmux is not installed"
	exit 0
fi
. "$TOP/tests/fixtures/top-tmux.sh"

for how in q TERM INT; do
	rm -f "$TEST_DIR/status" "$TEST_DIR/pid"
	tracing_snapshot
	T new-session -d -s top -x 100 -y 30 \
		"sh -c 'echo \$\$ >$TEST_DIR/pid; exec env TMPDIR=$TMP_LIVE \"$BOOTPROF\" top --live -d 1'; \
		 echo \$? >$TEST_DIR/status; sleep 60"
	expect "--live ($how): first screen" "wait_for '^bootprof top - live'"
	pid=$(cat "$TEST_DIR/pid")
	expect "--live ($how): its instance exists while it runs" \
		"test -d $TRACEFS/instances/bootprof-$pid"
	expect "--live ($how): refreshes (a second interval)" \
		"wait_for '^span [0-9.]*-[0-9.]* s  interval [0-9.]*-[0-9.]* s ([0-9.]* [ms]*)' &&
		 a=\$(screen | grep '^span'); sleep 2.5; [ \"\$(screen | grep '^span')\" != \"\$a\" ]"
	case $how in
	q) T send-keys -t top q ;;
	TERM) kill -TERM "$pid" ;;
	INT) T send-keys -t top C-c ;;
	esac
	expect "--live ($how): exits with status 0" "exited && [ \"\$(cat '$TEST_DIR/status')\" = 0 ]"
	expect "--live ($how): terminal restored" "[ \"\$(T display -p -t top '#{alternate_on}')\" = 0 ]"
	expect_tracing_clean "--live ($how)" "$pid"
	expect "--live ($how): no temporary files left" "[ -z \"\$(ls -A '$TMP_LIVE')\" ]"
	T kill-session -t top
done
