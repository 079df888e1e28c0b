# Sourced by the benchmarks (bench/*, bench/*/run.sh).
#
#   bench_ratio MEASURE RATIO AGAINST
#       one row of the summary bench/run.sh prints at the end: what was
#       measured, the ratio, and what it is a ratio against ("trace-cmd
#       report, elapsed time"). Nothing happens when the benchmark runs
#       alone (no $BENCH_RATIOS).
#   bench_skip REASON
#       say why the benchmark cannot run here ("needs root") and exit 0:
#       the summary shows it as skipped, not failed.

bench_ratio() {
	[ -n "${BENCH_RATIOS:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\n' "${BENCH_NAME:-?}" "$1" "$2" "$3" >>"$BENCH_RATIOS"
}

bench_skip() {
	echo "${BENCH_NAME:-bench}: skipped: $1" >&2
	exit 0
}
