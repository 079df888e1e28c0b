#!/bin/sh
# Phases of a real boot (Debian's 6.1 kernel under QEMU, bootprof as rdinit,
# an initramfs that switch_roots to the disk): kernel ends at PID 1's exec
# of bootprof, initramfs at PID 1's exec of the real root's init (not at
# bootprof handing over to /init, nor at the exec of switch_root), a
# user-defined phase at the exec of stop-marker; the times are those of
# the exec events in `bootprof dump`.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
boot_kernel 6.1 2>"$TEST_DIR/.why" || skip_all "no 6.1 kernel: $(cat "$TEST_DIR/.why")"
boot_build_initramfs || { not_ok "build the initramfs"; exit 0; }
boot_build_disk || { not_ok "build the disk image"; exit 0; }
words=$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null)
boot_scenario boot 240 "$words bootprof.until-exec=stop-marker"
rc=$?
echo "# $KREL booted in $BOOT_SECONDS s (status $rc)"
boot_fetch_recording || { not_ok "the boot saved a recording"; exit 0; }
dump=$TEST_DIR/dump.txt
"$BOOTPROF" dump --events sched:sched_process_exec "$TEST_DIR/latest.dat" >"$dump"
t_kernel=$(boot_exec_ts "$dump" /bin/bootprof)
t_init=$(boot_exec_ts "$dump" /init)
# busybox runs its switch_root applet as /proc/self/exe
t_switch=$(boot_exec_ts "$dump" /proc/self/exe)
t_root=$(boot_exec_ts "$dump" /sbin/test-init)
t_marker=$(awk '$6 == "filename=/bin/stop-marker" { print $1; exit }' "$dump")
awk '$3 == 1 { print "# PID 1: " $0 }' "$dump"
echo "# PID 1 exec'd bootprof $t_kernel, /init $t_init, switch_root $t_switch, test-init $t_root; stop-marker $t_marker"
"$BOOTPROF" report --format json --phase marker=exec:stop-marker "$TEST_DIR/latest.dat" \
	>"$TEST_DIR/r.json"
jq -c '.phases[]' "$TEST_DIR/r.json" | sed 's/^/# /'
# phase NAME FIELD: its value in microseconds (the dump's resolution).
phase() {
	jq ".phases[] | select(.name == \"$1\") | .$2 / 1000 | floor" "$TEST_DIR/r.json"
}
us() { awk -v t="$1" 'BEGIN { printf "%.0f\n", t * 1000000 }'; }
expect "kernel: 0 .. PID 1's exec of bootprof ($t_kernel)" \
	"[ -n '$t_kernel' ] && [ \"\$(phase kernel start_ns)\" = 0 ] && [ \"\$(phase kernel end_ns)\" = \$(us '$t_kernel') ]"
expect "initramfs: .. PID 1's exec of the real root's init ($t_root), not /init or switch_root" \
	"[ -n '$t_root' ] && [ -n '$t_switch' ] && [ \"\$(phase initramfs start_ns)\" = \$(us '$t_kernel') ] &&
	 [ \"\$(phase initramfs end_ns)\" = \$(us '$t_root') ]"
expect 'userspace: from the switch to the recording stop' \
	"[ \"\$(phase userspace start_ns)\" = \$(us '$t_root') ] &&
	 [ \"\$(phase userspace end_ns)\" -ge \"\$(phase marker end_ns)\" ]"
expect "marker: from the switch to the exec of stop-marker ($t_marker)" \
	"[ -n '$t_marker' ] && [ \"\$(phase marker start_ns)\" = \$(us '$t_root') ] &&
	 [ \"\$(phase marker end_ns)\" = \$(us '$t_marker') ]"
expect 'the phases read what the boot read: the userspace phase has the /data reads' \
	"[ \"\$(jq '.phases[] | select(.name == \"userspace\") | .read_bytes' '$TEST_DIR/r.json')\" -ge $((12288 + 1048576)) ]"
printf 'phase kernel 600s\nphase initramfs 600s\nphase marker=exec:stop-marker 600s\nphase userspace 1ms\n' >"$TEST_DIR/b.budget"
"$BOOTPROF" check --budget "$TEST_DIR/b.budget" "$TEST_DIR/latest.dat" >"$TEST_DIR/check.txt"
rc=$?
expect "check: the boot's phases against a budget: 3 within, userspace over (exit $rc)" \
	"[ $rc = 1 ] && [ \$(grep -c '^ok ' '$TEST_DIR/check.txt') = 3 ] && grep -q '^FAIL  phase userspace 1ms' '$TEST_DIR/check.txt'"
