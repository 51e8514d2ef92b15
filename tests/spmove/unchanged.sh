# SPDX-License-Identifier: GPL-2.0-or-later
# A copy onto an existing file that already holds the source's bytes
# leaves that file as it is and only sets its modification time, as cp's
# write into it would (src/spmove/copy.c, left_unchanged()): the same
# inode, links, mode and access time as GNU cp leaves, measured beside it.
# Any file that differs anywhere -- its last byte, one byte past the
# source's end, one chunk in -- is copied, never left; so is a file whose
# pages are not in memory or still wait to be written, one without the
# mode, owner or (no) extended attributes -p and -a keep, and every file
# of a run that asks more of the copy (--fsync, --sparse, a move...).  On
# XFS and btrfs a clone is told by its blocks.  Where files of the same
# size mostly differ, the looks stop but for a sample.
. "$top_srcdir/tests/lib.sh"
GNU_CP=$(gnu cp)

json_field() { jq -r ".$1" "$2"; }
# files PREFIX FROM TO FORMAT: files PREFIX<i> for i from FROM to TO - 1,
# each holding FORMAT's printf of i.
files() {
	local i=$2
	while [ "$i" -lt "$3" ]; do
		# shellcheck disable=SC2059 # the format is the caller's
		printf "$4" "$i" >"$1$i"
		i=$((i + 1))
	done
}

# Most files live in memory, where every kernel tells that a file is
# whole (tmpfs: root mounts one, others take /dev/shm); T_DIR may be on a
# disk, where the files just written still wait to be written back.
if [ "$(id -u)" = 0 ] && mkdir m && mount -t tmpfs -o size=64m tmpfs m; then
	at_exit "umount '$T_DIR/m'"
	M=$T_DIR/m
elif M=$(mktemp -d /dev/shm/splice-utils-test.XXXXXX 2>/dev/null); then
	at_exit "rm -rf '$M'"
else
	skip "no tmpfs to work in"
fi
cd "$M" || exit 99
# Seconds and nanoseconds of the modification, change and access times,
# and the inode, links and mode.
look() { stat -c '%i %h %a %U' "$1"; }
old_times() { touch -d '2001-02-03 04:05:06' "$@"; }

# One file of 4 KiB onto its twin, against GNU cp onto another twin.
make_random a 4096
for d in ours gnu; do cp a "$d"; old_times "$d"; done
chmod 0640 ours gnu
before=$(look ours)
run_cmd out err "$SPMOVE" --stats --json a ours
check_eq "twin: exit 0" 0 "$RC"
check_eq "twin: found unchanged" 1 "$(json_field unchanged err)"
check_eq "twin: no byte moved" 0 "$(json_field bytes err)"
"$GNU_CP" a gnu
check_eq "twin: the same inode, links, mode and owner, as GNU cp keeps them" \
	"$before" "$(look ours)"
check_eq "twin: GNU cp keeps them too" "$(look gnu | cut -d' ' -f2-)" \
	"$(look ours | cut -d' ' -f2-)"
check_eq "twin: the access time is left, as GNU cp leaves it" \
	"$(stat -c %X gnu)" "$(stat -c %X ours)"
ok "twin: the modification time is the copy's, as GNU cp's" \
	test "$(stat -c %Y ours)" -gt 1000000000 -a "$(stat -c %Y ours)" -ge "$(stat -c %Y a)"
same_files "twin: the data" a ours

# Files of the source's size that differ in one byte: copied, whatever
# the byte (the first, one in the second chunk, the last of a file of
# several chunks), and a file one byte longer or shorter.
make_random big 200000
differs() { # NAME OFFSET: a copy of big with the byte at OFFSET changed
	cp big "$1"
	printf '\377' | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
	cmp -s big "$1" && printf '\376' | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
	old_times "$1"
}
for at in 0 20000 199999; do
	differs "d$at" "$at"
	run_cmd out err "$SPMOVE" --stats --json big "d$at"
	check_eq "a byte differs at $at: exit 0" 0 "$RC"
	same_files "a byte differs at $at: copied" big "d$at"
	check_eq "a byte differs at $at: none found unchanged" 0 "$(json_field unchanged err)"
