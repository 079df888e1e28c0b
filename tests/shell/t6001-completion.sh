#!/bin/sh
# Shell completion: completions/bootprof.bash is sourced in bash and driven
# the way readline does (COMP_WORDS, COMP_CWORD, then _bootprof); each
# answer is compared with what the program itself says (--list-cmds,
# CMD --list-opts, CMD --completion-helper from its option table). bash is driven with and without the
# bash-completion library; zsh (completions/_bootprof) through compinit in
# an interactive zsh on a pseudo-terminal, typing the line and a TAB, with
# compadd wrapped to write down the candidates it is given.
. "$(dirname "$0")/../test-lib.sh"

COMP=$TOP/completions/bootprof.bash
[ -f "$COMP" ] || skip_all "no completions/bootprof.bash"
command -v bash >/dev/null || skip_all "bash not installed"
LIB=/usr/share/bash-completion/bash_completion

# The zsh driver: FPATH-DIR CWD BIN-DIR LINE DUMP; prints every candidate
# (DUMP: compinit's cache, shared by all runs: a fresh compinit takes 1 s).
# TAB is bound to a widget that completes, then leaves a marker file.
cat >"$TEST_DIR/zcomp.zsh" <<'ZSH'
zmodload zsh/zpty || exit 1
fdir=$1 cwd=$2 bdir=$3 line=$4 dump=$5
out=$(mktemp)
zpty z zsh -f -i
zpty -w z "PS1='> '; PATH=$bdir:\$PATH; fpath=($fdir \$fpath); autoload -U compinit; compinit -u -d $dump; cd $cwd"
zpty -w z "compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a h; builtin compadd -A h \"\$@\"; (( \$#h )) || return 1; print -l -- \$h >> $out; builtin compadd \"\$@\"; }"
zpty -w z "zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no"
zpty -w z "tab() { zle complete-word; : > $out.end; }; zle -N tab; bindkey '^I' tab"
zpty -w z "print rea''dy"
zpty -r z l '*ready*'
zpty -w -n z "$line"$'\t'
for i in {1..1000}; do [[ -e $out.end ]] && break; sleep 0.05; done
zpty -d z
cat $out
rm -f $out $out.end
ZSH
mkdir -p "$TEST_DIR/bin"
ln -s "$BOOTPROF" "$TEST_DIR/bin/bootprof"

# complete_words MODE WORD... : print the candidates for the last WORD
# (which may be empty), sorted, as the shell MODE (bash, bash+lib, zsh)
# offers them in $TEST_DIR/cwd.
complete_words() {
	mode=$1
	shift
	if [ "$mode" = zsh ]; then
		TMPDIR=$TEST_DIR timeout 60 zsh -f "$TEST_DIR/zcomp.zsh" "$TOP/completions" "$TEST_DIR/cwd" \
			"$TEST_DIR/bin" "bootprof $*" "$TEST_DIR/zcompdump" 2>>"$TEST_DIR/zsh.err" |
			tr -d '\r' | sed 's|/$||; /^$/d' | sort -u
		return
	fi
	BOOTPROF=$BOOTPROF COMP=$COMP LIB=$LIB MODE=$mode bash -c '
		cd "$0" || exit 1
		if [ "$MODE" = bash+lib ]; then
			. "$LIB" || exit 1
		fi
		. "$COMP" || exit 1
		COMP_WORDS=("$BOOTPROF" "$@")
		COMP_CWORD=$#
		COMP_LINE="${COMP_WORDS[*]}"
		COMP_POINT=${#COMP_LINE}
		_bootprof || exit 1
		printf "%s\n" "${COMPREPLY[@]}"
	' "$TEST_DIR/cwd" "$@" 2>>"$TEST_DIR/bash.err" | sed 's|/$||; /^$/d' | sort -u
}

# helper CMD: the command's completion data, one option per line:
# "opt<TAB>-s<TAB>--long<TAB>ARGH<TAB>COMPLETE", then "arg<TAB>COMPLETE".
helper() {
	"$BOOTPROF" "$1" --completion-helper
}

# choices CMD OPT: the words offered for OPT's value, one per line (nothing
# when it completes a class such as @file); of words grouped by another
# option's value ("files: a b; procs: c d"), the first group's.
choices() {
	helper "$1" | awk -F '\t' -v o="$2" '$1 == "opt" && $3 == o && $5 !~ /^@/ {
		v = $5; sub(/;.*/, "", v); sub(/^[a-z0-9_-]+: /, "", v)
		n = split(v, w, " "); for (i = 1; i <= n; i++) print w[i] }'
}

# class CMD OPT: the class (@file, @plugin ...) OPT's value completes as.
class() {
	helper "$1" | awk -F '\t' -v o="$2" '$1 == "opt" && $3 == o && $5 ~ /^@/ { print $5 }'
}

# same 'what' FILE-A FILE-B: the two candidate lists are equal.
same() {
	expect "$1" "diff '$2' '$3'"
}

