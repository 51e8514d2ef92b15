#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp -l/--link: hard links instead of copies (no data moves), trees made
# of new directories and linked files, links followed unless -P/-d, an
# existing DEST replaced only with -f, and cp's same-file rules for it.
# Expected results settled against GNU cp 9.11.
. "$top_srcdir/tests/spmove/opt-lib.sh"
inode() { stat -c %i "$1"; }

fresh file
echo data >a
check_eq "-v: cp's words" "'a' -> 'b'" "$("$SPCP" -lv a b)"
check_eq "b is a link of a" "$(inode a)" "$(inode b)"
check_eq "two links" 2 "$(stat -c %h a)"
"$SPCP" -l a b
check_eq "again onto its own link: nothing to do" 0 "$?"
echo other >c
"$SPCP" -l a c 2>err
check_eq "onto another file: status 1" 1 "$?"
check_eq "onto another file: message" "spcp: cannot create hard link 'c' to 'a': File exists" \
	"$(cat err)"
check_eq "onto another file: kept" other "$(cat c)"
"$SPCP" -lf a c
check_eq "-f replaces it" "$(inode a)" "$(inode c)"
"$SPCP" -l a a 2>err
check_eq "a onto itself: status 0 (already its own link)" 0 "$?"

fresh tree
mkdir -p t/sub && echo x >t/x && echo y >t/sub/y && ln -s x t/lnk
"$SPCP" -rl t u
ok "the directories are new" test "$(inode t/sub)" != "$(inode u/sub)"
check_eq "the files are links" "$(inode t/sub/y)" "$(inode u/sub/y)"
check_eq "-r -l follows symbolic links (cp's default for -l)" "$(inode t/x)" "$(inode u/lnk)"
"$SPCP" -rlP t p
ok "-P: the symbolic link itself linked" test -L p/lnk
check_eq "-P: the files are links" "$(inode t/sub/y)" "$(inode p/sub/y)"

fresh both
touch a
"$SPCP" -ls a b 2>err
check_eq "-l with -s: status 1" 1 "$?"
check_eq "-l with -s: message" "spcp: cannot make both hard and symbolic links
Try 'spcp --help' for more information." "$(cat err)"

fresh symlink-dest
echo foo >foo && ln -s foo symlink
"$SPCP" -l foo symlink 2>err
check_eq "onto a symlink to the source: refused" "spcp: cannot create hard link 'symlink' to 'foo': File exists" "$(cat err)"
"$SPCP" -dfl foo symlink
ok "-dfl: the symlink replaced by a link" test ! -L symlink
done_testing
