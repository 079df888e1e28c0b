#!/bin/sh
# Build, once, a minimal Debian bookworm root with systemd as PID 1 for the
# QEMU boot tests (debootstrap --variant=minbase), as an ext4 image, and
# print the directory that holds it (root.img).
#
# Usage: scripts/systemd-image.sh [CACHE_DIR]      (as root; needs the mirror once)
#
# The image's own units are the test's ground truth:
#   bp-read.service     oneshot: dd reads /data/planted.bin (3 MiB) once
#   bp-mmap.service     oneshot, After=bp-read: mmap-touch maps /data/archive.zip
#                       (4 MiB) and touches its first and last pages
#   bp-threads.service  simple, After=bp-mmap: a daemon whose 3 threads read
#                       /data/thread-N.bin, then it stays running
#   bp-done.service     once the boot has finished (is-system-running --wait):
#                       systemd-analyze blame/critical-chain and the units'
#                       start times to /run/bp-test and the console,
#                       every thread's blkio delay (delayacct) to
#                       /run/bp-test/blkio.txt and then
#                       /run/bootprof-stop (bootprof.until-file=), waits for
#                       the recording, reads the blkio delays once more
#                       (blkio-after.txt), tars /var/log/bootprof and
#                       /run/bp-test onto /dev/vdb and powers off
# The image has no kernel modules and no bootprof: the test boots it through
# an initramfs (tests/boot/lib.sh) that has both. Boot it with snapshot=on:
# the cached image is never written.
#
# The cache directory's name carries a hash of this script and of
# the test programs it builds in, so a changed recipe builds a new image (and
# removes the older ones). When the image cannot be had here (no root, no
# debootstrap, the mirror unreachable) it exits 3, when building it failed
# otherwise 1, with one line on stderr either way.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:-$TOP/tests/boot/cache}
SUITE=bookworm
die() {
	echo "systemd-image: $*" >&2
	exit 1
}
unavailable() {
	echo "systemd-image: $*" >&2
	exit 3
}
recipe=$(cat "$0" "$TOP/tests/boot/bp-threads.c" "$TOP/tests/boot/mmap-touch.c" | sha256sum | cut -c1-12)
dir=$cache/systemd-$SUITE-$recipe
if [ -e "$dir/ok" ]; then
	echo "$dir"
	exit 0
fi
[ "$(id -u)" = 0 ] || unavailable "building the image needs root (debootstrap)"
for t in debootstrap mkfs.ext4 cc; do
	command -v $t >/dev/null 2>&1 || unavailable "$t not installed (scripts/deps.sh check)"
done

# The machine's own bookworm mirror (or snapshot), as apt uses it.
mirror=
if [ -r /etc/apt/sources.list.d/debian.sources ]; then
	mirror=$(awk -v s="$SUITE" '/^URIs:/ { u = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) { print u; exit } }' \
		/etc/apt/sources.list.d/debian.sources)
fi
if [ -z "$mirror" ] && [ -r /etc/apt/sources.list ]; then
	mirror=$(awk -v s="$SUITE" '$1 == "deb" && $3 == s { print $2; exit }' /etc/apt/sources.list)
