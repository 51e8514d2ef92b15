#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fault injection with strace: each fallback and each hard error of spcat.
. "$top_srcdir/tests/lib.sh"
require_strace

# The libtool wrapper would be traced too: run the real binary.
BIN=$(real_bin spcat)
use_built_library

make_random a 3145733
"$BIN" --pipe-size 64K a >/dev/null || skip "spcat does not run"

# fault DESCRIPTION SPEC EXPECTED-STATUS ARGS...: run spcat with SPEC injected,
# stdout to f.out and stderr to f.err, check the status.  Into a file
# spcat asks for copy_file_range(2) first, as cat 9.11 does; these faults
# are the splice path's, which it takes where the file system refuses that
# call (EXDEV): every copy_file_range(2) is refused so.
fault() {
	local what=$1 spec=$2 want=$3; shift 3
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o /dev/null -e trace="${spec%%:*},copy_file_range" \
		-e inject="$spec" -e inject=copy_file_range:error=EXDEV "$BIN" "$@" >f.out 2>f.err
	check_eq "$what: status" "$want" $?
}

fault "copy_file_range refused (file to file)" copy_file_range:error=EXDEV 0 --stats a
same_files "copy_file_range refused: output intact" f.out a
ok "copy_file_range refused: asked once, then spliced" \
	grep -q ' 1 copy_file_range, .*, splice, pipe' f.err
inject copy_file_range:error=EIO:when=2 "$BIN" a >f.out 2>f.err
check_eq "copy_file_range EIO mid-way: status" 1 $?
check_eq "copy_file_range EIO mid-way: the file named" "spcat: a: Input/output error" "$(cat f.err)"

fault "EINVAL at the first splice (file to file)" splice:error=EINVAL:when=1 0 --stats a
same_files "EINVAL at the first splice: output intact" f.out a
ok "EINVAL at the first splice: counted as a fallback" grep -q ' 1 fallbacks' f.err

fault "EINVAL at the first splice (file to pipe)" splice:error=EINVAL:when=1 0 a
"$BIN" a | cmp -s - a
ok "file to pipe without faults" test $? = 0
inject splice:error=EINVAL:when=1 "$BIN" a | cmp -s - a
ok "EINVAL at the first splice (file to pipe): output intact" test $? = 0

fault "EINVAL at the second splice (output refuses)" splice:error=EINVAL:when=2 0 a
same_files "output refuses: output intact" f.out a

fault "EMFILE on pipe2" pipe2:error=EMFILE:when=1 0 --stats a
same_files "EMFILE on pipe2: output intact" f.out a
ok "EMFILE on pipe2: counted as a fallback" grep -q ' 1 fallbacks' f.err

fault "EINTR on every other splice" splice:error=EINTR:when=2+2 0 --pipe-size 64K a
same_files "EINTR: output intact" f.out a
fault "EAGAIN on every other splice" splice:error=EAGAIN:when=1+2 0 --pipe-size 64K a
same_files "EAGAIN: output intact" f.out a

# Hard errors mid-stream name the right side and stop with status 1.
fault "EIO reading mid-stream" splice:error=EIO:when=3 1 --pipe-size 64K a
check_eq "EIO reading: message names the file" "spcat: a: Input/output error" "$(cat f.err)"
fault "EIO writing mid-stream" splice:error=EIO:when=4 1 --pipe-size 64K a
check_eq "EIO writing: a write error" "spcat: write error: Input/output error" "$(cat f.err)"
head -c 65536 a >prefix
same_files "EIO writing: what was written is right" f.out prefix
fault "EINVAL after data moved is an error" splice:error=EINVAL:when=3 1 --pipe-size 64K a
check_eq "EINVAL after data: message" "spcat: a: Invalid argument" "$(cat f.err)"
# Into a pipe a file of more than two pipe-fulls goes through spcat's own
# pipe: splice 1 reads a into it, 2 writes it out, 3 reads a again.
inject splice:error=EIO:when=3 "$BIN" --pipe-size 64K a b 2>f.err | cat >/dev/null
check_eq "EIO reading into a pipe: message names the file" "spcat: a: Input/output error
spcat: b: No such file or directory" "$(cat f.err)"
inject splice:error=EIO:when=2 "$BIN" --pipe-size 64K a b 2>f.err | cat >/dev/null
check_eq "EIO writing into a pipe: a write error" "spcat: write error: Input/output error" \
	"$(cat f.err)"
# The dynamic loader reads too: find which read(2) is spcat's first of a.
ASAN_OPTIONS=detect_leaks=0 "$STRACE" -qq -o reads.log -e trace=read "$BIN" --no-splice a >/dev/null
first=$(grep -n 'read([0-9]*, .*, 131072)' reads.log | head -n1 | cut -d: -f1)
fault "read error after fallback" read:error=EIO:when=$((first + 1)) 1 --no-splice a
check_eq "read error: message" "spcat: a: Input/output error" "$(cat f.err)"
fault "write error after fallback" write:error=ENOSPC:when=1 1 --no-splice a
check_eq "write error: message" "spcat: write error: No space left on device" "$(cat f.err)"

done_testing
