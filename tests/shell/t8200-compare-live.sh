#!/bin/sh
# Boot against boot, on real recordings: the same workload recorded three
# times from a cold cache, the last with one planted change (plantreader
# also reads a cold 8 MiB file). diff names that process and that file
# first; the group rule flags only an after-group outside the before-range;
# budgets pass and fail on purpose; 20 variants of the recordings go into
# one database whose example queries return the planted facts; a duplicate
# and a corrupt recording are refused with one line, the database unchanged.
# Reads are throttled (blkio v1) so the planted wait (2 s) stands far
# above the machine's other I/O. Throttled bios reach block_bio_queue from
# the throttle's worker, not from the reader, so the model counts their
# pages as not read (bp_file.bytes_read): the planted facts here are waits.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

D=$TEST_DIR/files
mkdir -p "$D" "$TEST_DIR/bin"
head -c 1048576 /dev/urandom >"$D/common"
head -c 1048576 /dev/urandom >"$D/plant1"
head -c 8388608 /dev/urandom >"$D/extra"
cp /bin/cat "$TEST_DIR/bin/basereader"
cp /bin/cat "$TEST_DIR/bin/plantreader"
sync

# The disk under $TEST_DIR (the whole disk: throttles apply to it).
dev=$(findmnt -no MAJ:MIN -T "$TEST_DIR" | tr -d ' ')
[ -e "/sys/dev/block/$dev/partition" ] && dev=$(cat "/sys/dev/block/$dev/../dev")
CG=/sys/fs/cgroup/blkio/bootprof-t8200-$$
throttled=
if [ -n "$dev" ] && [ -d /sys/fs/cgroup/blkio ] && mkdir "$CG" 2>/dev/null; then
	if echo "$dev 4194304" >"$CG/blkio.throttle.read_bps_device" 2>/dev/null; then
		throttled=1
	fi
fi
trap 'rmdir "$CG" 2>/dev/null; [ -n "$KEEP" ] || rm -rf "$TEST_DIR"' EXIT

cat >"$TEST_DIR/work.sh" <<EOF
#!/bin/sh
[ -n "$throttled" ] && echo \$\$ >"$CG/cgroup.procs"
"$TEST_DIR/bin/basereader" "$D/common" >/dev/null
"$TEST_DIR/bin/plantreader" "$D/plant1" \$EXTRA >/dev/null
EOF
chmod +x "$TEST_DIR/work.sh"

rec() {
	drop_caches
	EXTRA=$2 t3_record "$TEST_DIR/$1.dat" "$TEST_DIR/work.sh"
}

# The planted change must come first; another engineer's burst of I/O in
# the same seconds can outweigh it once, so take the best of three tries.
for attempt in 1 2 3; do
	rm -f "$TEST_DIR"/A1.dat "$TEST_DIR"/A2.dat "$TEST_DIR"/B1.dat
	rec A1 && rec A2 && rec B1 "$D/extra" || break
	"$BOOTPROF" diff --format json --top 0 "$TEST_DIR/A1.dat" "$TEST_DIR/B1.dat" \
		>"$TEST_DIR/diff.json" || break
	first=$(jq -r '.processes[0].name + " " + .files[0].name' "$TEST_DIR/diff.json")
	echo "# attempt $attempt: first changes: $first"
	case "$first" in "plantreader ($TEST_DIR/bin/plantreader) $D/extra") break ;; esac
done
expect 'three recordings' "test -s '$TEST_DIR/A1.dat' && test -s '$TEST_DIR/A2.dat' && test -s '$TEST_DIR/B1.dat'"
[ -n "$throttled" ] || echo "# reads not throttled (no blkio v1): the planted wait is small"
expect "diff: the planting process comes first (got ${first%% /*})" \
	"test \"\$(jq -r '.processes[0].name' '$TEST_DIR/diff.json')\" = 'plantreader ($TEST_DIR/bin/plantreader)'"
expect "diff: the planted file comes first, new (got ${first#* })" \
	"jq -e '.files[0].name == \"$D/extra\" and .files[0].status == \"new\"' '$TEST_DIR/diff.json'"
expect 'diff: the planted file: at least 1 s more I/O wait (8 MiB at 4 MiB/s)' \
	"jq -e '.files[0].wait.change >= 1000000000 and .files[0].wait.before == 0' '$TEST_DIR/diff.json'"
expect 'diff: the planting process waited at least 1 s more' \
	"jq -e '.processes[0].wait.change >= 1000000000' '$TEST_DIR/diff.json'"
expect 'diff: processes are matched by name, never by pid (basereader is one row, changed or same)' \
	"jq -e '[.processes[] | select(.name | startswith(\"basereader\"))] | length <= 1' '$TEST_DIR/diff.json' &&
	 ! jq -e '.processes[] | select(.name | startswith(\"basereader\")) | select(.status != \"changed\")' '$TEST_DIR/diff.json' >/dev/null"
expect 'diff: rows sorted by absolute change of I/O wait' \
	"jq -e '[.processes[] | .wait.change | fabs] as \$c | \$c == (\$c | sort | reverse)' '$TEST_DIR/diff.json'"
