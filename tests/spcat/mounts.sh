#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Privileged: spcat against a full tmpfs and an ext4 filesystem on a loop device.
. "$top_srcdir/tests/lib.sh"
require_root

mkdir small ext
mount -t tmpfs -o size=1m splice-utils-test small || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/small'"
make_random a 3145728
"$SPCAT" a >small/out 2>sp.err; sp_rc=$?
cat a >small/out.cat 2>cat.err; cat_rc=$?
rm -f small/out.cat
"$SPCAT" a >small/out 2>sp.err; sp_rc=$?
sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
same_files "full tmpfs: same message as cat" sp.err cat.err.renamed
check_eq "full tmpfs: same status as cat" "$cat_rc" "$sp_rc"
size=$(stat -c %s small/out)
head -c "$size" a >prefix
same_files "full tmpfs: what was written is right" small/out prefix

command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is missing"
truncate -s 64M ext.img
mkfs.ext4 -q -F ext.img || skip "mkfs.ext4 failed"
mount -o loop ext.img ext || skip "cannot mount a loop device"
at_exit "umount '$T_DIR/ext'"
cp a ext/a
# Cold: mounted again, the file system starts with nothing cached (a
# global drop_caches would also empty the caches of tests running beside).
umount ext && mount -o loop ext.img ext
ok "the ext4 image mounted again" mountpoint -q ext
"$SPCAT" ext/a | cmp -s - a
ok "ext4 file into a pipe (cold cache)" test $? = 0
"$SPCAT" ext/a >ext/b
same_files "ext4 file to ext4 file" ext/b a
printf 'head\n' >ext/log
"$SPCAT" a >>ext/log
{ printf 'head\n'; cat a; } >log.want
same_files "append on ext4" ext/log log.want
"$SPCAT" --offset 1M --length 4096 ext/a >r.out
tail -c +1048577 a | head -c 4096 >r.want
same_files "range on ext4" r.out r.want

done_testing
