#!/bin/sh
# Late preloading, live, under a read throttle (cgroup v1 blkio): replay
# without --wait races the workload it preloads for, so the workload waits
# for pages the preloader is still reading. Those waits are the "late"
# ones of readahead --preloaded (and report's JSON and CSV; the pages
# they were for are the verdict "late"), and they
# equal the sum computed from the raw events of `dump` alone: each
# D-sleep of a task other than the preloader, from its switch-out to its
# next waking, on pages (the fault it was in, or what its read or exec got
# after it) whose last insertion before the sleep was the preloader's,
# with no "resident" marker of the preloader's for them in between.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
[ "$(uname -m)" = x86_64 ] || skip_all "the syscall numbers below are x86_64's"
t3_blkio_cgroup blkio.throttle.read_bps_device 2000000

D=$TEST_DIR/data
t3_small_files "$D" 150
drop_caches
t3_record "$TEST_DIR/cold.dat" sh "$TEST_DIR/work.sh" || { not_ok "record the cold workload"; exit 0; }
P=$TEST_DIR/work.pack
"$BOOTPROF" readahead -o "$P" "$TEST_DIR/cold.dat" >/dev/null || { not_ok "make the pack"; exit 0; }

drop_caches
# cat starts as soon as the reads are started, with nothing to read first.
t3_record "$TEST_DIR/race.dat" sh -c "echo \$\$ >$CG/cgroup.procs; '$BOOTPROF_FAST' replay '$P' >/dev/null; exec cat $D/f* >/dev/null" ||
	{ not_ok "record the replay racing the workload"; exit 0; }
"$BOOTPROF" readahead --preloaded "$TEST_DIR/race.dat" >"$TEST_DIR/preloaded.txt"
grep -E ' total$' "$TEST_DIR/preloaded.txt" | sed 's/^/# /'
set -- $(awk '$NF == "total" { print $8, $9 }' "$TEST_DIR/preloaded.txt")
late_n=$1 late_ns=$2

