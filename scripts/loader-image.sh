#!/bin/sh
# The disk of the boot loader tests (tests/boot/t4580-boot-once-grub.sh,
# t4581-boot-once-sdboot.sh): the systemd image of the boot tests
# (scripts/systemd-image.sh) on a partition, booted by a real boot loader:
#   grub          an MBR disk, GRUB for BIOS as grub-install --target=i386-pc
#                 puts it (SeaBIOS boots it), Debian's grub packages in the
#                 guest (update-grub, grub-reboot, grub-probe run there);
#   systemd-boot  a GPT disk, an EFI system partition (mounted on /boot/efi)
#                 with systemd-boot, a loader entry, the kernel and initramfs
#                 (OVMF boots it), Debian's systemd-boot (bootctl) in the guest.
# A Debian kernel with an initramfs that mounts root= and execs init=, as
# initramfs-tools' does. An fstab remounts the root rw after fsck,
# as on an installed system. The guest's bp-step.service runs, on every
# boot, the script the test gives on its second disk (a tar).
#
# Usage: scripts/loader-image.sh grub|systemd-boot SYSTEMD_IMAGE_DIR CACHE_DIR, with KDIR and
# KREL set (tests/boot/lib.sh's boot_kernel). Prints the directory holding
# disk.img. Built once per systemd image, kernel and recipe; exits 3 when it
# cannot be built here (no root, a tool missing, apt failed), 1 when
# building failed otherwise.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
loader=$1 sd=$2 cache=$3
# boot_busybox, boot_modules, boot_cpio; BOOT_MODULES.
. "$TOP/tests/boot/lib.sh"
die() {
	echo "loader-image: $*" >&2
	exit 1
}
unavailable() {
	echo "loader-image: $*" >&2
	exit 3
}
case $loader in
grub)
	tools="grub-mkimage grub-editenv"
	need=/usr/lib/grub/i386-pc/boot.img
	packages="grub-pc-bin grub2-common"
	# The initramfs loads what mounts the root.
	modules=$BOOT_MODULES
	;;
systemd-boot)
	tools="mkfs.vfat mcopy mmd"
	need=/usr/lib/systemd/boot/efi/systemd-bootx64.efi
	packages="systemd-boot"
	# ... and the ESP, and efivarfs for bootctl.
	modules="$BOOT_MODULES vfat nls_cp437 nls_ascii nls_utf8 efivarfs"
	;;
*) die "usage: scripts/loader-image.sh grub|systemd-boot SYSTEMD_IMAGE_DIR CACHE_DIR" ;;
esac
[ -n "$KDIR" ] && [ -n "$KREL" ] || die "KDIR and KREL unset (boot_kernel)"
recipe=$( (cat "$0"; basename "$sd"; echo "$KREL") | sha256sum | cut -c1-12)
dir=$cache/$loader-$recipe
if [ -e "$dir/ok" ]; then
	echo "$dir"
	exit 0
fi
[ "$(id -u)" = 0 ] || unavailable "building the image needs root (mount, chroot)"
[ -f $need ] || unavailable "$need missing (scripts/deps.sh)"
for t in $tools sfdisk mkfs.ext4 blkid; do
	command -v $t >/dev/null 2>&1 || unavailable "$t not installed (scripts/deps.sh)"
done

