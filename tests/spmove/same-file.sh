# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a source and destination that are the same file -- by name,
# through a symbolic link either way, through hard links, through a bind
# mount, on one file system and across two -- are refused as cp and mv
# (coreutils 9.11) refuse them: "'s' and 'f' are the same file", exit 1,
# nothing changed.  The cases where GNU does not refuse (cp
# --remove-destination, mv of a file onto a symlink to it, of a symlink
# onto another symlink or onto another hard link of its target) succeed as
# they do there.
. "$top_srcdir/tests/lib.sh"

# state DIR: every name in DIR with its type, inode, link count, mode,
# link target, and the contents of every regular file.
state() {
	(cd "$1" && find . -printf '%p %y %i %n %m %l\n' | LC_ALL=C sort &&
		find . -type f | LC_ALL=C sort | xargs -r cat)
}

# refused DESC MESSAGE ARGS...: spmove ARGS, run in the current directory,
# fails with exit 1 and exactly MESSAGE on stderr, and the directory is left
# as it was, down to the inodes.
refused() {
	local what=$1 msg=$2; shift 2
	local before
	before=$(state .)
	run_cmd ../out ../err "$SPMOVE" "$@"
	check_eq "$what: exit 1" 1 "$RC"
	check_eq "$what: message" "$msg" "$(cat ../err)"
	check_eq "$what: nothing changed" "$before" "$(state .)"
}

# succeeds DESC ARGS...: spmove ARGS exits 0 and prints nothing.
succeeds() {
	local what=$1; shift
	run_cmd ../out ../err "$SPMOVE" "$@"
	check_eq "$what: exit 0" 0 "$RC"
	check_eq "$what: silent" "" "$(cat ../out ../err)"
}

# scene: a fresh w/ holding f (data), s -> f, h (a hard link of f), and
# sl1, sl2 (two symlinks to f); the caller is left inside w/.
scene() {
	cd "$T_DIR" && rm -rf w && mkdir w && cd w || exit 99
	echo data >f
	ln -s f s
	ln f h
	ln -s f sl1
	ln -s f sl2
}

for mode in copy move; do
	opt=
	[ $mode = move ] && opt=--remove-source
	scene
	refused "$mode f f" "spmove: 'f' and 'f' are the same file" $opt f f
	scene
	refused "$mode f ./f" "spmove: 'f' and './f' are the same file" $opt f ./f
	scene
	refused "$mode s f (symlink onto its target)" \
		"spmove: 's' and 'f' are the same file" $opt s f
	scene
	refused "$mode f h (hard links)" "spmove: 'f' and 'h' are the same file" $opt f h
	scene
	refused "$mode h f (hard links)" "spmove: 'h' and 'f' are the same file" $opt h f
	scene
	refused "$mode f into its own directory" \
		"spmove: 'f' and './f' are the same file" $opt f .
done

# The report, exactly: the data must survive.
cd "$T_DIR" && rm -rf w && mkdir w && cd w || exit 99
echo data >f; ln -s f s
run_cmd ../out ../err "$SPMOVE" --remove-source s f
check_eq "issue 13: mv s f: exit 1" 1 "$RC"
check_eq "issue 13: f still holds the data" data "$(cat f 2>/dev/null)"
check_eq "issue 13: s still points to f" f "$(readlink s)"

# Copy mode, the rest of cp's table.
scene
refused "copy f s (onto a symlink to itself)" \
	"spmove: 'f' and 's' are the same file" f s
refused "copy sl1 sl2 (two symlinks to one file)" \
	"spmove: 'sl1' and 'sl2' are the same file" sl1 sl2
refused "copy --remove-destination f ./f" \
	"spmove: 'f' and './f' are the same file" --remove-destination f ./f
refused "copy --remove-destination s f" \
	"spmove: 's' and 'f' are the same file" --remove-destination s f