fi
mirror=${mirror:-http://deb.debian.org/debian}

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.systemd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
r=$tmp/root
if ! debootstrap --variant=minbase --include=systemd,systemd-sysv,udev,dbus \
	"$SUITE" "$r" "$mirror" >"$tmp/debootstrap.log" 2>&1; then
	unavailable "debootstrap $SUITE from $mirror failed: $(grep -E '^[EW]:' "$tmp/debootstrap.log" | tail -n 1)"
fi
rm -rf "$r/var/cache/apt/archives"/*.deb "$r/var/lib/apt/lists"/*_Packages

# A machine that has booted before: a fixed machine-id (no first-boot
# units), a name, an empty fstab (the initramfs mounts the root rw).
echo 5bd0a1e7c3f84b0c9d6e2f1a0b3c4d5e >"$r/etc/machine-id"
echo bootprof-test >"$r/etc/hostname"
: >"$r/etc/fstab"
# apt's timers would start downloads on a machine without network.
for u in apt-daily.timer apt-daily-upgrade.timer; do
	ln -sf /dev/null "$r/etc/systemd/system/$u"
done

mkdir -p "$r/data" "$r/usr/local/bin" "$r/usr/local/sbin"
# Known contents: sizes are the ground truth for bytes read.
head -c 3145728 /dev/urandom >"$r/data/planted.bin"
head -c 4194304 /dev/urandom >"$r/data/archive.zip"
for i in 1 2 3; do
	head -c $((i * 65536)) /dev/urandom >"$r/data/thread-$i.bin"
done
cc -static -O2 -pthread -o "$r/usr/local/bin/bp-threads" "$TOP/tests/boot/bp-threads.c" &&
	cc -static -O2 -o "$r/usr/local/bin/mmap-touch" "$TOP/tests/boot/mmap-touch.c" ||
	die "cannot build the test programs"

u=$r/etc/systemd/system
cat >"$u/bp-read.service" <<'EOT'
[Unit]
Description=bootprof test: read a file of known size once

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/dd if=/data/planted.bin of=/dev/null bs=64k

[Install]
WantedBy=multi-user.target
EOT
cat >"$u/bp-mmap.service" <<'EOT'
[Unit]
Description=bootprof test: map an archive, touch two pages
After=bp-read.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/bin/mmap-touch /data/archive.zip

[Install]
WantedBy=multi-user.target
EOT
# No ExecStartPre: its first process is its main one, so the order of first
# processes is the order of systemd's ExecMainStartTimestamp.
cat >"$u/bp-threads.service" <<'EOT'
[Unit]
Description=bootprof test: a daemon with threads that stays running
After=bp-mmap.service

[Service]
Type=simple
RuntimeDirectory=bp-test
RuntimeDirectoryPreserve=yes
ExecStart=/usr/local/bin/bp-threads -o /run/bp-test/threads /data/thread-1.bin /data/thread-2.bin /data/thread-3.bin

[Install]
WantedBy=multi-user.target
EOT
cat >"$u/bp-done.service" <<'EOT'
[Unit]
Description=bootprof test: systemd's own view of the boot, then power off
After=multi-user.target

[Service]
Type=simple
ExecStart=/usr/local/sbin/bp-done

[Install]
WantedBy=multi-user.target
EOT
cat >"$r/usr/local/sbin/bp-done" <<'EOT'
#!/bin/sh
# Runs once the boot has finished: what systemd says about it, then the
# recording's stop, and the results onto the second disk.
exec >/dev/console 2>&1
out=/run/bp-test
mkdir -p $out
# blkio FILE: the kernel's own I/O wait of every thread alive now, to
# hold against the recording. A line per thread: pid, tid, 1 for a
# kernel thread (PF_KTHREAD), its blkio delay in clock ticks
# (/proc/PID/task/TID/stat field 42, delayacct_blkio_ticks, 1/100 s; 0
# unless booted with delayacct), comm. A thread that exited took its
# count with it. Fields are counted after the last ')': a comm may hold
# anything. The first line: "# uptime S" when it was read. Shell builtins
# only, so that taking it adds no processes.
blkio() {
	{
		read -r up rest </proc/uptime
		echo "# uptime $up"
		for t in /proc/[0-9]*/task/[0-9]*; do
			read -r line <$t/stat || continue
			read -r comm <$t/comm || continue
			# after ')': state is field 3, flags 9, blkio ticks 42
			set -- ${line##*)}
			[ $# -ge 40 ] || continue
			pid=${t#/proc/} tid=${t##*/}
			echo "${pid%%/*} $tid $(($7 >> 21 & 1)) ${40} $comm"
		done 2>/dev/null
	} >"$1"
}
state=$(systemctl is-system-running --wait)
echo "BP-DONE: system $state at $(cut -d' ' -f1 /proc/uptime)"
systemd-analyze time --no-pager >$out/time.txt 2>&1
sed 's/^/BP-TIME: /' $out/time.txt
systemd-analyze blame --no-pager >$out/blame.txt 2>&1
systemd-analyze critical-chain --no-pager >$out/critical-chain.txt 2>&1
# Per unit of blame (and the planted ones): when its main process started,
# and its cgroup.
for unit in $(awk '{ print $NF }' $out/blame.txt) bp-read.service bp-mmap.service bp-threads.service; do
	systemctl show --no-pager -p Id -p ExecMainStartTimestampMonotonic -p ExecMainPID \
		-p ControlGroup -p ActiveState "$unit" | tr '\n' ' '
	echo
done >$out/units.txt
systemctl list-units --all --no-pager --plain --no-legend >$out/list-units.txt
sed 's/^/BLAME: /' $out/blame.txt
sed 's/^/CHAIN: /' $out/critical-chain.txt
blkio $out/blkio.txt
touch /run/bootprof-stop
i=0
while [ ! -e /var/log/bootprof/latest.dat ] && [ $i -lt 600 ]; do
	sleep 0.2
	i=$((i + 1))
done
echo "BP-DONE: recording $(readlink /var/log/bootprof/latest.dat)"
# Once more after the stop: a process whose count moved between the two
# did I/O wait around the stop, which the recording saw only in part.
blkio $out/blkio-after.txt
echo "BP-DONE: instances [$(ls /sys/kernel/tracing/instances | tr '\n' ' ')]"
echo "BP-DONE: top-level events [$(cat /sys/kernel/tracing/set_event | tr '\n' ' ')]"
tar cf /dev/vdb -C /var/log bootprof -C /run bp-test && echo "BP-DONE: saved"
sync
echo "BP-DONE: done"
systemctl poweroff -ff
EOT
chmod 755 "$r/usr/local/sbin/bp-done"
mkdir -p "$u/multi-user.target.wants"
for unit in bp-read bp-mmap bp-threads bp-done; do
	ln -sf "/etc/systemd/system/$unit.service" "$u/multi-user.target.wants/$unit.service"
done

mkdir "$tmp/img"
mkfs.ext4 -q -F -d "$r" -L bootprof-systemd "$tmp/img/root.img" 1024M >/dev/null ||
	die "mkfs.ext4 -d failed"
sed -n 's/^I: Retrieving \(.*\) [0-9].*/\1/p' "$tmp/debootstrap.log" | sort >"$tmp/img/packages"
echo "$mirror $SUITE" >"$tmp/img/mirror"
rm -rf "$cache"/systemd-$SUITE-*
mv "$tmp/img" "$dir"
touch "$dir/ok"
echo "$dir"
