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
# the recorder's CPU share; each process's I/O wait against the kernel's
# blkio delay (delayacct), with the kernel's own I/O-wait verdict
# (schedstats, sched_stat_iowait/blocked) in the recording, udev workers'
# and agetty's D-sleeps as other D-sleep, and how much shorter the
# kernel's own sleep lengths are than their sched_switch intervals. A
# second boot with bootprof.exact-mmap=1 and without schedstats checks the
# sparse mmap (exact, its used pages the touched ones) and the I/O wait
# inferred from how each sleep ended against the blkio delay.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
command -v jq >/dev/null || skip_all "jq not installed"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
t0=$(date +%s)
boot_systemd_image
echo "# systemd image ready in $(($(date +%s) - t0)) s: $SD"
boot_build_initramfs /sbin/init || { not_ok "build the initramfs"; exit 0; }
BOOT_DISK=$SD/root.img
BOOT_OUT=$TEST_DIR/out.img
words=$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null)
# The words carry the kernel's own I/O-wait count: schedstats=enable and
# its two events (sched_stat_iowait, sched_stat_blocked) in the boot
# instance. delayacct: every thread's blkio delay, the truth the I/O
# wait is held against. The second boot goes without schedstats: its
# I/O wait is inferred.
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
sd_boot boot "$words delayacct"
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

