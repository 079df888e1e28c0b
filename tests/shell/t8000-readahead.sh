#!/bin/sh
# The readahead loop, live: record a workload from a cold cache, make a
# pack, check it against the recording's own page accounting (exactly),
# replay it into a cold cache (fincore: exactly the packed pages), and
# record the workload again: its data files come from the cache, and the
# preloader's reads are its own (--preloaded: preloaded then used; report
# shows the same numbers).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v fincore >/dev/null || skip_all "fincore (util-linux) not installed"

PAGE=$(getconf PAGESIZE)
D=$TEST_DIR/data
mkdir -p "$D"
head -c 12288 /dev/urandom >"$D/small"
head -c 1048576 /dev/urandom >"$D/big"
head -c 4194304 /dev/urandom >"$D/part"
head -c 65536 /dev/urandom >"$D/appended"
head -c 65536 /dev/urandom >"$D/replaced"
head -c 65536 /dev/urandom >"$D/gone"
cat >"$D/work.sh" <<EOT
#!/bin/sh
cat $D/small >/dev/null
cat $D/big >/dev/null
dd if=$D/part of=/dev/null bs=65536 count=1 2>/dev/null
dd if=$D/part of=/dev/null bs=65536 count=1 skip=32 2>/dev/null
cat $D/appended >/dev/null
echo more >>$D/appended
cat $D/replaced $D/gone >/dev/null 2>&1 || true
EOT
chmod 755 "$D/work.sh"
sync
# The files predate the recording (a file changed during it is left out).
sleep 0.2
drop_caches
t3_record "$TEST_DIR/cold.dat" "$D/work.sh" || { not_ok "record the workload"; exit 0; }
# Changed after the recording: another inode at the path, and no file at all.
head -c 65536 /dev/urandom >"$D/replaced.new" && mv "$D/replaced.new" "$D/replaced"
rm -f "$D/gone"

P=$TEST_DIR/exact.pack
expect 'readahead writes a pack' "'$BOOTPROF' readahead --gap 0 -o '$P' '$TEST_DIR/cold.dat'"
expect 'it starts with its version line' "head -n 1 '$P' | grep -qx 'bootprof-pack 1'"
expect 'an existing pack is not replaced without --force' \
	"! '$BOOTPROF' readahead -o '$P' '$TEST_DIR/cold.dat' 2>'$TEST_DIR/err' && grep -q 'exists' '$TEST_DIR/err'"
t3_csv "$TEST_DIR/cold.dat" files >"$TEST_DIR/files.csv"

# pack_line NAME: the pack's line for $D/NAME
pack_line() { grep " $D/$1\$" "$2"; }
# range_pages LINE: pages in its ranges
range_pages() { echo "$1" | awk '{ n = split($9, r, ","); for (i = 1; i <= n; i++) { split(r[i], a, "+"); s += a[2] } print s + 0 }'; }

for f in small big part; do
	line=$(pack_line $f "$P")
	used=$(t3_field "$TEST_DIR/files.csv" 1 "$D/$f" 7)
	never=$(t3_field "$TEST_DIR/files.csv" 1 "$D/$f" 8)
	pages=$(range_pages "$line")
	echo "# $f: used $used, never used $never; pack: $pages pages, left out $(echo "$line" | cut -d' ' -f8)"
	expect "$f: its ranges are exactly its used pages ($used bytes)" \
		"[ -n '$line' ] && [ \$(($pages * $PAGE)) = '${used:-x}' ]"
	expect "$f: its never-used bytes are left out and counted ($never)" \
		"[ \"\$(echo '$line' | cut -d' ' -f8)\" = '${never:-x}' ]"
	expect "$f: its identity is the file's (dev, inode, size)" \
		"[ \"\$(echo '$line' | cut -d' ' -f2-4)\" = \"\$(stat -c '%Hd:%Ld %i %s' '$D/$f')\" ]"
done
expect 'part: the two reads are two ranges, 16 pages at 0 and at 512 (the readahead beyond them is never used)' \
	"pack_line part '$P' | awk '{ exit !(\$9 == \"0+16,512+16\") }'"
# The order the pack says: first use, or physical (FIEMAP) on a rotational disk.
phys() { filefrag -e "$1" 2>/dev/null | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4 + 0; exit }'; }
if grep -qx 'order disk' "$P"; then
	if command -v filefrag >/dev/null; then
		expect 'rotational disk: our files in physical order (filefrag)' \
			"for f in \$(grep '^file ' '$P' | grep -o ' $D/[a-z]*\$'); do echo \$(phys \$f); done >'$TEST_DIR/phys' &&
			 sort -n -c '$TEST_DIR/phys'"
	else
		skip 'rotational disk: files in physical order' 'filefrag not installed'
	fi