# --remove-destination unlinks first: nothing can be lost, GNU copies.
f_ino=$(stat -c %i f)
succeeds "copy --remove-destination f s" --remove-destination f s
ok "... s is now a regular file" test -f s -a ! -L s
check_eq "... with f's data" data "$(cat s)"
check_eq "... f is the same inode" "$f_ino" "$(stat -c %i f)"
succeeds "copy --remove-destination f h" --remove-destination f h
ok "... h is a file of its own now" test "$(stat -c %i h)" != "$f_ino"
check_eq "... with f's data" data "$(cat h)"
check_eq "... f has one link left" 1 "$(stat -c %h f)"
succeeds "copy --remove-destination sl1 sl2" --remove-destination sl1 sl2
ok "... sl2 is now a regular file" test -f sl2 -a ! -L sl2
check_eq "... with the data" data "$(cat sl2)"
check_eq "... sl1 untouched" f "$(readlink sl1)"

# Move mode: what mv allows, because a name still leads to the data.
scene
f_ino=$(stat -c %i f)
succeeds "move f s (a file onto a symlink to it)" --remove-source f s
ok "... s is the file itself now" test ! -L s -a "$(stat -c %i s)" = "$f_ino"
ok "... f is gone" test ! -e f -a ! -L f
check_eq "... the data kept" data "$(cat s)"
scene
succeeds "move sl1 sl2 (two symlinks to one file)" --remove-source sl1 sl2
ok "... sl1 is gone" test ! -L sl1
check_eq "... sl2 still points to f" f "$(readlink sl2)"
check_eq "... the data kept" data "$(cat f)"
scene
# s -> f, and h is another link of f: replacing h loses no data.
succeeds "move s h (symlink onto another link of its target)" --remove-source s h
check_eq "... h is the symlink now" f "$(readlink h)"
ok "... s is gone" test ! -L s
check_eq "... f still holds the data" data "$(cat f)"
# Two hard links of one symlink: rename(2) would do nothing.
scene
ln sl2 hl
refused "move hl sl2 (hard links of one symlink)" \
	"spmove: 'hl' and 'sl2' are the same file" --remove-source hl sl2

# Across file systems (root): a symlink on a tmpfs to a file here, and a
# bind mount of this directory.
if [ "$(id -u)" = 0 ]; then
	cd "$T_DIR" || exit 99
	mkdir o b
	if mount -t tmpfs -o size=4m tmpfs o; then
		at_exit "umount '$T_DIR/o'"
		for mode in copy move; do
			opt=
			[ $mode = move ] && opt=--remove-source
			cd "$T_DIR" && rm -rf w o/* && mkdir w && cd w || exit 99
			echo data >f
			ln -s "$T_DIR/w/f" ../o/s
			refused "$mode across file systems: symlink onto its target" \
				"spmove: '../o/s' and 'f' are the same file" $opt ../o/s f
			check_eq "$mode across: the symlink is still there" \
				"$T_DIR/w/f" "$(readlink ../o/s)"
		done
		refused "copy across file systems: file onto a symlink to it" \
			"spmove: 'f' and '../o/s' are the same file" f ../o/s
		# ... but mv replaces the symlink (it is not the file).
		rm -f f ../o/s; echo data >f; ln -s "$T_DIR/w/f" ../o/s
		run_cmd ../out ../err "$SPMOVE" --remove-source f ../o/s
		check_eq "move across onto a symlink to itself: exit 0" 0 "$RC"
		ok "... the symlink replaced by the file" test -f ../o/s -a ! -L ../o/s
		check_eq "... with the data" data "$(cat ../o/s)"
		ok "... f removed" test ! -e f
	else
		echo "# cannot mount a tmpfs: the checks across file systems are left out"
	fi
	if mount --bind "$T_DIR/w" "$T_DIR/b" 2>/dev/null; then
		at_exit "umount '$T_DIR/b'"
		for mode in copy move; do
			opt=
			[ $mode = move ] && opt=--remove-source
			cd "$T_DIR" && rm -f w/* && cd w || exit 99
			echo data >f
			refused "$mode through a bind mount" \
				"spmove: 'f' and '../b/f' are the same file" $opt f ../b/f
			refused "$mode through a bind mount, the other way" \
				"spmove: '../b/f' and 'f' are the same file" $opt ../b/f f
		done
	else
		echo "# cannot bind-mount: the bind mount checks are left out"
	fi
fi

cd "$T_DIR" || exit 99
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"

done_testing
