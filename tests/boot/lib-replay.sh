# The readahead boot scenario, shared by tests/boot/t4600-boot-replay.sh and
# bench/readahead. Source after ../test-lib.sh (or with TOP and TEST_DIR
# set) and lib.sh.
#
#   replay_build_disk       $BOOT_DISK: busybox, the static bootprof, a planted
#                           workload (/bin/workload: CPU work, then reads
#                           /data/f1..f$REPLAY_FILES with CPU work between the
#                           reads, part of /data/part,
#                           /data/written, appending to the latter), and
#                           /sbin/test-init: runs it, waits for the recording,
#                           with test.build-pack=1 makes /var/lib/bootprof/boot.pack
#                           (in the order test.pack-order= names, default first use)
#                           from it and then changes /data/changed; tars
#                           /var/log/bootprof and /var/lib/bootprof onto vdb
#   replay_boot NAME WORDS  boot it with the disk's reads throttled to
#                           $REPLAY_BPS bytes/s; console in $TEST_DIR/NAME.console,
#                           the recording in $TEST_DIR/NAME.dat, what vdb got
#                           in $TEST_DIR/NAME.out/
#   replay_numbers NAME     "BOOT WAIT IDLE": the workload's end (s since boot),
#                           its process tree's I/O wait (ns), CPU idle while
#                           anyone waited (ns)

REPLAY_FILES=${REPLAY_FILES:-6}
REPLAY_FILE_KB=${REPLAY_FILE_KB:-384}
REPLAY_BPS=${REPLAY_BPS:-1048576}
REPLAY_BURN=${REPLAY_BURN:-6000000}

replay_build_disk() {
	_d=$TEST_DIR/rootdir
	rm -rf "$_d"
	mkdir -p "$_d/proc" "$_d/sys" "$_d/dev" "$_d/run" "$_d/sbin" "$_d/data" "$_d/var/log" \
		"$_d/var/lib/bootprof"
	boot_busybox "$_d" || return 1
	cp "$BOOT_STATIC" "$_d/bin/bootprof"
	_i=1
	while [ $_i -le "$REPLAY_FILES" ]; do
		head -c $((REPLAY_FILE_KB * 1024)) /dev/urandom >"$_d/data/f$_i"
		_i=$((_i + 1))
	done
	head -c 2097152 /dev/urandom >"$_d/data/part"
	head -c 65536 /dev/urandom >"$_d/data/written"
	head -c 65536 /dev/urandom >"$_d/data/changed"
	{
		echo '#!/bin/sh'
		echo "# Reads with CPU work between them: what a preloader can overlap."
		echo "# Work first, as init and services parse their configuration."
		echo "head -c $REPLAY_BURN /dev/zero | md5sum >/dev/null"
		_i=1
		while [ $_i -le "$REPLAY_FILES" ]; do
			echo "cat /data/f$_i >/dev/null"
			echo "head -c $REPLAY_BURN /dev/zero | md5sum >/dev/null"
			_i=$((_i + 1))
		done
		echo "dd if=/data/part of=/dev/null bs=16384 count=1 2>/dev/null"
		echo "cat /data/changed /data/written >/dev/null"
		echo "echo appended >>/data/written"
	} >"$_d/bin/workload"
	chmod 755 "$_d/bin/workload"
	cat >"$_d/sbin/test-init" <<'EOT'
#!/bin/sh
export PATH=/bin
arg() { sed -n "s/.*\<test\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
mount -t tmpfs tmpfs /run
echo "TEST-INIT: root pid $$ at $(cut -d' ' -f1 /proc/uptime)"
# A previous boot's recording may be there: wait for this boot's.
old=$(readlink /var/log/bootprof/latest.dat 2>/dev/null)
# test.workload-after-replay=1: start the workload once the preloader is
# done and its reads have reached the cache (readahead(2) only starts
# them: wait for the disk to have none in flight), so the test judges what
# the pack holds, not how far the preloader got ahead under a loaded host
# (the overlap is bench/readahead's to measure).
if [ "$(arg workload-after-replay)" = 1 ]; then
	i=0
	while ! dmesg | grep -q 'bootprof-replay: ' && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	i=0
	while ! awk '{ exit $1 + $2 > 0 }' /sys/block/vda/inflight && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
fi
workload &
echo "TEST-INIT: workload pid $!"
wait
echo "TEST-INIT: workload done at $(cut -d' ' -f1 /proc/uptime)"
touch /run/test-done
i=0
while [ "$(readlink /var/log/bootprof/latest.dat 2>/dev/null)" = "$old" ] && [ $i -lt 300 ]; do
	sleep 0.2
	i=$((i + 1))
done
echo "TEST-INIT: recording $(readlink /var/log/bootprof/latest.dat)"
order=$(arg pack-order)
if [ "$(arg build-pack)" = 1 ]; then
	# test.pack-order=critical: the pages the boot's critical path waited on first.
	bootprof readahead --gap 0 ${order:+--order "$order"} /var/log/bootprof/latest.dat \
		-o /var/lib/bootprof/boot.pack &&
		echo "TEST-INIT: pack built"
	# Changed after the pack was made: stale at the next boot.
	echo changed >>/data/changed
fi
i=0
while ! dmesg | grep -q 'bootprof-replay: ' && [ -n "$(arg wait-replay)" ] && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done
tar cf /dev/vdb -C /var log/bootprof lib/bootprof && echo "TEST-INIT: saved"
sync
mount -o remount,ro /
echo "TEST-INIT: done"
poweroff -f
EOT
	chmod 755 "$_d/sbin/test-init"
	BOOT_DISK=$TEST_DIR/root.img
	BOOT_OUT=$TEST_DIR/out.img
	boot_ext4 "$_d" "$BOOT_DISK" 64
}

replay_boot() {
	_name=$1
	shift
	rm -f "$BOOT_OUT"
	truncate -s 64M "$BOOT_OUT"
	boot_qemu "$_name" 300 "rdinit=/bin/bootprof bootprof.init=/init $*" \
		-drive "file=$BOOT_DISK,format=raw,if=virtio,throttling.bps-read=$REPLAY_BPS" \
		-drive "file=$BOOT_OUT,format=raw,if=virtio"
	_rc=$?
	rm -rf "$TEST_DIR/$_name.out"
	mkdir -p "$TEST_DIR/$_name.out"
	tar xf "$BOOT_OUT" -C "$TEST_DIR/$_name.out" 2>/dev/null
	_f=$(readlink "$TEST_DIR/$_name.out/log/bootprof/latest.dat" 2>/dev/null)
	[ -n "$_f" ] && cp "$TEST_DIR/$_name.out/log/bootprof/$_f" "$TEST_DIR/$_name.dat"
	return $_rc
}

replay_numbers() {
	_con=$TEST_DIR/$1.console
	_pid=$(sed -n 's/^TEST-INIT: workload pid \([0-9]*\).*/\1/p' "$_con" | head -n 1)
	_end=$(sed -n 's/^TEST-INIT: workload done at \([0-9.]*\).*/\1/p' "$_con" | head -n 1)
	_wait=$("$BOOTPROF" report --format csv --table processes --pid "$_pid" --tree --top 0 \
		"$TEST_DIR/$1.dat" 2>/dev/null | awk -F, -v p="$_pid" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tree_wait_ns") c = i; next }
		$1 == p && c { print $c; exit }')
	_idle=$("$BOOTPROF" report --format csv --table totals "$TEST_DIR/$1.dat" 2>/dev/null |
		awk -F, '$1 == "idle_wait_ns" { print $2; exit }')
	echo "${_end:-0} ${_wait:-0} ${_idle:-0}"
}
