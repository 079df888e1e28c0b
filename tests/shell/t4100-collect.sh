#!/bin/sh
# bootprof collect attaches to an instance it did not create (as the kernel
# makes one at boot), drains it into a recording, counts overwritten events
# and removes it (or keeps it with --keep).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
tracing_snapshot
inst=bootprof-$$
I=$TRACEFS/instances/$inst
trap 'rmdir "$I" 2>/dev/null; rm -rf "$TEST_DIR"' EXIT

# rmdir of an instance is refused (EBUSY) while spliced pages are still
# being released: retry for up to 5 s.
remove_instance() {
	i=0
	while [ -d "$I" ] && ! rmdir "$I" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ ! -d "$I" ]
}

# A stand-in for the boot instance: sched exec and filemap events, then a
# known file read from a cold cache.
mkdir "$I" || skip_all "cannot create a trace instance"
echo 'sched:sched_process_exec filemap:mm_filemap_add_to_page_cache' >"$I/set_event"
head -c 200000 /dev/urandom >"$TEST_DIR/known"
sync
drop_caches
cat "$TEST_DIR/known" >/dev/null
ino=$(printf '%x' "$(stat -c %i "$TEST_DIR/known")")
size=$(stat -c %s "$TEST_DIR/known")
pages=$(((size + 4095) / 4096))

expect "collect drains the named instance" \
	"'$BOOTPROF' collect --instance $inst -o '$TEST_DIR/a.dat' 2>'$TEST_DIR/err' && grep -q \"from the instance $inst\" '$TEST_DIR/err'"
expect "the instance is removed afterwards" "[ ! -d '$I' ]"
expect "the recording holds the exec of cat" \
	"'$BOOTPROF' dump '$TEST_DIR/a.dat' | grep -q 'sched_process_exec: filename=.*/cat '"
expect "the recording holds every page of the known file ($pages)" \
	"[ \$('$BOOTPROF' dump '$TEST_DIR/a.dat' | grep -c 'mm_filemap_add_to_page_cache: dev [0-9]*:[0-9]* ino $ino ') -ge $pages ]"
# (comm may hold spaces: match the event names, not a column; bootprof's
# own trace_marker lines, the command lines, are no enabled event)
expect "the recording lists only the enabled events, and bootprof's command-line markers" \
	"'$BOOTPROF' dump '$TEST_DIR/a.dat' | grep '^[0-9]' | grep -vE ' (sched_process_exec|mm_filemap_add_to_page_cache): | print: .*: bootprof-args' | wc -l | grep -qx 0"
expect "an existing output is refused without --force, the instance kept" \
	"mkdir '$I' && echo sched:sched_process_exec >'$I/set_event' && ! '$BOOTPROF' collect --instance $inst -o '$TEST_DIR/a.dat' 2>/dev/null && [ -d '$I' ]"
expect "--keep leaves the instance tracing" \
	"'$BOOTPROF' collect --instance $inst --keep -o '$TEST_DIR/b.dat' 2>/dev/null && [ -d '$I' ] && [ \$(cat '$I/tracing_on') = 1 ] && grep -q sched_process_exec '$I/set_event'"
remove_instance || not_ok "remove the kept instance"

# Overwritten events: a 4 KiB-per-CPU buffer cannot hold the scheduler
# events of 300 execs. Ground truth: the kernel's per-CPU overrun counters
# just before collect (they only grow).
mkdir "$I" && echo 4 >"$I/buffer_size_kb" &&
	echo 'sched:sched_process_exec sched:sched_switch sched:sched_waking sched:sched_process_exit' >"$I/set_event"
i=0
while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done
before=$(cat "$I"/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
expect "overwritten events are counted and reported (kernel: at least $before)" \
	"'$BOOTPROF' collect --instance $inst -o '$TEST_DIR/c.dat' 2>'$TEST_DIR/err'; grep -q 'events lost: the oldest were overwritten' '$TEST_DIR/err' &&
	 lost=\$('$BOOTPROF' dump '$TEST_DIR/c.dat' | sed -n 's/^# lost events: \([0-9]*\).*/\1/p') && [ $before -gt 0 ] && [ \$lost -ge $before ]"

expect "a missing instance fails with the reason" \
	"! '$BOOTPROF' collect --instance bootprof-none-$$ -o '$TEST_DIR/d.dat' 2>'$TEST_DIR/err' && grep -q \"no trace instance 'bootprof-none-$$'\" '$TEST_DIR/err' && [ ! -e '$TEST_DIR/d.dat' ]"
mkdir "$I" && echo sched:sched_process_exec >"$I/set_event"
expect "--duration records on after the drain" \
	"{ (sleep 0.5; /bin/true) & } && '$BOOTPROF' collect --instance $inst --duration 1.5 -o '$TEST_DIR/e.dat' 2>'$TEST_DIR/err' && grep -q 'stopped: duration' '$TEST_DIR/err' && '$BOOTPROF' dump '$TEST_DIR/e.dat' | grep -q 'filename=/bin/true'"
if [ ! -d $TRACEFS/instances/bootprof ] && ! grep -qw 'trace_event=.*' /proc/cmdline; then
	expect "no boot-time buffer: fails with the reason, no file, top level untouched" \
		"! '$BOOTPROF' collect -o '$TEST_DIR/f.dat' 2>'$TEST_DIR/err' && grep -q 'no boot-time trace buffer' '$TEST_DIR/err' && [ ! -e '$TEST_DIR/f.dat' ]"
else
	skip "no boot-time buffer" "this machine was booted with one"
fi
expect "usage errors exit 2" "'$BOOTPROF' collect --bogus >/dev/null 2>&1; [ \$? = 2 ]"
expect_tracing_clean "collect" $$
