#!/bin/sh
# One focus, every number: in a `record -- CMD` recording with another
# process reading beside the command, the totals (report's Summary in
# text, json and csv, the timeline, the phases, check's io_wait total,
# top's header)
# are the command tree's: equal to the sum over the processes the raw
# fork events of `bootprof dump` put in the tree (awk, not the model's
# tree), of their csv rows. CPU idle while the tree waited is computed
# again from the tree's I/O-wait spans and trace-cmd's sched_switch
# events (t3_waiting). --all switches every one of them to every process.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

D=$TEST_DIR
R=$BOOTPROF
mkdir -p "$D/bin"
cp "$(command -v cat)" "$D/bin/busyreader"
head -c 2097152 /dev/urandom >"$D/cmdfile"
head -c 33554432 /dev/urandom >"$D/bigfile"
drop_caches

# Beside the command, started before it and still reading when it ends:
# a reader of 32 MiB from a cold cache, in 4 KiB direct reads.
(
	while [ ! -e "$D/go" ]; do sleep 0.01; done
	dd if="$D/bigfile" of=/dev/null bs=4k iflag=direct 2>/dev/null
	"$D/bin/busyreader" "$D/bigfile" >/dev/null
	touch "$D/done"
) &
beside=$!
t3_record "$D/r.dat" sh -c "touch '$D/go'; sleep 0.3; cat '$D/cmdfile' >/dev/null; /bin/true
	i=0; while [ ! -e '$D/done' ] && [ \$i -lt 500 ]; do sleep 0.02; i=\$((i + 1)); done"
wait $beside
F=$D/r.dat

"$R" report --format json --top 0 "$F" >"$D/focus.json"
"$R" report --format json --top 0 --all "$F" >"$D/all.json"
cmd=$(jq .recording.command_pid "$D/focus.json")

# The tree from the raw fork events: the command, then every child of a member.
"$R" dump "$F" >"$D/dump.txt"
awk -v root="$cmd" '
	/ sched_process_fork: / {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^pid=/) p = substr($i, 5)
			if ($i ~ /^child_pid=/) c = substr($i, 11)
		}
		if (p in tree) tree[c] = 1
	}
	BEGIN { tree[root] = 1 }
	END { for (p in tree) print p }' "$D/dump.txt" | sort -n >"$D/tree.pids"

# Σ of a csv column over the rows of the tree's pids (or of every row).
"$R" report --all --format csv --table processes --top 0 "$F" >"$D/procs.csv"
sum() { # COLUMN [all]
	c=$(t3_col "$D/procs.csv" "$1")
	awk -F, -v c="$c" -v all="${2:-}" 'NR == FNR { t[$1] = 1; next }
		FNR > 1 && (all != "" || ($1 in t)) { s += $c } END { printf "%.0f\n", s }' \
		"$D/tree.pids" "$D/procs.csv"
}
tot() { jq -r ".totals.$2" "$D/$1.json"; }

wait_tree=$(sum wait_ns)
wait_all=$(sum wait_ns all)
expect "the other reader waited more than the command's tree (tree ${wait_tree} ns, all ${wait_all} ns)" \
	"test $wait_tree -gt 0 && test $wait_all -gt \$(($wait_tree * 2))"
expect "json totals: I/O wait is the tree's (${wait_tree} ns)" "test \"\$(tot focus wait_ns)\" = '$wait_tree'"
expect 'json totals: bytes read are the tree'"'"'s' "test \"\$(tot focus read_bytes)\" = \"\$(sum bytes_read)\""
expect 'json totals: I/O wait by cause adds up to the tree'"'"'s' \
	"test \"\$(jq '[.totals.wait_by_cause[]] | add' '$D/focus.json')\" = '$wait_tree'"
expect "--all: json totals are every process's (${wait_all} ns)" "test \"\$(tot all wait_ns)\" = '$wait_all'"

col() { jq "[.timeline.buckets[][$2]] | add // 0" "$D/$1.json"; }
expect 'json timeline: its I/O wait and idle columns add up to the tree'"'"'s totals' \
	"test \"\$(col focus 0)\" = '$wait_tree' && test \"\$(col focus 1)\" = \"\$(tot focus idle_wait_ns)\""
