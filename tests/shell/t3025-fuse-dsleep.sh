#!/bin/sh
# A D-sleep inside open() with no I/O is not I/O wait. A FUSE file system
# (tests/helpers/t3-slowfs.py) answers create() after 0.5 s. Task A creates
# a file in its directory /d; task B, 50 ms later, creates another one in
# /d and sleeps uninterruptibly (D) on the directory's inode lock, which
# the kernel holds across A's create request, until A's request is
# answered: ~0.45 s of D-sleep with a file syscall (openat) in progress,
# no block I/O, woken by A in process context. (A itself waits for the
# FUSE answer interruptibly, in S.)
# Ground truth: B's D-sleep summed from the raw events of `bootprof dump`
# (each sched_switch of B with prev_state D to B's next switch-in). Checked:
# the kernel did put B in D for at least 0.3 s; B's I/O wait is < 10 ms;
# its other D-sleep (JSON processes[].other_wait_ns) is within 3 % of the
# truth and totals.other_wait_ns holds it; the text report's
# "other D-sleep:" line names B; and CPU idle while waiting (totals,
# over B's D-sleep) holds none of it: < 10 ms beyond the I/O wait of all
# other processes in that window. On an idle machine, then with a CPU hog
# on CPU 1 and A and B pinned beside it (where no CPU is ever idle: the
# idle check is left out).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
PY=/usr/bin/python3
[ -x $PY ] && $PY -c 'import fusepy' 2>/dev/null ||
	skip_all "python3-fusepy not installed (scripts/deps.sh check)"
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
grep -qw fuse /proc/filesystems || modprobe fuse 2>/dev/null
grep -qw fuse /proc/filesystems || skip_all "no fuse file system in this kernel"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

M=$TEST_DIR/mnt
fs= hog=
cleanup() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null
	if mountpoint -q "$M" 2>/dev/null; then
		umount "$M" 2>/dev/null || umount -l "$M" 2>/dev/null
	fi
	if [ -n "$fs" ]; then
		kill "$fs" 2>/dev/null
		wait "$fs" 2>/dev/null
	fi
	[ -n "$KEEP_TEST_DIR" ] && echo "# kept $TEST_DIR" || rm -rf "$TEST_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$M"
$PY "$TOP/tests/helpers/t3-slowfs.py" "$M" 0.5 >"$TEST_DIR/slowfs.log" 2>&1 &
fs=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	[ -d "$M/d" ] && break
	sleep 0.25
done
[ -d "$M/d" ] || { sed 's/^/# /' "$TEST_DIR/slowfs.log"; skip_all "cannot mount the FUSE file system"; }

# The recorded command: A creates $M/d/aN, B creates $M/d/bN 50 ms later
# (new names each time: creating an existing file sends no create request).
cat >"$TEST_DIR/run.sh" <<'EOF'
sh -c 'echo $$ >"$1/a.pid"; : >"$2/d/a$3"' sh "$1" "$2" "$3" &
sleep 0.05
sh -c 'echo $$ >"$1/b.pid"; : >"$2/d/b$3"' sh "$1" "$2" "$3"
wait
EOF

# raw_dsleep REC PID: "SUM N START END" of PID's D-sleeps in REC's raw events
# (ns; from a sched_switch with prev_state D to its next switch-in; START
# and END: the first one's start, the last one's end)
raw_dsleep() {
	"$BOOTPROF" dump "$1" | awk -v p="$2" '
	function ns(t) { split(t, f, "."); return f[1] * 1000000000 + substr(f[2] "000000000", 1, 9) }
	/ sched_switch: / {
		pp = ps = np = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^prev_pid=/) pp = substr($i, 10)
			if ($i ~ /^prev_state=/) ps = substr($i, 12)
			if ($i ~ /^next_pid=/) np = substr($i, 10)
		}
		if (np == p && start) {
			sum += ns($1) - start; n++; end = ns($1); start = 0
		}
		if (pp == p && ps ~ /^D/) { start = ns($1); if (!first) first = start }
	}
	END { printf "%.0f %d %.0f %.0f\n", sum, n, first, end }'
}

secs() { awk -v t="$1" 'BEGIN { printf "%d.%09d", t / 1e9, t % 1e9 }'; }
ms() { awk -v t="$1" 'BEGIN { printf "%.1f ms", t / 1e6 }'; }

