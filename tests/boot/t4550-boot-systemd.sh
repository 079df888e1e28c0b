#!/bin/sh
# A real systemd boot: Debian bookworm (debootstrap minbase, systemd as
# PID 1; image built once and cached by scripts/systemd-image.sh) on the
# 6.12 kernel under QEMU, recorded by bootprof as rdinit of an initramfs
# that switch_roots to /sbin/init. The image's bp-done.service runs
# systemd-analyze blame once the boot has finished and stops the recording.
# Checked: nothing lost, every read request completed, named initcalls, the
# planted services' reads against their files' sizes, threads rolled up into
# their process, never-used pages of a sparse mmap, services by unit name
# against systemd's own list and start order (and their times beside blame's),
# the recorder's CPU share. The boot runs with schedstats (the kernel's own
# I/O-wait events in the recording) and delay accounting. A second boot
# with bootprof.exact-mmap=1 and without schedstats checks the sparse mmap
# only: exact, its used pages the touched ones.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
command -v jq >/dev/null || skip_all "jq not installed"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
t0=$(date +%s)
SD=$("$TOP/scripts/systemd-image.sh" "$BOOT_CACHE" 2>"$TEST_DIR/.why")
case $? in
0) ;;
3) skip_all "no systemd image: $(cat "$TEST_DIR/.why")" ;;
*)
	not_ok "build the systemd image: $(cat "$TEST_DIR/.why")"
	exit 0
	;;
esac
echo "# systemd image ready in $(($(date +%s) - t0)) s: $SD"
boot_build_initramfs /sbin/init || { not_ok "build the initramfs"; exit 0; }
BOOT_DISK=$SD/root.img
BOOT_OUT=$TEST_DIR/out.img
words=$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null)
# The kernel's own I/O-wait count: schedstats on from boot, and its two
# events (sched_stat_iowait, sched_stat_blocked) in the boot instance.
# 'bootprof cmdline' does not print these yet; they are added here, each
# only where missing, and this can go once it does. delayacct: every
# process's blkio delay, the truth the I/O wait is held against.
with_schedstats() {
	echo "$1" | sed -E \
		-e '/sched:sched_stat_iowait/! s/(trace_instance=[^ ]*)/\1,sched:sched_stat_iowait/' \
		-e '/sched:sched_stat_blocked/! s/(trace_instance=[^ ]*)/\1,sched:sched_stat_blocked/' \
		-e '/(^| )schedstats=/! s/$/ schedstats=enable/'
}
# The same words without the kernel's count: I/O wait inferred.
without_schedstats() {
	echo "$1" | sed -E -e 's/,sched:sched_stat_(iowait|blocked)//g' -e 's/(^| )schedstats=[^ ]*//g'
}
BOOT_MEM=768
# sd_boot NAME WORDS: boot the image with bootprof as rdinit and WORDS;
# console in $TEST_DIR/NAME.console, qemu's status. The cached image is
# never written (snapshot=on); bp-done tars its results onto a fresh vdb.
sd_boot() {
	rm -f "$BOOT_OUT"
	truncate -s 64M "$BOOT_OUT"
	boot_qemu "$1" 600 "rdinit=/bin/bootprof bootprof.init=/init $2 bootprof.until-file=/run/bootprof-stop bootprof.duration=300" \
		-drive "file=$BOOT_DISK,format=raw,if=virtio,snapshot=on" \
		-drive "file=$BOOT_OUT,format=raw,if=virtio"
}
# archive_pages JSON: "READ USED NEVER MAPPED" pages of /data/archive.zip in the report
archive_pages() {
	jq -r '.files[] | select(.path == "/data/archive.zip") |
		[.bytes_read, .used_bytes, .never_used_bytes, .mapped_unknown_bytes] | map(. / 4096 | tostring) | join(" ")' "$1"
}
sd_boot boot "$(with_schedstats "$words") delayacct"
rc=$?
con=$TEST_DIR/boot.console
echo "# systemd booted and powered off in $BOOT_SECONDS s (status $rc); $(grep -m1 'BP-DONE: system' "$con")"
expect "the boot runs to bp-done's end" "[ $rc = 0 ] && grep -q 'BP-DONE: done' '$con'"
if ! boot_fetch_recording; then
	not_ok "the recording is saved to /var/log/bootprof"
	grep -E 'bootprof|BP-DONE|Failed' "$con" | sed 's/^/#   /' | tail -n 20
	exit 0