# ---- I/O wait against the kernel's blkio delay ----
# The boot ran with delayacct, schedstats on and the kernel's two events
# in the instance: bootprof's I/O wait is the kernel's count wherever
# sched_stat_iowait/sched_stat_blocked name a sleep. bp-done read every
# thread's blkio delay (/proc/PID/task/TID/stat field 42, 10 ms ticks)
# right before it stopped the recording, and once more after.
MS=1000000
# sleep_verdicts DUMP: the D-sleeps of the recording by the kernel's word.
# A D-sleep runs from the sched_switch that puts a task out in D to the
# kernel's report of it (sched_stat_blocked, after sched_stat_iowait when
# it was I/O, both in the waker's context at the enqueue), or to its first
# waking when no report came. Per task, "tid io_s other_s open_s
# unreported_s excess_s": the sleeps the kernel called I/O, those it
# called blocked only (open_s: the part of them inside open()), those it
# did not report (woken before their delayed dequeue, or still asleep at
# the end), and what delay accounting counted too much for it.
# That excess: 6.12 dequeues a sleeper late (DELAY_DEQUEUE), at a later
# context switch on its CPU, and starts the sleep's count there (the
# report's time less its delay is that switch). Its __block_task then
# calls delayacct_blkio_start(), which stamps current -- the task that
# switches -- not the sleeper: the sleeper's blkio delay runs from an
# older stamp, its own last one or one left by another late dequeue
# while it was current. Modelled here from the switches.
# Last, the kernel's own lengths (the reports' delay) against the
# intervals: "# sleeps interval_s delay_s shorter shorter_s late longer
# longer_s unreported unreported_s": shorter/longer by more than 1 ms, and
# of all, those dequeued at a later context switch. A report with no
# D-sleep open for its pid (a TASK_IDLE sleep, prev_state I) is left out.
sleep_verdicts() {
	awk '
	function field(name,    i) {
		for (i = 6; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2)
		return ""
	}
	# The task that switched at "at" on the CPU the sleeper pid left, after
	# it slept; "" when none (dequeued at its own switch).
	function dequeued_by(pid, at,    c, j) {
		c = startcpu[pid]
		for (j = nsw[c]; j > 0 && sw[c, j] > start[pid] + 0.0001; j--)
			if (sw[c, j] - at < 0.0001 && at - sw[c, j] < 0.0001) return swprev[c, j]
		return ""
	}
	$5 == "sys_enter_openat:" || $5 == "sys_enter_open:" { inopen[$3] = 1; next }
	$5 == "sys_exit_openat:" || $5 == "sys_exit_open:" { inopen[$3] = 0; next }
	$5 == "sched_switch:" {
		prev = field("prev_pid"); nxt = field("next_pid")
		cpu = $2; nsw[cpu]++; sw[cpu, nsw[cpu]] = $1; swprev[cpu, nsw[cpu]] = prev
		if (nxt in start) {
			e = (woke[nxt] ? woke[nxt] : $1) - start[nxt]
			un[nxt] += e; unn++; uns += e
			delete start[nxt]
		}
		if (field("prev_state") ~ /^D/) {
			start[prev] = $1; startcpu[prev] = cpu; io[prev] = 0; woke[prev] = 0
			open[prev] = inopen[prev]; seen[prev] = 1
		}
		next
	}
	$5 == "sched_waking:" { pid = field("pid"); if ((pid in start) && !woke[pid]) woke[pid] = $1; next }
	$5 == "sched_stat_iowait:" { pid = field("pid"); if (pid in start) io[pid] = 1; next }
	$5 == "sched_stat_blocked:" {
		pid = field("pid")
		if (!(pid in start)) next
		iv = $1 - start[pid]; d = field("delay") / 1e9; sh = iv - d
		n++; siv += iv; sd += d
		if (sh > 0.001) { short++; shs += sh }
		if (sh < -0.001) { longer++; lgs -= sh }
		by = dequeued_by(pid, $1 - d)
		if (by != "") late++
		if (io[pid]) {
			kio[pid] += iv
			if (by != "") { excess[pid] += start[pid] - stamp[pid]; stamp[by] = $1 - d }
			stamp[pid] = start[pid]
		} else {
			kother[pid] += iv; if (open[pid]) kopen[pid] += iv
		}
		delete start[pid]
	}
	END {
		for (p in seen) printf "%s %.6f %.6f %.6f %.6f %.6f\n", p, kio[p], kother[p], kopen[p], un[p], excess[p]
		printf "# %d %.6f %.6f %d %.6f %d %d %.6f %d %.6f\n", n, siv, sd, short, shs, late, longer, lgs, unn, uns
	}' "$1"
}
# blkio_table JSON RECORDING DIR [VERDICTS]: for every user process alive
# at the stop, "pid io_ns other_ns blkio_ns blkio_after_ns excess_ns
# gone_ns comm": its I/O wait and other D-sleep in the report (the process
# alive at the end where its pid was used before; its threads summed, as
# the report sums them), the kernel's blkio delay before and after the
# stop summed over its threads alive then, what the kernel counted too
# much for them (VERDICTS, see sleep_verdicts), and the I/O wait of its
# threads that exited before the stop (their blkio delay left with them;
# from the recording's spans). io_ns and other_ns are "-" for a process
# the report does not have.
blkio_table() {
	jq -r '[.processes[] | select(.exit_ns == 0)] | group_by(.pid) | map(max_by(.start_ns))[] |
		[.pid, .wait_ns, .other_wait_ns, .start_ns] | @tsv' "$1" >"$TEST_DIR/alive.tsv"
	"$BOOTPROF" export --format chrome --force "$2" -o "$TEST_DIR/spans.json"
	jq -r '.traceEvents[] | select(.name == "I/O wait") | [.pid, .tid, .ts, .dur] | @tsv' \
		"$TEST_DIR/spans.json" >"$TEST_DIR/io-spans.tsv"
	awk -v tick=10000000 '
		FILENAME == ARGV[1] { io[$1] = $2; other[$1] = $3; since[$1] = $4; next }
		FILENAME == ARGV[2] { excess[$1] = $6 * 1e9; next }
		/^#/ { next }
		FILENAME == ARGV[3] { after[$1] += $4 * tick; next }
		FILENAME == ARGV[4] {
			if ($3 != 0) next
			if (!($1 in n)) order[++np] = $1
			n[$1]++; k[$1] += $4 * tick; ex[$1] += excess[$2]; alive[$2] = 1
			if ($1 == $2 || !($1 in comm)) { c = $5; for (i = 6; i <= NF; i++) c = c " " $i; comm[$1] = c }
			next
		}
		# I/O-wait spans (us) of the live process, by threads no longer alive
		($1 in io) && !($2 in alive) && $3 * 1000 >= since[$1] { gone[$1] += $4 * 1000 }
		END {
			for (i = 1; i <= np; i++) {
				p = order[i]
				printf "%s %s %s %.0f %.0f %.0f %.0f %s\n", p, (p in io) ? io[p] : "-", (p in io) ? other[p] : "-",
					k[p], (p in after) ? after[p] : k[p], ex[p], gone[p], comm[p]
			}
		}' "$TEST_DIR/alive.tsv" "${4:-/dev/null}" "$3/blkio-after.txt" "$3/blkio.txt" "$TEST_DIR/io-spans.tsv"
}
# The comparison of a row: bootprof's I/O wait of the threads alive at the
# stop (b), and the kernel's count (k, ka after the stop) less its known
# excess; it is "long" when it is more than all the process's D-sleep:
# an excess the recording could not show (a boot without schedstats).
BLKIO_ROW='function row() { b = $2 - $7; k = $4 - $6; ka = $5 - $6; long = k > $2 + $3 + 20000000 }'
# blkio_print TABLE: the 10 processes with the most I/O wait by either
# count, the totals over all and over those not long, as comment lines.
# The kernel's ticks truncate: its count is up to 10 ms short a process.
blkio_print() {
	printf '# %-28s %11s %11s %9s\n' "process (pid)" "bootprof ms" "blkio ms" "error ms"
	awk '$2 != "-" { print ($2 > $4 ? $2 : $4), $0 }' "$1" | sort -k1,1nr | cut -d' ' -f2- | head -n 10 |
		awk -v ms=$MS "$BLKIO_ROW"'{
			row()
			kk = $4 == $5 ? sprintf("%d", $4 / ms) : sprintf("%d..%d", $4 / ms, $5 / ms)
			note = ""
			if ($7 > 0) note = note sprintf(", %.1f ms in threads gone before the stop", $7 / ms)
			if ($6 > 0) note = note sprintf(", blkio %.1f ms too long: late dequeue", $6 / ms)
			if (long) note = note ", blkio over all its D-sleep: too long"
			c = $8; for (i = 9; i <= NF; i++) c = c " " $i
			printf "# %-28s %11.1f %11s %+9.1f%s\n", c " (" $1 ")", $2 / ms, kk, (b - k) / ms,
				note == "" ? "" : "  (" substr(note, 3) ")" }'
	awk -v ms=$MS "$BLKIO_ROW"'
		function line(what, n, r, b, kr, k, e) {
			printf "# total over %s: bootprof %.1f ms (%.1f ms of threads alive at the stop), blkio %.1f ms (%.1f ms less its known excess, up to %d ms short in ticks); error %+.1f ms (%+.1f %%), sum of |errors| %.1f ms\n",
				what, r / ms, b / ms, kr / ms, k / ms, n * 10, (b - k) / ms, k ? 100 * (b - k) / k : 0, e / ms
		}
		$2 != "-" {
			row(); d = b - k; if (d < 0) d = -d
			n++; sr += $2; sb += b; skr += $4; sk += k; se += d
			if (!long) { n0++; sr0 += $2; sb0 += b; skr0 += $4; sk0 += k; se0 += d }
		}
		END {
			line("all " n " processes", n, sr, sb, skr, sk, se)
			if (n0 < n) line("the " n0 " whose blkio is not too long", n0, sr0, sb0, skr0, sk0, se0)
		}' "$1"
}
# Within 30 ms (three ticks) or 5 % of the kernel's count, whichever is
# more; a count that moved between the two readings bounds it on both.
# A count too long is only a ceiling. Three ticks, not two: the kernel's
# two counts of one sleep disagree -- delay accounting's blkio delay of
# PID 1 was 28 ms over its schedstats iowait in one boot of six (100 ms
# against 71.9 ms) with no late dequeue to explain it.
BLKIO_NEAR=$BLKIO_ROW'
	function tol(k) { return k * 0.05 > 30000000 ? k * 0.05 : 30000000 }
	function near() { return (long || b >= k - tol(k)) && b <= ka + tol(ka) }'

