#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spmv --exchange: the two names swapped in one renameat2(RENAME_EXCHANGE)
# (a file and a directory too), "exchanged 'a' <-> 'b'" with -v, both
# must exist, one SOURCE and one DEST only, not with --backup; -n keeps.
# Expected results as mv 9.11's sources and tests/mv/mv-exchange.sh say.
. "$top_srcdir/tests/spmove/opt-lib.sh"

fresh swap
echo A >a && echo B >b
check_eq "-v: mv's words" "exchanged 'a' <-> 'b'" "$("$SPMV" -v --exchange a b 2>&1)"
check_eq "a has b's data" B "$(cat a)"
check_eq "b has a's data" A "$(cat b)"

fresh file-dir
touch a && mkdir b
if "$SPMV" -T --exchange a b 2>err; then
	ok "a file and a directory swapped" test -d a -a -f b
else
	ok "refused only where the file system cannot" grep -q "cannot exchange 'a' and 'b'" err
fi

fresh missing
touch a
"$SPMV" --exchange a d 2>err
check_eq "a missing DEST: status" 1 "$?"
check_eq "a missing DEST: message" "spmv: cannot exchange 'a' and 'd': No such file or directory" \
	"$(cat err)"
ok "a missing DEST: a stays" test -f a
"$SPMV" --exchange a 2>/dev/null
check_eq "one operand: status 1" 1 "$?"
touch c
"$SPMV" --exchange a c d 2>err
check_eq "three operands, the last no directory: status 1" 1 "$?"
check_eq "three operands: message" "spmv: target 'd': No such file or directory" "$(cat err)"

fresh backup
touch a b
"$SPMV" --exchange -b a b 2>err
check_eq "with --backup: status 1" 1 "$?"
check_eq "with --backup: mv's message" "spmv: cannot combine --backup with --exchange, -n, or --update=none-fail
Try 'spmv --help' for more information." "$(cat err)"

fresh no-clobber
echo A >a && echo B >b
"$SPMV" -n --exchange a b
check_eq "-n: nothing swapped" "A B" "$(cat a) $(cat b)"
"$SPMV" --update=none-fail --exchange a b 2>err
check_eq "--update=none-fail: status 1" 1 "$?"
check_eq "--update=none-fail: message" "spmv: not replacing 'b'" "$(cat err)"

done_testing
