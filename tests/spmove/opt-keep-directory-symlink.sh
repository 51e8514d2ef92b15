#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp --keep-directory-symlink: copying a directory onto a symbolic link
# to a directory enters the directory it names (without the option: cp's
# "cannot overwrite non-directory"), as GNU cp 9.11 (its
# tests/cp/keep-directory-symlink.sh).
. "$top_srcdir/tests/spmove/opt-lib.sh"

fresh tree
mkdir -p a/b b/d/e && ln -s b a/d
"$SPCP" -RT b a 2>err
check_eq "without: status 1" 1 "$?"
check_eq "without: cp's message" "spcp: cannot overwrite non-directory 'a/d' with directory 'b/d'" \
	"$(cat err)"
"$SPCP" -RT --keep-directory-symlink b a
check_eq "with: status 0" 0 "$?"
ok "with: the link kept" test -L a/d
ok "with: copied into what it names" test -d a/b/e

fresh file-link
mkdir -p src/x && echo f >file && ln -s file dst
mkdir out && ln -s ../file out/x
"$SPCP" -R --keep-directory-symlink src/x out 2>err
check_eq "a link to a file is no directory: status 1" 1 "$?"
done_testing
