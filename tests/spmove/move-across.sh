# SPDX-License-Identifier: GPL-2.0-or-later
# spmove --remove-source across file systems (root; two tmpfs), as mv
# (coreutils 9.11): onto a non-empty directory it fails "Directory not
# empty" and changes nothing; when the destination fills up half way the
# source tree is complete and the partial destination is reported; a move
# keeps mode (set-user-ID too), times, owner, xattrs (user.* and trusted.*,
# also on a symlink), ACLs (default ACLs too), hard links within the tree
# and between operands, and makes FIFOs, sockets and device nodes anew
# without reading them; as a user it keeps a group the user is in and clears
# set-user-ID/set-group-ID when the owner cannot be kept; a target without
# user xattrs gets mv's warning and the move succeeds.
. "$top_srcdir/tests/lib.sh"
require_root
command -v setfattr >/dev/null && command -v getfacl >/dev/null ||
	skip "setfattr/setfacl missing (packages attr and acl)"

mkdir a b
mount -t tmpfs -o size=32m tmpfs a || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/a'"
mount -t tmpfs -o size=32m tmpfs b || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/b'"

# state DIR: every name under DIR (sorted) with its type, inode, link
# count, mode, owner, group, mtime (ns), size, device number, link target,
# and the contents of every regular file.
state() {
	(cd "$1" && find . -printf '%p %y %i %n %m %u %g %T@ %s %l\n' | LC_ALL=C sort &&
		find . \( -type b -o -type c \) -exec stat -c '%n %t %T' {} + | LC_ALL=C sort &&
		find . -type f | LC_ALL=C sort | xargs -r md5sum)
}

# attrs PATH: the same for PATH and what is under it (named from PATH's
# parent), without inode numbers (a copy has new ones), with every name's
# xattrs (getfattr, symlinks themselves) and ACLs (getfacl).
attrs() {
	(cd "$(dirname "$1")" && set -- "$(basename "$1")" &&
		find "$1" -printf '%p %y %n %m %u %g %T@ %s %l\n' | LC_ALL=C sort &&
		find "$1" \( -type b -o -type c \) -exec stat -c '%n %t %T' {} + | LC_ALL=C sort &&
		find "$1" -type f | LC_ALL=C sort | xargs -r md5sum &&
		find "$1" | LC_ALL=C sort | xargs getfattr -h -d -m- 2>/dev/null &&
		find "$1" ! -type l | LC_ALL=C sort | xargs getfacl 2>/dev/null)
}

no_temp_left() { [ -z "$(find a b -name '.spmove-*' | head -1)" ]; }

# Onto a non-empty directory: refused before anything is copied or removed.
mkdir -p a/t/sub b/t/x
echo data >a/t/sub/f
echo keep >b/t/x/y
before=$(state a; state b)
run_cmd out err "$SPMOVE" --remove-source a/t b
check_eq "onto a non-empty directory: exit 1" 1 "$RC"
check_eq "onto a non-empty directory: message" \
	"spmove: inter-device move failed: 'a/t' to 'b/t'; unable to remove target: Directory not empty" \
	"$(cat err)"
