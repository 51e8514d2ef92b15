#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completions in contrib/completion/ load with bash-completion and
# complete what the tools accept: every option of --help, each option's
# values exactly as the tool's own argument parser lists them, acctpin's
# verbs and each verb's own options, directories where a directory is due.
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
BC=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}
export LC_ALL=C
[ -r "$BC" ] || skip "bash-completion is not installed"
# shellcheck disable=SC1090
. "$BC" 2>/dev/null
PATH=$top_builddir/src/spcat:$top_builddir/src/sptee:$top_builddir/src/spmove:$top_builddir/src/acctpin:$PATH
registered() { complete -p "$1" >/dev/null 2>&1; }
for tool in spcat sptee spmove spcp spmv acctpin; do
	# shellcheck disable=SC1090
	. "$top_srcdir/contrib/completion/$tool"
	ok "$tool: the completion is registered" registered "$tool"
done

# candidates LINE: the candidates bash would offer at the end of LINE, one a
# line, sorted.  LINE is cut into words as bash does (at blanks, and "=" is
# a word of its own).
candidates() {
	local line=$1 w
	COMP_WORDS=()
	for w in $line; do
		if [[ $w == --*=* ]]; then
			COMP_WORDS+=("${w%%=*}" "=")
			[ -n "${w#*=}" ] && COMP_WORDS+=("${w#*=}")
		else
			COMP_WORDS+=("$w")
		fi
	done
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	local fn
	fn=$(complete -p "${COMP_WORDS[0]}" | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
	"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	[ ${#COMPREPLY[@]} -gt 0 ] && printf '%s\n' "${COMPREPLY[@]}" | sort
}

# valid_list TOOL ARG...: the words of TOOL's "Valid arguments are:" list
# when run with ARG... (an invalid value), sorted, one a line.
valid_list() {
	local tool=$1
	shift
	"$tool" "$@" 2>&1 </dev/null | sed -n "s/^  - //p" | tr -d "'" | tr ',' '\n' |
		sed 's/^ *//' | sort
}

# long_options TOOL [VERB]: the long options TOOL's --help lists, sorted.
long_options() {
	"$@" --help | grep -o -- '--[a-z][a-z-]*' | sort -u
}

# Every long option of --help is offered after "--", and nothing else.
for tool in spcat sptee spmove spcp spmv; do
	check_eq "$tool: -- offers every long option of --help" \
		"$(long_options $tool)" "$(candidates "$tool --" | sed 's/=$//' | grep -- '^--' | sort -u)"
done
check_eq "spmove: --meth completes to --method=" "--method=" "$(candidates "spmove --meth")"
mkdir "$T_DIR/d1" "$T_DIR/d2" && touch "$T_DIR/f"
check_eq "spmove: -t is followed by a directory" "$(printf '%s\n' "$T_DIR/d1" "$T_DIR/d2")" \
	"$(candidates "spmove -t $T_DIR/")"

# Each option's values are what the parser accepts.
check_eq "spmove --preserve= offers the parser's list" "$(valid_list spmove --preserve=zz a b)" \
	"$(candidates "spmove --preserve=")"
check_eq "spmove --preserve=mode,ti completes the second item" "mode,timestamps" \
	"$(candidates "spmove --preserve=mode,ti")"
check_eq "spmove --no-preserve= offers the same list" "$(valid_list spmove --preserve=zz a b)" \
	"$(candidates "spmove --no-preserve=")"
check_eq "spmove --sparse= offers the parser's list" "$(valid_list spmove --sparse=zz a b)" \
	"$(candidates "spmove --sparse=")"
check_eq "spmove --backup= offers the parser's list" "$(valid_list spmove --backup=zz a b)" \
	"$(candidates "spmove --backup=")"
check_eq "spmove --reflink= offers the parser's list" "$(valid_list spmove --reflink=zz a b)" \
	"$(candidates "spmove --reflink=")"
check_eq "spmove --update= offers the parser's list" "$(valid_list spmove --update=zz a b)" \
	"$(candidates "spmove --update=")"
for tool in spcp spmv; do
	check_eq "$tool --backup= offers the parser's list" "$(valid_list $tool --backup=zz a b)" \
		"$(candidates "$tool --backup=")"
	check_eq "$tool --update= offers the parser's list" "$(valid_list $tool --update=zz a b)" \
		"$(candidates "$tool --update=")"
	check_eq "$tool: -t is followed by a directory" "$(printf '%s\n' "$T_DIR/d1" "$T_DIR/d2")" \
		"$(candidates "$tool -t $T_DIR/")"
done
check_eq "spcp --preserve= offers the parser's list" "$(valid_list spcp --preserve=zz a b)" \
	"$(candidates "spcp --preserve=")"
check_eq "spcp --sparse= offers the parser's list" "$(valid_list spcp --sparse=zz a b)" \
	"$(candidates "spcp --sparse=")"
check_eq "sptee --output-error= offers the parser's list" "$(valid_list sptee --output-error=zz)" \
	"$(candidates "sptee --output-error=")"
for tool in spcat sptee spmove; do
	check_eq "$tool --progress= offers the parser's list" "$(valid_list $tool --progress=zz)" \
		"$(candidates "$tool --progress=")"
	check_eq "$tool --progress with a blank completes file names (the style needs =)" \
		"$T_DIR/f" "$(candidates "$tool --progress $T_DIR/f")"
done
# --method has no argmatch list: each value offered is accepted, and each
# is named in --help.
for m in $(candidates "spmove --method="); do
	ok "spmove --method=$m is accepted" \
		sh -c '! spmove --method="$1" /nonexistent x 2>&1 | grep -q "invalid argument"' sh "$m"
	ok "spmove --help names method $m" sh -c 'spmove --help | grep -q -- "$1"' sh "$m"
done
check_eq "spmove --method= offers 7 methods" 7 "$(candidates "spmove --method=" | wc -l)"

# acctpin: verbs first, then the verb's own options and values.
check_eq "acctpin offers its verbs" "$(printf '%s\n' --help --version dump race run | sort)" \
	"$(candidates "acctpin ")"
check_eq "acctpin run -- offers run's options" "$(long_options acctpin run)" \
	"$(candidates "acctpin run --" | sed 's/=$//' | sort -u)"
check_eq "acctpin dump -- offers dump's options" "$(long_options acctpin dump)" \
	"$(candidates "acctpin dump --" | sed 's/=$//' | sort -u)"
scenarios=$(acctpin run --scenario zz 2>&1 | sed -n 's/.*(\(.*\))$/\1/p' | tr -d ' ' | tr ',' '\n' | sort)
check_eq "acctpin run --scenario offers the scenarios the tool knows" "$scenarios" \
	"$(candidates "acctpin run --scenario ")"
check_eq "acctpin run --fs= offers the scratch file systems" "$(printf "%s\n" ext4 existing tmpfs | sort)" \
	"$(candidates "acctpin run --fs=")"
check_eq "acctpin run --expect= offers linux and bsd" "$(printf '%s\n' bsd linux)" \
	"$(candidates "acctpin run --expect=")"

# Operands complete as file names.
touch "$T_DIR/operand-file"
check_eq "spcat completes file names" "$T_DIR/operand-file" "$(candidates "spcat $T_DIR/operand-")"

done_testing
