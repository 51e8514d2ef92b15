#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin run --acct-file: a file acctpin did not create is refused without
# --allow-foreign (before anything is made, for any user), and with it only
# a regular file reached without a symbolic link is taken.
. "$top_srcdir/tests/lib.sh"
mkdir tmp
TMPDIR=$T_DIR/tmp
export TMPDIR
printf 'keep me\n' >theirs
cp theirs theirs.orig

run_cmd out err "$ACCTPIN" run --acct-file "$T_DIR/theirs"
check_eq "without --allow-foreign: exit status" 1 "$RC"
check_eq "without --allow-foreign: message" \
	"acctpin: $T_DIR/theirs: not created by acctpin; use --allow-foreign to account to it" \
	"$(cat err)"
check_eq "without --allow-foreign: no output" "" "$(cat out)"
same_files "without --allow-foreign: the file untouched" theirs theirs.orig

run_cmd out err "$ACCTPIN" run --acct-file "$T_DIR/missing"
check_eq "a missing file without --allow-foreign: refused the same way" \
	"1 acctpin: $T_DIR/missing: not created by acctpin; use --allow-foreign to account to it" \
	"$RC $(cat err)"
ok "a missing file: not created" test ! -e missing

run_cmd out err "$ACCTPIN" run --acct-file "$T_DIR/missing" --allow-foreign
check_eq "a missing file: message" "1 acctpin: $T_DIR/missing: No such file or directory" \
	"$RC $(cat err)"
ok "a missing file: still not created" test ! -e missing

ln -s theirs link
run_cmd out err "$ACCTPIN" run --acct-file "$T_DIR/link" --allow-foreign
check_eq "a symbolic link: refused" \
	"1 acctpin: $T_DIR/link: a symbolic link; name the file itself" "$RC $(cat err)"

mkfifo fifo
run_cmd out err "$ACCTPIN" run --acct-file "$T_DIR/fifo" --allow-foreign
check_eq "a FIFO: refused" "1 acctpin: $T_DIR/fifo: not a regular file" "$RC $(cat err)"
run_cmd out err "$ACCTPIN" run --acct-file "$T_DIR" --allow-foreign
check_eq "a directory: refused" "1 acctpin: $T_DIR: not a regular file" "$RC $(cat err)"

run_cmd out err "$ACCTPIN" run --allow-foreign
check_eq "--allow-foreign alone: exit status" 1 "$RC"
check_eq "--allow-foreign alone: message" "acctpin: --allow-foreign goes with --acct-file FILE" \
	"$(head -n 1 err)"
run_cmd out err "$ACCTPIN" race --acct-file "$T_DIR/theirs" --allow-foreign
check_eq "race has no --acct-file" 1 "$RC"

run_cmd out err "$ACCTPIN" run --help
ok "--help lists --acct-file" grep -q -- '--acct-file=FILE' out
ok "--help lists --allow-foreign" grep -q -- '--allow-foreign' out
same_files "the file never changed" theirs theirs.orig
check_eq "no temporary directory made" "" "$(ls tmp)"
done_testing