iowait_n=$(grep -c ' sched_stat_iowait: ' "$dump")
blocked_n=$(grep -c ' sched_stat_blocked: ' "$dump")
echo "# the kernel's word: $iowait_n sched_stat_iowait, $blocked_n sched_stat_blocked; report: iowait_source $(jq -c '.totals.iowait_source' "$json"), $(jq -c '[.totals.sleeps_kernel, .totals.sleeps_inferred]' "$json") sleeps kernel/inferred"
expect "the recording has the kernel's events (sched_stat_iowait, sched_stat_blocked), the report says its I/O wait is the kernel's" \
	"[ $iowait_n -gt 0 ] && [ $blocked_n -ge $iowait_n ] && '$BOOTPROF' dump --meta '$rec' | grep -q '^# kernel cmdline:.* schedstats=enable' &&
	 jq -e '.totals.iowait_source == \"kernel\" and .totals.sleeps_kernel > .totals.sleeps_inferred' '$json'"
sleep_verdicts "$dump" >"$TEST_DIR/verdicts"
blkio_table "$json" "$rec" "$sd" "$TEST_DIR/verdicts" >"$TEST_DIR/blkio.tsv"
echo "# blkio read at $(sed -n 's/^# uptime //p' "$sd/blkio.txt") s and $(sed -n 's/^# uptime //p' "$sd/blkio-after.txt") s; the recording stopped at $(jq '.recording.stop_ns / 1e9' "$json") s"
echo "# I/O wait, bootprof (the kernel's word) against the kernel's blkio delay, user processes alive at the stop:"
blkio_print "$TEST_DIR/blkio.tsv"
expect "every user process alive at the stop is in the report (the recorder apart)" \
	"[ -s '$TEST_DIR/blkio.tsv' ] && ! awk '\$2 == \"-\" && \$8 != \"bootprof-rec\"' '$TEST_DIR/blkio.tsv' | grep ."
