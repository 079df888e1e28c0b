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

# Losses flagged only in page headers (the ring-buffer statistics say 0):
# the header says so before the events, as the last line does after them.
command -v python3 >/dev/null && python3 - "$TOP/tests/fuzz" \
	"$TOP/tests/fuzz/corpus/recordings/bootprof-default-events.dat" "$TEST_DIR/missed.dat" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
import tracedat
d = bytearray(open(sys.argv[2], 'rb').read())
lay = tracedat.Layout(bytes(d))
p0 = lay.cpus[0][0]
p1 = p0 + lay.page_size
c0 = struct.unpack_from('<Q', d, p0 + 8)[0]
c1 = struct.unpack_from('<Q', d, p1 + 8)[0]
# Page 1: 1234 events lost, the count stored after the data; page 2: a number not stored.
struct.pack_into('<Q', d, p0 + 8, c0 | 3 << 30)
struct.pack_into('<Q', d, p0 + 16 + (c0 & (1 << 27) - 1), 1234)
struct.pack_into('<Q', d, p1 + 8, c1 | 1 << 31)
open(sys.argv[3], 'wb').write(d)
PY
if [ -f "$TEST_DIR/missed.dat" ]; then
	expect "page-header losses: in the header, before the events" \
		"'$BOOTPROF' dump '$TEST_DIR/missed.dat' >'$TEST_DIR/missed.out' &&
		 sed -n 5p '$TEST_DIR/missed.out' | grep -qx '# lost events: 1234 (page headers; the ring-buffer statistics say 0), and an unknown number on 1 page' &&
		 tail -n 1 '$TEST_DIR/missed.out' | grep -qx '# events missed (page headers): 1234, pages with an unknown number: 1'"
else
	skip "page-header losses" "python3 not installed"
fi
