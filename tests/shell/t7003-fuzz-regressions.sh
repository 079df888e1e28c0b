#!/bin/sh
# Every input a fuzz target ever failed on (tests/fuzz/regressions/TARGET/),
# and the seed corpus, replayed through the same target under the ASan and
# UBSan build, with LeakSanitizer on: no crash, leak or sanitizer report.
. "$(dirname "$0")/../test-lib.sh"

replay=$BUILD/tests/fuzz-replay
[ -x "$replay" ] || skip_all "no $replay (make check builds it)"

for target in reader meta model spool; do
	case $target in
	meta) seeds=$TOP/tests/fuzz/corpus/meta ;;
	spool) seeds=$TOP/tests/fuzz/corpus/spool ;;
	*) seeds=$TOP/tests/fuzz/corpus/recordings ;;
	esac
	for f in "$TOP"/tests/fuzz/regressions/$target/* "$seeds"/*; do
		[ -f "$f" ] || continue
		expect "$target: $(basename "$f")" \
			"'$replay' $target '$f' 2>'$TEST_DIR/err'; rc=\$?;
			 cat '$TEST_DIR/err'; [ \$rc = 0 ] && ! grep -q Sanitizer '$TEST_DIR/err'"
	done
done

# The tests' sanitizer settings really check leaks (none turns them off).
expect 'LeakSanitizer is on in the tested build' \
	"ASAN_OPTIONS=\"\$ASAN_OPTIONS:help=1\" $BOOTPROF --version 2>&1 |
	 grep -A1 -w -e detect_leaks -e leak_check_at_exit | grep -c 'Current Value: true' | grep -qx 2"
