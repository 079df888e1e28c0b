#!/bin/sh
# The systemd plugin on a real recording: a shell moves itself into a new
# cgroup v2 group named like a unit (bootprof-test-PID.service) and reads
# two files of known sizes from a cold cache with cat. The unit holds the
# shell and both cats, its bytes read cover both files, both are among its
# top files with the bytes and wait the model charges to them; nothing
# outside the cgroup is counted in the unit.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
if "$BOOTPROF" report --list-plugins 2>&1 | grep -q 'not built yet'; then
	skip_all "bootprof report is not built yet"
fi
[ -e $TRACEFS/events/cgroup/cgroup_attach_task ] || skip_all "no cgroup:cgroup_attach_task event"
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$root" ] && [ -f "$root/cgroup.procs" ] || skip_all "no cgroup v2 hierarchy mounted"
unit=bootprof-test-$$.service
CG=$root/$unit
mkdir "$CG" || skip_all "cannot create $CG"
cleanup() {
	rmdir "$CG" 2>/dev/null
	rm -rf "$TEST_DIR"
}
trap cleanup EXIT

big=$TEST_DIR/big-$$
small=$TEST_DIR/small-$$
head -c 6291456 /dev/urandom >"$big"
head -c 1048576 /dev/urandom >"$small"
drop_caches
"$BOOTPROF_FAST" record -o "$TEST_DIR/s.dat" -- \
	sh -c "echo \$\$ >'$CG/cgroup.procs' && cat '$big' >/dev/null && cat '$small' >/dev/null" \
	2>"$TEST_DIR/rec.err" || { cat "$TEST_DIR/rec.err"; skip_all "recording failed"; }
# The shell has exited: the group is empty and can go now.
rmdir "$CG"

"$BOOTPROF" report --format json --plugin-opt systemd.files=5 "$TEST_DIR/s.dat" >"$TEST_DIR/s.json" 2>"$TEST_DIR/err"
u() { jq -r --arg u "$unit" ".plugins.systemd.units[] | select(.unit == \$u) | $1" "$TEST_DIR/s.json"; }
expect "the unit $unit is found" "test \"\$(u .unit)\" = '$unit'"
expect 'it holds the shell and its two cats' "test \"\$(u .processes)\" = 3"
expect 'its bytes read cover both files' "test \"\$(u .bytes_read)\" -ge $((6291456 + 1048576))"
tf() { u ".top_files[] | select(.path == \"$1\") | .$2"; }
expect 'the bigger file is among its top files, with at least its size' \
	"test \"\$(tf '$big' bytes_read)\" -ge 6291456"
expect 'the smaller file too' "test \"\$(tf '$small' bytes_read)\" -ge 1048576"
# Ground truth from the model itself: the same file's bytes and wait.
fb=$(jq -r --arg p "$big" '.files[] | select(.path == $p) | .bytes_read' "$TEST_DIR/s.json")
fw=$(jq -r --arg p "$big" '.files[] | select(.path == $p) | .wait_ns' "$TEST_DIR/s.json")
expect "the unit's bytes and wait on it are the model's ($fb bytes, $fw ns)" \
	"test \"\$(tf '$big' bytes_read)\" = '$fb' && test \"\$(tf '$big' wait_ns)\" = '$fw'"
# The unit's wait: the sum of its processes' waits in the model.
pw=$(jq -r --arg b "$big" --arg s "$small" '[.processes[] | select(.worst_file == $b or .worst_file == $s) | .wait_ns] | add' "$TEST_DIR/s.json")
expect "its I/O wait includes the cats' (${pw:-?} ns)" "test \"\$(u .wait_ns)\" -ge '${pw:-1}'"
expect 'no process outside the group is counted' \
	"test \"\$(jq '[.plugins.systemd.units[].processes] | add' '$TEST_DIR/s.json')\" = 3"
"$BOOTPROF" report "$TEST_DIR/s.dat" >"$TEST_DIR/s.txt" 2>/dev/null
expect 'the text report lists the unit with its top files' \
	"sed -n '/^== systemd:/,/^== /p' '$TEST_DIR/s.txt' | grep -q '^$unit .*big-$$'"
