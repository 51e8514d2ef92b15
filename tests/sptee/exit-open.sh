#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --output-error=exit and exit-nopipe: a FILE that cannot be opened ends
# the run at once, before anything is copied, with one message and exit
# status 1 (as GNU tee 9.11: the files before it are created, those after
# it are not).
. "$top_srcdir/tests/lib.sh"

seq 1000 >in
for mode in exit exit-nopipe; do
	rm -rf out && mkdir out
	"$SPTEE" --output-error=$mode out/a no/such/dir out/b <in >out/stdout 2>err
	check_eq "$mode: exit status 1" 1 $?
	check_eq "$mode: one message, naming the FILE" \
		"sptee: no/such/dir: No such file or directory" "$(cat err)"
	check_eq "$mode: nothing copied to standard output" 0 "$(wc -c <out/stdout)"
	ok "$mode: the FILE before it was created, and is empty" test -f out/a -a ! -s out/a
	ok "$mode: the FILE after it was not created" test ! -e out/b
done

# The other modes go on with the files they could open.
for mode in warn warn-nopipe; do
	rm -rf out && mkdir out
	"$SPTEE" --output-error=$mode out/a no/such/dir out/b <in >out/stdout 2>err
	check_eq "$mode: exit status 1" 1 $?
	same_files "$mode: the other FILEs get everything" in out/b
done

done_testing
