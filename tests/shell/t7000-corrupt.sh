#!/bin/sh
# Corrupt recordings: dump and report answer with one line on stderr and
# exit 1 (a truncated file: exit 0 and one truncation warning), never a
# crash, a hang, a sanitizer report or a silent wrong number. Each case is
# a real recording patched at an offset computed from the format
# (tests/fuzz/tracedat.py layout).
# tags: records
. "$(dirname "$0")/../test-lib.sh"

command -v python3 >/dev/null || skip_all "python3 not installed"

# A fresh recording when we can make one, else the committed real one.
src=$TOP/tests/fuzz/corpus/recordings/bootprof-default-events.dat
if can_record &&
	$BOOTPROF_FAST record -o "$TEST_DIR/real.dat" -- sh -c 'cat /etc/services /bin/ls >/dev/null' \
		2>/dev/null; then
	src=$TEST_DIR/real.dat
fi

python3 - "$src" "$TEST_DIR" "$TOP/tests/fuzz" >"$TEST_DIR/cases" <<'PY' || skip_all "cannot lay out the recording"
import os, struct, sys
sys.path.insert(0, sys.argv[3])
import tracedat

src, out = sys.argv[1], sys.argv[2]
d = open(src, 'rb').read()
lay = tracedat.Layout(d)
o, ps = lay.off, lay.page_size

def case(name, status, data):
    open(os.path.join(out, name + '.dat'), 'wb').write(data)
    print(name, status)

def patch(at, b, base=d):
    return base[:at] + b + base[at + len(b):]

def fmt(system, name):
    for s, p, n in lay.formats:
        if s == system and ('name: %s\n' % name).encode() in d[p + 8:p + 8 + n]:
            return p + 8, n
    raise SystemExit('no format %s:%s' % (system, name))

