#!/bin/sh
# A file created during the recording never reports bytes read it did not
# read (#11). examples/zygote's first run creates its 64 MiB archive with
# buffered writes and fsync(), drops it from the cache, maps it and faults
# in the same classes as its second run, which finds the archive there.
# Both runs read the same pages of the archive: the first reports no more
# than the second, none of it re-read, the archive's creation counted as
# written. Ground truth for what zygote really read: the read bytes of a
# blkio cgroup holding only it (blkio.throttle.io_service_bytes, no limit
# set), which bootprof's bytes read for zygote must not exceed.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
Z=$BUILD/examples/zygote/zygote
[ -x "$Z" ] || skip_all "examples not built"
t3_blkio_cgroup
cat >"$TEST_DIR/run.sh" <<EOF
echo \$\$ >$CG/cgroup.procs
exec "$Z" --size 64 --classes 8000 --archive "$TEST_DIR/framework.jar"
EOF
cgroup_read() { awk -v d="$dev" '$1 == d && $2 == "Read" { print $3 }' "$CG/blkio.throttle.io_service_bytes"; }

# run NAME: record one run; "TRUTH_READ" bytes the cgroup read meanwhile
run() {
	drop_caches
	before=$(cgroup_read)
	t3_record "$TEST_DIR/$1.dat" sh "$TEST_DIR/run.sh" >/dev/null || return 1
	echo $(( $(cgroup_read) - ${before:-0} )) >"$TEST_DIR/$1.truth"
	t3_csv "$TEST_DIR/$1.dat" processes >"$TEST_DIR/$1.procs.csv"
	t3_csv "$TEST_DIR/$1.dat" files >"$TEST_DIR/$1.files.csv"
	t3_csv "$TEST_DIR/$1.dat" totals >"$TEST_DIR/$1.totals.csv"
}
run first || { not_ok "first run recorded"; exit 0; }
run second || { not_ok "second run recorded"; exit 0; }

# col RUN TABLE KEYCOL KEY NAME: the column NAME of the row whose column KEYCOL is KEY
col() {
	v=$(t3_field "$TEST_DIR/$1.$2.csv" "$3" "$4" "$(t3_col "$TEST_DIR/$1.$2.csv" "$5")")
	echo "${v:-0}"
}
A=$TEST_DIR/framework.jar
for r in first second; do
	eval "${r}_truth=\$(cat '$TEST_DIR/$r.truth')"
	eval "${r}_zread=\$(col $r procs 3 zygote bytes_read)"
	eval "${r}_zfault=\$(col $r procs 3 zygote wait_fault_ns)"
	eval "${r}_read=\$(col $r files 1 '$A' bytes_read)"
	eval "${r}_never=\$(col $r files 1 '$A' never_used_bytes)"
	eval "${r}_reread=\$(col $r files 1 '$A' reread_bytes)"
	eval "${r}_wait=\$(col $r files 1 '$A' wait_ns)"
	eval "${r}_first=\$(col $r files 1 '$A' first_ns)"
	eval "${r}_last=\$(col $r files 1 '$A' last_ns)"
	eval "${r}_written=\$(t3_field '$TEST_DIR/$r.totals.csv' 1 write_insert_bytes 2)"
	eval "echo \"# $r run: zygote read \$${r}_zread bytes (its cgroup read \$${r}_truth);" \
		"archive: read \$${r}_read, never used \$${r}_never, re-read \$${r}_reread," \
		"waited \$${r}_wait ns (zygote's faults \$${r}_zfault ns); written \$${r}_written\""
done

expect "both runs read the archive from storage" "test '$first_read' -gt 0 && test '$second_read' -gt 0"
# The slack: the shell reads a little before it joins the cgroup.
expect "first run: zygote's bytes read are no more than its cgroup read (2% + 256 KiB)" \
	"test '$first_zread' -le \$(( first_truth + first_truth / 50 + 262144 ))"
expect "second run: the same" \
	"test '$second_zread' -le \$(( second_truth + second_truth / 50 + 262144 ))"
expect "first run: the archive read no more than in the second run (+ 64 KiB)" \
	"test '$first_read' -le \$(( second_read + 65536 ))"
expect "first run: no more of it never used than in the second run (+ 64 KiB)" \
	"test '$first_never' -le \$(( second_never + 65536 ))"
expect "first run: none of the archive re-read (its written pages were dropped, not read)" \
	"test '$first_reread' = 0"
expect "first run: its 64 MiB counted as written" "test '${first_written:-0}' -ge 67108864"
expect "first run: the archive's first time is not after its last" "test '$first_first' -le '$first_last'"
expect "first run: the archive is charged no more than zygote's fault waits (not its fsync)" \
	"test '$first_wait' -le '$first_zfault'"
