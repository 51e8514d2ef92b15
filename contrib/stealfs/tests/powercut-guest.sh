#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# powercut-guest.sh - the power-cut checks in the VM (check-powercut.sh):
# for each file system and case, every write and flush of a run of spmove
# is recorded by dm-log-writes, then replayed by lwreplay, forward onto
# one image, to each flush and FUA point and halfway between them; at each
# point the file system the promise is about is mounted (journal
# recovery, on a dm-snapshot so that the replay goes on from it) unless
# its bytes are those of a point already judged, and lwreplay compares
# its files with the reference trees.  One device under log-writes holds both file
# systems (A: the destination, B: the source, dm-linear halves), so that
# one log orders the writes of both.
#   (a) spmove SRC A/dst over an existing 1 MiB file: A/dst old or new.
#   (b) spmove -rT B/new A/tree over 200 files in 4 directories: each old
#       or new (the walker finishes a directory while the workers copy
#       the next, and one barrier serves several directories).
#   (c) spmove --remove-source A/tree B/tree: one of the two complete.
#   (d) spmove A/src A/dst, the source written just before on the same
#       file system (a clone on XFS and btrfs, with no flush): A/dst old
#       or new.
#   (e) spmove -rT A/new A/tree, (b) with the new tree written just
#       before on the same file system (clones, no barrier): each old or
#       new.
# Another program fsyncs A's directory after spmove, as in the issue (in
# (e) every directory of the tree).
# Prints "PC FS CASE POINTS VIOLATIONS of=ALL" and "PC-BAD FS CASE POINT:
# what"; PC's mounts=M says how many images were mounted (the other points
# had the bytes of one already judged).  pc_max=N on the kernel command line checks at most N points per
# case, evenly spread, the last always (default 0: every point);
# pc_cases=a,b,c the cases (default all; xfs:b is case b on XFS only).
# Usage: powercut-guest.sh [FS...]  (default: ext4 xfs btrfs)
set -u
fss=${*:-ext4 xfs btrfs}
max=$(sed -n 's/.*pc_max=\([0-9]*\).*/\1/p' /proc/cmdline)
max=${max:-0}
cases=$(sed -n 's/.*pc_cases=\([a-z0-9:,]*\).*/\1/p' /proc/cmdline | tr , ' ')
cases=${cases:-a b c d e}
half=655360     # sectors: 320 MiB per file system (XFS needs 300)
W=/tmp/pc
mkdir -p $W/a $W/b
export DM_DISABLE_UDEV=1

mkfs_for() {
	case $1 in
	ext4) mkfs-ext4 -q -F -t ext4 "$2" ;;
	xfs) mkfs.xfs -q -f "$2" ;;
	btrfs) mkfs.btrfs -q -f "$2" ;;
	esac >/dev/null
}

# halves DEV: dm-linear devices pa (A) and pb (B) over DEV.
halves() {
	dmsetup create pa --table "0 $half linear $1 0" &&
		dmsetup create pb --table "0 $half linear $1 $half"
}
unhalves() { dmsetup remove pa; dmsetup remove pb; }

mount_both() {
	mount -t "$1" /dev/mapper/pa $W/a && mount -t "$1" /dev/mapper/pb $W/b && return 0
	umount $W/a 2>/dev/null
	return 1
}
forget() { command -v btrfs >/dev/null && btrfs device scan --forget >/dev/null 2>&1; true; }

make_random() { head -c "$2" /dev/urandom > "$1"; }
mkdir -p $W/ref/tree/sub
make_random $W/ref/src 1048576
make_random $W/ref/dst 1048576
for i in $(seq 1 200); do
	d=d$(((i - 1) / 50))
	mkdir -p $W/ref/old/$d $W/ref/new/$d
	make_random $W/ref/old/$d/f$i 8192
	make_random $W/ref/new/$d/f$i 8192
	make_random $W/ref/tree/sub/f$i 8192
done

