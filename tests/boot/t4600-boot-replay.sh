#!/bin/sh
# The readahead loop closed under QEMU (6.12: page access events): boot with
# a disk throttled by QEMU and a planted workload (reads with CPU work
# between them), make the pack in that boot, boot again with
# bootprof.replay=PACK, the workload started once the preloader is done
# (bench/readahead measures the overlap). The workload's I/O wait drops by
# at least half, the preloader is its own process in the recording, its
# pages were then used, and the pack's accounting is exact: used pages in,
# never-used pages and the file written during the boot left out and
# counted, the file changed since skipped as stale. Boots with a corrupt pack, no pack, and the pack
# of another disk still run to the end, and the kernel log says why.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
. "$TOP/tests/boot/lib-replay.sh"
require_root
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
boot_build_initramfs || skip_all "cannot build the initramfs"
replay_build_disk || skip_all "cannot build the disk image"
words="$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null) bootprof.until-file=/run/test-done"
PAGE=4096

# 1. Without a pack; the pack is made at the end of this boot.
replay_boot cold "$words test.build-pack=1"
rc=$?
echo "# cold boot: $BOOT_SECONDS s (status $rc)"
expect 'cold: boots, the workload runs, the pack is built in the booted system' \
	"[ $rc = 0 ] && grep -q 'TEST-INIT: pack built' '$TEST_DIR/cold.console' && grep -q 'TEST-INIT: done' '$TEST_DIR/cold.console'"
P=$TEST_DIR/cold.out/lib/bootprof/boot.pack
[ -f "$P" ] && [ -f "$TEST_DIR/cold.dat" ] || { not_ok 'cold: the recording and the pack come back'; exit 0; }
"$BOOTPROF" report --format csv --table files --top 0 --file /data/ "$TEST_DIR/cold.dat" >"$TEST_DIR/files.csv"
field() { awk -F, -v p="$1" -v c="$2" '$1 == p { print $c; exit }' "$TEST_DIR/files.csv"; }
pline() { grep " $1\$" "$P"; }
pages() { echo "$1" | awk '{ n = split($9, r, ","); for (i = 1; i <= n; i++) { split(r[i], a, "+"); s += a[2] } print s + 0 }'; }
i=1
while [ $i -le "$REPLAY_FILES" ]; do
	f=/data/f$i
	expect "pack: $f whole, first use order ($((REPLAY_FILE_KB * 1024)) bytes used)" \
		"[ \$(( \$(pages \"\$(pline $f)\") * $PAGE )) = '$(field $f 7)' ] && [ '$(field $f 7)' = $((REPLAY_FILE_KB * 1024)) ]"
	i=$((i + 1))
done
expect 'pack: the /data files in order of first use' \
	"grep -o ' /data/f[0-9]*\$' '$P' | tr -d ' ' | tr '\n' ' ' | grep -qx '$(i=1; while [ $i -le "$REPLAY_FILES" ]; do printf '/data/f%d ' $i; i=$((i + 1)); done)'"