expect "each one's I/O wait is its blkio delay, within 30 ms or 5 %" \
	"! awk '$BLKIO_NEAR \$2 != \"-\" { row(); if (!near()) print }' '$TEST_DIR/blkio.tsv' | grep ."
expect "none has more than 100 ms of I/O wait of which the kernel counts under half" \
	"! awk '$BLKIO_ROW \$2 != \"-\" { row(); if (b > 100000000 && ka < b / 2) print }' '$TEST_DIR/blkio.tsv' | grep ."
# udev workers and agetty sleep in open() of device nodes (a probe, a
# tty): D-sleeps that are no I/O, other D-sleep in the report. Both are
# single-threaded: a pid's sleeps are its process's. Per process
# "group pid io_ns other_ns k_io_ns k_other_ns k_open_ns unreported_ns".
jq -r '.processes[] | select((.comm == "(udev-worker)" or .comm == "agetty") and .threads == 1) |
	[.pid, .wait_ns, .other_wait_ns, .comm] | @tsv' "$json" |
	awk -F'\t' 'NR == FNR { split($0, f, " "); v[f[1]] = sprintf("%.0f %.0f %.0f %.0f", f[2] * 1e9, f[3] * 1e9, f[4] * 1e9, f[5] * 1e9); next }
		{ print ($4 == "agetty" ? "agetty" : "udev-worker"), $1, $2, $3, ($1 in v) ? v[$1] : "0 0 0 0" }' \
		"$TEST_DIR/verdicts" - >"$TEST_DIR/devopen"
for g in udev-worker agetty; do
	awk -v g=$g -v ms=$MS '$1 == g { n++; w += $3; o += $4; ki += $5; ko += $6; kp += $7; u += $8 }
		END { printf "# %s (%d processes): the kernel says D-sleep not I/O %.1f ms (%.1f ms of it in open()), I/O %.1f ms, did not say %.1f ms; the report: other D-sleep %.1f ms, I/O wait %.1f ms\n",
			g, n, ko / ms, kp / ms, ki / ms, u / ms, o / ms, w / ms }' "$TEST_DIR/devopen"
