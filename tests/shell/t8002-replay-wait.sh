#!/bin/sh
# replay --wait, live, under a read throttle (cgroup v1 blkio): a workload
# reads ~150 small files from a cold cache; its pack, replayed with --wait
# into a cold cache, leaves it less than a fifth of its first I/O wait.
# Without --wait the summary does not call bytes still in flight
# "preloaded": it says it started reads, and the bytes it says were
# resident at exit are no more than fincore (util-linux) finds right after.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v fincore >/dev/null || skip_all "fincore (util-linux) not installed"
command -v jq >/dev/null || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 2000000

D=$TEST_DIR/data
t3_small_files "$D" 150
# the workload's I/O wait in REC, ns
waited() { "$BOOTPROF" report --format json --no-plugins "$1" | jq .totals.wait_ns; }

drop_caches
t3_record "$TEST_DIR/cold.dat" sh "$TEST_DIR/work.sh" || { not_ok "record the cold workload"; exit 0; }
P=$TEST_DIR/work.pack
"$BOOTPROF" readahead -o "$P" "$TEST_DIR/cold.dat" >/dev/null || { not_ok "make the pack"; exit 0; }
expect 'the pack holds the workload'"'"'s 150 files' "[ \$(grep -c ' $D/f[0-9]*\$' '$P') = 150 ]"

# The pack of the 150 files alone (each taken whole), so fincore, which
# sees whole files, is the truth: bytes resident, a partial last page
# counted as the file's tail.
Q=$TEST_DIR/data.pack
grep -v "^file " "$P" >"$Q"
grep "^file .* $D/f[0-9]*\$" "$P" >>"$Q"
resident() {
	grep '^file ' "$Q" | cut -d' ' -f4,10- | while read -r size path; do
		echo "$size $(fincore --bytes --noheadings --output RES "$path")"
	done | awk '{ s += ($2 < $1 ? $2 : $1) } END { print s + 0 }'
}
asked=$(grep '^file ' "$Q" | awk '{ s += $4 } END { print s }')
expect 'the pack takes each of the 150 files whole' \
	"[ \$(grep '^file ' '$Q' | awk '\$9 == \"0+\" int((\$4 + 4095) / 4096)' | wc -l) = 150 ]"

# Without --wait, under the throttle: reads started, not all resident.
drop_caches
sh -c "echo \$\$ >$CG/cgroup.procs && exec '$BOOTPROF_FAST' replay '$Q'" >"$TEST_DIR/nowait.out"
res=$(resident)
sed 's/^/# /' "$TEST_DIR/nowait.out"
said=$(sed -n 's/.*; \([0-9]*\) bytes resident at exit.*/\1/p' "$TEST_DIR/nowait.out")
echo "# said resident at exit: $said; fincore right after: $res of the pack's $asked"
expect 'without --wait: "started reads", never "preloaded"' \
	"grep -q '^started reads of [0-9]* of [0-9]* files, $asked bytes in ' '$TEST_DIR/nowait.out' && ! grep -q 'preloaded' '$TEST_DIR/nowait.out'"
# (fincore's walk over 150 files can itself outlast the last reads: on a
# loaded host it once found all 2720489 bytes, the replay 2007447 at exit.)
expect 'without --wait: resident at exit is no more than fincore finds after, and less than asked for' \
	"[ -n '$said' ] && [ '$said' -le '$res' ] && [ '$said' -lt '$asked' ]"
# Let those reads end before the next cold start: drop_caches leaves pages under I/O.
"$BOOTPROF_FAST" replay --wait "$Q" >/dev/null

# With --wait: every packed page resident when it returns.
drop_caches
sh -c "echo \$\$ >$CG/cgroup.procs && exec '$BOOTPROF_FAST' replay --wait '$Q'" >"$TEST_DIR/wait.out"
res=$(resident)
sed 's/^/# /' "$TEST_DIR/wait.out"
secs=$(sed -n 's/.* bytes resident in \([0-9.]*\) s .*/\1/p' "$TEST_DIR/wait.out")
expect "replay --wait: preloaded, every byte of the pack resident ($res of $asked, fincore)" \
	"grep -q '^preloaded [0-9]* of [0-9]* files, $asked bytes resident in ' '$TEST_DIR/wait.out' && [ '$res' = '$asked' ]"
expect "replay --wait: it took at least as long as the throttle allows ($secs s for $asked bytes at 2 MB/s)" \
	"awk -v s='$secs' -v b='$asked' 'BEGIN { exit !(s * 2000000 >= b * 0.9) }'"
# The whole pack (the shell and cat too), then the workload.
drop_caches
sh -c "echo \$\$ >$CG/cgroup.procs && exec '$BOOTPROF_FAST' replay --wait '$P'" >"$TEST_DIR/wait-all.out"
sed 's/^/# /' "$TEST_DIR/wait-all.out"
t3_record "$TEST_DIR/warm.dat" sh "$TEST_DIR/work.sh" || { not_ok "record the replayed workload"; exit 0; }
cold=$(waited "$TEST_DIR/cold.dat")
warm=$(waited "$TEST_DIR/warm.dat")
echo "# workload I/O wait: $cold ns cold, $warm ns after replay --wait"
expect 'after replay --wait the workload waits less than a fifth as long' \
	"[ '${cold:-0}' -gt 0 ] && [ \$((${warm:-0} * 5)) -lt '${cold:-0}' ]"