fi
ok "the recording is saved to /var/log/bootprof"
# Kept apart from the second boot's (KEEP_TEST_DIR=1 keeps both).
mv "$TEST_DIR/out/bp-test" "$TEST_DIR/boot-results"
mv "$TEST_DIR/latest.dat" "$TEST_DIR/boot.dat"
sd=$TEST_DIR/boot-results
sed 's/^/# systemd-analyze time: /' "$sd/time.txt"
rec=$TEST_DIR/boot.dat
dump=$TEST_DIR/dump.txt
json=$TEST_DIR/report.json
"$BOOTPROF" dump "$rec" >"$dump"
"$BOOTPROF" report --format json --top 0 "$rec" >"$json"
"$BOOTPROF" report --top 0 "$rec" >"$TEST_DIR/report.txt"

# ---- the recording is whole ----
echo "# $(grep -c . "$dump") events; $(grep '^# lost events' "$dump" | sed 's/^# //')"
expect "no events lost" "grep -q '^# lost events: 0\$' '$dump' && [ \"\$(jq .totals.lost_events '$json')\" = 0 ]"
# block_rq_issue DEV RWBS BYTES () SECTOR + NR ...; block_rq_complete DEV RWBS () SECTOR + NR ...
# Reads are matched by (dev, sector, sectors); a flush completes as a
# pre-flush, the write and a post-flush, so for all requests only counts.
awk '$5 == "block_rq_issue:" { n++; if ($7 ~ /R/) { open[$6 " " $10 " " $12]++; r++ } }
	$5 == "block_rq_complete:" { c++; if ($7 ~ /R/ && open[$6 " " $9 " " $11] > 0) open[$6 " " $9 " " $11]-- }
	END { for (k in open) left += open[k]; printf "%d %d %d %d\n", n, c, r, left }' "$dump" >"$TEST_DIR/rq"
read issued completed reads missing <"$TEST_DIR/rq"
echo "# block requests: $issued issued, $completed completions; $reads reads, $missing of them without completion"
expect "every read request issued has its completion; no fewer completions than issues" \
	"[ $reads -gt 0 ] && [ $missing = 0 ] && [ $completed -ge $issued ]"
boot_initcall_checks "" "$dump"

# ---- the planted services against their files ----
inode=$(boot_inode /data/planted.bin)
size=$(debugfs -R "stat /data/planted.bin" "$BOOT_DISK" 2>/dev/null | sed -n 's/.*Size: *\([0-9]*\).*/\1/p' | head -n 1)
dd=$(awk '$5 == "sched_process_exec:" && $6 == "filename=/bin/dd" { print $3; exit }' "$dump")
got=$(boot_bytes_added "$dump" "$(printf '%x' "$inode")" "$dd")
echo "# planted.bin: inode $inode, $size bytes; dd (pid $dd, bp-read.service) read $got"
expect "bp-read.service's dd (pid $dd) read planted.bin, $size bytes, alone" \
	"[ -n '$dd' ] && [ '$got' = '$size' ] && [ \"\$(boot_adders '$dump' '$(printf '%x' "$inode")')\" = '$dd' ]"
expect "the report: planted.bin read by dd, $size bytes, dd in bp-read.service" \
	"jq -e '.files[] | select(.path == \"/data/planted.bin\") | .bytes_read == $size and ([.readers[].pid] == [$dd])' '$json' &&
	 jq -e '.processes[] | select(.pid == $dd) | .service | test(\"/bp-read.service\$\")' '$json'"
