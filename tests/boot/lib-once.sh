# bootprof boot --once under a real boot loader: the shared part of
# t4580-boot-once-grub.sh and t4581-boot-once-sdboot.sh. Source after
# ../test-lib.sh and lib.sh; then once_boot LOADER and once_checks LOADER.
#
# The disk is scripts/loader-image.sh's (cached, never written: the boots
# go to a copy-on-write overlay). In the guest, over three boots of one
# QEMU run, bp-step.service runs step.sh after multi-user.target:
#   1. a plain boot: 'bootprof boot --once' writes the entry and chooses it
#      for the next boot; reboot;
#   2. the loader boots the entry once (and forgets the choice): bootprof-init
#      records until graphical.target (the image's default target) is
#      reached, saves, and removes its entry; reboot;
#   3. the default entry again: nothing is recorded; poweroff.

# once_boot LOADER: build or reuse the image, boot it three times; the
# console in $TEST_DIR/boot.console, results (the boot log directory and
# the loader's files) in $BOOT_OUT. Exits the test when it cannot run.
once_boot() {
	_loader=$1
	case $_loader in
	grub) _fw= ;;
	systemd-boot)
		for _f in /usr/share/OVMF/OVMF_CODE_4M.fd /usr/share/OVMF/OVMF_VARS_4M.fd; do
			[ -r $_f ] || skip_all "no $_f (ovmf)"
		done
		cp /usr/share/OVMF/OVMF_VARS_4M.fd "$TEST_DIR/vars.fd"
		_fw="-drive if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd -drive if=pflash,format=raw,file=$TEST_DIR/vars.fd"
		;;
	esac
	command -v qemu-img >/dev/null || skip_all "qemu-img not installed"
	SD=$("$TOP/scripts/systemd-image.sh" "$BOOT_CACHE" 2>"$TEST_DIR/.why")
	case $? in
	0) ;;
	3) skip_all "no systemd image: $(cat "$TEST_DIR/.why")" ;;
	*) not_ok "build the systemd image: $(cat "$TEST_DIR/.why")"; exit 0 ;;
	esac
	_t0=$(date +%s)
	IMG=$(KDIR=$KDIR KREL=$KREL "$TOP/scripts/loader-image.sh" $_loader "$SD" "$BOOT_CACHE" 2>"$TEST_DIR/.why")
	case $? in
	0) ;;
	3) skip_all "no $_loader image: $(cat "$TEST_DIR/.why")" ;;
	*) not_ok "build the $_loader image: $(cat "$TEST_DIR/.why")"; exit 0 ;;
	esac
	echo "# $_loader image ready in $(($(date +%s) - _t0)) s: $IMG"
	mkdir -p "$TEST_DIR/steps"
	cp "$BOOT_STATIC" "$TEST_DIR/steps/bootprof"
	once_step_script $_loader >"$TEST_DIR/steps/step.sh"
	tar cf "$TEST_DIR/steps.tar" -C "$TEST_DIR/steps" step.sh bootprof
	qemu-img create -q -f qcow2 -b "$IMG/disk.img" -F raw "$TEST_DIR/disk.qcow2" ||
		{ not_ok "qemu-img create the overlay"; exit 0; }
	BOOT_OUT=$TEST_DIR/out.img
	truncate -s 64M "$BOOT_OUT"
	_start=$(date +%s)
	# shellcheck disable=SC2086
	timeout -k 5 1500 qemu-system-x86_64 -accel tcg -m 768 -smp 2 -nographic -nodefaults \
		-serial stdio -display none $_fw \
		-drive "file=$TEST_DIR/disk.qcow2,format=qcow2,if=virtio" \
		-drive "file=$TEST_DIR/steps.tar,format=raw,if=virtio,readonly=on" \
		-drive "file=$BOOT_OUT,format=raw,if=virtio" </dev/null >"$TEST_DIR/boot.console" 2>&1
	ONCE_RC=$?
	echo "# three boots through $_loader in $(($(date +%s) - _start)) s (qemu status $ONCE_RC)"
	grep -a 'BP-STEP' "$TEST_DIR/boot.console" | tr -d '\r' | sed 's/^.*BP-STEP/# BP-STEP/'
}

# The guest's step.sh for LOADER.
once_step_script() {
	case $1 in
	grub)
		cat <<'EOT'
entries() { grep -c bootprof-once /boot/grub/grub.cfg; }
choice() { grub-editenv /boot/grub/grubenv list | tr '\n' ' '; }
loader_files() { cp /boot/grub/grub.cfg /run/bp-out/loader.txt; }
EOT
		;;
	systemd-boot)
		cat <<'EOT'
entries() { ls /boot/efi/loader/entries/bootprof-once.conf 2>/dev/null | wc -l; }
# The EFI variable: 4 bytes of attributes, then UTF-16LE; through a pipe,
# as efivarfs may give its files a size of 0.
choice() { echo "oneshot=$(cat /sys/firmware/efi/efivars/LoaderEntryOneShot-* 2>/dev/null | tail -c +5 | tr -d '\000')"; }
loader_files() { ls /boot/efi/loader/entries >/run/bp-out/loader.txt; }
EOT
		;;
	esac
	cat <<'EOT'
