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

# ---- the boot scenario shared by the t45xx tests and scripts/demo-boot.sh ----
#
# Initramfs: busybox, the static bootprof as rdinit, virtio/ext4 modules and
# an /init that loads them, mounts /dev/vda and switch_roots to it.
# Disk (vda): busybox, /sbin/test-init that reads known files (cat, dd),
# mmaps an archive, execs /bin/stop-marker, creates /run/test-done, waits for
# /var/log/bootprof/latest.dat and tars /var/log/bootprof onto vdb.
# test.* words on the kernel command line steer it:
#   test.wait=S          how long to wait for the recording (default 60)
#   test.kill-recorder=1 kill -9 the recorder first
BOOT_STATIC=${BOOT_STATIC:-$TOP/build-static/bootprof}

boot_build_initramfs() {
	_r=$TEST_DIR/initramfs
	rm -rf "$_r"
	mkdir -p "$_r/proc" "$_r/sys" "$_r/dev" "$_r/run" "$_r/newroot"
	boot_busybox "$_r" && boot_modules "$_r" || return 1
	cp "$BOOT_STATIC" "$_r/bin/bootprof"
	cat >"$_r/init" <<'EOT'
#!/bin/sh
export PATH=/bin
echo "TEST-INIT: initramfs pid $$ at $(cut -d' ' -f1 /proc/uptime)"
mount -t proc proc /proc 2>/dev/null
mount -t sysfs sysfs /sys 2>/dev/null
mount -t devtmpfs devtmpfs /dev 2>/dev/null
for m in $(cat /lib/modules/order); do
	insmod /lib/modules/$m || echo "TEST-INIT: insmod $m failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if ! mount -t ext4 /dev/vda /newroot; then
	echo "TEST-INIT: cannot mount /dev/vda"
	poweroff -f
fi
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/test-init
EOT
	chmod 755 "$_r/init"
	BOOT_INITRD=$TEST_DIR/initrd.gz
	boot_cpio "$_r" "$BOOT_INITRD"
}

# boot_build_disk [immutable-log-dir]
boot_build_disk() {
	_d=$TEST_DIR/rootdir
	rm -rf "$_d"
	mkdir -p "$_d/proc" "$_d/sys" "$_d/dev" "$_d/run" "$_d/sbin" "$_d/data" "$_d/var/log"
	boot_busybox "$_d" || return 1
	cc -static -O2 -o "$_d/bin/mmap-touch" "$TOP/tests/boot/mmap-touch.c" || return 1
	ln "$_d/bin/mmap-touch" "$_d/bin/stop-marker"
	# Known contents: sizes are the ground truth for bytes read.
	head -c 12288 /dev/urandom >"$_d/data/small.txt"
	head -c 1048576 /dev/urandom >"$_d/data/big.bin"
	head -c 4194304 /dev/urandom >"$_d/data/archive.zip"
	cat >"$_d/sbin/test-init" <<'EOT'
#!/bin/sh
export PATH=/bin
echo "TEST-INIT: root pid $$ at $(cut -d' ' -f1 /proc/uptime)"
arg() { sed -n "s/.*\<test\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
mount -t tmpfs tmpfs /run
if [ "$(arg kill-recorder)" = 1 ]; then
	pkill -9 bootprof-rec && echo "TEST-INIT: killed the recorder"
fi
cat /data/small.txt >/dev/null
dd if=/data/big.bin of=/dev/null bs=65536 2>/dev/null
mmap-touch /data/archive.zip
stop-marker
touch /run/test-done
wait=$(arg wait)
i=0
while [ ! -e /var/log/bootprof/latest.dat ] && [ $i -lt $((${wait:-60} * 5)) ]; do
	sleep 0.2
	i=$((i + 1))
done
echo "TEST-INIT: recording $(readlink /var/log/bootprof/latest.dat)"
[ -e /var/log/bootprof ] && tar cf /dev/vdb -C /var/log bootprof && echo "TEST-INIT: saved"
sync
mount -o remount,ro /
echo "TEST-INIT: done"
poweroff -f
EOT
	chmod 755 "$_d/sbin/test-init"
	[ "$1" = immutable-log-dir ] && mkdir -p "$_d/var/log/bootprof"
	BOOT_DISK=$TEST_DIR/root.img
	BOOT_OUT=$TEST_DIR/out.img
	boot_ext4 "$_d" "$BOOT_DISK" 64 || return 1
	if [ "$1" = immutable-log-dir ]; then
		# EXT2_IMMUTABLE_FL: even root cannot create files in it.
		debugfs -w -R "set_inode_field /var/log/bootprof flags 0x10" "$BOOT_DISK" >/dev/null 2>&1
	fi
	rm -f "$BOOT_OUT"
	truncate -s 64M "$BOOT_OUT"
}

# boot_scenario NAME TIMEOUT WORDS: boot the images built above.
boot_scenario() {
	boot_qemu "$1" "$2" "rdinit=/bin/bootprof bootprof.init=/init $3" \
		-drive "file=$BOOT_DISK,format=raw,if=virtio" \
		-drive "file=$BOOT_OUT,format=raw,if=virtio"
}

# The recording the boot saved, extracted to $TEST_DIR/latest.dat.
boot_fetch_recording() {
	rm -rf "$TEST_DIR/out"
	mkdir -p "$TEST_DIR/out"
	tar xf "$BOOT_OUT" -C "$TEST_DIR/out" 2>/dev/null || return 1
	_f=$(readlink "$TEST_DIR/out/bootprof/latest.dat") || return 1
	cp "$TEST_DIR/out/bootprof/$_f" "$TEST_DIR/latest.dat"
}

# Inode number of PATH in the disk image (decimal), from debugfs.
boot_inode() {
	debugfs -R "stat $1" "$BOOT_DISK" 2>/dev/null | sed -n 's/^Inode: *\([0-9]*\).*/\1/p'
}