check_eq "onto a non-empty directory: nothing changed" "$before" "$(state a; state b)"
# An empty directory there is replaced, as a rename would replace it.
rm -r b/t/x
expect=$(attrs a/t)
run_cmd out err "$SPMOVE" --remove-source a/t b
check_eq "onto an empty directory: exit 0" 0 "$RC"
check_eq "onto an empty directory: silent" "" "$(cat out err)"
check_eq "onto an empty directory: the tree moved" "$expect" "$(attrs b/t)"
ok "onto an empty directory: the source gone" test ! -e a/t
rm -rf a/* b/*

# The destination fills up half way: the small entries fit, the big file
# does not.  Nothing of the source is removed (down to the inodes), the file
# that did not fit is reported, and no temporary file is left.  (Empty files,
# directories and short symlinks take no space on a tmpfs: which of them are
# copied before the big file does not change the outcome.)
mkdir full
mount -t tmpfs -o size=1m tmpfs full || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/full'"
mkdir -p a/tree/d1 a/tree/d2/d3
: >a/tree/d1/e1
: >a/tree/d2/d3/e3
ln -s d1/e1 a/tree/l
make_random a/tree/big 3000000
before=$(state a)
run_cmd out err "$SPMOVE" --remove-source a/tree full
check_eq "destination full half way: exit 1" 1 "$RC"
check_eq "destination full half way: the file that did not fit reported" \
	"spmove: error writing 'full/tree/big': No space left on device" "$(cat err)"
check_eq "destination full half way: the source complete, untouched" "$before" "$(state a)"
ok "destination full half way: what fitted was copied" \
	test -f full/tree/d1/e1 -a -f full/tree/d2/d3/e3 -a -L full/tree/l
ok "destination full half way: no temporary file" \
	test -z "$(find a full -name '.spmove-*' | head -1)"
rm -rf a/*

# Everything mv keeps, as root: a tree and a second operand that is a hard
# link of a file in the tree.
mkdir a/keep a/keep/dd
echo hello >a/keep/f
chown nobody:nogroup a/keep/f
setfacl -m u:nobody:rw a/keep/f
chmod 4755 a/keep/f
setfattr -n user.u -v one a/keep/f
setfattr -n trusted.t -v two a/keep/f
touch -m -d '2001-02-03 04:05:06.123456789' a/keep/f
ln a/keep/f a/keep/hl
ln a/keep/f a/op
echo group >a/keep/g
chown root:users a/keep/g
chmod 2750 a/keep/g
touch -d '2003-01-01 00:00:00' a/keep/g
ln -s f a/keep/l
setfattr -h -n trusted.t -v link a/keep/l
touch -h -d '2004-01-01 00:00:00' a/keep/l
mkfifo a/keep/fifo
mknod a/keep/zero c 1 5
mknod a/keep/blk b 7 200
sock=yes
perl -MSocket -e 'socket(S, PF_UNIX, SOCK_STREAM, 0) or die; bind(S, sockaddr_un("a/keep/sock")) or die' ||
	{ sock=no; echo "# perl cannot make a socket: no socket in the tree"; }
echo in-dd >a/keep/dd/x
setfacl -m u:nobody:rwx -d -m g:nogroup:rx a/keep/dd
setfattr -n user.d -v dir a/keep/dd
touch -d '2005-01-01 00:00:00' a/keep/dd
touch -d '2006-01-01 00:00:00' a/keep
expect=$(attrs a/keep)
expect_op=$(attrs a/op)
touch -a -d '2002-03-04 05:06:07.5' a/keep/f # after attrs has read it
# A FIFO opened or a device read would hang or never end: timeout ends that.
run_cmd out err timeout 60 "$SPMOVE" --remove-source a/keep a/op b/
check_eq "move keeping everything: exit 0" 0 "$RC"
check_eq "move keeping everything: silent" "" "$(cat out err)"
check_eq "move: the access time kept (read before anything reads the copy)" "$(date -d '2002-03-04 05:06:07.5' +%s.%N)" \
	"$(stat -c %.9X b/keep/f 2>&1)"
check_eq "move keeping everything: mode, owner, times, xattrs, ACLs, nodes" \
	"$expect" "$(attrs b/keep)"
check_eq "move keeping everything: the second operand too" "$expect_op" "$(attrs b/op)"
check_eq "move: set-user-ID kept with the owner" "4755 nobody" "$(stat -c '%a %U' b/keep/f)"
check_eq "move: hard links within the tree kept" \
	"$(stat -c %i b/keep/f)" "$(stat -c %i b/keep/hl)"
check_eq "move: a hard link between operands kept" \
	"$(stat -c %i b/keep/f)" "$(stat -c %i b/op)"
check_eq "move: the FIFO made anew" fifo "$(stat -c %F b/keep/fifo)"
check_eq "move: the character device made anew" "character special file 1 5" \
	"$(stat -c '%F %t %T' b/keep/zero)"
check_eq "move: the block device made anew" "block special file 7 c8" \
	"$(stat -c '%F %t %T' b/keep/blk)"
if [ $sock = yes ]; then
	check_eq "move: the socket made anew" socket "$(stat -c %F b/keep/sock 2>&1)"
fi
ok "move: the sources gone" test ! -e a/keep -a ! -e a/op
ok "move: no temporary file" no_temp_left
rm -rf a/* b/*

# As a user (nobody, in group users): its own file keeps its group and its
# set-group-ID bit; root's files become nobody's, keep a group nobody is in,
# and lose set-user-ID and set-group-ID.
as_nobody() { setpriv --reuid=nobody --regid=nogroup --groups=users "$@"; }
chmod 755 "$T_DIR"
mkdir a/u b/u
chown nobody a/u b/u
echo mine >a/u/mine
chown nobody:users a/u/mine
chmod 2755 a/u/mine
echo other >a/u/other
chown root:users a/u/other
chmod 6755 a/u/other
echo root >a/u/root
chmod 6755 a/u/root
touch -d '2001-01-01 00:00:00' a/u/mine a/u/other a/u/root
if ! command -v setpriv >/dev/null || ! as_nobody "$SPMOVE" --version >/dev/null 2>&1; then
	echo "# cannot run spmove as nobody: the checks as a user are left out"
else
	run_cmd out err as_nobody "$SPMOVE" --remove-source a/u/mine a/u/other a/u/root b/u
	check_eq "as a user: exit 0" 0 "$RC"
	check_eq "as a user: silent" "" "$(cat out err)"
	check_eq "as a user: own file, group and set-group-ID kept" "2755 nobody users" \
		"$(stat -c '%a %U %G' b/u/mine 2>&1)"
	check_eq "as a user: root's file in group users: group kept, set-ID bits cleared" \
		"755 nobody users" "$(stat -c '%a %U %G' b/u/other 2>&1)"
	check_eq "as a user: root's file in group root: set-ID bits cleared" \
		"755 nobody nogroup" "$(stat -c '%a %U %G' b/u/root 2>&1)"
	check_eq "as a user: times kept" "978307200 978307200 978307200" \
		"$(stat -c %Y b/u/mine b/u/other b/u/root 2>&1 | tr '\n' ' ' | sed 's/ $//')"
	check_eq "as a user: data moved" "mine other root" \
		"$(cat b/u/mine b/u/other b/u/root 2>&1 | tr '\n' ' ' | sed 's/ $//')"
	ok "as a user: the sources gone" test -z "$(ls a/u)"
fi
chmod 700 "$T_DIR"
rm -rf a/* b/*

# A target that cannot hold user xattrs (ramfs): mv's warning, exit 0.
mkdir noxattr
if mount -t ramfs ramfs noxattr 2>/dev/null; then
	at_exit "umount '$T_DIR/noxattr'"
	echo xattr >a/a
	setfattr -n user.u -v one a/a
	chmod 640 a/a
	run_cmd out err "$SPMOVE" --remove-source a/a noxattr/
	check_eq "no user xattrs on the target: exit 0" 0 "$RC"
	check_eq "no user xattrs on the target: mv's warning" \
		"spmove: setting attributes for 'noxattr/a': Operation not supported" "$(cat err)"
	check_eq "no user xattrs on the target: moved" "xattr 640" \
		"$(cat noxattr/a 2>&1) $(stat -c %a noxattr/a 2>&1)"
	ok "no user xattrs on the target: the source gone" test ! -e a/a
	ok "no user xattrs on the target: no temporary file" \
		test -z "$(find noxattr -name '.spmove-*' | head -1)"
else
	echo "# cannot mount a ramfs: the target without xattrs is left out"
fi

done_testing
