#!/bin/sh
# diff, check, db and report --boots on the fixture recordings (no root):
# a recording against itself has no change; bad budget lines exit 2 with one
# line naming the line; the database refuses duplicates and junk, unchanged;
# user-defined phases end at the first exec; outputs fit 100 columns.
. "$(dirname "$0")/../test-lib.sh"

cd "$TOP" || exit 1
R=$BOOTPROF
A=tests/fixtures/basic.dat
N=tests/fixtures/no-access.dat
T=$TEST_DIR

# Phases: the fixture is a live recording (no PID 1 exec): userspace only,
# plus the user's; "true" ran five times, the phase ends at the first.
"$R" report --format json --phase first-true=exec:true --phase never=exec:no-such "$A" >"$T/r.json"
first_true=$("$R" dump --events sched:sched_process_exec "$A" | awk '/filename=[^ ]*\/true / { print $1; exit }' | tr -d :)
expect 'report: userspace spans the recording' \
	"jq -e '.phases[] | select(.name == \"userspace\") | .reached and .start_ns == $(jq .totals.first_ns "$T/r.json")' '$T/r.json'"
expect "report: first-true ends at the first exec of true ($first_true s)" \
	"jq -e '.phases[] | select(.name == \"first-true\") | .reached and (.end_ns / 1000 | floor) == ($first_true * 1000000 | round)' '$T/r.json'"
expect 'report: a phase not reached says so' \
	"jq -e '.phases[] | select(.name == \"never\") | .reached == false' '$T/r.json'"
expect 'report: the phase numbers are those of the window (report --since/--until)' "
	s=\$(jq '.phases[] | select(.name == \"first-true\") | .start_ns' '$T/r.json')
	e=\$(jq '.phases[] | select(.name == \"first-true\") | .end_ns' '$T/r.json')
	w=\$(jq '.phases[] | select(.name == \"first-true\") | .wait_ns' '$T/r.json')
	ww=\$('$R' report --format json --since \$(echo \$s | sed 's/\\(.*\\)\\(.........\\)\$/\\1.\\2/') --until \$(echo \$e | sed 's/\\(.*\\)\\(.........\\)\$/\\1.\\2/') '$A' | jq .totals.wait_ns)
	test \"\$w\" = \"\$ww\""