inode=$(boot_inode /data/archive.zip)
set -- $(boot_never_used "$dump" "$(printf '%x' "$inode")")
nu=$(jq '.files[] | select(.path == "/data/archive.zip") | .never_used_bytes' "$json")
echo "# archive.zip (bp-mmap.service, 2 pages touched): $1 pages read, $2 never used by the events; report never used $nu bytes"
expect "the sparse mmap shows pages never used" "[ $2 -gt 0 ] && [ $2 -lt $1 ] && [ '${nu:-0}' -gt 0 ]"
default_pages=$(archive_pages "$json")

# ---- threads roll up into their process ----
set -- $(cat "$sd/threads" 2>/dev/null)
pid=$2 tids="$4 $8 ${12}"
echo "# bp-threads: pid $pid, threads $tids ($(jq -c ".processes[] | select(.pid == ${pid:-0}) | {comm, threads, bytes_read, service}" "$json"))"
expect "bp-threads (pid $pid) is one process with its 3 reader threads" \
	"[ -n '$pid' ] && jq -e '.processes[] | select(.pid == $pid) | .threads == 4 and .comm == \"bp-threads\"' '$json' &&
	 ! jq -e '.processes[] | select(.pid == (${tids%% *}, $(echo "$tids" | cut -d' ' -f2), ${tids##* }))' '$json'"
for i in 1 2 3; do
	expect "thread-$i.bin: $((i * 65536)) bytes charged to the process (pid $pid), not a thread" \
		"jq -e '.files[] | select(.path == \"/data/thread-$i.bin\") | .bytes_read == $((i * 65536)) and ([.readers[].pid] == [$pid])' '$json'"
done

# ---- services as systemd knows them ----
jq -r '.services[] | [.unit, .processes, .first_start_ns, (.last_exit_ns // "running"), .path] | @tsv' "$json" >"$TEST_DIR/services.tsv"
sed 's/^/# service: /' "$TEST_DIR/services.tsv"
expect "services are unit names, not cgroup paths" \
	"[ -s '$TEST_DIR/services.tsv' ] && ! cut -f1 '$TEST_DIR/services.tsv' | grep /"
expect "systemd-udevd.service, getty@tty1.service, init.scope by those names" \
	"for u in systemd-udevd.service getty@tty1.service init.scope; do cut -f1 '$TEST_DIR/services.tsv' | grep -qx \"\$u\" || exit 1; done"
expect "PID 1, the initramfs stage and the recorder are rows of their own" \
	"jq -e '[.services[] | select(.unit == \"[PID 1]\" and .processes == 1 and .path == null)] | length == 1' '$json' &&
	 jq -e '[.services[] | select(.unit == \"[initramfs]\" and .processes > 0)] | length == 1' '$json' &&
	 jq -e '[.services[] | select(.unit == \"[recorder]\" and .running)] | length == 1' '$json'"
expect "init.scope holds its processes but PID 1" \
	"[ \"\$(jq '[.processes[] | select(.service == \"/init.scope\" and .pid != 1)] | length' '$json')\" = \
	   \"\$(jq '.services[] | select(.unit == \"init.scope\") | .processes' '$json')\" ]"
row=$(jq -c '.services[] | select(.unit == "[initramfs]") | [.processes, .first_start_ns, .last_exit_ns]' "$json")
phase=$(jq -c '.phases[] | select(.name == "initramfs") | [.start_ns, .end_ns]' "$json")
echo "# [initramfs] row (processes, first start, last exit): $row; initramfs phase: $phase"
expect "the [initramfs] row's processes lived inside the initramfs phase" \
	"jq -e '[.phases[] | select(.name == \"initramfs\")][0] as \$p | .services[] | select(.unit == \"[initramfs]\") |
	 .first_start_ns >= \$p.start_ns and .last_exit_ns != null and .last_exit_ns <= \$p.end_ns' '$json'"
