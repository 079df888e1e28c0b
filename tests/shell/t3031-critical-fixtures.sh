#!/bin/sh
# bootprof critical on the fixture recordings: usage errors exit 2, an end
# point the recording does not hold exits 1 and says what is missing, and
# on every fixture with task switches the path to its default end tiles
# the recording from its first event (checked on the JSON), its text has
# the sections and a total equal to the path's length, and each --to form
# ends where it says. No root needed.
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"

FIX=$TOP/tests/fixtures
REC=$FIX/basic.dat
command -v jq >/dev/null || skip_all "jq not installed (scripts/deps.sh check)"

expect "--to that is no pid:N nor a phase's end is a usage error (2)" '
	"$BOOTPROF" critical --to bogus:/etc/passwd "$REC" 2>"$TEST_DIR/err"; rc=$?
	cat "$TEST_DIR/err"; [ $rc -eq 2 ] &&
	grep -q "pid:N, exec:PROG, file:PATH or service:UNIT" "$TEST_DIR/err"'
expect "--to file: with no path is a usage error (2)" '"$BOOTPROF" critical --to file: "$REC"; [ $? -eq 2 ]'
expect "a file not in the recording fails (1) and says so" '
	"$BOOTPROF" critical --to file:/no/such/file "$REC" 2>"$TEST_DIR/err"; rc=$?
	cat "$TEST_DIR/err"; [ $rc -eq 1 ] && grep -q "no file ./no/such/file. in the recording" "$TEST_DIR/err"'
expect "a unit not in the recording fails (1) and says so" '
	"$BOOTPROF" critical --to service:no-such "$REC" 2>"$TEST_DIR/err"; rc=$?
	cat "$TEST_DIR/err"; [ $rc -eq 1 ] && grep -q "no unit .no-such. in the recording" "$TEST_DIR/err"'
expect "--to pid:0 is a usage error (2)" '"$BOOTPROF" critical --to pid:0 "$REC"; [ $? -eq 2 ]'
expect "an unknown format is a usage error (2)" \
	'"$BOOTPROF" critical --format csv "$REC"; [ $? -eq 2 ]'
expect "two recordings are a usage error (2)" '"$BOOTPROF" critical "$REC" "$REC"; [ $? -eq 2 ]'
expect "a process not in the recording fails (1) and says so" '
	"$BOOTPROF" critical --to pid:999999 "$REC" 2>"$TEST_DIR/err"; rc=$?
	cat "$TEST_DIR/err"; [ $rc -eq 1 ] && grep -q "no process 999999 in the recording" "$TEST_DIR/err"'
expect "an exec not in the recording fails (1) and says so" '
	"$BOOTPROF" critical --to exec:no-such-program "$REC" 2>"$TEST_DIR/err"; rc=$?
	cat "$TEST_DIR/err"; [ $rc -eq 1 ] && grep -q "no exec of .no-such-program." "$TEST_DIR/err"'

