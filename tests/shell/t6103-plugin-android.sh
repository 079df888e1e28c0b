#!/bin/sh
# The android plugin on real recordings: its numbers are the report's.
#
# Zygote: a program named zygote-PID (a copy of sh) forks readers of a .jar,
# an .apk, an .oat, a .so and a text file from a cold cache. Its tree's
# I/O wait is the report's for those processes and splits by archive type
# exactly as the model charges the wait to those files; each type's bytes
# cover its file. The tree's waiting wall time and the CPU idle meanwhile
# are computed again here, independently: the union of the tree's I/O-wait
# spans in `bootprof export --format chrome`, cut by the instants every CPU
# ran its idle task in trace-cmd's own reading of the sched_switch events
# (t3_waiting); over every process, that is the report's CPU idle while
# waiting.
# system_server (a copy of sh by that name) has its process row's numbers.
# Package scan: system_server's dd reads one page of each of three 2 MiB
# APKs; the plugin reports, per APK, 4 KiB used out of the readahead window
# read. With examples/zygote and examples/package-scan built, their
# recordings are checked the same way.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$(dirname "$0")/lib-t3.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
command -v trace-cmd >/dev/null 2>&1 || skip_all "trace-cmd not installed"
if "$BOOTPROF" report --list-plugins 2>&1 | grep -q 'not built yet'; then
	skip_all "bootprof report is not built yet"
fi

D=$TEST_DIR/system
mkdir -p "$D/framework" "$D/app" "$D/lib" "$D/scan" "$D/etc"
head -c 4194304 /dev/urandom >"$D/framework/framework.jar"
head -c 2097152 /dev/urandom >"$D/app/Settings.apk"
head -c 3145728 /dev/urandom >"$D/framework/boot.oat"
head -c 1048576 /dev/urandom >"$D/lib/libandroid_runtime.so"
head -c 524288 /dev/urandom >"$D/framework/preloaded-classes"
for a in One Two Three; do head -c 2097152 /dev/urandom >"$D/scan/$a.apk"; done
head -c 65536 /dev/urandom | base64 >"$D/etc/packages.xml"
# Named uniquely: other zygotes (examples/zygote in other tests) may run meanwhile.
zy=zygote-$$
cp /bin/sh "$TEST_DIR/$zy"
cp /bin/sh "$TEST_DIR/system_server"

drop_caches
"$BOOTPROF_FAST" record -o "$TEST_DIR/z.dat" -- sh -c "
	'$TEST_DIR/$zy' -c 'for f in framework/framework.jar app/Settings.apk framework/boot.oat \
		lib/libandroid_runtime.so framework/preloaded-classes; do cat \"$D/\$f\" >/dev/null; done'
	'$TEST_DIR/system_server' -c 'read -r l <\"$D/etc/packages.xml\"; for a in One Two Three; do
		dd if=\"$D/scan/\$a.apk\" of=/dev/null bs=4096 count=1 2>/dev/null; done'
" 2>"$TEST_DIR/rec.err" || { cat "$TEST_DIR/rec.err"; skip_all "recording failed"; }

"$BOOTPROF" report --format json --plugin-opt android.process=$zy \
	--plugin-opt "android.archives=*/scan/*.apk" "$TEST_DIR/z.dat" >"$TEST_DIR/z.json" 2>"$TEST_DIR/err"
z() { jq -r ".plugins.android.zygote$1" "$TEST_DIR/z.json"; }
# The model's wait on a file, over all its readers (only the zygote tree reads these).
fw() { jq -r --arg p "$D/$1" '.files[] | select(.path == $p) | .wait_ns' "$TEST_DIR/z.json"; }

expect "one process matches $zy; its tree has it and its 5 cats" \
	"test \"\$(z .matched)\" = 1 && test \"\$(z .processes)\" = 6"
