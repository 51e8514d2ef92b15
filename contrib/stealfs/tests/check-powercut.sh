#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-powercut.sh - spmove across power cuts on Debian's kernels (6.1 and
# 6.12 by default), in qemu through check-vm.sh's machinery (vm-lib.sh:
# the same cache of packages): dm-log-writes records every write and flush
# of spmove's runs on ext4, XFS and btrfs; lwreplay, our own replayer,
# replays the log forward onto one image to every flush and FUA point and
# halfway between them; at each point the promise is checked on the file
# system mounted (journal recovery), or, when its bytes are those of a
# point already judged, by that verdict (powercut-guest.sh says which).
# Prints per kernel, file system and case the number of points checked,
# of violations and of mounts, and the time taken.
#
# Usage: check-powercut.sh SRCDIR BUILDDIR
# Exit: 0 no violation, 1 a violation or a failed run, 77 skipped (not root).
# Environment: VM_KERNELS (default "6.1 6.12"), PC_FS (default
# "ext4 xfs btrfs"), PC_CASES (default "a b c d e"; FS:CASE, e.g. ext4:c, runs
# that case on that file system only), PC_MAX_POINTS (at most so
# many replay points per case, evenly spread; default 0: every point),
# VM_CACHE, VM_TIMEOUT (default 3600), VM_MEM (default 2048M), VM_SMP.
set -u
srcdir=$(cd "${1:-$(dirname "$0")/../../..}" && pwd)
builddir=$(cd "${2:-$srcdir}" && pwd)
cache=${VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/splice-utils/vm}
kernels=${VM_KERNELS:-6.1 6.12}
fss=${PC_FS:-ext4 xfs btrfs}
timeout_s=${VM_TIMEOUT:-3600}
mem=${VM_MEM:-2048M}
smp=${VM_SMP:-2}
sections=
here=$srcdir/contrib/stealfs/tests
say() { printf 'check-powercut: %s\n' "$*"; }
skip() { say "SKIP: $*"; exit 77; }
. "$here/vm-lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root"
need_tools
for t in dmsetup mke2fs mkfs.xfs mkfs.btrfs btrfs; do
	command -v $t >/dev/null || skip "$t missing (packages dmsetup e2fsprogs xfsprogs btrfs-progs)"
done
mkdir -p "$cache" || exit 1
gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -o "$cache/lwreplay" "$here/lwreplay.c" || exit 1
[ -n "$(apt-cache pkgnames linux-image-6 | head -n 1)" ] || apt-get update -q >/dev/null
status=0
for series in $kernels; do
	abi=$(resolve_abi "$series")
	[ -n "$abi" ] || { say "$series: no linux-image with matching headers"; status=1; continue; }
	fetch_kernel "$abi" && ko=$(build_module "$abi") || { status=1; continue; }
	vm_init=$here/powercut-init.sh vm_payload=$here/powercut-guest.sh
	vm_modules="dm-mod dm-log-writes dm-snapshot xfs btrfs"
	vm_binaries="$cache/lwreplay=lwreplay $(command -v dmsetup)=dmsetup $(command -v mke2fs)=mkfs-ext4
		$(command -v mkfs.xfs)=mkfs.xfs $(command -v mkfs.btrfs)=mkfs.btrfs $(command -v btrfs)=btrfs"
	build_initramfs "$abi" "$ko" pc-initramfs || { say "$abi: initramfs failed"; status=1; continue; }
	unset vm_init vm_payload vm_modules vm_binaries
	log=$builddir/check-powercut-$series.log
	t0=$(date +%s)
	vm_append_extra=" pc_fs=$(echo $fss | tr ' ' ,) pc_max=${PC_MAX_POINTS:-0} pc_cases=$(echo ${PC_CASES:-a b c d e} | tr ' ' ,)" boot "$abi" "$log" pc-initramfs
	say "$series ($abi): $(( $(date +%s) - t0 ))s; console: $log"
	grep -q '^PC-END' "$log" || { say "$series: the guest did not finish"; status=1; }
	grep -E '^PC(-BAD|-TIME)? ' "$log" | sed "s/^/$series: /"
	grep -q '^PC-BAD' "$log" && status=1
	awk '$1 == "PC" && $5 != 0 { bad = 1 } END { exit bad }' "$log" || status=1
	sed -n '/PC-DMESG-BEGIN/,/PC-DMESG-END/p' "$log" | grep -E 'BUG:|WARNING:|Oops' &&
		{ say "$series: kernel warnings"; status=1; }
done
exit $status
