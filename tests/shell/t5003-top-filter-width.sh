#!/bin/sh
# top's filter and layout. The filter (/, --filter) picks rows among those
# of the view, in the command's focus as with --all: readlink, run deep in
# the recorded command's tree, is found by "read" (its pid from the raw exec
# event of `bootprof dump`). The tree view keeps every name whole at 80
# columns (indentation shrinks first; names from the processes table). As
# the width shrinks, columns drop in their documented order and the path
# stays (on the fixture recording).
# tags: records
. "$(dirname "$0")/../test-lib.sh"

# 1. Columns by width, on the fixture: the files view's header at each width.
FIX=$TOP/tests/fixtures
[ -f "$FIX/top-small.dat.gz" ] || skip_all "no fixture top-small.dat.gz"
gzip -dc "$FIX/top-small.dat.gz" >"$TEST_DIR/small.dat"
head_at() { # VIEW WIDTH -> the list's header, spaces squeezed
	"$BOOTPROF" top --batch --view "$1" --width "$2" "$TEST_DIR/small.dat" |
		grep -E '^ +(WAIT|PID) ' | head -n 1 | tr -s ' ' | sed 's/^ //'
}
for case in "files 100:WAIT READ NEVER USED RE-READ READERS PATH" \
	"files 60:WAIT READ NEVER USED READERS PATH" "files 40:WAIT READ PATH" \
	"procs 100:PID COMM WAIT TREE WAIT CPU READ FILES START WORST FILE" \
	"procs 80:PID COMM WAIT TREE WAIT CPU READ WORST FILE" \
	"procs 60:PID COMM WAIT READ WORST FILE"; do
	got=$(head_at ${case%%:*})
	expect "${case%%:*} columns: ${case#*:} (got $got)" "[ '$got' = '${case#*:}' ]"
done
"$BOOTPROF" top --batch --width 40 "$TEST_DIR/small.dat" >"$TEST_DIR/w40.txt"
expect 'at 40 columns the paths are shown, their ends kept' \
	"grep -Eq ' /.*/data[123]\\.bin\$' '$TEST_DIR/w40.txt'"
"$BOOTPROF" top --batch --width 40 --sort reread "$TEST_DIR/small.dat" >"$TEST_DIR/w40r.txt"
expect 'the sort column stays whatever the width' "grep -Eq '^ +WAIT +RE-READ PATH\$' '$TEST_DIR/w40r.txt'"
"$BOOTPROF" top --batch --filter "$(printf 'a\tb')" "$TEST_DIR/small.dat" >/dev/null 2>"$TEST_DIR/err"
rc=$?
expect "a filter with a control character is a usage error, status 2 (got $rc)" \
	"[ $rc = 2 ] && head -n 1 '$TEST_DIR/err' | grep -q '^bootprof: bad filter: at most 127 printable'"

# 2. A recorded command: readlink at the end of a chain of shells.
if ! can_record; then
	skip 'the filter and the tree on a recorded command' 'cannot record here'
	exit 0
fi
require_tracefs
cat >"$TEST_DIR/nest.sh" <<'SH'
n=${1:-0}
if [ "$n" -lt 6 ]; then sh "$0" $((n + 1)); else readlink /proc/self/exe >/dev/null; fi
SH
"$BOOTPROF_FAST" record -o "$TEST_DIR/r.dat" -- sh "$TEST_DIR/nest.sh" 2>"$TEST_DIR/rec.err" ||
	{ cat "$TEST_DIR/rec.err"; not_ok 'record the command'; exit 0; }
pid=$("$BOOTPROF" dump --events sched:sched_process_exec "$TEST_DIR/r.dat" |
	sed -n 's|.* sched_process_exec: filename=[^ ]*/readlink pid=\([0-9]*\) .*|\1|p' | head -n 1)
expect "the raw events exec readlink (pid ${pid:-none})" "[ -n '$pid' ]"
for all in '' --all; do
	"$BOOTPROF" top --batch --view procs --filter read $all "$TEST_DIR/r.dat" >"$TEST_DIR/f$all.txt"
	expect "top --filter read ${all:-(the command's focus)} lists readlink, pid $pid" \
		"grep -Eq '^ *$pid readlink ' '$TEST_DIR/f$all.txt'"
done
expect 'in the focus it is the only row, of the whole tree' \
	"grep -Eq '^Processes: 1 of [0-9]+, by WAIT +filter: read' '$TEST_DIR/f.txt' &&
	 [ \$(grep -c 'sh ' '$TEST_DIR/f.txt') = 0 ]"
"$BOOTPROF" report --format csv --table processes --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/p.csv"
"$BOOTPROF" top --batch --view procs --tree --width 80 "$TEST_DIR/r.dat" >"$TEST_DIR/tree.txt"
n=0 cut=''
while IFS=, read -r p _ comm _; do
	[ "$p" = pid ] && continue
	n=$((n + 1))
	grep -Eq "^ *$p +$comm( |\$)" "$TEST_DIR/tree.txt" || cut="$cut $p:$comm"
done <"$TEST_DIR/p.csv"
expect "the tree at 80 columns shows the $n names whole${cut:+ (cut:$cut)}" "[ $n -ge 8 ] && [ -z '$cut' ]"
