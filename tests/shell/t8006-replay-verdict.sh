#!/bin/sh
# The verdict on a replayed workload, live, cold cache, under a read
# throttle (cgroup v1 blkio), each verdict planted with a known answer.
# Packs (written by hand) hold files A, C, E (one) and B (another). In
# one recording: replay --wait of A, C, E; E dropped from the cache (dd
# iflag=nocache: POSIX_FADV_DONTNEED); dd reads three 64 KiB pieces of B
# (a read at an offset other than 0 in a newly opened file reads only
# what it asks for: no readahead window); the second preloader asks for
# B without --wait and cat reads it at once (the race); then the workload
# reads A, D (in no pack) and E; it never reads C. So:
#   A hit, C wasted, D miss, E read again (each its size in pages:
#   the truth from the file sizes), B overtaken (dd's 48 pages, which the
#   preloader's request found cached) + late (the pages cat then waited
#   for) + hit (the ones the throttle let through before cat got there).
# Every number is also computed from the raw events of `dump` with awk
# (who inserted each page first, what deleted or used it), and the views
# agree: readahead --preloaded, JSON, CSV, text, the chart's preloader
# lane, per file and in total. Last, an inference planted where it is
# wrong: a page fault-around mapped counts as used (hit), though the
# workload touched one page of the file.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
[ "$(uname -m)" = x86_64 ] || skip_all "the syscall number below (read: 0) is x86_64's"
command -v jq >/dev/null || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 2000000

D=$TEST_DIR/data
mkdir -p "$D"
head -c 250000 /dev/urandom >"$D/A"
head -c 4195304 /dev/urandom >"$D/B"
head -c 100000 /dev/urandom >"$D/C"
head -c 150000 /dev/urandom >"$D/D"
head -c 200000 /dev/urandom >"$D/E"
sync
# pages PATH: the file's size in pages
pages() { echo $((($(stat -c %s "$1") + 4095) / 4096)); }
ident() { stat -c '%Hd:%Ld %i %s %.9Y %.9Z' "$1"; }
pack() {
	printf 'bootprof-pack 1\npage-size 4096\norder first-use\n'
	for f in "$@"; do
		echo "file $(ident "$D/$f") 1.000000000 0 0+$(pages "$D/$f") $D/$f"
	done
}
pack A C E >"$TEST_DIR/ace.pack"
pack B >"$TEST_DIR/b.pack"

cat >"$TEST_DIR/work.sh" <<EOT
echo \$\$ >$CG/cgroup.procs
'$BOOTPROF_FAST' replay --wait '$TEST_DIR/ace.pack' >/dev/null
dd if='$D/E' iflag=nocache count=0 2>/dev/null
for k in 4 20 40; do dd if='$D/B' of=/dev/null bs=65536 count=1 skip=\$k 2>/dev/null; done
'$BOOTPROF_FAST' replay '$TEST_DIR/b.pack' >/dev/null
cat '$D/B' >/dev/null
cat '$D/A' '$D/D' '$D/E' >/dev/null
EOT
inos=$(for f in A B C D; do printf 'ino %x |' $(stat -c %i "$D/$f"); done)
for attempt in 1 2 3; do
	drop_caches
	# The tools the workload runs come from the cache: only its data is
	# cold, and the second preloader starts at once.
	for t in "$BOOTPROF_FAST" "$(command -v cat)" "$(command -v dd)"; do
		cat "$t" >/dev/null
	done
	"$BOOTPROF_FAST" replay --help >/dev/null 2>&1
	dd if=/dev/null of=/dev/null 2>/dev/null
	rm -f "$TEST_DIR/rec.dat"
	t3_record "$TEST_DIR/rec.dat" sh "$TEST_DIR/work.sh" || { not_ok "record the replayed workload"; exit 0; }
	# Only E is evicted on purpose: another drop_caches on this machine
	# would plant read-again pages where none belong.
	gone=$("$BOOTPROF" dump --events filemap:mm_filemap_delete_from_page_cache "$TEST_DIR/rec.dat" |
		grep -cE " (${inos%|})" || true)
	[ "$gone" = 0 ] && break
	echo "# attempt $attempt: $gone pages of A, B, C or D evicted by someone else"
	[ $attempt = 3 ] && skip_all "pages evicted by another process in every recording (a busy machine)"
