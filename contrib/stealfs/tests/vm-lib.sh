#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-lib.sh - the VM machinery shared by check-vm.sh and `make kernel-truth`
# (contrib/kernel-truth/kernel-truth.sh), sourced by both: installing the
# host tools, fetching a Debian kernel (image and headers, cached), building
# stealfs.ko against it, building an initramfs and booting it under qemu.
# The sourcing script sets srcdir, builddir, cache, here (this directory),
# timeout_s, mem, smp, sections, dk (the debug kernel's directory) and
# say/skip.
# Installs the host tools the harness needs when they are missing.
need_tools() {
	local missing=
	for t in qemu-system-x86_64 cpio gzip xz zstd dpkg-deb apt-get apt-cache gcc-12 make; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	[ -x /bin/busybox ] && dpkg -s busybox-static >/dev/null 2>&1 || missing="$missing busybox-static"
	[ -z "$missing" ] && return 0
	say "installing:$missing"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		qemu-system-x86 busybox-static cpio gzip xz-utils zstd gcc-12 make >/dev/null ||
		skip "could not install the VM tools (qemu-system-x86 busybox-static cpio xz-utils gcc-12)"
}

# The kernels come from Debian's archive through a private apt state in
# $cache/apt (its own sources list, package lists and cache; the system's
# sources and installed packages are neither read nor changed): bullseye for
# 5.10, bookworm for 6.1 and 6.12, sid for the newest.  Lists older than a
# day are refreshed.
apt_suites="bullseye bullseye-security bookworm bookworm-updates bookworm-security sid"
# Series whose ABI is pinned (the one issue 27 names) rather than the newest
# one with headers; when the pinned ABI is gone the newest is taken, saying so.
abi_pins="5.10=5.10.0-32 7.2=7.2.13+deb14"

apt_private() {
	local tool=$1
	shift
	"$tool" -q -o Dir::Etc::sourcelist="$cache/apt/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::lists="$cache/apt/lists" -o Dir::State::status=/dev/null \
		-o Dir::Cache="$cache/apt/cache" -o APT::Get::List-Cleanup=0 "$@"
}

# Writes the private sources list and fetches the package lists when they are
# missing or older than a day; returns 1 when the archive cannot be read.
apt_private_update() {
	local s dir
	mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" || return 1
	for s in $apt_suites; do
		case $s in *-security) dir=debian-security ;; *) dir=debian ;; esac
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/$dir $s main"
	done > "$cache/apt/sources.list.new"
	if ! cmp -s "$cache/apt/sources.list.new" "$cache/apt/sources.list"; then
		mv "$cache/apt/sources.list.new" "$cache/apt/sources.list"
		rm -f "$cache/apt/.updated"
	fi
	rm -f "$cache/apt/sources.list.new"
	[ -n "$(find "$cache/apt/.updated" -mmin -1440 2>/dev/null)" ] && return 0
	say "reading the archive's package lists ($apt_suites)"
	apt_private apt-get update > "$cache/apt/update.log" 2>&1 ||
		{ say "apt-get update failed: $(grep -E '^(E|W):' "$cache/apt/update.log" | head -n 3)"; return 1; }
	touch "$cache/apt/.updated"
}

# Prints the ABI name (e.g. 5.10.0-32, 6.1.0-57, 6.12.117+deb12, 7.2.13+deb14)
# for series $1: the pinned one when the archive has its image and headers,
# else the newest linux-image-ABI-amd64 whose headers are in the archive too.
# A series given as a whole ABI (e.g. 5.10.0-46) stands for itself.
resolve_abi() {
	local re abi pin
	pin=$(printf '%s\n' $abi_pins | sed -n "s/^$(printf '%s' "$1" | sed 's/\./\\./g')=//p")
	case $1 in *-*|*+deb*) pin=$1 ;; esac
	if [ -n "$pin" ]; then
		if apt_private apt-cache show "linux-image-$pin-amd64" >/dev/null 2>&1 &&
		   apt_private apt-cache show "linux-headers-$pin-amd64" >/dev/null 2>&1; then
			echo "$pin"
			return
		fi
		say "$1: linux-image-$pin-amd64 or its headers are not in the archive; taking the newest $1" >&2
	fi
	re="^linux-image-$(printf '%s' "$1" | sed 's/\./\\./g')\\.[0-9]+(-[0-9]+|\\+deb[0-9]+)-amd64\$"
	apt_private apt-cache pkgnames linux-image- | grep -E "$re" | sed 's/^linux-image-//; s/-amd64$//' |
		sort -rV | while read -r abi; do
			if apt_private apt-cache show "linux-headers-$abi-amd64" >/dev/null 2>&1; then
				echo "$abi"
				break
			fi
		done
}

