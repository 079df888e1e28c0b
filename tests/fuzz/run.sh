#!/bin/sh
# Run each libFuzzer target for a bounded time: run.sh BUILD SECONDS TARGET...
# Seeds come from tests/fuzz/corpus (recordings for reader and model, metadata
# blobs for meta); what a run learns stays in BUILD/fuzz/corpus-TARGET.
# A crash, leak or timeout leaves BUILD/fuzz/TARGET-crash-* (or leak-,
# timeout-) and fails the run: fix it and keep the input in
# tests/fuzz/regressions/TARGET/.
cd "$(dirname "$0")/../.." || exit 1
build=$1 seconds=$2
shift 2
status=0
for t in "$@"; do
	case $t in
	meta) seeds=tests/fuzz/corpus/meta ;;
	spool) seeds=tests/fuzz/corpus/spool ;;
	*) seeds=tests/fuzz/corpus/recordings ;;
	esac
	work=$build/fuzz/corpus-$t
	# libFuzzer adds to the corpus it is given: a copy, never the seeds.
	mkdir -p "$work"
	cp "$seeds"/* tests/fuzz/regressions/$t/* "$work"/ 2>/dev/null
	echo "== fuzz-$t for $seconds s"
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
	ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=5} "$build/fuzz/fuzz-$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=1048576 -print_final_stats=1 -artifact_prefix="$build/fuzz/$t-" \
		"$work" >"$build/fuzz/$t.log" 2>&1
	rc=$?
	grep -E '^#[0-9]+.*(DONE|pulse)|^stat::number_of_executed_units|^stat::peak_rss' \
		"$build/fuzz/$t.log" | tail -n 3
	if [ $rc -ne 0 ]; then
		grep -E 'ERROR|SUMMARY|Test unit written' "$build/fuzz/$t.log" | head -n 5
		echo "fuzz-$t: FAILED (log: $build/fuzz/$t.log)"
		status=1
	fi
done
exit $status
