#!/bin/sh
# readahead --order critical, live. The command starts a decoy (in its
# own blkio group at 4 MB/s) that reads 64 KiB of decoy.bin (16 MiB),
# the second half of planted.bin (4 MiB), then all of decoy.bin; it
# sleeps 1.5 s, reads the first half of planted.bin (4 MB/s) and exits:
# its end waits on planted.bin's first half, never on decoy.bin, which
# was used first. The pack in critical order puts planted.bin before
# decoy.bin (the default order, first use or physical on a rotational
# disk, the other way round), and of planted.bin the pages the command
# waited on first: its second half comes in an entry of its own, after
# them, together the pages of the default order, none twice. Its
# leading entries are the files of
# the path's I/O segments in `critical -f json`, in their order; its
# per-file prediction (the pack's what-if lines and --explain) is the
# what-if of `critical -f json` to the nanosecond. A pack capped at the
# bytes of those entries holds them, planted.bin's among them, and no
# decoy.bin; replayed (--wait) in a recording of the command again, the
# path's I/O on planted.bin falls below a fifth (in `critical -f json` of
# that recording, and --explain's left and measured columns say the
# same). A recording stopped by its duration is refused in critical's
# words, and so is a bad --to; a pack to a pid's exit is not measured in
# another recording without --to.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 4000000
t3_decoy_cgroup 4000000

D=$TEST_DIR/files
mkdir -p "$D"
# decoy.bin is written first, 2 MiB at a time, so that each piece is
# placed as planted.bin (2 MiB) is, then after it.
for i in 1 2 3 4 5 6 7 8; do
	head -c 2097152 /dev/urandom >>"$D/decoy.bin"
	sync
done
head -c 4194304 /dev/urandom >"$D/planted.bin"
sync
# On a rotational disk the default order is physical: decoy.bin, written
# first, lies before planted.bin as a rule; when it does not, planted.bin
# is copied into new directories until a copy lies after decoy.bin, so
# that order, too, puts decoy.bin first.
PL=$D/planted.bin
premise=1
phys() { filefrag -e "$1" 2>/dev/null | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4 + 0; exit }'; }
if [ "$(cat "/sys/dev/block/$dev/queue/rotational" 2>/dev/null)" = 1 ]; then
	premise=0
	if command -v filefrag >/dev/null; then
		for i in 1 2 3 4 5 6 7 8 9; do
			[ "$(phys "$PL")" -gt "$(phys "$D/decoy.bin")" ] && { premise=1; break; }
			[ $i = 9 ] && break
			mkdir "$TEST_DIR/p$i" && cp "$PL" "$TEST_DIR/p$i/planted.bin" && sync &&
				PL=$TEST_DIR/p$i/planted.bin
		done
		echo "# physical blocks: decoy.bin at $(phys "$D/decoy.bin"), $PL at $(phys "$PL")"
	fi
fi
cat >"$TEST_DIR/run.sh" <<EOF
sh -c 'echo \$\$ >$DECOYS/cgroup.procs
	dd if="$D/decoy.bin" of=/dev/null bs=65536 count=1 2>/dev/null
	dd if="$PL" of=/dev/null bs=65536 skip=32 2>/dev/null
	exec cat "$D/decoy.bin" >/dev/null' &
sleep 1.5
echo \$\$ >$CG/cgroup.procs
dd if="$PL" of=/dev/null bs=65536 count=32 2>/dev/null
EOF
sync
sleep 0.2
# Cold: only the two files; the programs are read again now.
t3_before_record() {
	for p in $(cat "$DECOYS/cgroup.procs" 2>/dev/null); do kill "$p"; done
	drop_caches
	sh -c 'sleep 0; cat /dev/null; dd if=/dev/null of=/dev/null 2>/dev/null' </dev/null
	"$BOOTPROF_FAST" -h >/dev/null 2>&1
}
t3_record_whole "$TEST_DIR/cold.dat" sh "$TEST_DIR/run.sh"
"$BOOTPROF" critical -f json "$TEST_DIR/cold.dat" >"$TEST_DIR/cold.json" ||
	{ not_ok 'bootprof critical -f json'; exit 0; }
# io_ns JSON PATH: the path's I/O on PATH (0: none)
io_ns() { jq --arg f "$2" '[.files[] | select(.path == $f) | .io_ns] | add // 0' "$1"; }
pred=$(io_ns "$TEST_DIR/cold.json" "$PL")
echo "# the path's I/O on planted.bin: $pred ns; on decoy.bin: $(io_ns "$TEST_DIR/cold.json" "$D/decoy.bin") ns"
expect 'the premise: the end waited on planted.bin (over 200 ms), never on decoy.bin' \
	"[ '$pred' -gt 200000000 ] && [ \"\$(io_ns '$TEST_DIR/cold.json' '$D/decoy.bin')\" = 0 ]"

