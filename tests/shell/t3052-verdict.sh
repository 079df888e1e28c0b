#!/bin/sh
# The report opens with its verdict: golden verdicts of the zygote and
# package-scan examples (tests/fixtures/make-verdict-fixtures.sh), at most
# six lines on every fixture, the same lines in JSON; the header at 80
# columns gives the kernel command line and the unavailable events one line
# each and, in full with --verbose, never breaks a word. Recorded, a cold
# read of a file: the verdict names the command, its I/O wait (the JSON
# total), the file it waited on and the bytes read (the file's size).
# tags: records
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

R=$BOOTPROF
FIX=$TOP/tests/fixtures
verdict() { "$R" report --width 80 "$@" | sed -n '/^== bootprof report$/,/^$/p'; }

for f in zygote package-scan; do
	verdict "$FIX/$f.dat" >"$TEST_DIR/$f.verdict"
	expect "$f: the verdict is the golden one" \
		"diff -u '$FIX/$f.verdict.txt' '$TEST_DIR/$f.verdict'"
	expect "$f: the report opens with it" \
		"$R report '$FIX/$f.dat' | head -1 | grep -qx '== bootprof report'"
done
expect 'zygote: its faults on framework.jar' \
	"grep -q '^mostly page faults .*worst file framework.jar: ' '$TEST_DIR/zygote.verdict'"
expect 'package-scan: most of what it read was never used' \
	"grep -Eq '^read .* from storage; .* of it never used \\((([5-9][0-9])|100)\\.[0-9]% of file bytes\\)\$' '$TEST_DIR/package-scan.verdict'"

for f in basic no-access boot zygote package-scan; do
	"$R" report --format json "$FIX/$f.dat" >"$TEST_DIR/$f.json"
	n=$(jq '.verdict | length' "$TEST_DIR/$f.json")
	expect "$f: 1 to 6 verdict lines (got ${n:-none})" "test '${n:-0}' -ge 1 && test '${n:-0}' -le 6"
	expect "$f: json has the text's verdict lines" \
		"jq -r '.verdict[]' '$TEST_DIR/$f.json' | cmp -s - \"\$($R report --width 10000 '$FIX/$f.dat' | sed -n '2,/^\$/p' | sed '\$d' >'$TEST_DIR/v.txt'; echo '$TEST_DIR/v.txt')\""
done

expect 'the critical path line: the whole recording'"'"'s, none under a window or --redact' \
	"verdict '$FIX/zygote.dat' | grep -q '^critical path to exit, ' &&
	 ! verdict --since +0.01 '$FIX/zygote.dat' | grep -q '^critical path' &&
	 ! verdict --redact '$FIX/zygote.dat' | grep -q '^critical path'"

# The header at 80 columns: one line each for the command line and the events.
"$R" report --width 80 "$FIX/boot.dat" >"$TEST_DIR/boot.txt"
expect 'boot: the kernel command line on one line, its event list counted' \
	"grep -A1 '^cmdline: ' '$TEST_DIR/boot.txt' | sed -n 2p | grep -q '^[a-z]' &&
	 test \$(grep '^cmdline: ' '$TEST_DIR/boot.txt' | wc -c) -le 81"
expect 'boot: the unavailable events on one line' \
	"test \$(grep -c '^unavailable on that kernel' '$TEST_DIR/boot.txt') = 1"
nev=$(jq -r .recording.cmdline "$TEST_DIR/boot.json" | tr ' ' '\n' | sed -n 's/^trace_instance=[^,]*,//p' | tr ',' '\n' | wc -l)
expect "boot --width 120: trace_instance with its $nev events counted" \
	"$R report --width 120 '$FIX/boot.dat' | grep '^cmdline: ' | grep -q 'trace_instance=bootprof ($nev events)'"
expect 'the first 24 lines at 80 columns hold the verdict and the summary starts by line 24' \
	"$R report --width 80 '$FIX/zygote.dat' | head -24 | grep -q '^== Summary'"

# --verbose: the whole command line, wrapped at spaces and commas only.
"$R" report --verbose --width 80 "$FIX/boot.dat" |
	sed -n '/^cmdline: /,/^[a-z]*: /p' | sed '$d' | sed 's/^cmdline: //' >"$TEST_DIR/cmdline.txt"
jq -r .recording.cmdline "$TEST_DIR/boot.json" | tr ' ,' '\n\n' | sed '/^$/d' | sort -u >"$TEST_DIR/words"
expect 'boot --verbose: the whole command line' \
	"test \"\$(tr -d ' \\n' <'$TEST_DIR/cmdline.txt')\" = \"\$(jq -r .recording.cmdline '$TEST_DIR/boot.json' | tr -d ' \\n')\""
expect 'boot --verbose: no word of it is broken across lines' \
	"tr ' ,' '\\n\\n' <'$TEST_DIR/cmdline.txt' | sed '/^\$/d' | sort -u | comm -23 - '$TEST_DIR/words' | awk 'END { exit NR > 0 }'"
expect 'boot --verbose: both unavailable events' \
	"$R report --verbose --width 200 '$FIX/boot.dat' | grep '^unavailable' | grep -q 'sync_ra.*async_ra'"

# A cold read, recorded.
if ! can_record; then
	skip 'a cold read, recorded' 'cannot record here'
	exit 0
fi
head -c 8388608 /dev/urandom >"$TEST_DIR/coldfile"
drop_caches
t3_record "$TEST_DIR/r.dat" sh -c "cat '$TEST_DIR/coldfile' >/dev/null"
"$R" report --format json "$TEST_DIR/r.dat" >"$TEST_DIR/r.json"
verdict "$TEST_DIR/r.dat" >"$TEST_DIR/r.verdict"
cat "$TEST_DIR/r.verdict" | sed 's/^/# /'
pid=$(jq .recording.command_pid "$TEST_DIR/r.json")
wait=$("$R" report "$TEST_DIR/r.dat" | sed -n 's/^I\/O wait: *//p')
expect "cold read: the command, its run and its I/O wait ($wait, the summary's)" \
	"sed -n 2p '$TEST_DIR/r.verdict' | grep -q \"^sh (pid $pid) ran .*, waited $wait on I/O (\""
expect 'cold read: waited in reads of coldfile' \
	"grep -q '^mostly reads .*; worst file coldfile: ' '$TEST_DIR/r.verdict'"
crit=$("$R" critical --format json "$TEST_DIR/r.dat" | jq -r '"\(.duration_ns) \(.by_state.io // 0)"')
ms() { awk -v ns="$1" 'BEGIN { printf "%.1f ms", ns / 1e6 }'; }
expect "cold read: the critical path to the command's exit, and its I/O, as 'bootprof critical' says ($crit)" \
	"grep -Fq \"critical path to exit, \" '$TEST_DIR/r.verdict' &&
	 grep '^critical path' '$TEST_DIR/r.verdict' | grep -Fq \"I/O \$(ms \${crit#* }) (\""
read=$("$R" report "$TEST_DIR/r.dat" | sed -n 's/^read from storage: *\([0-9.]* [KMG]*i*B\) .*/\1/p')
coldb=$(t3_csv "$TEST_DIR/r.dat" files | awk -F, '$1 ~ /coldfile$/ { print $5 }')
expect "cold read: the bytes read are the summary's ($read), the 8 MiB file among them (${coldb:-none} bytes)" \
	"grep -q '^read $read from storage' '$TEST_DIR/r.verdict' && test '${coldb:-0}' -ge 8388608"