mkdir -p /var/lib/bp-step /run/bp-out
n=$(($(cat /var/lib/bp-step/n 2>/dev/null || echo 0) + 1))
echo $n >/var/lib/bp-step/n
sync
say() { echo "BP-STEP $n: $*"; }
state() {
	say "cmdline once=$(grep -c 'bootprof.once=1' /proc/cmdline) init=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^init=//p')"
	say "entries: $(entries)"
	say "grub.d script: $(ls /etc/grub.d/42_bootprof 2>/dev/null | wc -l)"
	say "stop unit: $(ls /etc/systemd/system/bootprof-once.service 2>/dev/null | wc -l)"
	say "choice: $(choice)"
	say "recordings: $(ls /var/log/bootprof/boot-*.dat 2>/dev/null | wc -l)"
	say "recorders: $(for p in /proc/[0-9]*; do cat $p/comm 2>/dev/null; done | grep -c '^bootprof-rec')"
}
case $n in
1)
	install -m 755 /run/bp-step/bootprof /usr/local/sbin/bootprof
	ln -sf bootprof /usr/local/sbin/bootprof-init
	# Once, undone, once again.
	bootprof boot --once >/run/once0.out 2>&1
	say "first once: status $? entries=$(entries) choice=$(choice)"
	say "undo: $(bootprof boot --undo 2>&1 | tr '\n' ' ') entries=$(entries) choice=$(choice) unit=$(ls /etc/systemd/system/bootprof-once.service 2>/dev/null | wc -l)"
	bootprof boot --once >/run/once.out 2>&1
	say "boot --once: status $? $(tr '\n' ' ' </run/once.out)"
	bootprof boot --status | sed "s/^/BP-STEP $n: status: /"
	state
	say "reboot"
	systemctl reboot
	;;
2)
	i=0
	while bootprof boot --status | grep -q 'entry bootprof-once' && [ $i -lt 600 ]; do
		sleep 0.5
		i=$((i + 1))
	done
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
	loader_files
	tar cf /dev/vdc -C /var/log bootprof -C /run/bp-out loader.txt && say "saved"
	sync
	say "done"
	systemctl poweroff -ff
	;;
esac
EOT
}

# once_checks LOADER: the three boots and the recording.
once_checks() {
	_con=$TEST_DIR/boot.console
	step() { grep -a "BP-STEP $1: $2" "$_con" | head -n 1 | tr -d '\r' | sed "s/^.*BP-STEP $1: $2//"; }
	expect "the three boots run to the end" "[ $ONCE_RC = 0 ] && grep -aq 'BP-STEP 3: done' '$_con'"
	expect "boot 1: --undo removes an entry that was chosen, and the choice" \
		"step 1 'first once: status ' | grep -Eq '^0 entries=[1-9].*bootprof-once' &&
		 step 1 'undo: ' | grep -Eq '^removed .* entries=0 choice=(oneshot=)? *unit=0\$'"
	expect "boot 1: boot --once succeeds" "step 1 'boot --once: status ' | grep -q '^0 '"
	expect "boot 1: the entry is there and chosen for the next boot" \
		"[ \"\$(step 1 'entries: ')\" -ge 1 ] && step 1 'choice: ' | grep -Eq '(next_entry|oneshot)=bootprof-once'"
	expect "boot 1: --status says the next boot is recorded" \
		"grep -aq 'BP-STEP 1: status: the next boot is recorded, once' '$_con'"
	expect "boot 1 is not recorded" "[ \"\$(step 1 'cmdline once=')\" = '0 init=' ]"
	expect "boot 2 is the entry's: bootprof.once=1, init=bootprof-init" \
		"[ \"\$(step 2 'cmdline once=')\" = '1 init=/usr/local/sbin/bootprof-init' ]"
	expect "boot 2: the loader forgot its one-time choice" "! step 2 'choice: ' | grep -q bootprof-once"
	expect "boot 2: the recorder saved, then removed the entry and the stop unit" \
		"[ \"\$(step 2 'recordings: ')\" = 1 ] && [ \"\$(step 2 'entries: ')\" = 0 ] &&
		 [ \"\$(step 2 'grub.d script: ')\" = 0 ] && [ \"\$(step 2 'stop unit: ')\" = 0 ] &&
		 grep -aq 'BP-STEP 2: kmsg: .*removed the .* entry bootprof-once' '$_con'"
	expect "boot 3: the default entry, nothing recorded, no recorder" \
		"[ \"\$(step 3 'cmdline once=')\" = '0 init=' ] && [ \"\$(step 3 'recordings: ')\" = 1 ] &&
		 [ \"\$(step 3 'recorders: ')\" = 0 ] && [ \"\$(step 3 'entries: ')\" = 0 ]"
	if ! boot_fetch_recording; then
		not_ok "the recording is in /var/log/bootprof"
		return
	fi
	_rec=$TEST_DIR/latest.dat
	"$BOOTPROF" dump "$_rec" >"$TEST_DIR/dump.txt"
	echo "# the recording: $(grep -c . "$TEST_DIR/dump.txt") events, $(grep '^# lost events' "$TEST_DIR/dump.txt" | sed 's/^# //')"
	expect "the recording holds the boot: initcalls and the exec of systemd" \
		"grep -q 'initcall_finish:' '$TEST_DIR/dump.txt' && grep -q 'sched_process_exec: filename=/sbin/init' '$TEST_DIR/dump.txt'"
	expect "the recording stopped at graphical.target (the stop file), not the duration" \
		"grep -aq 'BP-STEP 2: kmsg: .*stopped: file /run/bootprof-once.stop appeared' '$_con'"
	case $1 in
	grub)
		expect "grub.cfg at the end: the Debian entry, no bootprof section" \
			"grep -q \"menuentry 'Debian GNU/Linux\" '$TEST_DIR/out/loader.txt' && ! grep -q bootprof '$TEST_DIR/out/loader.txt'"
		;;
	systemd-boot)
		expect "the loader entries at the end: debian.conf only" \
			"[ \"\$(cat '$TEST_DIR/out/loader.txt')\" = debian.conf ]"
		;;
	esac
	echo "# the boot's report header:"
	"$BOOTPROF" report --top 3 "$_rec" 2>&1 | grep -v "^    " | head -n 24 | sed "s/^/#   /"
}
