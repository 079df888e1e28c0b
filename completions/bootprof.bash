# bash completion for bootprof                             -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0
#
# Commands, options and plugin names come from the program itself
# (`bootprof --list-cmds`, `bootprof CMD --list-opts`, `bootprof report
# --list-plugins`); whether an option takes a value, and its choices, are
# read from the command's usage text (`--format text|json`, `--output FILE`),
# so nothing here has to change when a command gains an option.

# The bootprof being completed: the word typed (./bootprof, ~/bin/bootprof)
# when it can be run, else the one on PATH.
_bootprof_prog()
{
	local bp=${COMP_WORDS[0]}

	[[ $bp == "~/"* ]] && bp=$HOME/${bp#"~/"}
	if [[ $bp == */* ]]; then
		[[ -x $bp && ! -d $bp ]] && { printf '%s\n' "$bp"; return; }
	elif type -P "$bp" >/dev/null 2>&1; then
		printf '%s\n' "$bp"
		return
	fi
	printf 'bootprof\n'
}

# _bootprof_optarg USAGE OPT: print what OPT takes according to the usage
# text ("FILE", "text|json|csv", ...), or nothing when it takes no value.
# A short option is first mapped to its long form ("-o, --output FILE").
_bootprof_optarg()
{
	local usage=$1 opt=$2 long re arg choices

	if [[ $opt == -[!-] ]]; then
		re="(^|[[ ])${opt}(, *| *\\| *)(--[a-z0-9-]+)"
		if [[ $usage =~ $re ]]; then
			opt=${BASH_REMATCH[3]}
		else
			re="(^|[[ ])${opt}[ =]([A-Z<][^] ]*)"
			[[ $usage =~ $re ]] && printf '%s\n' "${BASH_REMATCH[2]}"
			return
		fi
	fi
	long=${opt%%=*}
	re="(^|[[ ,|])${long}(=| )([A-Z<][^] ]*|[a-z0-9_-]+(\\|[a-z0-9_-]+)+)"
	[[ $usage =~ $re ]] || return 0
	arg=${BASH_REMATCH[3]}
	if [[ $arg == [A-Z]* ]]; then
		choices=$(_bootprof_choices "$usage" "$long" "${COMP_WORDS[*]}")
		[[ -n $choices ]] && arg=$choices
	fi
	printf '%s\n' "$arg"
}

# _bootprof_choices USAGE LONGOPT WORDS: "a|b|c" when the option's
# description lists its values: "--format FMT  text (default), json, csv or
# markdown", "--table NAME  csv table: processes, files, ..." over several
# lines, or "--sort COL  sort column (files: wait, read; procs: pid, comm)"
# where WORDS (the command line) picks the group ("--view procs").
_bootprof_choices()
{
	printf '%s\n' "$1" |
	awk -v opt="$2" -v line="$3" '
	function islist(s) { return s ~ /^[a-z0-9_-]+((,? or |, )[a-z0-9_-]+)+$/ }
	function tolist(s) { gsub(/,? or |, /, "|", s); return s }
	function emit(d, inner, g, ng, i, label, lst, first) {
		done = 1
		d = cur
		gsub(/\([^)]*\)/, "", d)
		sub(/^[^:]*: */, "", d)
		gsub(/ +,/, ",", d)
		sub(/ +$/, "", d)
		if (islist(d)) {
			print tolist(d)
			return
		}
		# "(files: wait, read; procs: pid, comm)": the group named by a
		# word of the command line (--view procs), else the first.
		if (!match(cur, /\([^)]*\)/))
			return
		inner = substr(cur, RSTART + 1, RLENGTH - 2)
		ng = split(inner, g, /; */)
		for (i = 1; i <= ng; i++) {
			if (g[i] !~ /^[a-z0-9_-]+: /)
				continue
			label = g[i]
			sub(/:.*/, "", label)
			lst = g[i]
			sub(/^[^:]*: */, "", lst)
			sub(/ +$/, "", lst)
			if (!islist(lst))
				continue
			if (first == "")
				first = lst
			if (label in onl) {
				print tolist(lst)
				return
			}
		}
		if (first != "")
			print tolist(first)
	}
	BEGIN {
		n = split(line, w, " ")
		for (i = 1; i <= n; i++)
			onl[w[i]] = 1
	}
	done { next }
	cur != "" && /^        +[^ -]/ {
		sub(/^ +/, "")
		cur = cur " " $0
		next
	}
	cur != "" { emit() }
	$0 ~ "^ *(-[a-zA-Z0-9], *)?" opt "[ =][A-Z][A-Z_]* " {
		cur = $0
		sub("^ *(-[a-zA-Z0-9], *)?" opt "[ =][A-Z][A-Z_]* +", "", cur)
	}
	END { if (!done && cur != "") emit() }'
}

# Whether CMD takes a recording as an argument: its synopsis lines (those
# naming "bootprof CMD") have FILE other than as the value of an option.
_bootprof_takes_file()
{
	local usage

	usage=$("$1" "$2" -h 2>/dev/null | grep -- "bootprof $2" |
		sed -E 's/-{1,2}[a-z0-9-]+[ =][A-Z<][^] ]*//g')
	[[ $usage =~ (^|[^A-Za-z_-])FILE([^A-Za-z_]|$) ]]
}