done
# Each sleep's end differs between the waking (the report: when the task
# was runnable) and the kernel's word (its enqueue, which for a wakeup
# queued to another CPU comes when that CPU takes it, under emulation
# milliseconds later): within 15 ms or 5 % per process (one udev worker's
# 52.4 ms of kernel-counted I/O was 40.1 ms of sleeps to their wakings
# under TCG on a busy host, while the ten workers' totals were 189.0 and
# 188.7 ms).
SLEEP_NEAR='function tol(k) { return k * 0.05 > 15000000 ? k * 0.05 : 15000000 }'
expect "udev workers and agetty: the D-sleeps the kernel does not call I/O are other D-sleep, not I/O wait" \
	"awk '\$6 > 0 { n++ } END { exit !n }' '$TEST_DIR/devopen' &&
	 ! awk '$SLEEP_NEAR \$4 < \$6 - tol(\$6) || \$3 < \$5 - tol(\$5) || \$3 > \$5 + \$8 + tol(\$5 + \$8)' '$TEST_DIR/devopen' | grep ."

# The kernel's own length of a sleep (sched_stat_blocked's delay) against
# its sched_switch interval: 6.12 dequeues a sleeper late (DELAY_DEQUEUE),
# and starts the kernel's count there; a sleeper woken before that
# dequeue gets no report at all (nor blkio delay).
set -- $(tail -n 1 "$TEST_DIR/verdicts")
echo "# kernel sleep lengths: $2 D-sleeps reported; sched_switch intervals $3 s, the kernel's delays $4 s ($(awk -v a="$3" -v b="$4" 'BEGIN { printf "%.1f ms, %.2f %%", (a - b) * 1000, 100 * (a - b) / a }') shorter); $5 shorter by > 1 ms ($(awk -v s="$6" 'BEGIN { printf "%.1f", s * 1000 }') ms), $8 longer by > 1 ms ($(awk -v s="$9" 'BEGIN { printf "%.1f", s * 1000 }') ms); $7 dequeued at a later context switch on their CPU; ${10} D-sleeps not reported ($(awk -v s="${11}" 'BEGIN { printf "%.1f", s * 1000 }') ms to their waking)"

# ---- the inference against the kernel's word, on this one recording ----
# The same recording without its schedstats events (--iowait-source
# inferred): each D-sleep judged by how it ended, against the kernel's
# verdict on the same sleep -- no blkio ticks, no late dequeue between.
"$BOOTPROF" report --format json --top 0 --iowait-source inferred "$rec" >"$TEST_DIR/inferred.json"
# Per process "pid comm kernel inferred kernel-sync inferred-sync": a
# sync wait (fsync) whose writeback ext4 ends in a kworker the
# completion did not wake is out of the inference's reach, so each
# process is compared without its sync waits, the total with them.
jq -r '.processes[] | [.pid, .start_ns, .comm, .wait_ns, (.wait_by_cause.sync // 0)] | @tsv' "$json" |
	sort -t "$(printf '\t')" -k1,1 >"$TEST_DIR/k.tsv"
jq -r '.processes[] | [.pid, .start_ns, .comm, .wait_ns, (.wait_by_cause.sync // 0)] | @tsv' "$TEST_DIR/inferred.json" |
	sort -t "$(printf '\t')" -k1,1 >"$TEST_DIR/i.tsv"
join -t "$(printf '\t')" -j 1 "$TEST_DIR/k.tsv" "$TEST_DIR/i.tsv" 2>/dev/null |
	awk -F'\t' '$2 == $6 { print $1, $3, $4, $8, $5, $9 }' | sort -k3,3nr >"$TEST_DIR/k-vs-i"