tmp=$(mktemp -d "$cache/.$loader.XXXXXX")
mnt=$tmp/mnt src=$tmp/src
cleanup() {
	for m in "$mnt/dev" "$mnt/proc" "$mnt/sys" "$mnt" "$src"; do
		if mountpoint -q "$m" 2>/dev/null; then umount "$m"; fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$mnt" "$src"
# The root file system is made apart and put in the disk's partition at
# the end (a loop device in a container has no partition devices).
part=$tmp/part.img
truncate -s 2047M "$part"
mkfs.ext4 -q -F -L bootprof-root "$part" || die "mkfs.ext4 failed"
uuid=$(blkid -s UUID -o value "$part")
mount -o loop "$part" "$mnt"
mount -o ro,loop "$sd/root.img" "$src"
cp -a "$src/." "$mnt/"
umount "$src"

# The kernel and an initramfs that loads the modules of the root disk.
mkdir -p "$mnt/boot"
cp "$KDIR/vmlinuz" "$mnt/boot/vmlinuz-$KREL"
cp "$KDIR/config" "$mnt/boot/config-$KREL"
r=$tmp/initramfs
mkdir -p "$r/proc" "$r/sys" "$r/dev" "$r/newroot"
boot_busybox "$r" && boot_modules "$r" "$modules" || die "cannot build the initramfs"
cat >"$r/init" <<'EOT'
#!/bin/sh
# root= (a device or UUID=) and init= as initramfs-tools reads them.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /lib/modules/order); do
	insmod /lib/modules/$m || echo "INITRAMFS: insmod $m failed"
done
root= init=/sbin/init
for w in $(cat /proc/cmdline); do
	case $w in
	root=*) root=${w#root=} ;;
	init=*) init=${w#init=} ;;
	esac
done
i=0
while :; do
	case $root in
	UUID=*) dev=$(findfs "$root" 2>/dev/null) ;;
	*) dev=$root ;;
	esac
	[ -n "$dev" ] && [ -b "$dev" ] && break
	[ $i -ge 100 ] && { echo "INITRAMFS: no root device $root"; poweroff -f; }
	sleep 0.1
	i=$((i + 1))
done
mount -t ext4 -o ro "$dev" /newroot || { echo "INITRAMFS: cannot mount $dev"; poweroff -f; }
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
mount --move /dev /newroot/dev
exec switch_root /newroot "$init"
EOT
chmod 755 "$r/init"
boot_cpio "$r" "$mnt/boot/initrd.img-$KREL"

# An installed system's fstab and GRUB's defaults (serial console).
echo "UUID=$uuid / ext4 errors=remount-ro 0 1" >"$mnt/etc/fstab"
if [ $loader = systemd-boot ]; then
	esp=$tmp/esp.img
	rm -f "$esp"
	mkfs.vfat -F 32 -n ESP -C "$esp" 262144 >/dev/null || die "mkfs.vfat failed"
	esp_uuid=$(blkid -s UUID -o value "$esp")
	echo "UUID=$esp_uuid /boot/efi vfat umask=0077 0 1" >>"$mnt/etc/fstab"
	mkdir -p "$mnt/boot/efi"
fi
mkdir -p "$mnt/etc/default"
cat >"$mnt/etc/default/grub" <<'EOT'
GRUB_DEFAULT=0
GRUB_TIMEOUT=0
GRUB_DISTRIBUTOR=Debian
GRUB_CMDLINE_LINUX_DEFAULT=""
GRUB_CMDLINE_LINUX="console=ttyS0 panic=-1"
GRUB_TERMINAL=serial
GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"
GRUB_DISABLE_OS_PROBER=true
GRUB_DISABLE_RECOVERY=true
EOT

# Debian's grub, installed in the guest by its own apt.
cp /etc/resolv.conf "$mnt/etc/resolv.conf" 2>/dev/null || true
mount --bind /dev "$mnt/dev"
mount -t proc proc "$mnt/proc"
mount -t sysfs sysfs "$mnt/sys"
if ! chroot "$mnt" apt-get -q update >"$tmp/apt.log" 2>&1 ||
	! DEBIAN_FRONTEND=noninteractive chroot "$mnt" apt-get -q install -y \
		--no-install-recommends $packages >>"$tmp/apt.log" 2>&1; then
	unavailable "apt-get install $packages in the image failed: $(grep -E '^(E|W):' "$tmp/apt.log" | tail -n 1)"
fi
chroot "$mnt" apt-get clean
umount "$mnt/sys" "$mnt/proc" "$mnt/dev"