done

R=$TEST_DIR/preloaded.txt
"$BOOTPROF" readahead --preloaded "$TEST_DIR/rec.dat" >"$R"
grep -F -e "$D/" -e ' total' "$R" | sed 's/^/# /'
# col FILE NAME: bytes of verdict NAME of FILE (a path, or total) in readahead --preloaded
col() {
	awk -v p="$1" -v n="$2" 'NR > 1 && $NF == "path" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		c[n] && $NF == p { print $c[n]; exit }' "$R"
}
for f in A B C D E; do
	eval "b_$f=\$((\$(pages '$D/$f') * 4096))"
done
expect "A: every byte a hit ($b_A), nothing else" \
	"[ '$(col "$D/A" hit)' = $b_A ] && [ '$(col "$D/A" preloaded)' = $b_A ] &&
	 [ '$(col "$D/A" late) $(col "$D/A" overtaken) $(col "$D/A" miss) $(col "$D/A" wasted) $(col "$D/A" read_again)' = '0 0 0 0 0' ]"
expect "C: preloaded, never used: every byte wasted ($b_C)" \
	"[ '$(col "$D/C" wasted)' = $b_C ] && [ '$(col "$D/C" preloaded)' = $b_C ] && [ '$(col "$D/C" hit)' = 0 ]"
expect "D: in no pack, read by the workload: every byte a miss ($b_D)" \
	"[ '$(col "$D/D" miss)' = $b_D ] && [ '$(col "$D/D" preloaded)' = 0 ] && [ '$(col "$D/D" overtaken)' = 0 ]"
expect "E: preloaded, evicted, read again: every byte read again ($b_E)" \
	"[ '$(col "$D/E" read_again)' = $b_E ] && [ '$(col "$D/E" hit)' = 0 ] && [ '$(col "$D/E" wasted)' = 0 ]"
bh=$(col "$D/B" hit) bl=$(col "$D/B" late) bo=$(col "$D/B" overtaken)
echo "# B: hit $bh, late $bl, overtaken $bo of $b_B; late waits $(col "$D/B" late_waits), $(col "$D/B" late_wait_ns) ns"
expect "B, raced: dd's 48 pages overtaken, late planted, and with hit they make its size ($b_B)" \
	"[ '${bo:-0}' = $((48 * 4096)) ] && [ '${bl:-0}' -gt 0 ] && [ \$((${bh:-0} + ${bl:-0} + ${bo:-0})) = $b_B ] &&
	 [ '$(col "$D/B" late_waits)' -gt 0 ] && [ '$(col "$D/B" miss)' = 0 ] && [ '$(col "$D/B" wasted)' = 0 ]"
expect "each file's pack range carries its verdict (one range, the file's)" \
	"[ \"\$(awk -v r='0+$(pages "$D/B")' '\$NF == r { print \$1, \$2, \$3, \$4 }' '$R')\" = '$((bh + bl)) $bh $bl $bo' ]"

