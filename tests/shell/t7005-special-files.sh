#!/bin/sh
# A recording that is not a regular file (a FIFO, a directory, a device), or
# a killed recording whose spool holds one, is refused at once with one
# line and exit 1: never a hang in open() or read().
. "$(dirname "$0")/../test-lib.sh"

command -v python3 >/dev/null || skip_all "python3 not installed"
seed=$TOP/tests/fuzz/corpus/recordings/bootprof-default-events.dat

# one_line WHAT PATTERN CMD...: exit 1 within 10 s, one line on stderr matching PATTERN.
one_line() {
	what=$1 pattern=$2
	shift 2
	timeout 10 "$@" >"$TEST_DIR/out" 2>"$TEST_DIR/err"
	rc=$?
	expect "$what" \
		"[ $rc = 1 ] && [ \$(wc -l <'$TEST_DIR/err') = 1 ] &&
		 grep -q \"^bootprof: $pattern\" '$TEST_DIR/err' || { echo rc=$rc; cat '$TEST_DIR/err'; false; }"
}

mkfifo "$TEST_DIR/fifo.dat" || skip_all "cannot make a FIFO"
mkdir "$TEST_DIR/dir.dat"
for f in fifo.dat dir.dat; do
	for cmd in 'dump' 'dump --count' 'report' 'top --batch'; do
		# shellcheck disable=SC2086
		one_line "$f: $cmd" "cannot open '.*$f': not a regular file" \
			$BOOTPROF $cmd "$TEST_DIR/$f"
	done
done
one_line "/dev/zero: dump" "cannot open '/dev/zero': not a regular file" $BOOTPROF dump /dev/zero

# A killed recording: the provisional file and its spool. Read as it is, the
# spool gives every event of the recording it was made from.
python3 "$TOP/tests/fuzz/tracedat.py" killed "$seed" "$TEST_DIR/k.dat" abc123 ||
	skip_all "cannot lay out a killed recording"
spool=$TEST_DIR/.k.dat.spool-abc123
want=$($BOOTPROF_FAST dump --count "$seed" 2>/dev/null | sed -n 's/ total$//p')
expect 'killed recording: read from its spool' \
	"[ \"\$($BOOTPROF dump --count '$TEST_DIR/k.dat' 2>/dev/null | sed -n 's/ total$//p')\" = '$want' ]"

expect 'killed recording: warns it was not finished' \
	"$BOOTPROF dump --count '$TEST_DIR/k.dat' 2>&1 >/dev/null |
	 grep -qx 'bootprof: warning: recording was not finished (recorder killed?): read from its spool'"

# Left by a full disk at the end: the warning gives that cause, and the
# spool is whole, so the report is not marked truncated.
python3 "$TOP/tests/fuzz/tracedat.py" killed "$seed" "$TEST_DIR/full.dat" def456 disk-full
expect 'disk full at the end: the right cause' \
	"$BOOTPROF dump --count '$TEST_DIR/full.dat' 2>&1 >/dev/null | grep -qx \
	 'bootprof: warning: recording could not be finished (the disk was full): every page recorded is read from its spool'"
expect 'disk full at the end: every event' \
	"[ \"\$($BOOTPROF dump --count '$TEST_DIR/full.dat' 2>/dev/null | sed -n 's/ total$//p')\" = '$want' ]"
expect 'disk full at the end: not called truncated' \
	"$BOOTPROF report '$TEST_DIR/full.dat' 2>/dev/null >'$TEST_DIR/full.txt' && ! grep -q TRUNCATED '$TEST_DIR/full.txt'"
expect 'killed: called truncated' \
	"$BOOTPROF report '$TEST_DIR/k.dat' 2>/dev/null | grep -q TRUNCATED"
rm -r "$TEST_DIR"/.full.dat.spool-def456
one_line 'disk full at the end, spool gone: says so' \
	"'.*full.dat' could not be finished (the disk was full) and its spool '.\\*.spool-def456' is gone" \
	$BOOTPROF dump "$TEST_DIR/full.dat"

# A FIFO (then a directory) in place of a CPU's spool file.
rm "$spool/cpu1"
mkfifo "$spool/cpu1"
for cmd in 'dump --count' 'report'; do
	# shellcheck disable=SC2086
	one_line "FIFO in the spool: $cmd" \
		"cannot read the spool of '.*k.dat': '.k.dat.spool-abc123/cpu1' is not a regular file" \
		$BOOTPROF $cmd "$TEST_DIR/k.dat"
done
rm "$spool/cpu1"
mkdir "$spool/cpu1"
one_line "directory in the spool: dump" \
	"cannot read the spool of '.*k.dat': '.k.dat.spool-abc123/cpu1' is not a regular file" \
	$BOOTPROF dump "$TEST_DIR/k.dat"
