#!/bin/sh
# The critical path of a real systemd boot: the systemd image of t4550
# (a copy, with two units planted by debugfs) on the 6.12 kernel under
# QEMU, recorded by bootprof as rdinit.
#   slow.service  oneshot: dd reads /data/slow.bin (4 MiB, cold) through
#                 the unit's own read limit (IOReadBandwidthMax 2 MB/s)
#   late.service  oneshot, After=slow.service: /usr/local/bin/bp-late
#                 (true under a name of its own)
# The path to late's exec (--to exec:bp-late) must go back through PID 1
# to slow.service's dd and name its reads of slow.bin: their I/O time on
# the path within 5 % of dd's D-sleeps summed from the raw events. The
# ends of slow.service (--to service:slow) and of the file's first event
# (--to file:/data/slow.bin) are where the raw events say. systemd's own
# critical-chain of late.service (chain.service prints it on the console
# once late is done) is printed beside the path.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
. "$TOP/tests/shell/lib-t3.sh"
require_root
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
command -v jq >/dev/null || skip_all "jq not installed"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
boot_systemd_image
boot_build_initramfs /sbin/init || { not_ok "build the initramfs"; exit 0; }

# The planted units, written into a sparse copy of the cached image.
BOOT_DISK=$TEST_DIR/root.img
cp --sparse=always "$SD/root.img" "$BOOT_DISK"
P=$TEST_DIR/plant
mkdir -p "$P"
head -c 4194304 /dev/urandom >"$P/slow.bin"
cat >"$P/slow.service" <<'EOT'
[Unit]
Description=bootprof test: a slow read the boot waits for

[Service]
Type=oneshot
RemainAfterExit=yes
IOReadBandwidthMax=/dev/vda 2M
ExecStart=/bin/dd if=/data/slow.bin of=/dev/null bs=64k

[Install]
WantedBy=multi-user.target
EOT
cat >"$P/late.service" <<'EOT'
[Unit]
Description=bootprof test: the end, after the slow read
After=slow.service
Wants=slow.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/bin/bp-late

[Install]
WantedBy=multi-user.target
EOT
cat >"$P/chain.service" <<'EOT'
[Unit]
Description=bootprof test: systemd's critical chain of late.service
After=late.service

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'systemd-analyze critical-chain --no-pager late.service | sed "s/^/CHAIN-LATE: /" >/dev/console'

[Install]
WantedBy=multi-user.target
EOT
cat >"$P/debugfs.cmd" <<EOT
write $P/slow.bin /data/slow.bin
write $P/slow.service /etc/systemd/system/slow.service
write $P/late.service /etc/systemd/system/late.service
write $P/chain.service /etc/systemd/system/chain.service
write /bin/true /usr/local/bin/bp-late
sif /usr/local/bin/bp-late mode 0100755
symlink /etc/systemd/system/multi-user.target.wants/slow.service /etc/systemd/system/slow.service
symlink /etc/systemd/system/multi-user.target.wants/late.service /etc/systemd/system/late.service
symlink /etc/systemd/system/multi-user.target.wants/chain.service /etc/systemd/system/chain.service
EOT
debugfs -w -f "$P/debugfs.cmd" "$BOOT_DISK" >"$P/debugfs.log" 2>&1
expect "the units are planted in the image copy" \
	"debugfs -R 'ls -l /etc/systemd/system/multi-user.target.wants' '$BOOT_DISK' 2>/dev/null | grep -q late.service &&
	 [ -n \"\$(boot_inode /data/slow.bin)\" ] && [ -n \"\$(boot_inode /usr/local/bin/bp-late)\" ]"

BOOT_OUT=$TEST_DIR/out.img
truncate -s 64M "$BOOT_OUT"
BOOT_MEM=768
words=$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null)
boot_qemu boot 600 "rdinit=/bin/bootprof bootprof.init=/init $words bootprof.until-file=/run/bootprof-stop bootprof.duration=300" \
	-drive "file=$BOOT_DISK,format=raw,if=virtio" \
	-drive "file=$BOOT_OUT,format=raw,if=virtio"
rc=$?
con=$TEST_DIR/boot.console
echo "# systemd booted and powered off in $BOOT_SECONDS s (status $rc)"
expect "the boot runs to bp-done's end" "[ $rc = 0 ] && grep -q 'BP-DONE: done' '$con'"
if ! boot_fetch_recording; then
	not_ok "the recording is saved to /var/log/bootprof"
	grep -E 'bootprof|BP-DONE|Failed' "$con" | sed 's/^/#   /' | tail -n 20
	exit 0
fi
rec=$TEST_DIR/latest.dat
dump=$TEST_DIR/dump.txt
"$BOOTPROF" dump "$rec" >"$dump"
"$BOOTPROF" report --format json --top 0 "$rec" >"$TEST_DIR/report.json"
echo "# $(grep '^# lost events' "$dump" | sed 's/^# //')"
expect "no events lost" "grep -q '^# lost events: 0\$' '$dump'"

