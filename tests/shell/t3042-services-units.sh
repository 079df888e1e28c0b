#!/bin/sh
# Services as users know them: processes moved into cgroups named like
# systemd's (SLICE/NAME.service, SLICE/NAME.scope) are reported under the
# unit's name, with when their first process started, when the first exec
# made in the cgroup happened and of what (the raw event, from dump; not the
# shell's exec from before it moved itself in), and when their last one
# ended, or "running" when one outlived the recording (text, JSON, CSV);
# top's services view lists the same rows in the same order.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

CG=
for root in /sys/fs/cgroup/unified /sys/fs/cgroup; do
	if [ -f "$root/cgroup.procs" ] && mkdir "$root/bootprof-t3042-$$.slice" 2>/dev/null; then
		CG=$root/bootprof-t3042-$$.slice
		break
	fi
done
[ -n "$CG" ] || skip_all "no writable cgroup hierarchy"
A=t3042a-$$.service
B=t3042b-$$.scope
mkdir "$CG/$A" "$CG/$B" || skip_all "cannot make cgroups under $CG"
cleanup() {
	# Only the sleep this test started outlives the recording.
	[ -s "$TEST_DIR/sleep.pid" ] && kill "$(cat "$TEST_DIR/sleep.pid")" 2>/dev/null
	sleep 0.2
	rmdir "$CG/$A" "$CG/$B" "$CG" 2>/dev/null
	rm -rf "$TEST_DIR"
}
trap cleanup EXIT

F=$TEST_DIR/data
head -c 1048576 /dev/urandom >"$F"
sync
drop_caches
t3_record "$TEST_DIR/r.dat" sh -c "
	sh -c 'echo \$\$ >$CG/$B/cgroup.procs; cat $F >/dev/null'
	sh -c 'echo \$\$ >$CG/$A/cgroup.procs; cat $F >/dev/null
	       sleep 30 </dev/null >/dev/null 2>&1 & echo \$! >$TEST_DIR/sleep.pid'
	sleep 0.1"
"$BOOTPROF" report --format json "$TEST_DIR/r.dat" >"$TEST_DIR/r.json" 2>/dev/null
svc() { # UNIT FIELD
	jq -r --arg u "$1" ".services[] | select(.unit == \$u) | .$2" "$TEST_DIR/r.json"
}
echo "# $A: running $(svc "$A" running), started $(svc "$A" first_start_ns), ended $(svc "$A" last_exit_ns)"
echo "# $B: running $(svc "$B" running), started $(svc "$B" first_start_ns), ended $(svc "$B" last_exit_ns)"
expect "json: $A by its unit name, its cgroup path kept" \
	"svc '$A' path | grep -q '/bootprof-t3042-$$.slice/$A\$'"
expect "json: $A is still running (the sleep outlived the recording)" \
	"test \"\$(svc '$A' running)\" = true && test \"\$(svc '$A' last_exit_ns)\" = null &&
	 test \"\$(svc '$A' first_start_ns)\" -gt 0"
expect "json: $B ended after it started" \
	"test \"\$(svc '$B' running)\" = false &&
	 test \"\$(svc '$B' last_exit_ns)\" -gt \"\$(svc '$B' first_start_ns)\" &&
	 test \"\$(svc '$B' first_start_ns)\" -gt 0"
expect "json: what each read is its own" \
	"test \"\$(svc '$A' bytes_read)\" -ge 0 && test \"\$(svc '$B' bytes_read)\" -ge 1048576"
"$BOOTPROF" report --top 0 --width 200 "$TEST_DIR/r.dat" >"$TEST_DIR/r.txt" 2>/dev/null
sect() { sed -n '/^== I\/O wait by service$/,/^$/p' "$TEST_DIR/r.txt"; }
expect "text: $A is listed by name, running" "sect | grep -E ' running +$A\$'"
bend=$(svc "$B" last_exit_ns)
bend_s=$(awk -v n="$bend" 'BEGIN { printf "%d.%03d", n / 1e9, (n / 1e6) % 1000 }')
expect "text: $B is listed by name with its end ($bend_s)" "sect | grep -E ' $bend_s +$B\$'"
"$BOOTPROF" report --table services --top 0 "$TEST_DIR/r.dat" >"$TEST_DIR/r.csv" 2>/dev/null
expect "csv: the unit and its lifetime columns" \
	"head -n 1 '$TEST_DIR/r.csv' |
	 grep -q ',unit,first_start_ns,last_exit_ns,running,first_exec_ns,first_exec\$' &&
	 grep -q ',$A,[0-9]*,0,1,[1-9][0-9]*,[^,]*/cat\$' '$TEST_DIR/r.csv'"

# The first exec in each cgroup: in both, the shell exec'd before it moved
# itself in; the first exec made in the cgroup is cat's.
for u in "$A" "$B"; do
	truth=$(t3_first_exec "$TEST_DIR/r.dat" "$(svc "$u" path)")
	got="$(t3_us "$(svc "$u" first_exec_ns)") $(svc "$u" first_exec)"
	echo "# $u: first exec $got; in the raw events: ${truth:-none}"
	expect "json: $u's first exec is the first sched_process_exec made in its cgroup" \
		"test -n '$truth' && test '$got' = '$truth'"
	expect "json: $u's first exec is cat's, not the shell's from before the move" \
		"test \"\$(basename '$(svc "$u" first_exec)')\" = cat"
done
aexec=$(svc "$A" first_exec_ns)
aexec_s=$(awk -v n="$aexec" 'BEGIN { printf "%d.%03d", n / 1e9, (n / 1e6) % 1000 }')
expect "text: $A's first exec ($aexec_s) in its row, its program on the next line" \
	"sect | grep -A1 -E ' $aexec_s +running +$A\$' | tail -n 1 |
	 grep -qE '^ +first exec: .*/cat\$'"

# top --batch --view services: the report's rows, in the report's order.
"$BOOTPROF" top --batch --view services --width 200 "$TEST_DIR/r.dat" >"$TEST_DIR/top.txt" 2>&1
jq -r '.services[] | [.unit, .processes] | @tsv' "$TEST_DIR/r.json" >"$TEST_DIR/want"
sed -n '/^ *WAIT  *READ .*SERVICE$/,$p' "$TEST_DIR/top.txt" | sed 1d |
	awk -v OFS='\t' '{ print $NF, $(NF - 4) }' >"$TEST_DIR/got"
echo "# top: $(tr '\n\t' ' :' <"$TEST_DIR/got")"
expect "top: the services view lists the report's units and processes, in its order" \
	"test -s '$TEST_DIR/want' && cmp -s '$TEST_DIR/want' '$TEST_DIR/got'"
expect "top: $A's row has the report's first exec ($aexec_s)" \
	"grep -E ' $aexec_s +running +$A\$' '$TEST_DIR/top.txt'"
