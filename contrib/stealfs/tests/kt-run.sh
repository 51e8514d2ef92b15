#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kt-run.sh - the payload of /init in `make kernel-truth`'s VM (instead of
# guest-suite.sh): loads stealfs, mounts stealfs (steal=on and steal=off),
# ext4 on a loop device and a tmpfs, and runs kt-guest.sh, then (first
# boot) kt-powercut.sh.  Its records go
# to the second serial port (/dev/ttyS1, a file on the host) between the
# markers KT-RECORDS-BEGIN and KT-RECORDS-END, away from the kernel's
# messages on the console.  The kernel command line says kt_boot=N (1: every
# measurement, later boots: the bench only), kt_runs=N and kt_size=MIB,
# and kt_only=powercut for the power-cut rows alone.
arg() { sed -n "s/.*$1=\([0-9][0-9]*\).*/\1/p" /proc/cmdline; }
boot=$(arg kt_boot) runs=$(arg kt_runs) size=$(arg kt_size)
out=/dev/ttyS1
mkdir -p /mnt/s /mnt/off /mnt/e /tmp/kt
{
	echo KT-RECORDS-BEGIN
	echo "boot ${boot:-1}"
	if [ ! -f /lib/modules/stealfs.ko ]; then echo "note stealfs.ko was not built for this kernel"
	elif ! insmod /lib/modules/stealfs.ko; then echo "note insmod stealfs.ko failed"; fi
	dd if=/dev/zero of=/tmp/e.img bs=1M count=112 2>/dev/null
	losetup /dev/loop0 /tmp/e.img && mke2fs -q /dev/loop0 >/dev/null 2>&1 &&
		mount -t ext4 /dev/loop0 /mnt/e || echo "note no ext4 on a loop device"
	dirs="tmpfs=/tmp/kt"
	grep -q " /mnt/e " /proc/mounts && dirs="$dirs ext4=/mnt/e"
	mount -t stealfs none /mnt/s && mount -t stealfs -o steal=off none /mnt/off &&
		dirs="$dirs stealfs=/mnt/s stealfs-off=/mnt/off"
	[ "${boot:-1}" = 1 ] && stage=all || stage=bench
	# kt_only=powercut: the power-cut rows only
	grep -q 'kt_only=powercut' /proc/cmdline ||
		sh /kt-guest.sh $stage "${runs:-7}" "${size:-32}" $dirs
	# the power-cut rows (XFS, ext4, btrfs on loop devices), boot 1 only
	if [ "$stage" = all ] && [ -f /kt-powercut.sh ]; then
		if command -v kt-powercut >/dev/null && command -v xfs_io >/dev/null; then
			sh /kt-powercut.sh /tmp/kt-powercut
		else
			echo "note powercut: kt-powercut or xfs_io is not in the guest"
		fi
	fi
	echo KT-RECORDS-END
} > $out 2>&1
