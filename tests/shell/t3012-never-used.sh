#!/bin/sh
# Read but never used: a 64 MiB file mapped and touched at one page per MiB
# from a cold cache. Read-around brings in far more than the 64 pages
# touched; what no access event covered is never used, charged to that
# file and that process. What fault-around mapped (up to 16 pages around
# each fault) is apart: mapped, not known to be used. used + never used +
# mapped = read. A touched page the kernel had read ahead faults without a
# fault event (fault-around maps it), so each touched page is used or
# mapped, and used + mapped is at most the touched pages' windows.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
t3_helper t3-mmap

PAGE=$(getconf PAGESIZE)
F=$TEST_DIR/archive
head -c 67108864 /dev/urandom >"$F"
sync
drop_caches
t3_record "$TEST_DIR/r.dat" "$TEST_DIR/t3-mmap" "$F" 1048576 >"$TEST_DIR/touched"
touched=$(cut -d' ' -f1 "$TEST_DIR/touched")
expect 'the helper touched 64 pages' "test '$touched' = 64"
t3_pages "$TEST_DIR/r.dat" "$F"
expect 'pages were read from storage' "test '${read_b:-0}' -gt $((touched * PAGE))"
t3_pages_sum
expect 'used + mapped covers at least the touched pages' \
	"test \$((${used:-0} + ${mapped:-0})) -ge $((touched * PAGE))"
expect 'used + mapped is at most the fault-around windows' \
	"test \$((${used:-0} + ${mapped:-0})) -le $((touched * 16 * PAGE))"
expect 'never used = read - touched (within the fault-around windows)' \
	"test '${never:-0}' -ge \$(( ${read_b:-0} - $touched * 16 * $PAGE )) && test '${never:-0}' -le \$(( ${read_b:-0} - $touched * $PAGE ))"
t3_csv "$TEST_DIR/r.dat" readers >"$TEST_DIR/readers.csv"
expect 'the bytes are charged to t3-mmap' \
	"test \"\$(t3_field '$TEST_DIR/readers.csv' 1 '$F' 3),\$(t3_field '$TEST_DIR/readers.csv' 1 '$F' 5)\" = 't3-mmap,$read_b'"
"$BOOTPROF" report --top 3 "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
expect 'the text report lists the file under never used' \
	"sed -n '/^== Read from storage but never used/,/^== /p' '$TEST_DIR/report.txt' | grep -q 't3-mmap\\['"