# The order of a pack: its files' paths, one a line, in pack order.
files_of() { awk '$1 == "file" { print $NF }' "$1"; }
# line_of PACK PATH: the number of PATH's first file line (none: 0)
line_of() { files_of "$1" | awk -v f="$2" '$0 == f && !n { n = NR } END { print n + 0 }'; }
"$BOOTPROF" readahead -o "$TEST_DIR/first.pack" "$TEST_DIR/cold.dat" >/dev/null
echo "# first-use order: $(files_of "$TEST_DIR/first.pack" | tr '\n' ' ')"
[ "$premise" = 1 ] || skip 'the premise: decoy.bin first in the default order' 'no copy of planted.bin after decoy.bin on the disk'
[ "$premise" = 0 ] || expect 'the premise: in the default order decoy.bin comes first (first used, or physically first)' \
	"[ \"\$(line_of '$TEST_DIR/first.pack' '$D/decoy.bin')\" -gt 0 ] &&
	 [ \"\$(line_of '$TEST_DIR/first.pack' '$D/decoy.bin')\" -lt \"\$(line_of '$TEST_DIR/first.pack' '$PL')\" ]"

P=$TEST_DIR/crit.pack
expect 'readahead --order critical writes a pack' \
	"'$BOOTPROF' readahead --order critical -o '$P' '$TEST_DIR/cold.dat' >/dev/null"
echo "# critical order: $(files_of "$P" | tr '\n' ' ')"
lp=$(line_of "$P" "$PL") ld=$(line_of "$P" "$D/decoy.bin")
expect "planted.bin's ranges come before decoy.bin's (lines $lp, $ld)" \
	"[ '${lp:-0}' -gt 0 ] && [ '${ld:-0}' -gt '${lp:-0}' ]"
"$BOOTPROF" readahead --explain "$P" >"$TEST_DIR/explain.txt"
el=$(awk -v f="$PL" '$NF == f && $1 ~ /^[0-9]+$/ { print $1; exit }' "$TEST_DIR/explain.txt")
ed=$(awk -v f="$D/decoy.bin" '$NF == f && $1 ~ /^[0-9]+$/ { print $1; exit }' "$TEST_DIR/explain.txt")
expect "--explain lists them in that order (entries $el, $ed)" \
	"[ '${el:-0}' -gt 0 ] && [ '${ed:-0}' -gt '${el:-0}' ]"

# Independently: the files of the path's I/O segments, in time order,
# runs of one file counted once, only those the pack holds, are the
# pack's leading entries.
jq -r '.segments[] | select(.state == "io" and .file != null) | .file.path' "$TEST_DIR/cold.json" |
	uniq >"$TEST_DIR/path-files"
files_of "$P" | sort -u >"$TEST_DIR/pack-files"
awk 'NR == FNR { in_pack[$0] = 1; next } in_pack[$0]' "$TEST_DIR/pack-files" "$TEST_DIR/path-files" |
	uniq >"$TEST_DIR/want"
n=$(awk '$1 == "critical" { print $2 }' "$P")
files_of "$P" | head -n "${n:-0}" >"$TEST_DIR/got"
echo "# the path's files in the pack: $(tr '\n' ' ' <"$TEST_DIR/want"); its first ${n:-?} entries: $(tr '\n' ' ' <"$TEST_DIR/got")"
expect "the pack's leading entries are the path's files in path order (critical -f json)" \
	"[ -s '$TEST_DIR/want' ] && cmp -s '$TEST_DIR/want' '$TEST_DIR/got'"

# Of planted.bin, the pages the command waited on lead; the decoy's half
# follows in an entry of its own. pages PACK PATH: "ENTRY PAGE" per page
# of each of PATH's entries (ENTRY: its file line's number in the pack).
pages() {
	awk -v f="$2" '$1 == "file" { k++ } $1 == "file" && $NF == f {
		m = split($9, r, ",")
		for (i = 1; i <= m; i++) { split(r[i], a, "+"); for (p = a[1]; p < a[1] + a[2]; p++) print k, p }
	}' "$1"
}
pages "$P" "$PL" >"$TEST_DIR/planted-crit"
pages "$TEST_DIR/first.pack" "$PL" | cut -d' ' -f2 | sort -n >"$TEST_DIR/planted-first"
cut -d' ' -f1 "$TEST_DIR/planted-crit" | uniq -c | sed 's/^/# planted.bin entry: pages, line: /'
first=$(head -n 1 "$TEST_DIR/planted-crit" | cut -d' ' -f1)
last=$(tail -n 1 "$TEST_DIR/planted-crit" | cut -d' ' -f1)
expect "planted.bin: its first entry among the path's ($first of ${n:-?}), holding page 0; another after them ($last), holding its last page" \
	"[ '${first:-0}' -ge 1 ] && [ '${first:-0}' -le '${n:-0}' ] && [ '${last:-0}' -gt '${n:-0}' ] &&
	 grep -qx '$first 0' '$TEST_DIR/planted-crit' && grep -qx '$last 1023' '$TEST_DIR/planted-crit'"
