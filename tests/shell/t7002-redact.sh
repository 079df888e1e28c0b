#!/bin/sh
# report --redact: no user path, hostname, recorded command or kernel
# command-line value appears in the text or JSON report; the same path gets
# the same token in two recordings; every number is unchanged.
# tags: serial
. "$(dirname "$0")/../test-lib.sh"
require_tracefs
command -v python3 >/dev/null || skip_all "python3 not installed"

# A private directory: /var/tmp is outside the system directories.
secret=$TEST_DIR/alice-secret-project
mkdir -p "$secret"
head -c 300000 /dev/urandom >"$secret/notes.txt"
cp /bin/cat "$secret/mycat"
for n in 1 2; do
	drop_caches
	$BOOTPROF_FAST record -o "$TEST_DIR/r$n.dat" -- \
		sh -c "'$secret/mycat' '$secret/notes.txt' /etc/services >/dev/null" 2>/dev/null
done
expect 'the recordings name the private files (else this test proves nothing)' \
	"$BOOTPROF_FAST report --format json '$TEST_DIR/r1.dat' | grep -q alice-secret-project/notes.txt"

for n in 1 2; do
	$BOOTPROF report --redact "$TEST_DIR/r$n.dat" >"$TEST_DIR/r$n.txt" 2>"$TEST_DIR/r$n.err"
	$BOOTPROF report --redact --format json "$TEST_DIR/r$n.dat" >"$TEST_DIR/r$n.json" 2>>"$TEST_DIR/r$n.err"
	$BOOTPROF report --format json "$TEST_DIR/r$n.dat" >"$TEST_DIR/r$n.plain.json" 2>/dev/null
done
all="$TEST_DIR/r1.txt $TEST_DIR/r1.json $TEST_DIR/r2.txt $TEST_DIR/r2.json $TEST_DIR/r1.err"

expect 'no user path' "! grep -e alice-secret -e '$TEST_DIR' -e /var/tmp $all"
expect 'no recorded command' "! grep -e 'notes.txt' -e mycat $all"
expect 'no hostname' \
	"python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))[\"recording\"][\"hostname\"]; sys.exit(not h.startswith(\"[host \"))' '$TEST_DIR/r1.json' &&
	 ! grep -w -F '$(hostname)' $TEST_DIR/r1.json | grep -v -e '\"kernel' -e '\"machine'"
# Every key=value of this kernel's command line: the key stays, the value goes.
for w in $(tr ' ' '\n' </proc/cmdline | grep = | head -n 20); do
	expect "no kernel cmdline value: $w" "! grep -q -F -- '$w' $all && grep -q -F -- '${w%%=*}=#' '$TEST_DIR/r1.json'"
done
expect 'system paths kept' "grep -q /etc/services '$TEST_DIR/r1.json'"
expect 'the private file is there, as a token' "grep -q '\"\\[path [0-9a-f]\\{8\\}\\]\"' '$TEST_DIR/r1.json'"

# The same path, the same token, in both recordings (and runs).
python3 - "$TEST_DIR" "$secret/notes.txt" >"$TEST_DIR/tokens" <<'PY'
import json, sys
d, secret = sys.argv[1], sys.argv[2]
def files(name):
    return json.load(open('%s/%s' % (d, name)))['files']
for n in (1, 2):
    plain = {(f['dev'], f['ino']): f['path'] for f in files('r%d.plain.json' % n)}
    red = {(f['dev'], f['ino']): f['path'] for f in files('r%d.json' % n)}
    print(' '.join(red[k] for k, p in plain.items() if p == secret).replace(' ', '_'))
PY
expect 'the same token for the same path in two recordings' \
	"[ \$(sort -u '$TEST_DIR/tokens' | wc -l) = 1 ] && grep -q '^\\[path_[0-9a-f]*\\]$' '$TEST_DIR/tokens'"
expect 'redacting twice gives the same report' \
	"$BOOTPROF report --redact '$TEST_DIR/r1.dat' 2>/dev/null | cmp - '$TEST_DIR/r1.txt'"

# Numbers: every numeric value of the JSON report, by key, is unchanged
# (plugin sections are left out of a redacted report).
expect 'every number unchanged' "python3 - '$TEST_DIR/r1.plain.json' '$TEST_DIR/r1.json' <<'PY'
import json, sys
def leaves(v, key, out):
    if isinstance(v, dict):
        for k, x in v.items():
            leaves(x, key + '/' + k, out)
    elif isinstance(v, list):
        for x in v:
            leaves(x, key + '[]', out)
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        out.append((key, v))
    return out
def model(name):
    d = json.load(open(name))
    d.pop('plugins', None)  # left out when redacting
    return d
a = sorted(leaves(model(sys.argv[1]), '', []))
b = sorted(leaves(model(sys.argv[2]), '', []))
sys.exit(0 if a == b and a else 1)
PY"