mkdir -p "$TEST_DIR/cwd/sub.d"
: >"$TEST_DIR/cwd/boot.dat"
: >"$TEST_DIR/cwd/old.dat"
: >"$TEST_DIR/cwd/notes.txt"
T=$TEST_DIR

expect "bootprof.bash: bash -n" "bash -n '$COMP'"

"$BOOTPROF" --list-cmds | sort >"$T/cmds"
expect "bootprof --list-cmds is not empty" "test -s '$T/cmds'"
modes=bash
if [ -f "$LIB" ]; then
	modes="$modes bash+lib"
else
	skip "bash completion with the bash-completion library" "bash-completion not installed"
fi
ZCOMP=$TOP/completions/_bootprof
if ! command -v zsh >/dev/null; then
	skip "zsh completion" "zsh not installed"
elif ! zsh -f -c 'zmodload zsh/zpty' 2>/dev/null; then
	skip "zsh completion" "no zsh/zpty module"
else
	expect "_bootprof: zsh -n" "zsh -n '$ZCOMP'"
	expect "_bootprof: compinit binds it to bootprof" \
		"zsh -f -c 'fpath=($TOP/completions \$fpath); autoload -U compinit; compinit -u -d $T/zcompdump; [[ \$_comps[bootprof] == _bootprof ]]'"
	modes="$modes zsh"
fi

for m in $modes; do
	complete_words $m '' >"$T/got"
	same "$m: 'bootprof <TAB>' offers the commands of --list-cmds" "$T/cmds" "$T/got"

	grep '^r' "$T/cmds" >"$T/want"
	complete_words $m r >"$T/got"
	same "$m: 'bootprof r<TAB>' offers the commands starting with r" "$T/want" "$T/got"

	complete_words $m help '' >"$T/got"
	same "$m: 'bootprof help <TAB>' offers the commands" "$T/cmds" "$T/got"

	"$BOOTPROF" --help | head -n 1 | grep -o -- '--[a-z][a-z0-9-]*' | sort >"$T/want"
	complete_words $m -- >"$T/got"
	# "--" alone: global options.
	same "$m: 'bootprof --<TAB>' offers the global options of the usage line" "$T/want" "$T/got"

	for c in $(cat "$T/cmds"); do
		"$BOOTPROF" "$c" --list-opts | sort >"$T/want"
		if [ ! -s "$T/want" ]; then
			skip "$m: 'bootprof $c --<TAB>'" "bootprof $c has no options"
			continue
		fi
		complete_words $m "$c" -- >"$T/got"
		same "$m: 'bootprof $c --<TAB>' offers '$c --list-opts'" "$T/want" "$T/got"
		o=$(head -n 1 "$T/want")
		pre=$(printf '%s' "$o" | cut -c1-4)
		grep -- "^$pre" "$T/want" >"$T/want2"
		complete_words $m "$c" "$pre" >"$T/got"
		same "$m: 'bootprof $c $pre<TAB>' offers the options starting with $pre" "$T/want2" "$T/got"
	done

	# Commands that take a recording complete *.dat files; the others
	# complete their options.
	for c in $(cat "$T/cmds"); do
		if ! helper "$c" | grep -qx "arg	@recording"; then
			"$BOOTPROF" "$c" --list-opts | sort >"$T/want"
			complete_words $m "$c" '' >"$T/got"
			same "$m: 'bootprof $c <TAB>' (no FILE argument) offers its options" "$T/want" "$T/got"
			continue
		fi
		printf '%s\n' boot.dat old.dat sub.d >"$T/want"
		complete_words $m "$c" '' >"$T/got"
		same "$m: 'bootprof $c <TAB>' offers *.dat files and directories" "$T/want" "$T/got"
		printf 'boot.dat\n' >"$T/want"
		complete_words $m "$c" b >"$T/got"
		same "$m: 'bootprof $c b<TAB>' completes boot.dat" "$T/want" "$T/got"
	done

	# Options with a value: the words of the option table, files for @file.
	for c in $(cat "$T/cmds"); do
		for o in $("$BOOTPROF" "$c" --list-opts); do
			cls=$(class "$c" "$o")
			if [ "$cls" = @file ]; then
				printf 'notes.txt\n' >"$T/want"
				complete_words $m "$c" "$o" n >"$T/got"
				same "$m: 'bootprof $c $o n<TAB>' completes any file" "$T/want" "$T/got"
			fi
			case $cls in
			@plugin | @plugin-opt)
				if "$BOOTPROF" report --list-plugins >"$T/plugins" 2>/dev/null; then
					# NAME.KEY=VALUE options complete "NAME." (zsh adds
					# the dot as a suffix, which compadd -A does not show).
					suffix=
					[ $cls = @plugin-opt ] && [ $m != zsh ] && suffix=.
					awk -v s="$suffix" '{ print $1 s }' "$T/plugins" | sort >"$T/want"
					complete_words $m "$c" "$o" '' >"$T/got"
					same "$m: 'bootprof $c $o <TAB>' offers the names of 'report --list-plugins'" "$T/want" "$T/got"
				else
					skip "$m: 'bootprof $c $o <TAB>'" "no 'bootprof report --list-plugins'"
				fi
				;;
			esac
			choices "$c" "$o" | sort >"$T/want"
			[ -s "$T/want" ] || continue
			list=$(tr '\n' '|' <"$T/want")
			complete_words $m "$c" "$o" '' >"$T/got"
			same "$m: 'bootprof $c $o <TAB>' offers $list" "$T/want" "$T/got"
			if [ $m = zsh ]; then
				complete_words $m "$c" "$o=" >"$T/got"
			else
				complete_words $m "$c" "$o" = '' >"$T/got"
			fi
			same "$m: 'bootprof $c $o=<TAB>' offers $list" "$T/want" "$T/got"
		done
	done

	# top --sort: the columns of the view named on the line.
	for v in procs services; do
		helper top | awk -F '\t' '$3 == "--sort" { print $5 }' |
			sed "s/.*$v: //; s/;.*//" | tr ' ' '\n' | sort >"$T/want"
		complete_words $m top --view $v --sort '' >"$T/got"
		same "$m: 'bootprof top --view $v --sort <TAB>' offers the $v view's columns" \
			"$T/want" "$T/got"
	done

	# dump --events: the event types in the recording named on the line
	# (ground truth: the events dump prints), not the running kernel's.
	F=$TOP/tests/fixtures/basic.dat
	"$BOOTPROF" dump "$F" | awk '!/^#/ { sub(/:$/, "", $5); print $5 }' | sort -u >"$T/want"
	complete_words $m dump "$F" --events '' | sed 's/^[a-z0-9_]*://' | sort -u >"$T/got"
	same "$m: 'bootprof dump FILE --events <TAB>' offers the recording's events" "$T/want" "$T/got"
	complete_words $m dump "$F" --events sched:sched_sw >"$T/got"
	expect "$m: 'bootprof dump FILE --events sched:sched_sw<TAB>' completes sched:sched_switch" \
		"grep -qx 'sched:sched_switch' '$T/got'"

	# record -- CMD: a command line, completed as commands.
	if grep -qx record "$T/cmds"; then
		complete_words $m record -- bas >"$T/got"
		expect "$m: 'bootprof record -- bas<TAB>' offers bash" "grep -qx bash '$T/got'"
	fi
