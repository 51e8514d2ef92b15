#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# powercut-init.sh - /init of the power-cut VM (check-powercut.sh): mounts,
# loads the modules of /lib/modules/order, runs powercut-guest.sh on the
# file systems of pc_fs= (kernel command line), dumps the kernel log and
# powers off.  Everything goes to the serial console.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs -o size=90% tmp /tmp
echo "STEALFS-BOOT $(uname -r)"  # vm-lib.sh boot(): /init ran
for m in $(cat /lib/modules/order); do
	insmod "/lib/modules/$m" 2>/dev/null || echo "note - insmod $m"
done
fs=$(sed -n 's/.*pc_fs=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
sh /powercut-guest.sh $fs
echo "PC-DMESG-BEGIN"
dmesg
echo "PC-DMESG-END"
sync
poweroff -f
