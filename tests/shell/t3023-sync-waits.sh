#!/bin/sh
# Sync waits (#10): a task reads a file through a mapping (page faults,
# its last file read), creates another with buffered writes, then waits in
# fsync() while a cgroup v1 blkio write throttle slows its writeback; a
# second task does the same and waits in sync(). Those waits are I/O wait
# of cause sync, charged to no file: not to the file read before, not to
# the file written. The fsync wait matches the scheduler's truth (wall -
# run - run-queue delay around the call, tests/helpers/t3-truth.c), and
# the files written report no bytes read.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
t3_helper t3-truth
# 32 MiB at 16 MB/s: the fsync waits about 2 s for its own writeback.
t3_blkio_cgroup blkio.throttle.write_bps_device 16000000
D=$TEST_DIR/files
mkdir -p "$D"
"$TEST_DIR/t3-truth" create "$D" 2 4 || skip_all "cannot create the files"
cat >"$TEST_DIR/run.sh" <<EOF
echo \$\$ >$CG/cgroup.procs
"$TEST_DIR/t3-truth" sync "$D/r0" "$D/w-fsync" 32 fsync
"$TEST_DIR/t3-truth" sync "$D/r1" "$D/w-sync" 8 sync
EOF

drop_caches
t3_record "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh" >"$TEST_DIR/truth" ||
	{ not_ok "recorded"; exit 0; }
expect "both tasks reported" "test \$(wc -l <'$TEST_DIR/truth') -eq 2"
secs() { awk -v t="$1" 'BEGIN { printf "%d.%09d", t / 1e9, t % 1e9 }'; }

# One column, by name, of pid's row of a processes table; of a file's row.
proc_col() { t3_field "$1" 1 "$2" "$(t3_col "$1" "$3")"; }
"$BOOTPROF_FAST" report --format csv --table files --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/f.csv"
file_col() { v=$(t3_field "$TEST_DIR/f.csv" 1 "$1" "$(t3_col "$TEST_DIR/f.csv" "$2")"); echo "${v:-0}"; }

n=0
while read -r pid t0 t1 truth bytes; do
	n=$((n + 1))
	if [ $n = 1 ]; then how=fsync r=$D/r0 w=$D/w-fsync; else how=sync r=$D/r1 w=$D/w-sync; fi
	# Inside the call only: its whole wait is sync, charged to no file.
	"$BOOTPROF_FAST" report --format csv --table processes --top 0 --pid "$pid" \
		--since "$(secs "$t0")" --until "$(secs "$t1")" "$TEST_DIR/r.dat" >"$TEST_DIR/in.csv"
	in_wait=$(proc_col "$TEST_DIR/in.csv" "$pid" wait_ns)
	in_sync=$(proc_col "$TEST_DIR/in.csv" "$pid" wait_sync_ns)
	in_none=$(proc_col "$TEST_DIR/in.csv" "$pid" wait_unknown_ns)
	# The whole recording: the file read is charged its own waits only.
	"$BOOTPROF_FAST" report --format csv --table processes --top 0 --pid "$pid" \
		"$TEST_DIR/r.dat" >"$TEST_DIR/all.csv"
	all_wait=$(proc_col "$TEST_DIR/all.csv" "$pid" wait_ns)
	fault=$(proc_col "$TEST_DIR/all.csv" "$pid" wait_fault_ns)
	sync_all=$(proc_col "$TEST_DIR/all.csv" "$pid" wait_sync_ns)
	r_wait=$(file_col "$r" wait_ns)
	r_bytes=$(file_col "$r" bytes_read)
	w_wait=$(file_col "$w" wait_ns)
	w_bytes=$(file_col "$w" bytes_read)
	echo "# $how: pid $pid wrote $bytes bytes; in the call: wait $in_wait ns, sync $in_sync ns," \
		"no file $in_none ns, truth $truth ns; whole run: wait $all_wait ns, sync $sync_all ns," \
		"fault $fault ns; $r: read $r_bytes bytes, waited $r_wait ns; $w: read $w_bytes bytes," \
		"waited $w_wait ns"
	if [ $how = fsync ]; then
		expect "fsync: waited at least 0.5 s for its writeback (the throttle)" \
			"test '$truth' -gt 500000000"
		expect "fsync: I/O wait inside the call within 2% of the schedstat truth" \
			"t3_within '${in_wait:-0}' '$truth' 2"
		# When it is not: each sleep in the call, and what woke it (the waking's
		# context and common_flags), to tell which wake chain the rule missed.
		t3_within "${in_wait:-0}" "$truth" 2 || {
			echo "# fsync: other D-sleep in the call $(proc_col "$TEST_DIR/in.csv" "$pid" other_wait_ns) ns; its sleeps:"
			"$BOOTPROF_FAST" dump "$TEST_DIR/r.dat" |
				awk -v p="$pid" -v lo="$(secs "$t0")" -v hi="$(secs "$t1")" '
				$1 + 0 < lo + 0 || $1 + 0 > hi + 0 { next }
				/ sched_switch: / && index($0, " prev_pid=" p " ") { out = $1; st = $0; sub(/.*prev_state=/, "", st); sub(/ .*/, "", st) }
				/ sched_waking: / && index($0, " pid=" p " ") && out { print "#   asleep " st " from " out " woken at " $1 " by " $3 " " $4 ": " $0; out = "" }' |
				head -n 20
		}
	else
		expect "sync: I/O wait inside the call" "test '${in_wait:-0}' -gt 0"
	fi
	expect "$how: every wait inside the call is of cause sync" \
		"test '${in_sync:-0}' = '${in_wait:-0}' && test '${in_wait:-0}' -gt 0"
	expect "$how: ... and charged to no file" "test '${in_none:-0}' = '${in_wait:-0}'"
	expect "$how: the file read before was read, from storage ($r_bytes bytes)" \
		"test '$r_bytes' -ge 4194304"
	expect "$how: the file read before is charged none of the wait inside the call" \
		"test '$r_wait' -gt 0 && test '$r_wait' -le \$(( ${all_wait:-0} - ${in_wait:-0} ))"
	expect "$how: the file written reports no bytes read and no wait" \
		"test '$w_bytes' = 0 && test '$w_wait' = 0"
done <"$TEST_DIR/truth"

"$BOOTPROF_FAST" report "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
sed -n '/^== Summary/,/^CPU idle/p' "$TEST_DIR/report.txt" | sed 's/^/# /'
expect "the summary shows sync waits by cause and charged to no file" \
	"sed -n '/^  by cause:/,/^  charged to:/p' '$TEST_DIR/report.txt' | grep -q ' sync ' &&
	 grep -q '^  charged to: .*no file (sync) ' '$TEST_DIR/report.txt'"
