#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# debug-kernel.sh - build, cache and boot the stealfs debug kernel.
#
# Builds Debian's linux-source-6.12 with tinyconfig plus
# contrib/stealfs/tests/debug-kernel.config (KASAN, DEBUG_VM, PROVE_LOCKING,
# DEBUG_PAGEALLOC, KMEMLEAK, ...) and caches the result in
#   ${SPLICE_UTILS_CACHE:-/var/cache/splice-utils}/debug-kernel/VERSION-KEY/
# where KEY hashes the config fragment and DK_SCRIPT_VERSION.  The cache
# directory holds bzImage, build/ (a kernel tree usable as KDIR for
# `make -C KDIR M=... modules`), config, build.log and, written last, stamp.
# Only a directory with a stamp counts; anything else is rebuilt.
#
# Usage:
#   debug-kernel.sh [--build]     build if needed, print the cache directory
#   debug-kernel.sh --print-dir   print the cache directory if built, else exit 1
#   debug-kernel.sh --boot-check [--module KO]... [--add DIR] [--run CMD]
#                   [--log FILE] [--timeout SECS]
#       build if needed, then boot the kernel under qemu (TCG, 1 GiB, 2 CPUs)
#       with a busybox-static initramfs: insmod each KO in order, copy DIR's
#       contents into the guest's /, run the shell command CMD there (it must
#       exit 0), rmmod the modules, scan twice with kmemleak and print the
#       leaks.  Fails on any kernel report in the console log (FILE, default
#       $TMPDIR/debug-kernel-boot.log) or if the guest did not finish.
#   debug-kernel.sh --check-log FILE
#       fail if the guest console log FILE holds a kernel report (BUG:,
#       WARNING:, Oops, KASAN, circular locking, unreferenced object, ...);
#       for harnesses that boot this kernel with their own qemu command.
#   debug-kernel.sh --self-test
#       build debug-kernel-selftest.c against the kernel and show that a
#       clean run passes and that each deliberate bug (a leak, a KASAN
#       use-after-free, a WARN, an AB-BA lock order, a DEBUG_VM page
#       refcount underflow) fails its run.  About 2 minutes.
#
# Environment: SPLICE_UTILS_CACHE (cache root), DK_JOBS (make -j, default 2),
# DK_KEEP_DAYS (other cached kernels unused this long are removed, default 14).
# Exit status: 0 success, 1 failure, 2 usage error.
set -eu

# Part of the cache key: bump it when a change here changes what is built.
DK_SCRIPT_VERSION=1
DK_SRC_PACKAGE=linux-source-6.12
DK_BUILD_DEPS="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils"
DK_JOBS=${DK_JOBS:-2}

me=debug-kernel.sh
here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/debug-kernel.config
cache_root=${SPLICE_UTILS_CACHE:-/var/cache/splice-utils}/debug-kernel

# say MSG... - progress on stderr (stdout carries only the results).
say() { printf '%s: %s\n' "$me" "$*" >&2; }
# die MSG... - report and exit 1.
die() { say "$@"; exit 1; }

# missing_packages PACKAGE... - prints those of the Debian packages that are
# not installed.
missing_packages() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			printf ' %s' "$p"
	done
}

# need_build_packages - exits, naming them, when packages of DK_BUILD_DEPS
# are missing.  contrib/deps.txt installs them (tests/repo/deps.sh checks
# the list against it); they are not installed here, so that a list missing
# one fails on a fresh machine instead of being mended by this script.
need_build_packages() {
	# shellcheck disable=SC2086 # a list of package names
	missing=$(missing_packages $DK_BUILD_DEPS)
	[ -z "$missing" ] ||
		die "building the kernel needs:$missing (listed in contrib/deps.txt; apt-get install them)"
}

# need_packages PACKAGE... - install those of the Debian packages that are
# missing; exits on failure.
need_packages() {
	missing=$(missing_packages "$@")
	[ -n "$missing" ] || return 0
	say "installing$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y $missing >&2 ||
		die "cannot install$missing"
}

