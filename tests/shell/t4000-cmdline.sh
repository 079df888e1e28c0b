#!/bin/sh
# bootprof cmdline: the words for the running kernel come from its own
# available_events; for other versions, from what each version has.
. "$(dirname "$0")/../test-lib.sh"

expect "6.1: trace_event= into the top-level buffer, trace_clock=boot" \
	"'$BOOTPROF' cmdline --kernel 6.1.0-50-amd64 2>/dev/null | grep -Eq '^trace_event=sched:sched_switch,.*initcall:\*,module:module_load,syscalls:.* trace_buf_size=16384K trace_clock=boot schedstats=enable$'"
expect "6.1: no filemap access events, said on stderr" \
	"out=\$('$BOOTPROF' cmdline --kernel 6.1 2>'$TEST_DIR/err') && ! echo \"\$out\" | grep -q mm_filemap_map_pages && grep -q 'not in 6.1: .*mm_filemap_map_pages' '$TEST_DIR/err'"
expect "6.12: trace_instance=bootprof with the filemap access events" \
	"'$BOOTPROF' cmdline --kernel 6.12.95+deb12-amd64 --buffer-size 8192 2>/dev/null | grep -Eq '^trace_instance=bootprof,.*filemap:mm_filemap_map_pages,.*initcall:\*,module:module_load,syscalls:.* trace_buf_size=8192K schedstats=enable$'"
expect "6.3 is the first with trace_instance=" \
	"'$BOOTPROF' cmdline --kernel 6.2 2>/dev/null | grep -q '^trace_event=' && '$BOOTPROF' cmdline --kernel 6.3 2>/dev/null | grep -q '^trace_instance='"
expect "--instance names the instance" \
	"'$BOOTPROF' cmdline --kernel 6.12 --instance early 2>/dev/null | grep -q '^trace_instance=early,'"
# The architecture's syscall table: arm64 has no open or access (only the
# *at forms), i386 no newfstatat; left out, and not warned about.
for k in "--kernel 6.12 --arch arm64" "--kernel 6.12.95+deb12-arm64" "--kernel 6.12 --arch aarch64"; do
	expect "cmdline $k: no open or access, openat and faccessat kept, nothing missed for it" \
		"'$BOOTPROF' cmdline $k >'$TEST_DIR/w' 2>'$TEST_DIR/err' &&
		 ! grep -Eq 'sys_(enter|exit)_(open|access)[, ]' '$TEST_DIR/w' &&
		 grep -q ',syscalls:sys_enter_openat,' '$TEST_DIR/w' && grep -q ',syscalls:sys_enter_faccessat,' '$TEST_DIR/w' &&
		 ! grep -q 'sys_enter_open ' '$TEST_DIR/err'"
done
expect "cmdline --kernel 6.1.0-50-686 (i386): no newfstatat, open kept" \
	"'$BOOTPROF' cmdline --kernel 6.1.0-50-686 2>/dev/null >'$TEST_DIR/w' &&
	 ! grep -q newfstatat '$TEST_DIR/w' && grep -q ',syscalls:sys_enter_open,' '$TEST_DIR/w'"
expect "cmdline --kernel 6.12 --arch x86_64 keeps open, access and newfstatat" \
	"'$BOOTPROF' cmdline --kernel 6.12 --arch x86_64 2>/dev/null >'$TEST_DIR/w' &&
	 grep -q ',syscalls:sys_enter_open,' '$TEST_DIR/w' && grep -q ',syscalls:sys_enter_access,' '$TEST_DIR/w' &&
	 grep -q ',syscalls:sys_enter_newfstatat,' '$TEST_DIR/w'"
expect "cmdline --arch vax: one line naming the choices, status 2" \
	"'$BOOTPROF' cmdline --arch vax 2>'$TEST_DIR/err' >/dev/null; [ \$? = 2 ] &&
	 head -n 1 '$TEST_DIR/err' | grep -qx \"bootprof: unknown --arch 'vax' (x86_64, arm64, i386, arm, riscv64)\""
expect "raw_syscalls is never on the command line" \
	"! '$BOOTPROF' cmdline --kernel 6.12 2>/dev/null | grep -q raw_syscalls"
# Per-syscall events instead (no filter needed): entry and exit of the I/O
# syscalls, and of the sync syscalls (their waits are writeback, not reads).
for sc in read openat newfstatat execve getdents64 fsync fdatasync sync; do
	expect "syscalls:sys_enter_$sc and sys_exit_$sc on the command line (6.1 and 6.12)" \
		"for k in 6.1 6.12; do '$BOOTPROF' cmdline --kernel \$k 2>/dev/null | tr ', ' '\\n\\n' >'$TEST_DIR/words' &&
		 grep -qx 'syscalls:sys_enter_$sc' '$TEST_DIR/words' && grep -qx 'syscalls:sys_exit_$sc' '$TEST_DIR/words' || exit 1; done"
