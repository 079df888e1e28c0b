#!/bin/sh
# bootprof boot --once on a GRUB machine: Debian bookworm (the systemd
# image of t4550) on an MBR disk with GRUB for BIOS, booted by SeaBIOS
# under QEMU (TCG), no -kernel: GRUB loads the kernel (scripts/grub-image.sh,
# cached). In the guest, over three boots of one QEMU run:
#   1. a plain boot: 'bootprof boot --once' writes /etc/grub.d/42_bootprof,
#      runs update-grub and grub-reboot; then reboot;
#   2. GRUB boots the entry once (next_entry cleared): bootprof-init records
#      until graphical.target (the image's default target) is reached,
#      saves, and removes its entry; then reboot;
#   3. GRUB's default entry again: nothing is recorded.
# Checked: one recording, of boot 2, whole and stopped by the target; the
# entry in grub.cfg at boot 2 only, gone from grub.cfg and /etc/grub.d
# after; next_entry cleared by GRUB; boot 3's command line without the
# words and no recorder running.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
command -v qemu-img >/dev/null || skip_all "qemu-img not installed"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
SD=$("$TOP/scripts/systemd-image.sh" "$BOOT_CACHE" 2>"$TEST_DIR/.why")
case $? in
0) ;;
3) skip_all "no systemd image: $(cat "$TEST_DIR/.why")" ;;
*) not_ok "build the systemd image: $(cat "$TEST_DIR/.why")"; exit 0 ;;
esac
t0=$(date +%s)
GI=$(KDIR=$KDIR KREL=$KREL "$TOP/scripts/grub-image.sh" "$SD" "$BOOT_CACHE" 2>"$TEST_DIR/.why")
case $? in
0) ;;
3) skip_all "no GRUB image: $(cat "$TEST_DIR/.why")" ;;
*) not_ok "build the GRUB image: $(cat "$TEST_DIR/.why")"; exit 0 ;;
esac
echo "# GRUB image ready in $(($(date +%s) - t0)) s: $GI"

# The guest's step for each boot (bp-step.service, after multi-user.target).
steps=$TEST_DIR/steps
mkdir -p "$steps"
cp "$BOOT_STATIC" "$steps/bootprof"
cat >"$steps/step.sh" <<'EOT'
#!/bin/sh
mkdir -p /var/lib/bp-step
n=$(($(cat /var/lib/bp-step/n 2>/dev/null || echo 0) + 1))
echo $n >/var/lib/bp-step/n
sync
say() { echo "BP-STEP $n: $*"; }
cfg=/boot/grub/grub.cfg
state() {
	say "cmdline once=$(grep -c 'bootprof.once=1' /proc/cmdline) init=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^init=//p')"
	say "entries in grub.cfg: $(grep -c 'bootprof-once' $cfg)"
	say "grub.d script: $(ls /etc/grub.d/42_bootprof 2>/dev/null | wc -l)"
	say "stop unit: $(ls /etc/systemd/system/bootprof-once.service 2>/dev/null | wc -l)"
	say "grubenv: $(grub-editenv /boot/grub/grubenv list | tr '\n' ' ')"
	say "recordings: $(ls /var/log/bootprof/boot-*.dat 2>/dev/null | wc -l)"
	say "recorders: $(for p in /proc/[0-9]*; do cat $p/comm 2>/dev/null; done | grep -c '^bootprof-rec')"
}
case $n in
1)
	install -m 755 /run/bp-step/bootprof /usr/local/sbin/bootprof
	ln -sf bootprof /usr/local/sbin/bootprof-init
	bootprof boot --once >/run/once.out 2>&1
	say "boot --once: status $? $(tr '\n' ' ' </run/once.out)"
	bootprof boot --status | sed "s/^/BP-STEP $n: status: /"
	state
	say "reboot"
	systemctl reboot
	;;
2)
	i=0
	while [ -e /etc/grub.d/42_bootprof ] && [ $i -lt 600 ]; do sleep 0.5; i=$((i + 1)); done
	say "entry removed after $((i / 2)) s"
	dmesg | grep 'bootprof: ' | sed "s/^/BP-STEP $n: kmsg: /"
	bootprof boot --status | sed "s/^/BP-STEP $n: status: /"
	state
	say "reboot"
	systemctl reboot
	;;
*)
	sleep 5
	state
	tar cf /dev/vdc -C /var/log bootprof -C /boot/grub grub.cfg && say "saved"
	sync
	say "done"
	systemctl poweroff -ff
	;;
esac
EOT
tar cf "$TEST_DIR/steps.tar" -C "$steps" step.sh bootprof
# The cached disk is never written: boots go to a copy-on-write overlay.
qemu-img create -q -f qcow2 -b "$GI/disk.img" -F raw "$TEST_DIR/disk.qcow2" ||
	{ not_ok "qemu-img create the overlay"; exit 0; }
