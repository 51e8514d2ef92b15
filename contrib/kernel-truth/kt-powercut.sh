#!/bin/sh
# kt-powercut.sh WORKDIR [FS...]: the power-cut rows of make kernel-truth
# on the running kernel (root): for each file system (default xfs ext4
# btrfs) on a loop device under WORKDIR, kt-powercut prepare; kt-powercut
# act and spmove over DIR/spmove, no fsync of the files; an fsync of the
# directory, as any other program may make; the power cut; a mount
# (journal recovery); kt-powercut check.  The cut: the shutdown ioctl
# with the journal written (xfs_io -x -c 'shutdown -f'), where the file
# system has it; else (btrfs without CONFIG_BTRFS_EXPERIMENTAL) a copy of
# the device as written so far, put back after the unmount.  Prints one
# "powercut FS {json}" record per file system, or a "note" saying why not.
# kt-powercut and spmove come from PATH.  Runs on the host (util-linux,
# coreutils) and in make kernel-truth's guests (busybox).
set -u
work=$1; shift
[ $# -gt 0 ] || set -- xfs ext4 btrfs
bytes=1048576
mkdir -p "$work" || exit 1
head -c $bytes /dev/zero | tr '\0' B > "$work/new"
for fs in "$@"; do
	img=$work/$fs.img mnt=$work/$fs
	mkdir -p "$mnt"
	# btrfs's image is copied whole (below) in the guests: half the size
	case $fs in btrfs) size=256M ;; *) size=512M ;; esac
	rm -f "$img" && truncate -s $size "$img"
	case $fs in
	xfs) mkfs.xfs -q -f "$img" ;;
	ext4) mkfs.ext4 -q -F "$img" ;;
	btrfs) mkfs.btrfs -q -f "$img" ;;
	esac >/dev/null 2>&1 || { echo "note powercut $fs: mkfs.$fs failed or is missing"; continue; }
	# losetup -f then the device: busybox's losetup has no --show
	dev=$(losetup -f) && losetup "$dev" "$img" || { echo "note powercut $fs: no loop device"; continue; }
	if ! mount "$dev" "$mnt"; then
		echo "note powercut $fs: cannot mount"
		losetup -d "$dev"
		continue
	fi
	mkdir "$mnt/d"
	kt-powercut prepare "$mnt/d" $bytes && kt-powercut act "$mnt/d" &&
		spmove "$work/new" "$mnt/d/spmove" && sync "$mnt/d" || echo "note powercut $fs: a step failed"
	if xfs_io -x -c 'shutdown -f' "$mnt" 2>/dev/null && ! touch "$mnt/.alive" 2>/dev/null; then
		cut="shutdown ioctl, journal written"
		umount "$mnt"
	else
		cut="copy of the device as written"
		dd if="$dev" of="$img.cut" bs=4M iflag=direct 2>/dev/null
		umount "$mnt"
		dd if="$img.cut" of="$dev" bs=4M oflag=direct 2>/dev/null
		rm -f "$img.cut"
	fi
	if mount "$dev" "$mnt"; then
		printf 'powercut %s ' "$fs"
		kt-powercut check "$mnt/d" "$fs" "$cut" || echo
		umount "$mnt"
	else
		echo "note powercut $fs: cannot mount after the cut"
	fi
	losetup -d "$dev"
	rm -f "$img"
done
