#!/bin/sh
# A recording from a 32-bit kernel (fixtures/i386-boot.dat: Debian 12's 686
# kernel under qemu-system-i386, make-i386-fixture.sh) read on this 64-bit
# machine: its events' longs are 4 bytes. The bytes each planted file gave
# the page cache are the file's size (from the disk image: i386-boot.facts),
# counted over bootprof dump and over trace-cmd report alike, and the report
# says the same; the block layer's read bytes are trace-cmd's sum; the page
# size is the recording's.
. "$(dirname "$0")/../test-lib.sh"

FIX=$TOP/tests/fixtures
dat=$FIX/i386-boot.dat
[ -r "$dat" ] && [ -r "$FIX/i386-boot.facts" ] || skip_all "no i386 fixture"

expect "dump reads the 32-bit recording" "'$BOOTPROF' dump '$dat' >'$TEST_DIR/dump'"
expect "its header names the 32-bit machine and the recording's page size" \
	"grep -q '^# kernel: 6.1.0-50-686 .*i686)\$' '$TEST_DIR/dump' &&
	 grep -qx '# cpus: 2, page size 4096' '$TEST_DIR/dump'"
expect "bootprof report reads it" \
	"'$BOOTPROF' report --format csv --table readers --file /data/ '$dat' >'$TEST_DIR/readers.csv' &&
	 '$BOOTPROF' report --format json '$dat' >'$TEST_DIR/report.json'"

# Page-cache bytes of inode INO_HEX added by PID, over a dump or trace-cmd's
# report: the fields after the event name are the same in both.
added() {
	awk -v ino="$2" -v pid="$3" '{
		for (i = 1; i < NF; i++) if ($i == "mm_filemap_add_to_page_cache:") break
		if (i == NF || $(i + 2) ~ /^0:/ || $(i + 4) != ino) next
		p = $(i - 2); if (p !~ /^[0-9]+$/) { p = $1; sub(".*-", "", p) }
		if (p != pid) next
		o = $NF; sub("order=", "", o); b += 4096 * 2 ^ o
	} END { printf "%d\n", b }' "$1"
}
tracecmd=
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$dat" >"$TEST_DIR/tracecmd" 2>/dev/null && tracecmd=$TEST_DIR/tracecmd
	expect "the recording's longs are 4 bytes (the 686 kernel's event formats)" \
		"trace-cmd report --events '$dat' 2>/dev/null | grep -q 'field:unsigned long i_ino;.*size:4;'"
	expect "dump and trace-cmd report give the same number of events" \
		"[ \"\$(grep -vc '^#' '$TEST_DIR/dump')\" = \"\$(grep -c ': ' '$tracecmd')\" ]"
fi
grep '^file ' "$FIX/i386-boot.facts" | while read -r _ path _ inode _ size _ prog _ pid; do
	ino=$(printf '%x' "$inode")
	got=$(added "$TEST_DIR/dump" "$ino" "$pid")
	echo "# $path: inode $inode, $size bytes; $prog (pid $pid) read $got"
	expect "$path is read by $prog (pid $pid), $size bytes, in bootprof's dump" "[ '$got' = '$size' ]"
	[ -n "$tracecmd" ] && expect "$path: the same $size bytes in trace-cmd's report" \
		"[ \"\$(added '$tracecmd' '$ino' '$pid')\" = '$size' ]"
	expect "$path: the report says so too" "grep -q '^$path,$pid,$prog,[0-9]*,$size,' '$TEST_DIR/readers.csv'"
done
if [ -n "$tracecmd" ]; then
	rq=$(awk '{ for (i = 1; i < NF; i++) if ($i == "block_rq_complete:" && $(i + 2) ~ /R/ && $(i + 5) == "+")
		s += $(i + 6) } END { printf "%d\n", s * 512 }' "$tracecmd")
	echo "# block layer reads (trace-cmd report, block_rq_complete): $rq bytes"
	expect "the block layer's read bytes are trace-cmd's sum ($rq)" \
		"[ \"\$(jq .totals.rq_read_bytes '$TEST_DIR/report.json')\" = '$rq' ]"
fi
expect "the report's page size is the recording's" "[ \"\$(jq .recording.page_size '$TEST_DIR/report.json')\" = 4096 ]"
