#!/bin/sh
# The command line: help and -h for every command (stdout, exit 0, every
# option of --list-opts), usage errors (exit 2: an unknown option is one
# line and a hint) with a did-you-mean for a misspelt command, the option
# table's parsing (attached values, --opt=value, abbreviations, "--"), its
# completion data, and the one default-recording rule of the commands that
# read a recording.
. "$(dirname "$0")/../test-lib.sh"

B=$BOOTPROF
F=$TOP/tests/fixtures/basic.dat
cmds=$("$B" --list-cmds)

expect 'help -h prints the main usage to stdout, exit 0' \
	"'$B' help -h >'$TEST_DIR/out' && head -n 1 '$TEST_DIR/out' | grep -q '^usage: bootprof '"
expect 'help --help prints the main usage to stdout, exit 0' \
	"'$B' help --help | grep -q '^Commands:'"
expect 'help alone prints the main usage' "'$B' help | grep -q '^Commands:'"
expect "a misspelt command: exit 2, did you mean 'record'?" \
	"'$B' recrod 2>'$TEST_DIR/err'; test \$? = 2 &&
	 grep -qx \"bootprof: 'recrod' is not a bootprof command; did you mean 'record'?\" '$TEST_DIR/err'"
expect "help of a misspelt command: did you mean 'report'?" \
	"'$B' help reprot 2>'$TEST_DIR/err'; test \$? = 2 && grep -q \"did you mean 'report'?\" '$TEST_DIR/err'"
expect 'a word as close to two commands names both' \
	"'$B' recort 2>'$TEST_DIR/err'; test \$? = 2 && grep -q \"did you mean 'record' or 'report'?\" '$TEST_DIR/err'"
expect 'a word like no command: no suggestion' \
	"'$B' frobnicate 2>'$TEST_DIR/err'; test \$? = 2 && ! grep -q 'did you mean' '$TEST_DIR/err'"
expect "a misspelt option: exit 2, did you mean '--since'?" \
	"'$B' report --sicne 1 2>'$TEST_DIR/err'; test \$? = 2 &&
	 grep -qx \"bootprof: unknown option '--sicne'; did you mean '--since'?\" '$TEST_DIR/err'"
expect 'an option like no option of the command: no suggestion' \
	"'$B' chart --frobnicate 2>'$TEST_DIR/err'; test \$? = 2 && ! grep -q 'did you mean' '$TEST_DIR/err'"

for c in $cmds; do
	expect "$c -h: usage on stdout, exit 0" \
		"'$B' $c -h >'$TEST_DIR/h' 2>'$TEST_DIR/e' && head -n 1 '$TEST_DIR/h' | grep -q '^usage: bootprof $c' && ! test -s '$TEST_DIR/e'"
	expect "$c --help is $c -h" "'$B' $c --help | cmp - '$TEST_DIR/h'"
	expect "help $c is $c -h" "'$B' help $c | cmp - '$TEST_DIR/h'"
	expect "$c -h lists every option of '$c --list-opts'" \
		"'$B' $c --list-opts >'$TEST_DIR/opts' &&
		 while read -r o; do
			grep -qE -- \"^  (-[a-zA-Z0-9], |    )\$o( |\$)\" '$TEST_DIR/h' || { echo \"not in -h: \$o\"; exit 1; }
		 done <'$TEST_DIR/opts'"
	expect "$c --no-such-option: exit 2, nothing on stdout, one line 'unknown option' and a hint" \
		"'$B' $c --no-such-option >'$TEST_DIR/o' 2>'$TEST_DIR/e'; test \$? = 2 && ! test -s '$TEST_DIR/o' &&
		 test \$(wc -l <'$TEST_DIR/e') = 2 &&
		 grep -qx \"bootprof: unknown option '--no-such-option'\" '$TEST_DIR/e' &&
		 grep -qx \"Try 'bootprof $c -h' for more information.\" '$TEST_DIR/e'"
	expect "$c --completion-helper: well-formed lines" \
		"'$B' $c --completion-helper | awk -F '\t' '
			\$1 == \"opt\" && NF == 5 && (\$2 == \"\" || \$2 ~ /^-[a-zA-Z0-9]\$/) && \$3 ~ /^--[a-z]/ { next }
			\$1 == \"arg\" && NF == 2 { next }
			{ print \"bad: \" \$0; bad = 1 } END { exit bad }'"
done

# The option table's parsing, on report (a fixture, no root).
csv() { "$B" report --format csv --table processes "$@" "$F" | wc -l; }
want=$(csv --top 3)
expect 'report -n3 (value attached) is --top 3' "test \"\$(csv -n3)\" = '$want'"
expect 'report --top=3 is --top 3' "test \"\$(csv --top=3)\" = '$want'"
expect 'report --to 3 (an unambiguous prefix) is --top 3' "test \"\$(csv --to 3)\" = '$want'"
expect 'report --p (ambiguous: --pid, --plugin...) is a usage error' \
	"'$B' report --p 1 '$F' 2>'$TEST_DIR/e'; test \$? = 2 && grep -q \"ambiguous option '--p'\" '$TEST_DIR/e'"
expect 'report --top without a value is a usage error' \
	"'$B' report '$F' --top 2>'$TEST_DIR/e'; test \$? = 2 && grep -q \"option '--top' needs a value\" '$TEST_DIR/e'"
expect 'report --tree=1 (a flag with a value) is a usage error' \
	"'$B' report --tree=1 '$F' 2>/dev/null; test \$? = 2"
expect 'options after the file are options' \
	"test \"\$('$B' report '$F' --format csv --table processes --top 3 | wc -l)\" = '$want'"
expect "'--' ends the options: '-x' is then a file name" \
	"'$B' report -- -x 2>'$TEST_DIR/e'; test \$? = 1 && grep -q \"'-x'\" '$TEST_DIR/e'"
expect 'report --plugin-opt is repeatable' \
	"'$B' report --plugin-opt polling.top=3 --plugin-opt polling.top=4 --list-plugins >/dev/null"
expect 'top -d without --live is a usage error' "'$B' top -d 1 '$F' 2>/dev/null; test \$? = 2"
expect 'top --top 2 --batch: two rows and how many more' \
	"'$B' top --batch --top 2 '$F' | tail -n 1 | grep -q '^\\.\\.\\. [0-9]* more (use --top 0)\$'"

# The default recording: latest.dat, else ./bootprof.dat; the error names both.
if [ -e /var/log/bootprof/latest.dat ]; then
	skip 'default recording rule' '/var/log/bootprof/latest.dat exists on this machine'
else
	mkdir "$TEST_DIR/empty" "$TEST_DIR/here"
	cp "$F" "$TEST_DIR/here/bootprof.dat"
	echo 'bytes total 1G' >"$TEST_DIR/budget"
	for c in 'report' 'top --batch' 'dump' "check -b $TEST_DIR/budget" "diff $F" 'chart -o -' \
		'export -f chrome -o -' 'readahead'; do
		expect "$c with no recording: exit 1, one line naming what was tried and 'bootprof record'" \
			"cd '$TEST_DIR/empty' && '$B' $c >/dev/null 2>'$TEST_DIR/e'; test \$? = 1 &&
			 test \$(wc -l <'$TEST_DIR/e') = 1 &&
			 grep -q \"'/var/log/bootprof/latest.dat' nor './bootprof.dat'.*bootprof record\" '$TEST_DIR/e'"
		expect "$c reads ./bootprof.dat" \
			"cd '$TEST_DIR/here' && '$B' $c >'$TEST_DIR/o' && test -s '$TEST_DIR/o'"
	done
fi
