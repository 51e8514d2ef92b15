#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp --parents: SOURCE copied to DIRECTORY/SOURCE, the directories of its
# name made (-v: "a -> d/a", unquoted, as cp prints them) with the source
# directories' modes (or the default with --no-preserve=mode), -p giving
# existing ones the source's attributes too; a destination that is not a
# directory, a name through a file, a file in the way: cp's messages.
# Expected results as GNU cp 9.11's (tests/cp/cp-parents.sh, parent-perm.sh).
. "$top_srcdir/tests/spmove/opt-lib.sh"

fresh verbose
mkdir -p a/b/c d && echo x >a/b/c/f
check_eq "-v: each directory made, then the file" "a -> d/a
a/b -> d/a/b
a/b/c -> d/a/b/c
'a/b/c/f' -> 'd/a/b/c/f'" "$("$SPCP" -v --parents a/b/c/f d)"
check_eq "the data" x "$(cat d/a/b/c/f)"
"$SPCP" -R --parents a/b e 2>err
check_eq "not into a directory: status 1" 1 "$?"
check_eq "not into a directory: message" "spcp: with --parents, the destination must be a directory
Try 'spcp --help' for more information." "$(cat err)"

fresh modes
mkdir -p np/b d && chmod 0700 np && echo x >np/b/file
"$SPCP" --parents np/b/file d
check_eq "a directory made: the source's mode" 700 "$(stat -c %a d/np)"
mkdir e
"$SPCP" --parents --no-preserve=mode np/b/file e
check_eq "--no-preserve=mode: the default" 755 "$(stat -c %a e/np)"
mkdir -p a/b/c a/b/d f && touch a/b/c/x a/b/d/x
"$SPCP" -p --parents a/b/c/x f
chmod g-rx f/a f/a/b
"$SPCP" -p --parents a/b/d/x f
check_eq "-p: an existing directory gets the source's mode" "$(stat -c %a a)" "$(stat -c %a f/a)"

fresh errors
mkdir d && touch file d/x
"$SPCP" --parents file/g d 2>err
check_eq "through a file: status 1" 1 "$?"
check_eq "through a file: message" "spcp: failed to get attributes of 'file': Not a directory" \
	"$(cat err)"
ok "through a file: nothing made" test ! -e d/file
mkdir -p x/y
"$SPCP" -r --parents x/y d 2>/dev/null
mkdir -p z/q && touch d/z
"$SPCP" -r --parents z/q d 2>err
check_eq "a file in the way: message" "spcp: 'd/z' exists but is not a directory" "$(cat err)"
ln -s /tmp d/l && mkdir -p l/m
"$SPCP" -r --parents l/m d 2>err
check_eq "a symbolic link in the way is not followed" "spcp: 'd/l' exists but is not a directory" \
	"$(cat err)"
done_testing
