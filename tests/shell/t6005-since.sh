#!/bin/sh
# --since and --until mean one thing in every command: a plain number is
# the recording clock (seconds since boot, as report lines print it), +T
# counts from the first event. The same window gives the same I/O wait and
# events in report, top --batch, chart and check, the same bounds in
# export and readahead; a window outside the recording is an error (exit
# 1) giving both ranges in seconds, one that reaches past it a one-line
# warning; times and sizes take their units (1min, 1h, 64k, 1M) wherever
# a command or a budget file reads one.
. "$(dirname "$0")/../test-lib.sh"

command -v python3 >/dev/null || skip_all "python3 not installed (scripts/deps.sh check)"

B=$BOOTPROF
F=$TOP/tests/fixtures/basic.dat
BOOT=$TOP/tests/fixtures/boot.dat
D=$TEST_DIR

# The recording: from its first to its last event, on its clock (ns).
"$B" report --format json --all "$F" >"$D/all.json"
set -- $(python3 -c 'import json,sys; w = json.load(sys.stdin)["window"]; print(w["since_ns"], w["until_ns"])' <"$D/all.json")
first=$1 last=$2
# secs NS: seconds with 9 decimals; us6 NS: with 6, as a short chart prints
# them; ms3 NS: with 3, as messages print them.
secs() { printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000)); }
us6() { printf '%d.%06d' $(($1 / 1000000000)) $(($1 % 1000000000 / 1000)); }
ms3() { printf '%d.%03d' $(($1 / 1000000000)) $(($1 % 1000000000 / 1000000)); }
# The fixture tells the two meanings apart: it starts long after boot.
[ "$first" -gt 100000000000 ] || skip_all "basic.dat starts at $(ms3 $first) s, not long after boot"
A=$(secs $((first + 5000000)))
Z=$(secs $((first + 20000000)))
REC="($(ms3 $first)-$(ms3 $last) s)"

# 1. One window, 5 ms to 20 ms into the recording, on the recording clock:
# the same in the six commands, from each one's own output.
W="--since $A --until $Z"
"$B" report --format json --all $W "$F" >"$D/r.json" 2>"$D/r.err"
set -- $(python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["window"]["since_ns"], r["window"]["until_ns"], r["totals"]["events"], r["totals"]["wait_ns"])' <"$D/r.json")
rs=$1 ru=$2 events=$3 wait_ns=$4
"$B" report $W "$F" >"$D/r.txt"
wait=$(sed -n 's/^I\/O wait: *\([0-9.]* m\?s\).*/\1/p' "$D/r.txt")
printf 'io_wait total 1h\n' >"$D/wait.budget"
# same WINDOW-OPTIONS: each command's output, checked; "differs: CMD" for each that does not agree.
same() {
	ok=1
	if "$B" report --format json --all "$@" "$F" >"$D/r1.json" 2>/dev/null &&
		cmp -s "$D/r1.json" "$D/r.json"; then :; else echo "differs: report"; ok=; fi
	if "$B" top --batch "$@" "$F" >"$D/t.txt" 2>/dev/null &&
		grep -q "window $(ms3 $rs)-$(ms3 $ru) s" "$D/t.txt" &&
		grep -q "I/O wait $wait (" "$D/t.txt"; then :; else echo "differs: top"; ok=; fi
	if "$B" chart "$@" "$F" -o "$D/c.svg" --force 2>/dev/null &&
		grep -q "recording clock: $(us6 $rs) s .. $(us6 $ru) s   events: $events " "$D/c.svg" &&
		grep -q "I/O wait: $wait (" "$D/c.svg"; then :; else echo "differs: chart"; ok=; fi
	if "$B" export -f chrome "$@" "$F" -o "$D/e.json" --force 2>/dev/null &&
		grep -q "\"since_ns\":$rs,\"until_ns\":$ru," "$D/e.json"; then :; else echo "differs: export"; ok=; fi
	if "$B" readahead "$@" "$F" >"$D/p.pack" 2>/dev/null &&
		grep -qx "window $(secs $rs) $(secs $ru)" "$D/p.pack"; then :; else echo "differs: readahead"; ok=; fi
	if "$B" check --all "$@" --budget "$D/wait.budget" "$F" >"$D/k.txt" 2>/dev/null &&
		grep -q "^ok    io_wait total 1h: $wait " "$D/k.txt"; then :; else echo "differs: check"; ok=; fi
	test -n "$ok"
}
expect "--since $A --until $Z: the same window (events $events, I/O wait $wait) in report, top --batch, chart, export, readahead and check" \
	"test '$rs' = $((first + 5000000)) && test '$ru' = $((first + 20000000)) &&
	 test '$events' -gt 0 && test '$wait_ns' -gt 0 && test -n '$wait' && test ! -s '$D/r.err' &&
	 same $W"

# 2. +T: the same window counted from the first event.
expect "--since +5ms --until +0.02: the same in the six commands" "same --since +5ms --until +0.02"

# 3. A window outside the recording: exit 1, one line with both ranges in
# seconds, in every command; never an open end printed as 0.
out="window 0.200-0.300 s is outside the recording $REC"
for c in 'report' 'top --batch' 'chart -o -' 'export -f chrome -o -' 'readahead' \
	"check --budget $D/wait.budget"; do
	expect "$c --since 0.2 --until 0.3: exit 1, '$out'" \
		"'$B' $c --since 0.2 --until 0.3 '$F' >'$D/o' 2>'$D/e'; test \$? = 1 &&
		 test \$(wc -l <'$D/e') = 1 && grep -qF '$out' '$D/e' && test ! -s '$D/o'"
	expect "$c --since 2000: exit 1, the window from 2000 s, the recording's range" \
		"'$B' $c --since 2000 '$F' >'$D/o' 2>'$D/e'; test \$? = 1 &&
		 grep -qF 'window from 2000.000 s is outside the recording $REC' '$D/e' &&
		 ! grep -q -- '[-–]0 s' '$D/e'"
