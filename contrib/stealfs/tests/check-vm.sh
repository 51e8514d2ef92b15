#!/bin/bash
# check-vm.sh - the stealfs VM tests: for each Debian kernel series (6.1 and
# 6.12 by default) fetch the newest linux-image package that has matching
# headers (apt-get download + dpkg-deb -x, nothing is installed), build
# stealfs.ko against the headers, build an initramfs (busybox-static, the
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
# Exit: 0 all passed, 1 failure, 77 skipped (not root, or no qemu).
# Environment:
#   VM_CACHE    cache of packages and builds, kept between runs
#               (default ${XDG_CACHE_HOME:-$HOME/.cache}/splice-utils/vm)
#   VM_KERNELS  kernel series to test (default "6.1 6.12"), or "debug"
#   VM_TIMEOUT  seconds allowed per boot (default 600; a run takes 2-4 min,
#               on a loaded host; 1200 for the debug kernel)
#   VM_MEM, VM_SMP  guest memory and CPUs (default 1024M, 2)
#   VM_TESTS    the guest suite's sections to run, comma-separated (default:
#               all; e.g. VM_TESTS=memcg_limit, the deadlock's reproducer);
#               passed as stealfs_tests= on the guest's kernel command line
set -u

srcdir=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
builddir=$(cd "${2:-$srcdir}" && pwd)
cache=${VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/splice-utils/vm}
kernels=${VM_KERNELS:-6.1 6.12}
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

# Installs the host tools the harness needs when they are missing.
need_tools() {
	local missing=
	for t in qemu-system-x86_64 cpio gzip xz dpkg-deb apt-get apt-cache gcc-12 make; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	[ -x /bin/busybox ] && dpkg -s busybox-static >/dev/null 2>&1 || missing="$missing busybox-static"
	[ -z "$missing" ] && return 0
	say "installing:$missing"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		qemu-system-x86 busybox-static cpio gzip xz-utils gcc-12 make >/dev/null ||
		skip "could not install the VM tools (qemu-system-x86 busybox-static cpio xz-utils gcc-12)"
}

# Prints the ABI name (e.g. 6.1.0-57, 6.12.117+deb12) of the newest
# linux-image-ABI-amd64 of series $1 whose headers are in the archive too.
resolve_abi() {
	local re abi
	re="^linux-image-$(printf '%s' "$1" | sed 's/\./\\./g')\\.[0-9]+(-[0-9]+|\\+deb[0-9]+)-amd64\$"
	apt-cache pkgnames linux-image- | grep -E "$re" | sed 's/^linux-image-//; s/-amd64$//' |
		sort -rV | while read -r abi; do
			if apt-cache show "linux-headers-$abi-amd64" >/dev/null 2>&1; then
				echo "$abi"
				break
			fi
		done
}

# Fetches and unpacks image and headers of ABI $1 into $cache/$1/root.
fetch_kernel() {
	local abi=$1 dir=$cache/$1 ver pkgs p
	[ -f "$dir/.unpacked" ] && return 0
	rm -rf "$dir" && mkdir -p "$dir/debs" "$dir/root" || return 1
	ver=$(apt-cache show --no-all-versions "linux-headers-$abi-amd64" | sed -n 's/^Version: //p')
	pkgs="linux-image-$abi-amd64 linux-headers-$abi-amd64=$ver"
	for p in $(apt-cache depends "linux-headers-$abi-amd64" |
		   sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p'); do
		pkgs="$pkgs $p=$ver"
	done
	say "$abi: downloading $pkgs"
	(cd "$dir/debs" && apt-get download -q $pkgs 2>&1 | grep -v 'unsandboxed' >&2) || true
	for p in "$dir"/debs/*.deb; do
		dpkg-deb -x "$p" "$dir/root" || return 1
	done
	# The headers' Makefile includes the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" \
		"$dir/root/usr/src/linux-headers-$abi-amd64/Makefile" || return 1
	rm -rf "$dir/debs"
	touch "$dir/.unpacked"
}

# Prints the sources stealfs.ko is built from, and the kernel tree $1.
module_sources() {
	echo "KDIR=$1"
	(cd "$srcdir/contrib/stealfs" && cat *.c *.h Kbuild)
}

# Builds stealfs.ko for ABI $1 (warnings are errors) against the kernel tree
# $2 (default: the unpacked headers of $1); prints its path.
build_module() {
	local abi=$1 out=$cache/$1/stealfs
	local kdir=${2:-$cache/$abi/root/usr/src/linux-headers-$abi-amd64}
	mkdir -p "$out"
	if ! module_sources "$kdir" | cmp -s - "$out/.sources"; then
		rm -rf "$out" && mkdir -p "$out"
		cp "$srcdir"/contrib/stealfs/{*.c,*.h,Kbuild} "$out/"
		module_sources "$kdir" > "$out/.sources"
		# Module BTF needs pahole and is of no use here.
		make -s -C "$kdir" M="$out" STEALFS_CFLAGS=-Werror \
			CONFIG_DEBUG_INFO_BTF_MODULES= modules > "$out/build.log" 2>&1
		local rc=$?
		if [ $rc != 0 ] || grep -qi 'warning' "$out/build.log"; then
			cat "$out/build.log" >&2
			rm -f "$out/.sources"
			return 1
		fi
	fi
	echo "$out/stealfs.ko"
}

# Prints the modules (names) that module $2 of the unpacked ABI $1 needs,
# dependencies first, each once, read from the modules' .modinfo.
module_closure() {
	local abi=$1 name=$2 f info dep
	case " $seen " in *" $name "*) return 0 ;; esac
	seen="$seen $name"
	f=$(find "$cache/$abi/root/lib/modules/$abi-amd64/kernel" \
		\( -name "$name.ko*" -o -name "$(echo "$name" | tr _ -).ko*" \) | head -n 1)
	[ -n "$f" ] || return 0	# built in
	case $f in *.xz) info=$(xz -dc "$f" | tr '\0' '\n') ;; *) info=$(tr '\0' '\n' < "$f") ;; esac
	for dep in $(printf '%s\n' "$info" | sed -n 's/^depends=//p' | tr , ' ') \
		   $(printf '%s\n' "$info" | sed -n 's/^softdep=pre: *//p'); do
		module_closure "$abi" "$dep"
	done
	echo "$f"
}

# Copies ELF $1 (and the shared libraries it needs) into the tree at $2 as
# /bin/$3.
add_binary() {
	local bin=$1 root=$2 name=$3 lib
	install -m 755 "$bin" "$root/bin/$name"
	LD_LIBRARY_PATH=$builddir/lib/.libs ldd "$bin" 2>/dev/null |
		sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' |
		while read -r lib; do
			case $lib in
			*/ld-linux*) mkdir -p "$root$(dirname "$lib")"
				     cp -L "$lib" "$root$lib" ;;
			*) cp -L "$lib" "$root/lib/x86_64-linux-gnu/" ;;
			esac
		done
}

