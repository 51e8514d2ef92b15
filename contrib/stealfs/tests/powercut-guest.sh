#!/bin/sh
# powercut-guest.sh - the power-cut checks in the VM (check-powercut.sh):
# for each file system and case, every write and flush of a run of spmove
# is recorded by dm-log-writes, then replayed by lwreplay to each flush and
# FUA point and halfway between them; the image at each point is mounted
# (journal recovery, on a dm-snapshot so that the replay goes on from it)
# and the promise checked.  One device under log-writes holds both file
# systems (A: the destination, B: the source, dm-linear halves), so that
# one log orders the writes of both.
#   (a) spmove SRC A/dst over an existing 1 MiB file: A/dst old or new.
#   (b) spmove -rT B/new A/tree over 200 files: each old or new.
#   (c) spmove --remove-source A/tree B/tree: one of the two complete.
# Another program fsyncs A's directory after spmove, as in the issue.
# Prints "PC FS CASE POINTS VIOLATIONS of=ALL" and "PC-BAD FS CASE POINT:
# what".  pc_max=N on the kernel command line checks at most N points per
# case, evenly spread, the last always (default 0: every point);
# pc_cases=a,b,c the cases (default all).
# Usage: powercut-guest.sh [FS...]  (default: ext4 xfs btrfs)
set -u
fss=${*:-ext4 xfs btrfs}
max=$(sed -n 's/.*pc_max=\([0-9]*\).*/\1/p' /proc/cmdline)
max=${max:-0}
cases=$(sed -n 's/.*pc_cases=\([a-c,]*\).*/\1/p' /proc/cmdline | tr , ' ')
cases=${cases:-a b c}
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

# fp DIR: names, types and contents under DIR ("-" when missing).
fp() {
	[ -d "$1" ] || { echo -; return; }
	(cd "$1" && find . ! -name '.spmove-*' | sort && find . -type f ! -name '.spmove-*' | sort |
		xargs -r md5sum)
}

make_random() { head -c "$2" /dev/urandom > "$1"; }
mkdir -p $W/ref/old $W/ref/new $W/ref/tree/sub
make_random $W/ref/src 1048576
make_random $W/ref/dst 1048576
for i in $(seq 1 200); do
	make_random $W/ref/old/f$i 8192
	make_random $W/ref/new/f$i 8192
	make_random $W/ref/tree/sub/f$i 8192
done
tree_fp=$(fp $W/ref/tree)
# "NAME MD5" of every allowed content of each file of (b): old or new.
(cd $W/ref/old && md5sum f*; cd $W/ref/new && md5sum f*) | awk '{ print $1, $2 }' > $W/ok.b

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
	esac
	sync
	dmsetup message lw 0 mark setup
	case $c in
	a) spmove $W/b/src $W/a/dst ;;
	b) spmove -rT $W/b/new $W/a/tree ;;
	c) spmove --remove-source $W/a/tree $W/b/tree ;;
	esac 2> $W/err || echo "PC-BAD $fs $c run: spmove failed: $(cat $W/err)"
	case $c in
	c) sync $W/a ;;
	*) sync $W/a/$([ $c = a ] && echo . || echo tree) ;;
	esac
	umount $W/a $W/b
	unhalves
	dmsetup remove lw
	losetup -d $D; losetup -d $L
	forget
}

# check FS CASE POINT: the promise on the mounted image; prints what is
# wrong, nothing when it holds.
check() {
	local fs=$1 c=$2 p=$3 f bad=0
	case $c in
	a)
		cmp -s $W/a/dst $W/ref/dst || cmp -s $W/a/dst $W/ref/src ||
			echo "PC-BAD $fs a $p: dst is neither old nor new ($(stat -c %s $W/a/dst 2>&1) bytes)" ;;
	b)
		bad=$( (cd $W/a/tree && md5sum f* 2>/dev/null) |
			awk -v ok="$W/ok.b" 'BEGIN { while ((getline l < ok) > 0) { split(l, x, " "); good[x[2] " " x[1]] = 1 } }
				{ n++; if (!(($2 " " $1) in good)) bad++ } END { print (200 - n) + bad }')
		[ "$bad" = 0 ] || echo "PC-BAD $fs b $p: $bad of 200 files neither old nor new" ;;
	c)
		[ "$(fp $W/a/tree)" = "$tree_fp" ] || [ "$(fp $W/b/tree)" = "$tree_fp" ] ||
			echo "PC-BAD $fs c $p: neither tree complete" ;;
	esac
}

# replay_check FS CASE: every point of the log; prints the PC line.
replay_check() {
	local fs=$1 c=$2 R C prev=0 p kind n=0 v=0 out
	rm -f $W/replay.img $W/cow.img
	truncate -s $((2 * half * 512)) $W/replay.img
	truncate -s 256M $W/cow.img
	R=/dev/loop2 C=/dev/loop3
	losetup $R $W/replay.img && losetup $C $W/cow.img || return 1
	lwreplay $W/log.img points setup | sort -n -u -k1,1 > $W/points.all
	# At most $max points, evenly spread, the last always (0: all).
	awk -v max=$max '{ p[NR] = $0 } END { if (max == 0 || NR <= max) { for (i = 1; i <= NR; i++) print p[i]; exit }
		for (i = 1; i <= max; i++) { j = int((i * NR) / max); if (j != last) print p[j]; last = j } }' \
		$W/points.all > $W/points
	while read -r p kind; do
		lwreplay $W/log.img replay $R $prev $p || { echo "PC-BAD $fs $c $p: replay failed"; break; }
		prev=$p
		dmsetup create snap --table "0 $((2 * half)) snapshot $R $C N 8" && halves /dev/mapper/snap ||
			{ echo "PC-BAD $fs $c $p: dm setup failed"; break; }
		if mount_both $fs; then
			out=$(check $fs $c "$p/$kind")
			umount $W/a $W/b
		else
			out="PC-BAD $fs $c $p/$kind: does not mount"
		fi
		unhalves
		dmsetup remove snap
		forget
		n=$((n + 1))
		[ -z "$out" ] || { echo "$out"; v=$((v + 1)); }
	done < $W/points
	losetup -d $R; losetup -d $C
	rm -f $W/replay.img $W/cow.img $W/log.img $W/data.img
	echo "PC $fs $c $n $v of=$(wc -l < $W/points.all)"
}

for fs in $fss; do
	for c in $cases; do
		t0=$(date +%s)
		if record $fs $c; then
			replay_check $fs $c
		else
			echo "PC-BAD $fs $c record: failed"
		fi
		echo "PC-TIME $fs $c $(( $(date +%s) - t0 ))s"
	done
done
echo "PC-END"