done
expect "--until before --since: a usage error (2) in the six commands" '
	for c in report "top --batch" "chart -o -" "export -f chrome -o -" readahead \
		"check --budget $D/wait.budget"; do
		"$B" $c --since 0.5 --until 0.4 "$F" >/dev/null 2>"$D/e"
		rc=$?
		[ $rc = 2 ] && grep -qx "bootprof: --until is not after --since" "$D/e" ||
			{ echo "$c: exit $rc: $(cat "$D/e")"; exit 1; }
	done'

# 4. A window that reaches past the recording: one warning line, and the
# numbers of the part it covers.
early="warning: window 0.200-$(ms3 $last) s starts before the recording's first event ($(ms3 $first) s)"
late="warning: window $(ms3 $((first + 5000000)))-900.000 s ends after the recording's last event ($(ms3 $last) s)"
for c in 'report' 'top --batch' 'chart -o -' 'export -f chrome -o -' 'readahead' \
	"check --budget $D/wait.budget"; do
	expect "$c --since 0.2: one warning, the recording starts later" \
		"'$B' $c --since 0.2 '$F' >/dev/null 2>'$D/e'; test \$? = 0 &&
		 test \$(grep -vc 'no used page' '$D/e') = 1 && grep -qF \"$early\" '$D/e'"
	expect "$c --since +5ms --until 900: one warning, the recording ends earlier" \
		"'$B' $c --since +5ms --until 900 '$F' >/dev/null 2>'$D/e'; test \$? = 0 &&
		 test \$(grep -vc 'no used page' '$D/e') = 1 && grep -qF \"$late\" '$D/e'"
done
expect "report --since 0.2: the span is the recording's, not 823 s long" \
	"'$B' report --since 0.2 '$F' 2>/dev/null | grep -q '^span: $(ms3 $first) s .. $(ms3 $last) s (26.2 ms)'"
expect "report --since 0.2: the numbers are the whole recording's" \
	"'$B' report --format json --all --since 0.2 '$F' 2>/dev/null | cmp - '$D/all.json'"

# 5. Units of time and size wherever one is read (main refused each of these).
expect "report --until 1h: a time with a unit" \
	"'$B' report --until 1h '$F' >/dev/null 2>&1"
expect "boot.dat: --since 1min --until 2min is 60 s to 120 s after boot" \
	"'$B' report --format json --since 1min --until 2min '$BOOT' |
	 python3 -c 'import json,sys; w = json.load(sys.stdin)[\"window\"]; sys.exit(not (w[\"since_ns\"] == 60 * 10**9 and w[\"until_ns\"] == 120 * 10**9))'"
expect "64k and 1M are sizes in chart --min-bytes and readahead --max-bytes" \
	"'$B' chart --min-bytes 64k --min-wait 1ms '$F' -o - >/dev/null &&
	 '$B' readahead --max-bytes 1M '$F' >'$D/m.pack' 2>/dev/null && grep -q '^bootprof-pack 1' '$D/m.pack' &&
	 '$B' readahead --max-bytes 64k '$F' 2>/dev/null >'$D/k1.pack' &&
	 '$B' readahead --max-bytes 65536 '$F' 2>/dev/null | cmp - '$D/k1.pack'"
expect "chart --min-bytes 1m: a time is not a size (2)" \
	"'$B' chart --min-bytes 1m '$F' -o - >/dev/null 2>'$D/e'; test \$? = 2 && grep -q \"invalid --min-bytes '1m'\" '$D/e'"
# The option after a time is the one refused: the time was read.
expect "record --duration 1min: read as a time" \
	"'$B' record --duration 1min --buffer-size 0 -- true 2>'$D/e'; test \$? = 2 &&
	 grep -q \"invalid --buffer-size '0'\" '$D/e'"
expect "collect --duration 1h: read as a time" \
	"'$B' collect --duration 1h --until-exec '' 2>'$D/e'; test \$? = 2 && grep -q 'empty --until-exec' '$D/e'"
expect "replay --deadline 1min: read as a time" \
	"'$B' replay --deadline 1min 2>'$D/e'; test \$? = 2 && grep -q 'no pack given' '$D/e'"
printf 'io_wait total 1h\nprocess * io_wait 1min\nbytes total 1G\nfile * bytes 64k\nnever_used bytes 1M\nprocess * 5\n' \
	>"$D/units.budget"
expect "budget: 1h, 1min, 64k and 1M are limits; a bare number is a size, never a time" \
	"'$B' check --all --budget '$D/units.budget' '$F' >'$D/u.txt'; test \$? = 1 &&
	 grep -q '^ok    io_wait total 1h: ' '$D/u.txt' && grep -q '^ok    process \\* io_wait 1min: ' '$D/u.txt' &&
	 grep -q '^FAIL  file \\* bytes 64k: .*over the limit of 64.0 KiB' '$D/u.txt' &&
	 grep -q 'never_used bytes 1M: ' '$D/u.txt' && grep -q 'process \\* 5: .*over the limit of 5 B' '$D/u.txt'"
