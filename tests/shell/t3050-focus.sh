#!/bin/sh
# What a `record -- CMD` recording is about: CMD's process tree, by default,
# in report (text, json, csv, plugins), top, chart and export, while another
# process (started outside CMD) reads other files, and a file CMD reads too,
# at the same time; --all shows that other process; --pid replaces the
# focus; a filter or window that selects nothing exits 1 saying what exists;
# +S windows are relative to the first event.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

D=$TEST_DIR
R=$BOOTPROF
mkdir -p "$D/bin" "$D/data"
# The outsider's programs have names of their own, to be found in reports.
cp "$(command -v cat)" "$D/bin/outsider"
cp "$(command -v sleep)" "$D/bin/outpoll"
head -c 4194304 /dev/urandom >"$D/data/cmdfile"
head -c 4194304 /dev/urandom >"$D/data/otherfile"
head -c 1048576 /dev/urandom >"$D/data/shared"
drop_caches

# Outside the command, once it has started: polls (outpoll exec'd 20 times),
# then reads otherfile and shared from a cold cache while the command waits.
(
	i=0
	while [ ! -e "$D/go" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do "$D/bin/outpoll" 0.01; done
	"$D/bin/outsider" "$D/data/otherfile" "$D/data/shared" >/dev/null
	touch "$D/done"
) &
outside=$!
t3_record "$D/r.dat" sh -c "cat '$D/data/cmdfile' >/dev/null; touch '$D/go'
	i=0; while [ ! -e '$D/done' ] && [ \$i -lt 1000 ]; do sleep 0.01; i=\$((i + 1)); done
	cat '$D/data/shared' >/dev/null; /bin/true; /bin/true"
wait $outside
F=$D/r.dat

json() { "$R" report --format json --top 0 "$@" "$F"; }
json >"$D/focus.json"
json --all >"$D/all.json"
cmd_pid=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["recording"]["command_pid"])' <"$D/focus.json")

"$R" report --top 0 --width 10000 "$F" >"$D/focus.txt"
expect 'the header names the command, its pid and --all' \
	"grep -q '^command: sh -c .* (pid $cmd_pid); other processes: --all' '$D/focus.txt'"
expect 'json: the focus is the command' \
	"python3 -c 'import json,sys; d = json.load(sys.stdin); assert d[\"focus\"][\"command_pid\"] == $cmd_pid, d[\"focus\"]' <'$D/focus.json'"
expect 'json --all: no focus' \
	"python3 -c 'import json,sys; d = json.load(sys.stdin); assert d[\"focus\"][\"command_pid\"] is None' <'$D/all.json'"
expect 'default: only the command tree is listed (every process descends from it)' \
	"python3 -c '
