#!/bin/sh
# Fetch a Debian kernel for the QEMU boot tests into a cache directory and
# print the directory it was extracted to (vmlinuz, lib/modules/RELEASE).
#
# Usage: scripts/boot-kernel.sh 6.1|6.12 [CACHE_DIR [ARCH]]
#   ARCH  amd64 (default), arm64 (Debian's linux-image-arm64) or i386
#         (linux-image-686, 32-bit); apt must know the architecture:
#         make deps-arm64, make deps-i386
#   6.1   Debian 12's kernel (the one linux-image-ARCH depends on)
#   6.12  bookworm-backports' kernel; adds a bookworm-backports apt source
#         (sources.list.d/bootprof-bookworm-backports.sources) when apt has none,
#         copying the mirror and keyring of the system's bookworm source
#
# The cache survives between runs (tests/boot/cache/, not committed); once a
# kernel is extracted there, nothing is downloaded again. Exits 1 with one
# line on stderr when the kernel cannot be had (no root, no network).
set -e
series=$1
cache=${2:-$(cd "$(dirname "$0")/.." && pwd)/tests/boot/cache}
arch=${3:-amd64}
die() {
	echo "boot-kernel: $*" >&2
	exit 1
}
case "$series" in
6.1) suite=bookworm ;;
6.12) suite=bookworm-backports ;;
*) die "usage: scripts/boot-kernel.sh 6.1|6.12 [CACHE_DIR [amd64|arm64]]" ;;
esac
case "$arch" in
amd64 | arm64) flavour=$arch ;;
i386) flavour=686 ;;
*) die "unknown architecture '$arch' (amd64, arm64 or i386)" ;;
esac
mkdir -p "$cache"

# Already extracted: the newest directory for this series wins (Debian's
# releases end in the flavour: 6.12.38+deb12-arm64, 6.1.0-50-686).
have=$(ls -d "$cache"/linux-"$series".*-"$flavour"/ 2>/dev/null | sort -V | tail -n 1)
if [ -n "$have" ] && [ -e "$have/ok" ]; then
	echo "${have%/}"
	exit 0
fi

# True when apt knows packages from this suite.
apt_has_suite() {
	apt-cache policy 2>/dev/null | grep -q "[ /]$1/main "
}

# The bookworm source's mirror and keyring, copied for backports, so the
# machine's own choice of mirror (or snapshot) is kept.
add_backports() {
	[ "$(id -u)" = 0 ] || die "bookworm-backports is not an apt source and adding it needs root"
	f=/etc/apt/sources.list.d/bootprof-bookworm-backports.sources
	uri=
	key=
	if [ -r /etc/apt/sources.list.d/debian.sources ]; then
		uri=$(awk '/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ { print u; exit }' \
			/etc/apt/sources.list.d/debian.sources)
		key=$(awk '/^Signed-By:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
	fi
	if [ -z "$uri" ] && [ -r /etc/apt/sources.list ]; then
		uri=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
	fi
	[ -n "$uri" ] || die "no bookworm apt source to copy the mirror from"
	{
		echo "Types: deb"
		echo "URIs: $uri"
		echo "Suites: bookworm-backports"
		echo "Components: main"
		[ -z "$key" ] || echo "Signed-By: $key"
	} >"$f.tmp"
	mv "$f.tmp" "$f"
	# Update only this source: a full update is slow and not ours to do.
	apt-get update -q -o Dir::Etc::sourcelist="$f" -o Dir::Etc::sourceparts=- \
		-o APT::Get::List-Cleanup=0 >/dev/null 2>&1 ||
		die "apt-get update of bookworm-backports failed"
}

if ! apt_has_suite "$suite"; then
	if [ "$suite" = bookworm-backports ]; then
		add_backports
	else
		die "apt has no $suite source"
	fi
fi

# The exact image package the suite's linux-image-FLAVOUR depends on.
pkg=$(apt-cache show "linux-image-$flavour:$arch/$suite" 2>/dev/null |
	sed -n 's/^Depends: *\(linux-image-[^ ,]*\).*/\1/p' | sort -V | tail -n 1)
[ -n "$pkg" ] || die "cannot find linux-image-$flavour in $suite"
pkg=$pkg:$arch

tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -q "$pkg/$suite" >/dev/null 2>&1) ||
	(cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
	die "apt-get download $pkg failed"
deb=$(ls "$tmp"/*.deb | head -n 1)
dpkg-deb -x "$deb" "$tmp/x"
release=$(ls "$tmp/x/lib/modules" | head -n 1)
[ -n "$release" ] && [ -e "$tmp/x/boot/vmlinuz-$release" ] || die "$pkg has no kernel image"
case "$release" in
"$series".*) ;;
*) die "$pkg is $release, not $series" ;;
esac
dir=$cache/linux-$release
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/x/boot/vmlinuz-$release" "$dir/vmlinuz"
cp "$tmp/x/boot/config-$release" "$dir/config" 2>/dev/null || true
mkdir -p "$dir/lib"
mv "$tmp/x/lib/modules" "$dir/lib/modules"
echo "${pkg%:*}" >"$dir/package"
touch "$dir/ok"
echo "$dir"
