#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-vm.sh - the stealfs VM tests: for each Debian kernel series (6.1,
# 6.12 and 7.2 by default; 5.10 on demand) fetch the linux-image package
# that has matching headers (vm-lib.sh: a private apt state with bullseye,
# bookworm and sid; apt-get download + dpkg-deb -x, nothing is installed),
# build stealfs.ko against the headers (or, where the headers' kbuild
# programs do not run here, against linux-source prepared with the image's
# config), build an initramfs (busybox-static, the
# suite's binaries and their libraries, stealfs.ko, loop/ext4 from the image),
# boot it with qemu-system-x86_64 (software emulation), run the guest suite
# and read the results from the serial console.  Fails on a failed test or on
# BUG:/WARNING:/Oops/... in the guest's kernel log.
#
# The kernel name "debug" (VM_KERNELS=debug, what `make check-vm-debug` runs)
# stands for the 6.12 debug kernel of contrib/stealfs/tests/debug-kernel.sh (KASAN,
# DEBUG_VM, PROVE_LOCKING, DEBUG_PAGEALLOC, KMEMLEAK; built and cached on
# first use): stealfs.ko is built against its build/ tree, loop and ext4 are
# built in, the guest boots with kmemleak=on and /init scans for leaks before
# powering off; any report of debug-kernel.sh --check-log fails the run too.
#
# Usage: check-vm.sh SRCDIR BUILDDIR       (what `make check-vm` runs)
#        check-vm.sh --prepare SRCDIR BUILDDIR
#               only fetch each kernel and prepare the tree stealfs.ko is
#               built against (no module, no boot): CI's first stage after
#               installing contrib/deps.txt, so that a kernel build
#               dependency missing from that list fails there
# Exit: 0 all passed, 1 failure, 77 skipped (not root, or no qemu).
# Environment:
#   VM_CACHE    cache of packages and builds, kept between runs
#               (default ${XDG_CACHE_HOME:-$HOME/.cache}/splice-utils/vm)
#   VM_KERNELS  kernel series to test (default "6.1 6.12 7.2"; also 5.10,
#               which stealfs refuses: reported, not a failure), or "debug"
#   VM_TIMEOUT  seconds allowed per boot (default 600; a run takes 2-4 min,
#               on a loaded host; 1200 for the debug kernel)
#   VM_MEM, VM_SMP  guest memory and CPUs (default 1024M, 2)
#   VM_TESTS    the guest suite's sections to run, comma-separated (default:
#               all; e.g. VM_TESTS=memcg_limit, the deadlock's reproducer);
#               passed as stealfs_tests= on the guest's kernel command line
set -u

prepare_only=
[ "${1:-}" = --prepare ] && { prepare_only=yes; shift; }
srcdir=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
builddir=$(cd "${2:-$srcdir}" && pwd)
cache=${VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/splice-utils/vm}
kernels=${VM_KERNELS:-6.1 6.12 7.2}
timeout_s=${VM_TIMEOUT:-600}
timeout_debug=${VM_TIMEOUT:-1200}
mem=${VM_MEM:-1024M}
smp=${VM_SMP:-2}
sections=${VM_TESTS:-}
here=$srcdir/contrib/stealfs/tests
start_all=$(date +%s)

say() { printf 'check-vm: %s\n' "$*"; }
die() { say "error: $*" >&2; exit 1; }
skip() { say "SKIP: $*"; exit 77; }

. "$here/vm-lib.sh"

# Prints the console log $1 without the stack dumps of the OOM reports the
# guest suite provoked on purpose: between the kernel log lines
# "stealfs-suite: expect-oom begin" and "... end", a report runs from
# "invoked oom-killer" to its memory summary.  Anything else stays.
without_expected_oom() {
	awk '/stealfs-suite: expect-oom begin/ { expect = 1 }
	     /stealfs-suite: expect-oom end/ { expect = 0 }
	     expect && /invoked oom-killer/ { report = 1 }
	     report && /Mem-Info:|memory: usage|oom-kill:/ { report = 0 }
	     !report { print }' "$1"
}

