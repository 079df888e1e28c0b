#!/bin/sh
# The initcall plugin on a real early-boot recording: a Debian kernel boots
# under QEMU with bootprof as init and `bootprof cmdline`'s words (which
# enable initcall:* before the first initcall). Ground truth is the raw
# event stream of the same recording (bootprof dump): the plugin counts
# every initcall_start/initcall_finish pair, its slowest initcall is the
# pair with the longest span, with the same duration and function, and its
# levels add up to the total. The unit test tests/unit/test-plugin.c covers
# symbol names from kallsyms on the real event formats.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
. "$TOP/tests/boot/lib.sh"
require_root
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
if "$BOOTPROF" report --list-plugins 2>&1 | grep -q 'not built yet'; then
	skip_all "bootprof report is not built yet"
fi
boot_require_tools >"$TEST_DIR/.why" 2>&1 || skip_all "$(cat "$TEST_DIR/.why")"
[ -x "$BOOT_STATIC" ] || make -s -C "$TOP" static >/dev/null 2>&1
[ -x "$BOOT_STATIC" ] || skip_all "no static bootprof ($BOOT_STATIC; make static)"
boot_kernel 6.12 2>"$TEST_DIR/.why" || boot_kernel 6.1 2>>"$TEST_DIR/.why" ||
	skip_all "no kernel to boot: $(tail -n 1 "$TEST_DIR/.why")"
boot_build_initramfs && boot_build_disk || skip_all "cannot build the boot images"
words=$("$BOOTPROF" cmdline --kernel "$KREL" --buffer-size 8192 2>/dev/null)
case "$words" in
*initcall*) ;;
*) skip_all "bootprof cmdline does not enable initcall events for $KREL" ;;
esac
boot_scenario boot 300 "$words bootprof.until-file=/run/test-done"
boot_fetch_recording || skip_all "the boot saved no recording (see boot.console)"
rec=$TEST_DIR/latest.dat
echo "# $KREL booted in $BOOT_SECONDS s"

# Pairs from the raw stream: "TS [CPU] PID COMM initcall_start: func=F".
"$BOOTPROF" dump "$rec" 2>/dev/null | awk '
	$5 == "initcall_start:" { f[$3] = $6; t[$3] = $1; next }
	$5 == "initcall_finish:" && ($3 in f) && f[$3] == $6 {
		d = $1 - t[$3]; n++; total += d
		if (d > max) { max = d; mf = $6 }
		delete f[$3]
	}
	END { printf "%d %.6f %.6f %s\n", n, max, total, mf }' >"$TEST_DIR/truth"
read n max total func <"$TEST_DIR/truth"
echo "# dump: $n initcalls, slowest $max s ($func), $total s in all"

"$BOOTPROF" report --format json --plugin initcall "$rec" >"$TEST_DIR/i.json" 2>"$TEST_DIR/err"
j() { jq -r ".plugins.initcall$1" "$TEST_DIR/i.json"; }
expect "it counts every initcall of the stream ($n)" "test \"\$(j .count)\" = '$n' && test '$n' -gt 100"
expect 'the slowest initcall has the longest span of the stream' \
	"awk -v a=\"\$(j '.slowest[0].duration_ns')\" -v b='$max' 'BEGIN { d = a / 1e9 - b; if (d < 0) d = -d; exit !(d <= 0.000002) }'"
# dump prints the function as the kernel would (%pS): a symbol or an address.
expect "and is the same function ($func)" \
	"case '$func' in
	 func=0x*) test \"func=\$(j '.slowest[0].func')\" = '$func' ;;
	 *) case '$func' in func=\"\$(j '.slowest[0].symbol')\"*) true ;; *) false ;; esac ;;
	 esac"
expect 'the total is the sum of the spans' \
	"awk -v a=\"\$(j .total_ns)\" -v b='$total' 'BEGIN { d = a / 1e9 - b; if (d < 0) d = -d; exit !(d <= 0.00001 * $n + 0.000001) }'"
nlev=$("$BOOTPROF" dump "$rec" 2>/dev/null | grep -c ' initcall_level: ')
if [ "$nlev" -gt 0 ]; then
	expect "the time per level is within the total ($nlev level events)" \
		"test \"\$(j '.levels | map(.total_ns) | add')\" -le \"\$(j .total_ns)\" && test \"\$(j '.levels | length')\" -ge 5"
else
	expect 'no initcall_level events recorded: no levels' "test \"\$(j '.levels | length')\" = 0"
fi
"$BOOTPROF" report --plugin initcall "$rec" >"$TEST_DIR/i.txt" 2>/dev/null
expect 'the text report lists the slowest initcalls' \
	"sed -n '/^== initcall: slowest initcalls/,/^== /p' '$TEST_DIR/i.txt' | grep -q '^DURATION'"
