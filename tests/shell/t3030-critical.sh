#!/bin/sh
# The critical path of a recorded chain. The command starts a decoy that
# reads a 4 MB file through its own cgroup v1 blkio group at 2 MB/s and
# is never waited for, then runs `B | A`: B (t3-chain read) joins a group
# limited to 2 MB/s, reads chain.bin (1.5 MiB, cold), spins 300 ms of CPU
# and writes one byte; A (t3-chain wait) sleeps on the pipe until then,
# spins 20 ms and exits last. The path to the command's exit must:
#  - name B's read of chain.bin, its I/O time within 3 % of B's own
#    D-sleeps after its exec, summed here from the raw events (`dump`:
#    sched_switch with prev_state D to the next sched_waking of B);
#  - show A's pipe wait as a wait on B, and go on from B;
#  - show B's 300 ms of CPU: its time on a CPU, summed from the raw
#    sched_switch events;
#  - not hold the decoy at all (no segment, no file, no wait);
#  - tile the recording's start to the command's exit;
#  - be outlined on the chart over the lanes of its processes (A's, B's);
#  - be the chrome export's flow events, waker to woken, one pair a wait.
# A recording that lost events is made again (up to 3 times).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 2000000
t3_decoy_cgroup 2000000
t3_helper t3-chain

D=$TEST_DIR/files
mkdir -p "$D"
head -c 1572864 /dev/urandom >"$D/chain.bin"
head -c 4000000 /dev/urandom >"$D/decoy.bin"
# The decoy is cat under a name of its own (comm: bp-decoy).
ln -s "$(command -v cat)" "$TEST_DIR/bp-decoy"
sync
# The decoy starts first: B's and its moves into their groups must not
# wait on each other (that would rightly put the decoy on the path).
cat >"$TEST_DIR/run.sh" <<EOF
sh -c 'echo \$\$ >$DECOYS/cgroup.procs; exec "$TEST_DIR/bp-decoy" "$D/decoy.bin" >/dev/null' &
sleep 0.3
sh -c 'echo \$\$ >$CG/cgroup.procs; exec "$TEST_DIR/t3-chain" read "$D/chain.bin" 300' |
	"$TEST_DIR/t3-chain" wait 20
EOF

# A lost waking or switch makes the raw events no truth: record again.
t3_before_record() {
	for p in $(cat "$DECOYS/cgroup.procs" 2>/dev/null); do kill "$p"; done
	drop_caches
	# Only the two data files are cold: the programs are read again now.
	echo x | "$TEST_DIR/t3-chain" wait 0
	"$TEST_DIR/bp-decoy" </dev/null
	sh -c 'sleep 0'
}
t3_record_whole "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh"
t3_critical "$TEST_DIR/r.dat"
sed -n '1,25p' "$TEST_DIR/c.txt" | sed 's/^/# /'

# Who is who, from the raw events: the execs of t3-chain, and the task
# that inserted chain.bin's pages (B); the decoy by its comm.
fields='function val(k,   i) {
		for (i = 4; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}'
chain_ino=$(printf %x "$(stat -c %i "$D/chain.bin")")
B=$(awk -v ino="$chain_ino" '$5 == "mm_filemap_add_to_page_cache:" {
	for (i = 6; i <= NF; i++) if ($i == "ino" && $(i + 1) == ino) { print $3; exit } }' \
	"$TEST_DIR/dump.txt")
A=$(awk "$fields"' / sched_process_exec: / && val("filename") ~ /t3-chain$/ && val("pid") != b {
	print val("pid"); exit }' b="$B" "$TEST_DIR/dump.txt")
DECOY=$(awk "$fields"' / sched_process_exec: / && val("filename") ~ /bp-decoy$/ { print val("pid"); exit }' \
	"$TEST_DIR/dump.txt")
CMD=$(jq .end.pid "$TEST_DIR/c.json")
echo "# B (reads chain.bin) $B, A (waits on the pipe) $A, decoy $DECOY, command $CMD"
expect 'B, A and the decoy are in the recording' "[ -n '$B' ] && [ -n '$A' ] && [ -n '$DECOY' ]"

