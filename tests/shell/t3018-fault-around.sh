#!/bin/sh
# Fault-around stated honestly: a 32 MiB file mapped from a cold cache and
# touched at every 16th page (ground truth: 15 of 16 pages read were never
# touched). The kernel maps the 64 KiB around each fault (map_pages) without
# saying which page faulted: those pages are "mapped, not known to be used",
# never "used". Used pages are only the touched ones a fault names;
# used + never used + mapped = read. The pack keeps the mapped pages and
# counts them as uncertain. record --exact-mmap sets fault-around to one
# page; a kernel that refuses (lockdown: EPERM) fails it before recording,
# with one line, leaving nothing behind.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
t3_helper t3-mmap

PAGE=$(getconf PAGESIZE)
F=$TEST_DIR/sparse
head -c 33554432 /dev/urandom >"$F"
sync
drop_caches
t3_record "$TEST_DIR/r.dat" "$TEST_DIR/t3-mmap" "$F" $((16 * PAGE)) >"$TEST_DIR/touched"
touched=$(cut -d' ' -f1 "$TEST_DIR/touched")
expect 'the helper touched 512 pages' "test '$touched' = 512"
t3_pages "$TEST_DIR/r.dat" "$F"
echo "# truth: $touched pages touched"
expect 'most of the file was read from storage' "test '${read_b:-0}' -gt $((touched * 8 * PAGE))"
t3_pages_sum
expect 'used is at most the touched pages (the pages faults named)' \
	"test '${used:-x}' -le $((touched * PAGE))"
expect 'the pages fault-around mapped are counted apart, not as used' \
	"test '${mapped:-0}' -ge \$(( ${read_b:-0} / 2 ))"
"$BOOTPROF" report --top 3 "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
expect 'the text report says so in the summary and in a section of its own' \
	"grep -q '^mapped by fault-around: .*not known to be used' '$TEST_DIR/report.txt' &&
	 sed -n '/^== Mapped by fault-around, not known to be used/,/^== /p' '$TEST_DIR/report.txt' | grep -q 't3-mmap\\['"
expect 'json: totals and the file have mapped_unknown_bytes' \
	"'$BOOTPROF' report --format json --top 0 '$TEST_DIR/r.dat' | jq -e --arg f '$F' --argjson m '${mapped:-0}' \
		'.totals.mapped_unknown_bytes >= \$m and ([.files[] | select(.path == \$f)][0].mapped_unknown_bytes == \$m) and .recording.fault_around_bytes == null' >/dev/null"

# The pack: mapped pages are preloaded, counted as uncertain.
"$BOOTPROF" readahead -o "$TEST_DIR/p.pack" "$TEST_DIR/r.dat" >"$TEST_DIR/pack.out" 2>&1
"$BOOTPROF" readahead --explain "$TEST_DIR/p.pack" >"$TEST_DIR/explain.txt"
pack_b=$(awk -v f="$F" '$NF == f { print $3 }' "$TEST_DIR/explain.txt")
unc=$(awk '$1 == "uncertain" { print $3 }' "$TEST_DIR/explain.txt")
echo "# pack: $pack_b bytes of the file; uncertain (all files) $unc"
expect 'the pack preloads its used and mapped pages' \
	"test '${pack_b:-0}' -ge \$(( ${used:-0} + ${mapped:-0} ))"
expect '--explain counts the mapped pages as uncertain' "test '${unc:-0}' -ge '${mapped:-1}'"

# --exact-mmap: exact where the kernel lets bootprof set fault-around.
grep debugfs /proc/mounts >"$TEST_DIR/mounts.before"
tracing_snapshot
drop_caches
"$BOOTPROF_FAST" record --exact-mmap -o "$TEST_DIR/x.dat" -- \
	sh -c "touch '$TEST_DIR/ran'; '$TEST_DIR/t3-mmap' '$F' $((16 * PAGE))" \
	>/dev/null 2>"$TEST_DIR/x.err" &
pid=$!
wait $pid
rc=$?
sed 's/^/# /' "$TEST_DIR/x.err"
if grep -q -- '--exact-mmap: ' "$TEST_DIR/x.err"; then
	expect '--exact-mmap refused by this kernel: one line, why, exit 125 (recorder failed)' \
		"test $rc = 125 && test \$(wc -l <'$TEST_DIR/x.err') = 1 &&
		 grep -q \"^bootprof: --exact-mmap: cannot .*fault_around_bytes'*: \" '$TEST_DIR/x.err'"
	expect '--exact-mmap refused: no recording, the command never ran' \
		"! test -e '$TEST_DIR/x.dat' && ! test -e '$TEST_DIR/ran'"
	expect '--exact-mmap refused: no debugfs mount left' \
		"grep debugfs /proc/mounts | cmp -s - '$TEST_DIR/mounts.before'"
	expect_tracing_clean '--exact-mmap refused' "$pid"
	"$BOOTPROF" record --exact-mmap -o "$TEST_DIR/y.dat" --duration 1 2>/dev/null
	expect '--exact-mmap refused without a command: exit 1' "test $? = 1 && ! test -e '$TEST_DIR/y.dat'"
else
	expect '--exact-mmap: the recording is made' "test $rc = 0"
	t3_pages "$TEST_DIR/x.dat" "$F"
	expect '--exact-mmap: >= 90 % of the pages read are never used, none only mapped' \
		"test '${mapped:-x}' = 0 && test \$(( ${never:-0} * 10 )) -ge \$(( ${read_b:-1} * 9 ))"
	expect '--exact-mmap: the report says the mmap accounting was exact' \
		"'$BOOTPROF' report '$TEST_DIR/x.dat' | grep -q '^mmap: exact'"
	expect '--exact-mmap: no debugfs mount left' \
		"grep debugfs /proc/mounts | cmp -s - '$TEST_DIR/mounts.before'"
fi