else
	expect 'files in order of first use: small, big, part' \
		"grep -o ' $D/[a-z]*\$' '$P' | grep -v work.sh | head -n 3 | tr -d ' ' | tr '\n' ' ' | grep -qx '$D/small $D/big $D/part '"
fi
expect 'first use is in each line (small before big before part)' \
	"[ \"\$(for f in small big part; do pack_line \$f '$P' | cut -d' ' -f7; done | sort -n | tr '\n' ' ')\" = \"\$(for f in small big part; do pack_line \$f '$P' | cut -d' ' -f7; done | tr '\n' ' ')\" ]"
expect 'a file written during the recording is left out, counted' \
	"! pack_line appended '$P' && awk '\$1 == \"count\" && \$2 == \"written\" { exit !(\$3 >= 1) }' '$P'"
expect 'a file replaced since is left out, counted' \
	"! pack_line replaced '$P' && awk '\$1 == \"count\" && \$2 == \"replaced\" { exit !(\$3 >= 1 && \$4 >= 65536) }' '$P'"
expect 'a file gone since is left out, counted' \
	"! pack_line gone '$P' && awk '\$1 == \"count\" && \$2 == \"gone\" { exit !(\$3 >= 1 && \$4 >= 65536) }' '$P'"
expect 'the never-used count is the sum of the files'"'"' left-out bytes' \
	"awk '\$1 == \"file\" { s += \$8 } \$1 == \"count\" && \$2 == \"never-used\" { c = \$4 } END { exit !(s == c) }' '$P'"
# A phase's pack: the reads up to the first dd (small and big, not part),
# the same pack as --since/--until at the phase's bounds.
"$BOOTPROF" readahead --gap 0 --phase to-dd=exec:dd "$TEST_DIR/cold.dat" >"$TEST_DIR/phase.pack"
set -- $("$BOOTPROF" report --format json --phase to-dd=exec:dd "$TEST_DIR/cold.dat" |
	jq -r '.phases[] | select(.name == "to-dd") | "\(.start_ns) \(.end_ns)"')
secs() { echo "$1" | sed 's/\(.*\)\(.........\)$/\1.\2/'; }
"$BOOTPROF" readahead --gap 0 --since "$(secs "$1")" --until "$(secs "$2")" "$TEST_DIR/cold.dat" >"$TEST_DIR/window.pack"
expect 'readahead --phase: the files read before the first dd, not those after' \
	"pack_line small '$TEST_DIR/phase.pack' && pack_line big '$TEST_DIR/phase.pack' && ! pack_line part '$TEST_DIR/phase.pack'"
expect 'readahead --phase: the same pack as --since/--until at its bounds' \
	"[ -n '$2' ] && grep -v '^source' '$TEST_DIR/phase.pack' >'$TEST_DIR/p1' && grep -v '^source' '$TEST_DIR/window.pack' >'$TEST_DIR/p2' && cmp '$TEST_DIR/p1' '$TEST_DIR/p2'"
# The same bounds given after the recording's first event (+S), as report takes them.
first=$("$BOOTPROF" report --format json "$TEST_DIR/cold.dat" | jq '.totals.first_ns')
rsecs() { awk -v n="$1" 'BEGIN { printf "+%d.%09d", int(n / 1e9), n % 1e9 }'; }
"$BOOTPROF" readahead --gap 0 --since "$(rsecs $(($1 - first)))" --until "$(rsecs $(($2 - first)))" \
	"$TEST_DIR/cold.dat" >"$TEST_DIR/relative.pack"
expect 'readahead --since/--until +S: the same pack as the bounds on the recording clock' \
	"grep -v '^source' '$TEST_DIR/relative.pack' >'$TEST_DIR/p3' && cmp '$TEST_DIR/p2' '$TEST_DIR/p3'"
expect 'readahead --until before --since: a usage error (2), as in every command' \
	"'$BOOTPROF' readahead --since +2 --until +1 '$TEST_DIR/cold.dat' 2>'$TEST_DIR/err'; [ \$? = 2 ] && grep -qx 'bootprof: --until is not after --since' '$TEST_DIR/err'"
expect 'readahead --phase: a phase that is not there is one line, exit 1' \
	"'$BOOTPROF' readahead --phase initramfs '$TEST_DIR/cold.dat' 2>'$TEST_DIR/err'; [ \$? = 1 ] && [ \$(wc -l <'$TEST_DIR/err') = 1 ]"
