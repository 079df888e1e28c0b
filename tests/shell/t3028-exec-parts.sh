#!/bin/sh
# Exec parts: a shell script that execs a reader (a pyenv-style shim) has
# the reader's bytes and waits charged to the reader's program, not to the
# shell the process began as. Truth: the files' sizes in pages, and the
# page insertions of each reader's pid after its exec, summed with awk over
# the raw events of `bootprof dump`.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

PAGE=$(getconf PAGESIZE)
BASH=$(command -v bash) || skip_all "no bash"
CAT=$(command -v cat)
head -c 3000000 /dev/urandom >"$TEST_DIR/a.bin"
head -c 5000000 /dev/urandom >"$TEST_DIR/b.bin"
sync
# The programs warm, the data cold: the waits are the reader's.
"$BASH" -c "exec $CAT /dev/null"
for f in a b; do
	dd if="$TEST_DIR/$f.bin" iflag=nocache count=0 2>/dev/null ||
		skip_all "dd cannot drop a file's pages (iflag=nocache)"
done
t3_record "$TEST_DIR/r.dat" sh -c "
	'$BASH' -c 'exec $CAT \"$TEST_DIR/a.bin\" >/dev/null'
	'$BASH' -c 'exec $CAT \"$TEST_DIR/b.bin\" >/dev/null'"
t3_csv "$TEST_DIR/r.dat" execs >"$TEST_DIR/execs.csv"
t3_csv "$TEST_DIR/r.dat" processes >"$TEST_DIR/procs.csv"
"$BOOTPROF" dump "$TEST_DIR/r.dat" >"$TEST_DIR/dump.txt"

# Raw truth: bytes inserted for a file (dump prints inodes in hex) by the
# pid that exec'd the reader, after that exec.
inserted_after_exec() { # FILE -> bytes
	awk -v ino="$(printf '%x' "$(stat -c %i "$1")")" -v cat="$CAT" -v page="$PAGE" '
		/ sched_process_exec: / && index($0, "filename=" cat " ") {
			split($0, a, "pid="); split(a[2], b, " "); execd[b[1]] = 1 }
		/ mm_filemap_add_to_page_cache: / && $9 == ino && ($3 in execd) {
			o = $0; sub(/.*order=/, "", o); sum += page * 2 ^ (o + 0) }
		END { printf "%d\n", sum }' "$TEST_DIR/dump.txt"
}
want=0
for f in a b; do
	size=$(stat -c %s "$TEST_DIR/$f.bin")
	pages=$(( (size + PAGE - 1) / PAGE * PAGE ))
	raw=$(inserted_after_exec "$TEST_DIR/$f.bin")
	expect "$f.bin: the raw events insert its $pages bytes after the exec of cat (got $raw)" \
		"test '$raw' = $pages"
	want=$((want + pages))
done

cat_bytes=$(t3_field "$TEST_DIR/execs.csv" 1 "$CAT" 4)
bash_bytes=$(t3_field "$TEST_DIR/execs.csv" 1 "$BASH" 4)
expect "cat is exec'd twice and bash twice" \
	"test '$(t3_field "$TEST_DIR/execs.csv" 1 "$CAT" 2)' = 2 &&
	 test '$(t3_field "$TEST_DIR/execs.csv" 1 "$BASH" 2)' = 2"
expect "$CAT is charged the $want bytes of both files (got ${cat_bytes:-none})" \
	"test '${cat_bytes:-0}' -ge $want"
expect "$BASH is charged less than one file (got ${bash_bytes:-none})" \
	"test '${bash_bytes:--1}' -ge 0 && test '${bash_bytes:-0}' -lt 3000000"

# The parts add up to the processes: each shim process's wait and bytes
# are its bash part plus its cat part.
wcol=$(t3_col "$TEST_DIR/procs.csv" wait_ns)
bcol=$(t3_col "$TEST_DIR/procs.csv" bytes_read)
ecol=$(t3_col "$TEST_DIR/procs.csv" exec)
sum=$(awk -F, -v c="$CAT" -v e="$ecol" -v w="$wcol" -v b="$bcol" \
	'$e == c { wait += $w; bytes += $b } END { printf "%d %d\n", wait, bytes }' "$TEST_DIR/procs.csv")
cat_wait=$(awk -F, -v p="$CAT" '$1 == p { print $3 }' "$TEST_DIR/execs.csv")
bash_wait=$(awk -F, -v p="$BASH" '$1 == p { print $3 }' "$TEST_DIR/execs.csv")
expect "the shims' wait and bytes ($sum) are bash's part plus cat's ($((bash_wait + cat_wait)) $((bash_bytes + cat_bytes)))" \
	"test '$sum' = '$((bash_wait + cat_wait)) $((bash_bytes + cat_bytes))'"
expect "the cold reads' wait is cat's: more than bash's (cat $cat_wait ns, bash $bash_wait ns)" \
	"test '${cat_wait:-0}' -gt '${bash_wait:-0}'"
"$BOOTPROF" report "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
expect 'the text report lists both programs under repeated work' \
	"sed -n '/^== Repeated work: programs/,/^== /p' '$TEST_DIR/report.txt' >'$TEST_DIR/rep.txt' &&
	 grep -Eq '^ *2 .*$CAT\$' '$TEST_DIR/rep.txt' && grep -Eq '^ *2 .*$BASH\$' '$TEST_DIR/rep.txt'"
