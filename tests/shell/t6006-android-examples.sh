#!/bin/sh
# The Android examples, as far as they can be checked without a device:
# examples/boot/android-init.rc passes scripts/check-android-rc.sh (init's
# language), and each of a set of broken copies fails with the one line
# that names the fault and its line; the service's bootprof options are
# collect's; the boot-completed line the .rc and android-record.sh write is
# the one the android plugin looks for; android-record.sh parses, passes
# shellcheck (when installed) and says what is missing in one line.
. "$(dirname "$0")/../test-lib.sh"

RC=$TOP/examples/boot/android-init.rc
REC=$TOP/examples/boot/android-record.sh
CHECK=$TOP/scripts/check-android-rc.sh

expect "android-init.rc passes the check" "'$CHECK' '$RC' >'$TEST_DIR/out' 2>&1 && ! test -s '$TEST_DIR/out'"
# Cases: a sed edit of the .rc | the one line the check must print.
while IFS='|' read -r edit want; do
	sed "$edit" "$RC" >"$TEST_DIR/bad.rc"
	echo "$TEST_DIR/bad.rc:$want" >"$TEST_DIR/want"
	expect "broken: $want" \
		"! '$CHECK' '$TEST_DIR/bad.rc' >'$TEST_DIR/out' 2>&1 && cmp -s '$TEST_DIR/want' '$TEST_DIR/out'"
done <<'EOF_CASES'
s/^    start bootprof/    start bootprofd/|25: no service bootprofd in this file
s/^    mkdir \/dev\/bootprof 0700/    mkdir \/dev\/bootprof 0789/|24: mkdir: mode "0789" is not octal
s/^    seclabel u:r:su:s0/    seclabel su/|33: seclabel takes one label u:r:DOMAIN:s0, not "su"
s/^    oneshot/    one-shot/|31: unknown service option "one-shot"
s/^    write \/dev\/bootprof\/stop 1/    write \/dev\/bootprof\/stop/|39: write takes 2 arguments, not 1
s/^    copy /    cp /|43: unknown command "cp"
s/^on early-init/on early-init \&\& boot/|23: at most one event trigger per on
s/^on property:sys.boot_completed=1$/on property:sys.boot_completed/|35: bad property trigger "property:sys.boot_completed" (property:NAME=VALUE)
s/ \/system\/bin\/bootprof collect/ system\/bin\/bootprof collect/|27: service bootprof: the path "system/bin/bootprof" is not absolute
/instances/s/=1"$/=1/|36: unterminated quote
EOF_CASES
expect "a file that cannot be read: one line, status 1" \
	"! '$CHECK' '$TEST_DIR/nosuch.rc' 2>'$TEST_DIR/err' && [ \"\$(wc -l <'$TEST_DIR/err')\" = 1 ]"

opts=$(sed -n 's/^service bootprof \/system\/bin\/bootprof collect //p' "$RC" | tr ' ' '\n' | grep '^-')
"$BOOTPROF" collect --list-opts >"$TEST_DIR/opts" 2>&1
for o in $opts; do
	[ "$o" = -o ] && o=--output
	expect "the service's collect option $o is collect's" "grep -qx -- '$o' '$TEST_DIR/opts'"
done
mark=$(sed -n 's/^#define BOOT_COMPLETED "\(.*\)"$/\1/p' "$TOP/plugins/android.c")
expect "the .rc and android-record.sh write the plugin's boot-completed line ('$mark')" \
	"[ -n '$mark' ] && [ \"\$(grep -c 'trace_marker \"$mark\"\$' '$RC')\" = 2 ] &&
	 grep -q '^MARK=\"$mark\"\$' '$REC'"

expect "android-record.sh parses" "sh -n '$REC'"
if command -v shellcheck >/dev/null 2>&1; then
	expect "android-record.sh passes shellcheck" "shellcheck -s sh '$REC' '$CHECK'"
else
	skip "android-record.sh passes shellcheck" "shellcheck not installed"
fi
expect "android-record.sh without a command: usage, status 2" \
	"'$REC' 2>'$TEST_DIR/err'; [ \$? = 2 ] && grep -q '^usage: android-record.sh cmdline BOOT.IMG' '$TEST_DIR/err'"
expect "android-record.sh without adb: one line, status 1" \
	"ADB=/nonexistent/adb '$REC' remount 2>'$TEST_DIR/err'; [ \$? = 1 ] &&
	 [ \"\$(cat '$TEST_DIR/err')\" = 'android-record: /nonexistent/adb not found (set ADB)' ]"
expect "android-record.sh without the static arm64 build: one line, status 1" \
	"ADB=true BOOTPROF='$BOOTPROF' BOOTPROF_ARM64=/nonexistent '$REC' remount 2>'$TEST_DIR/err'; [ \$? = 1 ] &&
	 [ \"\$(cat '$TEST_DIR/err')\" = \"android-record: no static arm64 bootprof at '/nonexistent' (make static ARCH=arm64)\" ]"
