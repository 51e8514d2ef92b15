#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp and spmv: spmove under cp's and mv's names, with exactly GNU 9.11's
# option sets.  Every option (short and long) and every abbreviation of a
# long option is read as getopt_long reads it with cp's and mv's tables:
# the expected reading is worked out here from those tables (cp.c and mv.c
# of coreutils 9.11), and side by side with GNU cp 9.11 when it is there
# ($GNU_CP).  Also: the --help usage lines, the program name in messages,
# spmv moves and spcp copies, and spmove keeps its own options.
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
: "${GNU_CP:=${PEER_COREUTILS:-/nonexistent}/cp}"
[ -x "$SPCP" ] && [ -x "$SPMV" ] || skip "no build-tree spcp and spmv"

# The long options of cp 9.11 and mv 9.11 in their tables' order, as
# NAME:ARG:ACTION (ARG: n none, r required, o optional; ACTION: the val).
CP_LONG="archive:n:a attributes-only:n:attr backup:o:b copy-contents:n:cc debug:n:debug
dereference:n:L force:n:f interactive:n:i link:n:l no-clobber:n:n no-dereference:n:P
no-preserve:r:nop no-target-directory:n:T one-file-system:n:x parents:n:par path:n:par
preserve:o:pre recursive:n:R remove-destination:n:rd sparse:r:sp reflink:o:rl
strip-trailing-slashes:n:sts suffix:r:S symbolic-link:n:s target-directory:r:t update:o:u
verbose:n:v keep-directory-symlink:n:kds context:o:Z help:n:help version:n:version"
MV_LONG="backup:o:b context:n:Z debug:n:debug exchange:n:ex force:n:f interactive:n:i
no-clobber:n:n no-copy:n:nc no-target-directory:n:T strip-trailing-slashes:n:sts suffix:r:S
target-directory:r:t update:o:u verbose:n:v help:n:help version:n:version"
CP_SHORT=abdfHilLnprst:uvxPRS:TZ
MV_SHORT=bfint:uvS:TZ

# resolve TABLE WORD: how getopt_long reads --WORD with TABLE: "=NAME" (the
# option NAME), "?" (unrecognized) or "!NAME NAME..." (ambiguous: the first
# match and the matches that act otherwise, as glibc lists them).
resolve() {
	local e name first="" firstact="" list="" amb=0
	for e in $1; do
		name=${e%%:*}
		[ "$name" = "$2" ] && { echo "=$name"; return; }
	done
	for e in $1; do
		name=${e%%:*}
		[ "${name#"$2"}" != "$name" ] || continue
		if [ -z "$first" ]; then
			first=$name firstact=${e#*:} list=$name
		elif [ "${e#*:}" != "$firstact" ]; then
			amb=1 list="$list $name"
		fi
	done
	if [ -z "$first" ]; then echo "?"
	elif [ $amb = 1 ]; then echo "!$list"
	else echo "=$first"; fi
}

# arg_kind TABLE NAME: n, r or o, as option NAME of TABLE takes an argument.
arg_kind() {
	local e
	for e in $1; do
		[ "${e%%:*}" = "$2" ] && { e=${e#*:}; echo "${e%%:*}"; return; }
	done
}

# first_error TOOL NAME ARG...: TOOL's status and the first line of its
# stderr, with the program name (however argv[0] reads) as NAME.
first_error() {
	local tool=$1 name=$2 rc
	shift 2
	"$tool" "$@" >/dev/null 2>"$T_DIR/first-error" </dev/null
	rc=$?
	echo "$rc $(head -1 "$T_DIR/first-error")" | sed "s|^\([0-9]*\) [^ :]*$name:|\1 $name:|"
}

# check_table TOOL NAME LONG SHORT: every abbreviation of every long option,
# and every short option, read as the table says.
check_table() {
	local tool=$1 name=$2 long=$3 short=$4 e opt i prefix want got letter
	for e in $long; do
		opt=${e%%:*}
		for ((i = 1; i <= ${#opt}; i++)); do
			prefix=${opt:0:i}
			want=$(resolve "$long" "$prefix")
			case $want in
			=help | =version)
				got=$("$tool" "--$prefix" 2>&1 | head -1)
				case $want in
				=help) check_eq "$name --$prefix is --help" "Usage: $name [OPTION]... [-T] SOURCE DEST" "$got" ;;
				*) check_eq "$name --$prefix is --version" "$name (splice-utils)" "${got% *}" ;;
				esac
				continue ;;
			"?") want="1 $name: unrecognized option '--$prefix'" ;;
			"!"*) want="1 $name: option '--$prefix' is ambiguous; possibilities:$(printf " '--%s'" ${want#!})" ;;
			=*)
				# An unknown option after it: the first error is about
				# that one, unless --PREFIX takes it as its argument.
				if [ "$(arg_kind "$long" "${want#=}")" = r ]; then
					want=taken
				else
					want="1 $name: unrecognized option '--zzz'"
				fi ;;
			esac
			got=$(first_error "$tool" "$name" "--$prefix" --zzz)
			if [ "$want" = taken ]; then
				ok "$name --$prefix takes an argument" test "$got" != "1 $name: unrecognized option '--zzz'"
			else
				check_eq "$name --$prefix" "$want" "$got"
			fi
		done
	done
	# Every letter: the ones of the table are options, the others not.
	for letter in a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z; do
		got=$(first_error "$tool" "$name" "-${letter}x" --zzz)
		case $short in
		*"$letter:"*) ok "$name -$letter takes an argument" test "$got" != "1 $name: invalid option -- '$letter'" ;;
		*"$letter"*) ok "$name -$letter is an option" test "$got" != "1 $name: invalid option -- '$letter'" ;;
		*) check_eq "$name -$letter is not an option" "1 $name: invalid option -- '$letter'" "$got" ;;
		esac
	done
}

