#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kt-powercut.sh WORKDIR [FS...]: the power-cut rows of make kernel-truth
# on the running kernel (root): for each file system (default xfs ext4
# btrfs) on a loop device under WORKDIR, kt-powercut prepare; kt-powercut
# act and spmove over DIR/spmove, no fsync of the files; an fsync of the
# directory, as any other program may make; the power cut; a mount
# (journal recovery); kt-powercut check.  Each file system is cut once, at
# one point: what it shows is what can come back, never that nothing else
# can (spmove's every point: check-powercut.sh's replay).  The cut:
#   XFS and ext4: the shutdown ioctl with the journal written (xfs_io -x -c
#     'shutdown -f'): the file system stops where it is, its log forced,
#     data not yet written dropped;
#   btrfs: the file system is mounted through a dm-linear device, which is
#     suspended without a freeze (dmsetup suspend --nolockfs: writes under
#     way finish, later ones wait) while the device below is copied, so
#     the copy is the device at one instant; the copy is put back after the
#     unmount.  Not btrfs's shutdown ioctl: with the journal written
#     (LOGFLUSH) btrfs freezes first, which writes everything out, so it
#     would measure a sync.  Without device mapper (dmsetup, dm-mod) the
#     device is copied while mounted, which is not one instant: that cut
#     is named "copy of the live device (not atomic)" and its rows say
#     "cannot tell".
# Prints one "powercut FS {json}" record per file system, or a "note"
# saying why not.  kt-powercut and spmove come from PATH.  Runs on the host
# (util-linux, coreutils) and in make kernel-truth's guests (busybox).
set -u
work=$1; shift
[ $# -gt 0 ] || set -- xfs ext4 btrfs
bytes=1048576
mkdir -p "$work" || exit 1
head -c $bytes /dev/zero | tr '\0' B > "$work/new"
export DM_DISABLE_UDEV=1
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
	# btrfs through dm-linear, to be suspended at the cut (see above)
	mdev=$dev dm=
	if [ $fs = btrfs ] && command -v dmsetup >/dev/null &&
	   dmsetup create ktpc --table "0 $(( ${size%M} * 2048 )) linear $dev 0" >/dev/null 2>&1; then
		dm=ktpc mdev=/dev/mapper/ktpc
		[ -b $mdev ] || dmsetup mknodes ktpc >/dev/null 2>&1
	fi
	if ! mount "$mdev" "$mnt"; then
		echo "note powercut $fs: cannot mount"
		[ -n "$dm" ] && dmsetup remove $dm
		losetup -d "$dev"
		continue
	fi
	mkdir "$mnt/d"
	kt-powercut prepare "$mnt/d" $bytes && kt-powercut act "$mnt/d" &&
		spmove "$work/new" "$mnt/d/spmove" && sync "$mnt/d" || echo "note powercut $fs: a step failed"
	if [ $fs != btrfs ] && xfs_io -x -c 'shutdown -f' "$mnt" 2>/dev/null && ! touch "$mnt/.alive" 2>/dev/null; then
		cut="shutdown ioctl, journal written"
		umount "$mnt"
	else
		if [ -n "$dm" ] && dmsetup suspend --nolockfs $dm; then
			cut="dm device suspended without freeze, copied"
			dd if="$dev" of="$img.cut" bs=4M iflag=direct 2>/dev/null
			dmsetup resume $dm
		else
			cut="copy of the live device (not atomic)"
			dd if="$dev" of="$img.cut" bs=4M iflag=direct 2>/dev/null
		fi
		umount "$mnt"
		if [ -n "$dm" ]; then
			dmsetup remove $dm
			command -v btrfs >/dev/null && btrfs device scan --forget >/dev/null 2>&1
			mdev=$dev
		fi
		dd if="$img.cut" of="$dev" bs=4M oflag=direct 2>/dev/null
		rm -f "$img.cut"
	fi
	if mount "$mdev" "$mnt"; then
		printf 'powercut %s ' "$fs"
		kt-powercut check "$mnt/d" "$fs" "$cut" || echo
		umount "$mnt"
	else
		echo "note powercut $fs: cannot mount after the cut"
	fi
	losetup -d "$dev"
	rm -f "$img"
done