"$BOOTPROF" diff "$TEST_DIR/A1.dat" "$TEST_DIR/B1.dat" >"$TEST_DIR/diff.txt"
expect 'diff text: fits 100 columns' "awk 'length > 100 { print; exit 1 }' '$TEST_DIR/diff.txt'"
expect 'diff text: the planted file is the first file row' \
	"awk '/^== Files/ { f = 1; next } f && /^\\// { print; exit }' '$TEST_DIR/diff.txt' | grep -q '^$D/extra  \\[new\\]'"
expect 'diff markdown: tables' \
	"'$BOOTPROF' diff --format markdown '$TEST_DIR/A1.dat' '$TEST_DIR/B1.dat' | grep -q '^| name | status | wait before'"

# Groups: B1 lies above both A recordings: flagged. A2 lies inside the
# range of {A1, B1}: not flagged.
"$BOOTPROF" diff --format json --before "$TEST_DIR/A*.dat" --after "$TEST_DIR/B1.dat" \
	>"$TEST_DIR/group.json"
expect 'group diff: the planted file is flagged' \
	"jq -e '.groups and (.files[] | select(.name == \"$D/extra\") | .wait.flagged)' '$TEST_DIR/group.json'"
cp "$TEST_DIR/B1.dat" "$TEST_DIR/mix-B1.dat"
cp "$TEST_DIR/A1.dat" "$TEST_DIR/mix-A1.dat"
"$BOOTPROF" diff --format json --top 0 --before "$TEST_DIR/mix-*.dat" --after "$TEST_DIR/A2.dat" \
	>"$TEST_DIR/group2.json"
expect 'group diff: an after-value inside the before-range is not flagged' \
	"jq -e '(.files[] | select(.name == \"$D/extra\") | .wait.flagged) == false' '$TEST_DIR/group2.json'"
w=$(jq '.files[0].wait.after' "$TEST_DIR/diff.json")
expect "group diff: the median of {0, W} is W/2 (W = $w)" \
	"jq -e '(.files[] | select(.name == \"$D/extra\") | .wait.before) == ($w / 2 | floor)' '$TEST_DIR/group2.json'"

