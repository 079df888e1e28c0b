#!/bin/sh
# The plugin loader: an external .so built against <bootprof/plugin.h> in a
# directory named by $BOOTPROF_PLUGIN_DIR is loaded and runs (its section
# and JSON key appear in the report, with the event count of the
# recording); the same directory or file made writable by others, or a
# file owned by another user, is refused with a warning; a plugin built for
# another ABI version is refused with a message naming both versions,
# one built for ABI 3 (whose host functions are a prefix of 4's) loads;
# --no-plugins runs none; --plugin selects; the marks it gives
# (host->mark) are drawn on the chart.
# tags: records
. "$(dirname "$0")/../test-lib.sh"

CC=${CC:-cc}
command -v $CC >/dev/null 2>&1 || skip_all "no C compiler ($CC)"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
if "$BOOTPROF" report --list-plugins 2>&1 | grep -q 'not built yet'; then
	skip_all "bootprof report is not built yet"
fi

P=$TEST_DIR/plugins
mkdir -p "$P"
chmod 755 "$P"

# A plugin that counts sched_switch events and says so in its section.
cat >"$TEST_DIR/hello.c" <<'EOF'
#include <stdlib.h>
#include <bootprof/plugin.h>

#ifndef ABI
#define ABI BOOTPROF_PLUGIN_ABI
#endif

static unsigned long long switches, first_ns;

static void hello_event(struct bootprof_ctx *ctx, const struct bootprof_event *ev)
{
	(void)ctx;
	if (!switches++)
		first_ns = ev->ts;
}

static int hello_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	static const struct bootprof_column cols[] = {
		{ "UNIT", "unit", BOOTPROF_TEXT },
		{ "WAIT", "wait_ns", BOOTPROF_NS },
	};
	const struct bootprof_table_spec units = { "units", cols, 2, 0 };
	union bootprof_value row[2];

	(void)m;
	ctx->host->section(ctx, "hello: an external plugin");
	ctx->host->line(ctx, "saw %llu context switches", switches);
	ctx->host->value_u64(ctx, "switches", switches);
	/* Bytes that are not UTF-8, and terminal escapes, as a recording may hold. */
	ctx->host->table(ctx, &units);
	row[0].s = "svc-\xff\xfe.service";
	row[1].u = 1500000;
	ctx->host->row(ctx, row);
	row[0].s = "\x1b]0;pwned\x07\x1b[2J.service";
	ctx->host->row(ctx, row);
	ctx->host->table_end(ctx);
#if ABI >= 4
	if (switches)
		ctx->host->mark(ctx, &(struct bootprof_mark){ .kind = BOOTPROF_MARK_PHASE,
			.ns = first_ns, .name = "hello first switch" });
#endif
	return 0;
}

static const char *const hello_events[] = { "sched:sched_switch", NULL };
static const char *const hello_keys[] = { "switches", "units", NULL };

BOOTPROF_PLUGIN(hello) = {
	.abi = ABI,
	.name = NAME,
	.summary = "counts context switches",
	.events = hello_events,
	.json_keys = hello_keys,
	.event = hello_event,
	.model = hello_model,
};
EOF
build() { # OUT NAME [CFLAGS...]
	o=$1 n=$2
	shift 2
	$CC -shared -fPIC -I"$TOP/include" -DNAME="\"$n\"" "$@" -o "$o" "$TEST_DIR/hello.c"
}
expect 'an external plugin builds against the public header alone' \
	"build '$P/hello.so' hello"

list() {
	BOOTPROF_PLUGIN_DIR=$P "$BOOTPROF" report --list-plugins >"$TEST_DIR/list" 2>"$TEST_DIR/err"
}
expect 'it is listed after the built-in plugins, without a warning' \
	"list && test \"\$(cat '$TEST_DIR/list' | tr '\n' ' ')\" = 'android systemd initcall polling hello ' &&
	 ! test -s '$TEST_DIR/err'"
expect 'without BOOTPROF_PLUGIN_DIR it is not loaded' \
	"! BOOTPROF_PLUGIN_DIR= '$BOOTPROF' report --list-plugins | grep -q '^hello'"

chmod o+w "$P"
expect 'a directory writable by others is refused with a warning' \
	"list; ! grep -q '^hello' '$TEST_DIR/list' &&
	 grep -q \"warning: refusing plugin directory '$P': writable by others\" '$TEST_DIR/err'"
chmod o-w "$P"
chmod o+w "$P/hello.so"
expect 'a plugin file writable by others is refused with a warning' \
	"list; ! grep -q '^hello' '$TEST_DIR/list' &&
	 grep -q \"warning: refusing plugin '$P/hello.so': writable by others\" '$TEST_DIR/err'"
chmod o-w "$P/hello.so"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chown nobody "$P/hello.so"
	expect 'a plugin file owned by another user is refused with a warning' \
		"list; ! grep -q '^hello' '$TEST_DIR/list' &&
		 grep -q \"warning: refusing plugin '$P/hello.so': owned by another user\" '$TEST_DIR/err'"
	chown 0 "$P/hello.so"
else
	skip 'a plugin file owned by another user is refused' 'needs root and user nobody'
fi

abi=$(sed -n 's/^#define BOOTPROF_PLUGIN_ABI \([0-9]*\)$/\1/p' "$TOP/include/bootprof/plugin.h")
build "$P/future.so" future -DABI=$((abi + 1))
expect 'a plugin of another ABI version is refused with a clear message' \
	"list; ! grep -q '^future' '$TEST_DIR/list' &&
	 grep -q \"warning: refusing plugin '$P/future.so': plugin ABI version $((abi + 1)), this bootprof uses $abi\" '$TEST_DIR/err'"
