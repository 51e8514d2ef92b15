#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin's command line as GNU getopt_long reads it, for acctpin itself
# and each command (run, race, dump): abbreviations, errors worded as glibc
# words them with status 1, "--", operands among options, --help and
# --version into a closed or full stdout.  Needs no privileges: every
# command line here is refused, or dumps a file.
. "$top_srcdir/tests/lib.sh"

# usage_error DESCRIPTION MESSAGE ARG...: acctpin refuses ARGs with exactly
# "acctpin: MESSAGE" and the hint to --help, status 1, no output.
usage_error() {
	local what=$1 message=$2; shift 2
	run_cmd out err "$ACCTPIN" "$@"
	check_eq "$what: status 1" 1 "$RC"
	check_eq "$what: message" "acctpin: $message
Try 'acctpin --help' for more information." "$(cat err)"
	ok "$what: no output" test ! -s out
}

# same_run DESCRIPTION ARGS1 =vs= ARGS2: acctpin prints the same, says the
# same and exits the same for both command lines.
same_run() {
	local what=$1 a b; shift
	a=""
	while [ "$1" != =vs= ]; do a="$a $1"; shift; done
	shift
	# shellcheck disable=SC2086 # lists of plain words
	run_cmd out1 err1 "$ACCTPIN" $a
	local rc1=$RC
	run_cmd out2 err2 "$ACCTPIN" "$@"
	same_files "$what: same output" out1 out2
	same_files "$what: same messages" err1 err2
	check_eq "$what: same status" "$rc1" "$RC"
}

# One acct_v3 record of "true" (version 3, the rest zeros).
{ printf '\000\003'; head -c 46 /dev/zero; printf 'true'; head -c 12 /dev/zero; } >rec
cp rec ./-j

# acctpin itself: options before the command, the command ends them.
usage_error "unknown long option" "unrecognized option '--bogus'" --bogus dump rec
usage_error "unknown short option" "invalid option -- 'x'" -x dump rec
usage_error "a command's option before the command" "unrecognized option '--json'" \
	--json dump rec
usage_error "argument to a flag" "option '--help' doesn't allow an argument" --help=1
usage_error "ambiguous abbreviation" \
	"option '--=1' is ambiguous; possibilities: '--help' '--version'" --=1
same_run "--he is --help" --he =vs= --help
same_run "--v is --version" --v =vs= --version
same_run "-h is --help" -h =vs= --help

# Each command: its own table of options.
usage_error "dump: unknown long option" "unrecognized option '--frob'" dump --frob rec
usage_error "dump: unknown short option" "invalid option -- 'j'" dump -j rec
usage_error "dump: argument to a flag" "option '--json' doesn't allow an argument" \
	dump --json=1 rec
usage_error "dump: argument to an abbreviated flag: the full name" \
	"option '--json' doesn't allow an argument" dump --js=1 rec
usage_error "run: ambiguous abbreviation" \
	"option '--a' is ambiguous; possibilities: '--acct-file' '--allow-foreign'" run --a x
usage_error "race: ambiguous abbreviation, in an included table" \
	"option '--s=3' is ambiguous; possibilities: '--seconds' '--size'" race --s=3
usage_error "race: missing argument" "option '--threads' requires an argument" race --threads
usage_error "race: missing argument of an abbreviation: the full name" \
	"option '--iterations' requires an argument" race --it
usage_error "race: missing argument of a short option" "option requires an argument -- 't'" \
	race -t
usage_error "run: missing argument of a short option" "option requires an argument -- 's'" \
	run -s
usage_error "run: unexpected operand among options" "unexpected operand: 'x'" run x --json

# Abbreviations do what the full option does.
run_cmd out err "$ACCTPIN" dump --json rec
check_eq "dump --json: status 0" 0 "$RC"
ok "dump --json: one JSON object" grep -q '^{"comm":"true","version":3,' out
same_run "dump --js is --json" dump --js rec =vs= dump --json rec
same_run "dump: an option after the operands" dump rec rec --json =vs= dump --json rec rec
same_run "dump: -- then a file named -j" dump -- -j =vs= dump rec
same_run "race --thr N is --threads N" race --thr 0 =vs= race --threads 0
same_run "race -tN is -t N" race -t0 =vs= race -t 0
same_run "race --thr=N is --threads N" race --thr=99 =vs= race --threads 99
same_run "run --exp is --expect" run --exp solaris =vs= run --expect solaris
same_run "run --sc= is --scenario" run --sc=nope =vs= run --scenario nope
same_run "dump --h is --help" dump --h =vs= dump --help
run_cmd out err "$ACCTPIN" dump -- --json
check_eq "dump: -- then an option's name: a file of that name" \
	"acctpin: --json: No such file or directory" "$(cat err)"

# --help and --version: status 0, also before a bad option; into a closed
# or full stdout, "write error" and status 1.
for args in "--help" "--version" "dump --help" "run --usage"; do
	# shellcheck disable=SC2086 # args is a list of words
	run_cmd out err "$ACCTPIN" $args --bogus
	check_eq "$args before a bad option: status 0" 0 "$RC"
	ok "$args: on stdout" test -s out
	# shellcheck disable=SC2086 # args is a list of words
	"$ACCTPIN" $args >&- 2>err
	check_eq "$args, stdout closed: status 1" 1 $?
	check_eq "$args, stdout closed: message" "acctpin: write error: Bad file descriptor" \
		"$(cat err)"
	# shellcheck disable=SC2086 # args is a list of words
	"$ACCTPIN" $args >/dev/full 2>err
	check_eq "$args, stdout full: status 1" 1 $?
	check_eq "$args, stdout full: message" "acctpin: write error: No space left on device" \
		"$(cat err)"
done

done_testing
