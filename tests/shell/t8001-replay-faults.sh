#!/bin/sh
# bootprof replay on bad input: a missing pack, corrupt packs (each fails
# with one line, never a crash), files that are unreadable, replaced by a
# FIFO, or on another disk (skipped, counted, never read), and a deadline.
# Packs are written by hand here: the format is the contract (bootprof-pack(5)).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"

D=$TEST_DIR/data
mkdir -p "$D"
head -c 65536 /dev/urandom >"$D/one"
head -c 65536 /dev/urandom >"$D/two"
# ident FILE: the identity fields of a pack line
ident() { stat -c '%Hd:%Ld %i %s %.9Y %.9Z' "$1"; }
good() {
	echo "bootprof-pack 1"
	echo "page-size 4096"
	echo "order first-use"
	echo "file $(ident "$D/one") 1.000000000 0 0+16 $D/one"
	echo "file $(ident "$D/two") 2.000000000 0 0+4,8+8 $D/two"
}
good >"$TEST_DIR/good.pack"
expect 'a well-formed pack replays: 2 of 2 files' \
	"'$BOOTPROF' replay '$TEST_DIR/good.pack' | grep -q '^started reads of 2 of 2 files, $((16 * 4096 + 12 * 4096)) bytes in '"
expect 'replay --wait: preloaded, all of it resident' \
	"'$BOOTPROF' replay --wait '$TEST_DIR/good.pack' | grep -q '^preloaded 2 of 2 files, $((16 * 4096 + 12 * 4096)) bytes resident in '"
expect '--explain reads it' "'$BOOTPROF' readahead --explain '$TEST_DIR/good.pack' | grep -q '2 files'"

# fails WHAT FILE: one line on stderr, status 1, nothing on stdout.
fails() {
	"$BOOTPROF" replay "$2" >"$TEST_DIR/out" 2>"$TEST_DIR/err"
	rc=$?
	expect "$1: replay fails with one line, status 1" \
		"[ $rc = 1 ] && [ \$(wc -l <'$TEST_DIR/err') = 1 ] && grep -q '^bootprof: ' '$TEST_DIR/err' && [ ! -s '$TEST_DIR/out' ]"
	"$BOOTPROF" readahead --explain "$2" >/dev/null 2>&1
	expect "$1: --explain fails too" "[ $? = 1 ]"
}
fails 'missing pack' "$TEST_DIR/none.pack"
expect 'missing pack: the message names it and the cause' \
	"grep -q \"cannot open '$TEST_DIR/none.pack': No such file or directory\" '$TEST_DIR/err'"
fails 'empty pack' /dev/null
: >"$TEST_DIR/empty.pack"
fails 'empty file' "$TEST_DIR/empty.pack"
n=0
while IFS='|' read -r what from to; do
	n=$((n + 1))
	good | sed "$from" >"$TEST_DIR/bad$n.pack"
	fails "$what" "$TEST_DIR/bad$n.pack"
done <<'EOT'
no version line|1d
another version|1s/1$/2/
not a pack at all|1s/.*/\x7fELF/
a range with no pages|4s/0+16/0+0/
overlapping ranges|5s/0+4,8+8/0+4,2+8/
ranges out of order|5s/0+4,8+8/8+8,0+4/
a relative path|4s# /# #
a path with a bad escape|4s#one$#one\\9#
a huge page index|4s/0+16/99999999999999999999999+1/
a huge device number|4s/^file [0-9]*:/file 99999:/
nanoseconds of 8 digits|4s/\(\.[0-9]\{8\}\)[0-9]/\1/
a page size that is no power of two|2s/4096/4000/
a truncated file line|4s/ [^ ]*$//
EOT
good | head -c -3 >"$TEST_DIR/cut.pack"
fails 'a pack cut in its last line' "$TEST_DIR/cut.pack"
head -c 70000000 /dev/zero >"$TEST_DIR/huge.pack"
fails 'a pack over the size cap' "$TEST_DIR/huge.pack"
expect 'a pack over the size cap: the message says so' "grep -q 'too large' '$TEST_DIR/err'"

# Skipped, counted, exit 0: a file on another disk (the pack of another machine).
good | sed '4s/^file [0-9]*:[0-9]*/file 8:99/' >"$TEST_DIR/other-disk.pack"
expect 'a pack for another disk: the file is stale, skipped' \
	"'$BOOTPROF' replay '$TEST_DIR/other-disk.pack' | grep -q '^started reads of 1 of 2 files, .* skipped 1 stale, 0 missing'"
good | sed "4s#$D/one#$D/absent#" >"$TEST_DIR/missing-file.pack"
expect 'a file that is gone: missing, skipped' \
	"'$BOOTPROF' replay '$TEST_DIR/missing-file.pack' | grep -q 'skipped 0 stale, 1 missing'"
good >"$TEST_DIR/fifo.pack"
mv "$D/one" "$D/one.keep" && mkfifo "$D/one"
expect 'a FIFO where a file was: skipped as stale, no hang' \
	"timeout 10 '$BOOTPROF' replay '$TEST_DIR/fifo.pack' | grep -q 'skipped 1 stale'"
rm -f "$D/one" && mv "$D/one.keep" "$D/one"
good >"$TEST_DIR/good.pack"  # the rename changed the file's ctime
ln -s "$D/two" "$TEST_DIR/link"
good | sed "4s#$D/one#$TEST_DIR/link#" >"$TEST_DIR/link.pack"
expect 'a symbolic link where a file was: not followed, skipped as stale' \
	"'$BOOTPROF' replay '$TEST_DIR/link.pack' | grep -q 'skipped 1 stale'"
expect 'a deadline already past: nothing preloaded, said so' \
	"'$BOOTPROF' replay --deadline 0.000000001 '$TEST_DIR/good.pack' | grep -q '^started reads of 0 of 2 files, 0 bytes.*stopped at the deadline (2 files not preloaded)'"
expect 'options: threads, idle I/O priority, fadvise' \
	"'$BOOTPROF' replay -j 2 --ioprio idle --fadvise '$TEST_DIR/good.pack' | grep -q '^started reads of 2 of 2'"
expect 'a bad option value is a usage error (2)' \
	"'$BOOTPROF' replay --ioprio fast '$TEST_DIR/good.pack' 2>/dev/null; [ \$? = 2 ]"

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	# The pack readable by nobody, the data directory not.
	chmod 711 "$TEST_DIR"
	cp "$TEST_DIR/good.pack" "$TEST_DIR/pub.pack" && chmod 644 "$TEST_DIR/pub.pack"
	chmod 700 "$D"
	expect 'unreadable files: skipped as unreadable, exit 0' \
		"setpriv --reuid=65534 --regid=65534 --clear-groups '$BOOTPROF' replay '$TEST_DIR/pub.pack' |
		 grep -q '^started reads of 0 of 2 files.* 2 unreadable'"
	chmod 700 "$TEST_DIR"
else
	skip 'unreadable files' 'needs root and setpriv'
fi
