#!/bin/sh
# bootprof and trace-cmd read each other's recordings and agree on them:
# a real instance recorded by hand and extracted by trace-cmd (v7 with zstd,
# converted to v6 and to uncompressed v7) must show, in `bootprof dump`, the
# same number of events of each type as in `trace-cmd report`; a file
# written by bootprof's writer must open in `trace-cmd report` with exit 0,
# nothing on stderr, and the same counts.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"

command -v trace-cmd >/dev/null || skip_all "trace-cmd not installed"
require_tracefs

I=bootprof-$$
INST=$TRACEFS/instances/$I
remove_instance() { [ -d "$INST" ] && rmdir "$INST"; return 0; }
trap 'remove_instance; rm -rf "$TEST_DIR"' EXIT
tracing_snapshot

# "count event" per event type, sorted, from trace-cmd report: the event name
# is the word after the timestamp: "1234.567890:", or "[001]1234567890123:"
# for clocks trace-cmd prints raw (boot, the clock bootprof records with).
tracecmd_counts() {
	trace-cmd report "$1" 2>"$TEST_DIR/.tc-err" |
		awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/ || $i ~ /^\[[0-9]+\][0-9]+:$/) { sub(/:$/, "", $(i+1)); print $(i+1); break } }' |
		sort | uniq -c | awk '{ print $1, $2 }' | sort -k2
}

# The same from bootprof dump --count ("count system:event").
bootprof_counts() {
	"$BOOTPROF" dump --count "$1" 2>"$TEST_DIR/.bp-err" | grep -v '^#' |
		grep -v ' total$' | sed 's/ [^ :]*:/ /' | sort -k2
}

same_counts() {
	tracecmd_counts "$1" >"$TEST_DIR/tc.counts" &&
		bootprof_counts "$1" >"$TEST_DIR/bp.counts" &&
		test -s "$TEST_DIR/tc.counts" &&
		diff "$TEST_DIR/tc.counts" "$TEST_DIR/bp.counts"
}

# ---- record by hand: an instance with sched, block and filemap events ----
mkdir "$INST" || skip_all "cannot create a tracefs instance"
echo 4096 >"$INST/buffer_size_kb"
for sys in sched block filemap; do
	[ -e "$INST/events/$sys/enable" ] && echo 1 >"$INST/events/$sys/enable"
done
mkdir "$TEST_DIR/data"
for n in 1 2 3 4; do
	dd if=/dev/urandom of="$TEST_DIR/data/f$n" bs=64k count=16 2>/dev/null
