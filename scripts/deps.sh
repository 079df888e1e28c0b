#!/bin/sh
# Install the Debian packages a make target needs. As root: apt-get them.
# Otherwise: print the exact command and fail, so nothing half-builds.
# Usage: scripts/deps.sh build|check|demo|fuzz
set -e
build="gcc make pkg-config libtracefs-dev libtraceevent-dev libncurses-dev libzstd-dev libsqlite3-dev"
check="$build debootstrap sqlite3 clang-14 libclang-rt-14-dev libcmocka-dev jq trace-cmd e2fsprogs cpio xz-utils busybox-static qemu-system-x86 tmux mandoc bash-completion zsh linux-perf time python3 man-db chromium libxml2-utils python3-fusepy fuse3"
# The one-shot boot tests (GRUB for BIOS, systemd-boot under OVMF) and the fleet path in ClickHouse.
check="$check grub-pc-bin grub2-common fdisk qemu-utils ovmf systemd-boot-efi dosfstools mtools clickhouse-server clickhouse-client"
demo="$build e2fsprogs cpio xz-utils busybox-static qemu-system-x86"
fuzz="$build clang-14 libclang-rt-14-dev"
case "$1" in
build) want=$build ;;
check) want=$check ;;
demo) want=$demo ;;
fuzz) want=$fuzz ;;
*) echo "usage: scripts/deps.sh build|check|demo|fuzz" >&2; exit 2 ;;
esac
missing=
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "bootprof: missing packages; run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q $missing >/dev/null 2>&1 || {
	apt-get update -q >/dev/null 2>&1
	apt-get install -y -q $missing >/dev/null
}