# Checks the log $2 of ABI $1, whose boot ended with status $4 (124: the
# timeout killed it); prints the summary line and the bench rows.  Returns 0
# when the suite ran to its end, passed, and the kernel log is clean.
judge() {
	local abi=$1 log=$2 secs=$3 qemu_rc=$4 summary bad rc=0 line
	tr -d '\r' < "$log" > "$log.txt"
	grep -E '^not ok|^Bail out' "$log.txt" | sed "s/^/check-vm: $abi: /"
	summary=$(grep '^STEALFS-SUMMARY' "$log.txt" | tail -n 1)
	bad=$(without_expected_oom "$log.txt" |
		grep -E 'BUG:|WARNING:|Oops|general protection|KASAN|Kernel panic|Call Trace|INFO: task .*blocked|blocked for more than|unreferenced object')
	# The debug kernel's own judge knows its detectors' reports (lockdep,
	# DEBUG_VM page dumps, kmemleak, ...).
	if [ "$abi" = debug ] && ! sh "$here/debug-kernel.sh" --check-log "$log.txt" > /dev/null 2>&1; then
		bad=$(printf '%s\n%s' "$bad" "$(sh "$here/debug-kernel.sh" --check-log "$log.txt" 2>&1)" | sed '/^$/d')
	fi
	if [ "$abi" = debug ] && ! grep -q '^STEALFS-KMEMLEAK-END' "$log.txt"; then
		say "$abi: no kmemleak scan in the log"
		rc=1
	fi
	if [ -n "$bad" ]; then
		say "$abi: kernel log shows trouble:"
		printf '%s\n' "$bad" | head -n 20 | sed 's/^/    /'
		rc=1
	fi
	if [ "$qemu_rc" = 124 ]; then
		say "$abi: the guest timed out after ${timeout_s}s and was killed; log: $log.txt"
		tail -n 30 "$log.txt" | sed 's/^/    /'
		return 1
	fi
	if ! grep -q '^STEALFS-SUITE-END' "$log.txt" || [ -z "$summary" ]; then
		say "$abi: the suite did not finish (crash); log: $log.txt"
		tail -n 30 "$log.txt" | sed 's/^/    /'
		return 1
	fi
	eval "$(printf '%s\n' "$summary" | sed 's/^STEALFS-SUMMARY //; s/kernel=[^ ]* //')"
	[ "$failed" = 0 ] || rc=1
	say "$abi: $([ $rc = 0 ] && echo PASS || echo FAIL) $passed/$tests tests," \
	    "pages stolen $stolen (anon $stolen_anon, page cache $stolen_pagecache)," \
	    "copied $copied, mover $mover, kernel log $([ -z "$bad" ] && echo clean || echo NOT clean), ${secs}s"
	grep '^BENCH ' "$log.txt" | while read -r _ kind bytes on off st; do
		printf 'check-vm: %s: bench %-4s %3d MiB  steal=on %7.1f MiB/s  steal=off %7.1f MiB/s  ratio %.2f  (%d pages stolen)\n' \
			"$abi" "$kind" $((bytes >> 20)) \
			"$(echo "$bytes $on" | awk '{print $1/1048576/($2/1e9)}')" \
			"$(echo "$bytes $off" | awk '{print $1/1048576/($2/1e9)}')" \
			"$(echo "$on $off" | awk '{print $2/$1}')" "$st"
	done
	return $rc
}

[ "$(id -u)" = 0 ] || skip "needs root (apt-get, and the package cache)"
need_tools
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is missing"
mkdir -p "$cache" || die "cannot create $cache"
apt_private_update || die "cannot read Debian's archive"

status=0
for series in $kernels; do
	t0=$(date +%s)
	if [ "$series" = debug ]; then
		abi=debug timeout_s=$timeout_debug
		dk=$(sh "$here/debug-kernel.sh") && [ -f "$dk/bzImage" ] ||
			{ say "debug: building the debug kernel failed"; status=1; continue; }
		mkdir -p "$cache/debug"
		ko=$(build_module debug "$dk/build") || { say "debug: building stealfs.ko failed"; status=1; continue; }
		build_initramfs debug "$ko" || { say "debug: building the initramfs failed"; status=1; continue; }
		t1=$(date +%s)
		say "debug: $dk prepared in $((t1 - t0))s; booting"
		log=$cache/debug/console.log
		boot debug "$log"
		qemu_rc=$?
		judge debug "$log" $(( $(date +%s) - t1 )) $qemu_rc || status=1
		continue
	fi
	abi=$(resolve_abi "$series")
	if [ -z "$abi" ]; then
		say "$series: no linux-image with matching headers in the archive"
		status=1
		continue
	fi
	fetch_kernel "$abi" || { say "$series: $abi could not be fetched"; status=1; continue; }
	if [ -n "$prepare_only" ]; then
		kdir=$(kernel_tree "$abi") || { say "$abi: no kernel tree to build against"; status=1; continue; }
		say "$abi: fetched; modules build against $kdir ($(( $(date +%s) - t0 ))s)"
		continue
	fi
	ko=$(build_module "$abi" 2> "$cache/$abi/module.log")
	if [ $? != 0 ]; then
		# compat.h's own refusal of a kernel older than stealfs supports
		why=$(grep -o 'error "stealfs needs Linux[^"]*"' "$cache/$abi/module.log" | head -n 1)
		if [ -n "$why" ]; then
			say "$abi: NOT TESTED: compat.h refuses this kernel: ${why#error }"
			continue
		fi
		cat "$cache/$abi/module.log" >&2
		say "$abi: building stealfs.ko failed"
		status=1
		continue
	fi
	grep '^check-vm:' "$cache/$abi/module.log"
	# XFS, for the guest suite's large-folio case (its folios are large on
	# every kernel tested), when this machine has mkfs.xfs to put there.
	vm_modules= vm_binaries=
	if command -v mkfs.xfs > /dev/null; then
		vm_modules=xfs vm_binaries="$(command -v mkfs.xfs)=mkfs.xfs"
	fi
	build_initramfs "$abi" "$ko" || { say "$abi: building the initramfs failed"; status=1; continue; }
	t1=$(date +%s)
	say "$abi: prepared in $((t1 - t0))s; booting"
	log=$cache/$abi/console.log
	boot "$abi" "$log"
	qemu_rc=$?
	judge "$abi" "$log" $(( $(date +%s) - t1 )) $qemu_rc || status=1
done
say "total $(( $(date +%s) - start_all ))s"
exit $status
