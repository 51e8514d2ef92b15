#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The output's facts are asked of the kernel once per run, not once per
# operand: the mover remembers what it learnt of the output (its flags, its
# pipe size) across sp_copy() calls into the same descriptor.  Counted with
# strace: the fcntl(2)s on standard output are as many for one operand as
# for six, into a pipe, a regular file and a character device.
. "$top_srcdir/tests/lib.sh"
require_strace
use_built_library
spcat=$(real_bin spcat)

for i in 1 2 3 4 5 6; do
	echo "line $i" >"f$i"
done

# calls TRACE: the fcntl(2)s and fstat(2)s on fd 1 in TRACE, one a line,
# without their results.
calls() {
	sed -n 's/^[0-9]* *\(fcntl\|fstat\|newfstatat\|statx\)(1, \([^,)]*\).*/\1 \2/p' "$1"
}

# traced OUT OPERANDS...: spcat OPERANDS into OUT ("pipe" for a pipe),
# traced into trace.N where N is the number of operands.
traced() {
	local out=$1 trace="trace.$(($# - 1))"
	shift
	if [ "$out" = pipe ]; then
		"$STRACE" -f -o "$trace" -e trace=fcntl,fstat,newfstatat,statx "$spcat" "$@" | cat >pipe.out
	else
		"$STRACE" -f -o "$trace" -e trace=fcntl,fstat,newfstatat,statx "$spcat" "$@" >"$out"
	fi
}

cat f1 f2 f3 f4 f5 f6 >want
for out in pipe file /dev/null; do
	traced "$out" f1
	traced "$out" f1 f2 f3 f4 f5 f6
	calls trace.1 >one
	calls trace.6 >six
	[ "$out" = pipe ] && cp pipe.out file
	[ "$out" = /dev/null ] || same_files "into $out: the data" want file
	ok "into $out: the output is looked at" test -s six
	ok "into $out: the same calls on it for six operands as for one ($(tr '\n' ' ' <six))" \
		cmp -s one six
done
# Into a pipe, the pipe is grown once (F_GETPIPE_SZ, then F_SETPIPE_SZ
# where it is smaller than wanted).
traced pipe f1 f2 f3 f4 f5 f6
check_eq "into a pipe: its size is asked once" 1 "$(calls trace.6 | grep -c F_GETPIPE_SZ)"

done_testing
