#!/bin/sh
# bootprof boot: the usage and the refusals that touch nothing (the entry
# itself is written, booted and removed by tests/boot/t4560-boot-once.sh,
# in a guest: never on this machine's boot loader).
. "$(dirname "$0")/../test-lib.sh"

one_line() { # STATUS ARGS...: exits STATUS with one line on stderr, nothing on stdout
	_want=$1
	shift
	"$BOOTPROF" boot "$@" >"$TEST_DIR/out" 2>"$TEST_DIR/err"
	_rc=$?
	[ $_rc = "$_want" ] && [ ! -s "$TEST_DIR/out" ] && grep -q '^bootprof: ' "$TEST_DIR/err" &&
		[ "$(grep -vc '^Try ' "$TEST_DIR/err")" = 1 ]
}
expect "no mode: usage error, one line" "one_line 2"
expect "two modes: usage error" "one_line 2 --once --undo && grep -q 'want one of --once, --status, --undo' '$TEST_DIR/err'"
expect "a bad --until: usage error naming what is wanted" \
	"one_line 2 --once --until lunch && grep -q \"bad --until 'lunch' (want greeter, a systemd target\" '$TEST_DIR/err'"
expect "--until exec: with a path: refused" "one_line 2 --once --until exec:/bin/sh"
expect "--init relative: refused" "one_line 2 --once --init sbin/init --until multi-user.target"
expect "a bad --duration: usage error" "one_line 2 --once --duration soon"
expect "--status reads only, and says when nothing is pending" \
	"[ -e /etc/grub.d/42_bootprof ] || '$BOOTPROF' boot --status | grep -q '^no boot entry of bootprof: boots are not recorded\$'"
if [ "$(id -u)" != 0 ]; then
	expect "--once as a user: refused before anything is written" \
		"one_line 1 --once --until multi-user.target && grep -q 'needs root' '$TEST_DIR/err'"
fi
expect "-h: the usage, on stdout" "'$BOOTPROF' boot -h | grep -q '^usage: bootprof boot --once'"