expect 'json timeline --all: to every process'"'"'s' \
	"test \"\$(col all 0)\" = '$wait_all' && test \"\$(col all 1)\" = \"\$(tot all idle_wait_ns)\""
expect 'json timeline: never more of the tree waiting at once than with --all' \
	"jq -e --slurpfile a '$D/all.json' '[.timeline.buckets, \$a[0].timeline.buckets] | transpose | all(.[0][4] <= .[1][4])' '$D/focus.json' >/dev/null"

# CPU idle while the tree waited, computed again.
w=$(t3_waiting "$F" "$(tr '\n' ' ' <"$D/tree.pids")")
expect "CPU idle while the tree waited, computed again: ${w#* } ns" \
	"test -n '$w' && test \"\${w#* }\" = \"\$(tot focus idle_wait_ns)\""
w=$(t3_waiting "$F")
expect "--all: CPU idle while anyone waited: ${w#* } ns" \
	"test -n '$w' && test \"\${w#* }\" = \"\$(tot all idle_wait_ns)\""

# The text report says whose numbers they are, and prints the tree's.
"$R" report --width 200 "$F" >"$D/focus.txt"
"$R" report --width 200 --all "$F" >"$D/all.txt"
expect 'text: the summary is of the command'"'"'s tree' \
	"grep -q \"^of: *the command's tree: sh (pid $cmd)\" '$D/focus.txt'"
expect 'text --all: the summary is of every process' "grep -q '^of: *every process' '$D/all.txt'"
expect 'csv totals: I/O wait is the tree'"'"'s, every process'"'"'s with --all' \
	"$R report --format csv --table totals '$F' | grep -qx 'wait_ns,$wait_tree' &&
	 $R report --all --format csv --table totals '$F' | grep -qx 'wait_ns,$wait_all'"

# Phases: userspace is the whole recording, a phase up to /bin/true a model
# of its own window: the tree's (everyone's with --all).
phase() { "$R" report --format json --phase mid=exec:/bin/true "$F" |
	jq ".phases[] | select(.name == \"$1\") | .wait_ns"; }
phase_all() { "$R" report --format json --all --phase mid=exec:/bin/true "$F" |
	jq ".phases[] | select(.name == \"$1\") | .wait_ns"; }
expect 'phases: userspace waited what the tree did' "test \"\$(phase userspace)\" = '$wait_tree'"
expect 'phases --all: userspace waited what every process did' \
	"test \"\$(phase_all userspace)\" = '$wait_all'"
expect 'phases: up to /bin/true, the tree waited no more than in all; everyone more' \
	"test \"\$(phase mid)\" -le '$wait_tree' && test \"\$(phase_all mid)\" -gt \"\$(phase mid)\""

# check: a budget between the two holds for the tree and not for everyone.
mid=$(( (wait_tree + wait_all) / 2 / 1000000 ))
printf 'io_wait total %sms\n' "$mid" >"$D/budget"
expect "check: io_wait total ${mid}ms holds for the tree" "$R check --budget '$D/budget' '$F' >'$D/check.txt'"
expect 'check --all: over for every process' "! $R check --all --budget '$D/budget' '$F' >/dev/null"
expect 'check and diff say the numbers are the tree'"'"'s' \
	"grep -q \"^budget: .* (the command's tree; --all: every process)\" '$D/check.txt' &&
	 $R diff '$F' '$F' | grep -q \"^of: *the commands' trees (--all: every process)\" &&
	 ! $R diff --all '$F' '$F' | grep -q \"^of:\""


# top's header: the same I/O wait as the report.
io() { sed -n 's/.*I\/O wait \([0-9.]* [a-z]*\).*/\1/p' | head -1; }
expect 'top: the header'"'"'s I/O wait is the report'"'"'s' \
	"test \"\$($R top --batch '$F' | io)\" = \"\$(sed -n 's/^I\\/O wait: *//p' '$D/focus.txt')\""
expect 'top --all: the header'"'"'s I/O wait is every process'"'"'s' \
	"test \"\$($R top --batch --all '$F' | io)\" = \"\$(sed -n 's/^I\\/O wait: *//p' '$D/all.txt')\""
