#!/bin/sh
# The recorder runs as root: its output must never be a way to write
# somewhere else. A symbolic link planted at the output path is refused,
# with and without --force, and its target is untouched; --force over a
# hard link replaces the name, not the linked file; recordings are 0600
# whatever the umask.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs

tracing_snapshot
one_line() {
	[ "$(wc -l <"$TEST_DIR/stderr")" = 1 ] && grep -q "^bootprof: $1" "$TEST_DIR/stderr"
}
record() {
	sh -c 'echo $$ >"$0/pid"; exec "$@"' "$TEST_DIR" $BOOTPROF record --duration 0.2 "$@" \
		>/dev/null 2>"$TEST_DIR/stderr"
}

echo precious >"$TEST_DIR/target"
ln -s "$TEST_DIR/target" "$TEST_DIR/link.dat"
for force in '' --force; do
	record -o "$TEST_DIR/link.dat" $force
	rc=$?
	what="symlink at the output${force:+ with $force}"
	expect "$what: exit 1, one line" "[ $rc = 1 ] && one_line || { cat '$TEST_DIR/stderr'; false; }"
	expect "$what: the link is left" "test -L '$TEST_DIR/link.dat'"
	expect "$what: its target is untouched" "[ \"\$(cat '$TEST_DIR/target')\" = precious ]"
	expect "$what: no spool left" "! ls -d '$TEST_DIR/'.link.dat.spool-* 2>/dev/null"
	expect_tracing_clean "$what" "$(cat "$TEST_DIR/pid")"
done
expect 'symlink with --force: says why' "grep -q 'symbolic link' '$TEST_DIR/stderr'"

# A dangling link: creating through it would create its target.
ln -s "$TEST_DIR/created-through-link" "$TEST_DIR/dangling.dat"
for force in '' --force; do
	record -o "$TEST_DIR/dangling.dat" $force
	rc=$?
	expect "dangling symlink${force:+ with $force}: exit 1, nothing created" \
		"[ $rc = 1 ] && one_line && ! test -e '$TEST_DIR/created-through-link'"
done

# --force over a hard link: the name is replaced, the other file keeps its bytes.
echo precious >"$TEST_DIR/other"
ln "$TEST_DIR/other" "$TEST_DIR/hard.dat"
record -o "$TEST_DIR/hard.dat" --force
expect 'hard link with --force: recorded' "[ $? = 0 ]"
expect 'hard link with --force: the linked file is untouched' "[ \"\$(cat '$TEST_DIR/other')\" = precious ]"

# 0600 even with umask 0.
(umask 0 && record -o "$TEST_DIR/mode.dat")
expect 'recording is 0600 under umask 0' "[ \$(stat -c %a '$TEST_DIR/mode.dat') = 600 ]"
expect 'recording belongs to root' "[ \$(stat -c %u '$TEST_DIR/mode.dat') = 0 ]"
