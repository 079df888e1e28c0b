#!/bin/sh
# bootprof boot --once on a systemd-boot machine: Debian bookworm (the
# systemd image of t4550) on a GPT disk with an EFI system partition
# (systemd-boot, one loader entry), booted by OVMF under QEMU (TCG). Three
# boots (tests/boot/lib-once.sh): boot --once writes
# loader/entries/bootprof-once.conf from the entry booted now and runs
# bootctl set-oneshot; the next boot is recorded and its recorder removes
# the entry; the boot after is the default one.
# Checked as t4580: one recording, of boot 2; the one-shot EFI variable
# consumed by systemd-boot; the entry file gone; boot 3 plain.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
. "$TOP/tests/boot/lib-once.sh"
require_root
# Opt-in until understood: in one full run of three, boot 2 took the
# default entry (the one-shot EFI variable set by bootctl was not seen by
# systemd-boot under OVMF) and the guest's step then waited out the QEMU
# timeout (25 min). t4580 (GRUB) runs by default.
[ "${BOOTPROF_TEST_SDBOOT:-0}" = 1 ] ||
	skip_all "systemd-boot's one-shot is flaky under OVMF here; BOOTPROF_TEST_SDBOOT=1 runs it"
boot_require_tools >"$TEST_DIR/.why" || skip_all "$(cat "$TEST_DIR/.why")"
boot_kernel 6.12 2>"$TEST_DIR/.why" || skip_all "no 6.12 kernel: $(cat "$TEST_DIR/.why")"
once_boot systemd-boot
once_checks systemd-boot
