#!/bin/sh
# bootprof top --batch on a fixture recording: golden screens (exact), the
# workload's files read in whole pages of their real sizes, the window
# splitting the two bursts, and the exit statuses of bad input.
. "$(dirname "$0")/../test-lib.sh"

FIX=$TOP/tests/fixtures
DAT=$FIX/top-small.dat
[ -f "$DAT" ] || skip_all "no fixture $DAT"

# 1. Golden screens (tests/fixtures/top-golden.cases; regenerate with top-golden.sh).
grep -v '^#' "$FIX/top-golden.cases" | while IFS='	' read -r name args; do
	[ -n "$name" ] || continue
	expect "golden $name" \
		"'$BOOTPROF' top --batch $args '$DAT' >'$TEST_DIR/$name.txt' &&
		 diff -u '$FIX/top-golden/$name.txt' '$TEST_DIR/$name.txt'"
done

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

# 3. A window over the second burst shows late/ and not early/, and its
# READ total is smaller than the whole recording's.
"$BOOTPROF" top --batch --since 6513.4 "$DAT" >"$TEST_DIR/late.txt"
expect "window after 6513.4 s lists late/data3.bin" "grep -q 'late/data3.bin' '$TEST_DIR/late.txt'"
expect "window after 6513.4 s does not list early/data3.bin" \
	"! grep -q 'early/data3.bin' '$TEST_DIR/late.txt'"
read_of() { sed -n 's/^read \([^ ]* [^ ]*\) .*/\1/p' "$1"; }
expect "window total read < whole recording's" \
	"[ \"$(read_of "$TEST_DIR/late.txt")\" != \"$(read_of "$TEST_DIR/wide.txt")\" ]"

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
expect "top -h: usage on stdout, exit 0" "'$BOOTPROF' top -h | grep -q '^usage: bootprof top'"