case('empty', 1, b'')
case('bad-magic', 1, patch(0, b'\x00'))
case('not-a-recording', 1, b'hello world\n' * 100)
case('big-endian-flag', 1, patch(o['endian'], b'\x01'))
case('long-size-3', 1, patch(o['long_size'], b'\x03'))
case('version-9', 1, patch(o['version'], b'9'))
case('version-unterminated', 1, patch(o['version'] + 1, b'7'))
case('page-size-0', 1, patch(o['page_size'], struct.pack('<I', 0)))
case('page-size-3000', 1, patch(o['page_size'], struct.pack('<I', 3000)))
case('cut-in-headers', 1, d[:o['ncpus'] // 2])
case('cut-before-data', 0 if lay.off['data'] < len(d) else 1, d[:o['data']])
case('cut-in-data', 0, d[:o['data'] + ps + ps // 2])
case('cut-last-byte', 0, d[:-1])
case('cpus-0', 1, patch(o['ncpus'], struct.pack('<I', 0)))
case('cpus-10000', 1, patch(o['ncpus'], struct.pack('<I', 10000)))
case('cpus-one-more', 1, patch(o['ncpus'], struct.pack('<I', lay.ncpus + 1)))
case('header-page-len-huge', 1, patch(o['header_page_len'], struct.pack('<Q', 1 << 62)))
case('format-len-huge', 1, patch(lay.formats[0][1], struct.pack('<Q', 1 << 40)))
case('kallsyms-len-huge', 1, patch(o['kallsyms_len'], struct.pack('<I', 0xfffffff0)))
case('cmdlines-len-huge', 1, patch(o['cmdlines_len'], struct.pack('<Q', 1 << 50)))
case('cpu0-size-absurd', 1, patch(o['cpu_table'] + 8, struct.pack('<Q', 1 << 60)))
case('cpu0-offset-absurd', 1, patch(o['cpu_table'], struct.pack('<Q', 1 << 60)))
case('cpu0-offset-in-headers', 1, patch(o['cpu_table'], struct.pack('<Q', 64)))
case('cpu1-offset-overlaps-cpu0', 1, patch(o['cpu_table'] + 16, struct.pack('<Q', lay.cpus[0][0])))
# The system name of the first event system loses its NUL.
sysname = o['systems'] + 4
case('system-name-unterminated', 1,
     patch(sysname + d.index(b'\0', sysname) - sysname, b'X'))
# sched_switch events no longer match their format: another id, or a field moved past their end.
p, n = fmt('sched', 'sched_switch')
text = d[p:p + n]
i = text.index(b'ID: ') + 4
j = text.index(b'\n', i)
case('format-id-changed', 1, patch(p + i, b'9' * (j - i)))
k = text.rindex(b'offset:') + 7
case('format-field-past-event', 1, patch(p + k, b'9' * (text.index(b';', k) - k)))
# Metadata: a length past its place, a bad line, a CPU count the data contradicts.
if lay.meta is not None:
    case('meta-len-outside-file', 1, patch(o['meta_len'], struct.pack('<Q', len(d) * 2)))
    case('meta-len-into-data', 1, patch(o['meta_len'], struct.pack('<Q', o['data'] - o['meta'] + 100)))
    m = o['meta'] + lay.meta.index(b'\npath ') + 1
    case('meta-path-line-broken', 1, patch(m, b'path x'))
    m = o['meta'] + lay.meta.index(b'\nncpus ') + 7
    case('meta-cpus-contradict', 1, patch(m, b'9'))
    case('meta-unterminated', 1, patch(o['meta'] + len(lay.meta) - 1, b'X'))
# A page whose header claims more bytes than a page holds.
case('page-commit-too-big', 1, patch(lay.cpus[0][0] + 8, struct.pack('<Q', ps * 2)))
PY

for c in $(cut -d' ' -f1 "$TEST_DIR/cases"); do
	want=$(sed -n "s/^$c //p" "$TEST_DIR/cases")
	f=$TEST_DIR/$c.dat
	for cmd in dump report 'report --format json'; do
		# shellcheck disable=SC2086
		timeout 120 $BOOTPROF $cmd "$f" >"$TEST_DIR/out" 2>"$TEST_DIR/err"
		rc=$?
		what="$c: $cmd"
		if [ $want = 1 ]; then
			expect "$what: exit 1, one line" \
				"[ $rc = 1 ] && [ \$(wc -l <'$TEST_DIR/err') = 1 ] &&
				 grep -q '^bootprof: ' '$TEST_DIR/err' || { echo rc=$rc; cat '$TEST_DIR/err'; false; }"
		else
			expect "$what: exit 0, one truncation warning" \
				"[ $rc = 0 ] && [ \$(wc -l <'$TEST_DIR/err') = 1 ] &&
				 grep -q '^bootprof: warning: recording truncated' '$TEST_DIR/err' ||
				 { echo rc=$rc; cat '$TEST_DIR/err'; false; }"
		fi
	done
done

# A truncated file reports a prefix of the whole file's events, never more.
$BOOTPROF_FAST dump --count "$src" 2>/dev/null | sed -n 's/ total$//p' >"$TEST_DIR/all"
$BOOTPROF_FAST dump --count "$TEST_DIR/cut-in-data.dat" 2>/dev/null | sed -n 's/ total$//p' >"$TEST_DIR/cut"
expect 'cut file: fewer events, not none' \
	"[ \$(cat '$TEST_DIR/cut') -gt 0 ] && [ \$(cat '$TEST_DIR/cut') -lt \$(cat '$TEST_DIR/all') ]"
expect 'cut file: report says TRUNCATED' \
	"$BOOTPROF_FAST report '$TEST_DIR/cut-in-data.dat' 2>/dev/null | grep -q TRUNCATED"

# The cause of a corrupt-metadata error survives, named once (#12.3).
if [ -f "$TEST_DIR/meta-path-line-broken.dat" ]; then
	expect 'broken metadata line: one message with its cause' \
		"$BOOTPROF dump '$TEST_DIR/meta-path-line-broken.dat' 2>&1 >/dev/null |
		 grep -x \"bootprof: '.*' is corrupt: malformed bootprof metadata, line [0-9]*: [a-z ]*\""
fi

# A bad CPU table entry says what is wrong with it, not only where it is (#12.7).
while read -r c why; do
	expect "$c: says what is wrong" \
		"$BOOTPROF dump '$TEST_DIR/$c.dat' 2>&1 >/dev/null | grep -q \"is corrupt: its CPU table $why\""
done <<'EOF2'
cpu0-size-absurd gives CPU 0 an impossible [0-9]* bytes of data
cpu0-offset-absurd puts CPU 0's data at an impossible offset
cpu0-offset-in-headers puts CPU 0's data ([0-9]* bytes) at offset 64, inside the headers, which end at
cpu1-offset-overlaps-cpu0 puts CPU 1's data ([0-9]* bytes) at offset [0-9]*, inside CPU 0's data, which ends at
EOF2
