#!/bin/sh
# kt-guest.sh - the measurements of `make kernel-truth` on one kernel: in the
# VM (run by kt-init.sh as /init's payload, busybox) and on the host (run by
# contrib/kernel-truth/kernel-truth.sh).  Prints records, one a line, that
# contrib/kernel-truth/kt-report.py assembles:
#   probe FS JSON                  spmove --probe --json in a directory on FS
#   counters FS before|after JSON  stealfs's counters around that probe
#                                  (FS ext4-move: around a move of a clean
#                                  ext4 file into stealfs with -M)
#   frames ext4-move SAME CHECKED B|A  that move's frames (kt-bench frames:
#                                  destination pages whose frame was the
#                                  source's) and the byte read back after
#                                  the source was written
#   acct JSON                      acctpin run --json
#   acct-foreign JSON              ... --acct-file FILE --allow-foreign -s plain
#   bench CASE TARGET SIDE RUN NS BYTES
#                                  one timed move (kt-bench), the two sides
#                                  of a comparison alternating run by run
#   note TEXT                      what could not be measured, and why
#
# Usage: kt-guest.sh STAGE RUNS SIZE_MIB DIR...
#   STAGE: "all" (probe, accounting, bench), "probe" (probe and bench) or
#   "bench" (a later boot);
#   DIR: FS=PATH pairs, e.g. tmpfs=/tmp/kt ext4=/mnt/e stealfs=/mnt/s
#   stealfs-off=/mnt/off (the same module, steal=off: the bench's other side).
# kt-bench, spmove and acctpin are found in $PATH.
stage=$1 runs=$2 size=$3
shift 3
S=/sys/fs/stealfs/stats

# dir_of FS: the directory given for FS, or nothing.
dir_of() {
	for d in $dirs; do
		case $d in "$1="*) echo "${d#*=}"; return ;; esac
	done
}
dirs="$*"

# counters: stealfs's counters as one JSON object (names and numbers only).
counters() {
	line= sep=
	for c in $(ls $S); do
		line="$line$sep\"$c\":$(cat $S/$c)"
		sep=,
	done
	echo "{$line}"
}

# fresh: empty the page cache and write back everything, between runs.
fresh() {
	sync
	echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
}

if [ "$stage" != bench ]; then
	for d in $dirs; do
		fs=${d%%=*} dir=${d#*=}
		[ "$fs" = stealfs-off ] && continue
		[ "$fs" = stealfs ] && echo "counters $fs before $(counters)"
		out=$(spmove --probe --json "$dir" 2>&1)
		if [ $? = 0 ]; then echo "probe $fs $out"; else echo "note probe on $fs failed: $out"; fi
		[ "$fs" = stealfs ] && echo "counters $fs after $(counters)"
	done
fi
# A clean ext4 file's page cache moved into stealfs with SPLICE_F_MOVE:
# stealfs's counters around one kt-bench file move (8 MiB, page cache
# filled by kt-bench's read), recorded as the "ext4-move" counters.
e=$(dir_of ext4) s=$(dir_of stealfs)
if [ "$stage" != bench ] && [ -n "$e" ] && [ -n "$s" ]; then
	if kt-bench pipe 8M "$e/kt-move-src" > /dev/null; then
		fresh
		echo "counters ext4-move before $(counters)"
		res=$(kt-bench frames "$e/kt-move-src" "$s/kt-move" -M) ||
			echo "note the ext4 -> stealfs move failed"
		echo "counters ext4-move after $(counters)"
		echo "$res" | sed -n 's/^frames \([0-9]*\) \([0-9]*\)$/\1 \2/p' | while read -r same checked; do
			echo "frames ext4-move $same $checked $(echo "$res" | sed -n 's/^after-write //p')"
		done
	fi
	rm -f "$e/kt-move-src" "$s/kt-move"
fi
if [ "$stage" = all ]; then
	if [ "$(id -u)" = 0 ]; then
		acct=$(cd /tmp && acctpin run --json 2>/dev/null)
		if [ -n "$acct" ]; then echo "acct $acct"; else echo "note acctpin run --json printed nothing"; fi
		# The foreign file: accounting into a file acctpin did not create.
		foreign=$(dir_of tmpfs)/kt-foreign
		: > "$foreign"
		acct=$(cd /tmp && acctpin run --acct-file "$foreign" --allow-foreign --scenario plain \
			--json 2>/dev/null)
		if [ -n "$acct" ]; then echo "acct-foreign $acct"; else echo "note acctpin run --acct-file printed nothing"; fi
		rm -f "$foreign"
	else
		echo "note accounting not measured: acctpin run needs root"
	fi
fi

# bench CASE TARGET SIDE_A DIR_A FLAGS_A SIDE_B DIR_B FLAGS_B: RUNS runs of
# each side, alternating a, b, a, b ...; fresh caches before each run.
# The file case reads its source from ext4 when there is one (pages a
# disk file system caches, which stealfs can take), else from the tmpfs.
bench() {
	kind=$1 target=$2
	src=$(dir_of ext4)
	src=${src:-$(dir_of tmpfs)}/kt-bench-src
	if [ $kind = file ]; then
		kt-bench pipe "${size}M" "$src" > /dev/null || return
	fi
	r=1
	while [ $r -le "$runs" ]; do
		for side in a b; do
			if [ $side = a ]; then name=$3 dir=$4 flags=$5; else name=$6 dir=$7 flags=$8; fi
			rm -f "$dir/kt-bench"
			fresh
			if [ $kind = pipe ]; then
				res=$(kt-bench pipe "${size}M" "$dir/kt-bench" $flags)
			else
				res=$(kt-bench file "$src" "$dir/kt-bench" $flags)
			fi
			echo "$res" | sed -n "s/^ns \([0-9]*\) bytes \([0-9]*\)$/bench $kind $target $name $r \1 \2/p"
			rm -f "$dir/kt-bench"
		done
		r=$((r + 1))
	done
	rm -f "$src"
}

# pipe-max-size must hold the bench's pipe; put back afterwards.
max=$(cat /proc/sys/fs/pipe-max-size)
if [ "$(id -u)" = 0 ] && echo $((size << 20)) > /proc/sys/fs/pipe-max-size; then
	t=$(dir_of tmpfs)
	on=$(dir_of stealfs) off=$(dir_of stealfs-off)
	for kind in pipe file; do
		if [ -n "$on" ] && [ -n "$off" ]; then
			bench $kind stealfs steal=on "$on" -M steal=off "$off" -M
		fi
		bench $kind tmpfs -M "$t" -M plain "$t" ""
	done
	echo "$max" > /proc/sys/fs/pipe-max-size
else
	echo "note bench not run: raising pipe-max-size needs root"
fi