rm -f "$P/future.so"
build "$P/old.so" old -DABI=1
expect 'a plugin of ABI 1 (text rows and json_* calls) is refused: rebuild it' \
	"list; ! grep -q '^old' '$TEST_DIR/list' &&
	 grep -q \"warning: refusing plugin '$P/old.so': plugin ABI version 1, this bootprof uses $abi (rebuild it\" '$TEST_DIR/err'"
rm -f "$P/old.so"
build "$P/abi3.so" abi3 -DABI=3
expect 'a plugin built for ABI 3 loads: ABI 4 only appended host functions' \
	"list; grep -q '^abi3' '$TEST_DIR/list' && ! grep -q abi3 '$TEST_DIR/err'"
rm -f "$P/abi3.so"
build "$P/two.so" two -DABI=2
expect 'a plugin of ABI 2 (host functions in another order) is refused' \
	"list; ! grep -q '^two' '$TEST_DIR/list' &&
	 grep -q \"warning: refusing plugin '$P/two.so': plugin ABI version 2, this bootprof uses $abi\" '$TEST_DIR/err'"
rm -f "$P/two.so"

build "$P/polling.so" polling
expect 'a plugin named like a loaded one is ignored with a warning' \
	"list; grep -q \"warning: ignoring plugin '$P/polling.so': a plugin named 'polling' is already loaded from built-in\" '$TEST_DIR/err'"
rm -f "$P/polling.so"

expect '--no-plugins lists none' \
	"BOOTPROF_PLUGIN_DIR=$P '$BOOTPROF' report --no-plugins --list-plugins >'$TEST_DIR/none' && ! test -s '$TEST_DIR/none'"
expect '--plugin selects, and an unknown name is an error' \
	"BOOTPROF_PLUGIN_DIR=$P '$BOOTPROF' report --plugin hello,polling --list-plugins | tr '\n' ' ' | grep -qx 'polling hello ' &&
	 ! '$BOOTPROF' report --plugin nosuch --list-plugins 2>'$TEST_DIR/err2' &&
	 grep -q \"no plugin named 'nosuch'\" '$TEST_DIR/err2'"

# Running it needs a recording.
if ! can_record; then
	skip 'the external plugin runs over a recording' 'needs root and tracefs'
	exit 0
fi
"$BOOTPROF_FAST" record -o "$TEST_DIR/r.dat" -- sh -c 'sleep 0.1; ls / >/dev/null' 2>/dev/null
# Ground truth: the recording's own count of sched_switch events.
n=$("$BOOTPROF" dump "$TEST_DIR/r.dat" 2>/dev/null | grep -c ' sched_switch: ')
BOOTPROF_PLUGIN_DIR=$P "$BOOTPROF" report --format json "$TEST_DIR/r.dat" >"$TEST_DIR/r.json" 2>"$TEST_DIR/err"
expect "its JSON key holds what it counted over the stream ($n switches)" \
	"test \"\$(jq .plugins.hello.switches '$TEST_DIR/r.json')\" = '$n' && test '$n' -gt 0"
BOOTPROF_PLUGIN_DIR=$P "$BOOTPROF" report "$TEST_DIR/r.dat" >"$TEST_DIR/r.txt" 2>/dev/null
expect 'its section is in the text report' \
	"grep -q '^== hello: an external plugin' '$TEST_DIR/r.txt' && grep -q '^saw $n context switches' '$TEST_DIR/r.txt'"
expect 'its rows, added once, are in the JSON with their types; bytes that are not UTF-8 keep it valid' \
	"jq -e '.plugins.hello.units == [{\"unit\": \"svc-\\ufffd\\ufffd.service\", \"wait_ns\": 1500000}, {\"unit\": \"\\u001b]0;pwned\\u0007\\u001b[2J.service\", \"wait_ns\": 1500000}]' '$TEST_DIR/r.json' >/dev/null &&
	 python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$TEST_DIR/r.json'"
expect 'and in the text report, escapes shown as text: no ESC or BEL byte' \
	"grep -q '1.5 ms' '$TEST_DIR/r.txt' && grep -qF '\\x1b]0;pwned\\x07\\x1b[2J.service' '$TEST_DIR/r.txt' &&
	 ! grep -q \"\$(printf '[\\033\\007]')\" '$TEST_DIR/r.txt'"
BOOTPROF_PLUGIN_DIR=$P "$BOOTPROF" chart -o "$TEST_DIR/c.svg" "$TEST_DIR/r.dat" 2>/dev/null
"$BOOTPROF" chart -o "$TEST_DIR/c0.svg" "$TEST_DIR/r.dat" 2>/dev/null
expect 'its mark (host->mark) is a phase line on the chart, and only with the plugin loaded' \
	"grep -q '>hello first switch<' '$TEST_DIR/c.svg' && ! grep -q 'hello first switch' '$TEST_DIR/c0.svg'"
BOOTPROF_PLUGIN_DIR=$P "$BOOTPROF" report --no-plugins --format json "$TEST_DIR/r.dat" >"$TEST_DIR/n.json" 2>/dev/null
expect '--no-plugins: no plugin runs, no plugins key' \
	"jq -e 'has(\"plugins\") | not' '$TEST_DIR/n.json' >/dev/null && jq -e .totals '$TEST_DIR/n.json' >/dev/null"
BOOTPROF_PLUGIN_DIR=$P "$BOOTPROF" report --plugin hello --format json "$TEST_DIR/r.dat" >"$TEST_DIR/s.json" 2>/dev/null
expect '--plugin hello: only hello runs' \
	"test \"\$(jq -c '.plugins | keys' '$TEST_DIR/s.json')\" = '[\"hello\"]'"
