#!/bin/sh
# The critical path of readers of an rwsem woken by other readers.
# t3-rwsem's writer holds target's inode lock (i_rwsem) for writing while
# its write(2) faults in map.bin (3 MB, cold, through a 4 MB/s blkio
# limit); readers started every 0.2 ms, each after a 100 ms nap, queue
# on the same lock for reading (lseek SEEK_DATA) meanwhile; more come
# after the write.
# The kernel wakes at most 256 queued readers per waking: the others
# are woken by a reader, either the last of a woken batch to unlock or
# a reader whose nap ended after the write, that queues while the lock is
# reader-owned. Either way they waited for the writer's reads: the path
# to such a reader's exit must reach the writer's I/O on map.bin, its
# D-sleep summed from the raw events (`dump`), within 3 %, not the
# timer of the reader that woke it; its wait is on the writer up to the
# unlock, on that reader after it. The reader->reader wakings are
# counted from the raw sched_waking events, by what the waker was:
# woken by the writer before, or never asleep before it woke the others.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
t3_blkio_cgroup blkio.throttle.read_bps_device 4000000
t3_helper t3-rwsem
[ "$(stat -f -c %T "$TEST_DIR")" = ext2/ext3 ] || skip_all "$TEST_DIR is not on ext4 (its write holds i_rwsem)"

