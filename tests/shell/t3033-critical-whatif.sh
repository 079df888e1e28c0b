#!/bin/sh
# The what-if of the critical path against a measured win. `B | A` as in
# t3030 (B reads chain.bin, 3 MiB, cold, through a 2 MB/s blkio limit,
# spins 50 ms and writes one byte; A waits for it): recorded once, the
# path's I/O on chain.bin is the estimate of how much earlier the end
# comes with chain.bin in the page cache. Then the same command, timed
# (median of 3 runs each): cold, and after `bootprof replay` of a pack of
# that one file (the path's top file) made from the recording. The
# estimate must be within 30 % of the measured win.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 2000000
t3_helper t3-chain

D=$TEST_DIR/files
mkdir -p "$D"
head -c 3145728 /dev/urandom >"$D/chain.bin"
sync
cat >"$TEST_DIR/run.sh" <<EOF2
sh -c 'echo \$\$ >$CG/cgroup.procs; exec "$TEST_DIR/t3-chain" read "$D/chain.bin" 50' |
	"$TEST_DIR/t3-chain" wait 0
EOF2
# Cold: only chain.bin; the programs are read again now.
t3_before_record() {
	drop_caches
	echo x | "$TEST_DIR/t3-chain" wait 0
	sh -c 'sleep 0'
	"$BOOTPROF_FAST" -h >/dev/null 2>&1
}
t3_record_whole "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh"
"$BOOTPROF" critical --format json "$TEST_DIR/r.dat" >"$TEST_DIR/c.json" ||
	{ not_ok 'bootprof critical --format json'; exit 0; }
est=$(jq --arg f "$D/chain.bin" '[.files[] | select(.path == $f) | .io_ns] | add // 0' "$TEST_DIR/c.json")
top=$(jq -r '.files[0].path' "$TEST_DIR/c.json")
echo "# the path's top file: $top; the what-if of chain.bin: $est ns"
expect 'chain.bin is the top file of the path' "[ '$top' = '$D/chain.bin' ] && [ '$est' -gt 500000000 ]"

# A pack of that one file, from the recording.
"$BOOTPROF" readahead -o "$TEST_DIR/all.pack" "$TEST_DIR/r.dat" >/dev/null 2>&1
awk -v f="$D/chain.bin" '$1 != "file" || $NF == f' "$TEST_DIR/all.pack" >"$TEST_DIR/top.pack"
expect 'the pack holds chain.bin alone' "[ \"\$(grep -c '^file ' '$TEST_DIR/top.pack')\" = 1 ]"

# run_ns: the command's wall time, in ns.
run_ns() {
	t0=$(date +%s%N)
	sh "$TEST_DIR/run.sh"
	echo $(($(date +%s%N) - t0))
}
median() { sort -n | sed -n 2p; }
: >"$TEST_DIR/cold" && : >"$TEST_DIR/warm"
for i in 1 2 3; do
	t3_before_record
	run_ns >>"$TEST_DIR/cold"
	t3_before_record
	"$BOOTPROF_FAST" replay "$TEST_DIR/top.pack" >/dev/null 2>&1
	run_ns >>"$TEST_DIR/warm"
done
cold=$(median <"$TEST_DIR/cold") warm=$(median <"$TEST_DIR/warm")
win=$((cold - warm))
echo "# cold runs $(tr '\n' ' ' <"$TEST_DIR/cold")ns, after the replay $(tr '\n' ' ' <"$TEST_DIR/warm")ns"
echo "# medians: cold $cold ns, warm $warm ns: the win $win ns; the estimate $est ns ($(awk -v e="$est" -v w="$win" 'BEGIN { printf "%+.1f %%", w ? 100 * (e - w) / w : 0 }'))"
expect 'the replay made the command faster' "[ '$win' -gt 0 ]"
expect "the what-if is within 30 % of the measured win" "t3_within '$est' '$win' 30"
