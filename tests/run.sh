#!/bin/sh
# Run the tests: cmocka unit binaries, shell tests and boot tests.
# Ends with one line "N passed, N failed, N skipped"; exits 1 on any failure.
#
# Usage: tests/run.sh [-j N] [--quick] [PATTERN]
#   PATTERN   only tests whose name contains PATTERN
#   -j N      run up to N independent tests at once (default: the CPU count,
#             or $TEST_JOBS)
#   --quick   only the root-free part: unit tests and the tests that are not
#             in the serial group; require_root skips (make test)
#
# A test that changes or measures machine-wide state (top-level tracing,
# drop_caches, cgroups, sysctls, a QEMU boot) says so with a line
#   # tags: serial
# near its top. Those run one after another, in name order, once the other
# tests, run in parallel, are done. "# tags: records" marks a test that
# only makes a system-wide recording when it can (can_record): serial too,
# since its recorder would show up in the others' recordings, but run with
# the parallel ones by --quick, where it records nothing. Each test's output is printed in one
# piece when it ends, followed by its time.
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
BUILD=${BUILD:-$TOP/build}
export BOOTPROF=${BOOTPROF:-$TOP/bootprof} BUILD
# The unit tests run under the sanitizers too: leak checking always on.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}detect_leaks=1:suppressions=$TOP/tests/lsan.supp:print_suppressions=0

# run_one TEST RESULTS: run one test, keep its output in RESULTS/NAME.log and
# its counts ("passed failed skipped") in RESULTS/NAME.count, then print the
# log under a lock so that concurrent tests do not interleave.
run_one() {
	t=$1 results=$2
	name=$(basename "$t")
	log=$results/$name.log
	start=$(date +%s)
	case "$t" in
	*.sh)
		sh "$t" >"$log.out" 2>&1
		rc=$?
		p=$(grep -c '^ok - ' "$log.out")
		f=$(grep -c '^FAIL - ' "$log.out")
		s=$(grep -c '^skip - ' "$log.out")
		;;
	*)
		# cmocka: "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s), listed below:"
		"$t" >"$log.out" 2>&1
		rc=$?
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log.out" | tail -n 1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log.out" | head -n 1)
		p=${p:-0} f=${f:-0} s=0
		;;
	esac
	{
		echo "== $name"
		cat "$log.out"
		if [ $rc -ne 0 ] && [ "$f" = 0 ]; then
			echo "FAIL - $name exited with status $rc"
			f=1
		fi
		echo "   ($(($(date +%s) - start)) s)"
	} >"$log"
	rm -f "$log.out"
	echo "$p $f $s" >"$results/$name.count"
	flock "$results/.lock" cat "$log"
}

if [ "${1:-}" = --one ]; then
	run_one "$2" "$3"
	exit 0
fi

jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
quick=
while [ $# -gt 0 ]; do
	case "$1" in
	-j) jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--quick) quick=1; shift ;;
	--) shift; break ;;
	-*) echo "usage: tests/run.sh [-j N] [--quick] [PATTERN]" >&2; exit 2 ;;
	*) break ;;
	esac
done
pattern=${1:-}
if [ -n "$quick" ]; then
	export BOOTPROF_TEST_QUICK=1
fi

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
: >"$results/.lock"
serial="" parallel=""
for t in "$BUILD"/tests/test-* tests/shell/t*.sh tests/boot/t*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.d) continue ;; esac # compiler dependency files
	case "$t" in *"$pattern"*) ;; *) continue ;; esac
	tags=
	case "$t" in *.sh) tags=$(sed -n 's/^# tags://p' "$t" | head -n 1) ;; esac
	if echo " $tags " | grep -q ' serial '; then
		[ -n "$quick" ] && continue
		serial="$serial $t"
	elif [ -z "$quick" ] && echo " $tags " | grep -q ' records '; then
		serial="$serial $t"
	else
		parallel="$parallel $t"
	fi
done

# The parallel group first, then the serial one alone: its tests time
# sleeps, throttled reads and boots against the kernel's own clocks, and
# beside a parallel suite a 2-CPU machine stretched them past their bounds.
if [ -n "$parallel" ]; then
	printf '%s\n' $parallel | xargs -P "$jobs" -I @ sh "$TOP/tests/run.sh" --one @ "$results"
fi
for t in $serial; do
	run_one "$t" "$results"
done

passed=0 failed=0 skipped=0 bad=
for c in "$results"/*.count; do
	[ -e "$c" ] || continue
	read -r p f s <"$c"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" = 0 ] || bad="$bad $(basename "$c" .count)"
done
[ -z "$bad" ] || echo "failed:$bad"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
