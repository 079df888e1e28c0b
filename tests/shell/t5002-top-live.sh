#!/bin/sh
# bootprof top --live against a real cold-cache read: the file appears in
# the --batch screens with its size in pages, and the trace instance and
# temporary files are gone after --batch ends, after q, after SIGTERM and
# after SIGINT.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

TMP_LIVE=$TEST_DIR/tmp
mkdir -p "$TMP_LIVE"
export TMPDIR=$TMP_LIVE
SIZE=3000000
head -c $SIZE /dev/urandom >"$TEST_DIR/workload.bin"
pages=$(( (SIZE + 4095) / 4096 ))
want=$(awk -v b=$((pages * 4096)) 'BEGIN { printf "%.1f MiB", b / 1048576 }')

# tracing_started PID: its instance exists and traces (the reader may start).
tracing_started() {
	i=0
	while [ $i -lt 300 ]; do
		[ "$(cat $TRACEFS/instances/bootprof-$1/tracing_on 2>/dev/null)" = 1 ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# 1. --batch, per interval (-n 3 -d 1) while a reader runs: its file shows.
# Intervals count from top's start, and under a loaded machine tracing may
# start late in the first: three leave the read a whole interval after it.
tracing_snapshot
drop_caches
"$BOOTPROF" top --live --batch -n 3 -d 1 --width 200 >"$TEST_DIR/live.txt" 2>"$TEST_DIR/err" &
pid=$!
tracing_started $pid
cat "$TEST_DIR/workload.bin" >/dev/null
wait $pid
status=$?
expect "--live --batch -n 3 -d 1: exit 0" "[ $status = 0 ]"
expect "--live --batch: three screens of an interval each" \
	"[ \$(grep -c '^span .*  interval ' '$TEST_DIR/live.txt') = 3 ]"
expect "--live --batch: the workload's file is on a screen" \
	"grep -q 'workload.bin\$' '$TEST_DIR/live.txt' || { grep '^span \|workload' '$TEST_DIR/live.txt'; false; }"
expect_tracing_clean "--live --batch" $pid
expect "--live --batch: no temporary files left" "[ -z \"\$(ls -A '$TMP_LIVE')\" ]"

# Cumulative (-c): the last screen has the whole read, in pages of the file's size.
tracing_snapshot
drop_caches
"$BOOTPROF" top --live --batch -c -n 2 -d 1 --width 200 >"$TEST_DIR/live.txt" 2>"$TEST_DIR/err" &
pid=$!
tracing_started $pid
cat "$TEST_DIR/workload.bin" >/dev/null
wait $pid
status=$?
expect "--live --batch -c: exit 0" "[ $status = 0 ]"
expect "--live --batch -c: the workload's file, read from storage in full ($want)" \
	"sed -n '/^span .*  all /h; /^span .*  all /!H; \${x;p}' '$TEST_DIR/live.txt' |
	 grep ' $want .*workload.bin\$'"
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
		 a=\$(screen | grep '^span') && poll eval '[ \"\$(screen | grep ^span)\" != \"\$a\" ]'"
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