# Prints the unpacked kernel of ABI $1: /boot/vmlinuz-ABI-amd64 up to 6.x,
# /usr/lib/modules/ABI-amd64/vmlinuz (linux-binary-ABI-amd64) from 7.x.
kernel_image() {
	local f=$cache/$1/root/boot/vmlinuz-$1-amd64
	[ -f "$f" ] || f=$cache/$1/root/usr/lib/modules/$1-amd64/vmlinuz
	echo "$f"
}

# Prints the unpacked module tree of ABI $1 (/lib/modules/..., or
# /usr/lib/modules/... from 7.x).
module_tree() {
	local d=$cache/$1/root/lib/modules/$1-amd64
	[ -d "$d/kernel" ] || d=$cache/$1/root/usr/lib/modules/$1-amd64
	echo "$d"
}

# Fetches and unpacks image and headers of ABI $1 into $cache/$1/root.
# Returns 1, saying what is missing, when the archive did not deliver them.
fetch_kernel() {
	local abi=$1 dir=$cache/$1 ver pkgs p
	[ -f "$dir/.unpacked" ] && return 0
	rm -rf "$dir" && mkdir -p "$dir/debs" "$dir/root" || return 1
	ver=$(apt_private apt-cache show --no-all-versions "linux-headers-$abi-amd64" | sed -n 's/^Version: //p')
	pkgs="linux-image-$abi-amd64 linux-headers-$abi-amd64=$ver"
	for p in $(apt_private apt-cache depends "linux-headers-$abi-amd64" |
		   sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p'); do
		pkgs="$pkgs $p=$ver"
	done
	# From 7.x the image package is empty and depends on the kernel
	# (linux-binary-ABI), its modules (linux-modules-ABI) and the rest
	# (linux-base-ABI).
	for p in $(apt_private apt-cache depends "linux-image-$abi-amd64" |
		   sed -n "s/^ *Depends: \\(linux-\\(binary\\|modules\\|base\\)-$abi-amd64\\)\$/\\1/p"); do
		pkgs="$pkgs $p"
	done
	say "$abi: downloading $pkgs" >&2
	(cd "$dir/debs" && apt_private apt-get download $pkgs > "$dir/download.log" 2>&1) ||
		{ say "$abi: apt-get download failed: $(grep -E '^(E|W):' "$dir/download.log" | head -n 3)" >&2; return 1; }
	for p in "$dir"/debs/*.deb; do
		dpkg-deb -x "$p" "$dir/root" || return 1
	done
	[ -f "$(kernel_image "$abi")" ] ||
		{ say "$abi: no /boot/vmlinuz-$abi-amd64 nor /usr/lib/modules/$abi-amd64/vmlinuz in the downloaded packages" >&2; return 1; }
	# The headers' Makefile includes the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" \
		"$dir/root/usr/src/linux-headers-$abi-amd64/Makefile" || return 1
	rm -rf "$dir/debs"
	touch "$dir/.unpacked"
}

# Whether the kbuild programs of the unpacked headers tree $1 run on this
# machine (sid's linux-kbuild-7.2 needs glibc 2.38, Debian 12 has 2.36).
kbuild_runs() {
	local f
	for f in $(find -L "$1/scripts" "$1/tools" -type f -perm -u+x 2>/dev/null); do
		head -c 4 "$f" | grep -q ELF || continue
		if "$f" --version < /dev/null 2>&1 | grep -q "version .GLIBC_[0-9.]*' not found"; then
			say "$(basename "$1"): ${f#"$1"/} needs a newer C library than this machine's" >&2
			return 1
		fi
	done
	return 0
}

# Prints a kernel tree to build modules for ABI $1 against: the unpacked
# headers when their kbuild programs run here, else linux-source-SERIES
# from the archive, configured with the image's own config and prepared with
# `make modules_prepare` by this machine's compiler, with the headers'
# Module.symvers; cached in $kbuild_cache/ABI (first use: about 160 MB
# downloaded, 5 minutes on 2 CPUs).  Module signing on install is turned
# off (MODULE_SIG_ALL); the module is loaded unsigned, as stealfs always is.
kbuild_cache=${SPLICE_UTILS_CACHE:-/var/cache/splice-utils}/kbuild
# What `make modules_prepare` and a kernel build need on this machine
# (contrib/deps.txt installs them; tests/repo/deps.sh keeps the two lists
# in step).  Checked, never installed here: a list that misses one must
# fail on a fresh machine, not be mended by the harness.
kbuild_packages="build-essential bc bison flex libelf-dev libssl-dev"

# Returns 1, naming them, when packages of kbuild_packages are missing.
need_kbuild_packages() {
	local p missing=
	for p in $kbuild_packages; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "building a kernel tree needs:$missing (listed in contrib/deps.txt; apt-get install them)" >&2
	return 1
}

kernel_tree() {
	local abi=$1 hdr=$cache/$1/root/usr/src/linux-headers-$1-amd64
	local dir=$kbuild_cache/$1 series ver src config
	if kbuild_runs "$hdr"; then
		echo "$hdr"
		return 0
	fi
	series=$(printf '%s' "$abi" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	src=$dir/linux-source-$series
	if [ ! -f "$dir/.prepared" ]; then
		need_kbuild_packages || return 1
		rm -rf "$dir" && mkdir -p "$dir/debs" || return 1
		ver=$(apt_private apt-cache show --no-all-versions "linux-headers-$abi-amd64" | sed -n 's/^Version: //p')
		say "$abi: preparing a kernel tree from linux-source-$series $ver in $dir" >&2
		(cd "$dir/debs" && apt_private apt-get download "linux-source-$series=$ver" > "$dir/download.log" 2>&1) ||
			{ say "$abi: cannot download linux-source-$series=$ver: $(grep -E '^(E|W):' "$dir/download.log" | head -n 2)" >&2; return 1; }
		dpkg-deb --fsys-tarfile "$dir"/debs/linux-source-*.deb |
			tar -xO --wildcards '*/linux-source-*.tar.xz' | xz -dc | tar -x -C "$dir" || return 1
		rm -rf "$dir/debs"
		config=$(module_tree "$abi")/config
		[ -f "$config" ] || config=$cache/$abi/root/boot/config-$abi-amd64
		cp "$config" "$src/.config" || return 1
		"$src/scripts/config" --file "$src/.config" -d MODULE_SIG_ALL || return 1
		nice make -s -C "$src" KERNELRELEASE="$abi-amd64" olddefconfig > "$dir/prepare.log" 2>&1 &&
		nice make -s -C "$src" -j"$(nproc)" KERNELRELEASE="$abi-amd64" modules_prepare >> "$dir/prepare.log" 2>&1 ||
			{ say "$abi: make modules_prepare failed; log: $dir/prepare.log" >&2; tail -n 5 "$dir/prepare.log" >&2; return 1; }
		cp "$hdr/Module.symvers" "$src/" || return 1
		touch "$dir/.prepared"
	fi
	echo "$src"
}

# Prints the sources stealfs.ko is built from, and the kernel tree $1.
module_sources() {
	echo "KDIR=$1"
	(cd "$srcdir" && cat contrib/stealfs/*.c contrib/stealfs/*.h contrib/stealfs/Kbuild include/stealfs-abi.h)
}

# Builds stealfs.ko for ABI $1 (warnings are errors) against the kernel tree
# $2 (default: kernel_tree's for $1); prints its path.
build_module() {
	local abi=$1 out=$cache/$1/stealfs kdir=${2:-}
	[ -n "$kdir" ] || kdir=$(kernel_tree "$abi") || return 1
	mkdir -p "$out"
	if ! module_sources "$kdir" | cmp -s - "$out/.sources"; then
		rm -rf "$out" && mkdir -p "$out"
		cp "$srcdir"/contrib/stealfs/{*.c,*.h,Kbuild} "$out/"
		mkdir "$out/include" && cp "$srcdir/include/stealfs-abi.h" "$out/include/"
		module_sources "$kdir" > "$out/.sources"
		# The compiler Debian built the kernel with (gcc-10 for 5.10) may
		# not be installed here: then this machine's gcc.
		local cc
		cc=$(sed -n 's/^CC = .*\(gcc-[0-9][0-9]*\)$/\1/p' "$kdir/.kernelvariables" 2>/dev/null)
		if [ -n "$cc" ] && ! command -v "$cc" > /dev/null; then
			cc=gcc
		else
			cc=
		fi
		# Module BTF needs pahole and is of no use here.
		make -s -C "$kdir" M="$out" STEALFS_CFLAGS=-Werror ${cc:+CC=$cc} \
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

# Writes module file $1 (plain, .xz or .zst as Debian ships them) to stdout.
unpack_module() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac
}

# Prints the modules (names) that module $2 of the unpacked ABI $1 needs,
# dependencies first, each once, read from the modules' .modinfo.
module_closure() {
	local abi=$1 name=$2 f info dep
	case " $seen " in *" $name "*) return 0 ;; esac
	seen="$seen $name"
	f=$(find "$(module_tree "$abi")/kernel" \
		\( -name "$name.ko*" -o -name "$(echo "$name" | tr _ -).ko*" \) | head -n 1)
	[ -n "$f" ] || return 0	# built in
	info=$(unpack_module "$f" | tr '\0' '\n')
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
	# The libraries the tools load on first use (src/common/lazylib.h),
	# which ldd does not list: json-c for --json, libacl, ...
	sed -n 's/^#define [A-Z]*_SONAME "\(.*\)"$/\1/p' "$builddir/config.h" 2>/dev/null |
		while read -r lib; do
			lib=$(ldconfig -p | awk -v so="$lib" '$1 == so && /x86-64/ { print $NF; exit }')
			[ -z "$lib" ] || cp -L "$lib" "$root/lib/x86_64-linux-gnu/"
		done
}

# Puts the suite's binaries into the tree at $1: stealprobe (static), and
# spmove, acctpin, spcat and kernel-truth's kt-bench from the build tree
# when they were built.
add_suite_binaries() {
	local root=$1 tool bin
	gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -pthread \
		-o "$cache/stealprobe" "$here/stealprobe.c" || return 1
	install -m 755 "$cache/stealprobe" "$root/bin/stealprobe"
	if [ -x "$builddir/contrib/kernel-truth/kt-bench" ]; then
		add_binary "$builddir/contrib/kernel-truth/kt-bench" "$root" kt-bench
	fi
	for tool in spmove acctpin spcat; do
		bin=
		if [ -x "$builddir/src/$tool/$tool" ] && head -c 4 "$builddir/src/$tool/$tool" | grep -q ELF; then
			bin=$builddir/src/$tool/$tool
		elif [ -x "$builddir/src/$tool/.libs/$tool" ]; then
			bin=$builddir/src/$tool/.libs/$tool
		fi
		[ -n "$bin" ] && add_binary "$bin" "$root" "$tool"
	done
	return 0
}

# Builds $cache/$1/$3.gz (default initramfs.gz) for ABI $1 with module $2
# (none when empty);
# /init is $vm_init (default init.sh), and the files $vm_payload (default
# guest-suite.sh) go to / beside it; $vm_modules names more modules of the
# image to load (with what they need), $vm_binaries more programs, as
# HOSTPATH=NAME (installed as /bin/NAME with their libraries).
build_initramfs() {
	local abi=$1 ko=$2 name=${3:-initramfs} root=$cache/$1/${3:-initramfs} m base seen= f
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,mnt,lib/modules,lib/x86_64-linux-gnu}
	cp /bin/busybox "$root/bin/busybox"
	for m in $(/bin/busybox --list); do
		[ -e "$root/bin/$m" ] || ln -s busybox "$root/bin/$m"
	done
	: > "$root/lib/modules/order"
	# The debug kernel has loop and ext4 built in.
	[ "$abi" = debug ] ||
	for m in $(module_closure "$abi" loop; module_closure "$abi" ext4; module_closure "$abi" crc32c_generic
		   for m in ${vm_modules:-}; do module_closure "$abi" "$m"; done); do
		base=$(basename "$m"); base=${base%.xz}; base=${base%.zst}
		unpack_module "$m" > "$root/lib/modules/$base"
		echo "$base" >> "$root/lib/modules/order"
	done
	[ -z "$ko" ] || cp "$ko" "$root/lib/modules/stealfs.ko"
	install -m 755 "${vm_init:-$here/init.sh}" "$root/init"
	for f in ${vm_payload:-$here/guest-suite.sh}; do
		install -m 644 "$f" "$root/$(basename "$f")"
	done
	add_suite_binaries "$root" || return 1
	for f in ${vm_binaries:-}; do
		add_binary "${f%%=*}" "$root" "${f#*=}"
	done
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$cache/$abi/$name.gz"
}

# Boots ABI $1 with $cache/$1/$3.gz (default initramfs.gz) and writes the
# serial console to $2; returns qemu's status.  $vm_qemu_extra (qemu's
# options) and $vm_append_extra (the kernel's) are added when set.
#
# A kernel that dies before /init runs (no STEALFS-BOOT line, which every
# /init prints first) had run nothing of ours: no module loaded, no test
# started.  Under TCG this happens now and then -- 7.2.13 once took a fault
# on a two-byte NOP in sched_clock_cpu at 1.06 s, in an interrupt, while its
# own code was being patched.  Such a boot is tried again, up to three times
# in all, and said on stderr with the panic line; its console is kept as
# $2.early.N.  A death after /init is judged by the caller as before.
boot() {
	local try rc
	for try in 1 2 3; do
		boot_once "$@"
		rc=$?
		grep -q 'STEALFS-BOOT' "$2" && return $rc
		cp "$2" "$2.early.$try"
		[ "$try" = 3 ] && break
		printf '%s: %s: the kernel died before /init ran (%s); booting again (console kept: %s)\n' \
			"${0##*/}" "$1" \
			"$(tr -d '\r' < "$2" | grep -m1 -E 'Kernel panic|BUG:|Oops' || echo "qemu status $rc, no panic line")" \
			"$2.early.$try" >&2
	done
	return $rc
}

boot_once() {
	local abi=$1 log=$2 kernel extra=${vm_append_extra:-}
	kernel=$(kernel_image "$abi")
	if [ "$abi" = debug ]; then
		# one bench run per figure: under KASAN the figures mean nothing
		kernel=$dk/bzImage extra="$extra kmemleak=on stealfs_bench_runs=1"
	fi
	[ -n "$sections" ] && extra="$extra stealfs_tests=$sections"
	timeout -k 10 "$timeout_s" qemu-system-x86_64 \
		-nographic -no-reboot -accel tcg -cpu max -m "$mem" -smp "$smp" \
		-kernel "$kernel" \
		-initrd "$cache/$abi/${3:-initramfs}.gz" ${vm_qemu_extra:-} \
		-append "console=ttyS0 loglevel=4 panic=-1 oops=panic mitigations=off$extra" \
		< /dev/null > "$log" 2>&1
}

