#!/bin/sh
# The polling plugin on a real recording: a loop execs a private copy of
# true every 10 ms for 2 s (the blkid-every-10-ms story). The plugin
# reports exactly as many execs as the loop counted, at the rate the loop
# measured with its own clock, with a cost (CPU time, and the bytes the
# first exec read from a cold cache), in the JSON and the text report;
# with --no-plugins none of it is there.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
if "$BOOTPROF" report --list-plugins 2>&1 | grep -q 'not built yet'; then
	skip_all "bootprof report is not built yet"
fi

# A private copy: nobody else execs this path while we record.
prog=$TEST_DIR/poll-true-$$
cp /bin/true "$prog"
cat >"$TEST_DIR/loop.sh" <<EOF
n=0
start=\$(date +%s%N)
end=\$((start + 2000000000))
while :; do
	now=\$(date +%s%N)
	[ \$now -lt \$end ] || break
	"$prog"
	n=\$((n + 1))
	last=\$now
	sleep 0.01
done
echo "\$n \$start \$last" >"$TEST_DIR/truth"
EOF
drop_caches
"$BOOTPROF_FAST" record -o "$TEST_DIR/p.dat" -- sh "$TEST_DIR/loop.sh" 2>"$TEST_DIR/rec.err" ||
	{ cat "$TEST_DIR/rec.err"; skip_all "recording failed"; }
read n start last <"$TEST_DIR/truth"
# The loop's own rate: n execs, n - 1 intervals between the first and last.
rate=$(awk -v n="$n" -v a="$start" -v b="$last" 'BEGIN { printf "%.3f", (n - 1) * 1e9 / (b - a) }')

"$BOOTPROF" report --format json "$TEST_DIR/p.dat" >"$TEST_DIR/p.json" 2>"$TEST_DIR/err"
row() { jq -r --arg p "$prog" ".plugins.polling.programs[] | select(.path == \$p) | .$1" "$TEST_DIR/p.json"; }
got=$(row count)
expect "exec count matches the loop's ($n, got ${got:-none})" "test '${got:-0}' = '$n' && test '$n' -ge 20"
gotrate=$(row per_second)
expect "rate matches the loop's clock ($rate/s, got ${gotrate:-none}/s)" \
	"awk -v a='${gotrate:-0}' -v b='$rate' 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * 0.1) }'"
expect 'the interval is the inverse of the rate' \
	"awk -v r='${gotrate:-0}' -v i=\"\$(row interval_ns)\" 'BEGIN { exit !(r > 0 && i * r > 0.999e9 && i * r < 1.001e9) }'"
expect 'their CPU time is counted' "test \"\$(row run_ns)\" -gt 0"
expect 'the first exec read the program from storage' "test \"\$(row bytes_read)\" -gt 0"
expect 'the model agrees: execs table says the same count' \
	"test \"\$(jq -r --arg p '$prog' '.execs[] | select(.path == \$p) | .count' '$TEST_DIR/p.json')\" = '$n'"

"$BOOTPROF" report "$TEST_DIR/p.dat" >"$TEST_DIR/p.txt" 2>/dev/null
expect 'the text report has the section with the program and its count' \
	"sed -n '/^== polling:/,/^== /p' '$TEST_DIR/p.txt' | grep -Eq '^ *$n .*poll-true-$$\$'"
expect 'a higher threshold (polling.min) leaves it out' \
	"'$BOOTPROF' report --format json --plugin-opt polling.min=$((n + 1)) '$TEST_DIR/p.dat' |
	 jq -e --arg p '$prog' '[.plugins.polling.programs[] | select(.path == \$p)] | length == 0' >/dev/null"
expect 'with --no-plugins the section is gone' \
	"! '$BOOTPROF' report --no-plugins '$TEST_DIR/p.dat' 2>/dev/null | grep -q '^== polling'"
# A window: the plugin counts what the model counts in it.
first=$(row first_ns) last=$(row last_ns)
mid=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (a + b) / 2 / 1e9 }')
"$BOOTPROF" report --format json --until "$mid" "$TEST_DIR/p.dat" >"$TEST_DIR/w.json" 2>/dev/null
wp=$(jq -r --arg p "$prog" '.plugins.polling.programs[] | select(.path == $p) | .count' "$TEST_DIR/w.json")
wm=$(jq -r --arg p "$prog" '.execs[] | select(.path == $p) | .count' "$TEST_DIR/w.json")
expect "--until halfway: the plugin's count is the model's (${wp:-none} vs ${wm:-none}), about half" \
	"test '${wp:-0}' = '${wm:-1}' && test \$((${wp:-0} * 3)) -gt $n && test \$((${wp:-0} * 3)) -lt \$((2 * $n))"
