#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every Check test program (tests/*/test-*) under valgrind, unforked (CK_FORK=no): no invalid
# access, no definite or indirect leak.
. "$top_srcdir/tests/lib.sh"
command -v valgrind >/dev/null || skip "valgrind is not installed"
[ -z "${SANITIZERS:-}" ] || skip "sanitizer builds do not run under valgrind"
# alone CMD...: run CMD with only the standard descriptors (a parallel
# make hands its tests the jobserver's pipe).  test-fanout once failed
# here now and then with a corrupt Check message ("Bad message type"):
# its forked feeders ran a passing ck_assert() before their own code, and
# a passing assertion writes its place to Check's message channel, which
# in one process (CK_FORK=no) the child shares with the test -- two
# writers at once.  The children assert nothing now.
alone() {
	(
		for fd in $(ls /proc/self/fd); do
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		exec "$@"
	)
}
for t in "$top_builddir"/tests/*/test-*; do
	case $t in *.c|*.o|*.log|*.trs) continue ;; esac
	[ -x "$t" ] || continue
	# Through libtool: a program linked to the uninstalled libsplice is
	# a wrapper script, which valgrind alone would check instead of it.
	CK_FORK=no alone "$top_builddir/libtool" --mode=execute \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 "$t" >vg.out 2>&1
	rc=$?
	check_eq "$(basename "$t") under valgrind" 0 "$rc"
	[ "$rc" = 0 ] || cat vg.out
done
[ "$T_COUNT" -gt 0 ] || skip "no Check test program was built (configured without Check)"
done_testing
