# QEMU boot helpers for tests/boot/t4*.sh and scripts/demo-boot.sh.
# Source after ../test-lib.sh (tests) or standalone with TOP and TEST_DIR set.
#
#   boot_kernel 6.1|6.12       KDIR, KREL, KIMAGE of a cached Debian kernel, or return 1
#   boot_modules DIR           copy virtio/ext4 modules (and their deps) to DIR/lib/modules,
#                              DIR/lib/modules/order lists them in load order
#   boot_busybox DIR           busybox-static and a link per applet in DIR/bin
#   boot_cpio DIR OUT          initramfs (cpio newc, gzip) from DIR
#   boot_ext4 DIR OUT MB       ext4 image populated from DIR (mkfs.ext4 -d, no mount)
#   boot_qemu NAME TIMEOUT APPEND [qemu args...]
#                              boot $KIMAGE with $BOOT_INITRD, console in $TEST_DIR/NAME.console;
#                              BOOT_SECONDS is set to the wall time
#
# The kernels are cached in tests/boot/cache (BOOT_CACHE), not committed.

BOOT_CACHE=${BOOT_CACHE:-$TOP/tests/boot/cache}
BOOT_MODULES=${BOOT_MODULES:-"virtio_pci virtio_blk crc32c_generic ext4"}
BOOT_MEM=${BOOT_MEM:-512}
BOOT_SMP=${BOOT_SMP:-2}

boot_kernel() {
	KDIR=$("$TOP/scripts/boot-kernel.sh" "$1" "$BOOT_CACHE") || return 1
	KREL=$(ls "$KDIR/lib/modules" | head -n 1)
	KIMAGE=$KDIR/vmlinuz
	[ -n "$KREL" ] && [ -f "$KIMAGE" ]
}

# The path of module $1 (dashes and underscores are the same), or nothing.
boot_module_path() {
	n=$(echo "$1" | tr - _)
	find "$KDIR/lib/modules/$KREL/kernel" -name '*.ko*' | while read -r p; do
		b=$(basename "$p" | sed 's/\.ko.*//' | tr - _)
		[ "$b" = "$n" ] && echo "$p" && break
	done
}

# A module's own dependencies, from its .modinfo "depends=" field (what
# depmod turns into modules.dep; the package ships no modules.dep).
boot_module_deps() {
	case "$1" in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -dc "$1" ;;
	*) cat "$1" ;;
	esac | tr '\0' '\n' | sed -n 's/^depends=//p' | head -n 1 | tr ',' ' '
}

# Append $1 and, first, everything it depends on, to $2/order (once each).
boot_module_add() {
	local _p _n _d
	_p=$(boot_module_path "$1")
	if [ -z "$_p" ]; then
		# Built into this kernel: nothing to load.
		grep -q "/$(echo "$1" | tr _ -)\.ko\|/$1\.ko" \
			"$KDIR/lib/modules/$KREL/modules.builtin" 2>/dev/null && return 0
		echo "boot_modules: no module $1 in $KREL" >&2
		return 1
	fi
	_n=$(basename "$_p" | sed 's/\.ko.*//')
	grep -qx "$_n.ko" "$2/order" 2>/dev/null && return 0
	for _d in $(boot_module_deps "$_p"); do
		boot_module_add "$_d" "$2" || return 1
	done
	case "$_p" in
	*.xz) xz -dc "$_p" >"$2/$_n.ko" ;;
	*.zst) zstd -dc "$_p" >"$2/$_n.ko" ;;
	*) cp "$_p" "$2/$_n.ko" ;;
	esac
	echo "$_n.ko" >>"$2/order"
}

boot_modules() {
	mkdir -p "$1/lib/modules"
	: >"$1/lib/modules/order"
	for m in $BOOT_MODULES; do
		boot_module_add "$m" "$1/lib/modules" || return 1
	done
}

boot_busybox() {
	mkdir -p "$1/bin"
	cp /bin/busybox "$1/bin/busybox"
	for a in $(/bin/busybox --list); do
		[ -e "$1/bin/$a" ] || ln -s busybox "$1/bin/$a"
	done
}

boot_cpio() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >"$2"
}

boot_ext4() {
	rm -f "$2"
	mkfs.ext4 -q -F -d "$1" -L bootprof-test "$2" "${3}M" >/dev/null
}

# Boot; the console goes to $TEST_DIR/$1.console. Returns qemu's status
# (124 on timeout). -no-reboot + panic=-1: a panic ends qemu at once.
boot_qemu() {
	_name=$1 _timeout=$2 _append=$3
	shift 3
	_start=$(date +%s.%N)
	timeout -k 5 "$_timeout" qemu-system-x86_64 -accel tcg -m "$BOOT_MEM" -smp "$BOOT_SMP" \
		-nographic -no-reboot -nodefaults -serial stdio -display none \
		-kernel "$KIMAGE" -initrd "$BOOT_INITRD" \
		-append "console=ttyS0 panic=-1 $_append" "$@" \
		</dev/null >"$TEST_DIR/$_name.console" 2>&1
	_rc=$?
	BOOT_SECONDS=$(echo "$(date +%s.%N) $_start" | awk '{ printf "%.1f", $1 - $2 }')
	return $_rc
}

# Fail unless QEMU and the host tools are here.
boot_require_tools() {
	for t in qemu-system-x86_64 mkfs.ext4 debugfs cpio gzip xz timeout; do
		command -v $t >/dev/null 2>&1 || { echo "$t not installed"; return 1; }
	done
	[ -x /bin/busybox ] && file -L /bin/busybox | grep -q 'statically linked' ||
		{ echo "busybox-static not installed"; return 1; }
}
