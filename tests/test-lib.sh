# Sourced by every shell test (tests/shell/tNNNN-*.sh, tests/boot/*.sh).
# A test prints one line per check: "ok - what", "FAIL - what" or
# "skip - what: reason"; tests/run.sh counts them.
#
#   expect 'what' 'shell code'     ok when the code exits 0 (run in a subshell)
#   skip 'what' 'reason'
#   skip_all 'reason'              the whole file is skipped (e.g. not root)
#   require_root / require_tracefs skip_all unless met
#   tracing_snapshot; ...; expect_tracing_clean 'what' PID
#                                  top-level tracing unchanged, no bootprof-PID instance

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BOOTPROF=${BOOTPROF:-$TOP/bootprof}
# The non-sanitized build, for timing-sensitive runs (ground truth of waits).
BOOTPROF_FAST=${BOOTPROF_FAST:-$BOOTPROF}
BUILD=${BUILD:-$TOP/build}
TRACEFS=/sys/kernel/tracing
TEST_NAME=$(basename "$0" .sh)
# On the disk, not tmpfs: reads must reach the block layer.
TEST_DIR=$(mktemp -d /var/tmp/bootprof-$TEST_NAME.XXXXXX)
trap 'rm -rf "$TEST_DIR"' EXIT
# Leak checking is always on: the caller's options come first, ours win.
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}detect_leaks=1:suppressions=$TOP/tests/lsan.supp:print_suppressions=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0}:detect_leaks=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

ok() { echo "ok - $1"; }
not_ok() { echo "FAIL - $1"; }
skip() { echo "skip - $1: $2"; }

expect() {
	if (eval "$2") >"$TEST_DIR/.out" 2>&1; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/#   /' "$TEST_DIR/.out" | tail -n 20
	fi
}

skip_all() {
	echo "skip - $TEST_NAME: $1"
	exit 0
}

require_root() {
	[ "$(id -u)" = 0 ] || skip_all "needs root"
}

require_tracefs() {
	require_root
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	[ -d $TRACEFS/events ] || skip_all "tracefs not available"
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# Top-level settings a recording must leave as it found them.
tracing_state() {
	for f in tracing_on current_tracer trace_clock buffer_size_kb buffer_percent \
		set_event set_event_pid trace_options events/enable; do
		printf '%s: ' "$f"
		tr '\n' ' ' <$TRACEFS/$f 2>/dev/null
		echo
	done
}

tracing_snapshot() {
	tracing_state >"$TEST_DIR/.tracing-before"
}

# expect_tracing_clean WHAT PID: no instance of that recorder left, top level unchanged.
expect_tracing_clean() {
	expect "$1: no instance left" "! test -e $TRACEFS/instances/bootprof-$2"
	expect "$1: top-level tracing unchanged" \
		"tracing_state >'$TEST_DIR/.tracing-after' && diff '$TEST_DIR/.tracing-before' '$TEST_DIR/.tracing-after'"
}
