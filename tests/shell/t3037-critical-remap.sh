#!/bin/sh
# The critical path on a stacked device. A loop device holds a partition
# at sector 2048; on it, a device-mapper linear device mapping the same
# sectors (dmsetup), else, where the kernel has no device-mapper, the
# partition itself: both are remapped by the kernel (block_bio_remap) to
# the loop device, which issues and completes the requests. An ext4 on
# the upper device holds big.bin (1.5 MiB) and two small files s1, s2
# written one after the other (adjacent on the disk, checked). The
# command, in a cgroup v1 blkio group reading at most 1 MB/s from the
# loop device, reads big.bin, then asks for pad.bin, s1 and s2 ahead
# (posix_fadvise WILLNEED: the throttle holds their bios and lets s1's
# and s2's pass together, so the block layer merges them into one
# request), then reads s1 and s2, cold. Checks, against filefrag's block map and the raw events of
# `bootprof dump`:
#  - an I/O segment on big.bin names the loop device's request and the
#    upper device and sector the file system asked for: inside big.bin's
#    extents, 2048 sectors before the request's (the table's offset);
#    its issuer is the reader, not the worker the throttle dispatched from;
#  - big.bin's bytes read are its size: the bios queued on both levels
#    are not counted twice;
#  - the request that read s1 and s2 says it spans both files, and the
#    raw events show one block_rq_issue covering the sectors of both.
# The dm device, partition node, loop device, mount and cgroup are
# removed on every way out.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
for c in jq losetup sfdisk mkfs.ext4 filefrag python3; do
	command -v $c >/dev/null 2>&1 || skip_all "$c not installed"
done
[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ] || skip_all "no cgroup v1 blkio throttle"