done
drop_caches
echo 1 >"$INST/tracing_on"
cat "$TEST_DIR"/data/* >/dev/null
echo 0 >"$INST/tracing_on"
trace-cmd extract -B "$I" -o "$TEST_DIR/ex.dat" >/dev/null 2>&1
remove_instance
expect_tracing_clean "recording by hand" $$

if [ ! -s "$TEST_DIR/ex.dat" ]; then
	skip "trace-cmd extract" "produced no file"
	exit 0
fi

version() { head -c 11 "$1" | tail -c 1; }
expect "trace-cmd extract wrote a recording ($(version "$TEST_DIR/ex.dat"))" \
	"test -s '$TEST_DIR/ex.dat'"
expect "extracted: dump counts = trace-cmd report counts" "same_counts '$TEST_DIR/ex.dat'"
expect "extracted: dump says nothing on stderr" "test ! -s '$TEST_DIR/.bp-err'"

trace-cmd convert -i "$TEST_DIR/ex.dat" --file-version 6 -o "$TEST_DIR/v6.dat" >/dev/null 2>&1
trace-cmd convert -i "$TEST_DIR/ex.dat" --file-version 7 --compression none \
	-o "$TEST_DIR/v7n.dat" >/dev/null 2>&1
if [ "$(version "$TEST_DIR/v6.dat" 2>/dev/null)" = 6 ]; then
	expect "v6: dump counts = trace-cmd report counts" "same_counts '$TEST_DIR/v6.dat'"
	expect "v6: dump header says version 6" \
		"'$BOOTPROF' dump '$TEST_DIR/v6.dat' | grep -q '^# file: .*trace.dat version 6'"
else
	skip "v6" "trace-cmd convert cannot write version 6"
fi
if [ "$(version "$TEST_DIR/v7n.dat" 2>/dev/null)" = 7 ]; then
	expect "v7 uncompressed: dump counts = trace-cmd report counts" \
		"same_counts '$TEST_DIR/v7n.dat'"
else
	skip "v7 uncompressed" "trace-cmd convert cannot write it"
fi
if trace-cmd convert -i "$TEST_DIR/ex.dat" --file-version 7 --compression zstd \
	-o "$TEST_DIR/v7z.dat" >/dev/null 2>&1; then
	expect "v7 zstd: dump counts = trace-cmd report counts" "same_counts '$TEST_DIR/v7z.dat'"
else
	skip "v7 zstd" "trace-cmd cannot compress with zstd"
fi

# ---- a file written by bootprof's writer ----
# Until bootprof record exists everywhere, the writer is driven by
# tests/fixtures/rewrite.c: the v6 file's pages spliced into bp_writer again.
case "$BUILD" in *asan*) san="-fsanitize=address,undefined" ;; *) san= ;; esac
if [ -e "$BUILD/libbootprof.a" ] &&
	cc -std=gnu11 -D_GNU_SOURCE $san -I"$TOP/src" -o "$TEST_DIR/rewrite" \
		"$TOP/tests/fixtures/rewrite.c" "$BUILD/libbootprof.a" \
		$(pkg-config --libs libtraceevent libzstd) 2>"$TEST_DIR/.cc-err" &&
	[ -s "$TEST_DIR/v6.dat" ]; then
	expect "writer: rewrite the v6 recording" \
		"'$TEST_DIR/rewrite' '$TEST_DIR/v6.dat' '$TEST_DIR/bp.dat'"
	expect "writer: output is private (0600)" \
		"test \"\$(stat -c %a '$TEST_DIR/bp.dat')\" = 600"
	expect "writer: trace-cmd report exits 0 with nothing on stderr" \
		"trace-cmd report '$TEST_DIR/bp.dat' >/dev/null 2>'$TEST_DIR/.tc2-err' && test ! -s '$TEST_DIR/.tc2-err'"
	expect "writer: dump counts = trace-cmd report counts" "same_counts '$TEST_DIR/bp.dat'"
	expect "writer: same counts as the file it was made from" \
		"'$BOOTPROF' dump --count '$TEST_DIR/v6.dat' | grep -v '^#' >'$TEST_DIR/a' &&
		 '$BOOTPROF' dump --count '$TEST_DIR/bp.dat' | grep -v '^#' >'$TEST_DIR/b' &&
		 diff '$TEST_DIR/a' '$TEST_DIR/b'"
	expect "writer: bootprof metadata survives (paths, version)" \
		"'$BOOTPROF' dump --meta '$TEST_DIR/bp.dat' | grep -q '^# path: 254:0 13 /usr/bin/a file with spaces'"
	expect "writer: no spool left beside the output" \
		"! ls -a '$TEST_DIR' | grep -q spool"
else
	skip "writer" "cannot build tests/fixtures/rewrite.c: $(head -n 1 "$TEST_DIR/.cc-err" 2>/dev/null)"
fi

# bootprof record, once it is built, is checked the same way.
if "$BOOTPROF" record -o "$TEST_DIR/rec.dat" -- cat "$TEST_DIR"/data/f1 \
	>"$TEST_DIR/.rec-out" 2>&1 && [ -s "$TEST_DIR/rec.dat" ]; then
	expect "record: trace-cmd report exits 0 with nothing on stderr" \
		"trace-cmd report '$TEST_DIR/rec.dat' >/dev/null 2>'$TEST_DIR/.tc3-err' && test ! -s '$TEST_DIR/.tc3-err'"
	expect "record: dump counts = trace-cmd report counts" "same_counts '$TEST_DIR/rec.dat'"
else
	skip "record" "bootprof record did not produce a recording: $(head -n 1 "$TEST_DIR/.rec-out")"
fi

# ---- dump's header and failure modes ----
expect "dump header always states lost events" \
	"'$BOOTPROF' dump '$TEST_DIR/ex.dat' | grep -q '^# lost events: '"
size=$(stat -c %s "$TEST_DIR/v6.dat" 2>/dev/null || echo 0)
if [ "$size" -gt 65536 ]; then
	head -c $((size - 5000)) "$TEST_DIR/v6.dat" >"$TEST_DIR/cut.dat"
	expect "truncated: dump exits 0 with a one-line warning per problem" \
		"'$BOOTPROF' dump '$TEST_DIR/cut.dat' >'$TEST_DIR/cut.out' 2>'$TEST_DIR/cut.err' &&
		 grep -q '^bootprof: warning: recording truncated: 5000 of [0-9]* bytes of CPU [0-9]* data missing$' '$TEST_DIR/cut.err'"
	expect "truncated: the complete pages are still printed" \
		"test \$(grep -vc '^#' '$TEST_DIR/cut.out') -gt 0"
fi
expect "missing file: exit 1 and one line" \
	"! '$BOOTPROF' dump '$TEST_DIR/none.dat' >'$TEST_DIR/o' 2>'$TEST_DIR/e' &&
	 test \"\$(cat '$TEST_DIR/e')\" = \"bootprof: cannot open '$TEST_DIR/none.dat': No such file or directory\""
expect "not a recording: exit 1 and one line" \
	"! '$BOOTPROF' dump /etc/passwd 2>'$TEST_DIR/e' &&
	 test \"\$(cat '$TEST_DIR/e')\" = \"bootprof: '/etc/passwd' is not a trace.dat recording\""
expect "usage error exits 2" "'$BOOTPROF' dump --bogus 2>/dev/null; test \$? = 2"
