#!/bin/sh
# bootprof dump on the checked-in fixtures (no root): the golden header and
# metadata block, the line format, filters, trace-cmd's v6 and v7 giving the
# same events, a truncated copy, and usage.
. "$(dirname "$0")/../test-lib.sh"

FIX=$TOP/tests/fixtures
cd "$FIX" || skip_all "no fixtures"

expect "header and metadata block match the golden copy" \
	"'$BOOTPROF' dump --meta bootprof.dat >'$TEST_DIR/out' &&
	 grep '^#' '$TEST_DIR/out' | diff bootprof.dat.meta -"
expect "every event line reads: seconds.micros [cpu] pid comm event: fields" \
	"'$BOOTPROF' dump bootprof.dat | grep -v '^#' >'$TEST_DIR/lines' &&
	 test -s '$TEST_DIR/lines' &&
	 ! grep -Ev '^[0-9]+\\.[0-9]{6} \\[[0-9]{3}\\] [0-9]+ [^ ]+ [a-z0-9_]+: ' '$TEST_DIR/lines'"
expect "events are in time order" \
	"cut -d' ' -f1 '$TEST_DIR/lines' | sort -c -n"
expect "process names come from the saved cmdlines" \
	"grep -v ' <\\.\\.\\.> ' '$TEST_DIR/lines' | grep -q ' sched_switch: '"
expect "trace-cmd's v6 and v7 (zstd) files dump the same events" \
	"'$BOOTPROF' dump tracecmd-v6.dat | grep -v '^#' >'$TEST_DIR/v6' &&
	 '$BOOTPROF' dump tracecmd-v7.dat | grep -v '^#' >'$TEST_DIR/v7' &&
	 test -s '$TEST_DIR/v6' && cmp '$TEST_DIR/v6' '$TEST_DIR/v7'"
expect "bootprof's rewrite of the v6 file dumps the same events" \
	"cmp '$TEST_DIR/v6' '$TEST_DIR/lines'"
expect "a trace-cmd file states its version, clock and lost events" \
	"'$BOOTPROF' dump tracecmd-v7.dat | grep -q '^# file: tracecmd-v7.dat (trace.dat version 7)$' &&
	 '$BOOTPROF' dump tracecmd-v7.dat | grep -q '^# clock: local$' &&
	 '$BOOTPROF' dump tracecmd-v7.dat | grep -q '^# lost events: [0-9]'"
expect "--events keeps only the named events" \
	"'$BOOTPROF' dump --events sched:sched_switch,block bootprof.dat | grep -v '^#' |
	 awk '{ print \$5 }' | sort -u | tr '\\n' ' ' | grep -qx 'block_bio_queue: block_rq_complete: block_rq_issue: sched_switch: '"
expect "--events counts agree with --count" \
	"n=\$('$BOOTPROF' dump --events sched_switch bootprof.dat | grep -vc '^#') &&
	 '$BOOTPROF' dump --count bootprof.dat | grep -qx \"\$n sched:sched_switch\""
expect "--events warns about a name the recording lacks" \
	"'$BOOTPROF' dump --events nosuch bootprof.dat 2>&1 >/dev/null |
	 grep -qx \"bootprof: warning: no event 'nosuch' in the recording\""
size=$(stat -c %s bootprof.dat)
head -c $((size - 4096 - 100)) bootprof.dat >"$TEST_DIR/cut.dat"
expect "truncated copy: exit 0, metadata kept, one warning line" \
	"'$BOOTPROF' dump --meta '$TEST_DIR/cut.dat' >'$TEST_DIR/cut.out' 2>'$TEST_DIR/cut.err' &&
	 grep -q '^# path: 254:0 12 /usr/bin/ls$' '$TEST_DIR/cut.out' &&
	 test \$(wc -l <'$TEST_DIR/cut.err') = 1 &&
	 grep -qx 'bootprof: warning: recording truncated: 4196 of [0-9]* bytes of CPU 1 data missing' '$TEST_DIR/cut.err'"
expect "truncated copy: the complete pages are printed" \
	"test \$(grep -vc '^#' '$TEST_DIR/cut.out') -gt \$((\$(wc -l <'$TEST_DIR/lines') / 2))"
expect "-h prints the usage and exits 0" \
	"'$BOOTPROF' dump -h | grep -q '^usage: bootprof dump '"
expect "help dump prints the same usage" \
	"'$BOOTPROF' help dump | grep -q -- '--events LIST'"
expect "two files is a usage error (exit 2)" \
	"'$BOOTPROF' dump a.dat b.dat 2>/dev/null; test \$? = 2"
