# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -r: directory trees side by side with cp -r, compared with diff -r.
. "$top_srcdir/tests/lib.sh"

umask 022
mkdir -p src/a/b/c src/empty
make_random src/f1 100000
make_random src/a/f2 3000
: >src/a/b/c/zero
printf 'x' >src/a/b/one
chmod 700 src/a/b
ln -s f1 src/link
ln -s ../nowhere src/a/dangling
"$SPMOVE" -r src dst; check_eq "-r: exit 0" 0 $?
cp -r src dst.cp
ok "same tree as cp -r (diff -r)" diff -r --no-dereference dst dst.cp
ok "symlink kept as a link" test -L dst/link
check_eq "link target" f1 "$(readlink dst/link)"
check_eq "dangling link kept" ../nowhere "$(readlink dst/a/dangling)"
check_eq "directory modes like cp's" "$(stat -c %a dst.cp/a/b)" "$(stat -c %a dst/a/b)"
ok "empty directory copied" test -d dst/empty

# Into an existing directory: DST/SRC, as cp does.
mkdir there there.cp
"$SPMOVE" -r src there; cp -r src there.cp
ok "into an existing directory" diff -r --no-dereference there there.cp

# Other file types are made anew, as cp -r does (a FIFO is not read).
mkfifo src/fifo
run_cmd out err "$SPMOVE" -r src dst2
check_eq "fifo in the tree: exit 0" 0 "$RC"
check_eq "fifo in the tree: silent" "" "$(cat err)"
ok "fifo in the tree: made a FIFO" test -p dst2/fifo
ok "the rest copied" cmp -s src/a/f2 dst2/a/f2
rm src/fifo

# Into itself: refused when the copy reaches itself (cp leaves what it
# made up to there).
run_cmd out err "$SPMOVE" -r src src/a/inner
check_eq "into itself: exit 1" 1 "$RC"
check_eq "into itself: message" \
	"spmove: cannot copy a directory, 'src', into itself, 'src/a/inner'" "$(cat err)"
ok "no copy inside the copy" test ! -e src/a/inner/a/inner/a
rm -rf src/a/inner

# A directory onto a file.
printf x >plain
run_cmd out err "$SPMOVE" -r src/a plain
check_eq "directory onto a file: exit 1" 1 "$RC"

# --remove-source moves a tree (same filesystem: one rename), like mv.
cp -r src m1; cp -r src m2
"$SPMOVE" --remove-source m1 moved1; check_eq "moving a tree: exit 0" 0 $?
mv m2 moved2
ok "moved like mv" diff -r --no-dereference moved1 moved2
ok "source gone" test ! -e m1
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"

done_testing