MNT=$TEST_DIR/mnt
DM=bp-$TEST_NAME-$$
CG=/sys/fs/cgroup/blkio/bootprof-$TEST_NAME-$$
LOOP='' PART='' made_node=''
cleanup() {
	mountpoint -q "$MNT" 2>/dev/null && umount "$MNT"
	dmsetup info "$DM" >/dev/null 2>&1 && dmsetup remove --noudevsync "$DM"
	[ -n "$made_node" ] && rm -f "$PART"
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	t3_cgroup_remove "$CG"
	[ -n "$KEEP_TEST_DIR" ] && echo "# kept $TEST_DIR" || rm -rf "$TEST_DIR"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

truncate -s 64M "$TEST_DIR/disk.img"
printf 'label: dos\nstart=2048, type=83\n' | sfdisk -q "$TEST_DIR/disk.img" ||
	skip_all "sfdisk cannot partition an image"
LOOP=$(losetup -P -f --show "$TEST_DIR/disk.img") || skip_all "no loop device"
lo=${LOOP#/dev/}
# Without udev nobody makes the partition's node.
partx -a "$LOOP" 2>/dev/null
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -e "/sys/block/$lo/${lo}p1/dev" ] && break
	sleep 0.2
done
[ -e "/sys/block/$lo/${lo}p1/dev" ] || skip_all "the loop device's partition did not appear"
PART=${LOOP}p1
pdev=$(cat "/sys/block/$lo/${lo}p1/dev")
if [ ! -b "$PART" ]; then
	mknod "$PART" b "${pdev%:*}" "${pdev#*:}" && made_node=1
fi
lodev=$(cat "/sys/block/$lo/dev")
OFFSET=2048
psize=$(cat "/sys/block/$lo/${lo}p1/size")
if command -v dmsetup >/dev/null 2>&1 &&
	dmsetup create --noudevsync "$DM" --table "0 $psize linear $LOOP $OFFSET" 2>"$TEST_DIR/dm.err"; then
	dmsetup mknodes "$DM" 2>/dev/null
	UPPER=/dev/mapper/$DM
	udev=$(dmsetup info -c --noheadings -o major,minor "$DM" | tr -d ' ')
	kind="device-mapper linear $udev"
	stacked=1
else
	why=$(head -n 1 "$TEST_DIR/dm.err" 2>/dev/null)
	echo "# device-mapper unavailable (${why:-no dmsetup}): the partition instead"
	UPPER=$PART
	udev=$pdev
	kind="partition $udev"
	stacked=
fi
echo "# upper device: $kind at sector $OFFSET of $LOOP ($lodev)"
mkfs.ext4 -q -b 4096 "$UPPER" || skip_all "mkfs.ext4 on $UPPER failed"
mkdir -p "$MNT"
mount "$UPPER" "$MNT" || skip_all "cannot mount $UPPER"
head -c 1572864 /dev/urandom >"$MNT/big.bin"
head -c 8192 /dev/urandom >"$MNT/s1"
head -c 8192 /dev/urandom >"$MNT/s2"
sync
head -c 524288 /dev/urandom >"$MNT/pad.bin"
sync

# Sectors of the upper device a file's extents cover: "FIRST END" a line.
extents() {
	filefrag -v -b4096 "$1" | awk -F'[: ]+' '
		/^ *[0-9]+: / { print $5 * 8, ($6 + 1) * 8 }'
}
extents "$MNT/big.bin" >"$TEST_DIR/big.ext"
extents "$MNT/s1" >"$TEST_DIR/s1.ext"
extents "$MNT/s2" >"$TEST_DIR/s2.ext"
sed 's/^/# big.bin sectors /' "$TEST_DIR/big.ext"
s1_end=$(tail -n 1 "$TEST_DIR/s1.ext" | cut -d' ' -f2)
s2_first=$(head -n 1 "$TEST_DIR/s2.ext" | cut -d' ' -f1)
echo "# s1 sectors $(cat "$TEST_DIR/s1.ext"), s2 sectors $(cat "$TEST_DIR/s2.ext")"
[ -s "$TEST_DIR/big.ext" ] || skip_all "filefrag gives no block map"

mkdir "$CG" || skip_all "cannot make a blkio cgroup"
echo "$lodev 1000000" >"$CG/blkio.throttle.read_bps_device" ||
	skip_all "cannot throttle $LOOP"
# The reader reads big.bin, then asks for pad.bin, s1 and s2 ahead
# (posix_fadvise WILLNEED): pad.bin's 512 KiB are over the throttle's
# budget, so it holds that bio, and s1's and s2's behind it; they pass
# together, in one plug of its worker: one request. Then it reads s1
# and s2.
cat >"$TEST_DIR/run.py" <<EOF
import os
with open("$CG/cgroup.procs", "w") as f:
    f.write(str(os.getpid()))
fds = [os.open("$MNT/" + n, os.O_RDONLY) for n in ("big.bin", "pad.bin", "s1", "s2")]
while os.read(fds[0], 1 << 16):
    pass
for fd in fds[1:]:
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
for fd in fds[2:]:
    while os.read(fd, 1 << 16):
        pass
EOF
t3_before_record() {
	drop_caches
	python3 -c 'import os'
}
t3_record_whole "$TEST_DIR/r.dat" python3 "$TEST_DIR/run.py"
t3_critical "$TEST_DIR/r.dat"
grep -B1 -A1 'for [0-9]*:[0-9]* sector\|spans' "$TEST_DIR/c.txt" | sed 's/^/# /' | head -n 12
reader=$(jq .end.pid "$TEST_DIR/c.json")

# The I/O segments on big.bin whose request carried its pages (a wait
# is charged to the file its task last read: one on s1's page, before
# the read names s1, is big.bin's).
jq -c --arg f "$MNT/big.bin" '.segments[] | select(.state == "io" and .file.path == $f and
	.request != null and any(.request.files[]; .path == $f)) | .request' \
	"$TEST_DIR/c.json" >"$TEST_DIR/big.rq"
echo "# $(wc -l <"$TEST_DIR/big.rq") I/O segments on big.bin with a request"
expect "an I/O segment on big.bin names the request of $LOOP ($lodev)" '
	[ -s "$TEST_DIR/big.rq" ] && jq -e --arg d "$lodev" "select(.dev != \$d)" \
		"$TEST_DIR/big.rq" | [ -z "$(cat)" ]'
expect "... and the $kind it was asked of, at a sector of big.bin's extents" '
	[ -s "$TEST_DIR/big.rq" ] && jq -r --arg u "$udev" "[.upper.dev == \$u, .upper.sector] | @tsv" "$TEST_DIR/big.rq" |
	while read -r same sector; do
		[ "$same" = true ] || exit 1
		awk -v s="$sector" "\$1 <= s && s < \$2 { found = 1 } END { exit !found }" \
			"$TEST_DIR/big.ext" || { echo "sector $sector not in big.bin"; exit 1; }
	done'
