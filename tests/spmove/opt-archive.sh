# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -a/--archive, as GNU cp 9.11: -dR --preserve=all, quiet about
# attributes that cannot be kept (extended attributes on a file system
# without them; ownership as a user) where an explicit --preserve=xattr
# reports them. Needs root (ownership, a ramfs); parts as nobody.
. "$top_srcdir/tests/spmove/opt-lib.sh"
require_root
OLD=981173106

# tree: the listing of tree DIR: type, mode, owner, mtime (but for
# symlinks and FIFOs), link count, name, link target.
tree() {
	(cd "$1" && find . -printf '%y %m %u:%g %n %p %l\n' | LC_ALL=C sort -k6)
	(cd "$1" && find . ! -type l ! -type p -printf '%T@ %p\n' | LC_ALL=C sort -k2)
}

# setup NAME: t/ with a file a and a hard link h to it, a symlink l -> a, a
# dangling symlink, a FIFO, t/sub (mode 700) holding y owned by root; the
# rest owned by nobody:nogroup; old times.
setup() {
	fresh "$1"
	mkdir -p t/sub
	echo a >t/a; ln t/a t/h; ln -s a t/l; ln -s nowhere t/dang; mkfifo t/fifo
	echo y >t/sub/y; chmod 700 t/sub; chmod 640 t/a
	chown -R nobody:nogroup t; chown root t/sub/y
	touch -d @$OLD t/sub/y t/sub t/a t
}

for opt in -a --archive --arch "-dR --preserve=all"; do
	setup "archive$opt"
	# shellcheck disable=SC2086 # opt is a list of words
	expect "'$opt' a tree" 0 "" "" $opt t o
	check_eq "'$opt': the same tree" "$(tree t)" "$(tree o)"
	check_eq "'$opt': the data" y "$(content o/sub/y)"
	ok "'$opt': the hard links kept" test o/a -ef o/h
	no_temp_left "'$opt'"
done
setup archive-into
mkdir d
expect "-a into a directory" 0 "" "" -a t/a t/l d
check_eq "-a into a directory: the symlink kept" a "$(readlink d/l)"
check_eq "-a into a directory: mode, owner, time" "640 nobody:nogroup $OLD" \
	"$(stat -c '%a %U:%G %Y' d/a)"
setup archive-no-preserve
expect "-a --no-preserve=ownership" 0 "" "" -a --no-preserve=ownership t o
check_eq "-a --no-preserve=ownership: owner" "root:root 640 $OLD" "$(stat -c '%U:%G %a %Y' o/a)"
expect "-a -L: symlinks followed" 0 "" "" -a -L t/l o2
check_eq "-a -L: a file" "a 640" "$(content o2) $(stat -c %a o2)"

# Extended attributes where the destination cannot hold them (ramfs): -a
# and --preserve=all say nothing; --preserve=xattr reports it.
fresh xattr
echo x >x
mkdir r
if setfattr -n user.foo -v bar x 2>/dev/null && mount -t ramfs ramfs r; then
	at_exit "umount '$T_DIR/xattr/r'"
	expect "-a, no xattrs there" 0 "" "" -a x r/a
	check_eq "-a, no xattrs there: copied" x "$(content r/a)"
	expect "--preserve=all, no xattrs there" 0 "" "" --preserve=all x r/b
	expect "--preserve=xattr, no xattrs there" 1 "" \
		"spmove: setting attributes for 'r/c': Operation not supported" --preserve=xattr x r/c
	check_eq "--preserve=xattr, no xattrs there: copied all the same" x "$(content r/c)"
	expect "-a --preserve=xattr, no xattrs there" 1 "" \
		"spmove: setting attributes for 'r/d': Operation not supported" -a --preserve=xattr x r/d
	no_temp_left "no xattrs there" r
else
	echo "# no user xattrs here or no ramfs: those checks skipped"
fi

# As a user: files owned by others copied as the user's, nothing said.
if nobody_runs "$SPMOVE"; then
	setup user
	chmod 755 "$T_DIR" t/sub
	mkdir w; chown nobody w
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$SPMOVE" -a t w/t \
		>"$T_DIR/stdout" 2>"$T_DIR/stderr"
	check_eq "user -a: status 0" 0 $?
	check_eq "user -a: nothing said" "" "$(cat "$T_DIR/stderr")"
	check_eq "user -a: root's file now the user's, mode and time kept" \
		"nobody:nogroup 644 $OLD" "$(stat -c '%U:%G %a %Y' w/t/sub/y)"
	ok "user -a: hard links kept" test w/t/a -ef w/t/h
	check_eq "user -a: the symlink" a "$(readlink w/t/l)"
else
	echo "# no setpriv, or nobody cannot reach the build tree: the checks as a user left out"
fi

done_testing
