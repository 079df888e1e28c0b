#!/bin/sh
# bootprof record on a cold-cache read of files of known sizes: every
# default event type is recorded, the page-cache bytes inserted for each
# file equal its size rounded up to whole pages, the recording names every
# file in its inode -> path table, and no event is lost.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

PAGE=$(getconf PAGESIZE)
D=$TEST_DIR/files
mkdir -p "$D"
head -c 7 /dev/urandom >"$D/seven"
head -c 12345 /dev/urandom >"$D/odd-12345"
head -c $((3 * 4096 + 1)) /dev/urandom >"$D/three-pages-and-one"
head -c 1048576 /dev/urandom >"$D/one-mib"
head -c 67108864 /dev/urandom >"$D/sixty-four-mib"
# Sparse: a hole, then data at the end; holes are read as zero pages.
truncate -s $((2 * 1048576)) "$D/sparse"
printf 'end' | dd of="$D/sparse" bs=1 seek=$((2 * 1048576 + 100)) conv=notrunc 2>/dev/null
FILES="seven odd-12345 three-pages-and-one one-mib sixty-four-mib sparse"

# A cgroup to move the workload into, so cgroup_attach_task fires.
CG=
for root in /sys/fs/cgroup/unified /sys/fs/cgroup; do
	if [ -f $root/cgroup.procs ] && mkdir "$root/bootprof-t2000-$$" 2>/dev/null; then
		CG=$root/bootprof-t2000-$$
		CGROOT=$root
		break
	fi
done
cleanup_cg() {
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$TEST_DIR"
}
trap cleanup_cg EXIT

cat >"$TEST_DIR/workload.sh" <<EOF
cd "$D"
[ -n "$CG" ] && echo \$\$ >"$CG/cgroup.procs"
cat $FILES >/dev/null
# Write and delete a small file: the page cache drops its page.
echo gone >"$D/tmp" && rm -f "$D/tmp"
[ -n "$CG" ] && echo \$\$ >"$CGROOT/cgroup.procs"
exit 0
EOF

drop_caches
tracing_snapshot
out=$TEST_DIR/files.dat
sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" $BOOTPROF_FAST record -o "$out" -- \
	sh "$TEST_DIR/workload.sh" 2>"$TEST_DIR/record.err"
rc=$?
pid=$(cat "$TEST_DIR/pid")
expect 'record exits 0' "[ $rc = 0 ] || { cat '$TEST_DIR/record.err'; false; }"
expect_tracing_clean 'record' "$pid"

$BOOTPROF dump "$out" >"$TEST_DIR/events.txt" 2>"$TEST_DIR/dump.err"
expect 'bootprof dump reads it without complaint' \
	"! [ -s '$TEST_DIR/dump.err' ] || { cat '$TEST_DIR/dump.err'; false; }"
expect 'trace-cmd reads it without complaint' \
	"trace-cmd report '$out' >/dev/null 2>'$TEST_DIR/tc.err' && ! [ -s '$TEST_DIR/tc.err' ]"

events="sched_switch sched_waking sched_process_fork sched_process_exec sched_process_exit
block_rq_issue block_rq_complete block_bio_queue
mm_filemap_add_to_page_cache mm_filemap_delete_from_page_cache mm_filemap_fault
mm_filemap_get_pages mm_filemap_map_pages page_cache_sync_ra page_cache_async_ra
sys_enter sys_exit cgroup_attach_task"
for ev in $events; do
	if [ $ev = cgroup_attach_task ] && [ -z "$CG" ]; then
		skip "event $ev recorded" "cannot create a cgroup"
		continue
	fi
	expect "event $ev recorded" "grep -q '[ :]$ev[:( ]' '$TEST_DIR/events.txt'"
done