# source_version - the installed linux-source-6.12 version (the package is
# installed when missing, so a fresh machine gets the archive's newest).
source_version() {
	need_packages "$DK_SRC_PACKAGE"
	[ -f /usr/src/$DK_SRC_PACKAGE.tar.xz ] ||
		die "/usr/src/$DK_SRC_PACKAGE.tar.xz is missing; reinstall $DK_SRC_PACKAGE"
	dpkg-query -W -f='${Version}\n' "$DK_SRC_PACKAGE"
}

# cache_dir VERSION - the cache directory for VERSION and this config.
cache_dir() {
	key=$( { cat "$fragment"; echo "script-version $DK_SCRIPT_VERSION"; } |
		sha256sum | cut -c1-16)
	printf '%s/%s-%s\n' "$cache_root" "$1" "$key"
}

# check_config CONFIG - fail if CONFIG lost any option the fragment sets.
# shellcheck disable=SC2013 # option names are single words
check_config() {
	bad=0
	for opt in $(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=y$/\1/p' "$fragment"); do
		grep -qx "$opt=y" "$1" || { say "config: $opt=y was dropped"; bad=1; }
	done
	for opt in $(sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$fragment"); do
		if grep -q "^$opt=" "$1"; then say "config: $opt came back on"; bad=1; fi
	done
	[ $bad = 0 ] || die "the kernel config system dropped requested options"
}

# build_kernel VERSION DIR - configure and compile into DIR (not yet stamped).
build_kernel() {
	need_build_packages
	rm -rf "$2"
	mkdir -p "$2"
	say "unpacking /usr/src/$DK_SRC_PACKAGE.tar.xz into $2/build"
	tar -C "$2" -xJf /usr/src/$DK_SRC_PACKAGE.tar.xz
	mv "$2/$DK_SRC_PACKAGE" "$2/build"
	kdir=$2/build
	{ make -C "$kdir" -s tinyconfig &&
	  "$kdir/scripts/kconfig/merge_config.sh" -m -O "$kdir" \
		"$kdir/.config" "$fragment" &&
	  make -C "$kdir" -s olddefconfig; } >"$2/config.log" 2>&1 ||
		die "configuring failed; see $2/config.log"
	check_config "$kdir/.config"
	cp "$kdir/.config" "$2/config"
	say "compiling $1 (nice -n 19, -j$DK_JOBS); log in $2/build.log"
	start=$(date +%s)
	if ! nice -n 19 make -C "$kdir" -j"$DK_JOBS" bzImage modules \
			>"$2/build.log" 2>&1; then
		tail -n 30 "$2/build.log" >&2
		die "kernel build failed; see $2/build.log"
	fi
	end=$(date +%s)
	cp "$kdir/arch/x86/boot/bzImage" "$2/bzImage"
	echo "$((end - start))" >"$2/build-seconds"
	say "compiled in $((end - start)) s"
}

# prune_cache KEEP - remove the other cached kernels not used (stamp
# touched) for DK_KEEP_DAYS days (default 14), and their half builds.
prune_cache() {
	for d in "$cache_root"/*/; do
		d=${d%/}
		[ "$d" != "$1" ] || continue
		if [ ! -f "$d/stamp" ] ||
		   [ -n "$(find "$d/stamp" -mtime +"${DK_KEEP_DAYS:-14}")" ]; then
			say "removing the stale $d"
			rm -rf "$d"
		fi
	done
}

# ensure_built - print the cache directory, building the kernel if the
# directory has no stamp.  Concurrent callers wait on a lock.
ensure_built() {
	version=$(source_version)
	dir=$(cache_dir "$version")
	if [ ! -f "$dir/stamp" ]; then
		mkdir -p "$cache_root"
		exec 9>"$cache_root/lock"
		flock 9
		if [ ! -f "$dir/stamp" ]; then
			build_kernel "$version" "$dir"
			printf 'version %s\nkey %s\nbuilt %s\n' "$version" \
				"${dir##*-}" "$(date -u +%FT%TZ)" >"$dir/stamp.tmp"
			mv "$dir/stamp.tmp" "$dir/stamp"
			prune_cache "$dir"
		fi
		exec 9>&-
	fi
	touch "$dir/stamp" 2>/dev/null || true
	printf '%s\n' "$dir"
}

# report_pattern - extended regex for the kernel reports that fail a run.
report_pattern='BUG:|BUG at|WARNING:|Oops|KASAN|circular locking|unreferenced object|page dumped because|Kernel panic|general protection fault|INFO: (possible|trying|task|rcu)'

# check_reports FILE - 0 if the guest console log FILE holds no kernel
# report; the offending lines go to stderr.
check_reports() {
	if grep -nE "$report_pattern" "$1" >&2; then
		say "$1: kernel reports above"
		return 1
	fi
}

# check_boot_log FILE - 0 if FILE (from boot_check) shows a clean and
# complete run: no report, a kmemleak scan, and "dk: done status 0".
check_boot_log() {
	rc=0
	check_reports "$1" || rc=1
	grep -q '^dk: kmemleak scanned' "$1" ||
		{ say "$1: no kmemleak scan"; rc=1; }
	if ! grep -q '^dk: done' "$1"; then
		say "$1: the guest did not finish"; rc=1
	elif ! grep -q '^dk: done status 0' "$1"; then
		say "$1: $(grep '^dk: done' "$1")"; rc=1
	fi
	return $rc
}

# write_init FILE - the guest's /init: mount, load /dk/modules/*.ko in
# order, run /dk/run, unload the modules, scan twice with kmemleak, print
# the leaks, then "dk: done status N" and reboot (qemu -no-reboot exits).
write_init() {
	cat >"$1" <<'INIT'
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
status=0
loaded=
for m in /dk/modules/*.ko; do
	[ -e "$m" ] || continue
	if insmod "$m"; then
		loaded="$(basename "$m" .ko | sed 's/^[0-9]*-//') $loaded"
	else
		echo "dk: insmod $m failed"; status=1
	fi
done
if [ -x /dk/run ]; then
	echo "dk: running the guest command"
	/dk/run; rc=$?
	echo "dk: guest command exit $rc"
	[ $rc = 0 ] || status=1
fi
for m in $loaded; do
	rmmod "$m" || { echo "dk: rmmod $m failed"; status=1; }
done
k=/sys/kernel/debug/kmemleak
if echo scan >$k && sleep 6 && echo scan >$k; then
	echo "dk: kmemleak scanned"
	cat $k
else
	echo "dk: kmemleak scan failed"; status=1
fi
echo "dk: done status $status"
reboot -f
INIT
	chmod 755 "$1"
}

# make_initramfs DIR OUT - an initramfs OUT with busybox, the /init from
# write_init, /dev/console and the tree staged in DIR.
make_initramfs() {
	list=$1.list
	cat >"$list" <<LIST
dir /bin 755 0 0
file /bin/busybox /bin/busybox 755 0 0
slink /bin/sh busybox 777 0 0
dir /dev 755 0 0
nod /dev/console 600 0 0 c 5 1
dir /proc 755 0 0
dir /sys 755 0 0
dir /tmp 1777 0 0
file /init $1.init 755 0 0
LIST
	write_init "$1.init"
	"$kdir/usr/gen_init_cpio" "$list" >"$2"
	(cd "$1" && find . -mindepth 1 | cpio --quiet -o -H newc -R 0:0) >>"$2"
}

# boot_check - boot the debug kernel with the options parsed into
# modules/add_dir/run_cmd/log/timeout; 0 if the run was clean.
boot_check() {
	dir=$(ensure_built)
	kdir=$dir/build
	need_packages qemu-system-x86 busybox-static cpio
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	stage=$work/root
	mkdir -p "$stage/dk/modules"
	if [ -n "$add_dir" ]; then
		cp -a "$add_dir/." "$stage/" || die "cannot copy $add_dir"
	fi
	n=0
	for ko in $modules; do
		n=$((n + 1))
		cp "$ko" "$stage/dk/modules/$n-$(basename "$ko")" || die "cannot copy $ko"
	done
	if [ -n "$run_cmd" ]; then
		printf '#!/bin/sh\n%s\n' "$run_cmd" >"$stage/dk/run"
		chmod 755 "$stage/dk/run"
	fi
	make_initramfs "$stage" "$work/initramfs.cpio"
	say "booting $dir/bzImage (log: $log)"
	start=$(date +%s)
	timeout "$timeout" qemu-system-x86_64 -accel tcg -nodefaults -display none \
		-serial stdio -no-reboot -m 1024 -smp 2 \
		-kernel "$dir/bzImage" -initrd "$work/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 kmemleak=on" \
		</dev/null >"$log" 2>&1 || say "qemu exited with status $?"
	say "guest ran $(( $(date +%s) - start )) s"
	check_boot_log "$log"
}

# self_test - boot the kernel once clean and once per deliberate bug of
# debug-kernel-selftest.c; 0 if the clean run passes and every bug fails its
# run with the report expected of its detector.
self_test() {
	dir=$(ensure_built)
	st=$(mktemp -d)
	cp "$here/debug-kernel-selftest.c" "$st/"
	echo 'obj-m := debug-kernel-selftest.o' >"$st/Kbuild"
	make -s -C "$dir/build" M="$st" modules >&2 ||
		die "cannot build the self-test module"
	mkdir "$st/root"
	cp "$st/debug-kernel-selftest.ko" "$st/root/"
	add_dir=$st/root
	bad=0
	while IFS=: read -r bug expect; do
		log=$st/$bug.log
		run_cmd="insmod /debug-kernel-selftest.ko bug=$bug && rmmod debug_kernel_selftest"
		if (boot_check) 2>"$st/$bug.err"; then
			[ -z "$expect" ] && result=ok || result="FAILED (passed)"
		elif [ -z "$expect" ]; then
			result="FAILED (failed)"
		elif grep -qE "$expect" "$log"; then
			result=ok
		else
			result="FAILED (no \"$expect\")"
		fi
		say "self-test bug=$bug: $result"
		[ "$result" = ok ] || { bad=1; cat "$st/$bug.err" >&2; }
	done <<CASES
none:
leak:unreferenced object
uaf:BUG: KASAN: slab-use-after-free
warn:WARNING: CPU
lockdep:possible circular locking dependency
vm:page dumped because|kernel BUG at
CASES
	if [ $bad = 0 ]; then rm -rf "$st"; else say "logs kept in $st"; fi
	return $bad
}

usage() {
	cat >&2 <<USAGE
usage: $me [--build]
       $me --print-dir
       $me --boot-check [--module KO]... [--add DIR] [--run CMD]
                        [--log FILE] [--timeout SECS]
       $me --check-log FILE
       $me --self-test
USAGE
	exit 2
}

mode=build
modules='' add_dir='' run_cmd='' log='' timeout=900
case ${1:-} in
--build|'') ;;
--print-dir) mode=print ;;
--boot-check) mode=boot ;;
--self-test) mode=self ;;
--check-log) [ $# = 2 ] || usage; mode=check; log=$2; shift ;;
*) usage ;;
esac
[ $# = 0 ] || shift
while [ $# -gt 0 ] && [ $mode = boot ]; do
	[ $# -ge 2 ] || usage
	case $1 in
	--module) [ -f "$2" ] || die "$2: no such module"
		case $2 in *' '*) die "$2: spaces in module paths are not supported" ;; esac
		modules="$modules $2" ;;
	--add) [ -d "$2" ] || die "$2: not a directory"; add_dir=$2 ;;
	--run) run_cmd=$2 ;;
	--log) log=$2 ;;
	--timeout) timeout=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[ $# = 0 ] || usage

case $mode in
build) ensure_built ;;
print)
	dir=$(cache_dir "$(dpkg-query -W -f='${Version}' "$DK_SRC_PACKAGE" 2>/dev/null)")
	[ -f "$dir/stamp" ] || exit 1
	printf '%s\n' "$dir"
	;;
boot)
	[ -n "$log" ] || log=${TMPDIR:-/tmp}/debug-kernel-boot.log
	boot_check
	;;
check) check_reports "$log" ;;
self) self_test ;;
esac