BOOT_OUT=$TEST_DIR/out.img
truncate -s 64M "$BOOT_OUT"
con=$TEST_DIR/boot.console
start=$(date +%s)
timeout -k 5 1500 qemu-system-x86_64 -accel tcg -m 768 -smp 2 -nographic -nodefaults \
	-serial stdio -display none \
	-drive "file=$TEST_DIR/disk.qcow2,format=qcow2,if=virtio" \
	-drive "file=$TEST_DIR/steps.tar,format=raw,if=virtio,readonly=on" \
	-drive "file=$BOOT_OUT,format=raw,if=virtio" </dev/null >"$con" 2>&1
rc=$?
echo "# three boots through GRUB in $(($(date +%s) - start)) s (qemu status $rc)"
grep -a 'BP-STEP' "$con" | sed 's/^.*BP-STEP/# BP-STEP/'
expect "the three boots run to the end" "[ $rc = 0 ] && grep -aq 'BP-STEP 3: done' '$con'"
step() { grep -a "BP-STEP $1: $2" "$con" | head -n 1 | tr -d '\r' | sed "s/^.*BP-STEP $1: $2//"; }
expect "boot 1: boot --once succeeds" "step 1 'boot --once: status ' | grep -q '^0 '"
expect "boot 1: the entry is in grub.cfg and grub-reboot chose it" \
	"[ \"\$(step 1 'entries in grub.cfg: ')\" -ge 1 ] && step 1 'grubenv: ' | grep -q 'next_entry=bootprof-once'"
expect "boot 1: --status says the next boot is recorded" \
	"grep -aq 'BP-STEP 1: status: the next boot is recorded, once' '$con'"
expect "boot 1 is not recorded" "[ \"\$(step 1 'cmdline once=')\" = '0 init=' ]"
expect "boot 2 is the entry's: bootprof.once=1, init=bootprof-init" \
	"[ \"\$(step 2 'cmdline once=')\" = '1 init=/usr/local/sbin/bootprof-init' ]"
expect "boot 2: GRUB cleared next_entry" "! step 2 'grubenv: ' | grep -q next_entry=bootprof"
expect "boot 2: the recorder saved, then removed the entry (grub.d script, grub.cfg, stop unit)" \
	"[ \"\$(step 2 'recordings: ')\" = 1 ] && [ \"\$(step 2 'entries in grub.cfg: ')\" = 0 ] &&
	 [ \"\$(step 2 'grub.d script: ')\" = 0 ] && [ \"\$(step 2 'stop unit: ')\" = 0 ] &&
	 grep -aq 'BP-STEP 2: kmsg: .*removed the GRUB entry bootprof-once' '$con'"
expect "boot 3: the default entry, nothing recorded, no recorder" \
	"[ \"\$(step 3 'cmdline once=')\" = '0 init=' ] && [ \"\$(step 3 'recordings: ')\" = 1 ] &&
	 [ \"\$(step 3 'recorders: ')\" = 0 ] && [ \"\$(step 3 'entries in grub.cfg: ')\" = 0 ]"

if ! boot_fetch_recording; then
	not_ok "the recording is in /var/log/bootprof"
	exit 0
fi
rec=$TEST_DIR/latest.dat
"$BOOTPROF" dump "$rec" >"$TEST_DIR/dump.txt"
"$BOOTPROF" report --format json --top 0 "$rec" >"$TEST_DIR/report.json"
stop=$(jq -r '.recording.stop_reason // empty' "$TEST_DIR/report.json" 2>/dev/null)
echo "# the recording: $(grep -c . "$TEST_DIR/dump.txt") events, $(grep '^# lost events' "$TEST_DIR/dump.txt" | sed 's/^# //'); stopped: $stop"
expect "the recording holds the boot: initcalls and the exec of systemd" \
	"grep -q 'initcall_finish:' '$TEST_DIR/dump.txt' && grep -q 'sched_process_exec: filename=/sbin/init\\|filename=/lib/systemd/systemd' '$TEST_DIR/dump.txt'"
expect "the recording stopped at graphical.target (the stop file), not the duration" \
	"grep -aq 'BP-STEP 2: kmsg: .*stopped: .*bootprof-once.stop' '$con'"
expect "grub.cfg at the end: the Debian entry, no bootprof section" \
	"grep -q \"menuentry 'Debian GNU/Linux\" '$TEST_DIR/out/grub.cfg' && ! grep -q bootprof '$TEST_DIR/out/grub.cfg'"
echo "# the boot's report header:"
"$BOOTPROF" report --top 3 "$rec" 2>&1 | head -n 12 | sed 's/^/#   /'