done
cp big longer && printf x >>longer
head -c 199999 big >shorter
for f in longer shorter; do
	"$SPMOVE" big "$f"
	same_files "$f by one byte: copied" big "$f"
done
cp big twin-big && old_times twin-big
run_cmd out err "$SPMOVE" --stats --json big twin-big
check_eq "200,000 bytes, the same: found unchanged" 1 "$(json_field unchanged err)"
same_files "200,000 bytes, the same: the data" big twin-big

# Past 256 KiB a file is copied, the same or not.
make_random huge 300000
cp huge twin-huge
run_cmd out err "$SPMOVE" --stats --json huge twin-huge
check_eq "300,000 bytes: copied, not looked at" 0 "$(json_field unchanged err)"
same_files "300,000 bytes: the data" huge twin-huge

# An empty file onto an empty one: its time set, as cp's truncation sets it.
: >empty && : >twin-empty && old_times twin-empty
run_cmd out err "$SPMOVE" --stats --json empty twin-empty
check_eq "empty: found unchanged" 1 "$(json_field unchanged err)"
ok "empty: its modification time set" test "$(stat -c %Y twin-empty)" -gt 1000000000

# A file with a second name: both names keep the one file, as cp leaves
# them.  A link to a twin: the link stays, its file keeps its inode.
cp a linked && ln linked linked2 && old_times linked
"$SPMOVE" a linked
check_eq "hard link: both names, one file" "$(stat -c %i linked)" "$(stat -c %i linked2)"
check_eq "hard link: two links" 2 "$(stat -c %h linked)"
cp a target && ln -s target sym
ino=$(stat -c %i target)
run_cmd out err "$SPCP" a sym
ok "a symbolic link to a twin: still a link" test -L sym
check_eq "a symbolic link to a twin: its file kept" "$ino" "$(stat -c %i target)"

# -p, -a, --preserve: a file left must have already what they keep (the
# same mode and owner, no extended attribute or ACL on either file), and
# gets the source's times, as cp -p gives them.
cp a keep-p && old_times keep-p
run_cmd out err "$SPMOVE" -p --stats --json a keep-p
check_eq "-p, the same mode: found unchanged" 1 "$(json_field unchanged err)"
check_eq "-p: the source's times, as cp -p gives them" "$(stat -c '%X %Y' a)" \
	"$(stat -c '%X %Y' keep-p)"
cp a keep-mode && chmod 0600 keep-mode
run_cmd out err "$SPMOVE" -p --stats --json a keep-mode
check_eq "-p, another mode: copied" 0 "$(json_field unchanged err)"
check_eq "-p, another mode: the source's" "$(stat -c %a a)" "$(stat -c %a keep-mode)"
cp a keep-xattr && setfattr -n user.note -v kept keep-xattr 2>/dev/null &&
	{
		run_cmd out err "$SPMOVE" -a --stats --json a keep-xattr
		check_eq "-a, an extended attribute on the file: copied" 0 \
			"$(json_field unchanged err)"
	}
cp a keep-acl && setfacl -m u:nobody:r keep-acl 2>/dev/null && chmod 0644 keep-acl &&
	{
		run_cmd out err "$SPMOVE" -p --stats --json a keep-acl
		check_eq "-p, an ACL on the file: copied" 0 "$(json_field unchanged err)"
		ok "-p, an ACL on the file: none left, as the source has none" \
			test -z "$(getfacl -cs keep-acl 2>/dev/null)"
	}
