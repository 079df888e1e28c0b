# Shared by the analysis tests (tests/shell/t3*.sh), after ../test-lib.sh.
#
#   t3_helper NAME           compile tests/helpers/NAME.c into $TEST_DIR/NAME
#   t3_record OUT CMD...     record CMD with the optimized bootprof (quiet)
#   t3_record_whole OUT CMD...
#                            the same, again (up to 3 times) while the recording
#                            lost events: raw events with a hole are no truth.
#                            Runs t3_before_record first each time when the test
#                            defines it. The test is skipped when every recording
#                            lost events, and ends (not ok) when the command could
#                            not be recorded
#   t3_csv FILE TABLE        bootprof report --format csv --table TABLE --top 0
#   t3_field CSV KEYCOL KEY COL
#                            column COL of the row whose column KEYCOL is KEY
#   t3_col CSV NAME          the number of the column headed NAME (a new
#                            cause or field adds columns: never hard-code one)
#   t3_within A B PCT        |A - B| <= PCT% of B
#   t3_disk                  MAJ:MIN of the whole disk under $TEST_DIR (a blkio
#                            throttle takes disks, not partitions); empty if none
#   t3_cgroup_remove CG      move CG's tasks to its parent, then remove it
#   t3_blkio_cgroup [FILE BPS]
#                            $CG: a new cgroup v1 blkio group; with FILE
#                            (blkio.throttle.read_bps_device ...) set to BPS for
#                            the disk under $TEST_DIR ($dev); the test is skipped
#                            without one. At exit: eval $t3_at_exit, remove $CG,
#                            remove $TEST_DIR (unless KEEP_TEST_DIR)
#   t3_decoy_cgroup BPS      $DECOYS: a second blkio group (after t3_blkio_cgroup)
#                            reading at most BPS from $dev, for readers the
#                            command never waits for; at exit its tasks are
#                            killed and it is removed
#   t3_small_files DIR N     N files DIR/f0 ... of 4 to 32 KiB, and
#                            $TEST_DIR/work.sh, which joins $CG (after
#                            t3_blkio_cgroup) and reads them all with cat;
#                            synced, and older than what follows
#   t3_pages REC PATH        set read_b used never mapped: PATH's page bytes in REC
#                            (read, used, never used, mapped not known to be used)
#   t3_pages_sum             check used + never used + mapped = read
#   t3_first_exec REC CGROUP "S.MICROS PROGRAM" of the first exec made in CGROUP
#                            (a path), from the raw events of `dump`; empty if none
#   t3_us NS                 NS as dump prints a time: S.MICROS, truncated
#   t3_waiting REC [PIDS]    "WALL IDLE" in ns, computed without the model's
#                            CPU idle: the wall time some process of PIDS
#                            (space-separated; none: every process) was in
#                            an I/O wait (the chrome export's spans, merged),
#                            and the part of it with every CPU idle
#                            (trace-cmd's sched_switch: a CPU is idle from a
#                            switch to pid 0 until its next switch, busy
#                            before its first)
#   t3_critical REC          $TEST_DIR/c.json and c.txt (bootprof critical as JSON
#                            and text) and dump.txt (bootprof dump) of REC; the
#                            test ends (not ok) when there is no JSON
#   t3_critical_tiles JSON   the segments of `bootprof critical --format json`
#                            tile [start_ns, end_ns] in order (no gap, no
#                            overlap, none empty, none given up on as a
#                            circle of wakeups), and by_state adds up to
#                            the path and to the segments of each state

t3_helper() {
	${CC:-cc} -O2 -Wall -o "$TEST_DIR/$1" "$TOP/tests/helpers/$1.c" ||
		skip_all "cannot build helper $1"
}

t3_record() {
	t3_out=$1
	shift
	"$BOOTPROF_FAST" record -o "$t3_out" -- "$@" 2>"$TEST_DIR/.record-err" ||
		{ cat "$TEST_DIR/.record-err" >&2; return 1; }
}

