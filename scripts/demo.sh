#!/bin/sh
# make demo: record the two Android boot stories with bootprof and print
# their reports. Needs root (tracing, dropping caches).
#   1. zygote: one process preloading classes from a large archive through
#      a mapping - the top process by I/O wait, the archive its worst file;
#      then the same with 4 threads, overlapping CPU and I/O.
#   2. package-scan: 20 packages mapped to read one manifest each - the
#      archives top "read but never used"; then --smart, which reads only
#      the central directory and that entry.
# DEMO_DIR (default /var/tmp/bootprof-demo) holds the archives and recordings.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
BP=$TOP/bootprof
EX=$TOP/build/examples
DIR=${DEMO_DIR:-/var/tmp/bootprof-demo}

if [ "$(id -u)" != 0 ]; then
	echo "bootprof demo: recording needs root; run: sudo make demo" >&2
	exit 1
fi
for x in "$BP" "$EX/zygote/zygote" "$EX/package-scan/package-scan"; do
	[ -x "$x" ] || { echo "bootprof demo: '$x' is missing; run make first" >&2; exit 1; }
done
mkdir -p "$DIR"
cd "$DIR"
# Create the archives first, so recordings show reading them, not writing them.
"$EX/zygote/zygote" --classes 1 >/dev/null
"$EX/package-scan/package-scan" >/dev/null

run() {
	name=$1
	shift
	sync
	echo 3 >/proc/sys/vm/drop_caches
	rm -f "$name.dat"
	echo "### bootprof record -o $DIR/$name.dat -- $*"
	"$BP" record -o "$name.dat" -- "$@"
}

run zygote "$EX/zygote/zygote"
run zygote-threads "$EX/zygote/zygote" --threads 4
run package-scan "$EX/package-scan/package-scan"
run package-scan-smart "$EX/package-scan/package-scan" --smart

echo
echo "### bootprof report --top 5 $DIR/zygote.dat"
"$BP" report --top 5 zygote.dat
echo
echo "### zygote with 4 threads: its I/O wait and CPU idle time"
"$BP" report --top 3 --comm zygote zygote-threads.dat | sed -n '/^== Summary/,/^== Top files by I\/O/p'
echo
echo "### bootprof report --top 5 $DIR/package-scan.dat (naive)"
"$BP" report --top 5 package-scan.dat
echo
echo "### package-scan --smart: what it read and never used"
"$BP" report --top 5 --comm package-scan package-scan-smart.dat |
	sed -n '/^== Top processes/,/^== Re-read/p'