expect "bp-read.service exited, bp-threads.service is still running" \
	"jq -e '.services[] | select(.unit == \"bp-read.service\") | .running == false and .last_exit_ns > .first_start_ns' '$json' &&
	 jq -e '.services[] | select(.unit == \"bp-threads.service\") | .running and .last_exit_ns == null' '$json'"

# systemd's list: the units of blame, with the start of their main process.
sed 's/^/# blame: /' "$sd/blame.txt"
# "NAME START" for units of blame whose main process ran (services).
awk 'NR == FNR { blamed[$NF] = 1; next }
	{ id = ""; t = 0
	  for (i = 1; i <= NF; i++) {
		if ($i ~ /^Id=/) id = substr($i, 4)
		if ($i ~ /^ExecMainStartTimestampMonotonic=/) t = substr($i, 33)
	  }
	  if (id in blamed && t > 0) print id, t }' "$sd/blame.txt" "$sd/units.txt" | sort -u >"$TEST_DIR/sd-started"
cut -f1 "$TEST_DIR/services.tsv" | sort -u >"$TEST_DIR/bp-units"
cut -d' ' -f1 "$TEST_DIR/sd-started" | comm -23 - "$TEST_DIR/bp-units" >"$TEST_DIR/missing"
awk '{ print $NF }' "$sd/blame.txt" | sort -u | comm -13 - "$TEST_DIR/bp-units" >"$TEST_DIR/extra"
echo "# blame: $(wc -l <"$sd/blame.txt") units, $(wc -l <"$TEST_DIR/sd-started") of them services whose main process ran; report: $(wc -l <"$TEST_DIR/bp-units") rows"
echo "# in the report, not in blame: $(tr '\n' ' ' <"$TEST_DIR/extra")"
expect "every service of blame whose main process ran is in the report" \
	"[ -s '$TEST_DIR/sd-started' ] && ! grep . '$TEST_DIR/missing'"
# Order: by systemd's ExecMainStartTimestampMonotonic and by the report's
# first process start (the fork; no ExecStartPre among these units).
sort -k2,2n "$TEST_DIR/sd-started" | cut -d' ' -f1 >"$TEST_DIR/sd-order"
jq -r '.services[] | "\(.unit) \(.first_start_ns)"' "$json" | sort -k2,2n | cut -d' ' -f1 |
	grep -Fxf "$TEST_DIR/sd-order" >"$TEST_DIR/bp-order"
echo "# start order, systemd: $(tr '\n' ' ' <"$TEST_DIR/sd-order")"
expect "the report's start order is systemd's ($(wc -l <"$TEST_DIR/sd-order") services)" \
	"cmp -s '$TEST_DIR/sd-order' '$TEST_DIR/bp-order' || { diff '$TEST_DIR/sd-order' '$TEST_DIR/bp-order'; exit 1; }"
jq -r '.services[] | "\(.unit) \(.first_start_ns)"' "$json" | sort -k2,2n | cut -d' ' -f1 |
	grep -E '^bp-(read|mmap|threads)\.service$' | tr '\n' ' ' >"$TEST_DIR/planted"
echo "# planted services by first start in the report: $(cat "$TEST_DIR/planted")"
expect "the planted services start in their order: bp-read, bp-mmap, bp-threads" \
	"grep -qx 'bp-read.service bp-mmap.service bp-threads.service ' '$TEST_DIR/planted'"
sed -n '/^== I\/O wait by service/,/^$/p' "$TEST_DIR/report.txt" | sed 's/^/# /'
# Side by side, for the units both list: the report's first process start,
# first exec and last exit (s since boot) and their span, blame's time.
jq -r '.services[] | [.unit, .first_start_ns, (.first_exec_ns // "-"), (.last_exit_ns // "running")] | @tsv' \
	"$json" | sort -t "$(printf '\t')" -k2,2n >"$TEST_DIR/bp-times"
