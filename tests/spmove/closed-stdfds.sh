#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A name that reaches a closed standard descriptor (/dev/stdin, /dev/fd/N,
# /proc/self/fd/N) names nothing, as with GNU cp 9.11: spcp fails with
# GNU's message instead of copying what holds the fd (once "/", so that
# spcp -rH /dev/stdin copied the whole root file system); and nothing the
# copy opens lands on a closed fd 0-2 (issue 35, item 5).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
SPMOVE_BIN=$(real_bin spmove)
use_built_library
GNU_CP=$(gnu cp)
# The real program under cp's name (a wrapper script would hold the fds).
ln -s "$SPMOVE_BIN" spcp
ln -s "$GNU_CP" gnucp 2>/dev/null
echo data >f

# cases CP: each case with CP; prints the status and messages.
cases() {
	local cp=$1 err
	err=$(timeout 60 "$cp" -rH /dev/stdin x 2>&1 <&-); echo "rH stdin: $? $err"
	err=$(timeout 60 "$cp" /dev/fd/0 y 2>&1 <&-); echo "fd/0: $? $err"
	err=$(timeout 60 "$cp" f /dev/stdout 2>&1 >&-); echo "to stdout: $? $err"
	err=$(timeout 60 "$cp" f /proc/self/fd/1 2>&1 >&-); echo "to proc fd 1: $? $err"
	timeout 60 "$cp" -r /proc/self/fd/2 z 2>&-; echo "proc fd 2: $?"
	echo "made: $(ls -A | grep -v -e '^f$' -e '^spcp$' -e '^gnucp$' | tr '\n' ' ')"
}
ours=$(cases ./spcp | as_cp spcp)
echo "$ours"
check_eq "-rH /dev/stdin with stdin closed" \
	"rH stdin: 1 CP: cannot stat '/dev/stdin': No such file or directory" \
	"$(echo "$ours" | grep '^rH stdin:')"
check_eq "/dev/fd/0" "fd/0: 1 CP: cannot stat '/dev/fd/0': No such file or directory" \
	"$(echo "$ours" | grep '^fd/0:')"
check_eq "into /dev/stdout with stdout closed" \
	"to stdout: 1 CP: not writing through dangling symlink '/dev/stdout'" \
	"$(echo "$ours" | grep '^to stdout:')"
check_eq "into /proc/self/fd/1" \
	"to proc fd 1: 1 CP: cannot create regular file '/proc/self/fd/1': No such file or directory" \
	"$(echo "$ours" | grep '^to proc fd 1:')"
check_eq "-r /proc/self/fd/2 with stderr closed" "proc fd 2: 1" "$(echo "$ours" | grep '^proc fd 2:')"
check_eq "nothing made" "made: " "$(echo "$ours" | grep '^made:')"
if [ -x gnucp ]; then
	gnu=$(cases ./gnucp | as_cp gnucp)
	check_eq "as GNU cp" "$gnu" "$ours"
fi

# Nothing opened lands on a closed fd: a copy with stderr closed leaves
# its destination as the source (no message written into it).
head -c 100000 /dev/urandom >big
./spcp -v big big2 >&-
same_files "stdout closed: -v line not written into the destination" big big2
done_testing