# The same from dump: per page, who inserted it first (the preloader: a
# thread that wrote a "bootprof-replay" marker, never named by comm,
# which dump may not know), whether it was deleted after the preloader's
# insertion and before any use, then inserted again by the workload;
# whether the workload used it (get_pages, fault, map_pages) while the
# preloader's copy was there. A read(2) that returned more pages than its
# get_pages events span got the ones before the first they name too (the
# kernel leaves the event out for a batch whose last page was not up to
# date yet): cat reads all of B, so without that rule some of B's pages
# would count as wasted.
"$BOOTPROF" dump "$TEST_DIR/rec.dat" | awk -v inos="$(for f in A B C D E; do printf '%x=%s ' $(stat -c %i "$D/$f") $f; done)" '
BEGIN { nf = split(inos, a, " "); for (i = 1; i <= nf; i++) { split(a[i], kv, "="); name[kv[1]] = kv[2] } }
function val(k,   i) { for (i = 5; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
/ print: .*bootprof-replay (request|resident) / { pre_tid[$3] = 1; next }
/ mm_filemap_add_to_page_cache: | mm_filemap_delete_from_page_cache: / {
	for (i = 5; i < NF; i++) if ($i == "ino") break
	f = name[$(i + 1)]; if (f == "") next
	o = val("ofs") / 4096; n = 2 ^ val("order"); pre = pre_tid[$3]
	for (k = 0; k < n; k++) {
		p = f " " (o + k)
		if ($0 ~ /delete_from/) { if (st[p] == "P") st[p] = "E"; continue }
		if (!(p in st)) st[p] = pre ? "P" : "W"
		else if (st[p] == "E") st[p] = pre ? "P" : "R"
	}
	next
}
function use(f, first, last,   q) { for (q = first; q <= last; q++) if (st[f " " q] == "P") st[f " " q] = "U" }
/ sys_enter: NR 0 / { inread[$3] = 1; rf[$3] = ""; next }
/ sys_exit: NR 0 = / {
	if (inread[$3] && rf[$3] != "" && $NF > 0) {
		head = int(($NF + 4095) / 4096) - (rhi[$3] - rlo[$3] + 1)
		if (head > 0) { use(rf[$3], rlo[$3] - head, rlo[$3] - 1); nohead += head }
	}
	inread[$3] = 0; next
}
/ mm_filemap_(get_pages|fault|map_pages): / && !pre_tid[$3] {
	f = name[val("ino")]; if (f == "") next
	split(val("ofs"), rg, "-"); first = int(rg[1] / 4096); last = rg[2] == "" ? first : int(rg[2] / 4096)
	use(f, first, last)
	if (inread[$3] && $0 ~ / mm_filemap_get_pages: /) {
		if (rf[$3] == "") { rf[$3] = f; rlo[$3] = first; rhi[$3] = last }
		if (first < rlo[$3]) rlo[$3] = first
		if (last > rhi[$3]) rhi[$3] = last
	}
}
END {
	for (p in st) { split(p, x, " "); c[x[1] " " st[p]]++ }
	for (i = 1; i <= nf; i++) { split(a[i], kv, "="); f = kv[2]
		printf "%s %d %d %d %d\n", f, c[f " U"] * 4096, c[f " W"] * 4096, c[f " E"] * 4096 + c[f " P"] * 4096, c[f " R"] * 4096 }
	print "# pages reads returned without a get_pages event naming them: " nohead + 0 >"/dev/stderr"
}' 2>"$TEST_DIR/raw.note" | sort >"$TEST_DIR/raw"
cat "$TEST_DIR/raw.note"
sed 's/^/# from dump (used, workload first, wasted, read again): /' "$TEST_DIR/raw"
# num FILE NAME: col, or -1 when the file has no row (the diff then fails)
num() { v=$(col "$1" "$2"); echo "${v:--1}"; }
for f in A B C D E; do
	p=$D/$f
	echo "$f $(($(num "$p" hit) + $(num "$p" late))) $(($(num "$p" overtaken) + $(num "$p" miss))) $(num "$p" wasted) $(num "$p" read_again)"
done >"$TEST_DIR/verdict"
expect 'cat read every page of B: none of it wasted' "[ '$(col "$D/B" wasted)' = 0 ]"
expect 'per file, hit + late, overtaken + miss, wasted, read again: as summed from dump' \
	"diff '$TEST_DIR/raw' '$TEST_DIR/verdict' >&2"

# The views: one computation, one name per field.
"$BOOTPROF" report --format json "$TEST_DIR/rec.dat" >"$TEST_DIR/rec.json"
for n in preloaded hit late overtaken miss wasted read_again; do
	expect "JSON ${n}_bytes and ${n}_pages: readahead --preloaded's, per file and in total" \
		"[ \"\$(jq -r --arg p '$D/' '.preloaded | (.files[] | select(.path | startswith(\$p))), .total |
			\"\(.${n}_bytes) \(.${n}_pages * 4096) \(.path // \"total\")\"' '$TEST_DIR/rec.json' | sort)\" = \
		   \"\$(for f in '$D/A' '$D/B' '$D/C' '$D/D' '$D/E' total; do v=\$(col \$f $n); echo \"\$v \$v \$f\"; done | sort)\" ]"
done
expect 'JSON: the late waits of the total are readahead --preloaded'"'"'s' \
	"jq -e '.preloaded.total | .late_waits == $(col total late_waits) and .late_wait_ns == $(col total late_wait_ns)' '$TEST_DIR/rec.json' >/dev/null"
expect 'JSON: B has one range, 0+pages, with its verdict' \
	"jq -e --arg p '$D/B' '.preloaded.files[] | select(.path == \$p) | .ranges | length == 1 and .[0].first_page == 0 and
		.[0].pages == $(pages "$D/B") and .[0].overtaken_bytes == $bo and .[0].late_bytes == $bl' '$TEST_DIR/rec.json' >/dev/null"
t3_csv "$TEST_DIR/rec.dat" preloaded >"$TEST_DIR/rec.csv"
# The whole machine is recorded: another process's path may hold a comma
# (quoted in CSV), so the rows compared are the planted files' and ranges'.
FIELDS='preloaded_bytes, .preloaded_pages, .hit_bytes, .hit_pages, .late_bytes, .late_pages, .overtaken_bytes, .overtaken_pages, .miss_bytes, .miss_pages, .wasted_bytes, .wasted_pages, .read_again_bytes, .read_again_pages, .late_waits, .late_wait_ns'
expect 'CSV: the planted files'"'"' rows and their ranges'"'"' are JSON'"'"'s, verdict by verdict' \
	"[ \"\$(awk -F, -v d='$D/' 'index(\$1, d) == 1 { \$1 = \$1; print }' OFS=' ' '$TEST_DIR/rec.csv' | sort)\" = \
	   \"\$(jq -r --arg d '$D/' '.preloaded.files[] | select(.path | startswith(\$d)) |
		([.path, \"\", \"\", .$FIELDS] | map(tostring) | join(\" \")),
		(.path as \$p | .ranges[] | [\$p, .first_page, .pages, .$FIELDS] | map(tostring) | join(\" \"))' '$TEST_DIR/rec.json' | sort)\" ]"
expect 'CSV: the header names each verdict as JSON does' \
	"head -n 1 '$TEST_DIR/rec.csv' | grep -qx 'path,first_page,pages,preloaded_bytes,preloaded_pages,hit_bytes,hit_pages,late_bytes,late_pages,overtaken_bytes,overtaken_pages,miss_bytes,miss_pages,wasted_bytes,wasted_pages,read_again_bytes,read_again_pages,late_waits,late_wait_ns'"
"$BOOTPROF" report --width 220 --top 0 "$TEST_DIR/rec.dat" >"$TEST_DIR/rec.txt"
expect 'report: the Preloaded section heads its columns with the verdicts' \
	"grep -Eq '^ *PRELOADED +HIT +LATE +OVERTAKEN +MISS +WASTED +READ AGAIN +LATE WAITS +LATE WAIT +PATH' '$TEST_DIR/rec.txt'"
expect 'report: C is wasted whole, D a miss whole' \
	"grep -Eq '^ +[0-9.]+ KiB +0 B +0 B +0 B +0 B +[0-9.]+ KiB +0 B +0 +0 ms +$D/C\$' '$TEST_DIR/rec.txt' &&
	 grep -Eq '^ +0 B +0 B +0 B +0 B +[0-9.]+ KiB +0 B +0 B +0 +0 ms +$D/D\$' '$TEST_DIR/rec.txt'"
"$BOOTPROF" report --verbose --width 220 --top 0 "$TEST_DIR/rec.dat" | grep -A1 " $D/B\$" >"$TEST_DIR/b-verbose.txt"
expect 'report --verbose: under B its range, with its hit, late and overtaken (192 KiB: dd'"'"'s 48 pages)' \
	"grep -q '^ *ranges 0+$(pages "$D/B"): hit [0-9.]* [KM]iB, late [0-9.]* [KM]iB, overtaken 192 KiB\$' '$TEST_DIR/b-verbose.txt'"

# The chart: a lane for the preloader, its bytes the verdict's preloaded
# ones, a mark per late wait, and both in the legend.
"$BOOTPROF" chart "$TEST_DIR/rec.dat" -o "$TEST_DIR/rec.svg" 2>/dev/null
expect "chart: a preloader lane with the preloaded bytes ($(col total preloaded))" \
	"grep -q '>preloader</text>' '$TEST_DIR/rec.svg' &&
	 grep -q '<title>bootprof-replay: $(col total preloaded) bytes preloaded ' '$TEST_DIR/rec.svg'"
expect "chart: one mark per late wait ($(col total late_waits)) on it, and a legend entry for them" \
	"[ \$(grep -o '<title>late wait: ' '$TEST_DIR/rec.svg' | wc -l) = '$(col total late_waits)' ] &&
	 grep -q '>late wait (on a page still being preloaded)</text>' '$TEST_DIR/rec.svg' &&
	 grep -q '>preloader reads</text>' '$TEST_DIR/rec.svg'"

# An inference planted where it is wrong: a page fault-around mapped
# counts as used. A preloaded file of 64 pages is mapped and one byte of
# its first page touched (t3-mmap says how many pages it touched: 1).
# The kernel maps the fault's neighbours too (mm_filemap_map_pages): they
# count hit, as many as the fault and map_pages events of dump name,
# though never touched. Recorded with --exact-mmap (fault-around off) the
# verdict is the truth: one page hit, 63 wasted.
t3_helper t3-mmap
head -c 262144 /dev/urandom >"$D/F"
sync
pack F >"$TEST_DIR/f.pack"
for exact in "" --exact-mmap; do
	drop_caches
	"$BOOTPROF_FAST" replay --help >/dev/null 2>&1
	rm -f "$TEST_DIR/f.dat"
	"$BOOTPROF_FAST" record $exact -o "$TEST_DIR/f.dat" -- sh -c \
		"'$BOOTPROF_FAST' replay --wait '$TEST_DIR/f.pack' >/dev/null && '$TEST_DIR/t3-mmap' '$D/F' 262144 >'$TEST_DIR/touched'" \
		2>"$TEST_DIR/.record-err" || {
		if [ -n "$exact" ] && grep -q -- '--exact-mmap: ' "$TEST_DIR/.record-err"; then
			skip "--exact-mmap: the truth" "$(cat "$TEST_DIR/.record-err")"
		else
			cat "$TEST_DIR/.record-err" >&2
			not_ok "record the mapped file ${exact:-with fault-around}"
		fi
		continue
	}
	touched=$(cut -d' ' -f1 "$TEST_DIR/touched")
	R=$TEST_DIR/f.txt
	"$BOOTPROF" readahead --preloaded "$TEST_DIR/f.dat" >"$R"
	mapped=$("$BOOTPROF" dump "$TEST_DIR/f.dat" | awk -v ino="$(printf '%x' $(stat -c %i "$D/F"))" '
		function val(k,   i) { for (i = 5; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
		/ mm_filemap_(fault|map_pages): / && val("ino") == ino {
			split(val("ofs"), rg, "-"); a = int(rg[1] / 4096); b = rg[2] == "" ? a : int(rg[2] / 4096)
			for (q = a; q <= b; q++) seen[q] = 1
		}
		END { for (q in seen) n++; print n * 4096 }')
	echo "# ${exact:-fault-around on}: touched $touched page(s); hit $(col "$D/F" hit), wasted $(col "$D/F" wasted); fault and map_pages events name $mapped bytes"
	if [ -z "$exact" ]; then
		expect "fault-around on: the mapped neighbours count hit ($mapped bytes, more than the $touched page touched), the rest wasted" \
			"[ '$(col "$D/F" hit)' = '$mapped' ] && [ '$mapped' -gt \$(($touched * 4096)) ] &&
			 [ \$(($(num "$D/F" hit) + $(num "$D/F" wasted))) = 262144 ]"
	else
		expect "--exact-mmap: the truth, the one page touched is the hit, 63 wasted" \
			"[ '$touched' = 1 ] && [ '$(col "$D/F" hit)' = 4096 ] && [ '$(col "$D/F" wasted)' = $((63 * 4096)) ]"
	fi
done

# One read, one page up to date and one in flight: the preloader makes
# page 0 of G resident (--wait: its marker says so), then asks for the
# rest without waiting, and dd at once reads pages 0 and 1 in one read.
# It waits for page 1 only: page 0 is a hit, page 1 late, one late wait.
# (The kernel returns page 0 without an mm_filemap_get_pages event and
# names page 1 alone after the wait; page 0 comes from the read's return
# value. Had an event named both, page 0's resident marker, between its
# insertion and the wait, would keep it from counting late.)
head -c 262144 /dev/urandom >"$D/G"
sync
printf 'bootprof-pack 1\npage-size 4096\norder first-use\nfile %s 1.000000000 0 0+1 %s\n' \
	"$(ident "$D/G")" "$D/G" >"$TEST_DIR/g0.pack"
printf 'bootprof-pack 1\npage-size 4096\norder first-use\nfile %s 1.000000000 0 1+63 %s\n' \
	"$(ident "$D/G")" "$D/G" >"$TEST_DIR/g1.pack"
cat >"$TEST_DIR/work-g.sh" <<EOT
echo \$\$ >$CG/cgroup.procs
'$BOOTPROF_FAST' replay --wait '$TEST_DIR/g0.pack' >/dev/null
'$BOOTPROF_FAST' replay '$TEST_DIR/g1.pack' >/dev/null
dd if='$D/G' of=/dev/null bs=8192 count=1 2>/dev/null
EOT
drop_caches
"$BOOTPROF_FAST" replay --help >/dev/null 2>&1
dd if=/dev/null of=/dev/null 2>/dev/null
t3_record "$TEST_DIR/g.dat" sh "$TEST_DIR/work-g.sh" || { not_ok "record the two-page read"; exit 0; }
R=$TEST_DIR/g.txt
"$BOOTPROF" readahead --preloaded "$TEST_DIR/g.dat" >"$R"
grep -F -e "$D/G" "$R" | sed 's/^/# /'
gino=$(stat -c %i "$D/G")
expect "G: page 0's resident marker came before dd's wait, page 1 was inserted by the preloader before it" \
	"'$BOOTPROF' dump '$TEST_DIR/g.dat' | awk -v m='resident $(stat -c '%Hd:%Ld' "$D/G") $gino 0+1' -v ino=\$(printf '%x' $gino) '
		function ns(t,   f) { split(t, f, \".\"); return f[1] * 1000000000 + substr(f[2] \"000000\", 1, 6) * 1000 }
		/ print: / && index(\$0, m) { mark = ns(\$1) }
		/ mm_filemap_add_to_page_cache: / && \$9 == ino && index(\$0, \" ofs=4096 \") { ins1 = ns(\$1) }
		/ dd sched_switch: / && / prev_state=D / && !wait { wait = ns(\$1) }
		END { exit !(mark && ins1 && wait && mark < wait && ins1 < wait) }'"
expect "G: page 0 a hit, page 1 late (one wait), the other 62 pages wasted" \
	"[ '$(col "$D/G" hit) $(col "$D/G" late) $(col "$D/G" wasted) $(col "$D/G" late_waits)' = '4096 4096 $((62 * 4096)) 1' ]"
