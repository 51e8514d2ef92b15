# SPDX-License-Identifier: GPL-2.0-or-later
# spmove across a power cut (root; XFS, ext4 and btrfs on loop devices).
# Each case as a user would meet it: the destination exists and is on
# disk; spmove runs with its source on another file system; another
# program fsyncs the destination's directory (forcing the journal, with
# spmove's renames in it); the power is cut; the file system is mounted
# again (journal recovery).  On XFS and ext4 the cut is the shutdown ioctl
# (xfs_io's "shutdown -f": the journal is written, dirty file data is
# not).  btrfs has that ioctl only under CONFIG_BTRFS_EXPERIMENTAL: there
# the cut is a copy of the device as written so far, put back after the
# unmount (a crash in which every write issued before it survived, none
# after).  (a) A file replaced: DST is the old file or the new one, never
# empty or mixed.  (b) -r over an existing tree of 200 files: each file
# old or new, none empty.  (c) A tree moved across two file systems (the
# destination's cut first and without even its journal written, then the
# source's with it, the worst order): the source tree or the destination
# tree is complete.  (d), (e): (a) and (b) from a source just written on
# the destination's own file system (a clone where it can be).  GNU cp
# (PEER_CP, default cp on PATH) and mv (PEER_MV) go through the same
# steps; their outcome is printed beside ours, not checked.
. "$top_srcdir/tests/lib.sh"
require_root
command -v xfs_io >/dev/null || skip "xfs_io missing (package xfsprogs)"
command -v losetup >/dev/null || skip "losetup missing"
PEER_CP=${PEER_CP:-$(command -v cp)}
PEER_MV=${PEER_MV:-$(command -v mv)}
peer_version() { "$1" --version 2>/dev/null | sed -n '1s/.* //p'; }

# fingerprint DIR: every name under DIR with its type, and the
# contents of every regular file ("-" when DIR is missing).
fingerprint() {
	[ -d "$1" ] || { echo -; return; }
	(cd "$1" && find . ! -name '.spmove-*' -printf '%p %y\n' | LC_ALL=C sort &&
		find . -type f ! -name '.spmove-*' | LC_ALL=C sort | xargs -r md5sum)
}

# state FILE OLD NEW: "new", "old", "empty" or "other" for FILE against the
# files OLD and NEW ("missing" when there is no FILE).
state() {
	if [ ! -e "$1" ]; then echo missing
	elif cmp -s "$1" "$3"; then echo new
	elif cmp -s "$1" "$2"; then echo old
	elif [ ! -s "$1" ]; then echo empty
	else echo other
	fi
}

# tally DIR OLD NEW: how many files of the tree DIR are in each state
# against the trees OLD and NEW (their names), as "new N old N ...".
tally() {
	for f in $(cd "$3" && ls); do state "$1/$f" "$2/$f" "$3/$f"; done |
		sort | uniq -c | awk '{ printf "%s%s %s", sep, $2, $1; sep = " " }'
}

# The file systems: each on two loop devices (a, b), mounted under $fs.
# mkfs_for FS IMAGE: make file system FS on IMAGE.
mkfs_for() {
	case $1 in
	xfs) mkfs.xfs -q -f "$2" ;;
	ext4) mkfs.ext4 -q -F "$2" ;;
	btrfs) mkfs.btrfs -q -f "$2" ;;
	esac
}

# cut MNT [-f]: cut the power of the file system mounted on MNT (with -f,
# after its journal is written; a btrfs copy has what was written), then
# mount it again.  Returns 1 when the shutdown did not take (the file
# system stays writable).
cut() {
	local dev
	dev=$(findmnt -n -o SOURCE "$1") || return 1
	if [ "$fs" = btrfs ]; then
		dd if="$dev" of="$1.cut" bs=4M iflag=direct conv=sparse status=none && umount "$1" &&
			dd if="$1.cut" of="$dev" bs=4M oflag=direct status=none &&
			rm "$1.cut" && mount "$dev" "$1"
		return
	fi
	xfs_io -x -c "shutdown ${2:-}" "$1" >/dev/null 2>&1
	if touch "$1/.alive" 2>/dev/null; then
		rm -f "$1/.alive"
		return 1
	fi
	umount "$1" && mount "$dev" "$1"
}

# replace_one CASE SRC: $A/dst, on disk, replaced by SRC (src.bin's
# data; written first when it is on A) by spmove, then by GNU cp, each
# followed by another program's fsync of A and a power cut: spmove's
# outcome checked (old or new), cp's printed.
replace_one() {
	local tool got what="the replaced file is old or new after a power cut"
	[ "$1" = d ] && what="a file replaced by a copy on its own file system is old or new after a power cut"
	for tool in spmove cp; do
		rm -f "$A/dst" "$A/src" && cp old.bin "$A/dst" && sync -f "$A"
		[ "$2" = src.bin ] || cp src.bin "$2"
		case $tool in
		spmove) "$SPMOVE" "$2" "$A/dst" ;;
		cp) "$PEER_CP" "$2" "$A/dst" ;;
		esac
		sync "$A"
		cut "$A" -f
		got=$(state "$A/dst" old.bin src.bin)
		if [ $tool = spmove ]; then
			check_eq "$fs ($1): $what" ok \
				"$(case $got in old | new) echo ok ;; *) echo "$got ($(stat -c %s "$A/dst") bytes)" ;; esac)"
		else
			echo "# $fs ($1): GNU cp $(peer_version "$PEER_CP"): $got"
		fi
	done
}