if [ "$(id -u)" = 0 ]; then
	cp a keep-owner && chown nobody keep-owner
	run_cmd out err "$SPMOVE" --preserve=ownership --stats --json a keep-owner
	check_eq "--preserve=ownership, another owner: copied" 0 "$(json_field unchanged err)"
	check_eq "--preserve=ownership, another owner: the source's" root \
		"$(stat -c %U keep-owner)"
fi

# Options that ask more than a plain copy: the file is copied as usual.
for opt in --fsync --sparse=always --method=rw --splice-move --nocache; do
	cp a "opt$opt" && old_times "opt$opt"
	run_cmd out err "$SPMOVE" "$opt" --stats --json a "opt$opt"
	check_eq "$opt: exit 0" 0 "$RC"
	check_eq "$opt: copied, not left" 0 "$(json_field unchanged err)"
done
# --reflink=always asks for a clone: where there is none (tmpfs, ext4), the
# copy fails as GNU cp's, twin or not; --reflink=never asks nothing more.
cp a clone-ours && cp a clone-gnu
"$GNU_CP" --reflink=always a clone-gnu 2>/dev/null
gnu_rc=$?
run_cmd out err "$SPCP" --reflink=always a clone-ours
check_eq "--reflink=always onto a twin: GNU cp's exit status" "$gnu_rc" "$RC"
cp a never && old_times never
run_cmd out err "$SPMOVE" --reflink=never --stats --json a never
check_eq "--reflink=never: found unchanged" 1 "$(json_field unchanged err)"

# A tree copied twice: the second run leaves every file (with workers, and
# the walker alone).
mkdir -p tree/sub
files tree/f 0 300 'file %s\n'
files tree/sub/g 0 300 'below %s\n'
"$GNU_CP" -r tree tree-gnu
for p in 1 3; do
	"$SPMOVE" -r tree "tree-$p"
	run_cmd out err "$SPMOVE" -rT --parallel=$p --stats --json tree "tree-$p"
	check_eq "tree twice, --parallel=$p: exit 0" 0 "$RC"
	check_eq "tree twice, --parallel=$p: every file found unchanged" 600 \
		"$(json_field unchanged err)"
	ok "tree twice, --parallel=$p: cp -r's tree" diff -r tree-gnu "tree-$p"
done
# cp -a twice, with two names of one file: the files left, the two names
# copied again the walker's way (and still one file).
ln tree/f0 tree/linked
"$GNU_CP" -a tree tree-gnu-a
"$SPMOVE" -a tree tree-a
run_cmd out err "$SPMOVE" -aT --stats --json tree tree-a
check_eq "-a twice: exit 0" 0 "$RC"
check_eq "-a twice: every file found unchanged but the two names of one" 599 \
	"$(json_field unchanged err)"
tree_look() { (cd "$1" && find . -printf '%p %y %m %u %s %T@\n' | LC_ALL=C sort); }
check_eq "-a twice: names, types, modes, owners, sizes and times as cp -a's" \
	"$(tree_look tree-gnu-a)" "$(tree_look tree-a)"
check_eq "-a twice: the two names still one file" "$(stat -c %i tree-a/f0)" \
	"$(stat -c %i tree-a/linked)"

# Where files of the same size mostly differ, the looks stop: 100 files
# that differ, then 40 that do not, in one run (the walker alone, in the
# order of the operands).  The first 16 are looked at; after that one in
# 32 while the misses are more than four times the files found.
mkdir -p chg/a chg/b into/a into/b
files chg/a/f 100 200 'new %s\n'
files into/a/f 100 200 'old %s\n'
files chg/b/f 100 140 'same %s\n'
files into/b/f 100 140 'same %s\n'
run_cmd out err "$SPMOVE" -r --parallel=1 --stats --json chg/a chg/b into
check_eq "100 changed, then 40 the same: exit 0" 0 "$RC"
ok "100 changed, then 40 the same: the copy is whole" diff -r chg into
found=$(json_field unchanged err)
ok "100 changed, then 40 the same: the looks stopped but for a sample ($found found)" \
	test "$found" -ge 1 -a "$found" -le 5