expect 'nothing from the recording, /var/log or tmpfs is in the pack' \
	"! grep '^file ' '$P' | grep -E ' (/var/log/|/run/|/dev/shm/|/proc/|/sys/)' && ! grep '^file ' '$P' | grep -F '$TEST_DIR/cold.dat'"

# Merging across gaps: the never-used pages between part's ranges are preloaded.
G=$TEST_DIR/gap.pack
"$BOOTPROF" readahead --gap 1000 -o "$G" "$TEST_DIR/cold.dat" >/dev/null
expect 'with --gap 1000 part is one range and leaves nothing out' \
	"pack_line part '$G' | awk '{ exit !(\$9 == \"0+528\" && \$8 == 0) }'"
expect 'the merged gap is counted as preloaded, not known to be used' \
	"awk '\$1 == \"count\" && \$2 == \"gap\" { exit !(\$4 >= 496 * $PAGE) }' '$G'"
expect 'readahead --max-bytes leaves files out past the cap, counted' \
	"'$BOOTPROF' readahead --max-bytes 1 '$TEST_DIR/cold.dat' >'$TEST_DIR/cap.pack' &&
	 ! grep -q '^file ' '$TEST_DIR/cap.pack' && awk '\$2 == \"over-cap\" { exit !(\$3 >= 3) }' '$TEST_DIR/cap.pack'"

"$BOOTPROF" readahead --explain "$P" >"$TEST_DIR/explain.txt"
expect 'readahead --explain lists each file with bytes, ranges and bytes left out' \
	"grep -Eq '^ +[0-9]+ +[0-9]+\.[0-9]{6} +1048576 +1 +0  $D/big\$' '$TEST_DIR/explain.txt' &&
	 grep -Eq ' +4194304 | +131072 +2 +[0-9]+  $D/part\$' '$TEST_DIR/explain.txt'"
expect 'readahead --explain says what was left out and why' \
	"grep -Eq '^  replaced +[1-9]' '$TEST_DIR/explain.txt' && grep -Eq '^  never-used +[1-9]' '$TEST_DIR/explain.txt'"

# Replay into a cold cache: exactly the packed pages become resident.
drop_caches
expect 'replay preloads the pack' \
	"'$BOOTPROF' replay --wait '$P' >'$TEST_DIR/replay.out' && grep -q '^preloaded ' '$TEST_DIR/replay.out'"
cat "$TEST_DIR/replay.out" | sed 's/^/# /'
res() { fincore --bytes --noheadings --output RES "$1"; }
expect 'small and big are resident whole' "[ \$(res '$D/small') = 12288 ] && [ \$(res '$D/big') = 1048576 ]"
expect 'part: exactly its 32 used pages are resident' "[ \$(res '$D/part') = $((32 * PAGE)) ]"

# The workload again, after a replay into a cold cache, recorded with the
# preloader inside the recording.
drop_caches
t3_record "$TEST_DIR/warm.dat" sh -c "'$BOOTPROF_FAST' replay '$P' >/dev/null && '$D/work.sh'" ||
	not_ok "record the replayed workload"
t3_csv "$TEST_DIR/warm.dat" readers >"$TEST_DIR/readers.csv"
t3_csv "$TEST_DIR/cold.dat" readers >"$TEST_DIR/readers-cold.csv"
for f in small big part; do
	cold_w=$(awk -F, -v p="$D/$f" '$1 == p && $3 != "bootprof-replay" { s += $4 } END { print s + 0 }' "$TEST_DIR/readers-cold.csv")
	warm_w=$(awk -F, -v p="$D/$f" '$1 == p && $3 != "bootprof-replay" { s += $4 } END { print s + 0 }' "$TEST_DIR/readers.csv")
	warm_b=$(awk -F, -v p="$D/$f" '$1 == p && $3 != "bootprof-replay" { s += $5 } END { print s + 0 }' "$TEST_DIR/readers.csv")
	pre_b=$(awk -F, -v p="$D/$f" '$1 == p && $3 == "bootprof-replay" { s += $5 } END { print s + 0 }' "$TEST_DIR/readers.csv")
	echo "# $f: workload waited $cold_w ns cold, $warm_w ns after replay; read $warm_b bytes itself, the preloader $pre_b"
	expect "$f: after replay the preloader read it, the workload read none of its packed pages" \
		"[ '$pre_b' -gt 0 ] && [ '$warm_b' = 0 ]"
	expect "$f: the workload's I/O wait on it dropped by at least half" "[ \$(($warm_w * 2)) -le $cold_w ]"
