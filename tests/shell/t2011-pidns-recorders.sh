#!/bin/sh
# Recorders in different PID namespaces run side by side and keep all their
# data: an instance is removed only when its owner's lock is free, never
# because its pid means nothing (or someone else) in another namespace.
#
# Recorder A runs in a new PID namespace with a pid that no process has on
# the host (set through ns_last_pid), B in a second namespace with the same
# pid, C on the host; B and C start while A records. Before instances were
# locked, C removed A's instance as "left by a recorder that is gone".
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
command -v unshare >/dev/null || skip_all "unshare not installed"
unshare --pid --fork --mount --mount-proc true 2>/dev/null ||
	skip_all "cannot make PID and mount namespaces"

tracing_snapshot

# A pid free on the host, below the namespace's pid_max.
N=$(( $(cat /proc/sys/kernel/ns_last_pid) % 20000 + 30000 ))
while [ -e /proc/$N ]; do N=$((N + 1)); done

# in_ns_as_pid PID CMD...: run CMD as process PID of a new PID namespace
# (its PID 1 is a shell that waits for it), with that namespace's /proc.
in_ns_as_pid() {
	_want=$1
	shift
	unshare --pid --fork --mount --mount-proc sh -c '
		echo $(($1 - 1)) >/proc/sys/kernel/ns_last_pid || exit 96
		shift
		"$@" &
		[ $! = "$want" ] || { echo "got pid $! instead of $want" >&2; kill $!; exit 95; }
		wait $!' sh "$_want" "$@"
}

# span FILE: seconds between the first and the last event of a recording.
span() {
	$BOOTPROF_FAST dump "$1" 2>/dev/null |
		awk '$1 ~ /^[0-9]+\.[0-9]+$/ { if (!n++) f = $1; l = $1 } END { printf "%.2f\n", l - f }'
}

export want=$N
in_ns_as_pid $N $BOOTPROF record -o "$TEST_DIR/a.dat" --duration 6 2>"$TEST_DIR/a.err" &
a=$!
sleep 1.5
in_ns_as_pid $N $BOOTPROF record -o "$TEST_DIR/b.dat" --duration 2 2>"$TEST_DIR/b.err" &
b=$!
$BOOTPROF record -o "$TEST_DIR/c.dat" --duration 2 2>"$TEST_DIR/c.err" &
c=$!
wait $c
rc_c=$?
wait $b
rc_b=$?
wait $a
rc_a=$?

for r in a b c; do
	eval rc=\$rc_$r
	expect "recorder $r exits 0" "[ $rc = 0 ] || { cat '$TEST_DIR/$r.err'; false; }"
	expect "recorder $r removed no other recorder's instance" \
		"! grep -q 'removed trace instance' '$TEST_DIR/$r.err' || { cat '$TEST_DIR/$r.err'; false; }"
	expect "recorder $r stopped on its duration, nothing lost" \
		"$BOOTPROF_FAST dump --meta '$TEST_DIR/$r.dat' | grep -q '^# stop reason: duration' &&
		 $BOOTPROF_FAST dump --meta '$TEST_DIR/$r.dat' | grep -q '^# lost events: 0'"
done
sa=$(span "$TEST_DIR/a.dat")
echo "# recorder A (pid $N in its namespace): events span $sa s of its 6 s"
expect "recorder A kept events over its whole run" \
	"awk -v s='$sa' 'BEGIN { exit !(s >= 5.5) }'"
sb=$(span "$TEST_DIR/b.dat")
expect "recorder B kept events over its whole run ($sb s of 2 s)" \
	"awk -v s='$sb' 'BEGIN { exit !(s >= 1.7) }'"
expect "no lock of these recorders is left" \
	"! ls /run/bootprof 2>/dev/null | grep -q -e '^bootprof-$N-ns' -e '^bootprof-$c\\.'"
expect "no instance of these recorders is left" \
	"! ls $TRACEFS/instances | grep -q -e '^bootprof-$N-ns' -e '^bootprof-$c\$'"
expect_tracing_clean "side by side" $c