# Complete file names ending in .dat (and directories to walk into).
_bootprof_dat_files()
{
	local cur=$1

	if declare -F _filedir >/dev/null; then
		_filedir dat
		return
	fi
	compopt -o filenames 2>/dev/null
	local IFS=$'\n'
	COMPREPLY+=($(compgen -d -- "$cur") $(compgen -f -X '!*.dat' -- "$cur"))
}

_bootprof_files()
{
	local cur=$1

	if declare -F _filedir >/dev/null; then
		_filedir
		return
	fi
	compopt -o filenames 2>/dev/null
	local IFS=$'\n'
	COMPREPLY+=($(compgen -f -- "$cur"))
}

# Complete the value of option OPT of command CMD; returns 1 when OPT takes
# no value.
_bootprof_value()
{
	local bp=$1 cmd=$2 opt=$3 cur=$4 usage arg words

	usage=$("$bp" "$cmd" -h 2>/dev/null)
	arg=$(_bootprof_optarg "$usage" "$opt")
	[[ -n $arg ]] || return 1

	case $arg in
	*'|'*)
		COMPREPLY=($(compgen -W "${arg//|/ }" -- "$cur"))
		return 0
		;;
	esac
	case $opt in
	*plugin*)
		# Names are the first word of each --list-plugins line; a
		# plugin option is NAME.KEY=VALUE, a selection NAME,NAME.
		words=$("$bp" report --list-plugins 2>/dev/null | awk '{ print $1 }')
		if [[ $arg == *KEY* || $arg == *=* ]]; then
			COMPREPLY=($(compgen -S . -W "$words" -- "$cur"))
		else
			local prefix=${cur%"${cur##*,}"}
			COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "${cur##*,}"))
		fi
		compopt -o nospace 2>/dev/null
		;;
	--until-exec)
		COMPREPLY=($(compgen -c -- "$cur"))
		;;
	--kernel)
		words=$(command ls /lib/modules 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		;;
	--instance)
		words=$(command ls /sys/kernel/tracing/instances 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		;;
	--events)
		# Comma-separated system:event names, when tracefs is readable.
		local prefix=${cur%"${cur##*,}"}
		words=$(sed 's/$/ /' /sys/kernel/tracing/available_events 2>/dev/null)
		COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		;;
	*)
		case $arg in
		FILE* | PATH* | DIR* | '<file'* | '<path'*) _bootprof_files "$cur" ;;
		esac
		;;
	esac
	return 0
}

_bootprof()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bp cmd= i words

	COMPREPLY=()
	bp=$(_bootprof_prog)

	# The command is the first word that is not a global option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			words=$("$bp" --help 2>/dev/null | head -n 1 | grep -o -- '--[a-z][a-z0-9-]*')
		else
			words=$("$bp" --list-cmds 2>/dev/null)
		fi
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi

	if [[ $cmd == help ]]; then
		((COMP_CWORD == i + 1)) &&
			COMPREPLY=($(compgen -W "$("$bp" --list-cmds 2>/dev/null)" -- "$cur"))
		return 0
	fi

	# After "--" comes a command line to run (record -- CMD ...).
	local j
	for ((j = i + 1; j < COMP_CWORD; j++)); do
		if [[ ${COMP_WORDS[j]} == -- ]]; then
			if declare -F _command_offset >/dev/null; then
				_command_offset $((j + 1))
			elif ((COMP_CWORD == j + 1)); then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				_bootprof_files "$cur"
			fi
			return 0
		fi
	done

	# --opt=value: one word, or three when COMP_WORDBREAKS has "=".
	if [[ $cur == --*=* ]]; then
		local opt=${cur%%=*}
		cur=${cur#*=}
		_bootprof_value "$bp" "$cmd" "$opt" "$cur"
		return 0
	fi
	if [[ $cur == = && $prev == --* ]]; then
		_bootprof_value "$bp" "$cmd" "$prev" ""
		return 0
	fi
	if [[ $prev == = ]] && ((COMP_CWORD >= 2)) && [[ ${COMP_WORDS[COMP_CWORD - 2]} == --* ]]; then
		_bootprof_value "$bp" "$cmd" "${COMP_WORDS[COMP_CWORD - 2]}" "$cur"
		return 0
	fi
	# --opt value
	if [[ $prev == -* && $prev != -- ]] && ((COMP_CWORD - 1 > i)); then
		_bootprof_value "$bp" "$cmd" "$prev" "$cur" && return 0
	fi

	# Subcommands ("bootprof db add|export|schema"): the lowercase words
	# that follow "bootprof CMD" in its synopsis, as the first argument.
	if [[ $cur != -* ]] && ((COMP_CWORD == i + 1)); then
		words=$("$bp" "$cmd" -h 2>/dev/null | sed -n "s/^.*bootprof $cmd \([a-z][a-z-]*\).*/\1/p")
		if [[ -n $words ]]; then
			COMPREPLY=($(compgen -W "$words" -- "$cur"))
			return 0
		fi
	fi

	if [[ $cur == -* ]] || ! _bootprof_takes_file "$bp" "$cmd"; then
		words=$("$bp" "$cmd" --list-opts 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi
	_bootprof_dat_files "$cur"
	return 0
}

complete -F _bootprof bootprof
