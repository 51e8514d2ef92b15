#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel-truth.sh - what `make kernel-truth` runs: the same measurements
# (contrib/stealfs/tests/kt-guest.sh: spmove --probe --json on tmpfs, ext4
# and stealfs, stealfs's counters around it, acctpin run --json, and the
# timed moves of kt-bench) on the host kernel and in qemu on Debian's
# kernels (5.10, 6.1, 6.12, 7.2), through check-vm.sh's machinery
# (contrib/stealfs/tests/vm-lib.sh: the same cache of packages and module
# builds).  Where stealfs.ko does not build (5.10: compat.h refuses it) the
# kernel is measured without it and its stealfs rows say "cannot tell".  Then kt-report.py turns
# the records into kernel-truth.json (verdicts with the raw measurements
# behind them), kernel-truth.md (one row per kernel) and kernel-truth.png
# (throughput with spread), in BUILDDIR.
#
# Each VM kernel boots KT_BOOTS times: the first boot measures everything,
# every boot runs the bench (KT_RUNS runs of each side, alternating, caches
# dropped between runs).  The host runs everything once.
#
# Usage: kernel-truth.sh SRCDIR BUILDDIR
# Exit: 0 when every kernel was measured, 1 otherwise (the outputs are still
# written from what was measured), 77 when not root (nothing measured).
# Environment:
#   KT_KERNELS  "host" and kernel series (default "host 5.10 6.1 6.12 7.2"; "debug":
#               the debug kernel of check-vm-debug, optional and slow)
#   KT_BOOTS    boots per VM kernel (default 2)
#   KT_RUNS     runs per side of each comparison (default 7)
#   KT_SIZE_MIB bytes per timed move, in MiB (default 32)
#   KT_ONLY     "powercut": the power-cut rows only (kt-powercut.sh), the
#               other rows then say "cannot tell" (default: everything)
#   VM_CACHE, VM_TIMEOUT, VM_MEM, VM_SMP  as for check-vm.sh
set -u

srcdir=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
builddir=$(cd "${2:-$srcdir}" && pwd)
cache=${VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/splice-utils/vm}
kernels=${KT_KERNELS:-host 5.10 6.1 6.12 7.2}
boots=${KT_BOOTS:-2}
runs=${KT_RUNS:-7}
size=${KT_SIZE_MIB:-32}
only=${KT_ONLY:-}
timeout_s=${VM_TIMEOUT:-600}
mem=${VM_MEM:-1024M}
smp=${VM_SMP:-2}
sections=
here=$srcdir/contrib/stealfs/tests
work=$builddir/kernel-truth.d
start_all=$(date +%s)

say() { printf 'kernel-truth: %s\n' "$*"; }
skip() { say "SKIP: $*"; exit 77; }
. "$here/vm-lib.sh"

# The host: a tmpfs and an ext4 file system on a loop device of our own,
# stealfs when it is loaded; the power-cut rows on XFS, ext4 and btrfs
# loop devices (kt-powercut.sh).  Writes $work/host.1.rec.
measure_host() {
	local mnt=$work/host-mnt img dirs loop=
	mkdir -p "$mnt/tmpfs" "$mnt/ext4"
	mount -t tmpfs -o size=$((4 * size + 64))m none "$mnt/tmpfs" || return 1
	dirs="tmpfs=$mnt/tmpfs"
	img=$mnt/tmpfs/ext4.img
	if truncate -s 112M "$img" && mkfs.ext4 -q "$img" && loop=$(losetup -f --show "$img") &&
	   mount -t ext4 "$loop" "$mnt/ext4"; then
		dirs="$dirs ext4=$mnt/ext4"
	fi
	{
		echo "boot 1"
		[ -d /sys/fs/stealfs/stats ] || echo "note stealfs: the module is not loaded on the host"
		[ "$only" = powercut ] ||
		PATH=$builddir/contrib/kernel-truth:$builddir/src/spmove:$builddir/src/acctpin:$PATH \
			sh "$here/kt-guest.sh" all "$runs" "$size" $dirs
		PATH=$builddir/contrib/kernel-truth:$builddir/src/spmove:$PATH \
			sh "$srcdir/contrib/kernel-truth/kt-powercut.sh" "$mnt/powercut"
	} > "$work/host.1.rec" 2>&1
	mountpoint -q "$mnt/ext4" && umount "$mnt/ext4"
	[ -n "$loop" ] && losetup -d "$loop"
	umount "$mnt/tmpfs"
}

