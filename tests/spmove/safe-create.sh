#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Files are created safely: spmove's temporary file relative to the
# destination directory's fd, with O_EXCL|O_NOFOLLOW and mode 0600, renamed
# over the destination through the same fd; acctpin's accounting file with
# O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600 in a directory of its own (root).
# Read from the syscalls themselves (strace).
. "$top_srcdir/tests/lib.sh"
require_strace
use_built_library
trace() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$STRACE" -qq -f -o trace \
		-e trace=open,openat,creat,rename,renameat,renameat2,symlinkat,mkdir,mkdirat "$@"
}

make_random a 100000
mkdir d
echo old >d/b
trace "$(real_bin spmove)" a d/b
ok "spmove: the copy is made" cmp -s a d/b
# Every file spmove creates.
grep O_CREAT trace >created
check_eq "spmove: creates exactly one file" 1 "$(wc -l <created)"
ok "spmove: ... relative to a directory fd, not a path" \
	grep -Eq 'openat\([0-9]+, "\.spmove-[0-9a-f]+",' created
ok "spmove: ... with O_EXCL and O_NOFOLLOW" grep -q 'O_CREAT|O_EXCL|O_NOFOLLOW' created
ok "spmove: ... with mode 0600" grep -q ', 0600) = [0-9]' created
dirfd=$(sed -n 's/.*openat(\([0-9]*\), "\.spmove-.*/\1/p' created)
tmp=$(sed -n 's/.*openat([0-9]*, "\(\.spmove-[0-9a-f]*\)".*/\1/p' created)
ok "spmove: the directory fd is d's" grep -Eq "openat\(AT_FDCWD, \"d\", [^)]*O_DIRECTORY[^)]*\) = $dirfd\$" trace
ok "spmove: renamed over b through the same fd" \
	grep -Eq "rename(at|at2)\($dirfd, \"$tmp\", $dirfd, \"b\"" trace
ok "spmove: no temporary file left" test "$(ls -A d)" = b

# A symbolic link planted at the very name spmove picks first: with
# getrandom(2) failing, the name comes from the pid, which "exec" keeps.
# O_EXCL fails the creation (even through a dangling link); spmove takes
# another name and never creates or writes the link's target.
echo precious >precious
echo old >d/b # to replace: a file that holds a's bytes is left as it is
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$STRACE" -qq -f -o trace \
	-e trace=getrandom,openat -e inject=getrandom:error=ENOSYS \
	sh -c 'name=$(printf ".spmove-%08x" $(($$ * 2654435761 & 4294967295)))
		ln -s ../victim "d/$name" && ln -s ../precious "d/$name.2" &&
		echo "$name" >planted && exec "$1" a d/b' sh "$(real_bin spmove)"
ok "spmove: copies next to a planted link" cmp -s a d/b
planted=$(cat planted)
ok "spmove: it tried the planted name first" \
	grep -q "openat([0-9]*, \"$planted\", .*O_EXCL.* = -1 EEXIST" trace
ok "spmove: ... and no file appeared at the link's target" test ! -e victim
ok "spmove: the planted link is left as it was" test "$(readlink "d/$planted")" = ../victim
check_eq "spmove: a file behind another link is untouched" precious "$(cat precious)"
rm -f d/.spmove-*

if [ "$(id -u)" = 0 ]; then
	mkdir tmp
	TMPDIR=$T_DIR/tmp trace "$(real_bin acctpin)" run --scenario plain >/dev/null
	ok "acctpin: runs" test $? = 0
	grep 'O_CREAT' trace | grep -v '/image"' >created
	check_eq "acctpin: creates one accounting file" 1 "$(grep -c '/pacct"' created)"
	ok "acctpin: ... with O_CREAT|O_EXCL|O_NOFOLLOW" grep -q 'O_CREAT|O_EXCL|O_NOFOLLOW' created
	ok "acctpin: ... with mode 0600" grep -q ', 0600) = [0-9]' created
	ok "acctpin: ... in its own directory" grep -Eq "\"$T_DIR/tmp/acctpin\.[A-Za-z0-9]{6}/" created
	ok "acctpin: which is made with mode 0700" \
		grep -Eq "mkdir\(\"$T_DIR/tmp/acctpin\.[A-Za-z0-9]{6}\", 0700\)" trace
	ok "acctpin: leaves nothing" test -z "$(ls -A tmp)"
else
	echo "# not root: acctpin's accounting file is not checked"
fi

done_testing
