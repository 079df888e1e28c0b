#!/bin/sh
# A boot's default end from a plugin: a whole-system recording (no command,
# stopped by a file) of a pretend Android boot (copies of sh named as
# Android's processes, as t6105) ends its critical path at the android
# plugin's mark: boot completed, the line written to the trace buffer, at
# the µs and on the task of that raw event (awk over bootprof dump); with no
# such line, at bootanimation's exit. The text says which end was taken and
# why, the report's verdict walks to the same end, --to still wins.
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

for p in app_process64 system_server bootanimation; do cp /bin/sh "$TEST_DIR/$p"; done
spin='i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done'

# boot NAME MARK: record until a file appears while the pretend boot runs;
# MARK 1 writes the boot-completed line to the recorder's instance.
boot() {
	rm -f "$TEST_DIR/stop"
	"$BOOTPROF_FAST" record -o "$TEST_DIR/$1.dat" -d 30 --until-file "$TEST_DIR/stop" \
		2>"$TEST_DIR/$1.err" &
	rec=$!
	i=0
	until ls -d /sys/kernel/tracing/instances/bootprof-$rec* >/dev/null 2>&1 &&
		[ -s "$TEST_DIR/$1.err" ] || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5
	"$TEST_DIR/app_process64" -c "'$TEST_DIR/system_server' -c '$spin' &
		'$TEST_DIR/bootanimation' -c '$spin'; wait"
	if [ "$2" = 1 ]; then
		sh -c "for m in /sys/kernel/tracing/instances/bootprof-$rec*/trace_marker; do
			echo 'bootprof: sys.boot_completed=1' >\"\$m\"
		done"
	fi
	sleep 0.2
	touch "$TEST_DIR/stop"
	wait $rec
}
boot m 1 || { cat "$TEST_DIR/m.err"; skip_all "recording failed"; }
"$BOOTPROF" dump "$TEST_DIR/m.dat" >"$TEST_DIR/dump" || skip_all "cannot read the recording"
stop=$("$BOOTPROF" report --format json "$TEST_DIR/m.dat" | jq -r .recording.stop_reason)
echo "# $(grep '^# lost events' "$TEST_DIR/dump" | sed 's/^# //'); stop: $stop"
expect "the recording stopped by its file, not a command or an exec" "[ '$stop' = 'file $TEST_DIR/stop appeared' ]"

# "TS PID" of the boot-completed line in the raw events.
done=$(awk '$5 == "print:" && /bootprof: sys.boot_completed=1/ { print $1, $3; exit }' "$TEST_DIR/dump")
"$BOOTPROF" critical --format json "$TEST_DIR/m.dat" >"$TEST_DIR/c.json" 2>"$TEST_DIR/c.err"
got=$(jq -r '"\(.end_ns / 1000 | floor) \(.end.tid)"' "$TEST_DIR/c.json")
want=$(echo "$done" | awk 'NF == 2 { printf "%.0f %d\n", $1 * 1e6, $2 }')
echo "# boot completed: raw event $done; the path's end ${got:-none} (us tid)"
expect "the default end is the plugin's mark: boot completed, by android" \
	"jq -e '.end.what == \"mark\" and .end.on == \"boot completed\" and .end.by == \"android\" and
		.end.why == \"a plugin'\\''s mark\"' '$TEST_DIR/c.json'"
expect "it is at the raw print event: same µs, same task" "[ -n '$want' ] && [ '$got' = '$want' ]"
expect "the path tiles the recording up to it" \
	"jq -e '([.segments[].ns] | add) == .duration_ns and .segments[-1].end_ns == .end_ns' '$TEST_DIR/c.json'"
"$BOOTPROF" critical "$TEST_DIR/m.dat" >"$TEST_DIR/c.txt"
sed -n 3p "$TEST_DIR/c.txt" | sed 's/^/# /'
expect "the text says which end and why" \
	"grep -q '^end: boot completed at [0-9.]*, on sh\[${want#* }\] (plugin android)\$' '$TEST_DIR/c.txt'"
expect "the report's verdict walks to the same end" \
	"'$BOOTPROF' report '$TEST_DIR/m.dat' | grep -q 'critical path to boot completed'"
exec_at=$(awk -v f="filename=$TEST_DIR/bootanimation" '$5 == "sched_process_exec:" && $6 == f { print $1; exit }' \
	"$TEST_DIR/dump")
expect "--to still names the end" \
	"'$BOOTPROF' critical --format json --to exec:bootanimation '$TEST_DIR/m.dat' |
	 jq -e '.end.what == \"exec\" and .end.why == \"--to\"' >/dev/null"

# No boot-completed line: bootanimation's exit is the end.
boot n 0 || { not_ok "record the boot without the line"; exit 0; }
"$BOOTPROF" dump "$TEST_DIR/n.dat" >"$TEST_DIR/ndump"
set -- $(awk -v f="filename=$TEST_DIR/bootanimation" '$5 == "sched_process_exec:" && $6 == f { print $3; exit }' \
	"$TEST_DIR/ndump")
anim=$(awk -v p="$1" '$5 == "sched_process_exit:" && $3 == p { print $1; exit }' "$TEST_DIR/ndump")
"$BOOTPROF" critical --format json "$TEST_DIR/n.dat" >"$TEST_DIR/n.json"
got=$(jq -r '"\(.end_ns / 1000 | floor) \(.end.pid)"' "$TEST_DIR/n.json")
echo "# bootanim exit: raw event $anim pid $1; the path's end ${got:-none} (us pid)"
expect "without the line the end is bootanimation's exit, at its raw event" \
	"jq -e '.end.on == \"bootanim exit\" and .end.by == \"android\"' '$TEST_DIR/n.json' >/dev/null &&
	 [ '$got' = \"\$(echo '$anim $1' | awk 'NF == 2 { printf \"%.0f %d\", \$1 * 1e6, \$2 }')\" ]"
expect "a recording without Android keeps the old default" \
	"'$BOOTPROF' critical --format json '$TOP/tests/fixtures/basic.dat' | jq -e '.end.what != \"mark\"' >/dev/null"
