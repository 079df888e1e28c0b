#!/bin/sh
# The android plugin's boot marks on a real recording, each against the raw
# event it comes from, found again here with awk over bootprof dump:
# zygote start (the exec of app_process64, a copy of sh), system_server
# (the fork of the process exec'd as system_server), bootanim exit (the exit
# of the process named bootanimation, which runs only builtins so that it
# dies under that name) and boot completed (the line the .rc writes to the
# trace buffer). A recording with none has no marks section.
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

for p in app_process64 system_server bootanimation; do cp /bin/sh "$TEST_DIR/$p"; done
spin='i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done'
"$BOOTPROF_FAST" record -o "$TEST_DIR/m.dat" -- sh -c "
	'$TEST_DIR/app_process64' -c \"'$TEST_DIR/system_server' -c '$spin' &
		'$TEST_DIR/bootanimation' -c '$spin'; wait\"
	for m in /sys/kernel/tracing/instances/bootprof-\$PPID*/trace_marker; do
		echo 'bootprof: sys.boot_completed=1' >\"\$m\"
	done
" 2>"$TEST_DIR/rec.err" || { cat "$TEST_DIR/rec.err"; skip_all "recording failed"; }
"$BOOTPROF" dump "$TEST_DIR/m.dat" >"$TEST_DIR/dump" &&
	"$BOOTPROF" report --format json --plugin android "$TEST_DIR/m.dat" >"$TEST_DIR/m.json" ||
	skip_all "cannot read the recording"

# "TS PID" of the raw event behind each mark, from the dump.
exec_of() {
	awk -v f="filename=$TEST_DIR/$1" '$5 == "sched_process_exec:" && $6 == f { print $1, $3; exit }' \
		"$TEST_DIR/dump"
}
set -- $(exec_of app_process64)
zygote="$1 $2"
set -- $(exec_of system_server)
server=$(awk -v p="child_pid=$2" '$5 == "sched_process_fork:" && $NF == p { print $1; exit }' \
	"$TEST_DIR/dump")" $2"
set -- $(exec_of bootanimation)
anim=$(awk -v p="$2" '$5 == "sched_process_exit:" && $3 == p { print $1; exit }' "$TEST_DIR/dump")" $2"
done=$(awk '$5 == "print:" && /bootprof: sys.boot_completed=1/ { print $1, $3; exit }' "$TEST_DIR/dump")
for m in "zygote start:$zygote" "system_server:$server" "bootanim exit:$anim" \
	"boot completed:$done"; do
	name=${m%%:*} truth=${m#*:}
	got=$(jq -r --arg m "$name" '.plugins.android.marks[] | select(.mark == $m) |
		"\(.ns / 1000 | floor) \(.pid)"' "$TEST_DIR/m.json")
	want=$(echo "$truth" | awk 'NF == 2 { printf "%.0f %d\n", $1 * 1e6, $2 }')
	echo "# $name: raw event $truth; mark ${got:-none} (us pid)"
	expect "$name: at its raw event, same µs and pid" "[ -n '$want' ] && [ '$got' = '$want' ]"
done
expect "the text report has the marks section" \
	"'$BOOTPROF' report --plugin android '$TEST_DIR/m.dat' | grep -q '^== android: boot marks'"
expect "a recording without Android has no marks, in text or JSON" \
	"! '$BOOTPROF' report --plugin android '$TOP/tests/fixtures/basic.dat' | grep -q 'boot marks' &&
	 '$BOOTPROF' report --format json --plugin android '$TOP/tests/fixtures/basic.dat' |
	 jq -e '.plugins.android.marks == []' >/dev/null"
