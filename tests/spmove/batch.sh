# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -r over an existing tree on XFS and btrfs (root, loop devices):
# the replaced files wait for one durability barrier (src/spmove/batch.c).
# Read from strace: no replaced name is renamed over before a syncfs(2)
# that began after its temporary was made; no fdatasync(2) per file.
# Then the barrier's failure (EIO: every file of the batch keeps its old
# data, each named), a failed rename (that file old, the others new), a
# signal at the barrier (nothing renamed after it, no temporary left), a
# machine with much dirty data of others (one fdatasync(2) per file
# instead), hard links kept by -a (each link to the new file), and a
# source on the same file system (clones: no barrier on XFS; one on
# btrfs, and for a copy made without a clone).
. "$top_srcdir/tests/lib.sh"
require_root
require_strace
command -v losetup >/dev/null || skip "losetup missing"

# The tree: six files at the top, three in sub/, and under -a two links
# of one file.  old/ is what the destination holds first.
mkdir -p new/sub old/sub
for f in f1 f2 f3 f4 f5 f6 sub/g1 sub/g2 sub/g3 h1; do
	make_random "new/$f" 6000
	make_random "old/$f" 3000
done
ln new/h1 new/h2
cp old/h1 old/h2
files="f1 f2 f3 f4 f5 f6 sub/g1 sub/g2 sub/g3 h1 h2"

temps_in() { find "$1" -name '.spmove-*' | wc -l; }

# state DIR: for each file, "old", "new" or "mixed"; one line.
state() {
	local f s=
	for f in $files; do
		if cmp -s "new/$f" "$1/$f"; then s="$s new"
		elif cmp -s "old/$f" "$1/$f"; then s="$s old"
		else s="$s mixed:$f"; fi
	done
	echo "${s# }"
}
all() { local f s=; for f in $files; do s="$s $1"; done; echo "${s# }"; }

