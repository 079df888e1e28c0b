#!/bin/sh
# Run every test: cmocka unit binaries, then shell tests, then boot tests.
# Ends with one line "N passed, N failed, N skipped"; exits 1 on any failure.
# Usage: tests/run.sh [PATTERN]   (only tests whose name contains PATTERN)
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
BUILD=${BUILD:-$TOP/build}
export BOOTPROF=${BOOTPROF:-$TOP/bootprof} BUILD
# The unit tests run under the sanitizers too: leak checking always on.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}detect_leaks=1:suppressions=$TOP/tests/lsan.supp:print_suppressions=0
pattern=${1:-}
passed=0 failed=0 skipped=0
log=$(mktemp)

count() {
	p=$(grep -c '^ok - ' "$log")
	f=$(grep -c '^FAIL - ' "$log")
	s=$(grep -c '^skip - ' "$log")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

for t in "$BUILD"/tests/test-* tests/shell/t*.sh tests/boot/t*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.d) continue ;; esac # compiler dependency files
	case "$t" in *"$pattern"*) ;; *) continue ;; esac
	name=$(basename "$t")
	echo "== $name"
	start=$(date +%s)
	case "$t" in
	*.sh)
		sh "$t" >"$log" 2>&1
		rc=$?
		cat "$log"
		count
		if [ $rc -ne 0 ] && ! grep -q '^FAIL - ' "$log"; then
			echo "FAIL - $name exited with status $rc"
			failed=$((failed + 1))
		fi
		;;
	*)
		# cmocka: "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s), listed below:"
		"$t" >"$log" 2>&1
		rc=$?
		cat "$log"
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | head -n 1)
		passed=$((passed + ${p:-0})) failed=$((failed + ${f:-0}))
		if [ $rc -ne 0 ] && [ "${f:-0}" = 0 ]; then
			echo "FAIL - $name exited with status $rc"
			failed=$((failed + 1))
		fi
		;;
	esac
	echo "   ($(($(date +%s) - start)) s)"
done
rm -f "$log"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