# The recorder's own work (its splices into the recording) is recorded like
# everything else (no filter on the current task, which would also drop
# interrupt-time events of others), and its tasks are listed in the
# metadata (task TID TGID 1) so analysis can leave them out.
grep -a '^task [0-9]* [0-9]* 1$' "$out" | awk '{ print $2 }' | sort -u >"$TEST_DIR/recorder.tids"
expect "the recorder's process is listed as the recorder" "grep -qx '$pid' '$TEST_DIR/recorder.tids'"
# Its per-CPU threads are the only tasks named bootprof that splice
# (syscall 275 on x86_64).
expect "every task that spliced for the recorder is listed as the recorder" \
	"grep -E ' bootprof sys_(enter|exit): +NR 275 ' '$TEST_DIR/events.txt' |
	 awk 'NR == FNR { r[\$1] = 1; next } !(\$3 in r) { print; bad = 1 } END { exit bad }' '$TEST_DIR/recorder.tids' -"
expect "the recorder's own events are a small share (< 3 %)" \
	"awk 'NR == FNR { r[\$1] = 1; next } { n++; if (\$3 in r) m++ } END { print m, n; exit !(n && m < 0.03 * n) }' '$TEST_DIR/recorder.tids' '$TEST_DIR/events.txt'"

# raw_syscalls carry only the I/O syscalls (x86_64 numbers of src/capture/events.c,
# the sync family included: sync, syncfs, fsync, fdatasync, sync_file_range, msync),
# and futex (202), for the critical path's requeues.
if [ "$(uname -m)" = x86_64 ]; then
	io_ids=' 0 17 19 295 327 187 40 326 275 9 221 2 257 437 3 4 6 5 262 332 21 269 439 217 59 322 162 306 74 75 277 26 202 '
	expect 'sys_enter/sys_exit only for I/O syscalls' \
		"awk '\$5 ~ /^sys_(enter|exit):/ { print \$7 }' '$TEST_DIR/events.txt' | sort -u >'$TEST_DIR/ids' &&
		 [ -s '$TEST_DIR/ids' ] && ! while read -r id; do case '$io_ids' in *\" \$id \"*) ;; *) echo \$id ;; esac; done <'$TEST_DIR/ids' | grep ."
else
	skip 'sys_enter/sys_exit only for I/O syscalls' 'syscall numbers checked on x86_64 only'
fi

# Distinct pages inserted per (dev, ino), from "dev M:m ino HEX ... ofs=N order=N".
awk -v page=$PAGE '
/mm_filemap_add_to_page_cache/ {
	dev = ""; ino = ""; ofs = -1; order = 0
	for (i = 1; i <= NF; i++) {
		f = $i
		if ((f == "dev" || f == "dev:") && i < NF) dev = $(i + 1)
		else if (f ~ /^dev=/) dev = substr(f, 5)
		else if ((f == "ino" || f == "ino:") && i < NF) ino = $(i + 1)
		else if (f ~ /^ino=/) ino = substr(f, 5)
		else if (f ~ /^ofs=/) ofs = substr(f, 5) + 0
		else if (f ~ /^order=/) order = substr(f, 7) + 0
	}
	if (dev == "" || ino == "" || ofs < 0) next
	sub(/^0x/, "", ino)
	key = dev " " ino
	n = 2 ^ order
	for (p = 0; p < n; p++) {
		pg = key " " (ofs / page + p)
		if (!(pg in seen)) { seen[pg] = 1; bytes[key] += page }
	}
}
END { for (k in bytes) print k, bytes[k] }' "$TEST_DIR/events.txt" >"$TEST_DIR/inserted"

for f in $FILES; do
	size=$(stat -c %s "$D/$f")
	want=$(( (size + PAGE - 1) / PAGE * PAGE ))
	key=$(stat -c '%Hd:%Ld' "$D/$f")" "$(printf '%x' "$(stat -c %i "$D/$f")")
	got=$(awk -v k="$key" '$1 " " $2 == k { print $3 }' "$TEST_DIR/inserted")
	expect "$f: $want bytes inserted into the page cache" \
		"[ '${got:-0}' = $want ] || { echo 'got ${got:-0} for $key'; false; }"
done

