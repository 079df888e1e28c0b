#!/bin/sh
# bootprof record stops cleanly on signals and fails cleanly on bad input:
# the recording is valid and says why it stopped, failures exit 1 with one
# line, usage errors exit 2, and no path leaves its tracefs instance behind
# or changes the top-level tracing settings.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

tracing_snapshot

# record_bg OUT ARGS...: start a recording in the background; $pid is set once
# its instance exists (tracing is being set up), 20 s at most.
record_bg() {
	out=$1
	shift
	$BOOTPROF record -o "$out" "$@" >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr" &
	pid=$!
	i=0
	while [ $i -lt 200 ] && ! [ -d $TRACEFS/instances/bootprof-$pid ]; do
		sleep 0.1
		i=$((i + 1))
	done
	# Let it get past enabling the events.
	sleep 1
}

# The recording's metadata as text (stop reason, events ...).
meta_of() {
	$BOOTPROF_FAST dump --meta "$1" 2>/dev/null
}

# record_fg EXPECTED-STATUS ARGS...: run a recording in the foreground with a
# known pid (a subshell exec's it), keeping its status and stderr.
record_fg() {
	want=$1
	shift
	sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" $BOOTPROF record "$@" \
		>"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
	rc=$?
	pid=$(cat "$TEST_DIR/pid")
	[ "$rc" = "$want" ]
}

one_line() {
	[ "$(wc -l <"$TEST_DIR/stderr")" = 1 ] && grep -q "^bootprof: $1" "$TEST_DIR/stderr"
}

for sig in INT TERM HUP; do
	out=$TEST_DIR/sig-$sig.dat
	record_bg "$out" --duration 120
	kill -$sig $pid
	wait $pid
	rc=$?
	expect "SIG$sig: exits 0" "[ $rc = 0 ] || { cat '$TEST_DIR/stderr'; false; }"
	expect "SIG$sig: recording written" "[ -s '$out' ]"
	expect "SIG$sig: stop reason recorded" "meta_of '$out' | grep -q 'signal SIG$sig'"
	expect "SIG$sig: trace-cmd reads it" \
		"trace-cmd report '$out' >/dev/null 2>'$TEST_DIR/tc.err' && ! [ -s '$TEST_DIR/tc.err' ]"
	expect_tracing_clean "SIG$sig" $pid
done

# A missing output directory fails before tracing starts.
record_fg 1 -o "$TEST_DIR/no/such/dir/x.dat" --duration 1
expect 'unwritable output: exit 1, one line' "[ $? = 0 ] && one_line 'cannot'"
expect_tracing_clean 'unwritable output' "$pid"

# An existing output is never replaced without --force.
echo precious >"$TEST_DIR/exists.dat"
record_fg 1 -o "$TEST_DIR/exists.dat" --duration 1
expect 'existing output: exit 1, one line' "[ $? = 0 ] && one_line"
expect 'existing output: left alone' "[ \"\$(cat '$TEST_DIR/exists.dat')\" = precious ]"
expect_tracing_clean 'existing output' "$pid"

record_fg 0 -o "$TEST_DIR/exists.dat" --force --duration 0.5
expect 'existing output with --force: replaced' \
	"[ $? = 0 ] && [ \"\$(head -c 10 '$TEST_DIR/exists.dat' | tail -c 7)\" = tracing ]"
expect_tracing_clean '--force' "$pid"

# A missing event named explicitly is an error, and leaves no file.
record_fg 1 -o "$TEST_DIR/ev.dat" --events sched:sched_switch,nosuch:no_event --duration 1
expect 'missing event in --events: exit 1, one line' \
	"[ $? = 0 ] && one_line \"event 'nosuch:no_event'\""
expect 'missing event: no output left' "! [ -e '$TEST_DIR/ev.dat' ]"
expect_tracing_clean 'missing event' "$pid"

