#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spmv --no-copy: where rename(2) cannot move (another file system), mv
# fails instead of copying: "cannot move 'f' to 'D/f': Invalid cross-device
# link", the source kept.  Needs /dev/shm on another file system than the
# scratch directory.
. "$top_srcdir/tests/spmove/opt-lib.sh"
other=$(mktemp -d /dev/shm/splice-utils-test.XXXXXX 2>/dev/null) || skip "no /dev/shm"
at_exit "rm -rf '$other'"
[ "$(stat -c %d "$other")" != "$(stat -c %d "$T_DIR")" ] || skip "/dev/shm is the scratch directory's file system"

fresh same-fs
echo x >f && mkdir d
"$SPMV" --no-copy f d
ok "on one file system: renamed" test -f d/f -a ! -e f

fresh across
echo x >f && mkdir dir && echo y >dir/a
"$SPMV" --no-copy f "$other" 2>err
check_eq "a file across: status 1" 1 "$?"
check_eq "a file across: message" "spmv: cannot move 'f' to '$other/f': Invalid cross-device link" \
	"$(cat err)"
ok "a file across: the source stays" test -f f
ok "a file across: nothing made" test ! -e "$other/f"
"$SPMV" --no-copy dir "$other" 2>/dev/null
check_eq "a directory across: status 1" 1 "$?"
ok "a directory across: nothing made" test ! -e "$other/dir"
"$SPMV" f dir "$other"
ok "without --no-copy: moved" test -f "$other/f" -a -f "$other/dir/a" -a ! -e f

done_testing
