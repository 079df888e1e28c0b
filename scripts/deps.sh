#!/bin/sh
# Install the Debian packages a make target needs. As root: apt-get them.
# Otherwise: print the exact command and fail, so nothing half-builds.
# Usage: scripts/deps.sh build|check|demo|fuzz|arm64|i386
# arm64: the cross toolchain, the arm64 libraries (multiarch: the arm64
# architecture is added to dpkg first), qemu-system-aarch64 for the arm64
# boot test and qemu-aarch64 (user mode) for running the arm64 binary. Not
# busybox-static:arm64: it would replace the host's busybox-static; the boot
# test downloads it into its cache instead. i386: the same for the 32-bit
# build that recorded tests/fixtures/i386-boot.dat.
set -e
build="gcc make pkg-config libtracefs-dev libtraceevent-dev libncurses-dev libzstd-dev libsqlite3-dev"
arm64="gcc-aarch64-linux-gnu libc6-dev-arm64-cross libtracefs-dev:arm64 libtraceevent-dev:arm64 libncurses-dev:arm64 libzstd-dev:arm64 libsqlite3-dev:arm64 zlib1g-dev:arm64 qemu-system-arm qemu-user-static"
i386="gcc-i686-linux-gnu libc6-dev-i386-cross libtracefs-dev:i386 libtraceevent-dev:i386 libncurses-dev:i386 libzstd-dev:i386 libsqlite3-dev:i386 zlib1g-dev:i386"
check="$build shellcheck debootstrap sqlite3 clang-14 libclang-rt-14-dev libcmocka-dev jq trace-cmd e2fsprogs cpio xz-utils busybox-static qemu-system-x86 tmux mandoc bash-completion zsh linux-perf time python3 man-db chromium libxml2-utils python3-fusepy fuse3"
# The critical path on a stacked device (t3037: a device-mapper linear device on a loop device).
check="$check dmsetup"
# The one-shot boot tests (GRUB for BIOS, systemd-boot under OVMF) and the fleet path in ClickHouse.
check="$check grub-pc-bin grub2-common fdisk qemu-utils ovmf systemd-boot-efi dosfstools mtools clickhouse-server clickhouse-client"
demo="$build e2fsprogs cpio xz-utils busybox-static qemu-system-x86"
fuzz="$build clang-14 libclang-rt-14-dev"
case "$1" in
build) want=$build ;;
check) want=$check ;;
demo) want=$demo ;;
fuzz) want=$fuzz ;;
arm64) want=$arm64 ;;
i386) want=$i386 ;;
*) echo "usage: scripts/deps.sh build|check|demo|fuzz|arm64|i386" >&2; exit 2 ;;
esac

# install_missing PACKAGES...: the missing ones, or the command to run, or fail.
install_missing() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "bootprof: missing packages; run: sudo apt-get install -y$missing" >&2
		return 1
	fi
	echo "installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	# An :arm64 or :i386 package needs the architecture known to dpkg and its
	# lists. --no-remove: a foreign package must never replace one of the host's.
	for a in arm64 i386; do
		case "$missing" in
		*:$a*)
			if ! dpkg --print-foreign-architectures | grep -qx $a; then
				dpkg --add-architecture $a
				apt-get update -q >/dev/null 2>&1
			fi
			;;
		esac
	done
	apt-get install --no-remove -y -q $missing >/dev/null 2>&1 || {
		apt-get update -q >/dev/null 2>&1
		apt-get install --no-remove -y -q $missing >/dev/null
	}
}

install_missing $want
# The arm64 tests' packages, for check: where they cannot be had (a mirror
# without arm64, a host package they would replace), those tests say
# skipped and the rest of the check runs.
if [ "$1" = check ] && ! install_missing $arm64; then
	echo "bootprof: warning: the arm64 packages could not be installed; the arm64 tests will be skipped" >&2
fi
