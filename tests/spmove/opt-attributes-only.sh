#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp --attributes-only: a new DEST made empty, an existing one keeping
# its data (and its other hard links), either given SOURCE's attributes as
# -p/-a say; a symbolic link SOURCE does not replace an existing file
# unless --remove-destination.  Expected results as GNU cp 9.11's (its
# tests/cp/attr-existing.sh and reflink-perm.sh).
. "$top_srcdir/tests/spmove/opt-lib.sh"

fresh new
echo data >a && chmod 640 a && touch -d 2001-02-03 a
"$SPCP" -p --attributes-only a b
check_eq "a new DEST: status" 0 "$?"
check_eq "a new DEST: empty" 0 "$(stat -c %s b)"
check_eq "-p: the mode" 640 "$(stat -c %a b)"
check_eq "-p: the times" "$(stat -c %Y a)" "$(stat -c %Y b)"
"$SPCP" --reflink=always -p --attributes-only a c
check_eq "with --reflink=always: still empty" 0 "$(stat -c %s c)"

fresh existing
printf 1 >file1 && printf 2 >file2
"$SPCP" --attributes-only file1 file2
check_eq "an existing DEST keeps its data" 2 "$(cat file2)"
ln file2 link2
"$SPCP" -a --attributes-only file1 file2
check_eq "-a: still its data" 2 "$(cat file2)"
check_eq "-a: its hard link kept" 2 "$(stat -c %h file2)"
ln -s file1 sym1
"$SPCP" -a --attributes-only sym1 file2 2>err
check_eq "a link onto a file: status 1" 1 "$?"
check_eq "a link onto a file: message" "spcp: cannot create symbolic link 'file2': File exists" \
	"$(cat err)"
check_eq "a link onto a file: the file kept" 2 "$(cat file2)"
"$SPCP" -a --remove-destination --attributes-only sym1 file2
ok "--remove-destination: the link made" test -L file2

fresh tree
mkdir -p t/sub && echo x >t/sub/x
"$SPCP" -r --attributes-only t u
ok "a tree: the files made" test -f u/sub/x
check_eq "a tree: empty" 0 "$(stat -c %s u/sub/x)"
done_testing