# replace_tree CASE SRC: the same for $A/tree (oldtree) replaced with -rT
# by SRC (newtree's files), each file old or new.
replace_tree() {
	local tool got what="each of 200 replaced files is old or new after a power cut"
	[ "$1" = e ] && what="each of 200 files replaced from its own file system is old or new after a power cut"
	for tool in spmove cp; do
		rm -rf "$A/tree" "$A/new" && cp -r oldtree "$A/tree" && sync -f "$A"
		[ "$2" = newtree ] || cp -r newtree "$2"
		case $tool in
		spmove) "$SPMOVE" -rT "$2" "$A/tree" ;;
		cp) "$PEER_CP" -rT "$2" "$A/tree" ;;
		esac
		sync "$A/tree"
		cut "$A" -f
		got=$(tally "$A/tree" oldtree newtree)
		if [ $tool = spmove ]; then
			check_eq "$fs ($1): $what" ok \
				"$(echo "$got" | grep -Eq '(empty|other|missing)' && echo "$got" || echo ok)"
			echo "# $fs ($1): spmove: $got"
		else
			echo "# $fs ($1): GNU cp $(peer_version "$PEER_CP"): $got"
		fi
	done
}

make_random src.bin 1048576
make_random old.bin 1048576
mkdir oldtree newtree movetree movetree/sub
for i in $(seq -w 1 200); do
	make_random "oldtree/f$i" 8192
	make_random "newtree/f$i" 8192
	make_random "movetree/sub/f$i" 8192
done
whole=$(fingerprint movetree)

tested=0
for fs in xfs ext4 btrfs; do
	command -v "mkfs.$fs" >/dev/null || { echo "# $fs: mkfs.$fs missing, not tested"; continue; }
	mkdir "$fs" "$fs/a" "$fs/b"
	usable=true
	for m in a b; do
		truncate -s 512M "$fs/$m.img"
		mkfs_for "$fs" "$fs/$m.img" >/dev/null 2>&1 &&
			dev=$(losetup -f --show "$fs/$m.img") || { usable=false; break; }
		at_exit "losetup -d $dev"
		mount "$dev" "$fs/$m" || { usable=false; break; }
		at_exit "umount '$T_DIR/$fs/$m' 2>/dev/null"
	done
	$usable || { echo "# $fs: no loop device or mount, not tested"; continue; }
	A=$T_DIR/$fs/a B=$T_DIR/$fs/b
	cp old.bin "$A/probe" && sync -f "$A"
	if ! cut "$A" -f; then
		echo "# $fs: the shutdown ioctl is refused here, not tested"
		continue
	fi
	tested=$((tested + 1))

	# (a) One file replaced; (d) the same from a source written on A just
	# before, left to writeback: a clone on XFS and btrfs, replaced with
	# no flush on XFS (durable.c).
	replace_one a src.bin
	replace_one d "$A/src"
	# (b) -r over an existing tree of 200 files; (e) from a tree written
	# on A just before.
	replace_tree b newtree
	replace_tree e "$A/new"

	# (c) A tree moved from A to B: the power cut hits B before its
	# journal is written and A after, so that A's removals last and B
	# keeps only what was made durable.
	for tool in spmove mv; do
		rm -rf "$A/tree" "$B/tree" && cp -r movetree "$A/tree" && sync -f "$A"
		case $tool in
		spmove) "$SPMOVE" --remove-source "$A/tree" "$B/tree" ;;
		mv) "$PEER_MV" "$A/tree" "$B/tree" ;;
		esac
		sync "$A"
		cut "$B"
		cut "$A" -f
		src=$(fingerprint "$A/tree") dst=$(fingerprint "$B/tree")
		got="source $([ "$src" = "$whole" ] && echo complete || echo incomplete)"
		got="$got, destination $([ "$dst" = "$whole" ] && echo complete || echo incomplete)"
		if [ $tool = spmove ]; then
			check_eq "$fs (c): a moved tree is complete at one end after a power cut" ok \
				"$( [ "$src" = "$whole" ] || [ "$dst" = "$whole" ] && echo ok || echo "$got")"
			echo "# $fs (c): spmove: $got"
		else
			echo "# $fs (c): GNU mv $(peer_version "$PEER_MV"): $got"
		fi
	done
done
[ $tested -gt 0 ] || skip "no file system with the shutdown ioctl could be tested"
done_testing