done
"$BOOTPROF" readahead --preloaded "$TEST_DIR/warm.dat" >"$TEST_DIR/preloaded.txt"
sed 's/^/# /' "$TEST_DIR/preloaded.txt" | grep -F "$D" 
expect 'readahead --preloaded: one preloader process' "grep -q ': 1 preloader process ' '$TEST_DIR/preloaded.txt'"
# the verdict's columns: preloaded hit late overtaken miss wasted read_again late_waits late_wait_ns path
expect 'readahead --preloaded: big preloaded whole, and all of it hit or late (the workload used it), nothing else' \
	"awk -v p='$D/big' '\$NF == p { f = 1; ok = (\$1 == 1048576 && \$2 + \$3 == 1048576 && \$4 + \$5 + \$6 + \$7 == 0); exit }
		END { exit !(f && ok) }' '$TEST_DIR/preloaded.txt'"
expect 'readahead --preloaded: part preloaded exactly its used pages, all hit or late, none wasted or read again' \
	"awk -v p='$D/part' '\$NF == p { f = 1; ok = (\$1 == $((32 * PAGE)) && \$2 + \$3 == $((32 * PAGE)) && \$4 + \$6 + \$7 == 0); exit }
		END { exit !(f && ok) }' '$TEST_DIR/preloaded.txt'"

# The report says the same, from the same computation: JSON, CSV and text.
"$BOOTPROF" report --format json "$TEST_DIR/warm.dat" >"$TEST_DIR/warm.json"
awk 'NF == 10 && $1 ~ /^[0-9]+$/ && ($NF ~ /^\// || $NF == "total")' "$TEST_DIR/preloaded.txt" |
	awk '{ $1 = $1; print }' >"$TEST_DIR/pre-readahead"
jq -r '.preloaded | (.files[], .total) |
	"\(.preloaded_bytes) \(.hit_bytes) \(.late_bytes) \(.overtaken_bytes) \(.miss_bytes) \(.wasted_bytes) \(.read_again_bytes) \(.late_waits) \(.late_wait_ns) \(.path // "total")"' \
	"$TEST_DIR/warm.json" >"$TEST_DIR/pre-json"
expect 'report --format json: "preloaded" is readahead --preloaded, file by file and in total' \
	"grep -q ' $D/big\$' '$TEST_DIR/pre-json' && cmp '$TEST_DIR/pre-readahead' '$TEST_DIR/pre-json' &&
	 [ \"\$(jq .preloaded.processes '$TEST_DIR/warm.json')\" = 1 ]"
"$BOOTPROF" report --table preloaded --top 0 "$TEST_DIR/warm.dat" | tail -n +2 |
	awk -F, '$2 == "" { print $4, $6, $8, $10, $12, $14, $16, $18, $19, $1 }' >"$TEST_DIR/pre-csv"
expect 'report --table preloaded: the same rows' \
	"grep -v ' total\$' '$TEST_DIR/pre-readahead' | cmp - '$TEST_DIR/pre-csv'"
"$BOOTPROF" report --width 200 "$TEST_DIR/warm.dat" >"$TEST_DIR/warm.txt"
expect 'report: a section "Preloaded by bootprof-replay", big preloaded whole, hit or late' \
	"grep -qx '== Preloaded by bootprof-replay' '$TEST_DIR/warm.txt' &&
	 grep -Eq '^ *1\.0 MiB +[0-9.]+ [KM]?i?B +[0-9.]+ [KM]?i?B +0 B +0 B +0 B +0 B +[0-9]+ +[0-9.]+ m?s +$D/big\$' '$TEST_DIR/warm.txt'"
expect 'report of a boot without a preloader: no such section, no "preloaded" key' \
	"! '$BOOTPROF' report '$TEST_DIR/cold.dat' | grep -q 'Preloaded by' &&
	 [ \"\$('$BOOTPROF' report --format json '$TEST_DIR/cold.dat' | jq 'has(\"preloaded\")')\" = false ]"

# A file changed after the pack was made is skipped, never read.
touch "$D/big"
drop_caches
"$BOOTPROF" replay "$P" >"$TEST_DIR/stale.out"
expect 'replay skips a file changed since the pack (stale), reads none of it' \
	"grep -Eq 'skipped [1-9][0-9]* stale' '$TEST_DIR/stale.out' && [ \$(res '$D/big') = 0 ] && [ \$(res '$D/part') = $((32 * PAGE)) ]"
