#!/bin/sh
# A program re-executing itself through /proc/self/exe (as busybox does) is
# reported as the program, not as /proc/self/exe: in a forked child (the
# program it inherited) and in the process itself (its own last exec), and
# each file it then reads is charged to it. Truth: the raw exec events of
# `bootprof dump` name /proc/self/exe, and the files' sizes in pages.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

PAGE=$(getconf PAGESIZE)
t3_helper t3-selfexec
PROG=$TEST_DIR/t3-selfexec
head -c 1000000 /dev/urandom >"$TEST_DIR/a.bin"
head -c 2000000 /dev/urandom >"$TEST_DIR/b.bin"
sync
"$PROG" /dev/null /dev/null
for f in a b; do
	dd if="$TEST_DIR/$f.bin" iflag=nocache count=0 2>/dev/null ||
		skip_all "dd cannot drop a file's pages (iflag=nocache)"
done
t3_record "$TEST_DIR/r.dat" "$PROG" "$TEST_DIR/a.bin" "$TEST_DIR/b.bin"
"$BOOTPROF" dump --events sched:sched_process_exec "$TEST_DIR/r.dat" >"$TEST_DIR/execs.txt"
raw=$(grep -c 'filename=/proc/self/exe ' "$TEST_DIR/execs.txt")
expect "the kernel's exec events name /proc/self/exe twice (got $raw)" "test '$raw' = 2"

t3_csv "$TEST_DIR/r.dat" execs >"$TEST_DIR/execs.csv"
t3_csv "$TEST_DIR/r.dat" processes >"$TEST_DIR/procs.csv"
n=$(t3_field "$TEST_DIR/execs.csv" 1 "$PROG" 2)
expect "the program is exec'd three times (got ${n:-none})" "test '${n:-0}' = 3"
expect 'no exec is reported as /proc/self/exe' "! grep -q '/proc/self/exe' '$TEST_DIR/execs.csv'"
ecol=$(t3_col "$TEST_DIR/procs.csv" exec)
n=$(awk -F, -v e="$ecol" -v p="$PROG" '$e == p' "$TEST_DIR/procs.csv" | wc -l)
expect "both processes' program is $PROG (got $n)" "test $n = 2"
want=0
for f in a b; do
	size=$(stat -c %s "$TEST_DIR/$f.bin")
	want=$((want + (size + PAGE - 1) / PAGE * PAGE))
done
bytes=$(t3_field "$TEST_DIR/execs.csv" 1 "$PROG" 4)
expect "the program is charged both files' $want bytes (got ${bytes:-none})" \
	"test '${bytes:-0}' -ge $want"
"$BOOTPROF" report --format json "$TEST_DIR/r.dat" >"$TEST_DIR/r.json"
expect 'the JSON exec histories name the program, not /proc/self/exe' \
	"grep -q '\"$PROG\"' '$TEST_DIR/r.json' && ! grep -q '/proc/self/exe' '$TEST_DIR/r.json'"

# Busybox: a script run by busybox's sh (through a link) runs cat as an
# applet, re-executing busybox through /proc/self/exe. That exec is the
# busybox binary (the script's interpreter, the link followed), and the
# file cat reads is charged to it.
BB=$(command -v busybox) || { skip 'a busybox script' 'no busybox'; exit 0; }
BB=$(readlink -f "$BB")
ln -s "$BB" "$TEST_DIR/sh"
printf '#!%s\ncat %s >/dev/null\n' "$TEST_DIR/sh" "$TEST_DIR/a.bin" >"$TEST_DIR/script"
chmod +x "$TEST_DIR/script"
dd if="$TEST_DIR/a.bin" iflag=nocache count=0 2>/dev/null
t3_record "$TEST_DIR/bb.dat" "$TEST_DIR/script"
raw=$("$BOOTPROF" dump --events sched:sched_process_exec "$TEST_DIR/bb.dat" | grep -c 'filename=/proc/self/exe ')
if [ "$raw" = 0 ]; then
	skip 'a busybox script' "this busybox's sh runs cat without re-executing itself"
	exit 0
fi
t3_csv "$TEST_DIR/bb.dat" execs >"$TEST_DIR/bb.csv"
n=$(t3_field "$TEST_DIR/bb.csv" 1 "$BB" 2)
bytes=$(t3_field "$TEST_DIR/bb.csv" 1 "$BB" 4)
size=$(stat -c %s "$TEST_DIR/a.bin")
want=$(( (size + PAGE - 1) / PAGE * PAGE ))
expect "busybox's $raw re-execs through /proc/self/exe are reported as $BB (got ${n:-none})" \
	"test '${n:-0}' = '$raw'"
expect "and charged the $want bytes cat read (got ${bytes:-none})" "test '${bytes:-0}' -ge $want"