# barrier_first TRACE: the temporaries renamed over a name with no
# completed syncfs(2) between their creation and their rename (strace -f
# lines, in the order logged; a call split across threads is complete at
# its "resumed" line).  Prints their names; nothing when all waited.
barrier_first() {
	awk '
		/openat\(.*"\.spmove-[0-9a-f]*", O_RDWR\|O_CREAT\|O_EXCL/ {
			match($0, /"\.spmove-[0-9a-f]*"/); made[substr($0, RSTART, RLENGTH)] = NR }
		/syncfs.*\) *= 0$/ { synced = NR }
		/renameat2?\(.*"\.spmove-[0-9a-f]*"/ {
			match($0, /"\.spmove-[0-9a-f]*"/); t = substr($0, RSTART, RLENGTH)
			if (!(t in made) || synced < made[t]) print t }' "$1"
}

tested=0
for fs in xfs btrfs; do
	command -v "mkfs.$fs" >/dev/null || { echo "# $fs: mkfs.$fs missing, not tested"; continue; }
	grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null ||
		{ echo "# $fs: not in this kernel, not tested"; continue; }
	mkdir -p "$fs/mnt"
	truncate -s 1G "$fs/img" && "mkfs.$fs" -q -f "$fs/img" >/dev/null 2>&1 &&
		dev=$(losetup -f --show "$fs/img") ||
		{ echo "# $fs: no loop device here, not tested"; continue; }
	at_exit "losetup -d $dev"
	mount "$dev" "$fs/mnt" || { echo "# $fs: cannot mount, not tested"; continue; }
	at_exit "umount '$T_DIR/$fs/mnt'"
	tested=$((tested + 1))
	d=$fs/mnt/tree
	reset() { rm -rf "$d" && cp -a old "$d" && sync; }

	# (1) The barrier, and its order.
	reset
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o "$fs/trace" -e trace=openat,syncfs,fsync,fdatasync,renameat,renameat2 \
		"$SPMOVE" -a -rT --stats new "$d" >"$fs/out" 2>"$fs/err"
	check_eq "$fs: exit 0" 0 "$?"
	check_eq "$fs: every file new" "$(all new)" "$(state "$d")"
	check_eq "$fs: no temporary left" 0 "$(temps_in "$d")"
	check_eq "$fs: no rename before the barrier" "" "$(barrier_first "$fs/trace")"
	check_eq "$fs: no fdatasync per file" 0 "$(grep -c 'fdatasync(' "$fs/trace")"
	ok "$fs: syncfs made" grep -q 'syncfs(' "$fs/trace"
	ok "$fs: --stats counts the replaced files made durable together" \
		grep -q ", 10 replaced files made durable by [1-9][0-9]* syncfs" "$fs/err"
	ok "$fs: -a: h1 and h2 are one file" test "$d/h1" -ef "$d/h2"
	if command -v jq >/dev/null; then
		reset
		"$SPMOVE" -rT --stats --json new "$d" 2>"$fs/json" >/dev/null
		check_eq "$fs: --json: batched_files" 11 "$(jq -r .batched_files "$fs/json")"
		ok "$fs: --json: batch_barriers" test "$(jq -r .batch_barriers "$fs/json")" -ge 1
	fi
	grep -v '^spmove: [0-9]* bytes' "$fs/err" | sed 's/^/# /'

	# (1b) The same with copy workers, each with a descriptor table of its
	# own (src/spmove/fdtable.c): the batch renames the files they made
	# through the walker's descriptors of their directories.
	reset
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o "$fs/trace-w" -e trace=openat,syncfs,renameat,renameat2 \
		"$SPMOVE" -a -rT --parallel=3 new "$d" >"$fs/out" 2>"$fs/err"
	check_eq "$fs: workers: exit 0" 0 "$?"
	check_eq "$fs: workers: no message" "" "$(cat "$fs/err")"
	check_eq "$fs: workers: every file new" "$(all new)" "$(state "$d")"
	check_eq "$fs: workers: no temporary left" 0 "$(temps_in "$d")"
	check_eq "$fs: workers: no rename before the barrier" "" "$(barrier_first "$fs/trace-w")"

	# (2) The barrier fails: every file of the batch keeps its old data
	# and is named; the later batches go on.
	reset
	run_cmd out err inject "syncfs:error=EIO:when=1" "$SPMOVE" -rT new "$d"
	check_eq "$fs: syncfs fails: exit 1" 1 "$RC"
	named=$(sed -n "s|^spmove: cannot sync '$d/\(.*\)': Input/output error$|\1|p" err)
	ok "$fs: syncfs fails: files named" test -n "$named"
	bad=
	for f in $files; do
		want=new
		echo "$named" | grep -qx "$f" && want=old
		cmp -s "$want/$f" "$d/$f" || bad="$bad $f"
	done
	check_eq "$fs: syncfs fails: those named old, the others new" "" "$bad"
	check_eq "$fs: syncfs fails: messages only for them" "$(echo "$named" | wc -l)" "$(wc -l <err)"
	check_eq "$fs: syncfs fails: no temporary left" 0 "$(temps_in "$d")"

	# (3) One rename fails: that file is named and old, the rest new.
	reset
	rename=$(grep -o 'renameat2\?(' "$fs/trace" | head -n 1)
	run_cmd out err inject "${rename%(}:error=EACCES:when=2" "$SPMOVE" -rT new "$d"
	check_eq "$fs: a rename fails: exit 1" 1 "$RC"
	named=$(sed -n "s|^spmove: cannot create regular file '$d/\(.*\)': Permission denied$|\1|p" err)
	check_eq "$fs: a rename fails: one file named" 1 "$(echo "$named" | grep -c .)"
	check_eq "$fs: a rename fails: it is old" 0 "$(cmp -s "old/$named" "$d/$named"; echo $?)"
	check_eq "$fs: a rename fails: no temporary left" 0 "$(temps_in "$d")"
	check_eq "$fs: a rename fails: every file old or new" "" \
		"$(state "$d" | tr ' ' '\n' | grep mixed)"

	# (4) A signal at the barrier: nothing is renamed after it, nothing
	# is left behind.
	reset
	run_cmd out err inject "syncfs:signal=INT:when=1" "$SPMOVE" -rT new "$d"
	ok "$fs: interrupted: exit not 0" test "$RC" != 0
	check_eq "$fs: interrupted: every file old" "$(all old)" "$(state "$d")"
	check_eq "$fs: interrupted: no temporary left" 0 "$(temps_in "$d")"

	# (5) Much dirty data of others on the machine: a syncfs would write
	# it all, so each file is flushed alone.
	reset
	dd if=/dev/zero of="$fs/mnt/ballast" bs=1M count=400 status=none
	dirty=$(awk '/^(Dirty|Writeback):/ { n += $2 } END { print n }' /proc/meminfo)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o "$fs/trace2" -e trace=syncfs,fdatasync \
		"$SPMOVE" -rT new "$d" >/dev/null 2>&1
	check_eq "$fs: dirty machine: exit 0" 0 "$?"
	if [ "$dirty" -gt $((128 * 1024)) ]; then
		check_eq "$fs: dirty machine: no syncfs" 0 "$(grep -c 'syncfs(' "$fs/trace2")"
		check_eq "$fs: dirty machine: one fdatasync per replaced file" 11 \
			"$(grep -c 'fdatasync(.*= 0' "$fs/trace2")"
	else
		echo "# $fs: only $dirty KiB dirty after writing 400 MiB: not checked"
	fi
	check_eq "$fs: dirty machine: every file new" "$(all new)" "$(state "$d")"
	rm -f "$fs/mnt/ballast"

	# (6) The source on the same file system, just written: each copy is
	# a clone.  On XFS a clone needs no barrier (durable.c), on btrfs it
	# still does; copied instead (--reflink=never), it does on both.
	rm -rf "$fs/mnt/new" && cp -a new "$fs/mnt/new"
	for how in clone copy; do
		reset
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			"$STRACE" -qq -f -z -o "$fs/trace3" \
			-e trace=openat,ioctl,syncfs,fdatasync,sync_file_range,renameat,renameat2 \
			"$SPMOVE" -a -rT $([ $how = copy ] && echo --reflink=never) \
			"$fs/mnt/new" "$d" >/dev/null 2>"$fs/err"
		check_eq "$fs: same file system, $how: exit 0" 0 "$?"
		check_eq "$fs: same file system, $how: every file new" "$(all new)" "$(state "$d")"
		check_eq "$fs: same file system, $how: no temporary left" 0 "$(temps_in "$d")"
		check_eq "$fs: same file system, $how: no fdatasync per file" 0 \
			"$(grep -c 'fdatasync(' "$fs/trace3")"
		clones=$(grep -c 'FICLONE' "$fs/trace3") # -z: the calls that succeeded
		if [ $how = clone ]; then
			check_eq "$fs: same file system: each file cloned" 10 "$clones"
		else
			check_eq "$fs: same file system, --reflink=never: none cloned" 0 "$clones"
		fi
		if [ $fs = xfs ] && [ $how = clone ]; then
			check_eq "$fs: clones: no barrier" 0 "$(grep -c 'syncfs(' "$fs/trace3")"
			check_eq "$fs: clones: no writeback started" 0 \
				"$(grep -c 'sync_file_range(' "$fs/trace3")"
		else
			ok "$fs: same file system, $how: syncfs made" grep -q 'syncfs(.*= 0' "$fs/trace3"
			check_eq "$fs: same file system, $how: no rename before the barrier" "" \
				"$(barrier_first "$fs/trace3")"
		fi
	done
done
[ "$tested" -gt 0 ] || skip "no file system could be tested"
done_testing