# A command that cannot run fails the recording and leaves no file: 127
# when it is not found, 126 when it cannot be executed (as env(1) does).
record_fg 127 -o "$TEST_DIR/nocmd.dat" -- /nonexistent/program
expect 'command not found: exit 127, one line' "[ $? = 0 ] && one_line 'cannot run'"
expect 'command not found: no output left' "! [ -e '$TEST_DIR/nocmd.dat' ]"
expect_tracing_clean 'command not found' "$pid"
record_fg 126 -o "$TEST_DIR/noexec.dat" -- "$TEST_DIR"
expect 'command not executable: exit 126, one line' "[ $? = 0 ] && one_line 'cannot run'"
expect_tracing_clean 'command not executable' "$pid"

# The recording succeeded: record exits with the command's status, like
# time(1); 128 + N when signal N ended it.
record_fg 3 -o "$TEST_DIR/false.dat" -- sh -c 'exit 3'
expect 'failing command: exit 3 (its status) with a warning' \
	"[ $? = 0 ] && grep -q \"warning: 'sh' exited with status 3\" '$TEST_DIR/stderr'"
expect 'failing command: stop reason' "meta_of '$TEST_DIR/false.dat' | grep -q 'command exited'"
expect 'failing command: a recording was written' "[ -s '$TEST_DIR/false.dat' ]"
# The recording knows the command: its pid (the one that exec'd it), its
# wait status (3 << 8), and start/end times inside the recording.
grep -a '^command_' "$TEST_DIR/false.dat" >"$TEST_DIR/cmd.meta"
cpid=$(sed -n 's/^command_pid //p' "$TEST_DIR/cmd.meta")
expect 'failing command: its pid is the one that exec'"'"'d it' \
	"[ -n '$cpid' ] && $BOOTPROF_FAST dump '$TEST_DIR/false.dat' | grep -q 'sched_process_exec: filename=[^ ]*/sh pid=$cpid '"
expect 'failing command: its wait status is recorded' "grep -qx 'command_status 768' '$TEST_DIR/cmd.meta'"
expect 'failing command: start and end on the recording clock, in order' "
	meta_of '$TEST_DIR/false.dat' | sed -n 's/^# start: \([0-9.]*\), stop: \([0-9.]*\)\$/\1 \2/p' >'$TEST_DIR/window' &&
	read a b <'$TEST_DIR/window' &&
	awk -v a=\$a -v b=\$b -v s=\$(sed -n 's/^command_start_ns //p' '$TEST_DIR/cmd.meta') \
	    -v e=\$(sed -n 's/^command_end_ns //p' '$TEST_DIR/cmd.meta') \
	    'BEGIN { s /= 1e9; e /= 1e9; exit !(a <= s && s < e && e <= b + 0.001) }'"
expect_tracing_clean 'failing command' "$pid"
record_fg 137 -o "$TEST_DIR/killed.dat" -- sh -c 'kill -KILL $$'
expect 'command killed by SIGKILL: exit 137' "[ $? = 0 ] || { cat '$TEST_DIR/stderr'; false; }"
expect 'command killed by SIGKILL: the warning names the signal' \
	"grep -q \"warning: 'sh' was killed by SIGKILL\" '$TEST_DIR/stderr'"
expect_tracing_clean 'command killed' "$pid"

