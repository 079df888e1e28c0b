#!/bin/sh
# A systemd boot's default end: the systemd plugin's mark, the exit of the
# boot transaction's last job (systemd-update-utmp-runlevel.service, which
# systemd starts once the default target is reached), on the systemd boot
# the boot cache keeps (scripts/chart-example.sh: Debian bookworm under
# QEMU, recorded by bootprof as rdinit, stopped by a file). Against the raw
# events (awk over bootprof dump): the pid the unit's cgroup took and that
# process's sched_process_exit. systemd.last-job= names another unit; a
# recording that shows no such job keeps the old default.
. "$(dirname "$0")/../test-lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
REC=${BOOT_CACHE:-$TOP/tests/boot/cache}/chart-example.dat
[ -s "$REC" ] || skip_all "no systemd boot recording in the boot cache (scripts/chart-example.sh)"

"$BOOTPROF" dump "$REC" >"$TEST_DIR/dump" || skip_all "cannot read $REC"
# The last exit of a process of the unit, one its cgroup took or a child
# forked by one: "TS PID".
unit_exit() {
	awk -v u="/$1" '
	$5 == "cgroup_attach_task:" && index($0, "dst_path=") {
		for (i = 6; i <= NF; i++) {
			if ($i ~ /^dst_path=/) path = substr($i, 10)
			if ($i ~ /^pid=/) pid = substr($i, 5)
		}
		unit[pid] = substr(path, length(path) - length(u) + 1) == u
	}
	$5 == "sched_process_fork:" {
		for (i = 6; i <= NF; i++) {
			if ($i ~ /^pid=/) parent = substr($i, 5)
			if ($i ~ /^child_pid=/) child = substr($i, 11)
		}
		unit[child] = unit[parent]
	}
	$5 == "sched_process_exit:" {
		for (i = 6; i <= NF; i++) if ($i ~ /^pid=/) pid = substr($i, 5)
		if (unit[pid]) { at = $1; who = pid }
	}
	END { if (who) print at, who }' "$TEST_DIR/dump"
}
truth=$(unit_exit systemd-update-utmp-runlevel.service)
want=$(echo "$truth" | awk 'NF == 2 { printf "%.0f %d\n", $1 * 1e6, $2 }')
"$BOOTPROF" critical --format json "$REC" >"$TEST_DIR/c.json" 2>"$TEST_DIR/c.err"
got=$(jq -r '"\(.end_ns / 1000 | floor) \(.end.pid)"' "$TEST_DIR/c.json")
echo "# systemd-update-utmp-runlevel.service: its last exit $truth (s pid); the path's end ${got:-none} (us pid)"
expect "the default end is the systemd plugin's mark" \
	"jq -e '.end.what == \"mark\" and .end.by == \"systemd\" and
		.end.on == \"last job done (systemd-update-utmp-runlevel.service)\"' '$TEST_DIR/c.json' >/dev/null"
expect "it is the unit's last exit in the raw events: same µs, same process" \
	"[ -n '$want' ] && [ '$got' = '$want' ]"
expect "the path tiles the recording up to it" \
	"jq -e '([.segments[].ns] | add) == .duration_ns and .segments[-1].end_ns == .end_ns' '$TEST_DIR/c.json' >/dev/null"
expect "the text says which end and why" \
	"'$BOOTPROF' critical '$REC' | tr '\n' ' ' | grep -q 'end: last job done (systemd-update-utmp-runlevel.service) at .* (plugin systemd)'"
truth=$(unit_exit bp-done.service)
first=$(awk '$1 ~ /^[0-9.]+$/ { print $1; exit }' "$TEST_DIR/dump")
# The verdict's length of the path, as it prints lengths of 10-100 s.
want=$(echo "$first $truth" | awk 'NF == 3 { printf "%.2f s", $2 - $1 }')
echo "# bp-done.service: its last exit $truth (s pid), the path from $first: $want"
expect "systemd.last-job= names another unit: the report's verdict walks to its last exit" \
	"[ -n '$want' ] && '$BOOTPROF' report --plugin-opt systemd.last-job=bp-done.service '$REC' |
	 grep -q 'critical path to last job done (bp-done.service), $want:'"
expect "a unit the recording does not show: PID 1's last run, as before" \
	"'$BOOTPROF' report --plugin-opt systemd.last-job=none.service '$REC' |
	 grep -q \"critical path to PID 1's last run\""
# The other commands that walk to the default end take the same one.
expect "diff --critical: both ends are the mark, at the same ns as critical's" \
	"'$BOOTPROF' diff --critical --format json '$REC' '$REC' |
	 jq -e --argjson e \"\$(jq .end_ns '$TEST_DIR/c.json')\" '.before.end.what == \"mark\" and .before.end.ns == \$e' >/dev/null"
len=$(jq '.duration_ns' "$TEST_DIR/c.json")
echo "critical_path total $(awk -v n="$len" 'BEGIN { printf "%.6f", n / 1e9 - 0.001 }')s" >"$TEST_DIR/b.budget"
expect "check: a budget 1 ms under the path's length fails, the path being the mark's" \
	"! '$BOOTPROF' check --budget '$TEST_DIR/b.budget' '$REC' >'$TEST_DIR/check.out' &&
	 grep -q '^FAIL  critical_path total' '$TEST_DIR/check.out'"
echo "critical_path total $(awk -v n="$len" 'BEGIN { printf "%.6f", n / 1e9 + 0.001 }')s" >"$TEST_DIR/b.budget"
expect "check: 1 ms over it passes" "'$BOOTPROF' check --budget '$TEST_DIR/b.budget' '$REC' >/dev/null"