# Who is who, from the raw events: slow.service's dd (the adder of
# slow.bin's pages) and late's exec.
ino=$(printf %x "$(boot_inode /data/slow.bin)")
DD=$(boot_adders "$dump" "$ino")
late_at=$(awk '$5 == "sched_process_exec:" && $6 == "filename=/usr/local/bin/bp-late" { print $1; exit }' "$dump")
echo "# slow.bin: inode $ino, read by $DD; bp-late exec'd at $late_at"
expect "slow.service's dd alone read slow.bin, all 4 MiB, and bp-late ran" \
	"[ -n '$DD' ] && [ \"\$(echo '$DD' | wc -l)\" = 1 ] && [ \"\$(boot_bytes_added '$dump' '$ino' '$DD')\" = 4194304 ] &&
	 [ -n '$late_at' ] &&
	 jq -e '.processes[] | select(.pid == ${DD:-0}) | .service | test(\"/slow.service\$\")' '$TEST_DIR/report.json'"
# dd's D-sleeps: from a switch out in D to its next waking.
dsleep=$(awk -v p="$DD" '
	$5 == "sched_switch:" && index($0, "prev_pid=" p " ") && $0 ~ /prev_state=D/ { start = $1; asleep = 1; next }
	asleep && (($5 == "sched_waking:" && index($0, " pid=" p " ")) ||
	           ($5 == "sched_switch:" && index($0, "next_pid=" p " "))) { sum += $1 - start; asleep = 0 }
	END { printf "%.0f\n", sum * 1e9 }' "$dump")
echo "# dd's D-sleep: $dsleep ns"
expect "the unit's read limit held dd: over 1 s in D" "[ '${dsleep:-0}' -gt 1000000000 ]"

"$BOOTPROF" critical --format json --to exec:bp-late "$rec" >"$TEST_DIR/c.json" ||
	{ not_ok "bootprof critical --to exec:bp-late"; exit 0; }
"$BOOTPROF" critical --to exec:bp-late "$rec" >"$TEST_DIR/c.txt"
echo "# bootprof critical --to exec:bp-late (first 25 lines):"
sed -n '1,25p' "$TEST_DIR/c.txt" | sed 's/^/#   /'
echo "# systemd-analyze critical-chain late.service in the guest:"
grep '^CHAIN-LATE: ' "$con" | sed 's/^CHAIN-LATE: /#   /'
expect "the path ends at bp-late's exec ($late_at) and tiles the boot" \
	"t3_critical_tiles '$TEST_DIR/c.json' && [ \"\$(t3_us \"\$(jq .end_ns '$TEST_DIR/c.json')\")\" = '$late_at' ] &&
	 jq -e '.end.what == \"exec\"' '$TEST_DIR/c.json'"
io=$(jq --argjson d "${DD:-0}" '[.segments[] | select(.tid == $d and .state == "io" and .file.path == "/data/slow.bin") | .ns] | add // 0' \
	"$TEST_DIR/c.json")
echo "# dd's I/O on slow.bin on the path: $io ns (its D-sleep $dsleep ns)"
expect "the path goes through slow.service's read of slow.bin" "[ '$io' -gt 0 ]"
expect "its I/O time there is dd's D-sleep, within 5 %" "t3_within '$io' '$dsleep' 5"
expect "slow.bin is the file most on the path" \
	"jq -e '.files[0].path == \"/data/slow.bin\"' '$TEST_DIR/c.json'"
expect "the path goes from late's fork to PID 1, woken by dd" \
	"jq -e --argjson d '${DD:-0}' '[.waits[] | select(.tid == 1 and .waker.tid == \$d)] | length >= 1' '$TEST_DIR/c.json'"

# The other ends, against the raw events.
dd_exit=$(awk -v p="$DD" '$5 == "sched_process_exit:" && index($0, " pid=" p " ") { print $1 }' "$dump" | tail -n 1)
expect "--to service:slow ends at its main process's exit ($dd_exit)" \
	"'$BOOTPROF' critical --format json --to service:slow '$rec' >'$TEST_DIR/s.json' &&
	 t3_critical_tiles '$TEST_DIR/s.json' && [ \"\$(t3_us \"\$(jq .end_ns '$TEST_DIR/s.json')\")\" = '$dd_exit' ] &&
	 jq -e --argjson d '${DD:-0}' '.end.what == \"exit\" and .end.pid == \$d and (.end.on | test(\"/slow.service\$\"))' '$TEST_DIR/s.json'"
first=$(awk -v on="dev[= ]254:0 ino[= ]$ino( |\$)" '$0 ~ on { print $1; exit }' "$dump")
expect "--to file:/data/slow.bin ends at its first event ($first), on dd" \
	"'$BOOTPROF' critical --format json --to file:/data/slow.bin '$rec' >'$TEST_DIR/f.json' &&
	 t3_critical_tiles '$TEST_DIR/f.json' && [ \"\$(t3_us \"\$(jq .end_ns '$TEST_DIR/f.json')\")\" = '$first' ] &&
	 jq -e --argjson d '${DD:-0}' '.end.tid == \$d' '$TEST_DIR/f.json'"
