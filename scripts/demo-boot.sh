#!/bin/sh
# Boot a real kernel under QEMU with bootprof as PID 1 and print the boot's
# report: Debian's bookworm-backports 6.12 kernel (or KERNEL=6.1), a busybox
# initramfs and a virtio ext4 root disk whose init reads files, execs
# programs and mmaps an archive (the scenario of tests/boot/).
#
# Usage: scripts/demo-boot.sh [REPORT-OPTIONS...]     (as root; needs network once)
#   KERNEL=6.1|6.12   which kernel (default 6.12)
#   KEEP=DIR          keep the images, console log and recording in DIR
#   CHART=FILE        where to write the boot's chart (default: demo-boot.svg at the top)
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
KERNEL=${KERNEL:-6.12}
if [ -n "$KEEP" ]; then
	TEST_DIR=$KEEP
	mkdir -p "$TEST_DIR"
else
	TEST_DIR=$(mktemp -d /var/tmp/bootprof-demo-boot.XXXXXX)
	trap 'rm -rf "$TEST_DIR"' EXIT
fi
. "$TOP/tests/boot/lib.sh"
say() { echo "demo-boot: $*" >&2; }
fail() {
	say "$*"
	exit 1
}

why=$(boot_require_tools) || fail "$why"
boot_kernel "$KERNEL" || fail "cannot get the $KERNEL kernel"
say "kernel $KREL; building the initramfs and the root disk"
boot_build_initramfs || fail "cannot build the initramfs"
boot_build_disk || fail "cannot build the root disk"
words=$("$TOP/build-static/bootprof" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null)
say "booting with: rdinit=/bin/bootprof bootprof.init=/init bootprof.until-file=/run/test-done $words"
if ! boot_scenario boot 240 "$words bootprof.until-file=/run/test-done"; then
	tail -n 20 "$TEST_DIR/boot.console" >&2
	fail "the boot did not finish (console: $TEST_DIR/boot.console)"
fi
grep -E 'bootprof:' "$TEST_DIR/boot.console" | sed 's/^/  /' >&2
boot_fetch_recording || fail "the boot saved no recording"
say "booted in $BOOT_SECONDS s; recording $(stat -c %s "$TEST_DIR/latest.dat") bytes"
echo
"$TOP/build-static/bootprof" report "$@" "$TEST_DIR/latest.dat"
# The boot's chart next to the report, kept after the demo.
chart=${CHART:-$TOP/demo-boot.svg}
if "$TOP/build/bootprof" chart --force "$TEST_DIR/latest.dat" -o "$chart"; then
	echo
	echo "chart of this boot: $chart"
fi
