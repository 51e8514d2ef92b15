#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fault injection on tee(2), splice(2) and write(2): a refusal (EINVAL) at
# any of the first calls falls back and still gives every output the same
# bytes; EINTR and EAGAIN change nothing.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sptee/common.sh"
require_strace

make_random in 3145741

# faulty SPEC [OPTION...]: sptee under fault injection SPEC, stdin and
# stdout pipes, two files; every output must hold the input, no message,
# exit status 0.
faulty() {
	local spec=$1
	shift
	rm -f out f1 f2 err
	# sptee's own status (a pipeline's is its last command's, cat's).
	cat in | { inject_sptee "$spec" "$@" f1 f2 2>err; echo $? >rc; } | cat >out
	local what="$spec${1:+ $*}"
	check_eq "$what: exit status 0, no message" "0:" "$(cat rc):$(cat err)"
	injected_once "$what"
	same_files "$what: stdout holds the input" in out
	same_files "$what: f1 holds the input" in f1
	same_files "$what: f2 holds the input" in f2
}

for n in 1 2 3; do
	faulty "tee:error=EINVAL:when=$n"
done
# The first three splices are the first of the input, of f1 and of f2.
for n in 1 2 3; do
	faulty "splice:error=EINVAL:when=$n"
done
faulty "splice:error=EINVAL:when=1" -a
faulty "splice:error=ENOSYS:when=2"
faulty "tee:error=EINTR:when=1+2"
faulty "splice:error=EINTR:when=1+2"
faulty "write:error=EINTR:when=1+2" -a
faulty "tee:error=EAGAIN:when=1+3"
faulty "splice:error=EAGAIN:when=1+3"
faulty "write:error=EAGAIN:when=1+2" -a

# stdin a regular file: the first splice reads it; refused, read(2) takes over.
rm -f out f1
inject_sptee "splice:error=EINVAL:when=1" f1 <in >out 2>err
check_eq "regular stdin, first splice refused: exit status 0, no message" "0:" "$?:$(cat err)"
injected_once "regular stdin, first splice refused"
same_files "regular stdin, first splice refused: stdout holds the input" in out
same_files "regular stdin, first splice refused: f1 holds the input" in f1

# After bytes have moved, a refusal is an error.  With regular files only,
# the calls are, per 1 MiB chunk: a splice into the stage, a splice on from
# the scratch pipe to stdout and to f1, and one from the stage to f2.  So
# the 5th splice is the input's second ...
rm -f out f1 f2
inject_sptee "splice:error=EINVAL:when=5" f1 f2 <in >out 2>err
check_eq "EINVAL on the input later: exit status 1, read error" \
	"1:sptee: read error: Invalid argument" "$?:$(cat err)"
injected_once "EINVAL on the input later"
# ... and f1's second splice (strace -P: the calls on f1) fails: f1 is
# dropped, the others go on.
for spec in "splice:error=EINVAL:when=2" "splice:error=EIO:when=2"; do
	rm -f out f1 f2
	traced "$STRACE" -qq -f -o /dev/null -P "$PWD/f1" -e trace=splice -e inject="$spec" "$SPTEE" f1 f2 <in >out 2>err
	rc=$?
	check_eq "$spec on f1 later: exit status 1" 1 "$rc"
	ok "$spec on f1 later: reported against it" grep -q '^sptee: f1: ' err
	same_files "$spec on f1 later: stdout still holds the input" in out
	same_files "$spec on f1 later: f2 still holds the input" in f2
done

done_testing