# A command that leaves a process running: the recording ends with the
# command, and that process holds nothing of the recorder's.
record_fg 0 -o "$TEST_DIR/daemon.dat" -- sh -c "sleep 30 & echo \$! >'$TEST_DIR/daemon.pid'"
expect 'background process left running: exit 0' "[ $? = 0 ]"
expect_tracing_clean 'background process left running' "$pid"
# Its descriptors: the ones this shell passed down, and the redirections.
for fd in /proc/$$/fd/*; do readlink "$fd"; done | sort -u >"$TEST_DIR/fds.ours"
for fd in /proc/"$(cat "$TEST_DIR/daemon.pid")"/fd/*; do readlink "$fd"; done | sort -u |
	grep -v -e '^/dev/null$' -e "^$TEST_DIR/std" >"$TEST_DIR/fds.daemon"
expect 'background process holds no recorder descriptor' \
	"! comm -23 '$TEST_DIR/fds.daemon' '$TEST_DIR/fds.ours' | grep ."
kill "$(cat "$TEST_DIR/daemon.pid")" 2>/dev/null

# --duration ends a command that ignores SIGTERM too, and still saves.
start=$(date +%s)
record_fg 0 -o "$TEST_DIR/stubborn.dat" --duration 0.5 -- sh -c 'trap "" TERM; sleep 60; :'
st=$?
expect 'command ignoring SIGTERM: exit 0 within 30 s' "[ $st = 0 ] && [ $(($(date +%s) - start)) -lt 30 ]"
expect 'command ignoring SIGTERM: stop reason duration' "meta_of '$TEST_DIR/stubborn.dat' | grep -q 'stop reason: duration'"
expect_tracing_clean 'command ignoring SIGTERM' "$pid"

# --until-file stops when the file appears.
record_bg "$TEST_DIR/file.dat" --duration 120 --until-file "$TEST_DIR/marker"
touch "$TEST_DIR/marker"
wait $pid
rc=$?
expect '--until-file: exits 0' "[ $rc = 0 ]"
expect '--until-file: stop reason' "meta_of '$TEST_DIR/file.dat' | grep -q 'file .*marker appeared'"
expect_tracing_clean '--until-file' "$pid"

# --until-exec stops at the exec of a program of that name, however short-lived.
cp /bin/true "$TEST_DIR/bp-stop-mark"
record_bg "$TEST_DIR/exec.dat" --duration 120 --until-exec bp-stop-mark
"$TEST_DIR/bp-stop-mark"
wait $pid
rc=$?
expect '--until-exec: exits 0' "[ $rc = 0 ] || { cat '$TEST_DIR/stderr'; false; }"
expect '--until-exec: stop reason' "meta_of '$TEST_DIR/exec.dat' | grep -q 'exec of bp-stop-mark'"
expect_tracing_clean '--until-exec' "$pid"
expect '--until-exec: watch instance removed' "! test -e $TRACEFS/instances/bootprof-$pid-exec"

# A full disk stops the recording: one line, exit 1, a readable prefix kept.
mkdir "$TEST_DIR/full"
if mount -t tmpfs -o size=4m tmpfs "$TEST_DIR/full" 2>/dev/null; then
	# With -- CMD, bootprof's own failure is 125, apart from any status of CMD.
	record_fg 125 -o "$TEST_DIR/full/x.dat" -- dd if=/dev/zero of=/dev/null bs=1 count=2000000
	st=$?
	expect 'disk full: exit 125, one line' "[ $st = 0 ] && one_line \"cannot write .*No space left\""
	expect_tracing_clean 'disk full' "$pid"
	expect 'disk full: the prefix is readable' \
		"{ $BOOTPROF_FAST dump '$TEST_DIR/full/x.dat' 2>/dev/null ||
		   trace-cmd report '$TEST_DIR/full/x.dat' 2>/dev/null; } | grep -q sys_enter"
	umount "$TEST_DIR/full"
else
	skip 'disk full' 'cannot mount a small tmpfs'
fi

# Usage errors exit 2 and trace nothing.
for args in '--no-such-option' '--duration soon' '-o' '--buffer-size -4' '--events ,'; do
	# shellcheck disable=SC2086
	record_fg 2 $args
	expect "usage error ($args): exit 2" "[ $? = 0 ]"
	expect_tracing_clean "usage error ($args)" "$pid"
done

# Not root: one line, exit 1, nothing created.
if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	(cd /tmp && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		$BOOTPROF record -o /tmp/bp-nobody-$$.dat --duration 1 2>"$TEST_DIR/stderr")
	rc=$?
	expect 'not root: exit 1, one line' "[ $rc = 1 ] && one_line 'record needs root (tracefs)'"
	expect 'not root: no output' "! [ -e /tmp/bp-nobody-$$.dat ]"
else
	skip 'not root' 'setpriv cannot switch to nobody'
fi
