#!/bin/sh
# No terminal escapes from a recording: a file whose path holds
# "\033]0;pwned\007\033[2J" (set the terminal title, clear the screen),
# read by a program whose comm holds ESC and BEL, recorded for real. Every
# text output (text, markdown, csv, dump, dump --meta, top --batch) shows
# them as the text \x1b and \x07 and never writes an ESC or BEL byte;
# JSON escapes them as RFC 8259 says and keeps the full path.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

EVIL=$(printf '\033]0;pwned\007\033[2J')
D=$TEST_DIR/d
mkdir -p "$D"
head -c 65536 /dev/urandom >"$D/${EVIL}data"
# comm is the executable's name, at most 15 bytes.
cp "$(command -v cat)" "$D/${EVIL}"
chmod 755 "$D/${EVIL}"
sync
drop_caches
t3_record "$TEST_DIR/r.dat" sh -c "'$D/$EVIL' '$D/${EVIL}data' >/dev/null"
expect 'the recording exists' "test -s '$TEST_DIR/r.dat'"

raw() { # FILE: fails when FILE holds an ESC or BEL byte
	! LC_ALL=C grep -q "$(printf '[\033\007]')" "$1"
}
"$BOOTPROF" report --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/out.txt" 2>"$TEST_DIR/err.txt"
expect 'text report: the path and comm are shown, escaped' \
	"grep -qF '\\x1b]0;pwned\\x07\\x1b[2Jdata' '$TEST_DIR/out.txt' &&
	 grep -qF '\\x1b]0;pwned\\x07' '$TEST_DIR/out.txt'"
expect 'text report: no ESC or BEL byte (stdout and stderr)' \
	"raw '$TEST_DIR/out.txt' && raw '$TEST_DIR/err.txt'"
"$BOOTPROF" report --format markdown --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/out.md" 2>&1
expect 'markdown report: escaped, no ESC or BEL byte' \
	"grep -qF '\\x1b]0;pwned\\x07\\x1b[2Jdata' '$TEST_DIR/out.md' && raw '$TEST_DIR/out.md'"
for t in processes files readers; do
	"$BOOTPROF" report --table $t --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/out.$t.csv" 2>&1
	expect "csv $t: escaped, no ESC or BEL byte" \
		"grep -qF '\\x1b]0;pwned\\x07' '$TEST_DIR/out.$t.csv' && raw '$TEST_DIR/out.$t.csv'"
done
"$BOOTPROF" report --format json --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/out.json" 2>&1
expect 'json: valid, the full path escaped per RFC 8259, no ESC or BEL byte' \
	"raw '$TEST_DIR/out.json' && grep -qF '\\u001b]0;pwned\\u0007\\u001b[2Jdata' '$TEST_DIR/out.json' &&
	 jq -e --arg p '$D/${EVIL}data' '[.files[].path] | index(\$p) != null' '$TEST_DIR/out.json' >/dev/null"
"$BOOTPROF" dump "$TEST_DIR/r.dat" >"$TEST_DIR/out.dump" 2>&1
expect 'dump: the comm and exec path escaped, no ESC or BEL byte' \
	"grep -qF '\\x1b]0;pwned\\x07' '$TEST_DIR/out.dump' && raw '$TEST_DIR/out.dump'"
"$BOOTPROF" dump --meta --count "$TEST_DIR/r.dat" >"$TEST_DIR/out.meta" 2>&1
expect 'dump --meta: the path table escaped, no ESC or BEL byte' \
	"grep -qF '\\x1b]0;pwned\\x07\\x1b[2Jdata' '$TEST_DIR/out.meta' && raw '$TEST_DIR/out.meta'"
for v in files procs; do
	"$BOOTPROF" top --batch --view $v --width 200 "$TEST_DIR/r.dat" >"$TEST_DIR/out.top.$v" 2>&1
	expect "top --batch --view $v: escaped, no ESC or BEL byte" \
		"grep -qF '\\x1b]0;pwned\\x07' '$TEST_DIR/out.top.$v' && raw '$TEST_DIR/out.top.$v'"
done
