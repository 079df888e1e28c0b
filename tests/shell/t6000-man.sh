#!/bin/sh
# The man pages: they render without warnings, every command has one, each
# page's SYNOPSIS names exactly the command's options (`bootprof CMD
# --list-opts`), its OPTIONS section describes them all, and the EXAMPLES
# marked runnable (a `.\" runnable` comment before the .EX block) succeed.
# Runnable examples name their recording boot.dat; here that is a fixture
# recording from tests/fixtures/ (or $BOOTPROF_EXAMPLE_FIXTURE).
. "$(dirname "$0")/../test-lib.sh"

MAN=$TOP/man
[ -d "$MAN" ] || skip_all "no man/ directory"
command -v mandoc >/dev/null || command -v groff >/dev/null ||
	skip_all "neither mandoc nor groff is installed (scripts/deps.sh check)"

pages=$(ls "$MAN"/*.[1-9] 2>/dev/null)
[ -n "$pages" ] || skip_all "no pages in man/"

# 1. Render every page with warnings on; any diagnostic fails.
for p in $pages; do
	name=$(basename "$p")
	if command -v mandoc >/dev/null; then
		expect "$name: mandoc -T lint -W warning is silent" \
			"out=\$(mandoc -T lint -W warning '$p' 2>&1); echo \"\$out\"; [ -z \"\$out\" ]"
	fi
	if command -v groff >/dev/null; then
		expect "$name: groff -ww -man -z is silent" \
			"out=\$(groff -ww -man -z '$p' 2>&1); echo \"\$out\"; [ -z \"\$out\" ]"
	fi
done

# Render a page as plain text (no overstrike, wide lines).
render() {
	if command -v mandoc >/dev/null; then
		mandoc -T ascii -O width=400 "$1" | sed 's/.\x08//g'
	else
		MANWIDTH=400 groff -man -T ascii -P -cbou "$1"
	fi
}

# The body of one section (SYNOPSIS, OPTIONS ...) of a rendered page.
section() {
	awk -v s="$1" '/^[A-Z]/ { on = ($0 == s); next } on' "$2"
}

# The long options a text names, sorted, one per line; --help and
# --list-opts are common to every command (bootprof(1)) and left out.
long_opts() {
	grep -o -- '--[a-z][a-z0-9-]*' | grep -v -x -e '--help' -e '--list-opts' | sort -u
}

# Every page has the sections a reader looks for, and points to the tools
# a kernel or distribution engineer already knows.
for p in $pages; do
	name=$(basename "$p")
	expect "$name: has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, EXIT STATUS, FILES, SEE ALSO" '
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES "EXIT STATUS" FILES "SEE ALSO"; do
			grep -qx ".SH $s\|.SH \"$s\"" '"'$p'"' || { echo "no $s"; exit 1; }
		done'
	expect "$name: SEE ALSO names trace-cmd(1), trace-cmd-report(1), systemd-analyze(1), bootchart(1)" '
		sed -n "/^\.SH SEE ALSO/,/^\.SH/p" '"'$p'"' | sed "s/\\\\-/-/g" >"$TEST_DIR/.see"
		for r in "trace-cmd (1)" "trace-cmd-report (1)" "systemd-analyze (1)" "bootchart (1)"; do
			grep -qF ".BR $r" "$TEST_DIR/.see" || { echo "no $r"; exit 1; }
		done'
done

cmds=$("$BOOTPROF" --list-cmds)
expect "bootprof --list-cmds names commands" "[ -n \"$cmds\" ]"

# 2. Every command has a page, and every command page a command.
for c in $cmds; do
	expect "bootprof-$c.1 exists" "test -f '$MAN/bootprof-$c.1'"
done
for p in "$MAN"/bootprof-*.1; do
	c=$(basename "$p" .1)
	c=${c#bootprof-}
	expect "bootprof-$c.1 is the page of a command" \
		"echo '$cmds' | grep -qx '$c'"
done

# 3. bootprof(1): its SYNOPSIS has the global options of the usage line.
render "$MAN/bootprof.1" >"$TEST_DIR/bootprof.txt"
section SYNOPSIS "$TEST_DIR/bootprof.txt" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u \
	>"$TEST_DIR/bootprof.syn"
"$BOOTPROF" --help | head -n 1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u \
	>"$TEST_DIR/bootprof.usage"
expect "bootprof.1: SYNOPSIS has the options of 'bootprof --help'" \
	"comm -13 '$TEST_DIR/bootprof.syn' '$TEST_DIR/bootprof.usage' | sed 's/^/missing: /' | grep . && exit 1; true"
for c in $cmds; do
	expect "bootprof.1 lists bootprof-$c(1)" \
		"grep -q 'bootprof-$c(1)' '$TEST_DIR/bootprof.txt'"
done

# 4. SYNOPSIS options == --list-opts, both ways; OPTIONS covers them all.
for c in $cmds; do
	p=$MAN/bootprof-$c.1
	[ -f "$p" ] || continue
	render "$p" >"$TEST_DIR/$c.txt"
	section SYNOPSIS "$TEST_DIR/$c.txt" | long_opts >"$TEST_DIR/$c.syn"
	section OPTIONS "$TEST_DIR/$c.txt" | long_opts >"$TEST_DIR/$c.doc"
	if ! "$BOOTPROF" "$c" --list-opts >"$TEST_DIR/$c.list" 2>&1; then
		not_ok "bootprof $c --list-opts exits 0"
		continue
	fi
	long_opts <"$TEST_DIR/$c.list" >"$TEST_DIR/$c.opts"
	# A command not built yet has a one-line usage and no options.
	if [ ! -s "$TEST_DIR/$c.opts" ] && [ -s "$TEST_DIR/$c.syn" ] &&
		[ "$("$BOOTPROF" "$c" -h | wc -l)" -le 1 ]; then
		skip "bootprof-$c.1: SYNOPSIS matches --list-opts" "bootprof $c is not built yet"
		continue
	fi
	expect "bootprof-$c.1: every SYNOPSIS option is in '$c --list-opts'" \
		"comm -23 '$TEST_DIR/$c.syn' '$TEST_DIR/$c.opts' | sed 's/^/only in the page: /' | grep . && exit 1; true"
	expect "bootprof-$c.1: every option of '$c --list-opts' is in SYNOPSIS" \
		"comm -13 '$TEST_DIR/$c.syn' '$TEST_DIR/$c.opts' | sed 's/^/not in SYNOPSIS: /' | grep . && exit 1; true"
	expect "bootprof-$c.1: OPTIONS describes every option" \
		"comm -13 '$TEST_DIR/$c.doc' '$TEST_DIR/$c.opts' | sed 's/^/not in OPTIONS: /' | grep . && exit 1; true"
	# Short forms: "-o|--output" in SYNOPSIS, "-o, --output" in the usage.
	section SYNOPSIS "$TEST_DIR/$c.txt" | grep -oE -- '-[a-zA-Z0-9]\|--[a-z0-9-]+' |
		tr '|' ' ' | sort -u >"$TEST_DIR/$c.syn-short"
	"$BOOTPROF" "$c" -h | grep -oE -- '-[a-zA-Z0-9], --[a-z0-9-]+' |
		tr -d ',' | grep -vx -- '-h --help' | sort -u >"$TEST_DIR/$c.usage-short"
	expect "bootprof-$c.1: short options pair as in '$c -h'" \
		"diff '$TEST_DIR/$c.usage-short' '$TEST_DIR/$c.syn-short'"
done

# 5. Runnable EXAMPLES. Each block becomes one script: its "$ " lines,
# unescaped, run in a scratch directory with `bootprof` meaning $BOOTPROF.
# A fixture that reads cleanly (robustness fixtures are broken on purpose),
# preferably one bootprof recorded (with its metadata), else one of
# trace-cmd's.
fixture=${BOOTPROF_EXAMPLE_FIXTURE:-}
if [ -z "$fixture" ]; then
	for f in "$TOP"/tests/fixtures/*.dat; do
		[ -f "$f" ] || continue
		"$BOOTPROF" dump "$f" 2>"$TEST_DIR/.fixture-err" | head -n 1 >"$TEST_DIR/.fixture-head"
		[ -s "$TEST_DIR/.fixture-err" ] && continue
		if grep -q ', bootprof ' "$TEST_DIR/.fixture-head"; then
			fixture=$f
			break
		fi
		[ -n "$fixture" ] || fixture=$f
	done
fi

[ -n "$fixture" ] && echo "# runnable examples read ${fixture#$TOP/} as boot.dat"

extract_examples() {
	awk -v dir="$TEST_DIR/examples" -v page="$(basename "$1")" '
	/^\.\\" runnable/ { want = 1; next }
	want && /^\.EX/ { n++; f = sprintf("%s/%s.%d.sh", dir, page, n); inex = 1; want = 0; next }
	inex && /^\.EE/ { inex = 0; close(f); next }
	inex && /^\$ / {
		line = substr($0, 3)
		gsub(/\\f[BIRP]/, "", line)
		gsub(/\\-/, "-", line)
		gsub(/\\\(aq/, "\047", line)
		gsub(/\\&/, "", line)
		gsub(/\\e/, "\\", line)
		print line > f
	}' "$1"
}

mkdir -p "$TEST_DIR/examples"
for p in $pages; do
	extract_examples "$p"
done
for ex in "$TEST_DIR"/examples/*.sh; do
	[ -f "$ex" ] || continue
	what="example $(basename "$ex" .sh): $(head -n 1 "$ex")"
	if grep -q '\.dat' "$ex" && [ -z "$fixture" ]; then
		skip "$what" "no fixture recording in tests/fixtures/ that reads cleanly"
		continue
	fi
	missing=
	for prog in $(grep -o '| *[a-z][a-z0-9_-]*' "$ex" | sed 's/^| *//' | sort -u); do
		command -v "$prog" >/dev/null || missing="$missing $prog"
	done
	if [ -n "$missing" ]; then
		skip "$what" "not installed:$missing"
		continue
	fi
	run=$TEST_DIR/run.$(basename "$ex" .sh)
	mkdir -p "$run"
	[ -n "$fixture" ] && ln -s "$fixture" "$run/boot.dat"
	{
		echo 'set -e'
		echo 'bootprof() { "$BOOTPROF" "$@"; }'
		cat "$ex"
	} >"$run/.script"
	# bash for pipefail: "bootprof ... | jq" fails when bootprof does.
	if (cd "$run" && bash -o pipefail .script) >"$run/.out" 2>"$run/.err"; then
		bad_json=
		for j in "$run"/*.json; do
			[ -f "$j" ] && command -v python3 >/dev/null || continue
			python3 -m json.tool "$j" >/dev/null 2>&1 || bad_json="$bad_json $(basename "$j")"
		done
		if [ -n "$bad_json" ]; then
			not_ok "$what: invalid JSON:$bad_json"
		else
			ok "$what"
		fi
	elif grep -q 'not built yet' "$run/.err"; then
		skip "$what" "$(head -n 1 "$run/.err")"
	else
		not_ok "$what"
		sed 's/^/#   /' "$run/.err" | tail -n 20
	fi
done
