#!/bin/sh
# bootprof export --format chrome: usage errors (other formats exit 2), and
# a Trace Event Format file checked against the format's documentation:
# a JSON object with a traceEvents array; every event has the fields its
# phase requires; timestamps are microseconds inside the window; the
# complete (X) events of each thread never overlap and come in time order;
# I/O waits carry cause, file and bytes; names and counters as documented;
# per-disk read counters integrate to the block layer's bytes.
# Equal to its golden file (tests/fixtures/make-chart-fixtures.sh).
. "$(dirname "$0")/../test-lib.sh"

FIX=$TOP/tests/fixtures
REC=$FIX/basic.dat
command -v jq >/dev/null || skip_all "jq not installed (scripts/deps.sh check)"

expect "--format json is refused with a clear error (2)" '
	"$BOOTPROF" export --format json "$REC" -o - 2>"$TEST_DIR/err"; rc=$?
	cat "$TEST_DIR/err"; [ $rc -eq 2 ] && grep -q "unknown format .json. (only .chrome." "$TEST_DIR/err"'
expect "no --format is a usage error (2)" '"$BOOTPROF" export "$REC" -o -; [ $? -eq 2 ]'
expect "no -o is a usage error (2)" '"$BOOTPROF" export -f chrome "$REC"; [ $? -eq 2 ]'
expect "a missing recording fails (1)" \
	'"$BOOTPROF" export -f chrome "$TEST_DIR/none.dat" -o "$TEST_DIR/x.json"; [ $? -eq 1 ] &&
	[ ! -e "$TEST_DIR/x.json" ]'

J=$TEST_DIR/basic.json
expect "export writes the trace" '"$BOOTPROF" export -f chrome "$REC" -o "$J" && [ -s "$J" ]'
expect "an existing output is kept without --force (1)" \
	'"$BOOTPROF" export -f chrome "$REC" -o "$J"; [ $? -eq 1 ]'
expect "equal to tests/fixtures/basic.export.json (deterministic)" '
	sed "s|$REC|basic.dat|" "$J" | diff -u "$FIX/basic.export.json" - | head -n 40
	sed "s|$REC|basic.dat|" "$J" | cmp -s - "$FIX/basic.export.json"'
