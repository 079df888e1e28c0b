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
cat >"$TEST_DIR/work.sh" <<EOT
"$TEST_DIR/t3-mmap" "$D/lib" 4096 >/dev/null
cat $D/m* >/dev/null
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
cold=$(bytes "$TEST_DIR/cold.dat")
warm=$(bytes "$TEST_DIR/warm.dat")
pre=$(bytes "$TEST_DIR/warm.dat" bootprof-replay)
echo "# bytes of the workload's files read from storage: $cold cold; $warm after replay ($pre by the preloader)"
whole=$(for f in "$D"/*; do stat -c %s "$f"; done | awk '{ s += int(($1 + 4095) / 4096) * 4096 } END { print s }')
expect "the cold run read each file once, whole ($whole bytes in pages: the truth from the file sizes)" \
	"[ '$cold' = '$whole' ]"
expect 'after replay the workload itself read none of its files from storage' "[ $((warm - pre)) = 0 ]"
expect 'preloader + workload read at most 5 % more than the cold run' \
	"[ '$cold' -gt 0 ] && [ \$(($warm * 100)) -le \$(($cold * 105)) ]"
