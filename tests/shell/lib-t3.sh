# Shared by the analysis tests (tests/shell/t3*.sh), after ../test-lib.sh.
#
#   t3_helper NAME           compile tests/helpers/NAME.c into $TEST_DIR/NAME
#   t3_record OUT CMD...     record CMD with the optimized bootprof (quiet)
#   t3_csv FILE TABLE        bootprof report --format csv --table TABLE --top 0
#   t3_field CSV KEYCOL KEY COL
#                            column COL of the row whose column KEYCOL is KEY
#   t3_within A B PCT        |A - B| <= PCT% of B
#   t3_pages REC PATH        set read_b used never mapped: PATH's page bytes in REC
#                            (read, used, never used, mapped not known to be used)
#   t3_pages_sum             check used + never used + mapped = read

t3_helper() {
	${CC:-cc} -O2 -Wall -o "$TEST_DIR/$1" "$TOP/tests/helpers/$1.c" ||
		skip_all "cannot build helper $1"
}

t3_record() {
	t3_out=$1
	shift
	"$BOOTPROF_FAST" record -o "$t3_out" -- "$@" 2>"$TEST_DIR/.record-err" ||
		{ cat "$TEST_DIR/.record-err" >&2; return 1; }
}

t3_csv() {
	"$BOOTPROF" report --format csv --table "$2" --top 0 "$1"
}

# Fields never hold commas in these tests (paths are chosen so).
t3_field() {
	awk -F, -v k="$3" -v kc="$2" -v c="$4" '$kc == k { print $c; exit }' "$1"
}

t3_within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d;
		if (b == 0 || d > b * p / 100) { printf "%s vs %s: off by more than %s%%\n", a, b, p; exit 1 }
	}'
}

t3_pages() {
	t3_csv "$1" files >"$TEST_DIR/.pages.csv"
	read_b=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 5)
	used=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 7)
	never=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 8)
	mapped=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 13)
	echo "# read $read_b, used $used, never used $never, mapped (not known to be used) $mapped"
}

t3_pages_sum() {
	expect 'used + never used + mapped = read' \
		"test \$((${used:-0} + ${never:-0} + ${mapped:-0})) = '${read_b:-x}'"
}
