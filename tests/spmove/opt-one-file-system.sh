#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp -x: a directory on another file system than its parent is made
# (with its attributes) but not filled, as cp -x does; files and
# directories of the tree's own file system are copied.  Root: mounts a
# tmpfs inside the tree.
. "$top_srcdir/tests/spmove/opt-lib.sh"
require_root
fresh tree
mkdir -p t/mnt t/same && echo 1 >t/same/f && echo 0 >t/top
mount -t tmpfs -o mode=0750 tmpfs t/mnt 2>/dev/null || skip "cannot mount a tmpfs"
at_exit "umount '$T_DIR/tree/t/mnt'"
echo 2 >t/mnt/g && mkdir t/mnt/deeper
"$SPCP" -rx t u
check_eq "status" 0 "$?"
ok "the mount point is made" test -d u/mnt
check_eq "but not filled" "" "$(ls -A u/mnt)"
ok "the rest is copied" test -f u/same/f -a -f u/top
"$SPCP" -a --one-file-system t a
check_eq "-a: the mount point's mode kept" 750 "$(stat -c %a a/mnt)"
"$SPCP" -r t full
ok "without -x: filled" test -f full/mnt/g
done_testing
