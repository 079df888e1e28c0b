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
# KEEP_TEST_DIR=1 keeps it (recordings, dumps, consoles) to look at a failure.
trap '[ -n "$KEEP_TEST_DIR" ] && echo "# kept $TEST_DIR" || rm -rf "$TEST_DIR"' EXIT
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

# make test (tests/run.sh --quick) runs only what needs no root.
require_root() {
	[ -z "${BOOTPROF_TEST_QUICK:-}" ] || skip_all "needs root (not run by make test)"
	[ "$(id -u)" = 0 ] || skip_all "needs root"
}

# Whether this run may record: root, not make test, tracefs mounted.
can_record() {
	[ -z "${BOOTPROF_TEST_QUICK:-}" ] && [ "$(id -u)" = 0 ] && [ -d $TRACEFS/events ]
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

# tracing_state_same BEFORE AFTER: the two snapshots (files written by
# tracing_state) differ in nothing bootprof may change. The one difference
# allowed is the kernel's own: until tracing is first used, buffer_size_kb
# reads "7 (expanded: 1408)", and the first user anywhere (any instance)
# expands the top-level buffer to that size rounded up to whole ring-buffer
# pages (4096-byte pages holding 4080 bytes of data each): "1410".
tracing_state_same() {
	awk -v page="$(getconf PAGESIZE 2>/dev/null || echo 4096)" '
	function expanded(kb, pages) {
		pages = int((kb * 1024 + page - 17) / (page - 16))
		return int(pages * (page - 16) / 1024)
	}
	NR == FNR { before[$1] = $0; next }
	{
		after = $0
		b = before[$1]
		delete before[$1]
		if (b == after)
			next
		if ($1 == "buffer_size_kb:" &&
		    match(b, /\(expanded: [0-9]+\)/) && after ~ /^buffer_size_kb: [0-9]+ *$/) {
			kb = substr(b, RSTART + 11, RLENGTH - 12) + 0
			if ($2 + 0 == kb || $2 + 0 == expanded(kb))
				next
		}
		print "changed: " b " -> " after
		bad = 1
	}
	END {
		for (k in before) {
			print "missing: " before[k]
			bad = 1
		}
		exit bad
	}' "$1" "$2"
}

# expect_tracing_clean WHAT PID: no instance of that recorder left, top level unchanged.
expect_tracing_clean() {
	expect "$1: no instance left" "! test -e $TRACEFS/instances/bootprof-$2"
	expect "$1: top-level tracing unchanged" \
		"tracing_state >'$TEST_DIR/.tracing-after' && tracing_state_same '$TEST_DIR/.tracing-before' '$TEST_DIR/.tracing-after'"
}
