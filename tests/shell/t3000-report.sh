#!/bin/sh
# bootprof report: options, errors, formats and filters, on a fixture.
. "$(dirname "$0")/../test-lib.sh"

cd "$TOP" || exit 1
F=tests/fixtures/basic.dat
R=$BOOTPROF

expect 'report -h prints usage' "$R report -h | grep -q '^usage: bootprof report'"
expect 'unknown option: usage error' "$R report --bogus $F; test \$? = 2"
expect 'unknown format: usage error' "$R report --format xml $F; test \$? = 2"
expect '--table with another format: usage error' "$R report --format json --table files $F; test \$? = 2"
expect '--table alone means csv' "$R report --table disks $F | head -1 | grep -q '^name,dev,'"
expect 'unknown table: usage error' "$R report --format csv --table nope $F; test \$? = 2"
expect 'bad --since: usage error' "$R report --since 1.x $F; test \$? = 2"
expect '--until before --since: usage error' "$R report --since 5 --until 4 $F; test \$? = 2"
expect 'missing file: one line, exit 1' \
	"$R report '$TEST_DIR/none.dat' 2>'$TEST_DIR/err'; test \$? = 1 && test \$(wc -l <'$TEST_DIR/err') = 1 && grep -q \"^bootprof: .*none.dat\" '$TEST_DIR/err'"
expect 'not a recording: exit 1' "echo junk >'$TEST_DIR/junk.dat'; $R report '$TEST_DIR/junk.dat'; test \$? = 1"
# Plugins' sections follow the report's own.
expect 'text report has all sections in order' \
	"$R report $F | grep '^== ' | head -n 13 | tr '\\n' '|' | grep -q '^== bootprof report|== Recording|== Summary|== Phases|== Top processes by I/O wait|== Top files by I/O wait|== Top files by bytes read from storage|== Read from storage but never used|== Mapped by fault-around, not known to be used|== Re-read pages|== Metadata reads per disk|== Repeated work: programs exec.d more than once|== Repeated work: files read from storage by several processes|\$'"
expect 'json is valid and versioned' \
	"$R report --format json $F | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"schema_version\"] == 1'"
expect 'json totals equal the sums over files' \
	"$R report --format json --top 0 $F | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d[\"totals\"]
assert t[\"read_bytes\"] == sum(f[\"bytes_read\"] for f in d[\"files\"])
assert t[\"never_used_bytes\"] == sum(f[\"never_used_bytes\"] for f in d[\"files\"])
assert t[\"mapped_unknown_bytes\"] == sum(f[\"mapped_unknown_bytes\"] for f in d[\"files\"])
assert t[\"mapped_unknown_bytes\"] > 0
assert t[\"wait_ns\"] == sum(p[\"wait_ns\"] for p in d[\"processes\"])
assert t[\"wait_ns\"] == sum(t[\"wait_by_cause\"].values())
for f in d[\"files\"]:
    if f[\"kind\"] == \"file\":
        assert f[\"used_bytes\"] + f[\"never_used_bytes\"] + f[\"mapped_unknown_bytes\"] == f[\"bytes_read\"], f
'"
for t in processes files readers never-used mapped-unknown reread disks execs timeline totals; do
	expect "csv table $t has a header and rows" \
		"$R report --format csv --table $t $F >'$TEST_DIR/t.csv' && test \$(wc -l <'$TEST_DIR/t.csv') -ge 2 && awk -F, 'NR == 1 { n = NF } NF < n { exit 1 }' '$TEST_DIR/t.csv'"
done
expect 'markdown has headings and tables' \
	"$R report --format markdown $F >'$TEST_DIR/r.md' && grep -q '^# bootprof report' '$TEST_DIR/r.md' && grep -q '^| PID |' '$TEST_DIR/r.md'"
expect '--format md is markdown (report and diff)' \
	"$R report -f md $F | cmp -s - '$TEST_DIR/r.md' && $R diff -f md $F $F | grep -q '^#'"
expect '--top 1 lists one process' \
	"test \$($R report --format csv --table processes --top 1 $F | wc -l) = 2"
expect '--comm keeps only matching processes' \
	"$R report --format csv --table processes --comm true $F | awk -F, 'NR > 1 && \$3 != \"true\" { exit 1 } END { exit NR < 2 }'"
pid=$($R report --format csv --table processes --comm find $F | awk -F, 'NR == 2 { print $1 }')
expect '--pid keeps one process' \
	"test \"\$($R report --format csv --table processes --pid $pid $F | awk -F, 'NR > 1 { print \$1 }')\" = '$pid'"
expect '--pid keeps only the files it touched' \
	"$R report --format csv --table readers --pid $pid $F | awk -F, -v p=$pid 'NR > 1 { seen[\$1] = seen[\$1] || \$2 == p; files[\$1] = 1 } END { for (f in files) if (!seen[f]) exit 1 }'"
expect '--file keeps matching files' \
	"$R report --format csv --table files --file metadata $F | awk -F, 'NR > 1 && \$1 !~ /metadata/ { exit 1 }'"
sh_pid=$($R report --format csv --table processes --comm cat --top 0 $F | awk -F, 'NR == 2 { print $2 }')
expect '--tree shows descendants under the process' \
	"$R report --tree --pid $sh_pid $F | sed -n '/^== Process tree/,/^== /p' | grep -q '^ *[0-9]*  *  cat'"
# The window: the first half of the recording has fewer events.
first=$($R report --format csv --table totals $F | awk -F, '$1 == "span_ns" { print $2 }')
start=$($R report --format json $F | python3 -c 'import json,sys; print(json.load(sys.stdin)["window"]["since_ns"])')
mid=$(awk -v s="$start" -v d="$first" 'BEGIN { printf "%.9f", (s + d / 2) / 1e9 }')
expect '--until keeps only earlier events' \
	"a=\$($R report --format csv --table totals $F | awk -F, '\$1 == \"events\" { print \$2 }'); b=\$($R report --format csv --table totals --until $mid $F | awk -F, '\$1 == \"events\" { print \$2 }'); test \$b -gt 0 && test \$b -lt \$a"
expect '--since and --until together split the events' \
	"a=\$($R report --format csv --table totals $F | awk -F, '\$1 == \"events\" { print \$2 }'); b=\$($R report --format csv --table totals --until $mid $F | awk -F, '\$1 == \"events\" { print \$2 }'); c=\$($R report --format csv --table totals --since $mid $F | awk -F, '\$1 == \"events\" { print \$2 }'); test \$((b + c)) -ge \$a && test \$((b + c)) -le \$((a + 1))"
expect 'default file: ./bootprof.dat' \
	"cd '$TEST_DIR' && cp '$TOP/$F' bootprof.dat && { test -e /var/log/bootprof/latest.dat || $R report >/dev/null; }"
expect 'a full stdout fails loudly' "! $R report $F >/dev/full 2>/dev/null"
