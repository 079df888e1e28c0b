#!/bin/sh
# Run every benchmark, then print one summary of the ratios they reported.
# Usage: bench/run.sh [PATTERN...]   (only the benchmarks whose name contains a PATTERN)
#
# A benchmark is an executable in bench/ (named after its file) or a
# bench/NAME/run.sh (named NAME); each prints its own table. The ratios it
# reports with bench_ratio (bench/lib.sh) are collected in $BENCH_RATIOS,
# one row each: the measure, the ratio of the measured case's value to the
# reference's, and the reference ("against"). A benchmark that reports
# none gets a row saying why: skipped (it said "skipped: REASON"), failed
# (non-zero exit, with its last line) or no ratio printed. Exits 1 when a
# benchmark failed.
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BENCH_RATIOS=$tmp/ratios
: >"$BENCH_RATIOS"
export BENCH_RATIOS BENCH_NAME

benchmarks() {
	for b in bench/* bench/*/run.sh; do
		[ -f "$b" ] && [ -x "$b" ] || continue
		case "$b" in bench/run.sh | bench/lib.sh | *.md | *.txt) continue ;; esac
		echo "$b"
	done
}

# name BENCHMARK: bench/top -> top, bench/chart/run.sh -> chart
name() {
	case "$1" in
	*/run.sh) basename "$(dirname "$1")" ;;
	*) basename "$1" ;;
	esac
}

status=0
for b in $(benchmarks); do
	BENCH_NAME=$(name "$b")
	if [ $# -gt 0 ]; then
		want=
		for p in "$@"; do
			case "$BENCH_NAME" in *"$p"*) want=1 ;; esac
		done
		[ -n "$want" ] || continue
	fi
	echo "== $BENCH_NAME"
	log=$tmp/$BENCH_NAME.log
	{
		"$TOP/$b"
		echo $? >"$tmp/$BENCH_NAME.rc"
	} 2>&1 | tee "$log"
	rc=$(cat "$tmp/$BENCH_NAME.rc")
	[ "$rc" = 0 ] || status=1
	if ! cut -f1 "$BENCH_RATIOS" | grep -qx "$BENCH_NAME"; then
		if [ "$rc" != 0 ]; then
			why="failed (exit $rc): $(grep . "$log" | tail -n 1)"
		elif grep -q 'skipped' "$log"; then
			why=$(grep 'skipped' "$log" | tail -n 1 | sed 's/.*skipped:* *//')
			why="skipped: $why"
		else
			why="no ratio printed"
		fi
		printf '%s\t%s\t%s\t%s\n' "$BENCH_NAME" "-" "-" "$why" >>"$BENCH_RATIOS"
	fi
	echo
done

echo "== summary"
awk -F '\t' '
BEGIN { printf "%-16s %-40s %9s  %s\n", "benchmark", "measure", "ratio", "against" }
{ printf "%-16s %-40s %9s  %s\n", $1, $2, $3, $4 }' "$BENCH_RATIOS"
exit $status
