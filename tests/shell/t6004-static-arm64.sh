#!/bin/sh
# The static arm64 bootprof (make static ARCH=arm64), the one an Android
# device or an arm64 board runs, on this machine under qemu-aarch64 (user
# mode): it is static and arm64, states its version, prints the boot words
# of an arm64 kernel, and reads the fixture recordings into the
# golden reports byte for byte (little-endian x86_64 and 32-bit i386
# recordings alike), with its plugins built in. Serial: it runs make static
# ARCH=arm64, as the arm64 boot test does, in the same build directory.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"

command -v qemu-aarch64-static >/dev/null 2>&1 || skip_all "qemu-user-static not installed"
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || skip_all "no arm64 cross compiler (make deps-arm64)"
make -s -C "$TOP" static ARCH=arm64 >"$TEST_DIR/make.log" 2>&1 ||
	skip_all "make static ARCH=arm64 failed: $(grep -m1 -i error "$TEST_DIR/make.log")"
A64=$TOP/build-static-arm64/bootprof
run() { qemu-aarch64-static "$A64" "$@"; }

expect "build-static-arm64/bootprof is a static arm64 executable" \
	"readelf -h '$A64' | grep -q 'Machine: *AArch64' && ! readelf -l '$A64' | grep -q INTERP"
echo "# static arm64 binary: $(stat -c %s "$A64") bytes"
expect "--version is this build's" "[ \"\$(run --version)\" = \"\$('$BOOTPROF' --version)\" ]"
# Its own architecture by default: the words this machine's build gives
# for --arch arm64 (no open, no access).
for k in 6.1.0 6.12.0; do
	expect "cmdline --kernel $k: its words are this machine's build's for --arch arm64" \
		"run cmdline --kernel $k >'$TEST_DIR/a64' 2>&1 &&
		 '$BOOTPROF' cmdline --kernel $k --arch arm64 >'$TEST_DIR/host' 2>&1 &&
		 test -s '$TEST_DIR/a64' && cmp '$TEST_DIR/a64' '$TEST_DIR/host' && ! grep -q sys_enter_open, '$TEST_DIR/a64'"
done
cd "$TOP" || exit 1
for dat in tests/fixtures/*.dat; do
	name=${dat%.dat}
	[ -f "$name.report.txt" ] || continue
	expect "$(basename "$name"): the golden text and json reports" \
		"run report '$dat' >'$TEST_DIR/out.txt' && diff -u '$name.report.txt' '$TEST_DIR/out.txt' &&
		 run report --format json '$dat' >'$TEST_DIR/out.json' && diff -u '$name.report.json' '$TEST_DIR/out.json'"
done
expect "the 32-bit recording: the same report as this machine's build" \
	"run report --format json tests/fixtures/i386-boot.dat >'$TEST_DIR/a64.json' &&
	 '$BOOTPROF' report --format json tests/fixtures/i386-boot.dat >'$TEST_DIR/host.json' &&
	 cmp '$TEST_DIR/a64.json' '$TEST_DIR/host.json'"
expect "the plugins are built in (nothing to dlopen)" \
	"run report --list-plugins >'$TEST_DIR/plugins' 2>&1 &&
	 for p in android initcall polling systemd; do grep -q \"\\<\$p\\>\" '$TEST_DIR/plugins' || exit 1; done"
expect "the android plugin runs in it" \
	"run report --plugin android --format json tests/fixtures/basic.dat | jq -e '.plugins.android' >/dev/null"
