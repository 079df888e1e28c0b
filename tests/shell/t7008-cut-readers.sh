#!/bin/sh
# Every command that reads a recording loads it the same way, so it says
# the same about it: a recording cut in its CPU data is read to its last
# complete page with one truncation warning on stderr and the usual exit
# status; a recording that lost events warns that totals are lower bounds;
# a corrupt one fails with its one line.
. "$(dirname "$0")/../test-lib.sh"

cd "$TEST_DIR" || exit 1
R=$BOOTPROF
BOOT=$TOP/tests/fixtures/boot.dat
LOSSY=$TOP/tests/fixtures/bootprof.dat

# boot.dat cut to 93 % of its size: inside CPU 1's data.
size=$(wc -c <"$BOOT")
head -c $((size * 93 / 100)) "$BOOT" >cut.dat
warning='bootprof: warning: recording truncated: 71107 of 532480 bytes of CPU 1 data missing'
echo 'lost_events 1000000000' >budget

# run NAME CMD...: CMD's exit status in NAME.rc, its stderr in NAME.err.
run() {
	name=$1
	shift
	"$@" >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
}

# The readers, each on FILE; NAME is where its results go.
readers() {
	f=$1 tag=$2
	run "$tag-dump" "$R" dump "$f"
	run "$tag-report" "$R" report "$f"
	run "$tag-top" "$R" top --batch "$f"
	run "$tag-chart" "$R" chart -o "$tag.svg" "$f"
	run "$tag-export" "$R" export --format chrome -o "$tag.json" "$f"
	run "$tag-diff" "$R" diff "$BOOT" "$f"
	run "$tag-check" "$R" check --budget budget "$f"
	run "$tag-db" "$R" db add "$tag.db" "$f"
	run "$tag-readahead" "$R" readahead -o "$tag.pack" "$f"
	run "$tag-critical" "$R" critical "$f"
}
READERS='dump report top chart export diff check db readahead critical'

readers cut.dat cut
for c in $READERS; do
	expect "$c: a cut recording: exit 0, the truncation warning once" \
		"[ \$(cat cut-$c.rc) = 0 ] && [ \$(grep -cxF '$warning' cut-$c.err) = 1 ] &&
		 [ \$(grep -c 'recording truncated' cut-$c.err) = 1 ] ||
		 { echo rc=\$(cat cut-$c.rc); cat cut-$c.err; false; }"
done
expect 'the cut recording still has events (read to its last complete page)' \
	"grep -q '^[0-9]' cut-dump.out && grep -q '^Files:' cut-top.out && [ -s cut.svg ] && [ -s cut.json ]"

# The whole recording: nothing to say about it.
readers "$BOOT" whole
for c in $READERS; do
	expect "$c: the whole recording: exit 0, no truncation warning" \
		"[ \$(cat whole-$c.rc) = 0 ] && ! grep -q 'recording truncated' whole-$c.err ||
		 { echo rc=\$(cat whole-$c.rc); cat whole-$c.err; false; }"
done

# Lost events: every reader that builds the model says its totals are lower
# bounds, in one wording (dump prints the losses in its header instead).
readers "$LOSSY" lossy
for c in $READERS; do
	[ $c = dump ] && continue
	expect "$c: lost events: exit 0, totals are lower bounds, once" \
		"[ \$(cat lossy-$c.rc) = 0 ] &&
		 [ \$(grep -cxF \"bootprof: warning: '$LOSSY' lost events while recording: totals are lower bounds\" lossy-$c.err) = 1 ] ||
		 { echo rc=\$(cat lossy-$c.rc); cat lossy-$c.err; false; }"
done
expect 'dump: lost events are in its header, not a warning' \
	"grep -q '^# lost events: [1-9]' lossy-dump.out && ! grep -q 'lost events while' lossy-dump.err"

# A damaged page: an error in every reader, never a partial answer.
if command -v python3 >/dev/null && python3 - "$BOOT" corrupt.dat "$TOP/tests/fuzz" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[3])
import tracedat
d = open(sys.argv[1], 'rb').read()
lay = tracedat.Layout(d)
# The first page of CPU 0 claims more bytes than a page holds.
at = lay.cpus[0][0] + 8
open(sys.argv[2], 'wb').write(d[:at] + struct.pack('<Q', lay.page_size * 2) + d[at + 8:])
PY
then
	readers corrupt.dat corrupt
	for c in $READERS; do
		expect "$c: a corrupt recording: exit 1, one line" \
			"[ \$(cat corrupt-$c.rc) = 1 ] && [ \$(wc -l <corrupt-$c.err) = 1 ] &&
			 grep -q \"'corrupt.dat' is corrupt: 1 ring-buffer pages are damaged\" corrupt-$c.err ||
			 { echo rc=\$(cat corrupt-$c.rc); cat corrupt-$c.err; false; }"
	done
else
	skip 'a corrupt recording in every reader' 'python3 cannot lay out the recording'
fi
