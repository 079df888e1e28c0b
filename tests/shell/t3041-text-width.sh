#!/bin/sh
# The text report never cuts a number: at --width 60 every line fits and
# every value of the 200-column report is still there, whole (wrapped onto
# continuation lines); a cut list says how many rows it left out and how
# to see them; the report ends with its legend; bad widths are refused.
. "$(dirname "$0")/../test-lib.sh"

cd "$TOP" || exit 1
F=tests/fixtures/basic.dat
"$BOOTPROF" report --width 200 "$F" >"$TEST_DIR/wide.txt" 2>/dev/null
"$BOOTPROF" report --width 60 "$F" >"$TEST_DIR/narrow.txt" 2>/dev/null
expect '--width 60: every line fits' "awk 'length > 60 { print; exit 1 }' '$TEST_DIR/narrow.txt'"
# Values with their units, in order, as the wide report has them.
values() {
	grep -Eo '[0-9]+(\.[0-9]+)? (ms|s|B|KiB|MiB|GiB)\b|[0-9]+(\.[0-9]+)?%' "$1"
}
values "$TEST_DIR/wide.txt" >"$TEST_DIR/wide.values"
values "$TEST_DIR/narrow.txt" >"$TEST_DIR/narrow.values"
expect '--width 60: every value of the wide report is there, whole and in order' \
	"test -s '$TEST_DIR/wide.values' && diff '$TEST_DIR/wide.values' '$TEST_DIR/narrow.values'"
expect '--width 60: a long summary line goes on under its value' \
	"sed '/^== Legend/q' '$TEST_DIR/narrow.txt' | grep -A1 '^  by cause: ' | tail -n 1 | grep -Eq '^ {25}[a-z]'"
expect 'the report ends with its legend, then the manual' \
	"sed -n '/^== Legend/,\$p' '$TEST_DIR/wide.txt' | grep -q '^  attributed: ' &&
	 grep -q '^  \\[unresolved MAJ:MIN:INO\\]: ' '$TEST_DIR/wide.txt' &&
	 test \"\$(tail -n 1 '$TEST_DIR/wide.txt')\" = 'see bootprof-report(1)'"

# "... N more": N is what --top 0 shows beyond --top 2.
"$BOOTPROF" report --top 2 "$F" >"$TEST_DIR/top2.txt" 2>/dev/null
"$BOOTPROF" report --top 0 "$F" >"$TEST_DIR/all.txt" 2>/dev/null
rows() { # FILE SECTION: rows of its table (no detail lines in it)
	sed -n "/^== $2\$/,/^\$/p" "$1" | sed '1,2d' | awk 'NF && !/^\.\.\. / { n++ } END { print n + 0 }'
}
all=$(rows "$TEST_DIR/all.txt" 'Top files by bytes read from storage')
expect "a cut list says how many more rows there are ($all in all)" \
	"test $all -gt 2 && sed -n '/^== Top files by bytes read from storage\$/,/^\$/p' '$TEST_DIR/top2.txt' |
	 grep -qx '\\.\\.\\. $((all - 2)) more (use --top 0)'"
expect '--top 0 cuts nothing' "! grep -q '^\\.\\.\\. [0-9]* more' '$TEST_DIR/all.txt'"
expect 'files read by several processes counts only processes that read from storage' \
	"sed -n '/^== Repeated work: files read from storage/,/^\$/p' '$TEST_DIR/all.txt' | awk 'NR > 2 && NF { if (\$2 == \"0\") exit 1 }'"
expect '--width 39 is refused (usage error)' \
	"'$BOOTPROF' report --width 39 '$F' >/dev/null 2>&1; test \$? = 2"
