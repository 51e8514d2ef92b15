#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat's command line as GNU getopt_long reads it: abbreviations, errors
# worded and answered (status 1) as by GNU cat, "--", operands among
# options, --help and --version into a closed or full stdout.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL

# as_cat DESCRIPTION ARG...: spcat and GNU cat given the same arguments
# print the same, say the same (but for the name) and exit the same.
as_cat() {
	local what=$1; shift
	"$SPCAT" "$@" <in >sp.out 2>sp.err; local sp_rc=$?
	cat "$@" <in >cat.out 2>cat.err; local cat_rc=$?
	sed "s/^cat:/spcat:/; s/'cat --help'/'spcat --help'/" cat.err >cat.err.renamed
	same_files "$what: output as cat's" sp.out cat.out
	same_files "$what: messages as cat's" sp.err cat.err.renamed
	check_eq "$what: status as cat's" "$cat_rc" "$sp_rc"
}

# usage_error DESCRIPTION MESSAGE ARG...: spcat refuses ARGs with exactly
# "spcat: MESSAGE" and the hint to --help, status 1, no output.
usage_error() {
	local what=$1 message=$2; shift 2
	run_cmd sp.out sp.err "$SPCAT" "$@"
	check_eq "$what: status 1" 1 "$RC"
	check_eq "$what: message" "spcat: $message
Try 'spcat --help' for more information." "$(cat sp.err)"
	ok "$what: no output" test ! -s sp.out
}

make_random a 70000
make_random in 3000
printf 'a file named -n\n' >-n

# Errors GNU cat makes the same way.
as_cat "unknown long option" --bogus a
as_cat "unknown long option with an argument" --bogus=1 a
as_cat "unknown short option" -z a
as_cat "unknown short option after a good one" -uz a
as_cat "-- ends the options" -- -n a
as_cat "- among the operands is standard input" a - a
as_cat "-u among the operands" a -u a
POSIXLY_CORRECT=1
export POSIXLY_CORRECT
as_cat "POSIXLY_CORRECT: options after an operand are operands" a --bogus
check_eq "POSIXLY_CORRECT: --bogus is a file" "spcat: --bogus: No such file or directory" \
	"$(cat sp.err)"
unset POSIXLY_CORRECT

# The same errors in spcat's own options, worded as glibc words them.
usage_error "ambiguous abbreviation" "option '--=1' is ambiguous; possibilities: '--show-all' \
'--number-nonblank' '--show-ends' '--number' '--squeeze-blank' '--show-tabs' '--show-nonprinting' \
'--offset' '--length' '--pipe-size' '--no-splice' '--nocache' '--stats' '--json' '--progress' \
'--version' '--help' '--usage'" --=1 a
cat --=1 a 2>cat.err
ok "ambiguous abbreviation: GNU cat words it so" \
	grep -q "^cat: option '--=1' is ambiguous; possibilities: '--number-nonblank' " cat.err
usage_error "missing argument" "option '--offset' requires an argument" a --offset
usage_error "missing argument of an abbreviation: the full name" \
	"option '--pipe-size' requires an argument" a --pi
usage_error "argument to a flag" "option '--stats' doesn't allow an argument" --stats=1 a
usage_error "argument to an abbreviated flag: the full name" \
	"option '--no-splice' doesn't allow an argument" --no-s=1 a
as_cat "cat's text options in a bundle" -uAns a in
as_cat "cat's long options abbreviated" --show-a --num-n --sq a in
as_cat "an abbreviation of cat's long options only" --show-t in
as_cat "an ambiguous abbreviation between two of cat's options" --num a
as_cat "an argument to cat's flag" --number=1 a
cat --show-all=1 a 2>cat.err
check_eq "argument to a flag: GNU cat words it so" \
	"cat: option '--show-all' doesn't allow an argument" "$(head -n1 cat.err)"

# Abbreviations do what the full option does, with the argument glued or
# in the next word.
tail -c +1001 a | head -c 500 >expected
for args in "--offset=1000 --length=500" "--off 1000 --len 500" "--o=1000 --l=500" \
	    "--offset 1000 --length=500"; do
	# shellcheck disable=SC2086 # args is a list of words
	run_cmd out err "$SPCAT" $args a
	check_eq "$args: status 0" 0 "$RC"
	same_files "$args: bytes 1000 to 1499" out expected
done
run_cmd out err "$SPCAT" a --st --no-sp a
check_eq "abbreviated flags among the operands: status 0" 0 "$RC"
cat a a >expected
same_files "abbreviated flags among the operands: the operands" out expected
ok "abbreviated flags among the operands: --stats, through read/write" \
	grep -q '^spcat: 140000 bytes, 0.0% in kernel,' err
run_cmd out err "$SPCAT" -- --st
check_eq "-- then an option's name: a file of that name" \
	"spcat: --st: No such file or directory" "$(cat err)"

# --help and --version: stdout, status 0, also abbreviated; into a closed
# or full stdout, "write error" and status 1, as GNU cat.
for opt in --help --he --version --vers; do
	run_cmd out err "$SPCAT" "$opt" --bogus
	check_eq "$opt before a bad option: status 0" 0 "$RC"
	ok "$opt: on stdout" test -s out
done
for opt in --help --version; do
	"$SPCAT" "$opt" >&- 2>sp.err; sp_rc=$?
	cat "$opt" >&- 2>cat.err; cat_rc=$?
	sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
	check_eq "$opt, stdout closed: message" "spcat: write error: Bad file descriptor" "$(cat sp.err)"
	same_files "$opt, stdout closed: message as cat's" sp.err cat.err.renamed
	check_eq "$opt, stdout closed: status as cat's" "$cat_rc" "$sp_rc"
	"$SPCAT" "$opt" >/dev/full 2>sp.err; sp_rc=$?
	cat "$opt" >/dev/full 2>cat.err; cat_rc=$?
	sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
	check_eq "$opt, stdout full: message" "spcat: write error: No space left on device" \
		"$(cat sp.err)"
	same_files "$opt, stdout full: message as cat's" sp.err cat.err.renamed
	check_eq "$opt, stdout full: status as cat's" "$cat_rc" "$sp_rc"
done

done_testing
