#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp -R --copy-contents: special files in a tree are read as data into
# regular files (a FIFO, a block device, a character device), symbolic
# links stay links; without it they are made again as special files.  The
# FIFO and the block device (a loop device over a file of random bytes)
# carry data, so that a copy which does not read them cannot pass.  Root
# (mknod, losetup).
. "$top_srcdir/tests/spmove/opt-lib.sh"
require_root
fresh tree
mkdir t && mknod t/null c 1 3 2>/dev/null || skip "cannot mknod"
ln -s /dev/null t/link && echo x >t/x
mkfifo t/fifo
# A block device with data, where loop devices can be set up.
make_random "$T_DIR/img" 12288
loop=$(losetup -f --show "$T_DIR/img" 2>/dev/null) || loop=
if [ -n "$loop" ]; then
	at_exit "losetup -d $loop"
	mknod t/blk b "$((0x$(stat -c %t "$loop")))" "$((0x$(stat -c %T "$loop")))"
else
	echo "# no loop device: the block device left out"
fi

"$SPCP" -R t plain
ok "without: a device again" test -c plain/null
ok "without: a FIFO again" test -p plain/fifo
[ -z "$loop" ] || ok "without: a block device again" test -b plain/blk

# The FIFO's writer: it waits for spcp to open the FIFO (a writer left
# waiting, when spcp does not read it, is ended after 60 s).
timeout 60 sh -c 'printf "through the fifo\n" >t/fifo' &
writer=$!
"$SPCP" -R --copy-contents t data
check_eq "status" 0 "$?"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
ok "a device read as data: a regular file" test -f data/null -a ! -c data/null
check_eq "its data (none)" 0 "$(stat -c %s data/null)"
ok "a FIFO read as data: a regular file" test -f data/fifo -a ! -p data/fifo
# (read only when it is a regular file: a FIFO made again would block cat)
check_eq "the FIFO's data" "through the fifo" \
	"$(test -f data/fifo -a ! -p data/fifo && cat data/fifo)"
if [ -n "$loop" ]; then
	ok "a block device read as data: a regular file" test -f data/blk -a ! -b data/blk
	same_files "the block device's data" "$T_DIR/img" data/blk
fi
ok "a symbolic link stays one" test -L data/link
check_eq "a file copied" x "$(cat data/x)"
done_testing