# The premises: chain.bin was read cold by B, under its throttle (B slept
# in D for most of 1.5 MiB / 2 MB/s), and the decoy read its file while
# the command ran.
inserted=$(awk -v ino="$chain_ino" -v ps="$(getconf PAGESIZE)" '
	$5 == "mm_filemap_add_to_page_cache:" {
		n = ""; o = 0
		for (i = 6; i <= NF; i++) { if ($i == "ino") n = $(i + 1); if ($i ~ /^order=/) o = substr($i, 7) }
		if (n != ino) next
		b = ps; while (o-- > 0) b *= 2
		bytes += b
	}
	END { print bytes + 0 }' "$TEST_DIR/dump.txt")
expect "B read all of chain.bin from storage ($inserted bytes)" "[ '$inserted' -ge 1572864 ]"
# dsleep PID [AFTER_EXEC]: ns PID slept in D (switched out in D until its
# next sched_waking, or its switch-in when none came first), after its
# exec of t3-chain when AFTER_EXEC
dsleep() {
	awk "$fields"'
	/ sched_process_exec: / && val("old_pid") == p && val("filename") ~ /t3-chain$/ { exec_seen = 1 }
	(!after || exec_seen) && / sched_switch: / && val("prev_pid") == p && val("prev_state") ~ /^D/ {
		start = $1; asleep = 1; next
	}
	asleep && ((/ sched_waking: / && val("pid") == p) || (/ sched_switch: / && val("next_pid") == p)) {
		sum += $1 - start; asleep = 0
	}
	END { printf "%.0f\n", sum * 1e9 }' p="$1" after="${2:-}" "$TEST_DIR/dump.txt"
}
b_dsleep=$(dsleep "$B" after-exec)
decoy_dsleep=$(dsleep "$DECOY")
echo "# D-sleep after exec: B $b_dsleep ns; the decoy's D-sleep: $decoy_dsleep ns"
expect 'the throttle held B: it slept in D over 600 ms' "[ '$b_dsleep' -gt 600000000 ]"
expect 'the decoy read under its throttle while recorded (over 500 ms in D)' \
	"[ '$decoy_dsleep' -gt 500000000 ]"

# The path.
expect 'the path ends at the command'"'"'s exit' '
	pid=$("$BOOTPROF" report --format json "$TEST_DIR/r.dat" | jq .recording.command_pid) &&
	jq -e ".end.what == \"exit\" and .end.pid == $pid" "$TEST_DIR/c.json"'
expect 'the segments tile the recording'"'"'s start to the end' 't3_critical_tiles "$TEST_DIR/c.json"'
io=$(jq --argjson b "$B" --arg f "$D/chain.bin" \
	'[.segments[] | select(.tid == $b and .state == "io" and .file.path == $f) | .ns] | add // 0' \
	"$TEST_DIR/c.json")
echo "# I/O of B on chain.bin on the path: $io ns"
expect "the path names B's read of chain.bin" "[ '$io' -gt 0 ]"
expect "its I/O time is B's own D-sleep on it, within 3 %" "t3_within '$io' '$b_dsleep' 3"
expect "each I/O segment of B names the request that ended it" '
	jq -e --argjson b "$B" "[.segments[] | select(.tid == \$b and .state == \"io\")] |
		length > 0 and all(.[]; .request != null and .request.done_ns > .request.issue_ns and
		.request.done_ns <= .end_ns)" "$TEST_DIR/c.json"'
expect 'the files on the path: chain.bin first' '
	jq -e --arg f "$D/chain.bin" ".files[0].path == \$f" "$TEST_DIR/c.json"'
expect "A's pipe wait is a wait on B, and the path goes on from B" '
	jq -e --argjson a "$A" --argjson b "$B" "
		[.waits[] | select(.tid == \$a and .waker.tid == \$b and .uninterruptible == false)] |
		length == 1 and .[0].ns > 600000000" "$TEST_DIR/c.json" &&
	grep -Eq "t3-chain\\[$A\\] +t3-chain\\[$B\\]" "$TEST_DIR/c.txt"'
expect 'A spins its 20 ms and exits last: its CPU closes the path' '
	jq -e --argjson a "$A" "[.segments[] | select(.tid == \$a and .state == \"cpu\") | .ns] |
		add >= 19000000" "$TEST_DIR/c.json"'
# From its first I/O sleep on, all of B is on the path: its CPU there
# against its time on a CPU from then to its exit, summed from the raw
# sched_switch events (all but what it ran after waking A).
set -- $(jq -r --argjson b "$B" '[.segments[] | select(.tid == $b)] |
	(map(select(.state == "io")) | .[0].start_ns) as $from |
	map(select(.state == "cpu" and .start_ns >= $from) | .ns) | "\(add // 0) \(length)"' \
	"$TEST_DIR/c.json")
cpu=$1 nruns=$2
oncpu=$(awk "$fields"'
	/ sched_process_exec: / && val("old_pid") == b && val("filename") ~ /t3-chain$/ { exec_seen = 1 }
	exec_seen && !from && / sched_switch: / && val("prev_pid") == b && val("prev_state") ~ /^D/ {
		from = 1; next
	}
	from && / sched_switch: / && val("next_pid") == b { on = $1 }
	from && on && / sched_switch: / && val("prev_pid") == b { sum += $1 - on; on = 0 }
	END { printf "%.0f\n", sum * 1e9 }' b="$B" "$TEST_DIR/dump.txt")
echo "# CPU of B on the path from its first I/O sleep: $cpu ns in $nruns runs; on a CPU then: $oncpu ns"
expect "B's CPU on the path is its time on a CPU (within 1 % + 2 ms)" \
	"awk -v a='$cpu' -v b='$oncpu' 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 100 + 2000000) }'"
# B's CPU clock also runs in the scheduler around each switch, which the
# switch events leave out: up to 20 µs a run on a quiet machine, 50 µs a
# run measured under the parallel suite (134 runs, 293.4 ms between the
# switches for 300 ms of CPU clock), and once 277.9 ms between switches
# on a loaded host (the path had 277.7 ms: the check above holds it to
# the switches). A path that skipped the spin would hold none of it: 90 %
# of the clock tells the two apart whatever the load.
low=270000000
expect "B's 300 ms of spinning are on the path (at least $low ns of CPU)" "[ '$cpu' -ge '$low' ]"
expect 'the decoy is not on the path: no segment, no wait, no file' '
	jq -e --argjson d "$DECOY" --arg f "$D/decoy.bin" "
		([.segments[] | select(.tid == \$d or .comm == \"bp-decoy\" or .file.path == \$f)] | length == 0) and
		([.waits[] | select(.tid == \$d or .waker.tid == \$d)] | length == 0) and
		([.files[] | select(.path == \$f)] | length == 0)" "$TEST_DIR/c.json" &&
	! grep -q "bp-decoy\|decoy.bin" "$TEST_DIR/c.txt"'

# The chart draws the path: one outline per run of segments on one lane,
# at that lane's y. With --all-lanes (a lane per process) the outlined
# processes are those of the path's segments that have a lane, A and B
# among them; by default (short-lived children folded under their
# parent) every outline is a task of the path, A's and B's among them;
# --no-critical draws none.
"$BOOTPROF" chart --all-lanes "$TEST_DIR/r.dat" -o "$TEST_DIR/c.svg" 2>/dev/null &&
	"$BOOTPROF" chart "$TEST_DIR/r.dat" -o "$TEST_DIR/folded.svg" 2>/dev/null ||
	not_ok 'bootprof chart of the chain'
# "PID Y" per lane (its title starts "pid N", its first rect is the bar)
# and per outline (the rect is 1.5 px above its lane), one <g> a record.
svg_pid_y() { # KIND ("lane" or "cp") SVG
	awk -v kind="$1" -v RS='<g class=' '
	function y_of(rect,   s) {
		if (!match($0, rect " x=\"[0-9.]*\" y=\"[0-9.]*\"")) return ""
		s = substr($0, RSTART, RLENGTH); sub(/.*y="/, "", s); sub(/"$/, "", s)
		return s
	}
	kind == "lane" && /^"lane"><title>pid [0-9]+/ {
		split($0, w, /[ (:\n]/); print w[2], y_of("<rect class=\"sl\"") + 0
	}
	kind == "cp" && /^"cp"><title>critical path: / {
		s = $0; sub(/\], .*/, "", s); sub(/.*\[/, "", s); print s, y_of("<rect class=\"cpo\"") + 1.5
	}' "$2" | sort -u
}
svg_pid_y lane "$TEST_DIR/c.svg" >"$TEST_DIR/lanes"
svg_pid_y cp "$TEST_DIR/c.svg" >"$TEST_DIR/outlined"
jq -r '.segments[].pid' "$TEST_DIR/c.json" | sort -u >"$TEST_DIR/path.pids"
awk 'NR == FNR { on[$1] = 1; next } on[$1]' "$TEST_DIR/path.pids" "$TEST_DIR/lanes" \
	>"$TEST_DIR/path.lanes"
echo "# outlined lanes (pid y): $(tr '\n' ' ' <"$TEST_DIR/outlined")"
expect "--all-lanes: the chart outlines the lanes of the path's processes, each at its lane, A's and B's among them" '
	[ -s "$TEST_DIR/lanes" ] && diff "$TEST_DIR/path.lanes" "$TEST_DIR/outlined" &&
	grep -q "^$A " "$TEST_DIR/outlined" && grep -q "^$B " "$TEST_DIR/outlined"'
svg_pid_y cp "$TEST_DIR/folded.svg" | cut -d" " -f1 | sort -u >"$TEST_DIR/folded.outlined"
expect "by default every outline is a process of the path, A's and B's among them" '
	[ -s "$TEST_DIR/folded.outlined" ] && ! comm -23 "$TEST_DIR/folded.outlined" "$TEST_DIR/path.pids" | grep . &&
	grep -qx "$A" "$TEST_DIR/folded.outlined" && grep -qx "$B" "$TEST_DIR/folded.outlined"'
expect "the legend names the path's end: the command's exit" '
	grep -q "critical path to the exit of [^<]* \[$CMD\] (bootprof critical)</text>" "$TEST_DIR/c.svg"'
expect "--no-critical draws no path" '
	"$BOOTPROF" chart --no-critical "$TEST_DIR/r.dat" -o "$TEST_DIR/none.svg" 2>/dev/null &&
	! grep -q "class=\"cp\"" "$TEST_DIR/none.svg"'

# The chrome export's flow events: one "s" on the waker and one "f" on the
# woken per wait of the path, at the waking; the "s" inside a running
# slice of the waker (what Perfetto binds it to), a running slice of the
# woken starting at or after the "f". With --all every task but the
# recorder's is in the trace; by default only the command's tree: only
# the waits between two threads of the trace have flows.
"$BOOTPROF" export -f chrome --all "$TEST_DIR/r.dat" -o "$TEST_DIR/all.trace.json" 2>/dev/null &&
	"$BOOTPROF" export -f chrome "$TEST_DIR/r.dat" -o "$TEST_DIR/cmd.trace.json" 2>/dev/null ||
	not_ok 'bootprof export of the chain'
expect 'the traces load in jq' '
	jq -e .traceEvents "$TEST_DIR/all.trace.json" >/dev/null &&
	jq -e .traceEvents "$TEST_DIR/cmd.trace.json" >/dev/null'
flows() { # TRACE: "waker woken ns" per flow pair
	jq -r '.otherData.origin_ns as $o |
		[.traceEvents[] | select(.cat == "critical")] | group_by(.id)[] |
		if length == 2 and .[0].ph == "s" and .[1].ph == "f" and .[0].ts == .[1].ts then
			"\(.[0].tid) \(.[1].tid) \(.[0].ts * 1000 + $o | round)"
		else "bad pair \(.)" end' "$1" | sort
}
jq -r '.waits[] | "\(.waker.tid) \(.tid) \(.end_ns)"' "$TEST_DIR/c.json" | sort >"$TEST_DIR/waits"
# WHICH TRACE: the waits between two threads the trace has (named in it).
waits_in() {
	jq -r '.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .tid' "$2" |
		sort -u >"$TEST_DIR/$1.tids"
	awk 'NR == FNR { in_[$1] = 1; next } in_[$1] && in_[$2]' "$TEST_DIR/$1.tids" \
		"$TEST_DIR/waits" >"$TEST_DIR/$1.waits"
}
waits_in all "$TEST_DIR/all.trace.json"
waits_in cmd "$TEST_DIR/cmd.trace.json"
echo "# waits on the path (waker woken ns): $(wc -l <"$TEST_DIR/waits"), between threads of the trace: $(wc -l <"$TEST_DIR/all.waits"), of the command's tree: $(wc -l <"$TEST_DIR/cmd.waits")"
expect "--all: one flow pair per wait of the path between its threads, waker to woken at the waking, B to A among them" '
	[ -s "$TEST_DIR/all.waits" ] && flows "$TEST_DIR/all.trace.json" | diff "$TEST_DIR/all.waits" - &&
	grep -q "^$B $A " "$TEST_DIR/all.waits"'
expect "the command's tree: the pairs of the waits between its threads, B to A among them" '
	[ -s "$TEST_DIR/cmd.waits" ] && flows "$TEST_DIR/cmd.trace.json" | diff "$TEST_DIR/cmd.waits" - &&
	grep -q "^$B $A " "$TEST_DIR/cmd.waits"'
expect "each flow starts in a running slice of its waker and ends before a running slice of the woken" '
	jq -e "[.traceEvents[] | select(.ph == \"X\" and .name == \"running\")] as \$run |
		[.traceEvents[] | select(.cat == \"critical\")] | length > 0 and
		all(.[]; . as \$e | if \$e.ph == \"s\" then
			any(\$run[]; .tid == \$e.tid and .ts <= \$e.ts and \$e.ts <= .ts + .dur)
		else any(\$run[]; .tid == \$e.tid and .ts >= \$e.ts) end)" "$TEST_DIR/all.trace.json"'
# The other ends, on the same recording. --to file: chain.bin's first
# event, found here in the raw events naming its inode (readahead,
# filemap): B's.
first=$(awk -v on="dev[= ]$(stat -c %Hd:%Ld "$D/chain.bin") ino[= ]$chain_ino( |\$)" \
	'$0 ~ on { print $1; exit }' "$TEST_DIR/dump.txt")
echo "# chain.bin's first event: $first"
expect "--to file:chain.bin ends at its first event ($first), on B" '
	"$BOOTPROF" critical --format json --to "file:$D/chain.bin" "$TEST_DIR/r.dat" >"$TEST_DIR/f.json" &&
	t3_critical_tiles "$TEST_DIR/f.json" && [ -n "'"$first"'" ] &&
	[ "$(t3_us "$(jq .end_ns "$TEST_DIR/f.json")")" = "'"$first"'" ] &&
	jq -e --argjson b "$B" ".end.what == \"file\" and .end.tid == \$b" "$TEST_DIR/f.json"'
expect "before its first event, chain.bin is on no segment of that path" '
	jq -e "[.segments[] | select(.state == \"io\" and .file.path == \"$D/chain.bin\")] | length == 0" \
		"$TEST_DIR/f.json"'
# A recording stopped by its duration has no end of its own: refused.
"$BOOTPROF_FAST" record -o "$TEST_DIR/d.dat" --duration 0.3 2>/dev/null
expect "a recording stopped by its duration needs --to (1, one line)" '
	"$BOOTPROF" critical "$TEST_DIR/d.dat" 2>"$TEST_DIR/err"; rc=$?; cat "$TEST_DIR/err"
	[ $rc -eq 1 ] && [ $(wc -l <"$TEST_DIR/err") -eq 1 ] &&
	grep -q "stopped by duration: .*--to" "$TEST_DIR/err"'
printf 'critical_path io 1h\n' >"$TEST_DIR/c.budget"
expect "check: a critical_path limit on it fails and says why" '
	"$BOOTPROF" check --budget "$TEST_DIR/c.budget" "$TEST_DIR/d.dat" >"$TEST_DIR/out"; rc=$?
	cat "$TEST_DIR/out"; [ $rc -eq 1 ] && grep -q "^FAIL  critical_path io 1h: - (no path: the recording stopped by duration" "$TEST_DIR/out"'
