#!/bin/sh
# spcp -R --copy-contents: special files in a tree are read as data into
# regular files (a character device, a fifo), symbolic links stay links;
# without it they are made again as special files.  Root (mknod).
. "$top_srcdir/tests/spmove/opt-lib.sh"
SPCP=$top_builddir/src/spmove/spcp
require_root
fresh tree
mkdir t && mknod t/null c 1 3 2>/dev/null || skip "cannot mknod"
ln -s /dev/null t/link && echo x >t/x
"$SPCP" -R t plain
ok "without: a device again" test -c plain/null
"$SPCP" -R --copy-contents t data
check_eq "status" 0 "$?"
ok "a device read as data: a regular file" test -f data/null -a ! -c data/null
check_eq "its data (none)" 0 "$(stat -c %s data/null)"
ok "a symbolic link stays one" test -L data/link
check_eq "a file copied" x "$(cat data/x)"
done_testing