# A boot on the local clock: the recorder's stop instant is on another
# clock, so the last phase ends at the last event, never before it starts.
"$R" report --format json tests/fixtures/boot.dat >"$T/boot.json"
expect 'report: boot phases on the local clock are contiguous and end at the last event' \
	"jq -e '([.phases[] | select(.end_ns < .start_ns)] | length == 0) and
		(.phases[] | select(.name == \"userspace\") | .end_ns) == .totals.last_ns and
		(.phases[] | select(.name == \"userspace\") | .start_ns) == (.phases[] | select(.name == \"initramfs\") | .end_ns)' '$T/boot.json'"
expect 'report: a bad --phase is a usage error' "'$R' report --phase x=foo:y '$A'; test \$? = 2"
expect 'report: the text report shows the phases' "'$R' report '$A' | grep -q '^userspace '"

# diff
expect 'diff: a recording against itself: no change, exit 0' \
	"'$R' diff '$A' '$A' >'$T/same.txt' && test \$(grep -c '^no change\$' '$T/same.txt') = 4"
"$R" diff --top 0 "$A" "$N" >"$T/d.txt"
expect 'diff text: fits 100 columns' "awk 'length > 100 { print; exit 1 }' '$T/d.txt'"
expect 'diff: the same workload recorded twice: processes matched by name' \
	"grep -q '^t3-mmap (.*/t3-mmap)  \\[changed\\]' '$T/d.txt' && grep -q '^true (/bin/true)  \\[changed\\]' '$T/d.txt' &&
	 ! grep -q '^t3-mmap.*\\[new\\]' '$T/d.txt'"
expect 'diff: a missing recording is one line, exit 1' \
	"'$R' diff '$A' '$T/none.dat' 2>'$T/err'; test \$? = 1 && test \$(wc -l <'$T/err') = 1"
expect 'diff: a group pattern that matches nothing is one line, exit 1' \
	"'$R' diff --before '$T/none-*.dat' --after '$A' 2>'$T/err'; test \$? = 1 && test \$(wc -l <'$T/err') = 1"
expect 'diff: --before without --after is a usage error' "'$R' diff --before '$A'; test \$? = 2"
expect 'diff: a bad --sort is a usage error' "'$R' diff --sort pid '$A' '$A'; test \$? = 2"

# check
expect 'check: --budget is required' "'$R' check '$A'; test \$? = 2"
for line in 'phase kernel' 'proc x 1s' 'io_wait 1s' 'file /x 2q' 'never_used share 200%' \
	'phase a=foo:x 1s' 'lost_events x' 'process x io_wait 1s 2s' 'bytes total 5s'; do
	printf '# a budget\n\n%s\n' "$line" >"$T/bad.budget"
	expect "check: bad line '$line': exit 2, one line naming line 3" \
		"'$R' check --budget '$T/bad.budget' '$A' >'$T/out' 2>'$T/err'; test \$? = 2 && test \$(wc -l <'$T/err') = 1 && grep -q 'bad.budget:3: ' '$T/err' && test ! -s '$T/out'"
done
expect 'check: a missing budget file: exit 2' "'$R' check --budget '$T/none' '$A'; test \$? = 2"
printf 'io_wait total 10s\nbytes total 1G\nprocess t3-mmap bytes 5M\nfile * never_used 1G\n' >"$T/ok.budget"
expect 'check: within budget: exit 0' "'$R' check --budget '$T/ok.budget' '$A'"
expect 'check --format tap: never-used limits without access events are "ok ... # SKIP", exit 0' \
	"'$R' check -f tap --budget '$T/ok.budget' '$N' >'$T/out' && grep -q '^ok 4 - file \\* never_used 1G # SKIP ' '$T/out'"
printf 'process t3-mmap bytes 1M\nphase kernel 1s\n' >"$T/over.budget"
"$R" check --budget "$T/over.budget" "$A" >"$T/out"
rc=$?
expect "check: over budget: exit 1 (got $rc)" "test $rc = 1"
expect 'check: a phase the recording does not hold fails' \
	"grep -q '^FAIL  phase kernel 1s: - (phase .kernel. not in the recording)' '$T/out'"

# critical_path limits: the path's length, I/O and I/O on files are what
# `bootprof critical` says of the same default end; a limit 1 ms under
# fails, one at the value passes.
B=tests/fixtures/boot.dat
for line in 'critical_path 1s' 'critical_path file 1s' 'critical_path io /x 1s' 'critical_path cpu 1s' \
	'critical_path total 1' 'critical_path file /x /y 1s'; do
	printf '# a budget\n\n%s\n' "$line" >"$T/bad.budget"
	expect "check: bad line '$line': exit 2, one line naming line 3" \
		"'$R' check --budget '$T/bad.budget' '$B' >'$T/out' 2>'$T/err'; test \$? = 2 && test \$(wc -l <'$T/err') = 1 && grep -q 'bad.budget:3: ' '$T/err'"
done
"$R" critical --format json "$B" >"$T/c.json"
total=$(jq .duration_ns "$T/c.json") io=$(jq .by_state.io "$T/c.json")
data=$(jq '[.files[] | select(.path != null and (.path | startswith("/data/"))) | .io_ns] | add' "$T/c.json")
echo "# boot.dat's path: $total ns, I/O $io ns, on /data/* $data ns"
for m in "total $total" "io $io" "file /data/* $data"; do
	set -- $m
	v=$(eval echo "\${$#}")
	printf 'critical_path %sns\n' "$m" >"$T/at.budget"
	printf 'critical_path %s%sns\n' "${m% *} " "$((v - 1000000))" >"$T/under.budget"
	expect "check: critical_path ${m% *} at $v ns holds, 1 ms under fails" \
		"'$R' check --budget '$T/at.budget' '$B' >'$T/out' && grep -q '^ok    critical_path' '$T/out' &&
		 '$R' check --budget '$T/under.budget' '$B' >'$T/out'; test \$? = 1 && grep -q '^FAIL  critical_path' '$T/out'"
done

# diff --critical: the paths of two recordings by task and file, the
# sums of each path's own segments and files (bootprof critical).
expect 'diff --critical: a recording against itself: every task and file the same' \
	"'$R' diff --critical -f json --top 0 '$B' '$B' >'$T/dc.json' &&
	 jq -e '(.tasks + .files | length > 0 and all(.[]; .status == \"same\" and .before_ns == .after_ns)) and
		.before.duration_ns == .after.duration_ns' '$T/dc.json'"
"$R" critical --format json "$A" >"$T/ca.json"
"$R" diff --critical -f json --top 0 "$A" "$B" >"$T/dc.json"
expect 'diff --critical: each task'"'"'s time is the sum of its segments on either path' "
	jq -e --slurpfile a '$T/ca.json' --slurpfile b '$T/c.json' '
		def by(p): reduce p[0].segments[] as \$g ({}; .[\$g.comm] += \$g.ns);
		by(\$a) as \$x | by(\$b) as \$y |
		(.tasks | length) == ([\$x, \$y] | add | keys | length) and
		all(.tasks[]; .before_ns == (\$x[.comm] // 0) and .after_ns == (\$y[.comm] // 0))' '$T/dc.json'"
expect 'diff --critical: files moved onto the path are those only the second path holds' "
	jq -e --slurpfile a '$T/ca.json' '([\$a[0].files[].path] - [null]) as \$p |
		all(.files[]; (.status == \"onto\") == (([.path] - \$p) | length == 1))' '$T/dc.json'"
expect 'diff --critical: the text has the three sections' "
	'$R' diff --critical '$A' '$B' >'$T/dc.txt' &&
	grep -qx '== Critical paths' '$T/dc.txt' && grep -qx '== Tasks on the paths' '$T/dc.txt' &&
	grep -qx '== Files on the paths (I/O)' '$T/dc.txt'"
expect 'diff --critical on groups is a usage error' \
	"'$R' diff --critical --before '$A' --after '$B'; test \$? = 2"

# db
DB=$T/f.db
expect 'db add: two recordings' "'$R' db add '$DB' '$A' '$N' 2>/dev/null && test \$(sqlite3 '$DB' 'SELECT COUNT(*) FROM recordings') = 2"
expect 'db: never-used is NULL without access events' \
	"test \"\$(sqlite3 '$DB' 'SELECT never_used_bytes IS NULL FROM recordings ORDER BY id')\" = \"\$(printf '0\n1')\""
expect 'db: totals are the report totals' \
	"test \$(sqlite3 '$DB' 'SELECT read_bytes FROM recordings WHERE id = 1') = \$(jq .totals.read_bytes '$T/r.json')"
cols() { sqlite3 "$1" "PRAGMA table_info($2)" | cut -d'|' -f2 | tr '\n' ' '; }
expect 'db: processes, files and services name their bytes bytes_read, as JSON and CSV do' "
	for t in processes files services; do
		cols '$DB' \$t | grep -q ' bytes_read ' && ! cols '$DB' \$t | grep -q read_bytes || exit 1
	done && jq -e '.processes[0] | has(\"bytes_read\")' '$T/r.json' >/dev/null"
expect 'db: schema 1 names are kept by views' \
	"v=\$(sqlite3 '$DB' 'SELECT SUM(read_bytes) FROM files_v1') && test -n \"\$v\" && test \"\$v\" = \"\$(sqlite3 '$DB' 'SELECT SUM(bytes_read) FROM files')\""
# A database of schema 1 (read_bytes, no views) gets the new names when added to.
cp "$DB" "$T/v1.db"
sqlite3 "$T/v1.db" 'DROP VIEW processes_v1; DROP VIEW files_v1; DROP VIEW services_v1;
	ALTER TABLE processes RENAME COLUMN bytes_read TO read_bytes;
	ALTER TABLE files RENAME COLUMN bytes_read TO read_bytes;
	ALTER TABLE services RENAME COLUMN bytes_read TO read_bytes;
	DELETE FROM processes WHERE recording_id = 2; DELETE FROM files WHERE recording_id = 2;
	DELETE FROM services WHERE recording_id = 2; DELETE FROM phases WHERE recording_id = 2;
	DELETE FROM recordings WHERE id = 2; PRAGMA user_version = 1'
expect 'db add to a schema 1 database: schema 2, bytes_read, the old names in views' \
	"'$R' db add '$T/v1.db' '$N' 2>/dev/null && test \$(sqlite3 '$T/v1.db' 'PRAGMA user_version') = 2 &&
	 cols '$T/v1.db' processes | grep -q ' bytes_read ' &&
	 test \"\$(sqlite3 '$T/v1.db' 'SELECT SUM(read_bytes) FROM processes_v1')\" = \"\$(sqlite3 '$T/v1.db' 'SELECT SUM(bytes_read) FROM processes')\""
sqlite3 "$DB" .dump >"$T/before.sql"
cp "$A" "$T/copy.dat"
echo junk >"$T/junk.dat"
for f in "$T/copy.dat" "$T/junk.dat" "$T/none.dat"; do
	expect "db add: $(basename "$f") is refused with one line, exit 1" \
		"'$R' db add '$DB' '$f' 2>'$T/err'; test \$? = 1 && test \$(wc -l <'$T/err') = 1"
done
expect 'db add: the database is unchanged' "sqlite3 '$DB' .dump | diff '$T/before.sql' -"
expect 'db export: every table as CSV and JSON Lines' "
	for t in recordings phases processes files services; do
		n=\$(sqlite3 '$DB' \"SELECT COUNT(*) FROM \$t\")
		test \$('$R' db export '$DB' \$t | wc -l) = \$((n + 1)) || exit 1
		test \$('$R' db export -f jsonl '$DB' \$t | jq -c . | wc -l) = \$n || exit 1
	done"
expect 'db export: an unknown table is a usage error' "'$R' db export '$DB' nope; test \$? = 2"
expect 'db schema: the SQL creates the same tables' \
	"'$R' db schema | sqlite3 '$T/empty.db' && test \"\$(sqlite3 '$T/empty.db' .tables | tr -s ' \\n' ' ')\" = \"\$(sqlite3 '$DB' .tables | tr -s ' \\n' ' ')\""
expect 'db schema --clickhouse: MergeTree tables' \
	"test \$('$R' db schema --clickhouse | grep -c 'ENGINE = MergeTree') = 5"
expect 'db: the example queries run' \
	"for q in examples/fleet/*.sql; do sqlite3 '$DB' <\$q >/dev/null || exit 1; done"

# report over several recordings
"$R" report --format json --top 0 "$A" "$N" >"$T/b.json"
expect 'report FILE FILE: rows say in how many boots they appeared' \
	"jq -e '(.phases[0].boots == 2) and ([.files[].boots] | max == 2) and (.recordings | length == 2)' '$T/b.json'"
expect 'report FILE FILE: min <= median <= max' \
	"jq -e '[.processes[], .files[] | .wait_ns | (.min <= .median and .median <= .max)] | all' '$T/b.json'"
expect 'report --boots: text fits 100 columns' \
	"'$R' report --boots 'tests/fixtures/[bn]*.dat' --top 0 | awk 'length > 100 { print; exit 1 }'"
expect 'report --boots: markdown' "'$R' report --format markdown --boots '$A' | grep -q '^| name | boots |'"
expect 'report --boots and files: usage error' "'$R' report --boots '$A' '$A'; test \$? = 2"
