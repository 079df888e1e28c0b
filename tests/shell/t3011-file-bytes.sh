#!/bin/sh
# Read from storage per file: files read whole from a cold cache are
# reported with their size rounded up to whole pages, by the reading
# process; the attributed share of block-layer reads is at least 95 %.
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

PAGE=$(getconf PAGESIZE)
D=$TEST_DIR/files
mkdir -p "$D"
for size in 1 4095 4097 12345 100000 1048577 8388608 33554433; do
	head -c $size /dev/urandom >"$D/f$size"
done
sync
drop_caches
t3_record "$TEST_DIR/r.dat" sh -c "cat '$D'/f* >/dev/null"
expect 'the recording exists' "test -s '$TEST_DIR/r.dat'"
t3_csv "$TEST_DIR/r.dat" files >"$TEST_DIR/files.csv"
t3_csv "$TEST_DIR/r.dat" readers >"$TEST_DIR/readers.csv"
for size in 1 4095 4097 12345 100000 1048577 8388608 33554433; do
	want=$(( (size + PAGE - 1) / PAGE * PAGE ))
	got=$(t3_field "$TEST_DIR/files.csv" 1 "$D/f$size" 5)
	expect "f$size: $want bytes read from storage (got ${got:-none})" "test '${got:-0}' = $want"
	who=$(t3_field "$TEST_DIR/readers.csv" 1 "$D/f$size" 3)
	expect "f$size: read by cat (got ${who:-none})" "test '$who' = cat"
done
share=$(t3_csv "$TEST_DIR/r.dat" totals | t3_field /dev/stdin 1 attributed_permille 2)
echo "# attributed share: ${share:-none} permille"
expect 'at least 95% of block-layer read bytes are attributed' "test '${share:--1}' -ge 950"