used=$(field /data/part 7) never=$(field /data/part 8)
echo "# /data/part: used $used, never used $never"
expect "pack: /data/part has exactly its used pages ($used bytes), its never-used bytes left out ($never)" \
	"[ -n '$used' ] && [ '$never' -gt 0 ] && [ \$(( \$(pages \"\$(pline /data/part)\") * $PAGE )) = '$used' ] &&
	 [ \"\$(pline /data/part | cut -d' ' -f8)\" = '$never' ]"
expect 'pack: never-used count = the sum of what each file left out' \
	"awk '\$1 == \"file\" { s += \$8 } \$1 == \"count\" && \$2 == \"never-used\" { c = \$4 } END { exit !(s == c && c > 0) }' '$P'"
wb=$(field /data/written 5)
expect "pack: the file written during the boot is left out, counted exactly (1 file, $wb bytes)" \
	"! pline /data/written && grep -qx 'count written 1 $wb' '$P'"
expect 'pack: nothing under /var/log (the recording) is in it' "! grep '^file ' '$P' | grep -q ' /var/log/'"

# 2. With the pack.
replay_boot warm "$words bootprof.replay=/var/lib/bootprof/boot.pack test.wait-replay=1 test.workload-after-replay=1"
rc=$?
echo "# replayed boot: $BOOT_SECONDS s (status $rc)"
con=$TEST_DIR/warm.console
expect 'warm: boots, the workload runs' "[ $rc = 0 ] && grep -q 'TEST-INIT: done' '$con'"
grep 'bootprof-replay: ' "$con" | sed 's/^/# /'
nfiles=$(grep -c '^file ' "$P")
expect "warm: the kernel log has the preloader's summary: $((nfiles - 1)) of $nfiles files, exactly 1 stale (the changed file)" \
	"grep -q 'bootprof-replay: preloaded $((nfiles - 1)) of $nfiles files, .* skipped 1 stale, 0 missing, 0 unreadable' '$con'"
[ -f "$TEST_DIR/warm.dat" ] || { not_ok 'warm: the recording comes back'; exit 0; }
set -- $(replay_numbers cold)
cold_end=$1 cold_wait=$2 cold_idle=$3
set -- $(replay_numbers warm)
warm_end=$1 warm_wait=$2 warm_idle=$3
echo "# workload end: $cold_end s -> $warm_end s; its I/O wait: $cold_wait ns -> $warm_wait ns; CPU idle while waiting: $cold_idle ns -> $warm_idle ns"
expect 'warm: the workload waited on I/O in the cold boot' "[ '$cold_wait' -gt 0 ]"
expect 'warm: the workload I/O wait dropped by at least 50 %' "[ \$(( $warm_wait * 2 )) -le '$cold_wait' ]"
[ $((warm_wait * 2)) -le "$cold_wait" ] ||
	for run in cold warm; do
		# What it waited on, to tell a pack that missed from a disk that was slow.
		wpid=$(sed -n 's/^TEST-INIT: workload pid \([0-9]*\).*/\1/p' "$TEST_DIR/$run.console" | head -n 1)
		echo "# $run: the workload's files by I/O wait (file,wait_ns,bytes):"
		"$BOOTPROF" report --format json --pid "$wpid" --tree "$TEST_DIR/$run.dat" 2>/dev/null |
			jq -r '.files[:8][] | "#   \(.path),\(.wait_ns),\(.bytes_read)"'
	done
"$BOOTPROF" report --format csv --table readers --top 0 --file /data/ "$TEST_DIR/warm.dat" >"$TEST_DIR/readers.csv"
expect 'warm: the preloader is its own process, named bootprof-replay, and read the /data files' \
	"[ \$(awk -F, '\$3 == \"bootprof-replay\" && \$1 ~ /^\\/data\\/f/ && \$5 > 0' '$TEST_DIR/readers.csv' | wc -l) = $REPLAY_FILES ]"
"$BOOTPROF" readahead --preloaded "$TEST_DIR/warm.dat" >"$TEST_DIR/preloaded.txt"
grep ' /data/' "$TEST_DIR/preloaded.txt" | sed 's/^/# /'
# columns: preloaded hit late overtaken miss wasted read_again late_waits late_wait_ns path
expect 'warm: --preloaded: each /data file preloaded whole and then used (hit or late), nothing wasted, overtaken or missed' \
	"[ \$(awk -v s=$((REPLAY_FILE_KB * 1024)) 'index(\$NF, \"/data/f\") == 1 && \$1 == s && \$2 + \$3 == s && \$4 + \$5 + \$6 + \$7 == 0' '$TEST_DIR/preloaded.txt' | wc -l) = $REPLAY_FILES ]"
# The preloader starts in the initramfs and finds the recording's tracefs
# in PID 1's root once the real root took /sys with it.
"$BOOTPROF" dump --events ftrace:print "$TEST_DIR/warm.dat" >"$TEST_DIR/prints.txt"
nreq=$(grep -c 'bootprof-replay request ' "$TEST_DIR/prints.txt")
nres=$(grep -c 'bootprof-replay resident ' "$TEST_DIR/prints.txt")
nfile=$(grep -c '^file ' "$P")
expect "warm: the boot's recording has the preloader's request ($nreq) and resident ($nres) markers, at least one per file preloaded ($((nfile - 1)))" \
	"[ $nreq -ge $((nfile - 1)) ] && [ $nres -ge $((nfile - 1)) ]"
expect 'warm: the changed (stale) file was not preloaded: the workload'"'"'s reads of it are misses' \
	"awk '\$NF == \"/data/changed\" { f = 1; ok = (\$1 == 0 && \$4 == 0 && \$5 > 0); exit } END { exit !(f && ok) }' '$TEST_DIR/preloaded.txt'"

# 3. A corrupt pack: the boot goes on, the kernel log says why.
printf 'bootprof-pack 1\nfile 1:2 3\n' >"$TEST_DIR/corrupt.pack"
debugfs -w -R "rm /var/lib/bootprof/boot.pack" "$BOOT_DISK" >/dev/null 2>&1
debugfs -w -R "write $TEST_DIR/corrupt.pack /var/lib/bootprof/boot.pack" "$BOOT_DISK" >/dev/null 2>&1
replay_boot corrupt "$words bootprof.replay=/var/lib/bootprof/boot.pack test.wait-replay=1"
rc=$?
grep 'bootprof-replay: ' "$TEST_DIR/corrupt.console" | sed 's/^/# /'
expect 'corrupt pack: the boot runs to the end' "[ $rc = 0 ] && grep -q 'TEST-INIT: done' '$TEST_DIR/corrupt.console'"
expect 'corrupt pack: the kernel log says the pack was not replayed, and why' \
	"grep -q 'bootprof-replay: not replaying: .*boot.pack.: line 2: malformed' '$TEST_DIR/corrupt.console'"

# 4. No pack at that path: the preloader gives up once PID 1 left the initramfs.
replay_boot missing "$words bootprof.replay=/var/lib/bootprof/none.pack test.wait-replay=1"
rc=$?
grep 'bootprof-replay: ' "$TEST_DIR/missing.console" | sed 's/^/# /'
expect 'missing pack: the boot runs to the end' "[ $rc = 0 ] && grep -q 'TEST-INIT: done' '$TEST_DIR/missing.console'"
expect 'missing pack: the kernel log says so' \
	"grep -q \"bootprof-replay: not replaying: cannot open '/proc/1/root/var/lib/bootprof/none.pack': No such file or directory\" '$TEST_DIR/missing.console'"

# 5. The pack of another disk: every file stale, nothing read.
sed 's/^file [0-9]*:[0-9]*/file 8:99/' "$P" >"$TEST_DIR/other.pack"
debugfs -w -R "rm /var/lib/bootprof/boot.pack" "$BOOT_DISK" >/dev/null 2>&1
debugfs -w -R "write $TEST_DIR/other.pack /var/lib/bootprof/boot.pack" "$BOOT_DISK" >/dev/null 2>&1
replay_boot other "$words bootprof.replay=/var/lib/bootprof/boot.pack test.wait-replay=1"
rc=$?
grep 'bootprof-replay: ' "$TEST_DIR/other.console" | sed 's/^/# /'
expect 'pack of another disk: the boot runs to the end' "[ $rc = 0 ] && grep -q 'TEST-INIT: done' '$TEST_DIR/other.console'"
expect "pack of another disk: all $nfiles files stale, 0 bytes preloaded" \
	"grep -q 'bootprof-replay: preloaded 0 of $nfiles files, 0 bytes .* skipped $nfiles stale' '$TEST_DIR/other.console'"
