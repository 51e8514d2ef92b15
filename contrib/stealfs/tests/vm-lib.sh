#!/bin/bash
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
		if [ -x "$builddir/src/$tool/.libs/$tool" ]; then
			bin=$builddir/src/$tool/.libs/$tool
		elif [ -x "$builddir/src/$tool/$tool" ] && head -c 4 "$builddir/src/$tool/$tool" | grep -q ELF; then
			bin=$builddir/src/$tool/$tool
		fi
		[ -n "$bin" ] && add_binary "$bin" "$root" "$tool"
	done
	return 0
}

# Builds $cache/$1/$3.gz (default initramfs.gz) for ABI $1 with module $2;
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
		base=$(basename "$m" .xz)
		case $m in *.xz) xz -dc "$m" > "$root/lib/modules/$base" ;; *) cp "$m" "$root/lib/modules/$base" ;; esac
		echo "$base" >> "$root/lib/modules/order"
	done
	cp "$ko" "$root/lib/modules/stealfs.ko"
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
boot() {
	local abi=$1 log=$2 kernel=$cache/$1/root/boot/vmlinuz-$1-amd64 extra=${vm_append_extra:-}
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

