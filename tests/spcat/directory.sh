#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A directory operand is read as cat reads it: the error is the kernel's
# answer to read(2) (EISDIR), or whatever fails on the way there.
. "$top_srcdir/tests/lib.sh"

mkdir d
echo data >a
"$SPCAT" a d a >out 2>err
check_eq "directory among files: status 1" 1 $?
check_eq "directory among files: message" "spcat: d: Is a directory" "$(cat err)"
printf 'data\ndata\n' >want
same_files "directory among files: the files copied" want out

require_strace
use_built_library
"$STRACE" -qq -o trace -P d -e trace=read,splice "$(real_bin spcat)" d >out 2>err
ok "the directory is read" grep -q '^read(' trace
"$STRACE" -qq -o /dev/null -P d -e inject=read,splice:error=EIO "$(real_bin spcat)" d d \
	>out 2>err
check_eq "a failing read: status 1" 1 $?
check_eq "a failing read: its error, once per operand" "spcat: d: Input/output error
spcat: d: Input/output error" "$(grep '^spcat:' err)"
done_testing
