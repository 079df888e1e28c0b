#!/bin/sh
# top's path view (key p, --view path) against `bootprof critical --format
# json` on the same recording: every row of its three sections (the time by
# category, the I/O per file, the time per task, each in µs with its
# segments) equals what jq sums from the JSON, on the fixtures and on the
# cached systemd boot (whose end is the systemd plugin's mark in both). The
# filter keeps exactly the rows whose name holds it, the sort orders each
# section, and as the width shrinks the columns drop in their order while
# the time and the name stay.
. "$(dirname "$0")/../test-lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

FIX=$TOP/tests/fixtures
gzip -dc "$FIX/top-small.dat.gz" >"$TEST_DIR/small.dat" || skip_all "no fixture top-small.dat.gz"
recs="$FIX/zygote.dat $TEST_DIR/small.dat"
SD=${BOOT_CACHE:-$TOP/tests/boot/cache}/chart-example.dat
[ -s "$SD" ] && recs="$recs $SD"

# The view's rows as "SECTION|NAME|US|SEGMENTS", sorted: columns found by
# the header's words (DETAIL has spaces), MS "123.456" to µs.
view_rows() { # FILE [top options...]
	f=$1
	shift
	"$BOOTPROF" top --batch --view path --width 250 "$@" "$f" | awk '
	/^ +MS +SHARE +SEGMENTS +DETAIL +NAME$/ { name = index($0, "NAME"); seg = index($0, "SEGMENTS") + 8; next }
	/^By category: / { s = "category"; next }
	/^Files \(/ { s = "file"; next }
	/^Tasks \(/ { s = "task"; next }
	s && name {
		ms = substr($0, 1, 11); gsub(/ /, "", ms); split(ms, p, ".")
		n = substr($0, seg - 8, 8); gsub(/ /, "", n)
		printf "%s|%s|%d|%d\n", s, substr($0, name), p[1] * 1000 + p[2], n
	}' | sort
}
# The same from the JSON: by_state's titles as top shows them, files by
# path, tasks by tid with the comm of their last segment.
json_rows() { # JSON [FILTER]
	jq -r --arg q "${2:-}" '
	def us: . / 1000 | floor;
	{ cpu: "CPU", runq: "run-queue", io: "I/O", interrupt: "interrupt",
	  "other-dsleep": "other D-sleep", task: "waiting on task", unknown: "unknown" } as $title |
	. as $p |
	([.by_state | to_entries[] | . as $e |
	  "category|\($title[$e.key])|\($e.value | us)|\([$p.segments[] | select(.state == $e.key)] | length)"] +
	 [.files[] | "file|\(.path // "(no file known)")|\(.io_ns | us)|\(.segments)"] +
	 [.segments | group_by(.tid)[] | "task|\(.[-1].comm)[\(.[0].tid)]|\([.[].ns] | add | us)|\(length)"])[] |
	select(split("|")[1] | contains($q))' "$1" | sort
}

for f in $recs; do
	n=$(basename "$f")
	"$BOOTPROF" critical --format json "$f" >"$TEST_DIR/$n.json" 2>/dev/null ||
		{ not_ok "$n: bootprof critical"; continue; }
	view_rows "$f" >"$TEST_DIR/$n.view"
	json_rows "$TEST_DIR/$n.json" >"$TEST_DIR/$n.want"
	echo "# $n: $(wc -l <"$TEST_DIR/$n.want") rows; end $(jq -r '"\(.end.what) \(.end.on // "") (\(.end.by // .end.why))"' "$TEST_DIR/$n.json")"
	expect "$n: every row of the path view equals the critical path's JSON" \
		"[ -s '$TEST_DIR/$n.want' ] && diff '$TEST_DIR/$n.want' '$TEST_DIR/$n.view' >&2"
	"$BOOTPROF" top --batch --view path --width 250 "$f" >"$TEST_DIR/$n.txt"
	end_at=$(jq -r '.end_ns' "$TEST_DIR/$n.json" | awk '{ printf "%d.%03d", $1 / 1e9, ($1 % 1e9) / 1e6 }')
	expect "$n: its title names the same end ($end_at) and length" \
		"grep -q \"^to .* at $end_at (\$(jq -r '.end.by | if . then \"plugin \" + . else empty end' '$TEST_DIR/$n.json')\" '$TEST_DIR/$n.txt' &&
		 grep -q \" \$(jq '.segments | length' '$TEST_DIR/$n.json') segments\\\$\" '$TEST_DIR/$n.txt'"
done

Z=$FIX/zygote.dat
ZJ=$TEST_DIR/zygote.dat.json
for q in jar zyg run; do
	view_rows "$Z" --filter "$q" >"$TEST_DIR/q.view"
	json_rows "$ZJ" "$q" >"$TEST_DIR/q.want"
	expect "the filter '$q' keeps exactly the rows whose name holds it ($(wc -l <"$TEST_DIR/q.want"))" \
		"[ -s '$TEST_DIR/q.want' ] && diff '$TEST_DIR/q.want' '$TEST_DIR/q.view' >&2"
done
expect "the title says the filter and how many rows it kept" \
	"'$BOOTPROF' top --batch --view path --filter jar '$Z' |
	 grep -Eq '^Critical path of the whole recording: 1 rows, by MS +filter: jar\$'"

# Each section in the sort order (the section's rows, in the view's order).
order() { # SORT COLUMN-AWK
	"$BOOTPROF" top --batch --view path --width 250 --sort "$1" "$Z" |
		awk '/^Files \(/ { s = 1; next } /^Tasks \(/ { s = 0 } s { print }'
}
expect "--sort segments: the files most segments first" \
	"order segments | awk '{ print \$3 }' >'$TEST_DIR/o' && sort -rn '$TEST_DIR/o' | cmp -s - '$TEST_DIR/o' &&
	 [ \$(wc -l <'$TEST_DIR/o') -ge 2 ]"
expect "--sort name --reverse: the files' paths in reverse order" \
	"'$BOOTPROF' top --batch --view path --width 250 --sort name --reverse '$Z' |
	 awk '/^Files \\(/ { s = 1; next } /^Tasks \\(/ { s = 0 } s { print \$NF }' >'$TEST_DIR/o' &&
	 sort -r '$TEST_DIR/o' | cmp -s - '$TEST_DIR/o' && [ \$(wc -l <'$TEST_DIR/o') -ge 2 ]"
expect "a sort column of another view is a usage error" \
	"! '$BOOTPROF' top --batch --view path --sort wait '$Z' 2>'$TEST_DIR/err' &&
	 grep -q 'ms, share, segments, detail, name' '$TEST_DIR/err'"

# Columns by width: DETAIL drops first, then SEGMENTS, then SHARE.
for case in "100:MS SHARE SEGMENTS DETAIL NAME" "60:MS SHARE SEGMENTS NAME" "40:MS SHARE NAME"; do
	got=$("$BOOTPROF" top --batch --view path --width "${case%%:*}" "$Z" |
		grep -E '^ +MS ' | head -n 1 | tr -s ' ' | sed 's/^ //')
	expect "path columns at ${case%%:*}: ${case#*:} (got $got)" "[ '$got' = '${case#*:}' ]"
done
row_times() { # WIDTH: "MS NAME-END" of each row
	"$BOOTPROF" top --batch --view path --width "$1" "$Z" |
		awk '/^ +MS / { s = 1; next } s && /^ +[0-9]+\.[0-9][0-9][0-9] / { n = $NF; sub(/.*\//, "", n); print $1, n }'
}
expect "at 40 columns the rows keep their times and the ends of their names" \
	"row_times 40 >'$TEST_DIR/t40' && row_times 250 >'$TEST_DIR/t250' && [ -s '$TEST_DIR/t40' ] &&
	 cmp -s '$TEST_DIR/t40' '$TEST_DIR/t250'"