if [ $loader = grub ]; then
	# GRUB as grub-install puts it: its modules in /boot/grub, an environment
	# block, boot.img in the MBR and core.img in the gap before the partition
	# (sector 1 on: where their default block lists point).
	mkdir -p "$mnt/boot/grub/i386-pc"
	cp /usr/lib/grub/i386-pc/*.mod /usr/lib/grub/i386-pc/*.lst "$mnt/boot/grub/i386-pc/"
	grub-editenv "$mnt/boot/grub/grubenv" create
	grub-mkimage -O i386-pc -o "$tmp/core.img" -p '(hd0,msdos1)/boot/grub' \
		biosdisk part_msdos ext2 || die "grub-mkimage failed"
	# The first grub.cfg by hand (grub-mkconfig here would probe the host);
	# the guest's update-grub writes the next one.
	cat >"$mnt/boot/grub/grub.cfg" <<EOT
serial --unit=0 --speed=115200
terminal_input serial
terminal_output serial
set timeout=0
menuentry 'Debian GNU/Linux' {
	insmod part_msdos
	insmod ext2
	search --no-floppy --fs-uuid --set=root $uuid
	linux /boot/vmlinuz-$KREL root=UUID=$uuid ro console=ttyS0 panic=-1
	initrd /boot/initrd.img-$KREL
}
EOT
else
	# systemd-boot as bootctl install puts it, with the fallback path OVMF
	# boots; one entry, as kernel-install writes them; the kernel on the ESP.
	mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/EFI/systemd ::/loader ::/loader/entries
	mcopy -i "$esp" $need ::/EFI/BOOT/BOOTX64.EFI
	mcopy -i "$esp" $need ::/EFI/systemd/systemd-bootx64.efi
	mcopy -i "$esp" "$mnt/boot/vmlinuz-$KREL" ::/vmlinuz-$KREL
	mcopy -i "$esp" "$mnt/boot/initrd.img-$KREL" ::/initrd.img-$KREL
	printf 'timeout 0\ndefault debian.conf\n' >"$tmp/loader.conf"
	cat >"$tmp/debian.conf" <<EOT
title Debian GNU/Linux
version $KREL
linux /vmlinuz-$KREL
initrd /initrd.img-$KREL
options root=UUID=$uuid ro console=ttyS0 panic=-1
EOT
	mcopy -i "$esp" "$tmp/loader.conf" ::/loader/loader.conf
	mcopy -i "$esp" "$tmp/debian.conf" ::/loader/entries/debian.conf
fi

# The test's step for each boot, from its second disk.
u=$mnt/etc/systemd/system
rm -f "$u"/multi-user.target.wants/bp-*.service
cat >"$u/bp-step.service" <<'EOT'
[Unit]
Description=the boot test's step for this boot
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'mkdir -p /run/bp-step && tar -xf /dev/vdb -C /run/bp-step && exec /bin/sh /run/bp-step/step.sh'
StandardOutput=journal+console
StandardError=journal+console
EOT
ln -sf /etc/systemd/system/bp-step.service "$u/multi-user.target.wants/bp-step.service"
umount "$mnt"

img=$tmp/disk.img
psize=$(($(stat -c %s "$part") / 512))
if [ $loader = grub ]; then
	truncate -s 2048M "$img"
	echo "start=2048, size=$psize, type=83, bootable" |
		sfdisk -q "$img" >/dev/null || die "sfdisk failed"
	dd if="$part" of="$img" bs=1M seek=1 conv=sparse,notrunc status=none
	dd if=/usr/lib/grub/i386-pc/boot.img of="$img" bs=440 count=1 conv=notrunc status=none
	dd if="$tmp/core.img" of="$img" bs=512 seek=1 conv=notrunc status=none
else
	truncate -s 2400M "$img"
	printf 'label: gpt\nstart=2048, size=524288, type=U\nstart=526336, size=%s, type=L\n' "$psize" |
		sfdisk -q "$img" >/dev/null || die "sfdisk failed"
	dd if="$esp" of="$img" bs=1M seek=1 conv=notrunc status=none
	dd if="$part" of="$img" bs=1M seek=257 conv=sparse,notrunc status=none
fi
rm -f "$part"
mkdir "$tmp/img"
mv "$img" "$tmp/img/disk.img"
echo "$uuid" >"$tmp/img/uuid"
rm -rf "$cache"/$loader-*
mv "$tmp/img" "$dir"
touch "$dir/ok"
echo "$dir"
