# SPDX-License-Identifier: GPL-2.0-or-later
# The order of spmove's durability calls in a move across file systems,
# per file system (root; ext4, XFS and btrfs on loop devices, the source
# on tmpfs).  Each file of the moved tree is made unnamed (O_TMPFILE),
# fsynced, linked in, and its directory fsynced before any source entry
# goes.  On btrfs the file is fsynced once more after it is linked in:
# without that, the VM power-cut sweep (make check-powercut, case (c)) found
# the names over 0 bytes after the log replay at 6 points a kernel, the
# source already removed; with it, none (doc/durability.md).  On ext4 and
# XFS the sweep found no loss without that fsync, so spmove does not pay
# for it there.  Read from strace -y (each descriptor's path).
. "$top_srcdir/tests/lib.sh"
require_root
require_strace
command -v losetup >/dev/null || skip "losetup missing"

mkdir src
for i in 1 2 3 4 5; do make_random "src/f$i" 5000; done

# calls FS: strace's lines for the fsyncs and links of a move of src onto
# a fresh FS, in the order made (threads merged by strace's -f).
calls() {
	local fs=$1 dev
	mkdir -p "$fs/mnt" "$fs/from" || return 1
	truncate -s 512M "$fs/img" || return 1
	case $fs in
	ext4) mkfs.ext4 -q -F "$fs/img" ;;
	*) "mkfs.$fs" -q -f "$fs/img" ;;
	esac >/dev/null 2>&1 || return 1
	dev=$(losetup -f --show "$fs/img") || return 1
	at_exit "losetup -d $dev"
	mount "$dev" "$fs/mnt" || return 1
	at_exit "umount '$T_DIR/$fs/mnt'"
	mount -t tmpfs tmpfs "$fs/from" || return 1
	at_exit "umount '$T_DIR/$fs/from'"
	cp -r src "$fs/from/tree" || return 1
	# (LeakSanitizer cannot work under ptrace: off for the traced run.)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -y -o "$fs/trace" \
		-e trace=openat,fsync,fdatasync,linkat,renameat,renameat2,unlinkat \
		"$SPMOVE" --remove-source "$fs/from/tree" "$fs/mnt/tree" > "$fs/out" 2>&1 || return 2
	# fd paths: the tree's as seen from the mount
	sed "s#$T_DIR/$fs/mnt/##; s#$T_DIR/$fs/from/#from:#" "$fs/trace"
}

tested=0
for fs in ext4 xfs btrfs; do
	command -v "mkfs.$fs" >/dev/null || { echo "# $fs: mkfs.$fs missing, not tested"; continue; }
	grep -qw "$fs" /proc/filesystems || { echo "# $fs: not in this kernel, not tested"; continue; }
	mkdir "$fs"
	calls "$fs" > "$fs/calls"
	case $? in
	0) ;;
	2)	# the move itself failed: that is a failure, not a skip
		ok "$fs: spmove --remove-source succeeds under strace" false
		sed 's/^/# /' "$fs/out"
		continue ;;
	*)	echo "# $fs: no loop device or mount here, not tested"
		continue ;;
	esac
	tested=$((tested + 1))
	ok "$fs: the tree was moved whole" cmp -s <(cd src && cat f1 f2 f3 f4 f5) \
		<(cd "$fs/mnt/tree" && cat f1 f2 f3 f4 f5)
	ok "$fs: the source is gone" test ! -e "$fs/from/tree"
	first_removal=$(grep -n 'unlinkat(.*from:.*) = 0$' "$fs/calls" | head -n 1 | cut -d: -f1)
	for i in 1 2 3 4 5; do
		# The file's link into its directory (line, thread, descriptor:
		# strace -y names an O_TMPFILE descriptor "#INODE (deleted)" even
		# once linked, so the calls are placed by order), and on that
		# thread, the fsyncs of the descriptor since it was made, those
		# after the link, and the directory's fsync.
		link=$(grep -n "linkat([0-9]*<.*\"f$i\", AT_EMPTY_PATH) = 0$" "$fs/calls" | head -n 1)
		line=${link%%:*} tid=$(echo "${link#*:}" | cut -d' ' -f1)
		fd=$(echo "$link" | sed 's/.*linkat(\([0-9]*\)<.*/\1/')
		before=$(awk -v l="${line:-0}" -v t="$tid" -v c="fsync($fd<" \
			'NR < l && $1 == t { if (/O_TMPFILE/) n = 0; else if (index($0, c)) n++ } END { print n + 0 }' "$fs/calls")
		after=$(awk -v l="${line:-0}" -v t="$tid" -v c="fsync($fd<" \
			'NR > l && $1 == t { if (/O_TMPFILE/) exit; if (index($0, c)) n++ } END { print n + 0 }' "$fs/calls")
		dirsync=$(awk -v l="${line:-0}" -v t="$tid" \
			'NR > l && $1 == t && /fsync\([0-9]*<tree>\)/ { print NR; exit }' "$fs/calls")
		ok "$fs: f$i is linked in by its descriptor (O_TMPFILE)" test -n "$link" -a -n "$fd"
		ok "$fs: f$i is fsynced before it has a name" test "$before" -ge 1
		ok "$fs: its directory is fsynced after the link" test -n "$dirsync"
		ok "$fs: all before the source's first removal" \
			test -n "$first_removal" -a -n "$dirsync" -a "${dirsync:-0}" -lt "${first_removal:-0}"
		case $fs in
		btrfs) check_eq "$fs: f$i fsynced again once named" 1 "$after" ;;
		*) check_eq "$fs: f$i not fsynced again once named" 0 "$after" ;;
		esac
	done
done
[ "$tested" -gt 0 ] || skip "no file system could be tested"
done_testing
