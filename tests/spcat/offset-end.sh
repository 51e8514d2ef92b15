#!/bin/sh
# Offsets past the end of a file read nothing and succeed, whatever their
# size up to the largest file offset (2^63 - 1): no EINVAL from a read that
# would run past it.
. "$top_srcdir/tests/lib.sh"

make_random a 5000
for off in 5000 1G 7E 9223372036854775000 9223372036854775806 9223372036854775807; do
	"$SPCAT" --offset="$off" a >out 2>err
	check_eq "--offset=$off: status 0" 0 $?
	ok "--offset=$off: nothing copied, no message" test ! -s out -a ! -s err
	"$SPCAT" --offset="$off" - <a >out 2>err
	check_eq "--offset=$off on standard input: status 0" 0 $?
	"$SPCAT" --offset="$off" --length=10 a a >out 2>err
	check_eq "--offset=$off --length=10, twice: status 0" 0 $?
done
"$SPCAT" --offset=4999 a >out
check_eq "the last byte is still read" 1 "$(wc -c <out)"
"$SPCAT" --offset=8E a >out 2>err
check_eq "--offset=8E is past the largest offset: usage error" 1 $?

done_testing
