#!/bin/sh
# Re-read pages: a file read, dropped from the cache (POSIX_FADV_DONTNEED
# through dd iflag=nocache) and read again has all its pages re-read.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

PAGE=$(getconf PAGESIZE)
F=$TEST_DIR/twice
head -c 5000000 /dev/urandom >"$F"
sync
drop_caches
t3_record "$TEST_DIR/r.dat" sh -c "cat '$F' >/dev/null; dd if='$F' iflag=nocache count=0 2>/dev/null; cat '$F' >/dev/null"
pages=$(( (5000000 + PAGE - 1) / PAGE * PAGE ))
t3_csv "$TEST_DIR/r.dat" files >"$TEST_DIR/files.csv"
read_b=$(t3_field "$TEST_DIR/files.csv" 1 "$F" 5)
reread=$(t3_field "$TEST_DIR/files.csv" 1 "$F" 9)
echo "# read $read_b, re-read $reread, file pages $pages"
expect 're-read bytes = the file pages' "test '${reread:-0}' = $pages"
expect 'read from storage = twice the file pages' "test '${read_b:-0}' = $((2 * pages))"
"$BOOTPROF" report "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
expect 'the text report lists it under re-read pages' \
	"sed -n '/^== Re-read pages/,/^== /p' '$TEST_DIR/report.txt' | grep -q '$F'"
