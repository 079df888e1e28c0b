#!/bin/sh
# Services: a workload moved into its own cgroup is reported as a service
# holding its processes, with their I/O wait and reads, and the first exec
# made in it (the raw sched_process_exec of the first cat: the shell exec'd
# before it moved itself in); top's services view lists it too.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs

CG=
for root in /sys/fs/cgroup/unified /sys/fs/cgroup; do
	if [ -f "$root/cgroup.procs" ] && mkdir "$root/bootprof-t3017-$$" 2>/dev/null; then
		CG=$root/bootprof-t3017-$$
		break
	fi
done
[ -n "$CG" ] || skip_all "no writable cgroup hierarchy"
cleanup() {
	sleep 0.2
	rmdir "$CG" 2>/dev/null
	rm -rf "$TEST_DIR"
}
trap cleanup EXIT

F=$TEST_DIR/data
head -c 4194304 /dev/urandom >"$F"
sync
drop_caches
t3_record "$TEST_DIR/r.dat" sh -c "echo \$\$ >'$CG/cgroup.procs'; cat '$F' >/dev/null; cat '$F' >/dev/null"
name=/bootprof-t3017-$$
t3_csv "$TEST_DIR/r.dat" services >"$TEST_DIR/services.csv"
t3_csv "$TEST_DIR/r.dat" processes >"$TEST_DIR/procs.csv"
procs=$(t3_field "$TEST_DIR/services.csv" 1 "$name" 2)
bytes=$(t3_field "$TEST_DIR/services.csv" 1 "$name" 4)
echo "# service $name: ${procs:-none} processes, ${bytes:-none} bytes"
expect 'the cgroup is a service with the shell and both cats' "test '${procs:-0}' = 3"
expect 'its reads include the file' "test '${bytes:-0}' -ge 4194304"
expect 'the cats are in it' \
	"test \$(awk -F, -v s='$name' '\$3 == \"cat\" && \$NF == s' '$TEST_DIR/procs.csv' | wc -l) = 2"
"$BOOTPROF" report "$TEST_DIR/r.dat" >"$TEST_DIR/report.txt"
expect 'the text report has the service section' \
	"sed -n '/^== I\\/O wait by service/,/^== /p' '$TEST_DIR/report.txt' | grep -q '$name\$'"
col=$(t3_col "$TEST_DIR/services.csv" first_exec_ns)
pcol=$(t3_col "$TEST_DIR/services.csv" first_exec)
first=$(t3_field "$TEST_DIR/services.csv" 1 "$name" "${col:-0}")
prog=$(t3_field "$TEST_DIR/services.csv" 1 "$name" "${pcol:-0}")
truth=$(t3_first_exec "$TEST_DIR/r.dat" "$name")
echo "# first exec ${first:-none} ${prog:-none}; in the raw events: ${truth:-none}"
expect 'its first exec is the first sched_process_exec made in the cgroup, to the microsecond' \
	"test -n '$first' && test \"\$(t3_us '$first') $prog\" = '$truth'"
expect "that exec is the first cat's, not the shell's" "test \"\$(basename '$prog')\" = cat"
"$BOOTPROF" top --batch --view services --width 200 "$TEST_DIR/r.dat" >"$TEST_DIR/top.txt"
fexec=$(awk -v n="${first:-0}" 'BEGIN { printf "%d.%03d", n / 1e9, (n / 1e6) % 1000 }')
expect "top's services view lists it with its 3 processes and first exec ($fexec)" \
	"grep -E ' 3 +[^ ]+ +$fexec +[^ ]+ $name\$' '$TEST_DIR/top.txt'"
