#!/bin/sh
# The rule "top-level tracing unchanged" (test-lib.sh tracing_state_same),
# checked on a snapshot taken before any tracing use on a freshly booted
# machine (tests/fixtures/tracing-fresh.state): the kernel's first-use
# expansion of buffer_size_kb is not a change bootprof made; everything
# else that differs is.
. "$(dirname "$0")/../test-lib.sh"

FRESH=$TOP/tests/fixtures/tracing-fresh.state
after() {
	sed "$1" "$FRESH" >"$TEST_DIR/after"
}

expect 'the fresh snapshot has an unexpanded buffer' \
	"grep -qx 'buffer_size_kb: 7 (expanded: 1408) ' '$FRESH'"
expect 'identical snapshots are the same' "tracing_state_same '$FRESH' '$FRESH'"
after 's/^buffer_size_kb: .*/buffer_size_kb: 1410 /'
expect 'first-use expansion 7 (expanded: 1408) -> 1410 is allowed' \
	"tracing_state_same '$FRESH' '$TEST_DIR/after'"
after 's/^buffer_size_kb: .*/buffer_size_kb: 1408 /'
expect 'expansion to exactly the announced size is allowed' \
	"tracing_state_same '$FRESH' '$TEST_DIR/after'"
after 's/^buffer_size_kb: .*/buffer_size_kb: 2816 /'
expect 'another size is a change' "! tracing_state_same '$FRESH' '$TEST_DIR/after'"
after 's/^buffer_size_kb: .*/buffer_size_kb: 7 /'
expect 'a shrunk unexpanded size is a change' "! tracing_state_same '$FRESH' '$TEST_DIR/after'"
after 's/^tracing_on: .*/tracing_on: 0 /'
expect 'tracing_on turned off is a change' "! tracing_state_same '$FRESH' '$TEST_DIR/after'"
after 's/^set_event: .*/set_event: sched:sched_switch /'
expect 'an event left enabled is a change' "! tracing_state_same '$FRESH' '$TEST_DIR/after'"
after 's/^trace_clock: .*/trace_clock: local global counter uptime perf mono mono_raw [boot] tai x86-tsc /'
expect 'the clock changed is a change' "! tracing_state_same '$FRESH' '$TEST_DIR/after'"
after '/^buffer_percent:/d'
expect 'a setting that vanished is a change' "! tracing_state_same '$FRESH' '$TEST_DIR/after'"
# An expanded buffer does not go back to the unexpanded form.
sed 's/^buffer_size_kb: .*/buffer_size_kb: 1410 /' "$FRESH" >"$TEST_DIR/before"
expect 'expanded before, unexpanded after is a change' \
	"! tracing_state_same '$TEST_DIR/before' '$FRESH'"
