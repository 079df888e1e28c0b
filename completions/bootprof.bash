# bash completion for bootprof                             -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0
#
# Everything comes from the program itself: the commands from
# `bootprof --list-cmds`, and each command's options, what they take and
# how to complete it from its option table, `bootprof CMD
# --completion-helper`:
#   opt<TAB>-o<TAB>--output<TAB>FILE<TAB>@file
#   opt<TAB><TAB>--format<TAB>FMT<TAB>text json csv markdown
#   arg<TAB>@recording
# The last field is a list of words or a class (@file, @recording,
# @command, @plugin, @plugin-opt, @kernel, @instance, @events,
# @live-events), so nothing here changes when a command gains an option.

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

# _bootprof_opt DATA OPT: "ARGH<TAB>COMPLETE" of OPT (-o or --output);
# returns 1 when OPT is unknown.
_bootprof_opt()
{
	awk -F '\t' -v o="$2" '$1 == "opt" && (o == $2 || o == $3) { print $4 "\t" $5; found = 1; exit }
		END { exit !found }' <<<"$1"
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

# The recording named on the command line (the first argument that is not
# an option or an option's value), or nothing: the command's default.
_bootprof_recording()
{
	local data=$1 from=$2 i w spec

	for ((i = from; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--*=* | -) ;;
		-*)
			spec=$(_bootprof_opt "$data" "$w") || continue
			[[ -n ${spec%%$'\t'*} ]] && ((i++))
			;;
		*)
			printf '%s\n' "$w"
			return
			;;
		esac
	done
}

# Complete a comma-separated list from WORDS (system:event names).
_bootprof_list()
{
	local words=$1 cur=$2 prefix=${2%"${2##*,}"}

	COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "${cur##*,}"))
	compopt -o nospace 2>/dev/null
}

# _bootprof_complete CLASS-OR-WORDS CUR DATA CMDPOS: fill COMPREPLY.
_bootprof_complete()
{
	local comp=$1 cur=$2 data=$3 from=$4 words file

	case $comp in
	@file) _bootprof_files "$cur" ;;
	@recording) _bootprof_dat_files "$cur" ;;
	@command) COMPREPLY=($(compgen -c -- "$cur")) ;;
	@plugin | @plugin-opt)
		# Names are the first word of each --list-plugins line; a
		# plugin option is NAME.KEY=VALUE, a selection NAME,NAME.
		words=$("$bp" report --list-plugins 2>/dev/null | awk '{ print $1 }')
		if [[ $comp == @plugin-opt ]]; then
			COMPREPLY=($(compgen -S . -W "$words" -- "$cur"))
			compopt -o nospace 2>/dev/null
		else
			_bootprof_list "$words" "$cur"
		fi
		;;
	@kernel) COMPREPLY=($(compgen -W "$(command ls /lib/modules 2>/dev/null)" -- "$cur")) ;;
	@instance)
		words=$(command ls /sys/kernel/tracing/instances 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		;;
	@live-events)
		_bootprof_list "$(cat /sys/kernel/tracing/available_events 2>/dev/null)" "$cur"
		;;
	@events)
		# The events in the recording, not in the running kernel.
		file=$(_bootprof_recording "$data" "$from")
		words=$("$bp" dump --count ${file:+"$file"} 2>/dev/null |
			awk '$2 ~ /^[a-z0-9_]+:[a-z0-9_]+$/ { print $2 }')
		_bootprof_list "$words" "$cur"
		;;
	@*) ;;
	*': '*)
		# "files: a b; procs: c d": the group named by a word of the
		# line (--view procs, --view=procs), else the first.
		local group label pick=
		IFS=';' read -ra words <<<"$comp"
		for group in "${words[@]}"; do
			group=${group# }
			label=${group%%:*}
			[[ -z $pick ]] && pick=${group#*: }
			if [[ " ${COMP_WORDS[*]} " == *[\ =]"$label "* ]]; then
				pick=${group#*: }
				break
			fi
		done
		COMPREPLY=($(compgen -W "$pick" -- "$cur"))
		;;
	*) COMPREPLY=($(compgen -W "$comp" -- "$cur")) ;;
	esac
}

_bootprof()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bp cmd= i j words data spec opt

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

	data=$("$bp" "$cmd" --completion-helper 2>/dev/null)

	# --opt=value: one word, or three when COMP_WORDBREAKS has "=".
	opt=
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		cur=${cur#*=}
	elif [[ $cur == = && $prev == --* ]]; then
		opt=$prev
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD >= 2)) && [[ ${COMP_WORDS[COMP_CWORD - 2]} == --* ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $prev == -* && $prev != -- ]] && ((COMP_CWORD - 1 > i)); then
		# --opt value, when the option takes one.
		spec=$(_bootprof_opt "$data" "$prev") && [[ -n ${spec%%$'\t'*} ]] && opt=$prev
	fi
	if [[ -n $opt ]]; then
		spec=$(_bootprof_opt "$data" "$opt") || return 0
		_bootprof_complete "${spec#*$'\t'}" "$cur" "$data" $((i + 1))
		return 0
	fi

	spec=$(sed -n 's/^arg\t//p' <<<"$data")
	if [[ $cur == -* || -z $spec ]]; then
		words=$(awk -F '\t' '$1 == "opt" && $3 != "" { print $3 }' <<<"$data")
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi
	_bootprof_complete "$spec" "$cur" "$data" $((i + 1))
	return 0
}

complete -F _bootprof bootprof
