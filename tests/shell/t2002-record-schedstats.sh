#!/bin/sh
# bootprof record turns the kernel's schedstats on for the recording (so
# that sched_stat_iowait and sched_stat_blocked fire) when they are off,
# and back off after a recording, after an error and after SIGINT or
# SIGTERM; --no-schedstats and schedstats already on leave the sysctl
# alone. The recording says whether they were on and who turned them on.
# On a kernel with schedstats this runs against the real sysctl; on every
# kernel it runs against a stand-in file over /proc/sys/kernel in a private
# mount namespace, which exercises the same code paths (not the kernel's).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

KNOB=/proc/sys/kernel/sched_schedstats

meta_of() {
	$BOOTPROF_FAST dump --meta "$1" 2>/dev/null
}

knob_is() {
	[ "$(cat $KNOB)" = "$1" ]
}

# record_fg EXPECTED-STATUS ARGS...: a recording in the foreground; its
# stderr in $TEST_DIR/stderr.
record_fg() {
	want=$1
	shift
	$BOOTPROF record "$@" >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
	rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, not $want"; cat "$TEST_DIR/stderr"; return 1; }
}

# checks WHERE: every path, against whatever $KNOB is (reading 0 at the start).
checks() {
	w=$1
	tracing_snapshot

	record_fg 0 -o "$TEST_DIR/ok.dat" -- sh -c "cat $KNOB >'$TEST_DIR/during'"
	expect "$w: success: exit 0" "[ $? = 0 ]"
	expect "$w: success: on while recording" "[ \"\$(cat '$TEST_DIR/during')\" = 1 ]"
	expect "$w: success: off again after" "knob_is 0"
	expect "$w: success: the recording says bootprof turned them on" \
		"meta_of '$TEST_DIR/ok.dat' | grep -qx '# schedstats: on (turned on by bootprof)'"

	# An error after they were turned on: the command cannot run.
	record_fg 127 -o "$TEST_DIR/err.dat" -- /nonexistent/program
	expect "$w: error: exit 127, no recording" "[ $? = 0 ] && ! [ -e '$TEST_DIR/err.dat' ]"
	expect "$w: error: off again after" "knob_is 0"

	for sig in INT TERM; do
		$BOOTPROF record -o "$TEST_DIR/sig-$sig.dat" --duration 120 \
			>/dev/null 2>"$TEST_DIR/stderr" &
		pid=$!
		i=0
		while [ $i -lt 200 ] && ! knob_is 1; do
			sleep 0.1
			i=$((i + 1))
		done
		expect "$w: SIG$sig: on while recording" "knob_is 1"
		sleep 0.5
		kill -$sig $pid
		wait $pid
		rc=$?
		expect "$w: SIG$sig: exit 0" "[ $rc = 0 ] || { cat '$TEST_DIR/stderr'; false; }"
		expect "$w: SIG$sig: off again after" "knob_is 0"
		expect "$w: SIG$sig: the recording says bootprof turned them on" \
			"meta_of '$TEST_DIR/sig-$sig.dat' | grep -qx '# schedstats: on (turned on by bootprof)'"
	done

	record_fg 0 --no-schedstats -o "$TEST_DIR/no.dat" -- sh -c "cat $KNOB >'$TEST_DIR/during'"
	expect "$w: --no-schedstats: exit 0" "[ $? = 0 ]"
	expect "$w: --no-schedstats: left off" \
		"[ \"\$(cat '$TEST_DIR/during')\" = 0 ] && knob_is 0"
	expect "$w: --no-schedstats: the recording says off" \
		"meta_of '$TEST_DIR/no.dat' | grep -qx '# schedstats: off'"

	# Already on: left on, and not claimed.
	echo 1 >$KNOB
	record_fg 0 -o "$TEST_DIR/on.dat" -- true
	expect "$w: already on: exit 0, left on" "[ $? = 0 ] && knob_is 1"
	expect "$w: already on: the recording says someone else turned them on" \
		"meta_of '$TEST_DIR/on.dat' | grep -qx '# schedstats: on (turned on by system)'"
	echo 0 >$KNOB

	# Turned off by someone else while recording: said, and noted as off.
	record_fg 0 -o "$TEST_DIR/off.dat" -- sh -c "echo 0 >$KNOB"
	expect "$w: turned off meanwhile: exit 0 with a warning" \
		"[ $? = 0 ] && grep -q 'warning: schedstats were turned off while recording' '$TEST_DIR/stderr'"
	expect "$w: turned off meanwhile: the recording says off" \
		"meta_of '$TEST_DIR/off.dat' | grep -qx '# schedstats: off'"
	expect "$w: turned off meanwhile: off after" "knob_is 0"

	expect_tracing_clean "$w" "$pid"
}

if [ -n "${BP_T2002_STAND_IN:-}" ]; then
	# Inside a private mount namespace (see the end).
	mount -t tmpfs -o size=64k bp-sysctl /proc/sys/kernel ||
		skip_all "cannot mount a tmpfs over /proc/sys/kernel"
	echo 0 >$KNOB
	checks "stand-in sysctl"
	exit 0
fi

expect "record -h documents --no-schedstats" "'$BOOTPROF' record -h | grep -q -- '--no-schedstats '"

if [ -e $KNOB ]; then
	saved=$(cat $KNOB)
	trap 'echo "$saved" >$KNOB; rm -rf "$TEST_DIR"' EXIT
	echo 0 >$KNOB
	checks "kernel"
	# The kernel's own count: a cold read from storage sleeps in io_schedule().
	head -c 8388608 /dev/urandom >"$TEST_DIR/data"
	sync
	drop_caches
	record_fg 0 -o "$TEST_DIR/io.dat" -- cat "$TEST_DIR/data"
	$BOOTPROF_FAST dump "$TEST_DIR/io.dat" >"$TEST_DIR/io.txt" 2>/dev/null
	expect "kernel: a cold read is reported by sched_stat_iowait and sched_stat_blocked" \
		"grep -q 'sched_stat_iowait:' '$TEST_DIR/io.txt' && grep -q 'sched_stat_blocked:' '$TEST_DIR/io.txt'"
else
	skip "kernel: schedstats on while recording, off after success, error, SIGINT and SIGTERM" \
		"this kernel has no schedstats (no $KNOB: CONFIG_SCHEDSTATS is off)"
fi

# The same paths against a stand-in, on any kernel.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	BP_T2002_STAND_IN=1 unshare -m --propagation private sh "$0"
else
	skip "stand-in sysctl" "unshare -m is not available"
fi
