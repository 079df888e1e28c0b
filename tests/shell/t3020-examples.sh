#!/bin/sh
# The examples tell their stories: zygote is the top process by I/O wait,
# waiting in page faults on its archive; package-scan's archives top the
# never-used list (naive), and --smart reads a small fraction of that.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
EX=$BUILD/examples
[ -x "$EX/zygote/zygote" ] && [ -x "$EX/package-scan/package-scan" ] || skip_all "examples not built"

cd "$TEST_DIR" || exit 1
"$EX/zygote/zygote" --size 64 --classes 1 >/dev/null
"$EX/package-scan/package-scan" --count 8 --size 4 >/dev/null
sync

drop_caches
t3_record z.dat "$EX/zygote/zygote" --size 64 --classes 8000 >/dev/null
t3_csv z.dat processes >z.csv
top=$(awk -F, -v w="$(t3_col z.csv worst_file)" 'NR == 2 { print $3 "," $w }' z.csv)
expect "zygote is the top process by I/O wait, its archive the worst file (got $top)" \
	"test '$top' = 'zygote,$TEST_DIR/framework.jar'"
expect 'zygote waited in page faults' \
	"awk -F, -v f=$(t3_col z.csv wait_fault_ns) -v w=$(t3_col z.csv wait_ns) '\$3 == \"zygote\" { exit !(\$f * 10 >= \$w * 9 && \$w > 0) }' z.csv"

drop_caches
t3_record naive.dat "$EX/package-scan/package-scan" --count 8 --size 4 >/dev/null
drop_caches
t3_record smart.dat "$EX/package-scan/package-scan" --count 8 --size 4 --smart >/dev/null
# The top of the list: the archives, and at most the program and its
# libraries (an instrumented build maps large sanitizer runtimes).
"$BOOTPROF" report --format csv --table never-used --top 12 --comm package-scan naive.dat >never.csv
cut -d, -f1,5,8 never.csv | sed "s/^/# /"
expect 'the 8 archives top the never-used list of package-scan' \
	"test \$(awk -F, 'NR > 1 && \$1 ~ /packages\\/pkg00[0-7]\\.apk\$/' never.csv | wc -l) = 8 &&
	 awk -F, 'NR > 1 && \$1 !~ /packages\\/pkg00[0-7]\\.apk\$/ && \$1 !~ /\\.so[.0-9]*\$/ && \$1 !~ /\/package-scan\$/ { exit 1 }' never.csv"
expect 'each archive is at least 80% never used' \
	"awk -F, 'NR > 1 && \$1 ~ /\\.apk\$/ && !(\$8 * 10 >= \$5 * 8) { exit 1 }' never.csv"
naive=$("$BOOTPROF" report --format csv --table files --file packages/pkg naive.dat | awk -F, 'NR > 1 { s += $5 } END { print s + 0 }')
smart=$("$BOOTPROF" report --format csv --table files --file packages/pkg smart.dat | awk -F, 'NR > 1 { s += $5 } END { print s + 0 }')
echo "# archives read: naive $naive bytes, smart $smart bytes"
expect 'smart reads less than 5% of what naive reads' "test '$smart' -gt 0 && test \$((smart * 20)) -lt '$naive'"
