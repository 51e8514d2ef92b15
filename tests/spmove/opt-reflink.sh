# SPDX-License-Identifier: GPL-2.0-or-later
# spmove --reflink[=auto|always|never], as GNU cp 9.11: where the file
# system cannot clone (tmpfs, ext4) always fails with GNU's message and
# leaves nothing behind; auto and never copy. Unlike cp 9.11, which has
# truncated an existing destination by then, spmove leaves it whole (issue
# 13: a copy leaves the old destination or the new one). As root, on btrfs
# (btrfs-progs), always and auto share the extents and never does not.
. "$top_srcdir/tests/spmove/opt-lib.sh"

# the checks on a file system that cannot clone, in the current directory.
cannot_clone() {
	make_random a 300000
	echo B >b
	for opt in --reflink=always --reflink --ref=al; do
		expect "$opt, cannot clone" 1 "" \
			"spmove: failed to clone 'c' from 'a': Operation not supported" $opt a c
		ok "$opt, cannot clone: nothing made" test ! -e c
		no_temp_left "$opt, cannot clone"
	done
	expect "--reflink=always onto a file, cannot clone" 1 "" \
		"spmove: failed to clone 'b' from 'a': Operation not supported" --reflink=always a b
	check_eq "--reflink=always onto a file, cannot clone: b whole" B "$(content b)"
	no_temp_left "--reflink=always onto a file"
	for opt in --reflink=auto --reflink=never; do
		expect "$opt, cannot clone" 0 "" "" $opt a "c$opt"
		same_files "$opt, cannot clone: the copy" a "c$opt"
	done
}

fs=$(stat -f -c %T "$T_DIR")
case $fs in
tmpfs | ext2/ext3)
	fresh here
	cannot_clone ;;
*) echo "# $T_DIR is on $fs, which may clone: only the tmpfs checks (root)" ;;
esac
if [ "$(id -u)" = 0 ]; then
	fresh tmpfs
	mkdir m
	if mount -t tmpfs -o size=8m tmpfs m; then
		at_exit "umount '$T_DIR/tmpfs/m'"
		cd m && cannot_clone
	else
		echo "# cannot mount a tmpfs: skipped"
	fi
fi

# Bad words and combinations.
fresh bad
echo A >a
usage_expect "--reflink=bogus" "invalid argument 'bogus' for '--reflink'
Valid arguments are:
  - 'auto'
  - 'always'
  - 'never'" --reflink=bogus a c
usage_expect "--reflink=a: ambiguous" "ambiguous argument 'a' for '--reflink'
Valid arguments are:
  - 'auto'
  - 'always'
  - 'never'" --reflink=a a c
for sparse in never always; do
	usage_expect "--reflink with --sparse=$sparse" \
		"--reflink can be used only with --sparse=auto" --reflink --sparse=$sparse a c
done
ok "bad words: nothing made" test ! -e c

# A file system that can clone (root, btrfs).
if [ "$(id -u)" != 0 ]; then
	echo "# not root: the btrfs checks skipped"
elif ! command -v mkfs.btrfs >/dev/null || ! command -v filefrag >/dev/null; then
	echo "# mkfs.btrfs (btrfs-progs) or filefrag missing: the btrfs checks skipped"
else
	fresh btrfs
	truncate -s 128M img && mkdir m
	if mkfs.btrfs -q img >/dev/null 2>&1 && mount -o loop img m; then
		at_exit "umount '$T_DIR/btrfs/m'"
		make_random m/a 1000000; make_random m/n0 100000
		sync m/a
		# shared FILE: filefrag says every extent of FILE is shared.
		shared() {
			filefrag -v "$1" | awk '/^ *[0-9]+:/ { n++; if ($0 !~ /shared/) bad++ }
				END { exit !(n > 0 && !bad) }'
		}
		for opt in --reflink=always --reflink --reflink=auto; do
			expect "btrfs $opt" 0 "" "" $opt m/a "m/c$opt"
			same_files "btrfs $opt: the copy" m/a "m/c$opt"
			sync "m/c$opt"
			ok "btrfs $opt: extents shared" shared "m/c$opt"
		done
		expect "btrfs --reflink=always onto a file" 0 "" "" --reflink=always m/n0 m/c--reflink=auto
		same_files "btrfs --reflink=always onto a file: the copy" m/n0 m/c--reflink=auto
		expect "btrfs --reflink=never" 0 "" "" --reflink=never m/a m/n
		same_files "btrfs --reflink=never: the copy" m/a m/n
		sync m/n
		ok "btrfs --reflink=never: extents not shared" test -n "$(filefrag -v m/n |
			awk '/^ *[0-9]+:/ && !/shared/')"
		no_temp_left "btrfs" m
	else
		echo "# cannot make or mount a btrfs: skipped"
	fi
fi

done_testing
