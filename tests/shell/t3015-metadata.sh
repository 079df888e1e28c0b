#!/bin/sh
# Metadata: a cold walk over a fresh tree of many directories reads
# directory blocks and inode tables through the block device; the report
# charges those reads and the walker's waits to the metadata of the disk.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

D=$TEST_DIR/tree
for a in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do
	for b in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do
		mkdir -p "$D/$a/$b/x" && : >"$D/$a/$b/x/file"
	done
done
sync
drop_caches
t3_record "$TEST_DIR/r.dat" find "$D" -name nothing
t3_csv "$TEST_DIR/r.dat" processes >"$TEST_DIR/procs.csv"
pid=$(awk -F, '$3 == "find" { print $1; exit }' "$TEST_DIR/procs.csv")
meta=$(t3_field "$TEST_DIR/procs.csv" 1 "$pid" "$(t3_col "$TEST_DIR/procs.csv" metadata_bytes)")
worst=$(t3_field "$TEST_DIR/procs.csv" 1 "$pid" "$(t3_col "$TEST_DIR/procs.csv" worst_file)")
t3_csv "$TEST_DIR/r.dat" disks >"$TEST_DIR/disks.csv"
echo "# find pid $pid: metadata bytes ${meta:-none}, worst file ${worst:-none}"
expect 'find read metadata' "test '${meta:-0}' -gt 0"
expect "find's worst file is the metadata of a disk" "case '$worst' in '[metadata '*) true;; *) false;; esac"
disk=$(echo "$worst" | sed 's/^\[metadata \(.*\)\]$/\1/')
expect "the disk $disk has metadata bytes" \
	"test \"\$(t3_field '$TEST_DIR/disks.csv' 1 '$disk' 5)\" -ge '${meta:-1}'"
"$BOOTPROF" report "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
expect 'the text report lists the disk under metadata reads' \
	"sed -n '/^== Metadata reads per disk/,/^== /p' '$TEST_DIR/report.txt' | grep -q '^$disk '"
