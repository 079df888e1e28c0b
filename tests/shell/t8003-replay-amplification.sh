#!/bin/sh
# Replay reads no more than the cold run did. A workload maps a library
# larger than one readahead(2) request may be (max(read_ahead_kb,
# max_sectors_kb) of its disk: the kernel reads that much of a request and
# drops the rest) and touches every page, then reads small modules, like an
# import. Its pack, replayed with --wait into a cold cache: the library is
# resident whole (fincore), the workload reads none of the packed pages
# itself, and preloader + workload read at most 5 % more bytes of the
# workload's files than the cold run (bytes read per file and reader by
# report; the cold run's against the files' sizes).
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v fincore >/dev/null || skip_all "fincore (util-linux) not installed"
t3_helper t3-mmap
dev=$(t3_disk) || skip_all "$TEST_DIR is not on a block device"
q=/sys/dev/block/$dev/queue
cap=$(cat "$q/read_ahead_kb" "$q/max_sectors_kb" 2>/dev/null | sort -n | tail -n 1)
[ -n "$cap" ] || skip_all "no queue limits for $dev"

D=$TEST_DIR/data
mkdir -p "$D"
size=$(((2 * cap + 300) * 1024))
head -c "$size" /dev/urandom >"$D/lib"
i=0
while [ $i -lt 60 ]; do
	head -c $((3000 + (i * 7919) % 40000)) /dev/urandom >"$D/m$i"
	i=$((i + 1))
done
head -c 4194304 /dev/urandom >"$D/sparse"
cat >"$TEST_DIR/work.sh" <<EOT
"$TEST_DIR/t3-mmap" "$D/lib" 4096 >/dev/null
cat $D/m* >/dev/null
dd if=$D/sparse of=/dev/null bs=65536 count=1 2>/dev/null
dd if=$D/sparse of=/dev/null bs=65536 count=1 skip=32 2>/dev/null
EOT
sync
sleep 0.2
# bytes of the files under $D read from storage in REC [by COMM]
bytes() {
	t3_csv "$1" readers | awk -F, -v d="$D/" -v c="${2:-}" \
		'index($1, d) == 1 && (c == "" || $3 == c) { s += $5 } END { print s + 0 }'
}

drop_caches
t3_record "$TEST_DIR/cold.dat" sh "$TEST_DIR/work.sh" || { not_ok "record the cold workload"; exit 0; }
P=$TEST_DIR/work.pack
"$BOOTPROF" readahead -o "$P" "$TEST_DIR/cold.dat" >/dev/null || { not_ok "make the pack"; exit 0; }
expect "the pack holds the library as one range of ${size} bytes, more than one request ($cap KiB)" \
	"grep ' $D/lib\$' '$P' | awk '{ exit !(\$9 == \"0+\" $size / 4096) }'"

drop_caches
"$BOOTPROF_FAST" replay --wait "$P" >"$TEST_DIR/replay.out"
sed 's/^/# /' "$TEST_DIR/replay.out"
expect 'replay --wait: the library is resident whole (fincore)' \
	"[ \$(fincore --bytes --noheadings --output RES '$D/lib') = $size ]"

drop_caches
t3_record "$TEST_DIR/warm.dat" sh -c "'$BOOTPROF_FAST' replay --wait '$P' >/dev/null && sh '$TEST_DIR/work.sh'" ||
	{ not_ok "record the replayed workload"; exit 0; }
# The preloader marks in the recording when each range became resident.
"$BOOTPROF" dump "$TEST_DIR/warm.dat" >"$TEST_DIR/warm.dump"
ranges=$(awk '$1 == "file" { n += split($9, r, ",") } END { print n }' "$P")
marks=$(grep -c ' print: .*bootprof-replay resident ' "$TEST_DIR/warm.dump")
expect "one 'resident' trace marker per range of the pack ($marks of $ranges)" "[ '$marks' = '$ranges' ]"
lib="$(stat -c '%Hd:%Ld %i' "$D/lib") 0+$((size / 4096))"
expect "the library's marker comes after the preloader inserted its last page" \
	"awk -v ino=\$(printf '%x' \$(stat -c %i '$D/lib')) -v m='bootprof-replay resident $lib\\\\x0a' '
		/ mm_filemap_add_to_page_cache: / && \$4 == \"bootprof-replay\" && \$9 == ino { last = \$1 }
		/ print: / && index(\$0, m) { at = \$1 }
		END { exit !(last != \"\" && at != \"\" && at + 0 >= last + 0) }' '$TEST_DIR/warm.dump'"
cold=$(bytes "$TEST_DIR/cold.dat")
warm=$(bytes "$TEST_DIR/warm.dat")
pre=$(bytes "$TEST_DIR/warm.dat" bootprof-replay)
echo "# bytes of the workload's files read from storage: $cold cold; $warm after replay ($pre by the preloader)"
sparse=$(t3_csv "$TEST_DIR/cold.dat" files | awk -F, -v p="$D/sparse" '$1 == p { print $5 }')
whole=$(for f in "$D"/lib "$D"/m*; do stat -c %s "$f"; done | awk '{ s += int(($1 + 4095) / 4096) * 4096 } END { print s }')
expect "the cold run read each file once, whole ($whole bytes in pages: the truth from the file sizes; sparse: $sparse)" \
	"[ \$(($cold - $sparse)) = '$whole' ]"
expect 'after replay the workload itself read none of its files from storage' "[ $((warm - pre)) = 0 ]"
expect 'preloader + workload read at most 5 % more than the cold run' \
	"[ '$cold' -gt 0 ] && [ \$(($warm * 100)) -le \$(($cold * 105)) ]"

# diff names the files read more after a replay: none here; with a pack
# that merges sparse's two reads across its 496-page gap, sparse.
"$BOOTPROF" diff "$TEST_DIR/cold.dat" "$TEST_DIR/warm.dat" >"$TEST_DIR/diff.txt"
expect 'diff: a section for the files read more after the replay, none of the workload'"'"'s' \
	"grep -q '^== Read more after the replay: ' '$TEST_DIR/diff.txt' && ! sed -n '/^== Read more/,\$p' '$TEST_DIR/diff.txt' | grep -qF '$D/'"
G=$TEST_DIR/gap.pack
"$BOOTPROF" readahead --gap 1000 -o "$G" "$TEST_DIR/cold.dat" >/dev/null
drop_caches
t3_record "$TEST_DIR/gap.dat" sh -c "'$BOOTPROF_FAST' replay --wait '$G' >/dev/null && sh '$TEST_DIR/work.sh'" ||
	{ not_ok "record the workload replayed with the merged gap"; exit 0; }
gap=$(t3_csv "$TEST_DIR/gap.dat" files | awk -F, -v p="$D/sparse" '$1 == p { print $5 }')
"$BOOTPROF" diff --format json "$TEST_DIR/cold.dat" "$TEST_DIR/gap.dat" >"$TEST_DIR/diff.json"
echo "# sparse: $sparse bytes read cold, $gap after the replay of the merged gap"
expect 'diff: sparse is named, with the bytes each recording read of it' \
	"jq -e --arg p '$D/sparse' '.read_more_after_replay[] | select(.name == \$p) |
		.before_bytes == $sparse and .after_bytes == ${gap:-0} and .after_bytes > .before_bytes' '$TEST_DIR/diff.json' >/dev/null &&
	 '$BOOTPROF' diff '$TEST_DIR/cold.dat' '$TEST_DIR/gap.dat' | sed -n '/^== Read more/,\$p' | grep -qF '$D/sparse'"
