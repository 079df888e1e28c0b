#!/bin/sh
# bootprof cmdline: the words for the running kernel come from its own
# available_events; for other versions, from what each version has.
. "$(dirname "$0")/../test-lib.sh"

expect "6.1: trace_event= into the top-level buffer, trace_clock=boot" \
	"'$BOOTPROF' cmdline --kernel 6.1.0-50-amd64 2>/dev/null | grep -Eq '^trace_event=sched:sched_switch,.*initcall:\*,module:module_load,syscalls:.* trace_buf_size=16384K trace_clock=boot$'"
expect "6.1: no filemap access events, said on stderr" \
	"out=\$('$BOOTPROF' cmdline --kernel 6.1 2>'$TEST_DIR/err') && ! echo \"\$out\" | grep -q mm_filemap_map_pages && grep -q 'not in 6.1: .*mm_filemap_map_pages' '$TEST_DIR/err'"
expect "6.12: trace_instance=bootprof with the filemap access events" \
	"'$BOOTPROF' cmdline --kernel 6.12.95+deb12-amd64 --buffer-size 8192 2>/dev/null | grep -Eq '^trace_instance=bootprof,.*filemap:mm_filemap_map_pages,.*initcall:\*,module:module_load,syscalls:.* trace_buf_size=8192K$'"
expect "6.3 is the first with trace_instance=" \
	"'$BOOTPROF' cmdline --kernel 6.2 2>/dev/null | grep -q '^trace_event=' && '$BOOTPROF' cmdline --kernel 6.3 2>/dev/null | grep -q '^trace_instance='"
expect "--instance names the instance" \
	"'$BOOTPROF' cmdline --kernel 6.12 --instance early 2>/dev/null | grep -q '^trace_instance=early,'"
expect "raw_syscalls is never on the command line" \
	"! '$BOOTPROF' cmdline --kernel 6.12 2>/dev/null | grep -q raw_syscalls"
# Per-syscall events instead (no filter needed): entry and exit of the I/O
# syscalls, and of the sync syscalls (their waits are writeback, not reads).
for sc in read openat newfstatat execve getdents64 fsync fdatasync sync; do
	expect "syscalls:sys_enter_$sc and sys_exit_$sc on the command line (6.1 and 6.12)" \
		"for k in 6.1 6.12; do '$BOOTPROF' cmdline --kernel \$k 2>/dev/null | tr ', ' '\\n\\n' >'$TEST_DIR/words' &&
		 grep -qx 'syscalls:sys_enter_$sc' '$TEST_DIR/words' && grep -qx 'syscalls:sys_exit_$sc' '$TEST_DIR/words' || exit 1; done"
done
expect "the words fit the kernel command line (2048 bytes) with room to spare" \
	"[ \$('$BOOTPROF' cmdline --kernel 6.12 2>/dev/null | wc -c) -lt 1500 ] &&
	 [ \$('$BOOTPROF' cmdline --kernel 6.1 2>/dev/null | wc -c) -lt 1500 ]"
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
else
	skip "running kernel: every event exists" "cannot read available_events"
fi