import json, sys
d = json.load(sys.stdin)
procs = {p[\"pid\"]: p for p in d[\"processes\"]}
assert $cmd_pid in procs
for p in d[\"processes\"]:
    q = p
    while q[\"pid\"] != $cmd_pid:
        assert q[\"ppid\"] in procs, p
        q = procs[q[\"ppid\"]]
' <'$D/focus.json'"
expect 'the text report names no process outside the tree (plugin sections included)' \
	"! grep -Eq 'outsider|outpoll|otherfile' '$D/focus.txt'"
expect 'the command read cmdfile (4 MiB)' \
	"python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [f for f in d[\"files\"] if f[\"path\"].endswith(\"/data/cmdfile\")]
assert f and f[0][\"bytes_read\"] >= 4194304 * 9 // 10, f
' <'$D/focus.json'"
expect 'shared: the outsider read it from storage; it is not listed as the command'"'"'s' \
	"python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d[\"files\"]:
    if f[\"path\"].endswith(\"/data/shared\"):
        assert all(r[\"comm\"] != \"outsider\" for r in f[\"readers\"]), f
        assert f[\"bytes_read\"] == sum(r[\"bytes_read\"] for r in f[\"readers\"]), f
' <'$D/focus.json'"
expect '--all lists the outsider, with otherfile and shared' \
	"python3 -c '
import json, sys
d = json.load(sys.stdin)
assert any(p[\"comm\"] == \"outsider\" for p in d[\"processes\"])
for name in (\"otherfile\", \"shared\"):
    f = [f for f in d[\"files\"] if f[\"path\"].endswith(\"/data/\" + name)]
    assert f and any(r[\"comm\"] == \"outsider\" and r[\"bytes_read\"] > 0 for r in f[0][\"readers\"]), name
' <'$D/all.json'"
"$R" report --top 0 --width 10000 --all "$F" >"$D/all.txt"
expect '--all: the header says all processes' "grep -q '^command: .*(pid $cmd_pid); all processes' '$D/all.txt'"
expect '--all: repeated work lists the outsider'"'"'s polling' \
	"sed -n '/^== Repeated work: programs/,/^== /p' '$D/all.txt' | grep -q 'bin/outpoll'"
expect 'default: repeated work lists the command'"'"'s /bin/true, not the outsider'"'"'s polling' \
	"sed -n '/^== Repeated work: programs/,/^== /p' '$D/focus.txt' | grep -Eq '^ *2 .*/bin/true\$'"
expect 'csv readers: only the tree' \
	"$R report --format csv --table readers --top 0 '$F' | awk -F, 'NR > 1 && \$3 == \"outsider\" { exit 1 }'"
expect 'csv execs: no outpoll by default, outpoll with --all' \
	"! $R report --format csv --table execs '$F' | grep -q outpoll && $R report --all --format csv --table execs '$F' | grep -q outpoll"
expect 'polling plugin: the outsider'"'"'s polling only with --all' \
	"json --plugin polling --plugin-opt polling.min=3 | python3 -c '
import json, sys
assert not [p for p in json.load(sys.stdin)[\"plugins\"][\"polling\"][\"programs\"] if \"outpoll\" in p[\"path\"]]
' && json --all --plugin polling --plugin-opt polling.min=3 | python3 -c '
import json, sys
assert [p for p in json.load(sys.stdin)[\"plugins\"][\"polling\"][\"programs\"] if \"outpoll\" in p[\"path\"]]
'"

# An explicit filter replaces the focus.
out_pid=$(python3 -c 'import json,sys; print([p["pid"] for p in json.load(sys.stdin)["processes"] if p["comm"] == "outsider"][0])' <"$D/all.json")
expect '--pid of the outsider lists it' \
	"$R report --format csv --table processes --pid $out_pid '$F' | awk -F, 'NR == 2 && \$1 == $out_pid { ok = 1 } END { exit !ok }'"
expect '--comm outsider lists it' \
	"$R report --format csv --table processes --comm outsider '$F' | grep -q ',outsider,'"

# Nothing selected: one line on stderr with what exists, exit 1, nothing on stdout.
"$R" report --pid 99999 "$F" >"$D/o" 2>"$D/e"
rc=$?
expect "--pid 99999 exits 1 (got $rc) with the pids there are" \
	"test $rc = 1 && test ! -s '$D/o' && grep -Eq '^bootprof: no process 99999 in the recording \\(pids [0-9]+–[0-9]+\\)\$' '$D/e'"
expect '--comm matching nothing exits 1' \
	"$R report --comm no-such-comm-xyz '$F' >/dev/null 2>'$D/e'; test \$? = 1 && grep -q \"no process matching 'no-such-comm-xyz'\" '$D/e'"
expect '--file matching nothing exits 1' \
	"$R report --file /no/such/file '$F' >/dev/null 2>'$D/e'; test \$? = 1 && grep -q \"no file matching '/no/such/file'\" '$D/e'"
expect 'a window outside the recording exits 1 and says where the recording is' \
	"$R report --since 0.5 --until 1 '$F' >/dev/null 2>'$D/e'; test \$? = 1 && grep -Eq '^bootprof: window 0\\.500-1\\.000 s is outside the recording \\([0-9.]+-[0-9.]+ s\\)\$' '$D/e'"

# +S: after the first event, exactly the absolute window.
first=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["window"]["since_ns"])' <"$D/all.json")
abs() { s=$((first + $1)); printf '%d.%09d' $((s / 1000000000)) $((s % 1000000000)); }
expect '--since +S --until +S is the absolute window' \
	"$R report --all --since +0.05 --until +0.25 '$F' >'$D/rel.txt' && $R report --all --since $(abs 50000000) --until $(abs 250000000) '$F' >'$D/abs.txt' && diff '$D/rel.txt' '$D/abs.txt' >/dev/null && grep -q '^span: ' '$D/rel.txt'"
expect 'top --since +S is the absolute window' \
	"test \"\$($R top --batch --all --since +0.05 '$F' | sed -n 2p)\" = \"\$($R top --batch --all --since $(abs 50000000) '$F' | sed -n 2p)\""
expect 'a window without block reads does not claim the events are missing' \
	"$R report --all --until +0.002 '$F' | grep '^attributed:' | grep -vq 'no block-layer events'"

# top, chart, export.
expect 'top: the title says the focus; no outsider unless --all' \
	"$R top --batch --view procs '$F' >'$D/top.txt' && grep -q 'command pid $cmd_pid' '$D/top.txt' && ! grep -q outsider '$D/top.txt' && $R top --batch --all --view procs '$F' | grep -q outsider"
expect 'chart: lanes of the tree only, the outsider with --all' \
	"$R chart -o '$D/c.svg' '$F' && ! grep -q outsider '$D/c.svg' && grep -q 'command pid $cmd_pid' '$D/c.svg' && $R chart --all -o - '$F' | grep -q outsider"
expect 'export: the tree only, the outsider with --all' \
	"$R export -f chrome -o '$D/e.json' '$F' && ! grep -q outsider '$D/e.json' && grep -q '\"command_pid\":$cmd_pid' '$D/e.json' && $R export --all -f chrome -o - '$F' | grep -q outsider"
expect 'a boot recording (no command) keeps the whole system' \
	"$R report --format json '$TOP/tests/fixtures/boot.dat' | python3 -c 'import json,sys; d = json.load(sys.stdin); assert d[\"focus\"][\"processes\"] == \"all\"'"
