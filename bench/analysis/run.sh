#!/bin/sh
# Analysis throughput: bootprof report vs trace-cmd report on the same
# recording of >= 5 M events (recorded once, as root, from an event-dense
# workload: small preads of a cached file). Prints events/s of both, their
# ratio and bootprof's peak RSS, and bootprof critical (the model's pass
# with the walk's log, then the walk to the command's exit) against
# report; its target: a 10 M-event recording's path in < 2 s of CPU. The target is >= 10 M events/s on one core,
# judged on CPU time (user + sys), which other load on the machine does not
# inflate the way it does elapsed time.
#
#   bench/analysis/run.sh [RECORDING]     (BENCH_DIR, default /var/tmp/bootprof-bench-analysis)
set -e
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BP=${BOOTPROF:-$TOP/build/bootprof}
BENCH_NAME=${BENCH_NAME:-analysis}
. "$TOP/bench/lib.sh"
DIR=${BENCH_DIR:-/var/tmp/bootprof-bench-analysis}
DAT=${1:-$DIR/busy.dat}
TIME=/usr/bin/time
mkdir -p "$DIR"
[ -x "$TIME" ] || bench_skip "needs /usr/bin/time (apt-get install time)"

if [ ! -s "$DAT" ]; then
	[ "$(id -u)" = 0 ] || bench_skip "recording $DAT needs root"
	${CC:-cc} -O2 -o "$DIR/busy" "$TOP/bench/analysis/busy.c"
	head -c 1048576 /dev/urandom >"$DIR/busy-file"
	"$BP" record -b 65536 -o "$DAT" -- "$DIR/busy" "$DIR/busy-file" 2000000 >/dev/null
fi
events=$("$BP" dump --count "$DAT" | awk '$2 == "total" { print $1 }')
[ "${events:-0}" -ge 5000000 ] || echo "bench: warning: only $events events in $DAT" >&2
cat "$DAT" >/dev/null   # both read it from the page cache

# best of 3: elapsed, user+sys CPU, peak RSS
best() {
	b=
	for i in 1 2 3; do
		$TIME -f '%e %U %S %M' -o "$DIR/time" "$@" >/dev/null 2>&1
		read -r e u s rss <"$DIR/time"
		cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		if [ -z "$b" ] || awk -v a="$e" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$e bcpu=$cpu brss=$rss
		fi
	done
	echo "$b $bcpu $brss"
}

set -- $(best "$BP" report "$DAT")
bp_e=$1 bp_cpu=$2 bp_rss=$3
set -- $(best "$BP" critical "$DAT")
cr_e=$1 cr_cpu=$2 cr_rss=$3
set -- $(best "$BP" dump --count "$DAT")
rd_e=$1 rd_rss=$3
if command -v trace-cmd >/dev/null; then
	$TIME -f '%e %U %S %M' -o "$DIR/time" trace-cmd report "$DAT" >/dev/null 2>&1 || true
	read -r tc_e tc_u tc_s tc_rss <"$DIR/time"
fi
awk -v n="$events" -v be="$bp_e" -v bc="$bp_cpu" -v rss="$bp_rss" -v rrss="$rd_rss" -v re="$rd_e" -v te="${tc_e:-0}" \
	-v ce="$cr_e" -v cc="$cr_cpu" -v crss="$cr_rss" 'BEGIN {
	printf "recording:               %d events\n", n
	printf "bootprof report:         %.2f s elapsed, %.2f s CPU: %.1f M events/s (%.1f M/s per CPU second)\n", be, bc, n / be / 1e6, n / bc / 1e6
	printf "reader alone (dump --count): %.2f s: %.1f M events/s\n", re, n / re / 1e6
	if (te > 0)
		printf "trace-cmd report:        %.2f s: %.2f M events/s; bootprof is %.0fx faster\n", te, n / te / 1e6, te / be
	printf "bootprof peak RSS:       %.0f MiB; reading alone %.0f MiB (the mapped recording): the model takes %.0f MiB\n", rss / 1024, rrss / 1024, (rss - rrss) / 1024
	printf "bootprof critical:       %.2f s elapsed, %.2f s CPU (%.2fx report), peak RSS %.0f MiB\n", ce, cc, cc / bc, crss / 1024
	# CPU seconds, not elapsed: the machine may be shared and busy.
	printf "target >= 10 M events/s on one core: %s\n", ((n / bc >= 10e6) ? "met" : "NOT met")
	printf "target: the path of 10 M events in < 2 s of CPU: %s (%.2f s at this rate)\n", ((cc / n * 10e6 < 2) ? "met" : "NOT met"), cc / n * 10e6
}'
[ -z "${tc_e:-}" ] || bench_ratio "events/s, bootprof report" \
	"$(awk -v be="$bp_e" -v te="$tc_e" 'BEGIN { printf "%.1f", te / be }')" "trace-cmd report"
bench_ratio "CPU time, bootprof critical" \
	"$(awk -v c="$cr_cpu" -v b="$bp_cpu" 'BEGIN { printf "%.2f", c / b }')" "bootprof report, same recording"
bench_ratio "events/s per CPU second, bootprof report" \
	"$(awk -v n="$events" -v bc="$bp_cpu" 'BEGIN { printf "%.2f", n / bc / 10e6 }')" \
	"target 10 M events/s on one core"
