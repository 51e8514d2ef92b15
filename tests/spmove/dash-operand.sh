#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A file named '-': spcp and spmv copy and move it, as GNU cp and mv do
# ('-' is standard input for cat and tee, not for cp or mv); spmove under
# its own name streams standard input, as its manual says (issue 35,
# item 4).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
GNU_CP=$(gnu cp)

echo dash >./-
echo old >t1
echo stdin | "$SPCP" - t1
check_eq "spcp - t1: the file named '-' copied" dash "$(cat t1)"
mkdir d
echo stdin | "$SPCP" - d
check_eq "spcp - DIR: d/- made" dash "$(cat d/-)"
echo stdin | "$SPMV" - t2
check_eq "spmv - t2: the file moved" "dash no-dash" "$(cat t2) $(test -e ./- && echo left || echo no-dash)"
echo stdin | "$SPMOVE" - t3
check_eq "spmove - t3: standard input" stdin "$(cat t3)"
run_cmd out err "$SPCP" - t4 </dev/null
check_eq "spcp - with no file '-': GNU's message" \
	"spcp: cannot stat '-': No such file or directory 1" "$(cat err) $RC"
if [ -x "$GNU_CP" ]; then
	run_cmd out err2 "$GNU_CP" - t4 </dev/null
	check_eq "GNU cp says the same" "$(as_cp spcp <err)" "$(as_cp cp <err2)"
fi
done_testing
