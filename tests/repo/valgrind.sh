#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every Check test program (tests/*/test-*) under valgrind, unforked (CK_FORK=no): no invalid
# access, no definite or indirect leak.
. "$top_srcdir/tests/lib.sh"
command -v valgrind >/dev/null || skip "valgrind is not installed"
[ -z "${SANITIZERS:-}" ] || skip "sanitizer builds do not run under valgrind"
for t in "$top_builddir"/tests/*/test-*; do
	case $t in *.c|*.o|*.log|*.trs) continue ;; esac
	[ -x "$t" ] || continue
	CK_FORK=no valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 "$t" >vg.out 2>&1
	rc=$?
	check_eq "$(basename "$t") under valgrind" 0 "$rc"
	[ "$rc" = 0 ] || cat vg.out
done
[ "$T_COUNT" -gt 0 ] || skip "no Check test program was built (configured without Check)"
done_testing
