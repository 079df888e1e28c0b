#!/bin/sh
# Bytes read beside other throttled readers. The command starts three
# background readers of 6 MiB files (decoys, never waited for) in a cgroup
# v1 blkio group sharing 2 MB/s, then reads planted.bin (3 MiB) with
# `cat planted.bin | cat` in another group limited to 6 MB/s. Each
# throttle holds its own group's read bios and a kworker queues them, in
# whatever order the two groups' budgets allow, so no read request says
# whose pages it carries. planted.bin is reported read exactly 3 MiB, all
# by the cat that read it, and each decoy exactly the bytes its reader
# inserted into the page cache. Ground truth for every file: the
# mm_filemap_add_to_page_cache events of its inode in the raw events
# (`bootprof dump`), PAGE_SIZE << order each, summed here apart from the
# analysis; for planted.bin also its size.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 6000000
t3_decoy_cgroup 2000000

PAGE=$(getconf PAGESIZE)
D=$TEST_DIR/files
mkdir -p "$D"
head -c 3145728 /dev/urandom >"$D/planted.bin"
for i in 1 2 3; do
	head -c 6291456 /dev/urandom >"$D/decoy$i.bin"
done
sync
cat >"$TEST_DIR/run.sh" <<EOF
for i in 1 2 3; do
	sh -c 'echo \$\$ >$DECOYS/cgroup.procs; exec cat "$D/decoy\$1.bin" >/dev/null' decoy \$i &
done
echo \$\$ >$CG/cgroup.procs
cat "$D/planted.bin" | cat >/dev/null
EOF

drop_caches
t3_record "$TEST_DIR/r.dat" sh "$TEST_DIR/run.sh" || { not_ok 'the command is recorded'; exit 0; }
"$BOOTPROF" report --format json --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/r.json" ||
	{ not_ok 'the report'; exit 0; }
"$BOOTPROF_FAST" dump "$TEST_DIR/r.dat" >"$TEST_DIR/dump.txt"

# The premise: the throttles held reads, and kworkers queued them.
held=$(awk -v d="$(echo "$dev" | tr : ,)" '
	$5 == "block_bio_queue:" && $4 ~ /^kworker/ && $6 == d && $7 ~ /R/ { n++ }
	END { print n + 0 }' "$TEST_DIR/dump.txt")
echo "# read bios of $dev queued by kworkers: $held"
expect 'the throttles held read bios that kworkers queued' "test '$held' -gt 0"

# inserted PATH: "BYTES PIDS" - the bytes of PATH's pages inserted into the
# page cache in the raw events, and the pids that inserted them
inserted() {
	awk -v fdev="$(stat -c '%Hd:%Ld' "$1")" -v ino="$(printf %x "$(stat -c %i "$1")")" \
		-v ps="$PAGE" '
	/ mm_filemap_add_to_page_cache: / {
		d = n = ""
		o = 0   # a kernel without the order field inserts single pages
		for (i = 1; i <= NF; i++) {
			if ($i == "dev") d = $(i + 1)
			if ($i == "ino") n = $(i + 1)
			if ($i ~ /^order=/) o = substr($i, 7)
		}
		if (d != fdev || n != ino)
			next
		b = ps; while (o-- > 0) b *= 2
		bytes += b
		if (!(($3) in pid)) { pid[$3] = 1; pids = pids " " $3 }
	}
	END { printf "%d%s\n", bytes, pids }' "$TEST_DIR/dump.txt"
}
# reported PATH: the bytes read of PATH in the report (none: 0)
reported() {
	jq -r --arg p "$1" '[.files[] | select(.path == $p) | .bytes_read] | add // 0' \
		"$TEST_DIR/r.json"
}
# readers PATH: "PID COMM BYTES" of each reader of PATH with bytes read
readers() {
	jq -r --arg p "$1" '.files[] | select(.path == $p) | .readers[] |
		select(.bytes_read > 0) | "\(.pid) \(.comm) \(.bytes_read)"' "$TEST_DIR/r.json"
}

set -- $(inserted "$D/planted.bin")
truth=$1 planter=$2
got=$(reported "$D/planted.bin")
who=$(readers "$D/planted.bin")
echo "# planted.bin: inserted $truth by pid ${planter:-none}; reported $got, readers: ${who:-none}"
expect 'planted.bin: the whole file was inserted, by one task' \
	"test '$truth' = 3145728 && test -n '$planter' && test -z '$3'"
expect "planted.bin: 3145728 bytes read (got $got)" "test '$got' = 3145728"
expect "planted.bin: all read by the cat that inserted its pages (got ${who:-none})" \
	"test '$who' = '$planter cat 3145728'"

for i in 1 2 3; do
	set -- $(inserted "$D/decoy$i.bin")
	truth=$1
	got=$(reported "$D/decoy$i.bin")
	echo "# decoy$i.bin: inserted $truth by pid ${2:-none}; reported $got," \
		"readers: $(readers "$D/decoy$i.bin" | tr '\n' ' ')"
	expect "decoy$i.bin: its reader inserted pages" "test '$truth' -gt 0"
	# A reader still reading at the stop may have inserted pages it had
	# not waited for yet: not known to be read (a throttled run may be a
	# hole), so not counted. One that finished is exact.
	ended=$(jq --argjson p "${2:-0}" '[.processes[] | select(.pid == $p) | .exit_ns] | max // 0' \
		"$TEST_DIR/r.json")
	if [ "${ended:-0}" != 0 ]; then
		expect "decoy$i.bin: its reader finished: its inserted bytes read ($truth, got $got)" \
			"test '$got' = '$truth'"
	else
		expect "decoy$i.bin: still reading at the stop: some read, none over what it inserted ($truth, got $got)" \
			"test '$got' -gt 0 && test '$got' -le '$truth'"
	fi
done