check_table "$SPCP" spcp "$CP_LONG" "$CP_SHORT"
check_table "$SPMV" spmv "$MV_LONG" "$MV_SHORT"

# The issue's example: in cp, --rem is --remove-destination.
mkdir rd && echo new >rd/a && echo old >rd/b && ln -s b rd/l
"$SPCP" --rem rd/a rd/l
ok "spcp --rem replaces a symbolic link (--remove-destination)" test ! -L rd/l
check_eq "spcp --rem: the link's target kept" old "$(cat rd/b)"

# Side by side with GNU cp 9.11: each abbreviation, each letter.
if [ -x "$GNU_CP" ]; then
	for e in $CP_LONG; do
		opt=${e%%:*}
		for ((i = 1; i <= ${#opt}; i++)); do
			prefix=${opt:0:i}
			case $(resolve "$CP_LONG" "$prefix") in =help | =version) continue ;; esac
			check_eq "spcp --$prefix as GNU cp's" \
				"$(first_error "$GNU_CP" cp "--$prefix" --zzz)" \
				"$(first_error "$SPCP" spcp "--$prefix" --zzz | sed 's/^\([0-9]*\) spcp:/\1 cp:/')"
		done
	done
	want=$("$GNU_CP" --help | sed -n '1,3p' | sed "s|$GNU_CP|cp|")
	check_eq "spcp --help: GNU cp's usage lines" "$want" "$("$SPCP" --help | sed -n '1,3p' | sed 's/spcp/cp/')"
else
	echo "# GNU cp 9.11 not found at $GNU_CP: its side-by-side checks left out"
fi

# --help: the usage lines, under the program's name (the rest is in our
# own words).
check_eq "spmv --help: mv's usage lines" "Usage: spmv [OPTION]... [-T] SOURCE DEST
  or:  spmv [OPTION]... SOURCE... DIRECTORY
  or:  spmv [OPTION]... -t DIRECTORY SOURCE..." "$("$SPMV" --help | sed -n 1,3p)"
if mv --help >/dev/null 2>&1; then
	check_eq "spmv --help: the usage lines of the system's mv" \
		"$(mv --help | sed -n '1,3p')" "$("$SPMV" --help | sed -n '1,3p' | sed 's/spmv/mv/')"
fi
check_eq "spmove --help: its own" "Usage: spmove [OPTION]... [-T] SRC DST" "$("$SPMOVE" --help | head -1)"

# Messages: the program's name, as cp and mv say them.
mkdir m && echo x >m/a
for pair in "$SPCP:spcp:cp" "$SPMV:spmv:mv"; do
	tool=${pair%%:*} rest=${pair#*:}
	name=${rest%%:*} gnu=${rest#*:}
	check_eq "$name: no operand" "$name: missing file operand
Try '$name --help' for more information." "$("$tool" 2>&1)"
	check_eq "$name: a missing source" "1 $name: cannot stat 'm/none': No such file or directory" \
		"$(first_error "$tool" "$name" m/none m/x)"
	check_eq "$name: as $gnu says it" "$(first_error "$gnu" "$gnu" m/none m/x)" \
		"$(first_error "$tool" "$name" m/none m/x | sed "s/ $name:/ $gnu:/")"
	check_eq "$name: one -t only" "1 $name: multiple target directories specified" \
		"$(first_error "$tool" "$name" -t m -t m m/a)"
done

# spmv moves, spcp copies; spmove keeps its options and copies.
mkdir w && echo data >w/a
"$SPCP" w/a w/b
ok "spcp copies" test -f w/a -a -f w/b
"$SPMV" w/b w/c
ok "spmv moves" test ! -e w/b -a -f w/c
check_eq "spmv: the data" data "$(cat w/c)"
check_eq "spmv -v: mv's words" "renamed 'w/c' -> 'w/d'" "$("$SPMV" -v w/c w/d)"
check_eq "spmv refuses spmove's --remove-source" "1 spmv: unrecognized option '--remove-source'" \
	"$(first_error "$SPMV" spmv --remove-source w/a w/e)"
check_eq "spcp refuses spmove's --method" "1 spcp: unrecognized option '--method=rw'" \
	"$(first_error "$SPCP" spcp --method=rw w/a w/e)"
"$SPMOVE" --method=rw w/a w/e
ok "spmove keeps --method" test -f w/a -a -f w/e

# -Z/--context as on a kernel without SELinux.
check_eq "spcp -Z: nothing said" "0 " "$(first_error "$SPCP" spcp -Z w/a w/z)"
check_eq "spcp --context=CTX: a warning" \
	"0 spcp: warning: ignoring --context; it requires an SELinux-enabled kernel" \
	"$(first_error "$SPCP" spcp --context=x w/a w/z2)"
check_eq "spmv -Z: nothing said" "0 " "$(first_error "$SPMV" spmv -Z w/z w/z3)"

# --strip-trailing-slashes: the source's trailing slashes go.
mkdir -p s/dir && ln -s dir s/link
"$SPCP" -r --strip-trailing-slashes s/link/ s/copy
ok "spcp --strip-trailing-slashes: the link copied, not what it names" test -L s/copy
"$SPMV" --strip-trailing-slashes s/link/ s/moved
ok "spmv --strip-trailing-slashes: the link moved" test -L s/moved -a ! -L s/link

# Under GNU's names (links named cp, mv, cat, tee): the personality, and
# messages, usage hints and --help with the name run, as GNU's tools name
# themselves from argv[0].
mkdir gnu
for pair in cp:spmove mv:spmove cat:spcat tee:sptee; do
	ln -s "$(real_bin "${pair#*:}")" "gnu/${pair%%:*}"
done
use_built_library
check_eq "a link named cp: cp's messages" "cp: cannot stat 'nosuch': No such file or directory" \
	"$(gnu/cp nosuch x 2>&1)"
check_eq "a link named cp: cp's abbreviations (--rem)" "cp: missing file operand
Try 'cp --help' for more information." "$(gnu/cp --rem 2>&1)"
check_eq "a link named mv: mv's usage line" "Usage: mv [OPTION]... [-T] SOURCE DEST" \
	"$(gnu/mv --help | head -1)"
echo data >gnu-src
gnu/mv gnu-src gnu-dst
ok "a link named mv moves" test -f gnu-dst -a ! -e gnu-src
check_eq "a link named cat: cat's messages" "cat: nosuch: No such file or directory" \
	"$(gnu/cat nosuch 2>&1)"
check_eq "a link named tee: tee's messages" "tee: unrecognized option '--nosuch'" \
	"$(gnu/tee --nosuch 2>&1 </dev/null | head -1)"
check_eq "spmove under its own name" "spmove: cannot stat 'nosuch': No such file or directory" \
	"$("$SPMOVE" nosuch x 2>&1)"

done_testing
