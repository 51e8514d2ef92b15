#!/bin/sh
# init.sh - /init of the stealfs test VM (busybox).  Mounts the kernel's
# filesystems, loads the modules listed in /lib/modules/order, runs the guest
# suite, dumps the kernel log between markers and powers off.  Everything
# goes to the serial console, where tests/vm/check-vm.sh reads it.
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
sh /guest-suite.sh
echo "STEALFS-DMESG-BEGIN"
dmesg
echo "STEALFS-DMESG-END"
echo "STEALFS-SUITE-END"
sync
poweroff -f
