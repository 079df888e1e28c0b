#!/bin/sh
# bootprof boot --once on a GRUB machine: Debian bookworm (the systemd
# image of t4550) on an MBR disk with GRUB for BIOS, booted by SeaBIOS
# under QEMU (TCG), no -kernel: GRUB loads the kernel. Three boots
# (tests/boot/lib-once.sh): boot --once writes /etc/grub.d/42_bootprof,
# update-grub and grub-reboot run in the guest; the next boot is recorded
# and its recorder removes the entry; the boot after is the default one.
# Checked: one recording, of boot 2, whole and stopped by the target; the
# entry in grub.cfg at boot 2 only; next_entry cleared by GRUB; boot 3's
# command line without the words and no recorder running.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
. "$TOP/tests/boot/lib-once.sh"
require_root
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
once_boot grub
once_checks grub