for t in jar:framework/framework.jar:4194304 apk:app/Settings.apk:2097152 \
	oat:framework/boot.oat:3145728 so:lib/libandroid_runtime.so:1048576 \
	other:framework/preloaded-classes:524288; do
	k=${t%%:*} rest=${t#*:}
	f=${rest%%:*} size=${rest#*:}
	if [ "$k" = other ] || [ "$k" = so ]; then
		# "other" also holds the shell and cat binaries the tree read, and
		# "so" their shared libraries when the cold cache made them wait.
		expect "$k: wait includes $f's, bytes cover it" \
			"test \"\$(z .by_archive.$k.wait_ns)\" -ge \"\$(fw $f)\" && test \"\$(z .by_archive.$k.bytes_read)\" -ge $size"
	else
		expect "$k: wait is the model's wait on $f, bytes cover it ($size)" \
			"test \"\$(z .by_archive.$k.wait_ns)\" = \"\$(fw $f)\" && test \"\$(z .by_archive.$k.bytes_read)\" -ge $size"
	fi
done
expect 'the jar waited (cold cache)' "test \"\$(z .by_archive.jar.wait_ns)\" -gt 0"
expect 'the split adds up to the tree wait' \
	"test \"\$(jq '.plugins.android.zygote | [.by_archive[].wait_ns] | add' '$TEST_DIR/z.json')\" = \"\$(z .wait_ns)\""
# The tree in the model: the zygote and the processes it forked.
tree='(.processes[] | select(.exec[0] == $z) | .pid) as $zp | [.processes[] | select(.pid == $zp or .ppid == $zp) | .wait_ns]'
expect 'the tree wait is the sum of its processes in the model' \
	"test \"\$(z .wait_ns)\" = \"\$(jq --arg z '$TEST_DIR/$zy' \"\$tree | add\" '$TEST_DIR/z.json')\""
expect "the tree wait is the zygote's tree wait in the report" \
	"test \"\$(z .wait_ns)\" = \"\$(jq --arg z '$TEST_DIR/$zy' '.processes[] | select(.exec[0] == \$z) | .tree_wait_ns' '$TEST_DIR/z.json')\""
pids=$(jq -r --arg z "$TEST_DIR/$zy" '(.processes[] | select(.exec[0] == $z) | .pid) as $zp |
	[.processes[] | select(.pid == $zp or .ppid == $zp) | .pid] | map(tostring) | join(" ")' "$TEST_DIR/z.json")
w=$(t3_waiting "$TEST_DIR/z.dat" "$pids")
expect "the tree's waiting wall time and CPU idle meanwhile, computed again: ${w:-?} ns" \
	"test -n '$w' && test \"\$(z .waiting_wall_ns) \$(z .cpu_idle_while_waiting_ns)\" = '$w'"
w=$(t3_waiting "$TEST_DIR/z.dat")
expect "every process: CPU idle while waiting is the report's, computed again: ${w:-?} ns" \
	"test -n '$w' && test \"\${w#* }\" = \"\$(jq .totals.idle_wait_ns '$TEST_DIR/z.json')\""
expect 'the tree waited, and the wall time is at most the summed wait' \
	"test \"\$(z .waiting_wall_ns)\" -gt 0 && test \"\$(z .waiting_wall_ns)\" -le \"\$(z .wait_ns)\""

# system_server: its process row in the report.
ss() { jq -r ".plugins.android.system_server$1" "$TEST_DIR/z.json"; }
row() { jq -r ".processes[] | select(.comm == \"system_server\") | $1" "$TEST_DIR/z.json"; }
expect 'system_server: one process, its wait, CPU and bytes are its row' \
	"test \"\$(ss .processes)\" = 1 && test \"\$(ss .wait_ns)\" = \"\$(row .wait_ns)\" &&
	 test \"\$(ss .run_ns)\" = \"\$(row .run_ns)\" && test \"\$(ss .bytes_read)\" = \"\$(row .bytes_read)\" &&
	 test \"\$(ss .bytes_read)\" -gt 0"
w=$(t3_waiting "$TEST_DIR/z.dat" "$(row .pid)")
expect "system_server: waiting wall time and CPU idle meanwhile, computed again: ${w:-?} ns" \
	"test -n '$w' && test \"\$(ss .waiting_wall_ns) \$(ss .cpu_idle_while_waiting_ns)\" = '$w'"

s() { jq -r --arg p "$D/scan/$1.apk" ".plugins.android.package_scan.files[] | select(.path == \$p) | .$2" "$TEST_DIR/z.json"; }
expect 'package scan: the three APKs, nothing else' \
	"test \"\$(jq .plugins.android.package_scan.count '$TEST_DIR/z.json')\" = 3"
for a in One Two Three; do
	expect "$a.apk: one page used, more read, the rest never used" \
		"test \"\$(s $a used_bytes)\" = 4096 && test \"\$(s $a bytes_read)\" -gt 4096 &&
		 test \"\$(s $a never_used_bytes)\" = \$((\$(s $a bytes_read) - 4096))"
done

"$BOOTPROF" report --plugin-opt android.process=$zy "$TEST_DIR/z.dat" >"$TEST_DIR/z.txt" 2>/dev/null
expect 'the text report has the zygote split and the package scan' \
	"sed -n '/^== android: zygote preload\$/,/^== /p' '$TEST_DIR/z.txt' >'$TEST_DIR/zy' &&
	 sed -n '/^== android: package scan\$/,/^== /p' '$TEST_DIR/z.txt' >'$TEST_DIR/ps' &&
	 grep -q '^Zygote' '$TEST_DIR/zy' && grep -q '^jar ' '$TEST_DIR/zy' &&
	 grep -q 'scan/One.apk\$' '$TEST_DIR/ps'"
expect 'without the plugin there is no such section' \
	"! '$BOOTPROF' report --plugin polling '$TEST_DIR/z.dat' 2>/dev/null | grep -q '^== android'"

# The example workloads (examples/zygote, examples/package-scan), when built:
# their archives are made once in the scratch directory, then read cold.
ex=$BUILD/examples
if [ -x "$ex/zygote/zygote" ] && [ -x "$ex/package-scan/package-scan" ]; then
	cd "$TEST_DIR" || exit 1
	"$ex/zygote/zygote" --size 64 --classes 1 >/dev/null
	"$ex/package-scan/package-scan" --count 8 --size 4 >/dev/null
	sync
	drop_caches
	"$BOOTPROF_FAST" record -o ex.dat -- "$ex/zygote/zygote" --size 64 --classes 8000 >/dev/null 2>&1
	# Its exec path, not "zygote": other tests may run their own meanwhile.
	"$BOOTPROF" report --format json --plugin-opt "android.process=$ex/zygote/zygote" ex.dat >ex.json 2>/dev/null
	expect 'examples/zygote: found, at least 80% of its wait on the jar' \
		"jq -e '.plugins.android.zygote | .matched == 1 and .wait_ns > 0 and
			.by_archive.jar.wait_ns * 10 >= .wait_ns * 8' ex.json >/dev/null"
	expect 'examples/zygote: the split adds up to its wait' \
		"jq -e '.plugins.android.zygote | ([.by_archive[].wait_ns] | add) == .wait_ns' ex.json >/dev/null"
	expect "examples/zygote: its wait is the report's for zygote's tree" \
		"jq -e --arg z '$ex/zygote/zygote' '[.processes[] | select(.exec[0] == \$z)] as \$p |
			{ plugin: .plugins.android.zygote.wait_ns, rows: [\$p[] | { pid, tree_wait_ns, tree_processes }] } |
			debug | (.rows | length == 1) and .rows[0].tree_wait_ns == .plugin' ex.json >/dev/null"
	w=$(t3_waiting ex.dat "$(jq -r --arg z "$ex/zygote/zygote" '.processes[] | select(.exec[0] == $z) | .pid' ex.json)")
	expect "examples/zygote: waiting wall time and CPU idle meanwhile, computed again: ${w:-?} ns" \
		"test -n '$w' && test \"\$(jq -r '.plugins.android.zygote | \"\\(.waiting_wall_ns) \\(.cpu_idle_while_waiting_ns)\"' ex.json)\" = '$w'"
	# Every process's (--all): the report's totals are the command tree's by default.
	w=$(t3_waiting ex.dat)
	"$BOOTPROF" report --format json --all ex.dat >ex-all.json 2>/dev/null
	expect "examples/zygote: CPU idle while waiting is the report's (--all), computed again: ${w:-?} ns" \
		"test -n '$w' && test \"\${w#* }\" = \"\$(jq .totals.idle_wait_ns ex-all.json)\""
	drop_caches
	"$BOOTPROF_FAST" record -o ps.dat -- "$ex/package-scan/package-scan" --count 8 --size 4 >/dev/null 2>&1
	"$BOOTPROF" report --format json --plugin-opt "android.archives=$TEST_DIR/packages/*.apk" ps.dat >ps.json 2>/dev/null
	expect 'examples/package-scan: its 8 archives, each mostly never used, as the model says' \
		"jq -e '.plugins.android.package_scan as \$p | \$p.count == 8 and
			all(\$p.files[]; .never_used_bytes * 10 >= .bytes_read * 8) and
			(\$p.never_used_bytes == ([.files[] | select(.path | startswith(\"$TEST_DIR/packages/\")) | .never_used_bytes] | add))' ps.json >/dev/null"
else
	skip 'examples/zygote and examples/package-scan' "not built ($ex)"
fi