# Budgets on the planted recording.
B=$TEST_DIR/B1.dat
cat >"$TEST_DIR/pass.budget" <<EOF
# within budget
phase userspace 120s
phase plant=exec:plantreader 120s
process plantreader io_wait 60s
process plant* count 1
file $D/extra io_wait 60s
file $D/* bytes 11M
lost_events 100000000
EOF
cat >"$TEST_DIR/fail.budget" <<EOF
process plantreader io_wait 500ms   # it waited 2 s
file $D/extra io_wait 60s
phase userspace 1ms
EOF
expect 'check: within budget exits 0' "'$BOOTPROF' check --budget '$TEST_DIR/pass.budget' '$B'"
"$BOOTPROF" check --budget "$TEST_DIR/fail.budget" "$B" >"$TEST_DIR/fail.txt"
rc=$?
expect "check: over budget exits 1 (got $rc)" "test $rc = 1"
expect 'check: the over line names the measured value and the limit' \
	"grep -q '^FAIL  process plantreader io_wait 500ms: [0-9.]* s (over the limit of 500.0 ms)   \\[line 1\\]' '$TEST_DIR/fail.txt'"
expect 'check: a limit met passes' "grep -q '^ok    file $D/extra io_wait 60s: ' '$TEST_DIR/fail.txt'"
expect 'check --format tap: one "not ok" per failed line' \
	"'$BOOTPROF' check -f tap --budget '$TEST_DIR/fail.budget' '$B' >'$TEST_DIR/tap'; test \$(grep -c '^not ok' '$TEST_DIR/tap') = 2 && grep -q '^1..3\$' '$TEST_DIR/tap'"
expect 'check --format junit: valid XML with the failures counted' \
	"'$BOOTPROF' check -f junit --budget '$TEST_DIR/fail.budget' '$B' >'$TEST_DIR/j.xml'; xmllint --noout '$TEST_DIR/j.xml' && grep -q 'failures=\"2\"' '$TEST_DIR/j.xml'"

# A fleet: 20 distinct recordings (hosts h0..h9 x kernels kold/knew): each
# host has one recording of A (kernel kold) and one of B (knew), the
# metadata rewritten in place, same length.
python3 - "$TEST_DIR" <<'EOF' || not_ok 'cannot write the fleet variants'
import re, sys
d = sys.argv[1]
def variant(src, dst, host, kernel):
    b = open(src, 'rb').read()
    h = re.search(rb'\nhostname ([^\n]*)\n', b).group(1)
    k = re.search(rb'\nrelease ([^\n]*)\n', b).group(1)
    nh = (host + 'x' * len(h))[:len(h)].encode()
    nk = (kernel + '-' * len(k))[:len(k)].encode()
    # The metadata and trace-cmd's uname option; every length unchanged.
    b = b.replace(b'\nhostname ' + h + b'\n', b'\nhostname ' + nh + b'\n')
    b = b.replace(b'Linux ' + h + b' ', b'Linux ' + nh + b' ')
    b = b.replace(k, nk)
    open(dst, 'wb').write(b)
for i in range(10):
    variant(d + '/A1.dat', '%s/fleet-a%d.dat' % (d, i), 'h%d' % i, 'kold')
    variant(d + '/B1.dat', '%s/fleet-b%d.dat' % (d, i), 'h%d' % i, 'knew')
EOF
DB=$TEST_DIR/fleet.db
"$BOOTPROF" db add "$DB" "$TEST_DIR"/fleet-*.dat 2>"$TEST_DIR/add.err"
rc=$?
expect "db add: 20 recordings (exit $rc)" \
	"test $rc = 0 && test \$(sqlite3 '$DB' 'SELECT COUNT(*) FROM recordings') = 20"
expect 'db: the recording id is on every row' \
	"test \$(sqlite3 '$DB' 'SELECT COUNT(*) FROM files WHERE recording_id NOT IN (SELECT id FROM recordings)') = 0 &&
	 test \$(sqlite3 '$DB' 'SELECT COUNT(DISTINCT recording_id) FROM processes') = 20"
expect 'db: schema version 2' "test \$(sqlite3 '$DB' 'PRAGMA user_version') = 2"
sqlite3 "$DB" .dump >"$TEST_DIR/before.sql"
"$BOOTPROF" db add "$DB" "$TEST_DIR/fleet-a3.dat" 2>"$TEST_DIR/dup.err"
rc=$?
expect "db add: the same recording again is refused with one line (exit $rc)" \
	"test $rc = 1 && test \$(wc -l <'$TEST_DIR/dup.err') = 1 && grep -q 'already in' '$TEST_DIR/dup.err'"
cp "$B" "$TEST_DIR/corrupt.dat"
size=$(stat -c %s "$TEST_DIR/corrupt.dat")
dd if=/dev/urandom of="$TEST_DIR/corrupt.dat" bs=4096 count=8 seek=$((size / 4096 / 2)) conv=notrunc 2>/dev/null
"$BOOTPROF" db add "$DB" "$TEST_DIR/corrupt.dat" 2>"$TEST_DIR/corrupt.err"
rc=$?
expect "db add: a corrupt recording fails with one line (exit $rc)" \
	"test $rc = 1 && test \$(wc -l <'$TEST_DIR/corrupt.err') = 1 && grep -q corrupt '$TEST_DIR/corrupt.err'"
expect 'db add: the database is unchanged after both' \
	"sqlite3 '$DB' .dump | diff '$TEST_DIR/before.sql' -"

Q=$TOP/examples/fleet
top=$(sqlite3 -csv "$DB" <"$Q/top-files.sql" | head -n 1 | cut -d, -f1)
expect "top-files.sql: the planted file is the top file across boots (got $top)" "test '$top' = '$D/extra'"
expect 'top-files.sql: read in 10 of the 20 boots' \
	"sqlite3 -csv '$DB' <'$Q/top-files.sql' | grep -q '^$D/extra,10,'"
slow=$(sqlite3 -csv "$DB" <"$Q/regressions-per-kernel.sql" | head -n 1 | cut -d, -f1)
expect "regressions-per-kernel.sql: the planted kernel is the slower one (got $slow)" \
	"case '$slow' in knew*) true ;; *) false ;; esac"
# Never used per host = the two recordings' never-used totals, from report.
want=$(( $("$BOOTPROF" report --format json "$TEST_DIR/A1.dat" | jq '.totals.never_used_bytes') + \
	 $("$BOOTPROF" report --format json "$B" | jq '.totals.never_used_bytes') ))
got=$(sqlite3 -csv "$DB" <"$Q/never-used-per-host.sql" | awk -F, '$1 ~ /^h3/ { print $3 }')
expect "never-used-per-host.sql: h3 = its two boots' never-used bytes ($want, got $got)" "test '$got' = '$want'"
expect 'db export: CSV of the files table, one line per row and a header' \
	"test \$('$BOOTPROF' db export '$DB' files | wc -l) = \$((\$(sqlite3 '$DB' 'SELECT COUNT(*) FROM files') + 1))"
expect 'db export: JSON Lines parse' \
	"'$BOOTPROF' db export --format jsonl '$DB' recordings | jq -e -s 'length == 20 and (.[0] | has(\"content_hash\"))' >/dev/null"

# Many boots: the fleet as --boots.
"$BOOTPROF" report --format json --top 0 --boots "$TEST_DIR/fleet-*.dat" >"$TEST_DIR/boots.json"
expect 'report --boots: the planted file appeared in 10 of 20 boots, the same wait in each' \
	"jq -e '(.files[] | select(.name == \"$D/extra\")) as \$f | \$f.boots == 10 and \$f.wait_ns.median == $w and \$f.wait_ns.min == $w' '$TEST_DIR/boots.json'"
expect 'report --boots: the userspace phase in all 20' \
	"jq -e '.phases[] | select(.name == \"userspace\") | .boots == 20' '$TEST_DIR/boots.json'"
expect 'report --boots text fits 100 columns' \
	"'$BOOTPROF' report --boots '$TEST_DIR/fleet-*.dat' | awk 'length > 100 { print; exit 1 }'"