expect "... $OFFSET sectors before the request's (the table's offset)" '
	[ -s "$TEST_DIR/big.rq" ] && jq -e --argjson o "$OFFSET" "select(.sector - .upper.sector != \$o)" "$TEST_DIR/big.rq" |
	[ -z "$(cat)" ]'
expect "... issued for the reader ($reader), not the worker the throttle sent it from" '
	[ -s "$TEST_DIR/big.rq" ] && jq -e --argjson p "$reader" "select(.issuer.pid != \$p)" "$TEST_DIR/big.rq" | [ -z "$(cat)" ]'
expect "the text names both devices" "grep -q 'request $lodev sector [0-9]* ([^)]*) for $udev sector' '$TEST_DIR/c.txt'"

# Bytes: the model's per-file bytes are the file's pages, once.
t3_csv "$TEST_DIR/r.dat" files >"$TEST_DIR/files.csv"
bytes=$(t3_field "$TEST_DIR/files.csv" "$(t3_col "$TEST_DIR/files.csv" path)" "$MNT/big.bin" \
	"$(t3_col "$TEST_DIR/files.csv" bytes_read)")
echo "# big.bin: $bytes bytes read (size 1572864)"
expect "big.bin's bytes read are its size, not twice it" "[ '$bytes' = 1572864 ]"
if [ -n "$stacked" ]; then
	queued=$(awk -v u="$udev" -v l="$lodev" '$5 == "block_bio_queue:" {
		split($6, d, ","); dev = d[1] ":" d[2]
		if (dev == u) up += $9; if (dev == l) low += $9 }
		END { print up + 0, low + 0 }' "$TEST_DIR/dump.txt")
	echo "# sectors queued on the upper and lower device: $queued"
	expect "the raw events queue each bio on both devices (the case counted once)" \
		"set -- $queued; [ \$1 -gt 0 ] && [ \$1 = \$2 ]"
else
	skip "bios queued on both devices" "no device-mapper: a partition queues its bios once"
fi

# The request that carried s1 and s2.
expect 's1 ends where s2 begins on the disk' "[ '$s1_end' = '$s2_first' ]"
first=$(head -n 1 "$TEST_DIR/s1.ext" | cut -d' ' -f1)
last=$(tail -n 1 "$TEST_DIR/s2.ext" | cut -d' ' -f2)
merged=$(awk -v l="$lodev" -v a=$((first + OFFSET)) -v b=$((last + OFFSET)) '
	$5 == "block_rq_issue:" {
		split($6, d, ","); if (d[1] ":" d[2] != l) next
		for (i = 7; i < NF; i++) if ($(i + 1) == "+") { s = $i; n = $(i + 2); break }
		if (s <= a && b <= s + n) { print s; exit }
	}' "$TEST_DIR/dump.txt")
echo "# the raw request covering s1 and s2: ${merged:-none}"
expect 'the raw events: one request of the loop device covers s1 and s2' "[ -n '$merged' ]"
expect '... and the path says it spans both files' '
	jq -e --arg a "$MNT/s1" --arg b "$MNT/s2" --argjson s "${merged:-0}" "
		[.segments[] | select(.request != null and .request.sector == \$s and
			.request.spans_files and .request.nfiles == 2 and
			([.request.files[].path] == [\$a, \$b]))] | length > 0" "$TEST_DIR/c.json"'
# The text wraps long lines at spaces and commas.
expect '... in text too' "tr -s ' \\n' '  ' <'$TEST_DIR/c.txt' | grep -q 'spans 2 files: $MNT/s1, $MNT/s2'"
expect 'the segments tile the recording'"'"'s start to the end' 't3_critical_tiles "$TEST_DIR/c.json"'
"$BOOTPROF" critical -f markdown "$TEST_DIR/r.dat" >"$TEST_DIR/c.md" || not_ok 'critical -f markdown'
expect 'markdown has the request line too' "grep -q 'spans 2 files' '$TEST_DIR/c.md'"
