#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp -s/--symbolic-link: symbolic links to each SOURCE as named (relative
# names only into the current directory), trees of new directories and
# links, an existing DEST replaced only with -f, an existing symbolic link
# made again.  Expected results settled against GNU cp 9.11.
. "$top_srcdir/tests/spmove/opt-lib.sh"

fresh here
echo data >a
"$SPCP" -s a b
check_eq "a relative link in ." a "$(readlink b)"
mkdir d
"$SPCP" -s a d/x 2>err
check_eq "relative into another directory: status 1" 1 "$?"
check_eq "relative into another directory: message" \
	"spcp: d/x: can make relative symbolic links only in current directory" "$(cat err)"
"$SPCP" -s "$PWD/a" d/x
check_eq "an absolute name goes anywhere" "$PWD/a" "$(readlink d/x)"
echo other >c
"$SPCP" -s a c 2>err
check_eq "onto a file: status 1" 1 "$?"
check_eq "onto a file: message" "spcp: cannot create symbolic link 'c' to 'a': File exists" "$(cat err)"
"$SPCP" -sf a c
check_eq "-f replaces it" a "$(readlink c)"
"$SPCP" -s a b 2>err
check_eq "onto a symlink, without -f: status 1" 1 "$?"
"$SPCP" -sf a b
check_eq "onto a symlink with -f: made again" a "$(readlink b)"

fresh tree
mkdir -p t/sub && echo y >t/sub/y
"$SPCP" -rs "$PWD/t" u
ok "directories made" test -d u/sub -a ! -L u/sub
check_eq "files linked by absolute name" "$PWD/t/sub/y" "$(readlink u/sub/y)"
done_testing