t3_record_whole() {
	for t3_attempt in 1 2 3; do
		! command -v t3_before_record >/dev/null 2>&1 || t3_before_record
		t3_record "$@" || { not_ok 'the command is recorded'; exit 0; }
		t3_lost=$("$BOOTPROF" report --format json "$1" 2>/dev/null |
			jq '.totals.lost_events + .totals.lost_pages')
		[ "$t3_lost" = 0 ] && return 0
		echo "# attempt $t3_attempt: the recording lost events ($t3_lost)"
		rm -f "$1"
	done
	skip_all "every recording lost events (a busy machine)"
}

t3_critical() {
	"$BOOTPROF" critical --format json "$1" >"$TEST_DIR/c.json" ||
		{ not_ok 'bootprof critical --format json'; exit 0; }
	"$BOOTPROF" critical "$1" >"$TEST_DIR/c.txt" || not_ok 'bootprof critical'
	"$BOOTPROF_FAST" dump "$1" >"$TEST_DIR/dump.txt"
}

t3_csv() {
	"$BOOTPROF" report --format csv --table "$2" --top 0 "$1"
}

# Fields never hold commas in these tests (paths are chosen so).
t3_field() {
	awk -F, -v k="$3" -v kc="$2" -v c="$4" '$kc == k { print $c; exit }' "$1"
}

t3_col() {
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) print i; exit }' "$1"
}

t3_within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d;
		if (b == 0 || d > b * p / 100) { printf "%s vs %s: off by more than %s%%\n", a, b, p; exit 1 }
	}'
}

t3_disk() {
	t3_dev=$(stat -c '%Hd:%Ld' "$TEST_DIR" 2>/dev/null) ||
		t3_dev=$(printf '%d:%d' $((0x$(stat -c %D "$TEST_DIR") >> 8)) \
			$((0x$(stat -c %D "$TEST_DIR") & 255)))
	[ -e "/sys/dev/block/$t3_dev/partition" ] && t3_dev=$(cat "/sys/dev/block/$t3_dev/../dev")
	[ -e "/sys/dev/block/$t3_dev" ] && echo "$t3_dev"
}

t3_cgroup_remove() {
	[ -d "$1" ] || return 0
	# An exiting task can keep the cgroup busy for a moment.
	for t3_i in 1 2 3 4 5 6 7 8 9 10; do
		while read -r t3_p; do echo "$t3_p" >"$1/../cgroup.procs"; done \
			<"$1/cgroup.procs" 2>/dev/null
		rmdir "$1" 2>/dev/null && return 0
		sleep 0.5
	done
	return 1
}

t3_blkio_cgroup() {
	t3_blkio=/sys/fs/cgroup/blkio
	[ -e "$t3_blkio/${1:-blkio.throttle.io_service_bytes}" ] ||
		skip_all "no cgroup v1 blkio ${1:-statistics}"
	dev=$(t3_disk) || skip_all "$TEST_DIR is not on a block device"
	CG=$t3_blkio/bootprof-$TEST_NAME-$$
	trap t3_exit EXIT
	mkdir "$CG" || skip_all "cannot make a blkio cgroup"
	[ -z "$1" ] || echo "$dev $2" >"$CG/$1" || skip_all "cannot set $1 of $dev"
}

t3_decoy_cgroup() {
	DECOYS=$t3_blkio/bootprof-$TEST_NAME-decoys-$$
	# The decoys outlive the command: stop them before their group goes.
	t3_at_exit='for p in $(cat "$DECOYS/cgroup.procs" 2>/dev/null); do kill "$p"; done
		t3_cgroup_remove "$DECOYS"'
	mkdir "$DECOYS" || skip_all "cannot make a second blkio cgroup"
	echo "$dev $1" >"$DECOYS/blkio.throttle.read_bps_device" ||
		skip_all "cannot set the decoys' read limit"
}

t3_exit() {
	[ -n "${t3_at_exit:-}" ] && eval "$t3_at_exit"
	t3_cgroup_remove "$CG"
	[ -n "$KEEP_TEST_DIR" ] && echo "# kept $TEST_DIR" || rm -rf "$TEST_DIR"
}