# record FS CASE: the run of CASE on FS, recorded in $W/log.img.
record() {
	local fs=$1 c=$2 D L
	rm -f $W/data.img $W/log.img
	truncate -s $((2 * half * 512)) $W/data.img
	truncate -s 768M $W/log.img
	D=/dev/loop0 L=/dev/loop1
	losetup $D $W/data.img && losetup $L $W/log.img || return 1
	if ! dmsetup create lw --table "0 $((2 * half)) log-writes $D $L" ||
	   ! halves /dev/mapper/lw || ! mkfs_for $fs /dev/mapper/pa || ! mkfs_for $fs /dev/mapper/pb ||
	   ! mount_both $fs; then
		echo "PC-BAD $fs $c setup: dm, mkfs or mount failed"
		ls -l /dev/mapper
		unhalves; dmsetup remove lw; losetup -d $D; losetup -d $L
		return 1
	fi
	case $c in
	a) cp $W/ref/dst $W/a/dst; cp $W/ref/src $W/b/src ;;
	b) cp -r $W/ref/old $W/a/tree; cp -r $W/ref/new $W/b/new ;;
	c) cp -r $W/ref/tree $W/a/tree ;;
	d) cp $W/ref/dst $W/a/dst ;;
	e) cp -r $W/ref/old $W/a/tree ;;
	esac
	sync
	dmsetup message lw 0 mark setup
	# (d) and (e): the source is written now, left to writeback.
	case $c in
	a) spmove $W/b/src $W/a/dst ;;
	b) spmove -rT $W/b/new $W/a/tree ;;
	c) spmove --remove-source $W/a/tree $W/b/tree ;;
	d) cp $W/ref/src $W/a/src && spmove $W/a/src $W/a/dst ;;
	e) cp -r $W/ref/new $W/a/new && spmove -rT $W/a/new $W/a/tree ;;
	esac 2> $W/err || echo "PC-BAD $fs $c run: spmove failed: $(cat $W/err)"
	case $c in
	c) sync $W/a ;;
	a|d) sync $W/a/. ;;
	b) sync $W/a/tree ;;
	e) sync $W/a/tree $W/a/tree/* ;;
	esac
	umount $W/a $W/b
	unhalves
	dmsetup remove lw
	losetup -d $D; losetup -d $L
	forget
}

# mount_half FS HALF: the image of file system HALF (a or b) as replayed so
# far, mounted on $W/HALF through a dm-snapshot (journal recovery writes
# to the snapshot, not to the replay); 1 when it does not mount.
mount_half() {
	dmsetup create s$2 --table "0 $half snapshot /dev/mapper/r$2 $C N 8" || return 1
	mount -t "$1" /dev/mapper/s$2 $W/$2 && return 0
	dmsetup remove s$2
	forget
	return 1
}
umount_half() { umount $W/$2; dmsetup remove s$2; forget; }

# judge FS CASE HALF: mounts HALF's image, checks its part of the
# promise; prints what is wrong, nothing when it holds; 1 when it does
# not.  (c) looks at either tree, the others at A (the destination) only.
judge() {
	local fs=$1 c=$2 h=$3 out
	mount_half $fs $h || { echo "$h does not mount"; return 1; }
	case $c in
	a|d) out=$(lwreplay - same $W/a/dst $W/ref/dst $W/ref/src) ;;
	b|e) out=$(lwreplay - same $W/a/tree $W/ref/old $W/ref/new) ;;
	c) out=$(lwreplay - same $W/$h/tree $W/ref/tree) ;;
	esac
	local rc=$?
	umount_half $fs $h
	[ $rc = 0 ] && return 0
	echo "$h: $(echo "$out" | tr '\n' ';')"
	return 1
}

# replay_check FS CASE: every point of the log; prints the PC line.  The
# log is replayed forward onto one image, point after point.  A file
# system whose image has not changed since a point where it was judged
# (the same count of writes into its half, from lwreplay points) is not
# mounted again: the verdict on the same bytes is reused.  (a), (b), (d)
# and (e) mount the destination only; (c) judges the source's tree first (it
# changes only when spmove removes it) and the destination's only when
# the source's is not complete.
replay_check() {
	local fs=$1 c=$2 R p kind pos va vb at=0 atpos=0 n=0 v=0 m=0 out ok o h ver judged
	rm -f $W/replay.img $W/cow.img
	truncate -s $((2 * half * 512)) $W/replay.img
	truncate -s 256M $W/cow.img
	R=/dev/loop2 C=/dev/loop3
	losetup $R $W/replay.img && losetup $C $W/cow.img || return 1
	dmsetup create ra --table "0 $half linear $R 0" &&
		dmsetup create rb --table "0 $half linear $R $half" || return 1
	lwreplay $W/log.img points setup $half > $W/points.all || echo "PC-BAD $fs $c points: lwreplay failed"
	# At most $max points, evenly spread, the last always (0: all).
	awk -v max=$max '{ p[NR] = $0 } END { if (max == 0 || NR <= max) { for (i = 1; i <= NR; i++) print p[i]; exit }
		for (i = 1; i <= max; i++) { j = int((i * NR) / max); if (j != last) print p[j]; last = j } }' \
		$W/points.all > $W/points
	# The verdict on half H with V writes in: $vd_RUN_H_V ("0 " holds,
	# "1 what"), RUN new for each log.
	run=$((${run:-0} + 1))
	while read -r p kind pos va vb; do
		out=
		case $c in c) judged="a:$va b:$vb" ;; *) judged="a:$va" ;; esac
		for hv in $judged; do
			h=${hv%%:*} ver=${hv#*:}
			eval "ok=\${vd_${run}_${h}_$ver:-}"
			if [ -z "$ok" ]; then
				# the image is brought to this point only to be mounted
				if [ $at != $p ]; then
					lwreplay $W/log.img replay $R $at $p $atpos ||
						{ echo "PC-BAD $fs $c $p: replay failed"; break 2; }
					at=$p atpos=$pos
				fi
				if o=$(judge $fs $c $h); then ok="0 "; else ok="1 $o"; fi
				eval "vd_${run}_${h}_$ver=\$ok"
				m=$((m + 1))
			fi
			[ "${ok%% *}" = 0 ] && { out=; break; }
			out="$out ${ok#* }"
		done
		n=$((n + 1))
		[ -z "$out" ] || { echo "PC-BAD $fs $c $p/$kind:$out"; v=$((v + 1)); }
	done < $W/points
	dmsetup remove ra; dmsetup remove rb
	losetup -d $R; losetup -d $C
	rm -f $W/replay.img $W/cow.img $W/log.img $W/data.img
	echo "PC $fs $c $n $v of=$(wc -l < $W/points.all) mounts=$m"
}

for fs in $fss; do
	for c in $cases; do
		# FS:CASE: that case on that file system only
		case $c in
		"$fs":*) c=${c#*:} ;;
		*:*) continue ;;
		esac
		t0=$(date +%s)
		if record $fs $c; then
			t1=$(date +%s)
			replay_check $fs $c
			echo "PC-TIME $fs $c $(( $(date +%s) - t0 ))s record=$((t1 - t0))s check=$(( $(date +%s) - t1 ))s"
		else
			echo "PC-BAD $fs $c record: failed"
		fi
	done
done
echo "PC-END"