# measure N [CPU]: record run.sh (pinned to CPU if given); sets a b truth
# nd from to lost (B's D-sleep from dump: sum, count, first start, last end)
run=0
measure() {
	run=$((run + 1))
	rm -f "$TEST_DIR/r.dat" "$TEST_DIR/a.pid" "$TEST_DIR/b.pid"
	if [ -n "$1" ]; then
		t3_record "$TEST_DIR/r.dat" taskset -c "$1" sh "$TEST_DIR/run.sh" "$TEST_DIR" "$M" $run
	else
		t3_record "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh" "$TEST_DIR" "$M" $run
	fi || return 1
	a=$(cat "$TEST_DIR/a.pid") b=$(cat "$TEST_DIR/b.pid") || return 1
	set -- $(raw_dsleep "$TEST_DIR/r.dat" "$b")
	truth=${1:-0} nd=${2:-0} from=${3:-0} to=${4:-0}
	lost=$("$BOOTPROF" report --format json --no-plugins "$TEST_DIR/r.dat" |
		jq '.totals.lost_events + .totals.lost_pages')
}

# run_case NAME [CPU]
run_case() {
	name=$1 cpu=${2:-}
	for attempt in 1 2 3; do
		measure "$cpu" || { not_ok "$name: recorded"; return; }
		[ "$lost" = 0 ] && [ "$truth" -ge 300000000 ] && break
		echo "# $name: attempt $attempt: B (pid $b) slept $(ms "$truth") in D ($nd sleeps)," \
			"lost events $lost"
	done
	if [ "$lost" != 0 ]; then
		skip "$name" "every recording lost events (a busy machine)"
		return
	fi
	r=$TEST_DIR/r.dat
	"$BOOTPROF" report --format json --no-plugins --all "$r" >"$TEST_DIR/all.json"
	set -- $(jq -r --argjson p "$b" '.processes[] | select(.pid == $p) |
		"\(.wait_ns) \(.other_wait_ns) \(.wait_by_cause["open-stat"])"' "$TEST_DIR/all.json")
	io=${1:-0} other=${2:-0} openstat=${3:-0}
	tot_other=$(jq .totals.other_wait_ns "$TEST_DIR/all.json")
	# CPU idle while waiting over B's D-sleep, and the I/O wait of every
	# other process then (the most of that idle time they can explain).
	"$BOOTPROF" report --format json --no-plugins --all --since "$(secs "$from")" \
		--until "$(secs "$to")" "$r" >"$TEST_DIR/win.json"
	idle=$(jq .totals.idle_wait_ns "$TEST_DIR/win.json")
	others=$(jq --argjson p "$b" '[.processes[] | select(.pid != $p) | .wait_ns] | add // 0' \
		"$TEST_DIR/win.json")
	"$BOOTPROF" report --no-plugins "$r" >"$TEST_DIR/report.txt"
	echo "# $name: B (pid $b, A pid $a): D-sleep from dump $(ms "$truth") in $nd sleeps;" \
		"bootprof: I/O wait $(ms "$io") (open-stat $(ms "$openstat")), other D-sleep" \
		"$(ms "$other") (everyone's: $(ms "$tot_other")); CPU idle while waiting over B's" \
		"D-sleep $(ms "$idle"), other processes' I/O wait then $(ms "$others")"
	sed -n '/^== Summary/,/^command/p' "$TEST_DIR/report.txt" |
		grep -E '^(I/O wait|  by cause|CPU idle|other D-sleep)' | sed "s/^/# $name: /"
	expect "$name: the kernel put B in D for at least 0.3 s ($(ms "$truth"), from dump)" \
		"test '$truth' -ge 300000000"
	expect "$name: B's I/O wait < 10 ms ($(ms "$io"))" "test '$io' -lt 10000000"
	expect "$name: B's other D-sleep within 3% of its D-sleep from dump" \
		"t3_within '$other' '$truth' 3"
	expect "$name: ... and the totals' other D-sleep holds it" \
		"awk 'BEGIN { exit !($tot_other >= $truth * 0.97) }'"
	expect "$name: the report's other D-sleep line names B" \
		"grep -q '^other D-sleep: .*\\[$b\\] ' '$TEST_DIR/report.txt'"
	# Where the number comes from: the kernel's count where it has schedstats.
	want=inferred
	[ -e /proc/sys/kernel/sched_schedstats ] && want=kernel
	src=$(jq -r .totals.iowait_source "$TEST_DIR/all.json")
	expect "$name: the report says its I/O wait is $want (JSON: $src)" \
		"[ '$src' = $want ] && grep -q '^  source: .*$([ $want = kernel ] && echo schedstats || echo inferred)' '$TEST_DIR/report.txt'"
	if [ -n "$cpu" ]; then
		skip "$name: CPU idle while waiting" "the hog keeps a CPU busy: never all idle"
	else
		expect "$name: CPU idle while waiting holds none of B's D-sleep" \
			"test \$(( $idle - $others )) -lt 10000000"
	fi
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
