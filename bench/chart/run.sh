#!/bin/sh
# Chart and export on a boot-sized recording (issue: a 10 M-event
# recording with 5 000 processes makes an SVG under 5 MB in under 2 s on
# one core). The recording is made once, as root, of bench/chart/forks.c:
# 5 000 processes, 4 at a time, each doing 600 small preads of a cached
# file. Prints the events, processes, the chart's CPU time (user + sys,
# which other load on the machine does not inflate) and size, the same for
# the export, and whether the targets are met. Best of 3.
#
#   bench/chart/run.sh [RECORDING]     (BENCH_DIR, default /var/tmp/bootprof-bench-chart)
set -e
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BP=${BOOTPROF:-$TOP/build/bootprof}
BENCH_NAME=${BENCH_NAME:-chart}
. "$TOP/bench/lib.sh"
DIR=${BENCH_DIR:-/var/tmp/bootprof-bench-chart}
DAT=${1:-$DIR/forks.dat}
TIME=/usr/bin/time
mkdir -p "$DIR"
[ -x "$TIME" ] || bench_skip "needs /usr/bin/time (apt-get install time)"
command -v jq >/dev/null || bench_skip "needs jq"

if [ ! -s "$DAT" ]; then
	[ "$(id -u)" = 0 ] || bench_skip "recording $DAT needs root"
	${CC:-cc} -O2 -o "$DIR/forks" "$TOP/bench/chart/forks.c"
	head -c 1048576 /dev/urandom >"$DIR/forks-file"
	cat "$DIR/forks-file" >/dev/null
	"$BP" record -f -b 131072 -o "$DAT" -- "$DIR/forks" "$DIR/forks-file" 5000 4 600 >/dev/null
fi
events=$("$BP" dump --count "$DAT" | awk '$2 == "total" { print $1 }')
procs=$("$BP" report --format json "$DAT" 2>/dev/null | jq '.processes | length')
cat "$DAT" >/dev/null

# best of 3: elapsed, user+sys CPU, peak RSS (KiB)
best() {
	b=
	for i in 1 2 3; do
		$TIME -f '%e %U %S %M' -o "$DIR/time" "$@" >/dev/null 2>&1
		read -r e u s rss <"$DIR/time"
		cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		if [ -z "$b" ] || awk -v a="$cpu" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$cpu be=$e brss=$rss
		fi
	done
	echo "$be $b $brss"
}

set -- $(best "$BP" chart "$DAT" -o "$DIR/forks.svg" --force)
ch_e=$1 ch_cpu=$2 ch_rss=$3
set -- $(best "$BP" report "$DAT")
rp_cpu=$2
set -- $(best "$BP" export -f chrome "$DAT" -o "$DIR/forks.json" --force)
ex_e=$1 ex_cpu=$2 ex_rss=$3
svg=$(stat -c %s "$DIR/forks.svg")
json=$(stat -c %s "$DIR/forks.json")
lanes=$(grep -c '<g class="lane' "$DIR/forks.svg" || true)
awk -v n="$events" -v p="$procs" -v ce="$ch_e" -v cc="$ch_cpu" -v cr="$ch_rss" -v rc="$rp_cpu" \
	-v ee="$ex_e" -v ec="$ex_cpu" -v er="$ex_rss" -v svg="$svg" -v json="$json" -v lanes="$lanes" 'BEGIN {
	printf "recording:        %d events, %d processes\n", n, p
	printf "bootprof report:  %.2f s CPU (one pass: the floor of each pass)\n", rc
	printf "bootprof chart:   %.2f s CPU (%.2f s elapsed), %.2f MB SVG, %d lanes, peak RSS %.0f MiB\n", cc, ce, svg / 1e6, lanes, cr / 1024
	printf "bootprof export:  %.2f s CPU (%.2f s elapsed), %.1f MB JSON, peak RSS %.0f MiB\n", ec, ee, json / 1e6, er / 1024
	printf "chart vs report:  %.2fx the CPU time of a report\n", cc / rc
	printf "export vs report: %.2fx the CPU time of a report\n", ec / rc
	printf "target chart < 2 s on one core: %s; SVG < 5 MB: %s\n", (cc < 2 ? "met" : "NOT met"), (svg < 5e6 ? "met" : "NOT met")
}'
bench_ratio "CPU time, bootprof chart" \
	"$(awk -v c="$ch_cpu" -v r="$rp_cpu" 'BEGIN { printf "%.2f", (r > 0 ? c / r : 0) }')" "bootprof report"
bench_ratio "CPU time, bootprof export" \
	"$(awk -v c="$ex_cpu" -v r="$rp_cpu" 'BEGIN { printf "%.2f", (r > 0 ? c / r : 0) }')" "bootprof report"