# Kernel series $1 (or "debug") in qemu: module, initramfs, KT_BOOTS boots.
# Writes $work/$1.N.rec for boot N.
measure_vm() {
	local series=$1 abi ko b
	if [ "$series" = debug ]; then
		abi=debug timeout_s=${VM_TIMEOUT:-1200}
		dk=$(sh "$here/debug-kernel.sh") && [ -f "$dk/bzImage" ] || return 1
		mkdir -p "$cache/debug"
		ko=$(build_module debug "$dk/build") || return 1
	else
		abi=$(resolve_abi "$series")
		[ -n "$abi" ] || { say "$series: no linux-image with matching headers"; return 1; }
		fetch_kernel "$abi" || { say "$series: $abi could not be fetched"; return 1; }
		# Most questions need no module: without it, stealfs's rows say
		# "cannot tell" and the rest is measured.
		ko=$(build_module "$abi" 2> "$work/$series.module.log") || {
			say "$series: stealfs.ko does not build for $abi ($(grep -m 1 -E 'error|\*\*\*' "$work/$series.module.log" | sed 's/^[^ ]*: *//' | cut -c 1-200)); measuring without it"
			ko=
		}
		grep '^kernel-truth:' "$work/$series.module.log"
	fi
	# With the power-cut rows' tools: kt-powercut.sh, XFS and btrfs, and
	# device mapper for btrfs's cut (dmsetup suspend; without it btrfs's
	# rows say "cannot tell").
	vm_init=$here/init.sh vm_payload="$here/kt-run.sh $here/kt-guest.sh $srcdir/contrib/kernel-truth/kt-powercut.sh"
	vm_modules="xfs btrfs dm-mod"
	vm_binaries="$builddir/contrib/kernel-truth/kt-powercut=kt-powercut $(command -v xfs_io)=xfs_io
		$(command -v mke2fs)=mkfs.ext4 $(command -v mkfs.xfs)=mkfs.xfs $(command -v mkfs.btrfs)=mkfs.btrfs"
	command -v dmsetup >/dev/null && vm_binaries="$vm_binaries $(command -v dmsetup)=dmsetup"
	build_initramfs "$abi" "$ko" kt-initramfs || return 1
	unset vm_init vm_payload vm_modules vm_binaries
	for b in $(seq 1 "$boots"); do
		local t0=$(date +%s) rec=$work/$series.$b.rec
		rm -f "$rec"
		vm_append_extra=" kt_boot=$b kt_runs=$runs kt_size=$size${only:+ kt_only=$only}"
		vm_qemu_extra="-serial mon:stdio -serial file:$rec"
		boot "$abi" "$work/$series.$b.console" kt-initramfs
		unset vm_append_extra vm_qemu_extra
		say "$series ($abi): boot $b took $(( $(date +%s) - t0 ))s"
		grep -q KT-RECORDS-END "$rec" 2>/dev/null ||
			{ say "$series: boot $b ended early; console: $work/$series.$b.console"; return 1; }
	done
}

[ "$(id -u)" = 0 ] || skip "needs root (frame numbers, mounts, apt-get, accounting)"
rm -rf "$work" && mkdir -p "$work" || exit 1
status=0
for k in $kernels; do
	t0=$(date +%s)
	if [ "$k" = host ]; then
		measure_host || { say "host: measuring failed"; status=1; }
	else
		if [ -z "${tools_ok:-}" ]; then
			need_tools
			mkdir -p "$cache" || exit 1
			apt_private_update || { say "cannot read Debian's archive"; exit 1; }
			tools_ok=1
		fi
		measure_vm "$k" || { say "$k: measuring failed"; status=1; }
	fi
	say "$k: $(( $(date +%s) - t0 ))s"
done
recs=$(ls "$work"/*.rec 2>/dev/null)
[ -n "$recs" ] || { say "nothing was measured"; exit 1; }
python3 "$srcdir/contrib/kernel-truth/kt-report.py" assemble "$builddir/kernel-truth.json" $recs &&
python3 "$srcdir/contrib/kernel-truth/kt-report.py" markdown "$builddir/kernel-truth.json" \
	> "$builddir/kernel-truth.md" &&
python3 "$srcdir/contrib/kernel-truth/kt-report.py" plot "$builddir/kernel-truth.json" \
	"$builddir/kernel-truth.png" || status=1
say "wrote $builddir/kernel-truth.json, kernel-truth.md, kernel-truth.png;" \
    "total $(( $(date +%s) - start_all ))s"
exit $status
