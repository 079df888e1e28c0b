#!/bin/sh
# Record one boot of an Android device (userdebug or eng build) with
# bootprof, and pull the recording.
#
#   android-record.sh cmdline BOOT.IMG [OUT.dat]
#       No init change: reboot once into BOOT.IMG (the device's own boot
#       image) with the words of 'bootprof cmdline' added to the kernel
#       command line ('fastboot boot --cmdline': nothing is flashed), then
#       adb root, wait for sys.boot_completed=1, push the static arm64
#       bootprof, mark the instant, 'bootprof collect', adb pull.
#   android-record.sh remount [OUT.dat]
#       From early-init: adb remount, install the static bootprof and
#       android-init.rc in /system, reboot, wait until the recorder has
#       saved /data/misc/bootprof/boot.dat, adb pull. The kernel command
#       line must carry the words (BOARD_KERNEL_CMDLINE or bootconfig).
#   android-record.sh undo
#       Remove what 'remount' installed.
#
# Environment: BOOTPROF (this machine's bootprof, for cmdline and report;
# default: bootprof), BOOTPROF_ARM64 (the static arm64 build, make static
# ARCH=arm64; default build-static-arm64/bootprof), ADB, FASTBOOT, SERIAL
# (adb -s), BUFFER_KB (per-CPU boot buffer, default 16384), WAIT (seconds
# to wait for the boot, default 300).
set -e
here=$(cd "$(dirname "$0")" && pwd)
BOOTPROF=${BOOTPROF:-bootprof}
BOOTPROF_ARM64=${BOOTPROF_ARM64:-build-static-arm64/bootprof}
ADB=${ADB:-adb}
FASTBOOT=${FASTBOOT:-fastboot}
BUFFER_KB=${BUFFER_KB:-16384}
WAIT=${WAIT:-300}
MARK="bootprof: sys.boot_completed=1"

die() {
	echo "android-record: $*" >&2
	exit 1
}
usage() {
	sed -n 's/^#   \(android-record.sh .*\)/usage: \1/p' "$0" >&2
	exit 2
}
adb_() { "$ADB" ${SERIAL:+-s "$SERIAL"} "$@"; }
# A shell command's output on the device, without adb's carriage returns.
sh_() { adb_ shell "$@" | tr -d '\r'; }
need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found (set $2)"; }

# Wait until sys.boot_completed is 1, or die after WAIT seconds.
wait_boot() {
	adb_ wait-for-device
	i=0
	until [ "$(sh_ getprop sys.boot_completed)" = 1 ]; do
		i=$((i + 1))
		[ $i -le "$WAIT" ] || die "sys.boot_completed not 1 after $WAIT s"
		sleep 1
	done
}

root() {
	adb_ root >/dev/null
	adb_ wait-for-device
	[ "$(sh_ id -u)" = 0 ] || die "adb root refused: a userdebug or eng build is needed"
}

# The device's kernel release, for the words.
words() {
	kver=$(sh_ uname -r)
	[ -n "$kver" ] || die "cannot read the device's kernel release"
	"$BOOTPROF" cmdline --kernel "$kver" --arch "$(sh_ uname -m)" --buffer-size "$BUFFER_KB"
}

pull() {
	adb_ pull "$1" "$2" >/dev/null || die "adb pull $1 failed"
	echo "android-record: $2"
	"$BOOTPROF" report --plugin android "$2"
}

cmd=$1
[ -n "$cmd" ] || usage
shift
case "$cmd" in
cmdline)
	[ -n "$1" ] || usage
	[ -r "$1" ] || die "cannot read '$1'"
	img=$1 out=${2:-android-boot.dat}
	need "$ADB" ADB
	need "$FASTBOOT" FASTBOOT
	need "$BOOTPROF" BOOTPROF
	[ -x "$BOOTPROF_ARM64" ] || die "no static arm64 bootprof at '$BOOTPROF_ARM64' (make static ARCH=arm64)"
	w=$(words)
	adb_ reboot bootloader
	"$FASTBOOT" ${SERIAL:+-s "$SERIAL"} boot --cmdline "$w" "$img" ||
		die "fastboot boot failed (a locked bootloader refuses it)"
	wait_boot
	root
	# The instance exists only if the kernel took the words.
	inst=/sys/kernel/tracing/instances/bootprof
	[ "$(sh_ "[ -d $inst ] && echo yes")" = yes ] || inst=/sys/kernel/tracing
	sh_ "echo '$MARK' >$inst/trace_marker"
	adb_ push "$BOOTPROF_ARM64" /data/local/tmp/bootprof >/dev/null
	sh_ "/data/local/tmp/bootprof collect --force -o /data/local/tmp/boot.dat" ||
		die "bootprof collect failed on the device"
	pull /data/local/tmp/boot.dat "$out"
	sh_ rm -f /data/local/tmp/boot.dat /data/local/tmp/bootprof
	;;
remount)
	out=${1:-android-boot.dat}
	need "$ADB" ADB
	need "$BOOTPROF" BOOTPROF
	[ -x "$BOOTPROF_ARM64" ] || die "no static arm64 bootprof at '$BOOTPROF_ARM64' (make static ARCH=arm64)"
	root
	adb_ remount >/dev/null 2>&1 ||
		die "adb remount failed: run 'adb disable-verity', reboot, and try again"
	adb_ push "$BOOTPROF_ARM64" /system/bin/bootprof >/dev/null
	adb_ push "$here/android-init.rc" /system/etc/init/bootprof.rc >/dev/null
	sh_ "chmod 755 /system/bin/bootprof; chmod 644 /system/etc/init/bootprof.rc; rm -f /data/misc/bootprof/boot.dat"
	adb_ reboot
	wait_boot
	root
	i=0
	until [ "$(sh_ "[ -s /data/misc/bootprof/boot.dat ] && echo yes")" = yes ]; do
		i=$((i + 1))
		[ $i -le "$WAIT" ] || die "no /data/misc/bootprof/boot.dat after $WAIT s (dmesg | grep bootprof)"
		sleep 1
	done
	pull /data/misc/bootprof/boot.dat "$out"
	echo "android-record: to remove the recorder: $0 undo"
	;;
undo)
	need "$ADB" ADB
	root
	adb_ remount >/dev/null 2>&1 || die "adb remount failed"
	sh_ "rm -f /system/bin/bootprof /system/etc/init/bootprof.rc"
	echo "android-record: removed; reboot to run without it"
	;;
*) usage ;;
esac