# A file that cannot be set by its user (another's, writable by all):
# copied, with cp's result.
if [ "$(id -u)" = 0 ] && nobody_runs "$SPMOVE"; then
	chmod a+x "$T_DIR" "$M"
	mkdir nb && cp a nb/theirs && chmod 0666 nb/theirs && chmod 0777 nb
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$SPMOVE" --stats --json a nb/theirs 2>nb.err
	check_eq "another user's twin: copied, not left" 0 "$(json_field unchanged nb.err)"
	same_files "another user's twin: the data" a nb/theirs
	check_eq "another user's twin: still root's, as cp leaves it" root \
		"$(stat -c %U nb/theirs)"
else
	echo "# not root, or nobody cannot run the build: another user's file not tested"
fi

cd "$T_DIR" || exit 99
cp "$M/a" a

# On a disk, a file is left as it is only when its pages are in memory
# (else it is copied, not read from the disk) and none of them waits to be
# written (else it is replaced, and made durable as any other): what
# cachestat(2) tells since Linux 6.5; before, such files are all copied.
# An ext4 on a loop device (ext4 has no clones).
cachestat=no
[ "$(printf '%s\n' 6.5 "$(uname -r | cut -d- -f1)" | sort -V | head -n1)" = 6.5 ] && cachestat=yes
if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null &&
	truncate -s 64M img && mkfs.ext4 -q -F img >/dev/null 2>&1 && mkdir mnt &&
	mount -o loop img mnt; then
	at_exit "umount '$T_DIR/mnt'"
	cp a mnt/cold && cp a mnt/warm && sync
	dd if=mnt/cold iflag=nocache count=0 status=none
	run_cmd out err "$SPMOVE" --stats --json a mnt/cold
	check_eq "pages not in memory: copied, not left" 0 "$(json_field unchanged err)"
	same_files "pages not in memory: the data" a mnt/cold
	cat mnt/warm >/dev/null
	run_cmd out err "$SPMOVE" --stats --json a mnt/warm
	if [ $cachestat = yes ]; then
		check_eq "pages in memory, written (ext4): found unchanged" 1 "$(json_field unchanged err)"
	else
		check_eq "pages in memory, written (ext4): copied (no cachestat)" 0 \
			"$(json_field unchanged err)"
	fi
	# A sync elsewhere on the machine (another test's) may write the
	# pages back before the copy looks: then that try says nothing, and
	# the copy is tried again (a build that left such a file would leave
	# it every time).
	tries=0
	while :; do
		cp a mnt/dirty
		ino=$(stat -c %i mnt/dirty)
		run_cmd out err "$SPMOVE" --stats --json a mnt/dirty
		[ "$(json_field unchanged err)" = 0 ] || [ $((tries += 1)) -ge 5 ] && break
	done
	check_eq "pages waiting to be written: replaced, not left" 0 "$(json_field unchanged err)"
	ok "pages waiting to be written: ... by a new file" test "$(stat -c %i mnt/dirty)" != "$ino"
	same_files "pages waiting to be written: the data" a mnt/dirty
else
	echo "# not root, or no loop device: files on a disk not tested"
fi