echo "# I/O wait inferred (--iowait-source inferred) against the kernel's word, same recording, the 10 largest:"
head -n 10 "$TEST_DIR/k-vs-i" | awk -v ms=$MS '{ printf "#   %-24s kernel %8.1f ms  inferred %8.1f ms  %+7.1f ms\n", $2 " (" $1 ")", $3 / ms, $4 / ms, ($4 - $3) / ms }'
kt=$(jq .totals.wait_ns "$json") it=$(jq .totals.wait_ns "$TEST_DIR/inferred.json")
echo "# total: kernel $(awk -v v=$kt -v ms=$MS 'BEGIN { printf "%.1f", v / ms }') ms, inferred $(awk -v v=$it -v ms=$MS 'BEGIN { printf "%.1f", v / ms }') ms ($(awk -v k=$kt -v i=$it 'BEGIN { printf "%+.1f %%", 100 * (i - k) / k }')); sum of |errors| over processes $(awk -v ms=$MS '{ d = $4 - $3; s += d < 0 ? -d : d } END { printf "%.1f ms", s / ms }' "$TEST_DIR/k-vs-i")"
# Over eight boots the total was within -19 % .. +0 % and no process off
# by more than 28 ms (sync apart); a ninth, on a host busy with other
# guests, missed one udev worker's 57.7 ms whole (its waking ran in process
# context). The misses are wakings in process context by a task an I/O
# interrupt had just run on, a kworker ending writeback it was not woken
# for. The bounds leave that margin: 30 % in total, and each process
# within 40 ms or 25 %, one of them within twice that.
expect "inferred: the same recording's total I/O wait within 30 % of the kernel's word" \
	"[ '$(jq -r .totals.iowait_source "$TEST_DIR/inferred.json")' = inferred ] &&
	 awk -v k=$kt -v i=$it 'BEGIN { d = i - k; if (d < 0) d = -d; exit !(k > 0 && d <= 0.30 * k) }'"
expect "inferred: each process, sync waits apart, within 40 ms or 25 % of the kernel's word (one within twice that)" \
	"[ -s '$TEST_DIR/k-vs-i' ] && awk '{ k = \$3 - \$5; d = \$4 - \$6 - k; if (d < 0) d = -d; t = k * 0.25; if (t < 40000000) t = 40000000
		if (d > t) { print; out++; if (d > 2 * t) big++ } }
		END { exit !(out <= 1 && !big) }' '$TEST_DIR/k-vs-i'"

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

	# ---- I/O wait inferred, against the kernel's blkio delay ----
	# This boot had no schedstats: each D-sleep was I/O or not by how it
	# ended (woken by a block completion or not). Seen in these boots:
	# PID 1's sleeps after a fork (the child's cgroup attach waiting for
	# an RCU grace period), woken in a softirq that runs right after a
	# completion's hardirq on the same CPU, inferred as I/O (50 to 110 ms,
	# the total 0 to 35 % over the kernel's); a task handed a page's lock
	# by a reader woken by the completion (process context), inferred as
	# not I/O. The bound leaves room for both.
	"$BOOTPROF" dump "$TEST_DIR/latest.dat" >"$TEST_DIR/exact-dump.txt"
	echo "# the kernel's word in the exact-mmap boot: $(grep -c ' sched_stat_\(iowait\|blocked\): ' "$TEST_DIR/exact-dump.txt") events; report: iowait_source $(jq -c '.totals.iowait_source' "$TEST_DIR/exact.json"), $(jq -c '[.totals.sleeps_kernel, .totals.sleeps_inferred]' "$TEST_DIR/exact.json") sleeps kernel/inferred"
	expect "inferred: no schedstats events in the recording, the report says its I/O wait is inferred" \
		"! grep -q ' sched_stat_\(iowait\|blocked\): ' '$TEST_DIR/exact-dump.txt' &&
		 jq -e '.totals.iowait_source == \"inferred\" and .totals.sleeps_kernel == 0' '$TEST_DIR/exact.json'"
	blkio_table "$TEST_DIR/exact.json" "$TEST_DIR/latest.dat" "$TEST_DIR/out/bp-test" >"$TEST_DIR/infer.tsv"
	echo "# I/O wait inferred (no schedstats) against the kernel's blkio delay, user processes alive at the stop:"
	blkio_print "$TEST_DIR/infer.tsv"
	expect "inferred: the total I/O wait within 60 % of the kernel's (each count up to a tick short; blkio not too long)" \
		"awk '$BLKIO_ROW \$2 != \"-\" { row(); if (!long) { n++; sb += b; sk += k } }
		      END { exit !(sk > 0 && sb >= 0.4 * sk && sb <= 1.6 * (sk + n * 10000000)) }' '$TEST_DIR/infer.tsv'"
else
	not_ok "exact: the boot runs to bp-done's end, the recording is saved"
fi
