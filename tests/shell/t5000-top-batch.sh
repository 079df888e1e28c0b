#!/bin/sh
# bootprof top --batch on a fixture recording: golden screens (exact), the
# workload's files read in whole pages of their real sizes, the window
# splitting the two bursts, and the exit statuses of bad input.
. "$(dirname "$0")/../test-lib.sh"

FIX=$TOP/tests/fixtures
[ -f "$FIX/top-small.dat.gz" ] || skip_all "no fixture top-small.dat.gz"
DAT=$TEST_DIR/top-small.dat
gzip -dc "$FIX/top-small.dat.gz" >"$DAT"

# 1. Golden screens (tests/fixtures/top-golden.cases; regenerate with top-golden.sh).
. "$FIX/top-cases.sh"
SPLIT=$(top_split "$DAT")
expect "the recording holds the pause between the bursts" "[ -n '$SPLIT' ]"
top_cases "$FIX/top-golden.cases" "$DAT" >"$TEST_DIR/cases"
while IFS='	' read -r name args; do
	[ -n "$name" ] || continue
	expect "golden $name" \
		"'$BOOTPROF' top --batch $args '$DAT' >'$TEST_DIR/$name.txt' &&
		 diff -u '$FIX/top-golden/$name.txt' '$TEST_DIR/$name.txt'"
done <"$TEST_DIR/cases"

# 2. Ground truth: the regeneration script wrote data$i.bin of i * 700000
# bytes; each was read once from a cold cache, so READ is its size in pages.
"$BOOTPROF" top --batch --width 200 "$DAT" >"$TEST_DIR/wide.txt"
human() { # bytes -> the screen's units
	awk -v b="$1" 'BEGIN {
		if (b < 1024) { printf "%d B", b; exit }
		split("KiB MiB GiB", u, " "); i = 0
		while (b >= 1024 && i < 3) { b /= 1024; i++ }
		printf (b < 100 ? "%.1f %s" : "%.0f %s"), b, u[i] }'
}
for set in early late; do
	for i in 1 2 3; do
		pages=$(( (i * 700000 + 4095) / 4096 ))
		want=$(human $((pages * 4096)))
		expect "$set/data$i.bin: READ is its size in pages ($want)" \
			"grep '/$set/data$i.bin\$' '$TEST_DIR/wide.txt' | grep -q ' $want '"
	done
done

# 3. A window after the pause shows late/ and not early/, one before it
# the opposite, and each reads less than the whole recording.
"$BOOTPROF" top --batch --width 200 --since "$SPLIT" "$DAT" >"$TEST_DIR/late.txt"
"$BOOTPROF" top --batch --width 200 --until "$SPLIT" "$DAT" >"$TEST_DIR/early.txt"
for i in 1 2 3; do
	expect "window after the pause lists late/data$i.bin, not early/" \
		"grep -q 'late/data$i.bin' '$TEST_DIR/late.txt' && ! grep -q 'early/data$i.bin' '$TEST_DIR/late.txt'"
	expect "window before the pause lists early/data$i.bin, not late/" \
		"grep -q 'early/data$i.bin' '$TEST_DIR/early.txt' && ! grep -q 'late/data$i.bin' '$TEST_DIR/early.txt'"