done
# Debian's 6.1 and 6.12 are built with CONFIG_SCHEDSTATS: the kernel's own
# count of I/O wait, turned on from boot. The versions say so unless an
# installed /boot/config-VERSION says otherwise.
for k in 6.1.0-50-amd64 6.12.95+deb12-amd64; do
	if [ -e /boot/config-$k ] && ! grep -qx 'CONFIG_SCHEDSTATS=y' /boot/config-$k; then
		skip "$k: schedstats=enable and the schedstats events" "/boot/config-$k has no CONFIG_SCHEDSTATS"
		continue
	fi
	expect "$k: schedstats=enable, sched:sched_stat_iowait and sched:sched_stat_blocked" \
		"'$BOOTPROF' cmdline --kernel $k 2>'$TEST_DIR/err' | tr ', ' '\\n\\n' >'$TEST_DIR/words' &&
		 grep -qx schedstats=enable '$TEST_DIR/words' &&
		 grep -qx sched:sched_stat_iowait '$TEST_DIR/words' &&
		 grep -qx sched:sched_stat_blocked '$TEST_DIR/words' && ! grep -q sched_stat '$TEST_DIR/err'"
done
# An installed /boot/config-VERSION decides (a private /boot in a mount namespace).
if [ "$(id -u)" = 0 ] && [ -z "${BOOTPROF_TEST_QUICK:-}" ] && command -v unshare >/dev/null &&
	unshare -m true 2>/dev/null; then
	unshare -m --propagation private sh -c "mount -t tmpfs -o size=64k bp-boot /boot &&
		printf '# CONFIG_SCHEDSTATS is not set\nCONFIG_SCHED_INFO=y\n' >/boot/config-6.12.0-tiny &&
		printf 'CONFIG_SCHED_INFO=y\nCONFIG_SCHEDSTATS=y\n' >/boot/config-6.12.0-full &&
		'$BOOTPROF' cmdline --kernel 6.12.0-tiny >'$TEST_DIR/tiny' 2>'$TEST_DIR/tiny.err' &&
		'$BOOTPROF' cmdline --kernel 6.12.0-full >'$TEST_DIR/full' 2>/dev/null"
	expect "/boot/config-VERSION without CONFIG_SCHEDSTATS: no schedstats words, nothing missed" \
		"[ -s '$TEST_DIR/tiny' ] && ! grep -q -e schedstats= -e sched_stat '$TEST_DIR/tiny' '$TEST_DIR/tiny.err'"
	expect "/boot/config-VERSION with CONFIG_SCHEDSTATS=y: schedstats=enable and the events" \
		"grep -q ',sched:sched_stat_iowait,sched:sched_stat_blocked,.* schedstats=enable\$' '$TEST_DIR/full'"
else
	skip "/boot/config-VERSION decides" "needs root and unshare -m for a private /boot"
fi
expect "before 4.6 schedstats had no word (always on): the events only" \
	"'$BOOTPROF' cmdline --kernel 4.5 2>/dev/null >'$TEST_DIR/words' &&
	 grep -q ',sched:sched_stat_iowait,sched:sched_stat_blocked,' '$TEST_DIR/words' &&
	 ! grep -q schedstats= '$TEST_DIR/words'"
# 6.1 and 6.12 with the most words each kind of version gets: the budget
# holds with schedstats.
expect "the words fit the kernel command line (2048 bytes) with room to spare" \
	"for k in 6.12 6.12.95+deb12-amd64 6.1 6.1.0-50-amd64; do
		n=\$('$BOOTPROF' cmdline --kernel \$k 2>/dev/null | wc -c); echo \"\$k: \$n bytes\"
		[ \$n -lt 1500 ] || exit 1
	 done"
expect "bad version: usage error" "'$BOOTPROF' cmdline --kernel linux >/dev/null 2>&1; [ \$? = 2 ]"
expect "bad buffer size: usage error" "'$BOOTPROF' cmdline --buffer-size 0 >/dev/null 2>&1; [ \$? = 2 ]"
expect "bad instance name: usage error" "'$BOOTPROF' cmdline --instance a/b >/dev/null 2>&1; [ \$? = 2 ]"

# The running kernel: every event printed is one the kernel lists.
if [ -r $TRACEFS/available_events ]; then
	words=$("$BOOTPROF" cmdline 2>/dev/null)
	events=$(echo "$words" | sed 's/ .*//; s/^trace_[a-z]*=//; s/^bootprof,//' | tr , '\n')
	bad=
	for e in $events; do
		case "$e" in
		*:\*) grep -q "^${e%:*}:" $TRACEFS/available_events || bad="$bad $e" ;;
		*) grep -qx "$e" $TRACEFS/available_events || bad="$bad $e" ;;
		esac
	done
	expect "running kernel: every event exists ($(echo $events | wc -w) events)" "[ -z '$bad' ]"
	# Only a kernel with schedstats gets them, without a warning either way.
	if [ -e /proc/sys/kernel/sched_schedstats ]; then
		expect "running kernel with schedstats: schedstats=enable" \
			"echo '$words' | grep -q ' schedstats=enable\$'"
	else
		expect "running kernel without schedstats: no schedstats=enable, no schedstats events, not missed" \
			"out=\$('$BOOTPROF' cmdline 2>'$TEST_DIR/err') && [ -n \"\$out\" ] &&
			 ! echo \"\$out\" | grep -q -e schedstats= -e sched_stat_iowait -e sched_stat_blocked &&
			 ! grep -q sched_stat '$TEST_DIR/err'"
	fi
else
	skip "running kernel: every event exists" "cannot read available_events"
fi