expect "a JSON object with a traceEvents array and displayTimeUnit" '
	jq -e "type == \"object\" and (.traceEvents | type == \"array\" and length > 0) and
		(.displayTimeUnit == \"ms\")" "$J"'

# Every event: name (string), ph (known), pid and tid (integers); by phase,
# ts (number >= 0), dur (X, >= 0), s (i: g, p or t), args (M, C: an object
# of numbers for C), cat and id (s, f: the critical path's flows, an
# integer id shared by one s and one f).
expect "every event has the fields its phase requires" '
	jq -e "[.traceEvents[] |
		(.name | type == \"string\") and (.ph | IN(\"M\", \"X\", \"C\", \"i\", \"s\", \"f\")) and
		(.pid | type == \"number\" and floor == .) and (.tid | type == \"number\" and floor == .) and
		(if .ph == \"M\" then (.args.name | type == \"string\")
		 else (.ts | type == \"number\" and . >= 0) end) and
		(if .ph == \"X\" then (.dur | type == \"number\" and . >= 0) else true end) and
		(if .ph == \"i\" then (.s | IN(\"g\", \"p\", \"t\")) else true end) and
		(if .ph == \"C\" then (.args | type == \"object\" and length > 0 and
			all(.[]; type == \"number\")) else true end) and
		(if .ph == \"s\" or .ph == \"f\" then (.cat == \"critical\" and
			(.id | type == \"number\" and floor == . and . > 0)) else true end)
	] | all" "$J" &&
	jq -e "[.traceEvents[] | select(.ph == \"s\" or .ph == \"f\")] | group_by(.id) |
		all(length == 2 and .[0].ph == \"s\" and .[1].ph == \"f\")" "$J"'
span_us=$(jq '(.otherData.until_ns - .otherData.origin_ns) / 1000' "$J")
expect "timestamps are microseconds from the origin, inside the window" '
	jq -e "[.traceEvents[] | select(.ts != null) | .ts + (.dur // 0)] | max <= '"$span_us"' + 0.001" "$J"'
expect "X events of each thread are in time order and never overlap" '
	jq -e "[.traceEvents | map(select(.ph == \"X\")) | group_by([.pid, .tid])[] |
		[range(1; length) as \$i | .[\$i - 1].ts + .[\$i - 1].dur <= .[\$i].ts + 0.0005] | all]
		| all" "$J"'
expect "X events are running, I/O wait or other uninterruptible sleep" '
	jq -e "[.traceEvents[] | select(.ph == \"X\") | .name |
		IN(\"running\", \"I/O wait\", \"other uninterruptible sleep\")] | all" "$J"'
# The causes are the report's (its wait_by_cause keys).
causes=$("$BOOTPROF" report --format json "$REC" | jq -c '.totals.wait_by_cause | keys')
expect "I/O waits carry cause ($causes), file and bytes" '
	jq -e --argjson c "$causes" "[.traceEvents[] | select(.name == \"I/O wait\")] | length > 0 and
		(map(.args | (.cause as \$k | \$c | index(\$k)) and
			has(\"file\") and (.bytes | type == \"number\")) | all)" "$J"'
expect "every process and thread of the report is named" '
	"$BOOTPROF" report --format json "$REC" | jq -r ".processes[].pid" | sort -n >"$TEST_DIR/pids"
	jq -r ".traceEvents[] | select(.name == \"process_name\" and .pid > 0) | .pid" "$J" |
		sort -n >"$TEST_DIR/named"
	diff "$TEST_DIR/pids" "$TEST_DIR/named"'
expect "counters: disk read (MB/s) and tasks in I/O wait" '
	jq -e "([.traceEvents[] | select(.ph == \"C\" and .name == \"disk read\" and .args[\"MB/s\"] > 0)]
		| length > 0) and ([.traceEvents[] | select(.ph == \"C\" and .name == \"tasks in I/O wait\")]
		| length > 0)" "$J"'
# Per disk read from: "disk read NAME" (MB/s, i.e. bytes per µs: integrated
# over time, the disk's block-layer read bytes of the report) and
# "in flight NAME" (requests, at most the chart's "at most" of that disk).
"$BOOTPROF" report --format json "$REC" | jq -r '.disks[] | select(.rq_read_bytes > 0) |
	"\(.name) \(.rq_read_bytes)"' >"$TEST_DIR/disks"
expect "per-disk counters integrate to the block layer's read bytes ($(wc -l <"$TEST_DIR/disks") disks)" '
	[ -s "$TEST_DIR/disks" ] && while read -r name bytes; do
		got=$(jq --arg n "disk read $name" "[.traceEvents[] | select(.ph == \"C\" and .name == \$n)] |
			sort_by(.ts) | [range(1; length) as \$i | .[\$i - 1].args[\"MB/s\"] *
			(.[\$i].ts - .[\$i - 1].ts)] | add" "$J")
		echo "$name: $got of $bytes bytes"
		awk -v g="$got" -v b="$bytes" "BEGIN { d = g - b; exit !((d < 0 ? -d : d) <= b / 10000) }" ||
			exit 1
	done <"$TEST_DIR/disks"'
expect "in-flight counters per disk, with the chart's most in flight" '
	"$BOOTPROF" chart "$REC" -o "$TEST_DIR/c.svg" &&
	while read -r name bytes; do
		most=$(grep -A1 "<g class=\"disk1\"><title>$name: read" "$TEST_DIR/c.svg" |
			sed -n "s/.*at most \([0-9]*\),.*/\1/p")
		got=$(jq --arg n "in flight $name" "[.traceEvents[] | select(.ph == \"C\" and .name == \$n) |
			.args.requests] | max" "$J")
		echo "$name: most in flight $got, chart $most"
		[ -n "$most" ] && [ "$got" = "$most" ] || exit 1
	done <"$TEST_DIR/disks"'
expect "one first-read instant per file read from storage" '
	n=$("$BOOTPROF" report --format json "$REC" | jq "[.files[] | select(.bytes_read > 0)] | length")
	[ "$(jq "[.traceEvents[] | select(.ph == \"i\" and .name == \"first read\")] | length" "$J")" = "$n" ]'
# +T counts from the recording's first event, as report --since +S does.
expect "--since/--until +T: from the first event" '
	first=$("$BOOTPROF" report --format json --all "$REC" | jq .totals.first_ns)
	"$BOOTPROF" export -f chrome --since +0.01 --until +0.02 "$REC" -o - >"$TEST_DIR/plus.json" &&
	jq -e --argjson f "$first" ".otherData.since_ns == \$f + 10000000 and .otherData.until_ns == \$f + 20000000" "$TEST_DIR/plus.json"'
expect "--since +junk is a usage error" '
	"$BOOTPROF" export -f chrome --since +x "$REC" -o - >/dev/null 2>"$TEST_DIR/err"; [ $? = 2 ] && grep -q "invalid --since" "$TEST_DIR/err"'
