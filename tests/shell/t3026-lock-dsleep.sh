#!/bin/sh
# Waiting on a lock held by a reader is not I/O wait; the reader's wait is.
# tests/helpers/t3-lock.c: task A maps a cold 1.5 MiB file R and write(2)s
# the mapping into an ext4 file F in one call. The buffered write takes
# F's inode lock (i_rwsem) and faults R's pages in under it, each fault
# waiting for a read slowed to 1 MB/s by a cgroup v1 blkio throttle: I/O
# wait of cause fault, ended by block completions. Task B, 300 ms later,
# opens F with O_TRUNC (a file syscall, openat): truncating takes the same
# lock, so B sleeps in D until A's write() returns and A itself wakes it
# in process context. No I/O is behind B's sleep. (open(), not write() or
# ftruncate(): a file syscall in progress is what a wrong rule takes for
# I/O evidence.)
# Ground truth: each task's D-sleep summed from the raw events of
# `bootprof dump` (a sched_switch with prev_state D to the task's next
# switch-in); for A, within its write() call (times printed by the
# helper). Checked: R was cold (mincore) and the kernel put B in D for at
# least 0.5 s; A's I/O wait inside the call is within 5 % of its D-sleep
# there, at least 80 % of what the throttle implies (size / rate), and of
# cause fault; B's I/O wait is < 10 ms and its other D-sleep (JSON
# processes[].other_wait_ns) within 3 % of its D-sleep. On an idle
# machine, then with a CPU hog on CPU 1 and A and B pinned beside it.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_helper t3-lock
hog=
t3_at_exit='[ -n "$hog" ] && kill "$hog" 2>/dev/null'
BPS=1000000
t3_blkio_cgroup blkio.throttle.read_bps_device $BPS
trap 'exit 130' INT
trap 'exit 143' TERM
[ "$(stat -f -c %T "$TEST_DIR")" = ext2/ext3 ] ||
	skip_all "$TEST_DIR is not on ext4 ($(stat -f -c %T "$TEST_DIR"))"
SIZE=$((1536 * 1024))
head -c $SIZE /dev/urandom >"$TEST_DIR/R" && sync || skip_all "cannot create the file read"
cat >"$TEST_DIR/run.sh" <<EOF
echo \$\$ >$CG/cgroup.procs
exec "$TEST_DIR/t3-lock" "$TEST_DIR/R" "$TEST_DIR/F" 300
EOF

# raw_dsleep REC PID [FROM TO]: "SUM N" of PID's D-sleeps in REC's raw
# events (ns; from a sched_switch with prev_state D to its next switch-in),
# each cut to [FROM, TO] when given
raw_dsleep() {
	"$BOOTPROF" dump "$1" | awk -v p="$2" -v lo="${3:-0}" -v hi="${4:-0}" '
	function ns(t) { split(t, f, "."); return f[1] * 1000000000 + substr(f[2] "000000000", 1, 9) }
	/ sched_switch: / {
		pp = ps = np = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^prev_pid=/) pp = substr($i, 10)
			if ($i ~ /^prev_state=/) ps = substr($i, 12)
			if ($i ~ /^next_pid=/) np = substr($i, 10)
		}
		if (np == p && start) {
			a = start; b = ns($1); start = 0
			if (a < lo) a = lo
			if (hi && b > hi) b = hi
			if (b > a) { sum += b - a; n++ }
		}
		if (pp == p && ps ~ /^D/) start = ns($1)
	}
	END { printf "%.0f %d\n", sum, n }'
}

secs() { awk -v t="$1" 'BEGIN { printf "%d.%09d", t / 1e9, t % 1e9 }'; }
ms() { awk -v t="$1" 'BEGIN { printf "%.1f ms", t / 1e6 }'; }

# measure [CPU]: record run.sh (pinned to CPU if given); sets from the
# helper a a0 a1 abytes cold, b b0 b1, and lost
measure() {
	rm -f "$TEST_DIR/r.dat" "$TEST_DIR/F"
	if [ -n "$1" ]; then
		t3_record "$TEST_DIR/r.dat" taskset -c "$1" sh "$TEST_DIR/run.sh"
	else
		t3_record "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh"
	fi >"$TEST_DIR/out" || return 1
	set -- $(grep '^A ' "$TEST_DIR/out")
	a=$2 a0=$3 a1=$4 abytes=$5 cold=$6
	set -- $(grep '^B ' "$TEST_DIR/out")
	b=$2 b0=$3 b1=$4
	[ -n "$a" ] && [ -n "$b" ] || return 1
	lost=$("$BOOTPROF" report --format json --no-plugins "$TEST_DIR/r.dat" |
		jq '.totals.lost_events + .totals.lost_pages')
}

