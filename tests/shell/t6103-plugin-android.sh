#!/bin/sh
# The android plugin on real recordings.
#
# Zygote: a program named zygote-PID (a copy of sh) forks readers of a .jar,
# an .apk, an .oat, a .so and a text file from a cold cache. Its tree's
# I/O wait splits by archive type exactly as the model charges the wait to
# those files, the splits add up to the tree's wait, and each type's bytes
# cover its file. Package scan: dd reads one page of each of three 2 MiB
# APKs; the plugin reports, per APK, 4 KiB used out of the readahead
# window read. With examples/zygote and examples/package-scan built, their
# recordings are checked the same way.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
if "$BOOTPROF" report --list-plugins 2>&1 | grep -q 'not built yet'; then
	skip_all "bootprof report is not built yet"
fi

D=$TEST_DIR/system
mkdir -p "$D/framework" "$D/app" "$D/lib" "$D/scan"
head -c 4194304 /dev/urandom >"$D/framework/framework.jar"
head -c 2097152 /dev/urandom >"$D/app/Settings.apk"
head -c 3145728 /dev/urandom >"$D/framework/boot.oat"
head -c 1048576 /dev/urandom >"$D/lib/libandroid_runtime.so"
head -c 524288 /dev/urandom >"$D/framework/preloaded-classes"
for a in One Two Three; do head -c 2097152 /dev/urandom >"$D/scan/$a.apk"; done
# Named uniquely: other zygotes (examples/zygote in other tests) may run meanwhile.
zy=zygote-$$
cp /bin/sh "$TEST_DIR/$zy"

drop_caches
"$BOOTPROF_FAST" record -o "$TEST_DIR/z.dat" -- sh -c "
	'$TEST_DIR/$zy' -c 'for f in framework/framework.jar app/Settings.apk framework/boot.oat \
		lib/libandroid_runtime.so framework/preloaded-classes; do cat \"$D/\$f\" >/dev/null; done'
	for a in One Two Three; do dd if='$D/scan/'\$a.apk of=/dev/null bs=4096 count=1 2>/dev/null; done
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
	if [ "$k" = other ]; then
		# "other" also holds the shell and cat binaries the tree read.
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
# The waits of one process never overlap, so the tree's waiting wall time
# covers the largest process wait; idle time is a part of it.
maxw=$(jq --arg z "$TEST_DIR/$zy" "$tree | max" "$TEST_DIR/z.json")
span=$(jq .totals.span_ns "$TEST_DIR/z.json")
expect "the tree's waiting wall time covers its largest process wait (${maxw:-?} ns)" \
	"test \"\$(z .waiting_wall_ns)\" -ge \$((${maxw:-1} * 95 / 100)) && test \"\$(z .waiting_wall_ns)\" -le '$span'"
# Waits end where the model ends them (at the wakeup), so the wall time is
# at most the summed wait.
expect 'and is at most the summed wait of the tree' \
	"test \"\$(z .waiting_wall_ns)\" -le \$((\$(z .wait_ns) * 105 / 100 + 1000000))"
expect 'CPU idle while waiting is a part of the waiting time' \
	"test \"\$(z .cpu_idle_while_waiting_ns)\" -le \"\$(z .waiting_wall_ns)\""

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