# On XFS and btrfs a clone's pages are not in memory, but its blocks are
# its source's: a file whose extents are the source's, at the same places,
# with nothing of either waiting to be written (cachestat(2), Linux 6.5),
# holds the same bytes.  A source changed since the clone -- still in
# memory, or written back -- is copied; so is a file that uses another
# part of one compressed extent (btrfs reports such extents at their
# start, whatever part a file uses).
fs_mount() { # FS DIR [OPTIONS]: a scratch FS from a loop device at DIR
	command -v "mkfs.$1" >/dev/null || return 1
	truncate -s 320M "$2.img" && "mkfs.$1" -q -f "$2.img" >/dev/null 2>&1 &&
		mkdir "$2" && mount -o "loop${3:+,$3}" "$2.img" "$2" || return 1
	at_exit "umount '$T_DIR/$2'"
}
for fs in xfs btrfs; do
	if [ "$(id -u)" != 0 ] || ! fs_mount "$fs" "$fs"; then
		echo "# not root, or no $fs: clones not tested there"
		continue
	fi
	make_random "$fs/a" 40000
	sync
	for f in twin dirty written; do cp --reflink=always "$fs/a" "$fs/$f" || break; done
	sync
	ino=$(stat -c %i "$fs/twin")
	dd if="$fs/twin" iflag=nocache count=0 status=none
	run_cmd out err "$SPMOVE" --stats --json "$fs/a" "$fs/twin"
	if [ $cachestat = yes ]; then
		check_eq "$fs: a clone, not in memory: found unchanged" 1 "$(json_field unchanged err)"
		check_eq "$fs: ... the same inode" "$ino" "$(stat -c %i "$fs/twin")"
	else
		echo "# $fs: no cachestat(2) before Linux 6.5: the clone is copied"
	fi
	same_files "$fs: a clone: the data" "$fs/a" "$fs/twin"
	# The source changed after the clones: its new byte still in memory.
	printf 'Z' | dd of="$fs/a" bs=1 seek=30000 conv=notrunc status=none
	cmp -s "$fs/a" "$fs/dirty" || dd if="$fs/dirty" iflag=nocache count=0 status=none
	run_cmd out err "$SPMOVE" --stats --json "$fs/a" "$fs/dirty"
	check_eq "$fs: the source changed since the clone, not written back: copied" 0 \
		"$(json_field unchanged err)"
	same_files "$fs: ... the data" "$fs/a" "$fs/dirty"
	sync
	dd if="$fs/written" iflag=nocache count=0 status=none
	run_cmd out err "$SPMOVE" --stats --json "$fs/a" "$fs/written"
	check_eq "$fs: the source changed since the clone, written back: copied" 0 \
		"$(json_field unchanged err)"
	same_files "$fs: ... the data" "$fs/a" "$fs/written"
	# Two clones of two other files of one size: shared blocks, not the same.
	make_random "$fs/x" 40000
	make_random "$fs/y" 40000
	cp --reflink=always "$fs/x" "$fs/x2" && cp --reflink=always "$fs/y" "$fs/y2"
	sync
	dd if="$fs/y2" iflag=nocache count=0 status=none
	run_cmd out err "$SPMOVE" --stats --json "$fs/x2" "$fs/y2"
	check_eq "$fs: a clone onto a clone of another file: copied" 0 "$(json_field unchanged err)"
	same_files "$fs: ... the data" "$fs/x" "$fs/y2"
done
if [ "$(id -u)" = 0 ] && command -v xfs_io >/dev/null &&
	fs_mount btrfs zbtrfs compress-force=zstd; then
	# One compressed extent of two halves; each file takes one of them.
	{ head -c 4096 /dev/zero | tr '\0' a; head -c 4096 /dev/zero | tr '\0' b; } >zbtrfs/halves
	sync
	touch zbtrfs/first zbtrfs/second
	xfs_io -c "reflink $T_DIR/zbtrfs/halves 0 0 4096" zbtrfs/first >/dev/null &&
		xfs_io -c "reflink $T_DIR/zbtrfs/halves 4096 0 4096" zbtrfs/second >/dev/null
	sync
	run_cmd out err "$SPMOVE" --stats --json zbtrfs/first zbtrfs/second
	check_eq "btrfs, compressed: another part of one extent: copied" 0 "$(json_field unchanged err)"
	same_files "btrfs, compressed: ... the data" zbtrfs/first zbtrfs/second
else
	echo "# not root, or no btrfs or xfs_io: compressed extents not tested"
fi

done_testing
