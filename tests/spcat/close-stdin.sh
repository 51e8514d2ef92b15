#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat closes standard input after reading '-' and reports a failure as
# cat does: "closing standard input: REASON", status 1.
. "$top_srcdir/tests/lib.sh"

for args in "" "-"; do
	# shellcheck disable=SC2086 # no words or one
	"$SPCAT" $args <&- >out 2>err
	check_eq "closed stdin${args:+, $args}: status 1" 1 $?
	check_eq "closed stdin${args:+, $args}: messages" "spcat: -: Bad file descriptor
spcat: closing standard input: Bad file descriptor" "$(cat err)"
done

echo data >a
"$SPCAT" a <&- >out 2>err
check_eq "closed stdin, not read: status 0" 0 $?
ok "closed stdin, not read: no message" test ! -s err

# close(0) fails after a good read.
require_strace
use_built_library
echo data >in
"$STRACE" -qq -o /dev/null -P in -e inject=close:error=EIO "$(real_bin spcat)" - <in >out 2>err
check_eq "close(0) fails: status 1" 1 $?
ok "close(0) fails: the data was copied" test "$(cat out)" = data
ok "close(0) fails: reported as cat does" \
	test "$(grep '^spcat:' err)" = 'spcat: closing standard input: Input/output error'
done_testing