printf '# %-36s %7s %7s %7s %7s | %s\n' "unit (report; blame)" start exec end span blame
awk -F'\t' 'NR == FNR { n = split($0, f, " "); t = f[1]; for (i = 2; i < n; i++) t = t " " f[i]; blame[f[n]] = t; next }
	function s(v) { return v ~ /^[0-9]+$/ ? sprintf("%.3f", v / 1e9) : v }
	$1 in blame { printf "# %-36s %7s %7s %7s %7s | %s\n", $1, s($2), s($3), s($4),
		$4 ~ /^[0-9]+$/ ? sprintf("%.3f", ($4 - $2) / 1e9) : "-", blame[$1] }' \
	"$sd/blame.txt" "$TEST_DIR/bp-times"

# ---- what recording cost: the recorder's CPU time, from sched_switch ----
boot_switch_cost "$dump" >"$TEST_DIR/cpu"
read rec_s busy_s span_s <"$TEST_DIR/cpu"
row=$(jq '.services[] | select(.unit == "[recorder]") | .run_ns' "$json")
echo "# recorder CPU: $rec_s s of $busy_s s busy CPU ($(awk -v a="$rec_s" -v b="$busy_s" 'BEGIN { printf "%.1f", 100 * a / b }') %) over $span_s s x 2 CPUs; the report's [recorder] row: ${row:-none} ns"
expect "the [recorder] row's CPU time is the recorder's, from sched_switch (within 1 %)" \
	"[ -n '$row' ] && awk -v a='$row' -v b='$rec_s' 'BEGIN { d = a / 1e9 - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.01 * b) }'"
expect "the boot buffer is gone afterwards" \
	"grep -q 'BP-DONE: instances \[\]' '$con' && grep -q 'BP-DONE: top-level events \[\]' '$con'"

# ---- the sparse mmap again, exact: a second boot with bootprof.exact-mmap=1 ----
# Fault-around at one page while recording: each page mmap-touch touches
# (its first and last, 2) faults alone, so archive.zip's used pages are
# those and the rest of what readahead read is never used.
sd_boot exact "$(without_schedstats "$words") delayacct bootprof.exact-mmap=1"
rc=$?
con=$TEST_DIR/exact.console
echo "# exact-mmap boot: booted and powered off in $BOOT_SECONDS s (status $rc)"
expect "exact: the boot runs to bp-done's end, the recording is saved" \
	"[ $rc = 0 ] && grep -q 'BP-DONE: done' '$con' && ! grep -q 'warning: bootprof.exact-mmap' '$con'"
if boot_fetch_recording; then
	"$BOOTPROF" report --format json --top 0 "$TEST_DIR/latest.dat" >"$TEST_DIR/exact.json"
	expect "exact: the recording says the mmap accounting was exact (fault-around 4096)" \
		"jq -e '.recording.fault_around_bytes == 4096' '$TEST_DIR/exact.json' &&
		 '$BOOTPROF' report '$TEST_DIR/latest.dat' | grep -q '^mmap: exact (fault-around set to 4.0 KiB'"
	set -- $(archive_pages "$TEST_DIR/exact.json")
	echo "# archive.zip pages (read, used, never used, mapped not known), default: $default_pages; exact: $*; 2 touched"
	expect "exact: archive.zip used = the 2 touched pages, never used >= 90 % of those read, none only mapped" \
		"[ $# = 4 ] && [ '$2' = 2 ] && [ '$4' = 0 ] && [ \$(( $3 * 10 )) -ge \$(( $1 * 9 )) ] &&
		 [ \$(( $2 + $3 )) = '$1' ]"

else
	not_ok "exact: the boot runs to bp-done's end, the recording is saved"
fi