# proc REC PID [report options]: "WAIT OTHER FAULT OPEN_STAT" of PID
proc() {
	r=$1 p=$2
	shift 2
	"$BOOTPROF" report --format json --no-plugins --all "$@" "$r" |
		jq -r --argjson p "$p" '.processes[] | select(.pid == $p) |
			"\(.wait_ns) \(.other_wait_ns) \(.wait_by_cause.fault) \(.wait_by_cause["open-stat"])"'
}

# run_case NAME [CPU]
run_case() {
	name=$1 cpu=${2:-}
	for attempt in 1 2 3; do
		measure "$cpu" || { not_ok "$name: recorded"; sed 's/^/# /' "$TEST_DIR/out"; return; }
		set -- $(raw_dsleep "$TEST_DIR/r.dat" "$b")
		b_truth=${1:-0} b_n=${2:-0}
		[ "$lost" = 0 ] && [ "$b_truth" -ge 500000000 ] && break
		echo "# $name: attempt $attempt: B (pid $b) slept $(ms "$b_truth") in D," \
			"lost events $lost"
	done
	if [ "$lost" != 0 ]; then
		skip "$name" "every recording lost events (a busy machine)"
		return
	fi
	r=$TEST_DIR/r.dat
	set -- $(raw_dsleep "$r" "$a" "$a0" "$a1")
	a_truth=${1:-0} a_n=${2:-0}
	set -- $(proc "$r" "$a" --since "$(secs "$a0")" --until "$(secs "$a1")")
	a_io=${1:-0} a_fault=${3:-0}
	set -- $(proc "$r" "$b")
	b_io=${1:-0} b_other=${2:-0} b_openstat=${4:-0}
	implied=$(awk -v s="$abytes" -v r=$BPS 'BEGIN { printf "%.0f", s * 1e9 / r }')
	echo "# $name: A (pid $a) wrote $abytes bytes in $(ms $((a1 - a0))), R cached before:" \
		"$cold pages; inside write(): D-sleep from dump $(ms "$a_truth") in $a_n sleeps," \
		"bootprof I/O wait $(ms "$a_io") (fault $(ms "$a_fault")), throttle implies" \
		"$(ms "$implied")"
	echo "# $name: B (pid $b) in open(O_TRUNC) $(ms $((b1 - b0))); D-sleep from dump" \
		"$(ms "$b_truth") in $b_n sleeps; bootprof I/O wait $(ms "$b_io") (open-stat" \
		"$(ms "$b_openstat")), other D-sleep $(ms "$b_other")"
	expect "$name: R was not cached before the write" "test '$cold' = 0"
	expect "$name: the kernel put B in D for at least 0.5 s ($(ms "$b_truth"), from dump)" \
		"test '$b_truth' -ge 500000000"
	expect "$name: A's I/O wait in write() within 5% of its D-sleep there" \
		"t3_within '$a_io' '$a_truth' 5"
	expect "$name: ... at least 80% of the throttle's $(ms "$implied")" \
		"awk 'BEGIN { exit !($a_io >= $implied * 0.8) }'"
	expect "$name: ... and of cause fault" "t3_within '$a_fault' '$a_io' 1"
	expect "$name: B's I/O wait < 10 ms ($(ms "$b_io"))" "test '$b_io' -lt 10000000"
	expect "$name: B's other D-sleep within 3% of its D-sleep from dump" \
		"t3_within '$b_other' '$b_truth' 3"
}

run_case "idle"
ncpu=$(nproc)
if [ "$ncpu" -ge 2 ]; then
	taskset -c 1 sh -c 'while :; do :; done' &
	hog=$!
	run_case "CPU hog on CPU 1, A and B pinned to it" 1
	kill "$hog" 2>/dev/null
	hog=
else
	skip "CPU hog" "one CPU"
fi