t3_small_files() {
	mkdir -p "$1"
	t3_i=0
	while [ $t3_i -lt "$2" ]; do
		head -c $((4096 + (t3_i * 7919) % 28672)) /dev/urandom >"$1/f$t3_i"
		t3_i=$((t3_i + 1))
	done
	cat >"$TEST_DIR/work.sh" <<EOT
echo \$\$ >$CG/cgroup.procs
exec cat $1/f* >/dev/null
EOT
	sync
	# A file changed during a recording is left out of its pack.
	sleep 0.2
}

t3_pages() {
	t3_csv "$1" files >"$TEST_DIR/.pages.csv"
	read_b=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 5)
	used=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 7)
	never=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 8)
	mapped=$(t3_field "$TEST_DIR/.pages.csv" 1 "$2" 13)
	echo "# read $read_b, used $used, never used $never, mapped (not known to be used) $mapped"
}

t3_pages_sum() {
	expect 'used + never used + mapped = read' \
		"test \$((${used:-0} + ${never:-0} + ${mapped:-0})) = '${read_b:-x}'"
}

# A task is in the cgroup it was last attached to, else in its parent's at
# fork; the exec'ing task is old_pid. Fields are found by name (a comm may
# hold spaces).
t3_first_exec() {
	"$BOOTPROF" dump --events sched:sched_process_fork,sched:sched_process_exec,cgroup:cgroup_attach_task \
		"$1" | awk -v cg="$2" '
	function val(k,   i) {
		for (i = 4; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	/ sched_process_fork: / { in_cg[val("child_pid")] = in_cg[val("pid")] }
	/ cgroup_attach_task: / { in_cg[val("pid")] = val("dst_path") }
	/ sched_process_exec: / && in_cg[val("old_pid")] == cg { print $1, val("filename"); exit }'
}

t3_us() {
	awk -v n="$1" 'BEGIN { printf "%d.%06d", int(n / 1e9), int((n % 1e9) / 1e3) }'
}

t3_waiting() {
	"$BOOTPROF" export --all --format chrome -o "$TEST_DIR/.waiting.json" --force "$1" \
		2>/dev/null || return 1
	t3_ncpus=$("$BOOTPROF" report --format json "$1" 2>/dev/null | jq .recording.ncpus)
	{
		jq -r --arg pids " ${2:-} " '.otherData.origin_ns as $o | .traceEvents[] |
			select(.name == "I/O wait" and
				($pids == "  " or (.pid as $p | $pids | contains(" \($p) ")))) |
			($o + (.ts * 1000 + 0.5 | floor)) as $a |
			"\($a) W 1", "\($a + (.dur * 1000 + 0.5 | floor)) W -1"' "$TEST_DIR/.waiting.json"
		# Seconds with 9 decimals (trace-cmd report -t) or nanoseconds: in ns.
		trace-cmd report -t "$1" 2>/dev/null |
			sed -n 's/^.*\[\([0-9]*\)\] *\([0-9]*\)\.\{0,1\}\([0-9]*\): sched_switch:.*==> .*:\([0-9]*\) \[[0-9]*\]$/\2\3 C \1 \4/p'
	} | sort -s -k1,1n | awk -v ncpus="$t3_ncpus" '
		{ t = $1 + 0 }
		t > last && waiting > 0 { wall += t - last; if (nidle == ncpus) idle += t - last }
		{ last = t }
		$2 == "W" { waiting += $3 }
		$2 == "C" { c = $3 + 0; was = idle_cpu[c]; idle_cpu[c] = ($4 == 0); nidle += idle_cpu[c] - was }
		END { printf "%.0f %.0f\n", wall, idle }'
}

t3_critical_tiles() {
	jq -e '. as $p | .segments as $s |
		($s | length) > 0 and $s[0].start_ns == $p.start_ns and
		$s[-1].end_ns == $p.end_ns and $p.duration_ns == $p.end_ns - $p.start_ns and
		all(range(1; $s | length); $s[.].start_ns == $s[. - 1].end_ns) and
		all($s[]; .end_ns > .start_ns and .ns == .end_ns - .start_ns and .reason != "loop") and
		([$p.by_state[]] | add) == $p.duration_ns and
		all($p.by_state | keys[]; . as $k |
			([$s[] | select(.state == $k) | .ns] | add // 0) == $p.by_state[$k])' "$1" >/dev/null
}
