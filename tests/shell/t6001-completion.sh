#!/bin/sh
# Shell completion: completions/bootprof.bash is sourced in bash and driven
# the way readline does (COMP_WORDS, COMP_CWORD, then _bootprof); each
# answer is compared with what the program itself says (--list-cmds,
# CMD --list-opts, CMD -h). bash is driven with and without the
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
for i in {1..300}; do [[ -e $out.end ]] && break; sleep 0.05; done
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
		TMPDIR=$TEST_DIR timeout 30 zsh -f "$TEST_DIR/zcomp.zsh" "$TOP/completions" "$TEST_DIR/cwd" \
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

# optarg USAGE OPT: what the completion's usage parser says OPT takes.
optarg() {
	bash -c '. "$0"; _bootprof_optarg "$1" "$2"' "$COMP" "$1" "$2"
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

	# Commands whose synopsis takes a recording complete *.dat files; the
	# others complete their options.
	for c in $(cat "$T/cmds"); do
		# A command with subcommands ("bootprof db add ...") offers them first.
		subs=$("$BOOTPROF" "$c" -h | sed -n "s/^.*bootprof $c \([a-z][a-z-]*\).*/\1/p" | sort -u)
		if [ -n "$subs" ]; then
			echo "$subs" >"$T/want"
			complete_words $m "$c" '' >"$T/got"
			same "$m: 'bootprof $c <TAB>' offers its subcommands" "$T/want" "$T/got"
			continue
		fi
		if ! "$BOOTPROF" "$c" -h | grep -- "bootprof $c" |
			sed -E 's/-{1,2}[a-z0-9-]+[ =][A-Z<][^] ]*//g' | grep -qw FILE; then
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

	# Options with a value: choices from the usage text, files for FILE.
	for c in $(cat "$T/cmds"); do
		"$BOOTPROF" "$c" -h >"$T/usage"
		for o in $("$BOOTPROF" "$c" --list-opts); do
			choices=$(optarg "$(cat "$T/usage")" "$o" | grep '|')
			if grep -qE -- "$o(=| )(FILE|PATH)" "$T/usage"; then
				printf 'notes.txt\n' >"$T/want"
				complete_words $m "$c" "$o" n >"$T/got"
				same "$m: 'bootprof $c $o n<TAB>' completes any file" "$T/want" "$T/got"
			fi
			if case $o in *plugin*) true ;; *) false ;; esac &&
				grep -qE -- "$o(=| )[A-Z]" "$T/usage"; then
				if "$BOOTPROF" report --list-plugins >"$T/plugins" 2>/dev/null; then
					# NAME.KEY=VALUE options complete "NAME."
					suffix=
					# (zsh adds it as a suffix, which compadd -A does not show).
					grep -qE -- "$o(=| )[A-Z]+\.[A-Z]" "$T/usage" && [ $m != zsh ] && suffix=.
					awk -v s="$suffix" '{ print $1 s }' "$T/plugins" | sort >"$T/want"
					complete_words $m "$c" "$o" '' >"$T/got"
					same "$m: 'bootprof $c $o <TAB>' offers the names of 'report --list-plugins'" "$T/want" "$T/got"
				else
					skip "$m: 'bootprof $c $o <TAB>'" "no 'bootprof report --list-plugins'"
				fi
			fi
			[ -n "$choices" ] || continue
			echo "$choices" | tr '|' '\n' | sort >"$T/want"
			complete_words $m "$c" "$o" '' >"$T/got"
			same "$m: 'bootprof $c $o <TAB>' offers $choices" "$T/want" "$T/got"
			if [ $m = zsh ]; then
				complete_words $m "$c" "$o=" >"$T/got"
			else
				complete_words $m "$c" "$o" = '' >"$T/got"
			fi
			same "$m: 'bootprof $c $o=<TAB>' offers $choices" "$T/want" "$T/got"
		done
	done

	# record -- CMD: a command line, completed as commands.
	if grep -qx record "$T/cmds"; then
		complete_words $m record -- bas >"$T/got"
		expect "$m: 'bootprof record -- bas<TAB>' offers bash" "grep -qx bash '$T/got'"
	fi
done

# Values offered for an option are values the command accepts: with each,
# it gets past option parsing (any status but 2 on a missing recording),
# while a bogus value is a usage error.
for c in $(cat "$T/cmds"); do
	"$BOOTPROF" "$c" -h >"$T/usage"
	for o in $("$BOOTPROF" "$c" --list-opts); do
		choices=$(optarg "$(cat "$T/usage")" "$o" | grep '|') || continue
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
		for v in $(echo "$choices" | tr '|' ' '); do
			run "$v"
			[ $? -eq 2 ] && bad="$bad $v"
		done
		expect "bootprof $c ${extra:+$extra }$o accepts every value offered ($choices)" \
			"[ -z '$bad' ] || { echo 'refused:$bad'; exit 1; }"
	done
done

# The parser of usage texts, on the styles commands use.
U='usage: bootprof x [-o FILE] [--force] [--format text|json|csv] [--top N] [FILE]
  -o, --output FILE      write to FILE
  -d, --delay=SECONDS    refresh period
  --tree                 show a tree'
expect "usage parser: --output FILE" "[ \"\$(optarg '$U' --output)\" = FILE ]"
expect "usage parser: -o FILE" "[ \"\$(optarg '$U' -o)\" = FILE ]"
expect "usage parser: -d maps to --delay=SECONDS" "[ \"\$(optarg '$U' -d)\" = SECONDS ]"
expect "usage parser: --format choices" "[ \"\$(optarg '$U' --format)\" = 'text|json|csv' ]"
expect "usage parser: --top N" "[ \"\$(optarg '$U' --top)\" = N ]"
expect "usage parser: --force takes nothing" "[ -z \"\$(optarg '$U' --force)\" ]"
expect "usage parser: --tree takes nothing" "[ -z \"\$(optarg '$U' --tree)\" ]"
U='usage: bootprof x [options] [FILE]
  -f, --format FMT     text (default), json, csv or markdown
      --table NAME     csv table: processes, files,
                       disks (default processes)
  -n, --top N          rows per list (default 10, or all)
      --comm STR       substring'
expect "usage parser: choices listed in a description" \
	"[ \"\$(optarg '$U' -f)\" = 'text|json|csv|markdown' ]"
expect "usage parser: choices over two lines, after a colon" \
	"[ \"\$(optarg '$U' --table)\" = 'processes|files|disks' ]"
expect "usage parser: a description is not a list of choices" \
	"[ \"\$(optarg '$U' --top)\" = N ] && [ \"\$(optarg '$U' --comm)\" = STR ]"
U='usage: bootprof x [--view files|procs] [--sort COL]
  -s, --sort COL       sort column (files: wait, read, path; procs: pid,
                       comm, wait)'
expect "usage parser: choices grouped by another option's value, first group" \
	"[ \"\$(optarg '$U' --sort)\" = 'wait|read|path' ]"
expect "usage parser: choices grouped by another option's value, named group" \
	"[ \"\$(bash -c '. \"\$0\"; COMP_WORDS=(bootprof x --view procs -s); _bootprof_optarg \"\$1\" -s' '$COMP' '$U')\" = 'pid|comm|wait' ]"