D=$TEST_DIR/files
mkdir -p "$D"
head -c 3000000 /dev/urandom >"$D/map.bin"
sync
# Only the writer joins the throttled group: the readers' own reads wait
# for no one.
t3_before_record() {
	drop_caches
	"$TEST_DIR/t3-rwsem" /dev/null /dev/null 0 0 0 || :
}
# The readers' waits on the lock, from the raw events: a reader's first
# D-sleep, begun before the writer's unlock (its first waking of a
# reader asleep in D: a timer or a completion that fires while it runs
# wakes other tasks in its context too), woken by another reader; one
# "KIND SLEEPER WAKER" each, when the sleeper did not sleep in D again
# before its exit (its exit is then right after its wait). KIND, what
# the waker was: a reader the writer woke from a D-sleep before (the
# kernel's first 256), one never asleep in D before (it came after the
# unlock), or else.
queued_readers() {
	awk -v w="$W" '
	function val(k,   i) {
		for (i = 6; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	$5 == "sched_switch:" { in_d[val("prev_pid")] = val("prev_state") ~ /^D/ }
	NR == FNR {
		if ($5 == "sched_process_exit:" && val("comm") == "t3-reader")
			reader[val("pid")] = 1
		if ($5 == "sched_waking:" && $3 == w && in_d[val("pid")] && val("comm") == "t3-reader" && !rel)
			rel = $1
		next
	}
	$5 == "sched_switch:" && in_d[val("prev_pid")] {
		p = val("prev_pid")
		if (p in reader && !(p in first) && $1 < rel) { first[p] = $1; asleep[p] = 1 }
		else if (p in woken_by) again[p] = 1
		slept[p] = 1
	}
	$5 == "sched_waking:" {
		p = val("pid")
		if ($3 == w && in_d[p]) by_w[p] = 1
		if (asleep[p]) {
			asleep[p] = 0
			if ($3 in reader && $3 != p)
				woken_by[p] = (($3 in by_w) ? "woken" : ($3 in slept) ? "other" : "never-slept") " " p " " $3
		}
	}
	END { for (p in woken_by) if (!again[p]) print woken_by[p] }' \
	"$TEST_DIR/dump.txt" "$TEST_DIR/dump.txt" | sort -k2n >"$TEST_DIR/rr.txt"
}
# A reader that came after the unlock and woke queued ones is what the
# test is about: recorded again (up to 3 times) while none did.
for attempt in 1 2 3; do
	t3_record_whole "$TEST_DIR/r.dat" \
		"$TEST_DIR/t3-rwsem" "$D/map.bin" "$D/target" 100 100 200 "$CG/cgroup.procs" >"$TEST_DIR/out.txt"
	"$BOOTPROF_FAST" dump "$TEST_DIR/r.dat" >"$TEST_DIR/dump.txt"
	W=$(awk '$1 == "writer" { print $2 }' "$TEST_DIR/out.txt")
	queued_readers
	grep -q '^never-slept ' "$TEST_DIR/rr.txt" && break
	echo "# attempt $attempt: no reader woken by one that came after the unlock"
	rm -f "$TEST_DIR/r.dat"
done
# The writer's D-sleeps from its first event on map.bin (its first fault)
# to its exit (it may sleep again in it).
w_dsleep=$(awk -v p="$W" -v ino="$(printf %x "$(stat -c %i "$D/map.bin")")" '
	$3 == p && (index($0, " ino " ino " ") || index($0, " ino=" ino " ")) { faulted = 1 }
	$3 == p && $5 == "sched_process_exit:" { exit }
	faulted && $5 == "sched_switch:" && index($0, " prev_pid=" p " ") && / prev_state=D/ { start = $1; asleep = 1; next }
	asleep && $5 == "sched_waking:" && index($0, " pid=" p " ") { sum += $1 - start; asleep = 0 }
	END { printf "%.0f\n", sum * 1e9 }' "$TEST_DIR/dump.txt")
nreaders=$(grep -c ' sched_process_exit: comm=t3-reader ' "$TEST_DIR/dump.txt")
by_w=$(awk -v w="$W" '$3 == w && $5 == "sched_waking:" && / comm=t3-reader /' "$TEST_DIR/dump.txt" | wc -l)
echo "# writer $W (D-sleep $w_dsleep ns), $nreaders readers, $by_w woken by the writer;" \
	"readers queued on the writer and woken by a reader, by the waker's kind: $(cut -d' ' -f1 "$TEST_DIR/rr.txt" | sort | uniq -c | tr '\n' ' ')"
expect 'the premises: the throttle held the writer over 300 ms, a reader that came after the unlock woke queued ones' \
	"[ -n '$W' ] && [ '$w_dsleep' -gt 300000000 ] && grep -q '^never-slept ' '$TEST_DIR/rr.txt'"

# The path to the exit of the last reader woken so, of each kind.
for kind in woken never-slept other; do
	set -- $(awk -v k="$kind" '$1 == k { s = $2; b = $3 } END { if (s) print s, b }' "$TEST_DIR/rr.txt")
	[ $# = 2 ] || continue
	R=$1 BY=$2
	"$BOOTPROF" critical --format json --to "pid:$R" "$TEST_DIR/r.dat" >"$TEST_DIR/c-$kind.json" ||
		{ not_ok "bootprof critical --to pid:$R"; continue; }
	io=$(jq --argjson w "$W" --arg f "$D/map.bin" \
		'[.segments[] | select(.tid == $w and .state == "io" and .file.path == $f) | .ns] | add // 0' \
		"$TEST_DIR/c-$kind.json")
	echo "# $kind: reader $R woken by reader $BY; the writer's I/O on map.bin on the path to its exit: $io ns"
	expect "$kind: the path to reader $R's exit tiles the recording and goes through its wait, on reader $BY" \
		"t3_critical_tiles '$TEST_DIR/c-$kind.json' &&
		 jq -e --argjson r '$R' --argjson b '$BY' '[.waits[] | select(.tid == \$r)][-1].waker.tid == \$b' '$TEST_DIR/c-$kind.json'"
	expect "$kind: it holds the writer's I/O on map.bin: its D-sleep, within 3 %" \
		"t3_within '$io' '$w_dsleep' 3"
	expect "$kind: its wait is on the writer up to the unlock (via rwsem), on reader $BY after it" \
		"jq -e --argjson r '$R' --argjson b '$BY' --argjson w '$W' '
			[.waits[] | select(.tid == \$r)] as \$k |
			(\$k | map(select(.waker.tid == \$w and .via == \"rwsem\")) | length == 1) and
			(\$k | map(select(.waker.tid == \$b)) | length == 1 and .[0].via == null)' '$TEST_DIR/c-$kind.json'"
done