expect "planted.bin's entries hold the pages of the default order, none twice" \
	"cut -d' ' -f2 '$TEST_DIR/planted-crit' | sort -n | cmp -s - '$TEST_DIR/planted-first'"

# The prediction per file: the what-if of critical -f json, exactly.
maj_min=$(stat -c '%Hd:%Ld' "$PL") ino=$(stat -c %i "$PL")
wi=$(awk -v d="$maj_min" -v i="$ino" '$1 == "what-if" && $2 == d && $3 == i { print $4 }' "$P")
expect "the pack's what-if of planted.bin is critical's ($wi vs $pred ns)" "[ '${wi:-x}' = '$pred' ]"
ms() { awk -v n="$1" 'BEGIN { s = ""; if (n < 0) { s = "-"; n = -n } printf "%s%d.%03d", s, n / 1000000, (n / 1000) % 1000 }'; }
shown=$(sed -n '/^critical path/,$p' "$TEST_DIR/explain.txt" | awk -v f="$PL" '$NF == f && NF == 3 { print $1 }')
expect "--explain predicts $(ms "$pred") ms for planted.bin (shows ${shown:-nothing})" \
	"[ '${shown:-x}' = '$(ms "$pred")' ]"
# Every file of the path that the pack holds: its row, with critical's what-if.
jq -r '.files[] | select(.path != null) | "\(.path) \(.io_ns)"' "$TEST_DIR/cold.json" |
	while read -r f v; do
		grep -qxF "$f" "$TEST_DIR/pack-files" || continue
		line=$(sed -n '/^critical path/,$p' "$TEST_DIR/explain.txt" | awk -v f="$f" '$NF == f && NF == 3')
		[ "$(echo "$line" | awk '{ print $1 }')" = "$(ms "$v")" ] && echo "ok $f" ||
			echo "mismatch $f: '$line', critical says $v ns"
	done >"$TEST_DIR/rows"
sed 's/^/# /' "$TEST_DIR/rows"
expect 'every file of the path in the pack has its row in --explain, with the what-if of critical -f json' \
	"grep -q '^ok ' '$TEST_DIR/rows' && ! grep -q '^mismatch' '$TEST_DIR/rows'"

# Capped at the bytes of the path's pages: they keep their place.
PAGE=$(getconf PAGESIZE)
pb=$(awk -v n="${n:-0}" -v ps="$PAGE" '$1 == "file" && ++k <= n {
	m = split($9, r, ","); for (i = 1; i <= m; i++) { split(r[i], a, "+"); s += a[2] } }
	END { print s * ps }' "$P")
