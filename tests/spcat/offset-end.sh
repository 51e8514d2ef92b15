#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Offsets past the end of a file read nothing and succeed, whatever their
# size up to the largest file offset (2^63 - 1): no EINVAL from a read that
# would run past it; on a file, on standard input and on a pipe, with and
# without --length, the output and the messages checked, not only the
# status.  Offsets just before the end copy what is left.
. "$top_srcdir/tests/lib.sh"

make_random a 5000
# nothing_out WHAT: out and err are empty.
nothing_out() { ok "$1: nothing copied, no message" test ! -s out -a ! -s err; }
for off in 5000 1G 7E 9223372036854775000 9223372036854775806 9223372036854775807; do
	"$SPCAT" --offset="$off" a >out 2>err
	check_eq "--offset=$off: status 0" 0 $?
	nothing_out "--offset=$off"
	"$SPCAT" --offset="$off" - <a >out 2>err
	check_eq "--offset=$off on standard input: status 0" 0 $?
	nothing_out "--offset=$off on standard input"
	cat a | "$SPCAT" --offset="$off" - >out 2>err
	check_eq "--offset=$off on a pipe: status 0" 0 $?
	nothing_out "--offset=$off on a pipe"
	"$SPCAT" --offset="$off" --length=10 a a >out 2>err
	check_eq "--offset=$off --length=10, twice: status 0" 0 $?
	nothing_out "--offset=$off --length=10, twice"
done
"$SPCAT" --offset=4999 a >out
check_eq "the last byte is still read" 1 "$(wc -c <out)"
# Just before the end: what is left, within --length, from each operand.
tail -c 10 a >want
"$SPCAT" --offset=4990 - <a >out 2>err
same_files "--offset=4990 on standard input: the last 10 bytes" want out
cat a | "$SPCAT" --offset=4990 - >out 2>err
same_files "--offset=4990 on a pipe: the last 10 bytes" want out
head -c 3 want >want3
cat want3 want3 >want6
"$SPCAT" --offset=4990 --length=3 a - <a >out 2>err
check_eq "--offset=4990 --length=3 a -: status 0" 0 $?
same_files "--offset=4990 --length=3 a -: 3 bytes from each" want6 out
"$SPCAT" --offset=4998 --length=10 a a >out 2>err
tail -c 2 a >t2
cat t2 t2 >want4
same_files "--length past the end: what there is, from each" want4 out
"$SPCAT" --offset=8E a >out 2>err
check_eq "--offset=8E is past the largest offset: usage error" 1 $?
check_eq "--offset=8E: the message" \
	"spcat: invalid offset: '8E' (too large)
Try 'spcat --help' for more information." "$(cat err)"
ok "--offset=8E: nothing copied" test ! -s out
done_testing