# Puts the suite's binaries into the tree at $1: stealprobe (static), and
# spmove, acctpin, spcat from the build tree when they were built.
add_suite_binaries() {
	local root=$1 tool bin
	gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -pthread \
		-o "$cache/stealprobe" "$here/stealprobe.c" || return 1
	install -m 755 "$cache/stealprobe" "$root/bin/stealprobe"
	for tool in spmove acctpin spcat; do
		bin=
		if [ -x "$builddir/src/$tool/.libs/$tool" ]; then
			bin=$builddir/src/$tool/.libs/$tool
		elif [ -x "$builddir/src/$tool/$tool" ] && head -c 4 "$builddir/src/$tool/$tool" | grep -q ELF; then
			bin=$builddir/src/$tool/$tool
		fi
		[ -n "$bin" ] && add_binary "$bin" "$root" "$tool"
	done
	return 0
}

# Builds $cache/$1/initramfs.gz for ABI $1 with module $2.
build_initramfs() {
	local abi=$1 ko=$2 root=$cache/$1/initramfs m base seen=
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,mnt,lib/modules,lib/x86_64-linux-gnu}
	cp /bin/busybox "$root/bin/busybox"
	for m in $(/bin/busybox --list); do
		[ -e "$root/bin/$m" ] || ln -s busybox "$root/bin/$m"
	done
	: > "$root/lib/modules/order"
	# The debug kernel has loop and ext4 built in.
	[ "$abi" = debug ] ||
	for m in $(module_closure "$abi" loop; module_closure "$abi" ext4; module_closure "$abi" crc32c_generic); do
		base=$(basename "$m" .xz)
		case $m in *.xz) xz -dc "$m" > "$root/lib/modules/$base" ;; *) cp "$m" "$root/lib/modules/$base" ;; esac
		echo "$base" >> "$root/lib/modules/order"
	done
	cp "$ko" "$root/lib/modules/stealfs.ko"
	install -m 755 "$here/init.sh" "$root/init"
	install -m 644 "$here/guest-suite.sh" "$root/guest-suite.sh"
	add_suite_binaries "$root" || return 1
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$cache/$abi/initramfs.gz"
}

# Boots ABI $1 and writes the serial console to $2; returns qemu's status.
boot() {
	local abi=$1 log=$2 kernel=$cache/$1/root/boot/vmlinuz-$1-amd64 extra=
	if [ "$abi" = debug ]; then
		# one bench run per figure: under KASAN the figures mean nothing
		kernel=$dk/bzImage extra=" kmemleak=on stealfs_bench_runs=1"
	fi
	[ -n "$sections" ] && extra="$extra stealfs_tests=$sections"
	timeout -k 10 "$timeout_s" qemu-system-x86_64 \
		-nographic -no-reboot -accel tcg -cpu max -m "$mem" -smp "$smp" \
		-kernel "$kernel" \
		-initrd "$cache/$abi/initramfs.gz" \
		-append "console=ttyS0 loglevel=4 panic=-1 oops=panic mitigations=off$extra" \
		< /dev/null > "$log" 2>&1
}

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
[ -n "$(apt-cache pkgnames linux-image-6 | head -n 1)" ] || apt-get update -q >/dev/null

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
	fetch_kernel "$abi" || { say "$abi: fetching failed"; status=1; continue; }
	ko=$(build_module "$abi") || { say "$abi: building stealfs.ko failed"; status=1; continue; }
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
