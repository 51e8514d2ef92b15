#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spmove's command line as GNU getopt_long reads it, side by side with GNU
# cp: abbreviations, -tDIR and -t DIR, bundles, "--", operands among
# options, errors and their status, --help and --version into a closed or
# full stdout.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL

# setup DIR: the same files for each side: a, an old file, a file named
# -f, a file named mode (old timestamps, mode 640), an empty directory and
# a small tree.
setup() {
	rm -rf "$1" && mkdir "$1" && (
		cd "$1" || exit 1
		cp ../a a
		echo old >old
		echo dash >-f
		echo mode >mode
		chmod 640 mode
		touch -d 2001-02-03 mode
		mkdir dir tree tree/sub
		echo x >tree/x
		echo y >tree/sub/y
	)
}

# as_cp DESCRIPTION ARG...: spmove in sp/ and GNU cp in gnu/, each in a
# fresh setup, given the same arguments, leave the same files and say the
# same (but for the name), with the same status.
as_cp() {
	local what=$1; shift
	setup sp && setup gnu
	(cd sp && "$SPMOVE" "$@" >out 2>err; echo $? >rc)
	(cd gnu && cp "$@" >out 2>err; echo $? >rc)
	sed -i "s/^spmove:/cp:/; s/'spmove --help'/'cp --help'/" sp/err
	ok "$what: as cp" diff -r gnu sp
	check_eq "$what: status as cp's" "$(cat gnu/rc)" "$(cat sp/rc)"
}

# usage_error DESCRIPTION MESSAGE ARG...: spmove refuses ARGs with exactly
# "spmove: MESSAGE" and the hint to --help, status 1, and copies nothing.
usage_error() {
	local what=$1 message=$2; shift 2
	setup sp
	(cd sp && "$SPMOVE" "$@" >out 2>err; echo $? >rc)
	check_eq "$what: status 1" 1 "$(cat sp/rc)"
	check_eq "$what: message" "spmove: $message
Try 'spmove --help' for more information." "$(cat sp/err)"
	ok "$what: nothing copied" test ! -e sp/b
}

make_random a 100000

# Errors cp makes the same way.
as_cp "unknown long option" --bogus a b
as_cp "unknown long option with an argument" --bogus=1 a b
as_cp "unknown short option" -j a b
as_cp "unknown short option in a bundle" -rj a b
as_cp "missing argument" a --target-directory
as_cp "missing argument of an abbreviation: the full name" a --targ
as_cp "missing argument of a short option" a -t
as_cp "argument to a flag" --no-clobber=x a b
as_cp "argument to an abbreviated flag: the full name" --rec=1 a b

# Abbreviations, -tDIR and -t DIR, bundles, "--" and operands among options
# do what cp does with them.
as_cp "--rec copies a tree" --rec tree copy
as_cp "-R copies a tree" -R tree copy
as_cp "--target-directory=DIR" --target-directory=dir a old
as_cp "--targ DIR" --targ dir a
as_cp "--t=DIR" --t=dir a
as_cp "-tDIR" -tdir a old
as_cp "-t DIR" -t dir a
as_cp "-t DIR after the operands" a old -t dir
as_cp "-rtDIR" -rtdir tree a
as_cp "-rt DIR" -rt dir tree
as_cp "-nr" -nr tree a dir
as_cp "--no-c keeps an existing file" --no-c a old
as_cp "an option among the operands" a --no-clobber old
as_cp "-- then a file named -f" -- -f g
as_cp "-- then -f: operands" a -- -f dir
as_cp "--preserve takes no next word: mode is a file" --preserve mode x
check_eq "--preserve mode x: mode and time kept as cp keeps them" \
	"$(stat -c '%a %Y' gnu/x)" "$(stat -c '%a %Y' sp/x)"
as_cp "--preserve= and a list" --preserve=mode,timestamps mode x
as_cp "-p" -p mode x
setup sp
printf 'from standard input\n' | (cd sp && "$SPMOVE" - -- in >out 2>err)
check_eq "- is an operand: standard input" "from standard input" "$(cat sp/in)"

# spmove's own options: their errors worded as glibc words them.
usage_error "ambiguous abbreviation" \
	"option '--s' is ambiguous; possibilities: '--suffix' '--sparse' '--splice-move' '--strip-trailing-slashes' '--symbolic-link' '--stats'" --s a b
usage_error "ambiguous abbreviation with an argument" \
	"option '--re=1' is ambiguous; possibilities: '--recursive' '--reflink' '--remove-destination' '--remove-source'" --re=1 a b
cp --s a b 2>err
ok "ambiguous abbreviation: GNU cp words it so" \
	grep -q "^cp: option '--s' is ambiguous; possibilities: '--sparse' " err
usage_error "missing argument" "option '--pipe-size' requires an argument" a b --pipe-size
usage_error "argument to a flag" "option '--stats' doesn't allow an argument" --stats=yes a b
usage_error "a bad abbreviated --method" "invalid argument 'nope' for '--method'" \
	--meth nope a b
for args in "--meth=splice" "--meth splice" "--pipe 64K -M" "--pipe-s=64K --spl" "-M"; do
	setup sp
	# shellcheck disable=SC2086 # args is a list of words
	(cd sp && "$SPMOVE" $args a b --stat >out 2>err; echo $? >rc)
	check_eq "$args: status 0" 0 "$(cat sp/rc)"
	same_files "$args: the copy" a sp/b
	ok "$args: through splice" grep -q 'method [a-z]* (splice)' sp/err
done

# --help and --version: status 0, also before a bad option; into a closed
# or full stdout, "write error" and status 1, as GNU cp.
for opt in --help --he --version --vers; do
	"$SPMOVE" "$opt" --bogus >out 2>err
	check_eq "$opt before a bad option: status 0" 0 $?
	ok "$opt: on stdout" test -s out
done
for opt in --help --version; do
	"$SPMOVE" "$opt" >&- 2>sp.err; sp_rc=$?
	cp "$opt" >&- 2>cp.err; cp_rc=$?
	sed 's/^cp:/spmove:/' cp.err >cp.err.renamed
	check_eq "$opt, stdout closed: message" "spmove: write error: Bad file descriptor" \
		"$(cat sp.err)"
	same_files "$opt, stdout closed: message as cp's" sp.err cp.err.renamed
	check_eq "$opt, stdout closed: status as cp's" "$cp_rc" "$sp_rc"
	"$SPMOVE" "$opt" >/dev/full 2>sp.err; sp_rc=$?
	cp "$opt" >/dev/full 2>cp.err; cp_rc=$?
	sed 's/^cp:/spmove:/' cp.err >cp.err.renamed
	same_files "$opt, stdout full: message as cp's" sp.err cp.err.renamed
	check_eq "$opt, stdout full: status as cp's" "$cp_rc" "$sp_rc"
done

done_testing