# The same from dump: D-sleeps of tasks other than the preloader, on
# pages the preloader inserted before the sleep began, unless its
# "resident" marker for their range came in between.
"$BOOTPROF" dump "$TEST_DIR/race.dat" | awk '
function ns(t,   f) { split(t, f, "."); return f[1] * 1000000000 + substr(f[2] "000000000", 1, 9) }
function val(k,   i) { for (i = 5; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
# 1 when a page of FILE [first, last] was last inserted by the preloader
# before ts, and no resident marker of its range came between
function late(file, first, last, ts,   p, k) {
	for (p = first; p <= last; p++) {
		k = file " " p
		if (pre[k] && ins[k] < ts && !(res[k] > ins[k] && res[k] < ts)) return 1
	}
	return 0
}
BEGIN {
	# x86_64: read, pread64, readv, sendfile, readahead, splice, preadv,
	# copy_file_range, preadv2; execve, execveat
	split("0 17 19 40 187 275 295 326 327 59 322", r, " ")
	for (i in r) reads[r[i]] = 1
}
{ pid = $3; comm = $4 }
/ sys_enter: / { sys[pid] = $7; fault[pid] = ""; next }
/ sys_exit: / { sys[pid] = ""; fault[pid] = ""; next }
/ mm_filemap_add_to_page_cache: / {
	for (i = 5; i < NF; i++) if ($i == "dev") break
	file = $(i + 1) " " $(i + 3); o = val("ofs") / 4096; n = 2 ^ val("order")
	for (k = 0; k < n; k++) { ins[file " " (o + k)] = ns($1); pre[file " " (o + k)] = (comm == "bootprof-replay") }
	next
}
/ print: .*bootprof-replay resident / {
	c = $NF; sub(/\\x0a$/, "", c); split(c, rg, "+")
	for (k = rg[1]; k < rg[1] + rg[2]; k++) res[$(NF - 2) " " sprintf("%x", $(NF - 1)) " " k] = ns($1)
	next
}
/ mm_filemap_fault: / { fault[pid] = val("dev") " " val("ino") " " val("ofs") / 4096; next }
/ sched_switch: / {
	p = val("prev_pid")
	if (val("prev_state") != "D" || comm == "bootprof-replay") next
	start[p] = ns($1); open[p] = 1
	kind[p] = fault[p] != "" ? "fault" : reads[sys[p]] ? "read" : ""
	next
}
/ sched_waking: / {
	p = val("pid")
	if (!open[p]) next
	open[p] = 0; dur[p] = ns($1) - start[p]
	if (kind[p] == "read") pend[p] = 1
	if (kind[p] == "fault") { split(fault[p], g, " "); if (late(g[1] " " g[2], g[3], g[3], start[p])) { sum += dur[p]; cnt++ } }
	next
}
/ mm_filemap_get_pages: / && pend[pid] {
	pend[pid] = 0
	split(val("ofs"), rg, "-")
	if (late(val("dev") " " val("ino"), rg[1] / 4096, int(rg[2] / 4096), start[pid])) { sum += dur[pid]; cnt++ }
}
END { printf "%d %.0f\n", cnt, sum }' >"$TEST_DIR/raw"
read -r raw_n raw_ns <"$TEST_DIR/raw"
echo "# late waits: bootprof $late_n, $late_ns ns; from dump $raw_n, $raw_ns ns"
expect 'the workload waited on pages still being preloaded: late waits counted' "[ '${late_n:-0}' -gt 0 ]"
# dump prints microseconds: each wait's two ends are cut by less than one.
# The dump counts every D-sleep on such pages; bootprof only those it
# takes for I/O wait, and (without schedstats, as here) ties a read's wait
# to the pages the read got after it. Runs under a loaded machine have
# shown one wait of the dump's that bootprof does not count (52 µs once,
# 100 ms once): not understood yet, so one, never more and never an extra
# one, is allowed and printed; every other run must match exactly.
diff=$((${late_ns:-0} - ${raw_ns:-0}))
missed=$((${raw_n:-0} - ${late_n:-0}))
[ "$missed" = 0 ] || echo "# not counted by bootprof: $missed D-sleep(s), $((-diff)) ns"
expect "late waits: the same count, and the same time within a microsecond a wait, as summed from dump (off by $diff ns)" \
	"{ [ '$missed' = 0 ] && [ \${diff#-} -lt \$((${raw_n:-0} * 1000 + 1)) ]; } ||
	 { [ '$missed' = 1 ] && [ '$diff' -lt 0 ]; }"

# The report says the same, from the same computation: JSON, CSV and text.
"$BOOTPROF" report --format json "$TEST_DIR/race.dat" >"$TEST_DIR/race.json"
expect 'report --format json: the same late waits in "preloaded"' \
	"jq -e '.preloaded.total | .late_waits == ${late_n:-0} and .late_wait_ns == ${late_ns:-0}' '$TEST_DIR/race.json' >/dev/null"
expect 'report --table preloaded: the files'"'"' late waits add up to the total' \
	"'$BOOTPROF' report --table preloaded --top 0 '$TEST_DIR/race.dat' |
	 awk -F, 'NR > 1 && \$2 == \"\" { n += \$18; t += \$19 } END { exit !(n == ${late_n:-0} && t == ${late_ns:-0}) }'"
expect 'report: the Preloaded section counts them' \
	"'$BOOTPROF' report '$TEST_DIR/race.dat' | grep -q '^late: ${late_n:-x} I/O waits of the workload'"
expect 'the late waits were for pages whose verdict is late' \
	"jq -e '.preloaded.total | .late_bytes > 0 and .late_pages * 4096 == .late_bytes' '$TEST_DIR/race.json' >/dev/null"
wait_ns=$("$BOOTPROF" report --format json "$TEST_DIR/race.dat" | jq .totals.wait_ns)
expect "the late waits are part of the workload's I/O wait ($wait_ns ns)" "[ '${late_ns:-0}' -le '${wait_ns:-0}' ]"
