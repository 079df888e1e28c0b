#!/bin/sh
# Bytes read under a cgroup throttle. blk-throttle holds a read bio and a
# kworker queues it later, so the reader never queues its own read
# request; its pages are read from storage all the same. Files of known
# sizes, read from a cold cache by a process in a cgroup v1 blkio group
# limited to 20 MB/s - cat (read), an mmap touching every page (faults),
# busybox cat (sendfile) and cp (copy_file_range) - are each reported
# read exactly their size rounded up to whole pages, by their reader; the
# copy cp creates reads nothing. Ground truth for the whole command: the
# bytes its cgroup read (blkio.throttle.io_service_bytes), which the
# command's processes' bytes read match within 2 % + 256 KiB either way
# (nothing held by the throttle lost, nothing written counted).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
t3_helper t3-mmap
t3_blkio_cgroup blkio.throttle.read_bps_device 20000000

PAGE=$(getconf PAGESIZE)
D=$TEST_DIR/files
mkdir -p "$D"
SIZES="1 4097 100000 1048577 16777216"
for size in $SIZES; do
	head -c $size /dev/urandom >"$D/f$size"
done
head -c 4194305 /dev/urandom >"$D/mapped"
head -c 4194305 /dev/urandom >"$D/sent"
head -c 8388609 /dev/urandom >"$D/src"
sync
busybox=$(command -v busybox)
cat >"$TEST_DIR/run.sh" <<EOF
echo \$\$ >$CG/cgroup.procs
cat "$D"/f* >/dev/null
"$TEST_DIR/t3-mmap" "$D/mapped" $PAGE >/dev/null
${busybox:-:} cat "$D/sent" >/dev/null
cp "$D/src" "$D/copy"
EOF
cgroup_read() { awk -v d="$dev" '$1 == d && $2 == "Read" { print $3 }' "$CG/blkio.throttle.io_service_bytes"; }

drop_caches
before=$(cgroup_read)
t3_record "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh" || { not_ok 'the command is recorded'; exit 0; }
truth=$(( $(cgroup_read) - ${before:-0} ))
t3_csv "$TEST_DIR/r.dat" files >"$TEST_DIR/files.csv"
t3_csv "$TEST_DIR/r.dat" readers >"$TEST_DIR/readers.csv"
t3_csv "$TEST_DIR/r.dat" processes >"$TEST_DIR/procs.csv"

# The premise: the throttle held reads, and a kworker queued them.
held=$("$BOOTPROF_FAST" dump "$TEST_DIR/r.dat" | awk -v d="$(echo "$dev" | tr : ,)" '
	$5 == "block_bio_queue:" && $4 ~ /^kworker/ && $6 == d && $7 ~ /R/ { n++ }
	END { print n + 0 }')
echo "# read bios of $dev queued by kworkers: $held"
expect 'the throttle held read bios that kworkers queued' "test '$held' -gt 0"

# check PATH BYTES READER
check() {
	got=$(t3_field "$TEST_DIR/files.csv" 1 "$1" 5)
	expect "$(basename "$1"): $2 bytes read from storage (got ${got:-none})" \
		"test '${got:-0}' = $2"
	[ -n "$3" ] || return 0
	who=$(t3_field "$TEST_DIR/readers.csv" 1 "$1" 3)
	expect "$(basename "$1"): read by $3 (got ${who:-none})" "test '$who' = '$3'"
}
pages() { echo $(( ($1 + PAGE - 1) / PAGE * PAGE )); }
for size in $SIZES; do
	check "$D/f$size" "$(pages $size)" cat
done
check "$D/mapped" "$(pages 4194305)" t3-mmap
if [ -n "$busybox" ]; then
	check "$D/sent" "$(pages 4194305)" busybox
else
	skip 'busybox cat (sendfile)' 'no busybox'
fi
check "$D/src" "$(pages 8388609)" cp
check "$D/copy" 0

col=$(t3_col "$TEST_DIR/procs.csv" bytes_read)
ours=$(awk -F, -v c="$col" 'NR > 1 { n += $c } END { print n + 0 }' "$TEST_DIR/procs.csv")
share=$(t3_csv "$TEST_DIR/r.dat" totals | t3_field /dev/stdin 1 attributed_permille 2)
echo "# the command read $ours bytes, its cgroup $truth; attributed share (whole system)" \
	"${share:-none} permille"
expect "the command's bytes read are its cgroup's within 2% + 256 KiB" \
	"test \$(( ours > truth ? ours - truth : truth - ours )) -le \$(( truth / 50 + 262144 ))"
wcol=$(t3_col "$TEST_DIR/procs.csv" wait_ns)
wait=$(t3_field "$TEST_DIR/procs.csv" 3 cat "$wcol")
expect "cat waited for the throttle (16 MiB at 20 MB/s: > 0.5 s, got ${wait:-none} ns)" \
	"test '${wait:-0}' -gt 500000000"
