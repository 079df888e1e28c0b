#!/bin/sh
# A bootprof command run as PID 1 of a new PID namespace (a container's
# entrypoint) runs that command; it never turns into the init wrapper.
#
# Safety first: every init candidate is replaced by a harmless fake through
# bind mounts in a private mount namespace BEFORE bootprof runs there, so
# nothing here can ever start this machine's real init. The fake writes a
# marker; the marker must never appear.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_root
command -v unshare >/dev/null || skip_all "unshare not installed"
unshare --pid --fork --mount true 2>/dev/null || skip_all "cannot make PID and mount namespaces"

FIXTURE=$TOP/tests/fixtures/basic.dat
MARK=$TEST_DIR/init-ran
DASH=$(command -v dash || echo /bin/dash)
[ -x "$DASH" ] || skip_all "dash not installed (the fake init's interpreter)"
# /bin/sh may be dash itself, and it gets covered: the fake and the
# namespace's shell run from a copy.
cp "$DASH" "$TEST_DIR/dash"
DASH=$TEST_DIR/dash

# The fake: says it ran, then exits (as PID 1 that ends the namespace).
cat >"$TEST_DIR/fake-init" <<EOF
#!$DASH
echo "\$0 \$*" >>'$MARK'
exit 99
EOF
chmod 755 "$TEST_DIR/fake-init"

# Every path a kernel, bootprof or a distro would exec as init. Absent ones
# cannot be exec'd. /bin/sh is the last fallback.
CANDIDATES="/sbin/init /etc/init /bin/init /init /usr/sbin/init /usr/bin/init \
/lib/systemd/systemd /usr/lib/systemd/systemd /sbin/upstart /bin/sh /usr/bin/sh \
/sbin/openrc-init /bin/busybox"

# in_container CMD...: run CMD as PID 1 of a new PID namespace, with the fakes.
in_container() {
	unshare --pid --fork --mount --propagation private "$DASH" -c '
		fake=$1
		shift
		# Cover the file a link points to (a mount on the link itself makes
		# exec fail with ELOOP instead of running the fake).
		for c in '"$CANDIDATES"'; do
			[ -e "$c" ] || continue
			t=$(readlink -f "$c")
			cmp -s "$fake" "$t" && continue
			mount --bind "$fake" "$t" || { echo "cannot cover $c" >&2; exit 97; }
		done
		# Prove the cover: every candidate now is the fake.
		for c in '"$CANDIDATES"'; do
			[ -e "$c" ] || continue
			cmp -s "$fake" "$c" || { echo "$c not covered" >&2; exit 98; }
		done
		exec "$@"' fake "$TEST_DIR/fake-init" "$@"
}

# The fakes work: exec'ing /sbin/init in the namespace runs the fake.
in_container /sbin/init >"$TEST_DIR/fake.out" 2>&1
rc=$?
expect "the fake stands in for /sbin/init" "[ $rc = 99 ] && [ -s '$MARK' ] || { echo rc=$rc; cat '$TEST_DIR/fake.out'; false; }"
rm -f "$MARK"

in_container "$BOOTPROF" report "$FIXTURE" >"$TEST_DIR/report.out" 2>"$TEST_DIR/report.err"
rc=$?
expect "report as PID 1 exits 0" "[ $rc = 0 ] || { cat '$TEST_DIR/report.err'; false; }"
expect "report as PID 1 prints the report" \
	"$BOOTPROF report '$FIXTURE' | cmp - '$TEST_DIR/report.out'"
expect "report as PID 1 exec'd no init" "! [ -e '$MARK' ]"

in_container "$BOOTPROF" dump --count "$FIXTURE" >"$TEST_DIR/dump.out" 2>"$TEST_DIR/dump.err"
rc=$?
expect "dump as PID 1 exits 0" "[ $rc = 0 ] || { cat '$TEST_DIR/dump.err'; false; }"
expect "dump as PID 1 prints the count" \
	"$BOOTPROF dump --count '$FIXTURE' | cmp - '$TEST_DIR/dump.out'"
expect "dump as PID 1 exec'd no init" "! [ -e '$MARK' ]"

# No command at all as PID 1 of a container: the usage, not init.
in_container "$BOOTPROF" >/dev/null 2>"$TEST_DIR/none.err"
rc=$?
expect "no command as PID 1 of a container prints the usage (exit 2)" \
	"[ $rc = 2 ] && grep -q '^usage: bootprof' '$TEST_DIR/none.err'"
expect "no command as PID 1 of a container exec'd no init" "! [ -e '$MARK' ]"

if [ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null; then
	before=$(ls $TRACEFS/instances | grep '^bootprof' | sort)
	in_container "$BOOTPROF" record -o "$TEST_DIR/rec.dat" --duration 1 \
		>/dev/null 2>"$TEST_DIR/record.err"
	rc=$?
	expect "record as PID 1 exits 0" "[ $rc = 0 ] || { cat '$TEST_DIR/record.err'; false; }"
	expect "record as PID 1 wrote a recording" \
		"$BOOTPROF dump --meta '$TEST_DIR/rec.dat' | grep -q '^# stop reason: duration'"
	expect "record as PID 1 exec'd no init" "! [ -e '$MARK' ]"
	# Its instance (bootprof-1 as the container sees itself) is gone; others untouched.
	after=$(ls $TRACEFS/instances | grep '^bootprof' | sort)
	expect "record as PID 1 left no instance of its own" \
		"! echo '$after' | grep -qx 'bootprof-1' || echo '$before' | grep -qx 'bootprof-1'"
else
	skip "record as PID 1" "tracefs not available"
fi