done
read_of() { sed -n 's/^read \([^ ]* [^ ]*\) .*/\1/p' "$1"; }
expect "window totals differ from the whole recording's" \
	"[ \"$(read_of "$TEST_DIR/late.txt")\" != \"$(read_of "$TEST_DIR/wide.txt")\" ] &&
	 [ \"$(read_of "$TEST_DIR/early.txt")\" != \"$(read_of "$TEST_DIR/wide.txt")\" ]"

# 3b. The same model as report: the header's totals are the report's
# summary, for the whole recording and for a window.
summary() { # FILE -> "read|wait|idle|never" from a report
	sed -n 's/^read from storage: *\([^(]*[^ (]\) *(.*/read \1/p
		s/^I\/O wait: *\(.*\)$/wait \1/p
		s/^CPU idle while waiting: *\(.*\)$/idle \1/p
		s/^never used: *\([^(]*[^ (]\) *(.*/never \1/p' "$1"
}
header() { # FILE -> the same from top --batch (its I/O wait says its source, the report's a line below)
	sed -n 's/^read \(.*\)  I\/O wait \(.*\) ([a-z]*)  CPU idle waiting \(.*\)  never used \(.*\)$/read \1\nwait \2\nidle \3\nnever \4/p' "$1"
}
for w in "" "--since $SPLIT" "--until $SPLIT"; do
	"$BOOTPROF" report $w "$DAT" >"$TEST_DIR/report.txt"
	"$BOOTPROF" top --batch $w "$DAT" >"$TEST_DIR/top.txt"
	expect "totals as report's${w:+ ($w)}" \
		"summary '$TEST_DIR/report.txt' >'$TEST_DIR/r' && header '$TEST_DIR/top.txt' >'$TEST_DIR/t' &&
		 [ \$(wc -l <'$TEST_DIR/r') = 4 ] && diff '$TEST_DIR/r' '$TEST_DIR/t'"
done
src=$("$BOOTPROF" report --format json "$DAT" | jq -r .totals.iowait_source)
expect "the header says where I/O wait comes from, as report's JSON does ($src)" \
	"[ -n '$src' ] && grep -q 'I/O wait .* ($src)  CPU' '$TEST_DIR/top.txt'"

# 4. Same rows as the screen: the files view of --batch at 80 columns fits 80 columns.
expect "--width 80: no line longer than 80" \
	"'$BOOTPROF' top --batch -w 80 '$DAT' | awk 'length > 80 { exit 1 }'"

# 5. Exit statuses: usage 2, unreadable recording 1 with one line.
for args in "--sort nosuch" "--view nosuch" "--since 5 --until 4" "--width 10" \
	"-n 0" "--bogus" "a.dat b.dat" "--live x.dat" "--cumulative" "-d 1"; do
	expect "top $args: exit 2" \
		"'$BOOTPROF' top --batch $args '$DAT' 2>/dev/null; [ \$? = 2 ]"
done
expect "missing recording: exit 1, one line" \
	"'$BOOTPROF' top --batch '$TEST_DIR/nosuch.dat' 2>'$TEST_DIR/err'; [ \$? = 1 ] &&
	 [ \$(wc -l <'$TEST_DIR/err') = 1 ] && grep -q \"cannot open '.*nosuch.dat'\" '$TEST_DIR/err'"
head -c 5000 /dev/urandom >"$TEST_DIR/corrupt.dat"
expect "corrupt recording: exit 1, one line" \
	"'$BOOTPROF' top --batch '$TEST_DIR/corrupt.dat' 2>'$TEST_DIR/err'; [ \$? = 1 ] &&
	 [ \$(wc -l <'$TEST_DIR/err') = 1 ]"
expect "no terminal, no --batch: exit 1, one line" \
	"'$BOOTPROF' top '$DAT' </dev/null >'$TEST_DIR/out' 2>'$TEST_DIR/err'; [ \$? = 1 ] &&
	 [ \$(wc -l <'$TEST_DIR/err') = 1 ] && [ ! -s '$TEST_DIR/out' ]"
expect "a window outside the recording: exit 1, one line saying where the recording is" \
	"'$BOOTPROF' top --batch --since 1 --until 2 '$DAT' >'$TEST_DIR/out' 2>'$TEST_DIR/err'; [ \$? = 1 ] &&
	 [ \$(wc -l <'$TEST_DIR/err') = 1 ] && grep -q 'outside the recording' '$TEST_DIR/err' && [ ! -s '$TEST_DIR/out' ]"
expect "top -h: usage on stdout, exit 0" "'$BOOTPROF' top -h | grep -q '^usage: bootprof top'"
