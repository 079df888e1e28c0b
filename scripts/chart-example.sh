#!/bin/sh
# examples/chart.svg, the README's picture: the chart of a real systemd
# boot. Debian bookworm (the image of tests/boot/t4550, built once by
# scripts/systemd-image.sh) on the 6.12 kernel under QEMU, recorded by
# bootprof as rdinit; the image's bp-done.service stops the recording once
# the boot has finished. The recording is kept in the boot cache
# (tests/boot/cache/chart-example.dat), so a later run only charts it
# again; BOOT=1 boots anew.
#
# Usage: scripts/chart-example.sh        (as root; QEMU, about 2 minutes a boot)
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/boot/lib.sh"
REC=$BOOT_CACHE/chart-example.dat
say() { echo "chart-example: $*" >&2; }
fail() {
	say "$*"
	exit 1
}

if [ ! -s "$REC" ] || [ -n "$BOOT" ]; then
	TEST_DIR=$(mktemp -d /var/tmp/bootprof-chart-example.XXXXXX)
	trap 'rm -rf "$TEST_DIR"' EXIT
	why=$(boot_require_tools) || fail "$why"
	boot_kernel 6.12 || fail "cannot get the 6.12 kernel"
	SD=$("$TOP/scripts/systemd-image.sh" "$BOOT_CACHE") || fail "no systemd image"
	boot_build_initramfs /sbin/init || fail "cannot build the initramfs"
	BOOT_DISK=$SD/root.img
	BOOT_OUT=$TEST_DIR/out.img
	BOOT_MEM=768
	truncate -s 64M "$BOOT_OUT"
	words=$("$BOOT_STATIC" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null)
	say "booting $SD with bootprof as rdinit"
	boot_qemu boot 600 "rdinit=/bin/bootprof bootprof.init=/init $words bootprof.until-file=/run/bootprof-stop bootprof.duration=300" \
		-drive "file=$BOOT_DISK,format=raw,if=virtio,snapshot=on" \
		-drive "file=$BOOT_OUT,format=raw,if=virtio" ||
		{ tail -n 20 "$TEST_DIR/boot.console" >&2; fail "the boot did not finish"; }
	boot_fetch_recording || fail "the boot saved no recording"
	cp "$TEST_DIR/latest.dat" "$REC"
	say "booted in $BOOT_SECONDS s; recording $(stat -c %s "$REC") bytes in $REC"
fi
"${BOOTPROF:-$TOP/bootprof}" chart "$REC" -o - |
	sed "s|$REC|systemd-boot.dat|" >"$TOP/examples/chart.svg"
ls -l "$TOP/examples/chart.svg"
