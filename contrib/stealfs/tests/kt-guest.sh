#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kt-guest.sh - the measurements of `make kernel-truth` on one kernel: in the
# VM (run by kt-init.sh as /init's payload, busybox) and on the host (run by
# contrib/kernel-truth/kernel-truth.sh).  Prints records, one a line, that
# contrib/kernel-truth/kt-report.py assembles:
#   probe FS JSON                  spmove --probe --json in a directory on FS
#   counters FS before|after JSON  stealfs's counters around that probe
#                                  (FS ext4-move: around a move of a clean
#                                  ext4 file into stealfs with -M; the large
#                                  folio rows below: ext4-partial,
#                                  tmpfs-huge)
#   frames MOVE SAME CHECKED B|A|-  that move's frames: of the CHECKED
#                                  destination pages, SAME sit on the
#                                  physical frame the source's page had
#                                  (ext4-move: kt-bench frames, then the
#                                  byte read back after the source was
#                                  written; the large folio rows: stealprobe
#                                  frames, no write: -)
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
# --- Frame identity of the moves into stealfs (issue 37) -----------------
# frames_before SRC [OFFSET]: reads SRC into its page cache and keeps the
# physical frames of its pages from OFFSET on (stealprobe frames: mapped,
# faulted in, unmapped again), for frames_after.
frames_before() {
	cat "$1" > /dev/null
	if command -v stealprobe > /dev/null; then
		stealprobe frames "$1" | tail -n +$((${2:-0} / 4096 + 1)) > /tmp/kt-frames.src
	else
		rm -f /tmp/kt-frames.src
	fi
}
# same_frames BEFORE AFTER: how many lines of the two lists of frames
# name the same frame, compared as text (as guest-suite.sh's, which says
# why; tests/kernel-truth/same-frames.sh checks both).
same_frames() {
	paste -d' ' "$1" "$2" | awk '$1 != "-" && ($1 "") == ($2 "")' | wc -l
}
# frames_after MOVE DST [OFFSET]: prints the "frames" record of MOVE: how
# many of DST's pages from OFFSET on sit on the frame the source's page at
# the same place had before the move.
frames_after() {
	[ -f /tmp/kt-frames.src ] || { echo "note frames of $1 not read: no stealprobe"; return; }
	stealprobe frames "$2" | tail -n +$((${3:-0} / 4096 + 1)) > /tmp/kt-frames.dst
	echo "frames $1 $(same_frames /tmp/kt-frames.src /tmp/kt-frames.dst) $(wc -l < /tmp/kt-frames.dst) -"
	rm -f /tmp/kt-frames.src /tmp/kt-frames.dst
}
# --- end of the frame identity helpers -----------------------------------

# A clean ext4 file's page cache moved into stealfs with SPLICE_F_MOVE:
# stealfs's counters around one kt-bench file move (8 MiB, page cache
# filled by reading it first), recorded as the "ext4-move" counters, and
# the frames of its pages before and after ("frames ext4-move").
e=$(dir_of ext4) s=$(dir_of stealfs)
# While frames are compared, transparent huge pages only where asked
# (madvise): with "always" (Debian's 7.2) khugepaged may collapse a file's
# pages into a new 2 MiB folio -- a copy on new frames -- between the
# reading of its frames and the move.  Readahead's folio sizes do not
# depend on it.  Put back after the large folio rows.
thp=/sys/kernel/mm/transparent_hugepage/enabled
thp_was=
if [ "$stage" != bench ] && [ -n "$e" ] && [ -n "$s" ] && [ -w $thp ]; then
	thp_was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $thp)
	[ "$thp_was" = always ] && echo madvise > $thp
fi
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

# --- Large folios (issue 37): two more moves into stealfs with -M --------
# ext4-partial: the same 8 MiB clean ext4 file from 12 KiB on, to 12 KiB
# of the destination (stealprobe filemove -o, 2 MiB pipe): the folio at
# the start and those the pipe cuts are covered in part and copied.
# tmpfs-huge: an 8 MiB file on a tmpfs mounted huge=always, whose folios
# are swap-backed (stealfs refuses those whatever their size).
if [ "$stage" != bench ] && [ -n "$e" ] && [ -n "$s" ] && command -v stealprobe > /dev/null; then
	if kt-bench pipe 8M "$e/kt-part-src" > /dev/null; then
		fresh
		frames_before "$e/kt-part-src" 12288
		echo "counters ext4-partial before $(counters)"
		stealprobe filemove -M -o 12288 "$e/kt-part-src" "$s/kt-part" > /dev/null ||
			echo "note the partial ext4 -> stealfs move failed"
		echo "counters ext4-partial after $(counters)"
		frames_after ext4-partial "$s/kt-part" 12288
	fi
	rm -f "$e/kt-part-src" "$s/kt-part"
	h=/tmp/kt-huge
	mkdir -p $h
	if mount -t tmpfs -o huge=always,size=32m none $h; then
		if kt-bench pipe 8M "$h/src" > /dev/null; then
			frames_before "$h/src"
			echo "counters tmpfs-huge before $(counters)"
			stealprobe filemove -M "$h/src" "$s/kt-huge" > /dev/null ||
				echo "note the tmpfs huge=always -> stealfs move failed"
			echo "counters tmpfs-huge after $(counters)"
			frames_after tmpfs-huge "$s/kt-huge"
			echo "note tmpfs huge=always: ShmemHugePages $(sed -n 's/^ShmemHugePages: *//p' /proc/meminfo) while its 8 MiB file was cached"
		fi
		umount $h
	else
		echo "note tmpfs huge=always could not be mounted"
	fi
	rm -f "$s/kt-huge"
fi
[ "$thp_was" = always ] && echo always > $thp
# --- end of the large folio rows -----------------------------------------
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