"$BOOTPROF" readahead --order critical --max-bytes "$pb" -o "$TEST_DIR/cap.pack" "$TEST_DIR/cold.dat" >/dev/null
"$BOOTPROF" readahead --max-bytes "$pb" -o "$TEST_DIR/cap-first.pack" "$TEST_DIR/cold.dat" >/dev/null
echo "# capped at $pb bytes: critical order $(files_of "$TEST_DIR/cap.pack" | tr '\n' ' '); first-use order $(files_of "$TEST_DIR/cap-first.pack" | tr '\n' ' ')"
expect "capped at the path's bytes, the critical-order pack holds the path's entries, planted.bin's among them, and no decoy.bin" \
	"files_of '$TEST_DIR/cap.pack' | cmp -s - '$TEST_DIR/got' &&
	 [ \"\$(line_of '$TEST_DIR/cap.pack' '$PL')\" -gt 0 ] && [ \"\$(line_of '$TEST_DIR/cap.pack' '$D/decoy.bin')\" = 0 ]"

# Replayed: the same command in a recording with the replay in it (the
# preloader in the tree, done before the command's part starts).
cat >"$TEST_DIR/replayed.sh" <<EOF
'$BOOTPROF_FAST' replay --wait '$TEST_DIR/cap.pack' >/dev/null
sh '$TEST_DIR/run.sh'
EOF
t3_record_whole "$TEST_DIR/replayed.dat" sh "$TEST_DIR/replayed.sh"
"$BOOTPROF" critical -f json "$TEST_DIR/replayed.dat" >"$TEST_DIR/replayed.json"
left=$(io_ns "$TEST_DIR/replayed.json" "$PL")
echo "# the path's I/O on planted.bin: cold $pred ns, after the replay $left ns"
expect "after the replay the path's I/O on planted.bin fell below a fifth ($left vs $pred ns)" \
	"[ \$(( ${left:-$pred} * 5 )) -lt '$pred' ]"
"$BOOTPROF" readahead --explain "$TEST_DIR/cap.pack" "$TEST_DIR/replayed.dat" >"$TEST_DIR/measured.txt" 2>&1
sed -n '/^critical path/,$p' "$TEST_DIR/measured.txt" | sed 's/^/# /'
row=$(sed -n '/^critical path/,$p' "$TEST_DIR/measured.txt" | awk -v f="$PL" '$NF == f && NF == 6')
expect "--explain with the replayed recording: left $(ms "$left") ms, measured $(ms $((pred - left))) ms" \
	"[ \"\$(echo '$row' | awk '{ print \$1, \$3, \$5 }')\" = '$(ms "$pred") $(ms "$left") $(ms $((pred - left)))' ]"
expect '--explain refuses to measure against a recording with no replay in it' \
	"! '$BOOTPROF' readahead --explain '$TEST_DIR/cap.pack' '$TEST_DIR/cold.dat' 2>'$TEST_DIR/err' >/dev/null &&
	 [ \"\$(wc -l <'$TEST_DIR/err')\" = 1 ] && grep -q 'no replay in it' '$TEST_DIR/err'"

# A pack to a pid's exit: that pid is the cold run's, not the replayed one's.
cpid=$(jq '.end.pid' "$TEST_DIR/cold.json")
"$BOOTPROF" readahead --order critical --to "pid:$cpid" -o "$TEST_DIR/pid.pack" "$TEST_DIR/cold.dat" >/dev/null
expect "a pack to pid:$cpid has the same what-if of planted.bin" \
	"grep -qx 'what-if $maj_min $ino $pred [0-9]*' '$TEST_DIR/pid.pack'"
"$BOOTPROF" readahead --explain "$TEST_DIR/pid.pack" "$TEST_DIR/replayed.dat" >/dev/null 2>"$TEST_DIR/err"
rc=$?
echo "# $(cat "$TEST_DIR/err")"
expect "measuring it in another recording is refused without --to: one line, status 1 (got $rc)" \
	"[ '$rc' = 1 ] && [ \"\$(wc -l <'$TEST_DIR/err')\" = 1 ] && grep -q 'name the end' '$TEST_DIR/err'"

# Refusals, in critical's words.
tracing_snapshot
"$BOOTPROF_FAST" record -o "$TEST_DIR/duration.dat" --duration 0.5 >/dev/null 2>&1 &
pid=$!
wait "$pid"
expect_tracing_clean 'record --duration' "$pid"
"$BOOTPROF" critical "$TEST_DIR/duration.dat" >/dev/null 2>"$TEST_DIR/crit-err"
"$BOOTPROF" readahead --order critical -o "$TEST_DIR/d.pack" "$TEST_DIR/duration.dat" >/dev/null 2>"$TEST_DIR/ra-err"
rc=$?
echo "# critical: $(cat "$TEST_DIR/crit-err")"
expect "a recording stopped by its duration: readahead --order critical refuses as critical does (status $rc)" \
	"[ '$rc' = 1 ] && [ \"\$(wc -l <'$TEST_DIR/ra-err')\" = 1 ] && cmp -s '$TEST_DIR/crit-err' '$TEST_DIR/ra-err' && [ ! -e '$TEST_DIR/d.pack' ]"
"$BOOTPROF" readahead --order critical --to bogus -o "$TEST_DIR/b.pack" "$TEST_DIR/cold.dat" >/dev/null 2>"$TEST_DIR/err"
rc=$?
"$BOOTPROF" critical --to bogus "$TEST_DIR/cold.dat" >/dev/null 2>"$TEST_DIR/crit-err"
echo "# $(head -n 1 "$TEST_DIR/err")"
expect "a bad --to: critical's one line naming the grammar, the usage hint, status 2 (got $rc)" \
	"[ '$rc' = 2 ] && [ \"\$(head -n 1 '$TEST_DIR/err')\" = \"\$(head -n 1 '$TEST_DIR/crit-err')\" ] &&
	 grep -q \"invalid end 'bogus' (pid:N, exec:PROG\" '$TEST_DIR/err' &&
	 sed 1d '$TEST_DIR/err' | grep -qx \"Try 'bootprof readahead -h' for more information.\" && [ ! -e '$TEST_DIR/b.pack' ]"
"$BOOTPROF" readahead --order critical --to exec:no-such-program -o "$TEST_DIR/b.pack" "$TEST_DIR/cold.dat" >/dev/null 2>"$TEST_DIR/err"
rc=$?
echo "# $(cat "$TEST_DIR/err")"
expect "an end the recording does not have: one line, status 1 (got $rc), no pack" \
	"[ '$rc' = 1 ] && [ \"\$(wc -l <'$TEST_DIR/err')\" = 1 ] && [ ! -e '$TEST_DIR/b.pack' ]"
