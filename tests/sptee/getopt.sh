#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sptee's command line as GNU getopt_long reads it, side by side with GNU
# tee: abbreviations, errors and their status, "--", operands among
# options, --help and --version into a closed or full stdout.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sptee/common.sh"

# usage_error DESCRIPTION MESSAGE ARG...: sptee refuses ARGs with exactly
# "sptee: MESSAGE" and the hint to --help, status 1, no output.
usage_error() {
	local what=$1 message=$2; shift 2
	"$SPTEE" "$@" </dev/null >out 2>err
	check_eq "$what: status 1" 1 $?
	check_eq "$what: message" "sptee: $message
Try 'sptee --help' for more information." "$(cat err)"
	ok "$what: no output" test ! -s out
}

make_random in 20000
IN=$T_DIR/in

# Errors GNU tee makes the same way.
for args in --bogus --bogus=1 -z -az --append=1 --app=1 "--ignore-interrupts=" --ign=x; do
	# shellcheck disable=SC2086 # args is a list of words
	side_by_side pipe-file "$IN" 1 $args
	same_as_gnu "$args: as GNU tee"
	check_eq "$args: status 1" 1 "$(cat sp/rc)"
done

# Abbreviations, bundles, "--" and operands among options do what GNU
# tee does with them.
PRESEED="old contents
"
export PRESEED
for args in "--a" "--ap" "-ai" "-ia" "-a -i" "f0 --app" "f0 -a --" "-- -a" "-a -- -i"; do
	# shellcheck disable=SC2086 # args is a list of words
	side_by_side pipe-file "$IN" 2 $args
	same_as_gnu "$args: as GNU tee"
done
unset PRESEED
side_by_side pipe-file "$IN" 0 -- -a
same_files "-- -a: a file named -a gets the input" in sp/-a
# (Input within one GNU tee buffer: in the exit modes GNU tee stops after
# its first buffer, sptee after the whole input.)
make_random small 5000
SMALL=$T_DIR/small
for args in "--out" "--output-e=warn" "--o=exit" "-ap" "--output-error=e"; do
	# shellcheck disable=SC2086 # args is a list of words
	side_by_side pipe-file "$SMALL" 1 $args /dev/full
	same_as_gnu "$args, an output fails: as GNU tee"
done
side_by_side pipe-file "$SMALL" 1 --out warn /dev/full
same_as_gnu "an optional argument only after '=': as GNU tee"
same_files "an optional argument only after '=': the next word is a file" small sp/warn

# sptee's own options: their errors worded as glibc words them.
usage_error "ambiguous abbreviation" "option '--=x' is ambiguous; possibilities: \
'--append' '--ignore-interrupts' '--output-error' '--pipe-size' '--no-splice' '--nocache' '--stats' '--json' '--progress' \
'--version' '--help' '--usage'" --=x
"$GNU_TEE" --=x </dev/null >/dev/null 2>err
ok "ambiguous abbreviation: GNU tee words it so" \
	grep -q "^tee: option '--=x' is ambiguous; possibilities: '--append' " err
usage_error "missing argument" "option '--pipe-size' requires an argument" --pipe-size
usage_error "missing argument of an abbreviation: the full name" \
	"option '--pipe-size' requires an argument" f1 --pi
usage_error "argument to a flag" "option '--stats' doesn't allow an argument" --stats=
usage_error "argument to an abbreviated flag: the full name" \
	"option '--no-splice' doesn't allow an argument" --no-s=1

# --pipe-size abbreviated, its argument glued or in the next word.
for args in "--pipe-size 64K" "--pipe 64K" "--pipe=64K" "--pi=64K"; do
	rm -f f
	# shellcheck disable=SC2086 # args is a list of words
	"$SPTEE" $args --stats f <"$IN" >out 2>err
	check_eq "$args: status 0" 0 $?
	same_files "$args: the file gets the input" in f
	same_files "$args: stdout gets the input" in out
done
rm -f f
"$SPTEE" --pipe-size -5 f <"$IN" >out 2>err
check_eq "the next word is the argument even when it starts with -" \
	"sptee: invalid pipe size: '-5'" "$(head -n1 err)"

# --help and --version: status 0, also before a bad option; into a closed
# or full stdout, "write error" and status 1, as GNU tee.
for opt in --help --he --version --vers; do
	"$SPTEE" "$opt" --bogus </dev/null >out 2>err
	check_eq "$opt before a bad option: status 0" 0 $?
	ok "$opt: on stdout" test -s out
done
for opt in --help --version; do
	for to in closed full; do
		rm -rf gnu sp && mkdir gnu sp
		if [ $to = closed ]; then
			(cd sp && "$SPTEE" "$opt" </dev/null >&- 2>err; echo $? >rc)
			(cd gnu && "$GNU_TEE" "$opt" </dev/null >&- 2>err; echo $? >rc)
		else
			(cd sp && "$SPTEE" "$opt" </dev/null >/dev/full 2>err; echo $? >rc)
			(cd gnu && "$GNU_TEE" "$opt" </dev/null >/dev/full 2>err; echo $? >rc)
		fi
		ok "$opt, stdout $to: write error" grep -q '^sptee: write error: ' sp/err
		sed -i 's/^sptee: /tee: /' sp/err
		same_as_gnu "$opt, stdout $to: as GNU tee"
	done
done

done_testing