done

# Values offered for an option are values the command accepts: with each,
# it gets past option parsing (any status but 2 on a missing recording, or
# a usage error about something else, such as export's required -o), while
# a bogus value is a usage error that names it.
for c in $(cat "$T/cmds"); do
	for o in $("$BOOTPROF" "$c" --list-opts); do
		list=$(choices "$c" "$o" | tr '\n' ' ')
		[ -n "$list" ] || continue
		extra=
		run() {
			timeout 20 "$BOOTPROF" "$c" $extra "$o=$1" "$T/no-such.dat" </dev/null \
				>/dev/null 2>"$T/err"
		}
		run no-such-value
		rc=$?
		# An option that works only with another ("--table needs --format csv").
		needs=$(sed -nE 's/.*needs (--[a-z0-9-]+)[ =]([a-z0-9_-]+).*/\1=\2/p' "$T/err" | head -n 1)
		if [ -n "$needs" ]; then
			extra=$needs
			run no-such-value
			rc=$?
		fi
		if [ $rc -ne 2 ] || ! grep -q no-such-value "$T/err"; then
			skip "bootprof $c $o: values offered are accepted" \
				"a bogus value alone is not reported as such ($(head -n 1 "$T/err"))"
			continue
		fi
		bad=
		for v in $list; do
			run "$v"
			[ $? -eq 2 ] && grep -q "'$v'" "$T/err" && bad="$bad $v"
		done
		expect "bootprof $c ${extra:+$extra }$o accepts every value offered ($list)" \
			"[ -z '$bad' ] || { echo 'refused:$bad'; exit 1; }"
	done
done

# The option table is the one source: every option of --list-opts is in
# the completion data and in -h, with the same value name.
for c in $(cat "$T/cmds"); do
	expect "bootprof $c: --completion-helper has every option of --list-opts" \
		"helper $c | awk -F '\t' '\$1 == \"opt\" { print \$3 }' | grep . | sort >'$T/h' &&
		 '$BOOTPROF' $c --list-opts | sort | diff - '$T/h'"
	expect "bootprof $c: -h shows each option with the value name of the table" '
		helper '"$c"' | awk -F "\t" "\$1 == \"opt\" && \$3 != \"\" { print \$3, \$4 }" |
		while read -r long argh; do
			"$BOOTPROF" '"$c"' -h | grep -qE -- "(^|[ ,])$long${argh:+ $argh}( |\$)" ||
				{ echo "$long $argh"; exit 1; }
		done'
done
