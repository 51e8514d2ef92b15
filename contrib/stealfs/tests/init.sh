#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# init.sh - /init of the stealfs test VM (busybox).  Mounts the kernel's
# filesystems, loads the modules listed in /lib/modules/order, runs the guest
# suite (or, in `make kernel-truth`'s VM, kt-run.sh), dumps the kernel log
# between markers and powers off.  Everything
# goes to the serial console, where contrib/stealfs/tests/check-vm.sh reads it.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs -o size=90% tmp /tmp
mkdir -p /mnt/s /mnt/off /mnt/e
echo "STEALFS-BOOT $(uname -r)"
for m in $(cat /lib/modules/order); do
	insmod "/lib/modules/$m" || echo "not ok - insmod $m"
done
if [ -f /kt-run.sh ]; then sh /kt-run.sh; else sh /guest-suite.sh; fi
# With kmemleak (the debug kernel, booted with kmemleak=on) scan for leaks;
# check-vm.sh fails on an "unreferenced object".  A no-op elsewhere.
if [ -d /sys/kernel/debug ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if [ -e /sys/kernel/debug/kmemleak ]; then
		echo scan > /sys/kernel/debug/kmemleak
		sleep 6
		echo scan > /sys/kernel/debug/kmemleak
		echo "STEALFS-KMEMLEAK-BEGIN"
		cat /sys/kernel/debug/kmemleak
		echo "STEALFS-KMEMLEAK-END"
	fi
fi
echo "STEALFS-DMESG-BEGIN"
dmesg
echo "STEALFS-DMESG-END"
echo "STEALFS-SUITE-END"
sync
poweroff -f
