#!/bin/sh
# make install / make uninstall into a scratch DESTDIR: the installed file
# list is exactly what the tree says it should be (the binary, the
# bootprof-init link, a page per man/ file, both completions, plugins,
# examples), the installed program runs and agrees with the built one, and
# uninstall leaves no file behind.
. "$(dirname "$0")/../test-lib.sh"

command -v make >/dev/null || skip_all "make not installed"
D=$TEST_DIR/root
P=/usr
B=$TOP/build
cd "$TOP" || exit 1

expect "make install DESTDIR=... PREFIX=$P" \
	"make -s --no-print-directory install DESTDIR='$D' PREFIX=$P"
[ -x "$D$P/bin/bootprof" ] || { not_ok "installed $P/bin/bootprof"; exit 1; }

# The expected list, from the tree.
{
	echo "$P/bin/bootprof"
	echo "$P/bin/bootprof-init"
	for p in man/*.[1-9]; do
		[ -f "$p" ] && echo "$P/share/man/man${p##*.}/${p#man/}"
	done
	echo "$P/share/bash-completion/completions/bootprof"
	echo "$P/share/zsh/vendor-completions/_bootprof"
	for so in "$B"/plugins/*.so; do
		[ -f "$so" ] && echo "$P/lib/bootprof/plugins/$(basename "$so")"
	done
	[ -f include/bootprof/plugin.h ] && echo "$P/include/bootprof/plugin.h"
	[ -d examples ] && find examples -type f | sed "s|^examples/|$P/share/doc/bootprof/examples/|"
} | sort >"$TEST_DIR/want"
(cd "$D" && find . -type f -o -type l) | sed 's|^\.||' | sort >"$TEST_DIR/got"
expect "installed files are exactly the expected ones" \
	"diff '$TEST_DIR/want' '$TEST_DIR/got'"

for c in $("$BOOTPROF" --list-cmds); do
	expect "bootprof-$c.1 is installed" "test -f '$D$P/share/man/man1/bootprof-$c.1'"
done
expect "bootprof-init is a relative link to bootprof" \
	"[ -L '$D$P/bin/bootprof-init' ] && [ \"\$(readlink '$D$P/bin/bootprof-init')\" = bootprof ]"
expect "the binary is the built one, mode 755" \
	"cmp '$B/bootprof' '$D$P/bin/bootprof' && [ \"\$(stat -c %a '$D$P/bin/bootprof')\" = 755 ]"
expect "man pages and completions are copied unchanged, mode 644" '
	for p in man/*.[1-9]; do
		f='"$D$P"'/share/man/man${p##*.}/${p#man/}
		cmp "$p" "$f" && [ "$(stat -c %a "$f")" = 644 ] || exit 1
	done
	cmp completions/bootprof.bash '"$D$P"'/share/bash-completion/completions/bootprof &&
	cmp completions/_bootprof '"$D$P"'/share/zsh/vendor-completions/_bootprof'

# The installed program runs and says what the built one says.
expect "installed bootprof --version" \
	"[ \"\$('$D$P/bin/bootprof' --version)\" = \"\$('$BOOTPROF' --version)\" ]"
expect "installed bootprof --list-cmds" \
	"[ \"\$('$D$P/bin/bootprof' --list-cmds)\" = \"\$('$BOOTPROF' --list-cmds)\" ]"
if command -v man >/dev/null; then
	expect "man finds the installed bootprof-report(1) and bootprof-plugins(7)" \
		"man -M '$D$P/share/man' -w bootprof-report | grep -q '$D' &&
		 man -M '$D$P/share/man' -w 7 bootprof-plugins | grep -q '$D'"
else
	skip "man finds the installed pages" "man not installed"
fi
expect "the installed bash completion completes commands" "
	bash -c '. $D$P/share/bash-completion/completions/bootprof
		COMP_WORDS=($D$P/bin/bootprof re); COMP_CWORD=1; _bootprof
		printf \"%s\\n\" \"\${COMPREPLY[@]}\"' | sort >'$TEST_DIR/comp' &&
	'$BOOTPROF' --list-cmds | grep '^re' | sort | diff - '$TEST_DIR/comp'"

# The installed plugins are plugins: each is recognised (as a copy of the
# built-in of its name), none refused. A copy of the directory, so that it
# is not the install's own (which is loaded quietly).
sos=$(ls "$D$P"/lib/bootprof/plugins/*.so 2>/dev/null)
if [ -z "$sos" ]; then
	skip "installed plugins load" "no plugins were built"
else
	mkdir "$TEST_DIR/copy" && cp $sos "$TEST_DIR/copy/"
	BOOTPROF_PLUGIN_DIR=$TEST_DIR/copy "$D$P/bin/bootprof" report --list-plugins \
		>"$TEST_DIR/plugins.out" 2>"$TEST_DIR/plugins.err"
	for so in $sos; do
		so=$TEST_DIR/copy/$(basename "$so")
		expect "installed $(basename "$so") is a loadable plugin" "
			grep -F '$so' '$TEST_DIR/plugins.err' | grep -q 'already loaded' &&
			! grep -F '$so' '$TEST_DIR/plugins.err' | grep -qi 'refus\|cannot'"
	done
fi

# The staged binary finds its plugins beside itself ($ORIGIN/../lib/bootprof/
# plugins), whatever PREFIX it was built with: make ran with the default
# PREFIX, make install with PREFIX=$P. Proof that it looks there: a
# directory anyone may write is refused, by its staged path.
expect "the staged bootprof loads its own plugin directory quietly" \
	"'$D$P/bin/bootprof' report --list-plugins >'$TEST_DIR/own.out' 2>'$TEST_DIR/own.err' &&
	 ! test -s '$TEST_DIR/own.err' && grep -qx polling '$TEST_DIR/own.out'"
chmod 777 "$D$P/lib/bootprof/plugins"
expect "the staged bootprof reads $P/lib/bootprof/plugins under DESTDIR" \
	"'$D$P/bin/bootprof' report --list-plugins 2>&1 >/dev/null |
	 grep -F \"refusing plugin directory '$D$P/lib/bootprof/plugins'\""
chmod 755 "$D$P/lib/bootprof/plugins"
expect "bootprof init outside PID 1 names the staged bootprof-init" \
	"'$D$P/bin/bootprof' init 2>&1 | grep -F 'init=$D$P/bin/bootprof-init '"
expect "the built bootprof names the installed path" \
	"'$B/bootprof' init 2>&1 | grep -F 'init=/usr/local/bin/bootprof-init '"

# The first fixture that reads cleanly (robustness fixtures are broken on
# purpose).
fixture=
for f in tests/fixtures/*.dat; do
	[ -f "$f" ] || continue
	if "$BOOTPROF" dump "$f" >/dev/null 2>"$TEST_DIR/.fixture-err" &&
		[ ! -s "$TEST_DIR/.fixture-err" ]; then
		fixture=$f
		break
	fi
done
if [ -z "$fixture" ]; then
	skip "installed bootprof reads a fixture" "no fixture recording in tests/fixtures/ that reads cleanly"
else
	for c in dump report; do
		expect "installed bootprof $c $(basename "$fixture") equals the built one's" "
			'$D$P/bin/bootprof' $c '$fixture' >'$TEST_DIR/$c.installed' &&
			'$BOOTPROF' $c '$fixture' >'$TEST_DIR/$c.built' &&
			test -s '$TEST_DIR/$c.built' &&
			cmp '$TEST_DIR/$c.built' '$TEST_DIR/$c.installed'"
	done
fi

expect "make uninstall DESTDIR=... PREFIX=$P" \
	"make -s --no-print-directory uninstall DESTDIR='$D' PREFIX=$P"
expect "uninstall leaves no file, link or bootprof directory" \
	"left=\$(find '$D' -type f -o -type l -o -name '*bootprof*'); echo \"\$left\"; [ -z \"\$left\" ]"
