#!/bin/sh
# Command lines: the kernel's events carry none, so record marks each
# process's /proc/PID/cmdline in the recording (trace_marker lines
# "bootprof-args PID ..."). Truth: the argument vectors this test runs,
# byte for byte, including spaces, a backslash, a newline and UTF-8.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
PY=/usr/bin/python3
[ -x $PY ] || skip_all "no $PY"

# Running before the recording starts, waking every 50 ms so it is seen.
$PY -c 'import time
while True: time.sleep(0.05)' "before the recording" &
before=$!
# (test-lib.sh's own EXIT trap is replaced: remove TEST_DIR here too)
trap 'kill $before 2>/dev/null; [ -n "$KEEP_TEST_DIR" ] || rm -rf "$TEST_DIR"' EXIT

cat >"$TEST_DIR/work.sh" <<'SH'
#!/bin/sh
/usr/bin/python3 -c 'import time; time.sleep(0.4)' 'a b' 'c\d' "$(printf 'e\nf')" 'ü' ''
sh -c 'sleep 0.1; exec sleep 0.3' first-name
SH
chmod +x "$TEST_DIR/work.sh"

tracing_snapshot
"$BOOTPROF_FAST" record -o "$TEST_DIR/r.dat" -- "$TEST_DIR/work.sh" 2>"$TEST_DIR/err" &
rec=$!
wait $rec
expect "record exits 0" "test $? = 0"
expect_tracing_clean "record" "$rec"
expect "no argument watch left" "! ls -d $TRACEFS/instances/bootprof-$rec-args 2>/dev/null"
kill $before 2>/dev/null

"$BOOTPROF" report --format json "$TEST_DIR/r.dat" >"$TEST_DIR/r.json"
"$BOOTPROF" report --all --format json "$TEST_DIR/r.dat" >"$TEST_DIR/all.json"
argv_of() { # COMM: the argv of the processes whose program's name is COMM, one JSON line each
	jq -c --arg c "$1" '.processes[] | select((.exec[-1] // "" | split("/")[-1]) == $c) | .argv' \
		"$TEST_DIR/r.json"
}
want='["/usr/bin/python3","-c","import time; time.sleep(0.4)","a b","c\\d","e\nf","ü",""]'
got=$(argv_of python3)
want=$(printf '%s' "$want" | jq -c .)
expect "the python3 command line, byte for byte (got $got)" "test '$want' = '$got'"
got=$(jq -c --argjson p "$before" '.processes[] | select(.pid == $p) | .argv' "$TEST_DIR/all.json")
expect "a process running before the recording has its command line (got $got)" \
	"test '$got' = '[\"$PY\",\"-c\",\"import time\\nwhile True: time.sleep(0.05)\",\"before the recording\"]'"
# The sh that exec'd sleep 0.3: its command line is the last program's.
got=$(argv_of sleep | sort | tr '\n' ' ')
expect "the inner sleep and the exec'd one (got $got)" \
	"test '$got' = '[\"sleep\",\"0.1\"] [\"sleep\",\"0.3\"] '"
expect "no process has the command line of a program it exec'd away from" \
	"! grep -q first-name '$TEST_DIR/r.json' || test \"\$(jq '[.processes[] | select(.argv != null and (.argv | index(\"first-name\")) != null and (.exec[-1] | endswith(\"sleep\")))] | length' '$TEST_DIR/r.json')\" = 0"

# The markers are in the recording, one line per marked process.
n=$("$BOOTPROF" dump --events ftrace:print "$TEST_DIR/r.dat" | grep -c 'bootprof-args ')
p=$(jq '[.processes[] | select(.argv != null)] | length' "$TEST_DIR/r.json")
expect "markers in the recording ($n) at least the processes with a command line ($p)" \
	"test $n -ge $p && test $p -ge 4"

# The chart's lane: name, pid, then the arguments.
pid=$(jq --arg w 'a b' '.processes[] | select(.argv != null and .argv[3] == $w) | .pid' "$TEST_DIR/r.json")
"$BOOTPROF" chart --all-lanes -o "$TEST_DIR/r.svg" "$TEST_DIR/r.dat"
expect "the chart labels python3's lane with its arguments, cut to fit" \
	"grep -q '>python3 \\[$pid\\] -c import time; [^<]*…</text>' '$TEST_DIR/r.svg'"
expect "the lane's tooltip has them whole" \
	"grep -q 'args: -c import time; time.sleep(0.4) a b c' '$TEST_DIR/r.svg'"

# Redacted reports keep none.
n=$("$BOOTPROF" report --all --redact --format json "$TEST_DIR/r.dat" | jq '[.processes[] | select(.argv != null)] | length')
expect "report --redact drops every command line (left $n)" "test '$n' = 0"

# --no-args: no watch, no markers.
"$BOOTPROF_FAST" record --no-args -o "$TEST_DIR/n.dat" -- "$TEST_DIR/work.sh" 2>"$TEST_DIR/err"
expect "record --no-args exits 0" "test $? = 0"
n=$("$BOOTPROF" dump --events ftrace:print "$TEST_DIR/n.dat" | grep -c 'bootprof-args ')
expect "--no-args: no markers (got $n)" "test '$n' = 0"
n=$("$BOOTPROF" report --all --format json "$TEST_DIR/n.dat" | jq '[.processes[] | select(.argv != null)] | length')
expect "--no-args: no command lines (got $n)" "test '$n' = 0"