n=0
for f in "$FIX"/*.dat; do
	name=$(basename "$f")
	# Only recordings with task switches have a path; the others say so.
	if ! "$BOOTPROF" dump --count "$f" 2>/dev/null | grep -q 'sched_switch'; then
		expect "$name: no sched_switch: fails (1) and says so" '
			"$BOOTPROF" critical "'"$f"'" 2>"$TEST_DIR/err"; rc=$?
			cat "$TEST_DIR/err"; [ $rc -eq 1 ]'
		continue
	fi
	n=$((n + 1))
	J=$TEST_DIR/$name.json
	expect "$name: critical --format json" '"$BOOTPROF" critical --format json "'"$f"'" >"'"$J"'"'
	expect "$name: the segments tile the recording's first event to the end point" \
		't3_critical_tiles "'"$J"'" &&
		first=$("$BOOTPROF" report --format json "'"$f"'" | jq .totals.first_ns) &&
		jq -e --argjson f "$first" ".start_ns == \$f" "'"$J"'"'
	expect "$name: the what-if of all the files is the sum of their I/O on the path" \
		'jq -e "([.files[] | select(.path != null)] | length) == .what_if.files and
			([.files[] | select(.path != null) | .io_ns] | add // 0) == .what_if.ns" "'"$J"'" &&
		"$BOOTPROF" critical "'"$f"'" >"$TEST_DIR/w.txt" &&
		{ [ "$(jq .what_if.files "'"$J"'")" = 0 ] ||
		  grep -q "^what-if: all $(jq .what_if.files "'"$J"'") files in the page cache" "$TEST_DIR/w.txt"; }'
	expect "$name: the text total is the path's length" '
		"$BOOTPROF" critical "'"$f"'" >"$TEST_DIR/t.txt" &&
		for s in "== Critical path" "== Segments" "== Totals" "== Files on the path" \
			"== Waits on other tasks"; do grep -qx "$s" "$TEST_DIR/t.txt" || exit 1; done &&
		total=$(awk "\$1 == \"total\" { print \$2, \$3 }" "$TEST_DIR/t.txt") &&
		len=$(sed -n "s/^path: .*, \([0-9.]* m\{0,1\}s\), [0-9]* segments\$/\1/p" "$TEST_DIR/t.txt") &&
		echo "total $total, path $len" && [ -n "$total" ] && [ "$total" = "$len" ]'
done
expect "some fixture has task switches" "[ $n -gt 0 ]"

# --to: the last process of basic.dat to exit, and its first exec, end
# the path where the recording says they happened.
set -- $("$BOOTPROF" report --format json --all --top 0 "$REC" |
	jq -r '[.processes[] | select(.exit_ns > 0)] | sort_by(.exit_ns) | .[-1] | "\(.pid) \(.exit_ns)"')
pid=${1:-} exit_ns=${2:-}
if [ -n "$exit_ns" ] && [ "$exit_ns" != null ]; then
	expect "--to pid:$pid ends at its exit" '
		"$BOOTPROF" critical --format json --to pid:'"$pid"' "$REC" >"$TEST_DIR/p.json" &&
		jq -e ".end.what == \"exit\" and .end.pid == '"$pid"' and .end_ns == '"$exit_ns"'" \
			"$TEST_DIR/p.json" && t3_critical_tiles "$TEST_DIR/p.json"'
else
	skip "--to pid:N ends at its exit" "no process of basic.dat exited"
fi
prog=$("$BOOTPROF" dump --events sched:sched_process_exec "$REC" | sed -n 's/.* filename=\([^ ]*\) .*/\1/p' | head -n 1)
at=$("$BOOTPROF" dump --events sched:sched_process_exec "$REC" | awk '/ sched_process_exec: / { print $1; exit }')
expect "--to exec:$(basename "$prog") ends at its first exec ($at)" '
	"$BOOTPROF" critical --format json --to "exec:$(basename "'"$prog"'")" "$REC" >"$TEST_DIR/e.json" &&
	end=$(jq .end_ns "$TEST_DIR/e.json") && t3_critical_tiles "$TEST_DIR/e.json" &&
	[ "$(t3_us "$end")" = "'"$at"'" ] && jq -e ".end.what == \"exec\"" "$TEST_DIR/e.json"'
expect "--to exec: takes a phase's fnmatch pattern" '
	"$BOOTPROF" critical --format json --to "exec:*$(basename "'"$prog"'" | cut -c2-)" "$REC" |
		jq -e ".end_ns == $(jq .end_ns "$TEST_DIR/e.json")"'

# --to file:PATH: the first event on the file, found here in the raw
# events naming its inode (readahead, filemap), by the process that made it.
BOOT=$FIX/boot.dat
ino=$("$BOOTPROF" dump --meta "$BOOT" | awk '$1 == "#" && $2 == "path:" && $5 == "/data/archive.zip" { print $4 }')
set -- $("$BOOTPROF" dump "$BOOT" |
	awk -v on="dev[= ]254:0 ino[= ]$(printf %x "$ino")( |\$)" '$0 ~ on { print $1, $3; exit }')
at=${1:-} pid=${2:-}
echo "# /data/archive.zip: inode $ino, first event at $at by $pid"
expect "--to file:/data/archive.zip ends at its first event ($at, pid $pid)" '
	[ -n "'"$at"'" ] &&
	"$BOOTPROF" critical --format json --to file:/data/archive.zip "$BOOT" >"$TEST_DIR/f.json" &&
	t3_critical_tiles "$TEST_DIR/f.json" &&
	[ "$(t3_us "$(jq .end_ns "$TEST_DIR/f.json")")" = "'"$at"'" ] &&
	jq -e ".end.what == \"file\" and .end.on == \"/data/archive.zip\" and .end.pid == '"$pid"'" \
		"$TEST_DIR/f.json" &&
	"$BOOTPROF" critical --to "file:/data/*.zip" "$BOOT" | grep -q "^end: first event on /data/archive.zip of "'