# The metadata: paths of every file, no lost events.
$BOOTPROF dump --meta "$out" >"$TEST_DIR/meta.txt" 2>&1
for f in $FILES; do
	expect "$f named in the inode table" "grep -q '^# path: .* $D/$f\$' '$TEST_DIR/meta.txt'"
done
expect 'no events lost' "grep -q '^# lost events: 0\$' '$TEST_DIR/meta.txt'"

# Names are found even when the files' dentries are gone by the end of the
# recording (the path search then walks the filesystem).
W=$TEST_DIR/walk
mkdir -p "$W/a/b"
echo one >"$W/one"
echo two >"$W/a/b/two"
drop_caches
$BOOTPROF_FAST record -o "$TEST_DIR/walk.dat" -- \
	sh -c "cat '$W/one' '$W/a/b/two' >/dev/null; echo 2 >/proc/sys/vm/drop_caches" \
	2>"$TEST_DIR/walk.err"
expect 'evicted dentries: record exits 0' "[ $? = 0 ] || { cat '$TEST_DIR/walk.err'; false; }"
$BOOTPROF dump --meta "$TEST_DIR/walk.dat" >"$TEST_DIR/walk.meta" 2>&1
for f in one a/b/two; do
	ino=$(stat -c %i "$W/$f")
	expect "evicted dentries: $f named" "grep -q '^# path: [0-9:]* $ino $W/$f\$' '$TEST_DIR/walk.meta'"
done

# A ring buffer too small for the event rate loses events, and says so.
$BOOTPROF_FAST record --buffer-size 8 -o "$TEST_DIR/small.dat" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=300000 2>"$TEST_DIR/small.err"
expect 'tiny buffer: record exits 0' "[ $? = 0 ] || { cat '$TEST_DIR/small.err'; false; }"
expect 'tiny buffer: lost events warned about' "grep -q 'warning: [0-9]* events lost' '$TEST_DIR/small.err'"
expect 'tiny buffer: lost events in the metadata' \
	"$BOOTPROF dump --meta '$TEST_DIR/small.dat' | grep -q '^# lost events: [1-9]'"

# What the recorder cost: its own CPU time beside the machine's, in the
# recording; never more than the whole record command (and its child) used
# by getrusage's account as time(1) reports it. The workload burns some CPU:
# /proc/stat counts the machine's busy time in 10 ms ticks.
/usr/bin/time -o "$TEST_DIR/time" -f '%U %S' $BOOTPROF_FAST record -o "$TEST_DIR/cost.dat" -- \
	sh -c "cat $D/one-mib $D/odd-12345 >/dev/null; dd if=/dev/zero of=/dev/null bs=64k count=100000 2>/dev/null" \
	2>"$TEST_DIR/cost.err"
total_ns=$(awk '{ printf "%d", ($1 + $2) * 1e9 + 1e7 }' "$TEST_DIR/time")
$BOOTPROF dump --meta "$TEST_DIR/cost.dat" >"$TEST_DIR/cost.meta" 2>&1
set -- $(sed -n 's/^# recorder cpu: \([0-9]*\) ns of \([0-9]*\) ns busy$/\1 \2/p' "$TEST_DIR/cost.meta")
echo "# recorder: ${1:-?} ns CPU of ${2:-?} ns busy; record and its command: $total_ns ns (+10 ms of rounding)"
expect 'recorder cost: its CPU time is in the recording, above 0 and within what time(1) saw' \
	"[ -n '$1' ] && [ '$1' -gt 0 ] && [ '$1' -le '$total_ns' ] && [ '$1' -le '$2' ]"
expect 'recorder cost: the report says it, and JSON has it' \
	"$BOOTPROF report '$TEST_DIR/cost.dat' | grep -q '^recorder: .* CPU, [0-9.]*% of the CPU time used while recording' &&
	 $BOOTPROF report --format json '$TEST_DIR/cost.dat' | jq -e '.recording.recorder_cpu_ns == $1 and .recording.system_cpu_ns == $2'"
