#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# guest-suite.sh - the stealfs suite, run inside the VM by /init (busybox).
# Prints TAP-like "ok N - ..." / "not ok N - ..." lines, "BENCH ..." lines,
# and one "STEALFS-SUMMARY ..." line that contrib/stealfs/tests/check-vm.sh parses.
#
# spmove moves the data when it was built (it is in /bin); otherwise
# stealprobe does the same splices.  The counters are read straight from
# /sys/fs/stealfs/stats/.
#
# No task may hang: the kernel's hung-task detector runs with a 10 s timeout
# (check-vm.sh fails on its reports), a watchdog here reports any task that
# stays in D state for 10 s with its kernel stack, and the tests that can
# hang wait for their tasks at most a bounded time (wait_bounded).  A task
# that cannot be ended even with SIGKILL ends the suite early ("Bail out!"),
# so that a hang fails the run instead of stalling it.

S=/sys/fs/stealfs/stats
M=/mnt/s
OFF=/mnt/off
E=/mnt/e
KO=/lib/modules/stealfs.ko
CG=/sys/fs/cgroup
n=0 passed=0 failed=0 stuck=0

# ok STATUS DESCRIPTION: records one result.
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); echo "ok $n - $2"
	else
		failed=$((failed + 1)); echo "not ok $n - $2"
	fi
}

# check DESCRIPTION COMMAND...: passes when COMMAND exits 0; shows its
# output as comments when it fails.
check() {
	d=$1; shift
	"$@" >/tmp/check.out 2>&1
	r=$?
	[ $r = 0 ] || sed 's/^/# /' /tmp/check.out
	ok $r "$d"
}

# snap: remembers the counters; delta NAME: prints NAME's growth since.
snap() {
	for c in $COUNTERS; do eval "b_$c=\$(cat $S/$c)"; done
}
delta() {
	eval "echo \$(( \$(cat $S/$1) - b_$1 ))"
}

# refused_all: prints the growth of all refused_* counters since snap.
refused_all() {
	t=0
	for c in $COUNTERS; do
		case $c in refused_*) t=$((t + $(delta $c))) ;; esac
	done
	echo $t
}

# counts: prints every counter's growth since snap, for the log.
counts() {
	line="#"
	for c in $COUNTERS; do line="$line $c=$(delta $c)"; done
	echo "$line"
}

# Movers: spmove when present, stealprobe otherwise.
if [ -x /bin/spmove ]; then MOVER=spmove; else MOVER=stealprobe; fi
echo "# mover: $MOVER"
# pipe_move DST: stdin (a pipe) -> DST with SPLICE_F_MOVE.
pipe_move() {
	if [ $MOVER = spmove ]; then spmove -M - "$1"; else stealprobe splice -M "$1"; fi
}
# file_move SRC DST: with SPLICE_F_MOVE.
file_move() {
	if [ $MOVER = spmove ]; then spmove -M "$1" "$2"; else stealprobe filemove -M "$1" "$2"; fi
}
# gift_move SRC DST: vmsplice'd gift pages -> DST.
gift_move() {
	if [ $MOVER = spmove ]; then
		spmove -M --method=gift "$1" "$2"
	else
		stealprobe gift "$(stat -c %s "$1")" "$2" >/dev/null
	fi
}
produce() { dd if="$1" bs=64k 2>/dev/null; }
drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }
# free_kb: prints MemFree plus the per-CPU free lists, in kB.
free_kb() {
	echo $(( $(meminfo MemFree) + $(awk '$1 == "count:" { s += $2 } END { print s * 4 }' /proc/zoneinfo) ))
}
# meminfo FIELD: prints /proc/meminfo's FIELD in kB.
meminfo() { sed -n "s/^$1: *\\([0-9]*\\) kB/\\1/p" /proc/meminfo; }
# same_frames BEFORE AFTER: prints how many lines of the two lists of
# frames (stealprobe frames) name the same frame.  The frames are hex
# words compared as text: to awk, "1e400" is a number (infinite), and a
# numeric comparison once made equal frames differ and different ones
# equal, wherever the kernel placed the pages.
same_frames() {
	paste -d' ' "$1" "$2" | awk '$1 != "-" && ($1 "") == ($2 "")' | wc -l
}
# vmstat NAME: the counter NAME of /proc/vmstat (0 where the kernel has none).
vmstat() { awk -v k="$1" '$1 == k { v = $2 } END { print v + 0 }' /proc/vmstat; }
# kernel_kb: prints what the kernel's own bookkeeping holds, in kB: slab
# (where the debug kernel's KASAN quarantine keeps freed objects, up to
# 1/32 of memory, until later allocations push them out), kernel stacks,
# page tables and per-CPU areas.
kernel_kb() {
	awk '$1 ~ /^(Slab|KernelStack|PageTables|Percpu):$/ { s += $2 } END { print s }' /proc/meminfo
}
# mem_snap: drops the caches and prints "FREE KERNEL" (free_kb, kernel_kb).
mem_snap() { drop_caches; echo "$(free_kb) $(kernel_kb)"; }
# mem_back SNAP: succeeds when the free memory of SNAP (from mem_snap) is
# back within 4 MiB, what the kernel's bookkeeping grew by counted as back
# (a leaked page is in neither); retries for 10 s, as the kernel frees
# some memory late (RCU callbacks, the OOM reaper), slowly on the debug
# kernel.  Sets mem_note to the figures.
mem_back() {
	set -- $1
	i=0
	while :; do
		drop_caches
		f=$(free_kb) k=$(kernel_kb)
		lost=$(($1 - f - (k - $2)))
		mem_note="free $1 -> $f KiB, kernel bookkeeping $2 -> $k KiB: $lost KiB missing"
		[ $lost -gt 4096 ] && [ $i -lt 10 ] || break
		sleep 1
		i=$((i + 1))
	done
	[ $lost -le 4096 ]
}

# The D-state watchdog: every second, lists the tasks in D state; a task
# seen in D state 10 times in a row is reported once, with its kernel
# stack, and recorded in /tmp/dstate.fail.  Stops when /tmp/dstate.stop
# appears.
dstate_watch() {
	while [ ! -e /tmp/dstate.stop ]; do
		now=$(awk 'match($0, /\) D /) { print $1 }' /proc/[0-9]*/stat 2>/dev/null)
		for p in $now; do
			eval "c=\$((\${dw_$p:-0} + 1))"
			eval "dw_$p=$c"
			if [ "$c" = 10 ]; then
				echo "# watchdog: task $p ($(cat /proc/$p/comm 2>/dev/null)) in D state for 10 s; kernel stack:"
				sed 's/^/#   /' /proc/$p/stack 2>/dev/null
				echo "$p $(cat /proc/$p/comm 2>/dev/null)" >> /tmp/dstate.fail
			fi
		done
		for v in $(set | sed -n 's/^\(dw_[0-9]*\)=.*/\1/p'); do
			case " $(echo $now) " in *" ${v#dw_} "*) ;; *) unset $v ;; esac
		done
		sleep 1
	done
}
# wait_bounded PID SECONDS: waits for PID (a child of this shell) to end, at
# most SECONDS; returns its exit status.  A task still running then has its
# state and kernel stack shown and is sent SIGKILL; returns 124, and sets
# stuck=1 when even SIGKILL does not end it within 5 s.
wait_bounded() {
	w=0
	while ! ended $1; do
		if [ $w -ge $(($2 * 5)) ]; then
			echo "# pid $1 ($(cat /proc/$1/comm 2>/dev/null)) still running after $2 s, state $(task_state $1); kernel stack:"
			sed 's/^/#   /' /proc/$1/stack 2>/dev/null
			kill -9 $1
			w=0
			while ! ended $1 && [ $w -lt 25 ]; do sleep 0.2; w=$((w + 1)); done
			if ended $1; then wait $1; else stuck=1; fi
			return 124
		fi
		sleep 0.2
		w=$((w + 1))
	done
	wait $1
}
# task_state PID: prints the state letter of PID (R, S, D, Z, ...).
task_state() { sed 's/.*) //' /proc/$1/stat 2>/dev/null | cut -c1; }
# ended PID: true when PID is gone or a zombie.
ended() { [ ! -e /proc/$1 ] || [ "$(task_state $1)" = Z ]; }

# bail REASON: ends the suite here (a task is stuck and holds locks the
# remaining tests need), with the summary line check-vm.sh expects.
bail() {
	ok 1 "no task is stuck: $1"
	echo "Bail out! $1"
	touch /tmp/dstate.stop
	totals
	summary
	exit 1
}

# totals: sets sa, sp, cp to the pages stolen (anonymous, page cache) and
# copied over the whole run (the counters restart at each reload).
totals() {
	sa=$((${base_anon:-0} + $(cat $S/stolen_anon 2>/dev/null || echo 0)))
	sp=$((${base_pc:-0} + $(cat $S/stolen_pagecache 2>/dev/null || echo 0)))
	cp=$((${base_cp:-0} + $(cat $S/copied 2>/dev/null || echo 0)))
}
# summary: the line check-vm.sh parses.
summary() {
	echo "STEALFS-SUMMARY kernel=$(uname -r) tests=$n passed=$passed failed=$failed stolen=$((sa + sp)) stolen_anon=$sa stolen_pagecache=$sp copied=$cp mover=$MOVER"
}

# kmsg TEXT: writes TEXT to the kernel log (check-vm.sh looks for markers).
kmsg() { echo "stealfs-suite: $*" > /dev/kmsg; }

# cg_new NAME: a fresh cgroup NAME without limits.
cg_new() { rmdir $CG/$1 2>/dev/null; mkdir $CG/$1; }
# sh -c "$IN_CG" DIR CMD...: runs CMD in the cgroup DIR, as killable by the
# OOM killer as any task (oom_score_adj 0).  Started in the background as
# a simple command, its PID ($!) is CMD's: the shell execs it.
IN_CG='echo 0 > /proc/self/oom_score_adj && echo $$ > "$0/cgroup.procs" && exec "$@"'
# in_cg NAME CMD...: runs CMD in cgroup NAME ("." is the root group).
in_cg() {
	g=$1; shift
	sh -c "$IN_CG" "$CG/$g" "$@"
}
# cg_kb NAME: memory.current of NAME in KiB.
cg_kb() { echo $(( $(cat $CG/$1/memory.current) / 1024 )); }
# cg_event NAME KEY: the KEY count in NAME's memory.events.
cg_event() { sed -n "s/^$2 //p" $CG/$1/memory.events; }
# is_pattern FILE: FILE holds the pattern's first bytes, as many as its size.
is_pattern() { stealprobe pattern $(stat -c %s $1) | cmp - $1; }
# pages FILE: the size of FILE in pages, rounded up.
pages() { echo $(( ($(stat -c %s $1) + 4095) / 4096 )); }
# moved_all FILE: every page of FILE was stolen or copied since snap.
moved_all() {
	test $(( $(delta stolen_anon) + $(delta stolen_pagecache) + $(delta copied) )) = "$(pages $1)"
}
# start_move GROUP DST OUT PGROUP PRODUCER...: starts PRODUCER (its output
# into a FIFO) in cgroup PGROUP and a splicer moving the FIFO's data to DST
# with SPLICE_F_MOVE in cgroup GROUP, its output in OUT.  Sets prod and spl
# to their PIDs (the tasks' own, which wait_bounded can see stuck).  OUT is
# filled with spaces first and written over in place: in a group at its
# limit, a write that needs a new page of /tmp would get the splicer
# OOM-killed before it could report.
start_move() {
	g=$1 dst=$2 out=$3 pg=$4; shift 4
	rm -f /tmp/move.fifo
	mkfifo /tmp/move.fifo
	sh -c "$IN_CG" "$CG/$pg" "$@" > /tmp/move.fifo 2>/dev/null &
	prod=$!
	printf '%256s' '' > $out
	sh -c "$IN_CG" "$CG/$g" stealprobe splice -M $dst < /tmp/move.fifo 1<> $out 2>&1 &
	spl=$!
}
# end_move LIMIT: waits for the splicer (at most LIMIT s) and the producer;
# sets status to the splicer's exit status (check() uses r); bails out when
# a task cannot be ended.
end_move() {
	wait_bounded $spl $1; status=$?
	wait_bounded $prod 30
	[ $stuck = 0 ] || bail "a splicer cannot be ended (see its stack above)"
}
# vm_scanned: prints the pages the kernel scanned to reclaim memory (0
# without CONFIG_VM_EVENT_COUNTERS, as on the debug kernel).
vm_scanned() {
	awk '/^pgscan_(kswapd|direct) / { s += $2 } END { print s + 0 }' /proc/vmstat
}

# mounted: succeeds when a stealfs is mounted on $M.
mounted() { grep -q "^[^ ]* $M stealfs " /proc/mounts; }
# fsopts: prints the stealfs options of $M in /proc/mounts, the generic
# ones (rw, relatime, ...) left out.
fsopts() {
	sed -n "s|^[^ ]* $M stealfs \\([^ ]*\\) .*|\\1|p" /proc/mounts | tr , '\n' |
		grep -vxE 'rw|ro|relatime|noatime|strictatime|nosuid|nodev|noexec|sync|dirsync' |
		tr '\n' , | sed 's/,$//'
}
# pct_kb PERCENT: prints size=PERCENT% in KiB as tmpfs computes it: PERCENT
# of the RAM in bytes, rounded down, then up to whole pages.
pct_kb() {
	echo $(( ($1 * 4096 * RAM_PAGES / 100 + 4095) / 4096 * 4 ))
}
# oom_kills: prints the OOM kills so far, the kernel's count and the log's.
oom_kills() {
	echo "$(sed -n 's/^oom_kill //p' /proc/vmstat) $(dmesg | grep -c 'invoked oom-killer')"
}
# as_nobody COMMAND...: runs COMMAND as user and group 65534.
as_nobody() { stealprobe as 65534 "$@"; }

# The basics on one mount: (a) pipe-sourced data is stolen and survives
# drop_caches; (b) page-cache pages of a clean ext4 file; (c) vmsplice gifts;
# (d) partial pages, unaligned offsets, overwrite, truncate, mmap, names.
section_basic() {
	check "mount stealfs" mount -t stealfs none $M
	check "statfs magic 0x5354454c" test "$(stat -f -c %t $M)" = 5354454c

	if [ -x /bin/spcat ]; then
		check "spcat from the build tree runs (its libraries are here)" sh -c "spcat /tmp/src > $M/spcat && cmp /tmp/src $M/spcat"
		rm -f $M/spcat
	fi

	# (a) pipe-sourced data is stolen, and survives drop_caches
	snap
	produce /tmp/src | pipe_move $M/a
	check "pipe -> stealfs with SPLICE_F_MOVE: data intact" cmp /tmp/src $M/a
	st=$(delta stolen_anon); counts
	check "pipe -> stealfs: $st of 4096 pages stolen" test "$st" -gt 0
	drop_caches
	check "pipe -> stealfs: intact after drop_caches" cmp /tmp/src $M/a
	check "pipe -> stealfs: checksum" test "$(sha256sum < /tmp/src)" = "$(sha256sum < $M/a)"
	snap
	produce /tmp/src | stealprobe splice $M/a2 >/dev/null
	check "without SPLICE_F_MOVE nothing is stolen" test "$(delta stolen_anon)" = 0
	check "without SPLICE_F_MOVE: data intact" cmp /tmp/src $M/a2
	mount -o remount,steal=off $M
	check "remount steal=off shows in /proc/mounts" grep -q "$M stealfs .*steal=off" /proc/mounts
	snap
	produce /tmp/src | pipe_move $M/a3
	check "steal=off: nothing stolen, all copied" test "$(delta stolen_anon)" = 0 -a "$(delta copied)" -gt 0
	check "steal=off: data intact" cmp /tmp/src $M/a3
	mount -o remount,steal=on $M
	rm -f $M/a2 $M/a3

	# (b) page-cache pages of a clean ext4 file (loop device)
	cp /tmp/src $E/src
	drop_caches
	snap
	file_move $E/src $M/b
	check "ext4 file -> stealfs with SPLICE_F_MOVE: data intact" cmp /tmp/src $M/b
	sp=$(delta stolen_pagecache)
	refused=$(refused_all)
	counts
	check "ext4 -> stealfs: every page stolen ($sp) or refused ($refused)" test $((sp + refused)) -ge 4096
	check "ext4 -> stealfs: no anonymous steal" test "$(delta stolen_anon)" = 0
	drop_caches
	check "ext4 source intact after its pages left" cmp /tmp/src $E/src
	check "stolen page-cache pages intact after drop_caches" cmp /tmp/src $M/b
	drop_caches
	snap
	stealprobe filemove -M -m $E/src $M/bm > /tmp/check.out 2>&1
	r=$?; [ $r = 0 ] || sed 's/^/# /' /tmp/check.out
	ok $r "ext4 file mapped by a process -> stealfs: mapping intact"
	# ext4 caches in large folios on newer kernels (7.2): a folio not
	# wholly in one splice is refused as large before the mapping is
	# looked at.
	check "mapped ext4 pages: refused as mapped (or large), not stolen" \
		test "$(delta stolen_pagecache)" = 0 -a $(( $(delta refused_mapped) + $(delta refused_large) )) -gt 0
	check "mapped ext4 pages: data intact" cmp /tmp/src $M/bm
	rm -f $M/bm
	snap
	file_move $M/b $M/b3
	check "stealfs file -> stealfs: its dirty pages stay (refused)" test "$(delta stolen_pagecache)" = 0 -a "$(delta refused_busy)" -gt 0
	check "stealfs file -> stealfs: source and copy intact" sh -c "cmp /tmp/src $M/b && cmp /tmp/src $M/b3"
	rm -f $M/b3
	snap
	file_move /tmp/src $M/b2
	check "tmpfs file -> stealfs: refused as swap-backed" test "$(delta refused_anon)" -gt 0 -a "$(delta stolen_pagecache)" = 0
	check "tmpfs file -> stealfs: data intact" cmp /tmp/src $M/b2
	rm -f $M/b2

	# (c) vmsplice gifts are refused and copied (their pages are anonymous
	# here; section (i) gifts file pages)
	snap
	gift_move /tmp/pat $M/c
	check "gift: refused as a gift" test "$(delta refused_gift)" -ge 64 -a "$(delta stolen_anon)" = 0
	check "gift: data intact" cmp /tmp/pat $M/c

	# (d) partial pages, unaligned offsets, overwrite, truncate, mmap, names
	snap
	produce /tmp/src.partial | pipe_move $M/d
	check "partial last page: data intact" cmp /tmp/src.partial $M/d
	check "partial last page: refused_partial counted" test "$(delta refused_partial)" -ge 1 -a "$(delta stolen_anon)" -ge 1
	cp /tmp/src.partial $M/u
	cp /tmp/src.partial /tmp/u.expect
	produce /tmp/src.1m | stealprobe splice -o 100 /tmp/u.expect >/dev/null
	snap
	produce /tmp/src.1m | stealprobe splice -M -o 100 $M/u >/dev/null
	check "unaligned offset: data intact" cmp /tmp/u.expect $M/u
	check "unaligned offset: nothing stolen" test "$(delta stolen_anon)" = 0 -a "$(delta refused_partial)" -gt 0
	dd if=/dev/zero of=$M/o bs=64k count=32 2>/dev/null
	snap
	produce /tmp/src.1m | stealprobe splice -M $M/o >/dev/null
	head -c 2097152 /dev/zero | tail -c 1048576 > /tmp/zero.1m
	cat /tmp/src.1m /tmp/zero.1m > /tmp/o.expect
	check "overwrite existing pages: data intact" cmp /tmp/o.expect $M/o
	check "overwrite existing pages: stolen over the old ones" test "$(delta stolen_anon)" = 256
	snap
	produce /tmp/zero.1m | stealprobe splice -M -m $M/o > /tmp/check.out 2>&1
	r=$?; [ $r = 0 ] || sed 's/^/# /' /tmp/check.out
	ok $r "overwrite pages mapped by a process: the mapping sees the new data"
	check "overwrite mapped pages: copied, not stolen" test "$(delta stolen_anon)" = 0 -a "$(delta refused_mapped)" = 256
	dd if=/tmp/src.1m of=$M/o bs=64k conv=notrunc 2>/dev/null
	truncate -s 5000 $M/a
	head -c 5000 /tmp/src > /tmp/t.expect
	check "truncate down" cmp /tmp/t.expect $M/a
	head -c 15000 /dev/zero >> /tmp/t.expect
	truncate -s 20000 $M/a
	check "truncate up reads zeros" cmp /tmp/t.expect $M/a
	check "mmap of stolen pages" stealprobe mmap $M/o
	mv $M/o $M/o2
	check "rename" test ! -e $M/o -a -f $M/o2
	check "renamed file intact" cmp /tmp/o.expect $M/o2
	rm $M/o2
	check "unlink" test ! -e $M/o2
	mkdir $M/dir && touch $M/dir/x && rm $M/dir/x
	check "mkdir/rmdir" rmdir $M/dir
	check "df" df $M
	check "umount" umount $M
}

# mount options: mode= and size=
section_size() {
	mount -t stealfs -o mode=1770,size=1m none $M
	check "mode=1770" test "$(stat -c %a $M)" = 1770
	check "size=1m in /proc/mounts" grep -q "$M stealfs .*size=1024k" /proc/mounts
	check "size=1m: writing 2 MiB fails" sh -c "! dd if=/tmp/src of=$M/big bs=64k count=32 2>/dev/null"
	rm -f $M/big
	check "size=1m: 1 MiB fits" cp /tmp/src.1m $M/fits
	produce /tmp/src.1m | stealprobe splice -M $M/more > /dev/null 2>&1
	check "size=1m: a spliced file cannot grow past it" test "$(stat -c %s $M/more)" = 0
	check "size=1m: statfs shows it full" test "$(stat -f -c %f $M)" = 0
	rm -f $M/fits $M/more
	check "size=1m: space comes back after rm" test "$(stat -f -c %f $M)" = 256
	umount $M
}

# (h) mount option validation.  Every bad option must be refused with EINVAL
# and mount nothing, through mount(2)'s data string and through fsconfig(2);
# good ones show in /proc/mounts; a remount changes size= and steal=, keeps
# mode= only when it is unchanged, and applies nothing when it fails.
# stealprobe prints OK or the errno's name (see contrib/stealfs/tests/stealprobe.c).
section_options() {
	# refused HOW DATA...: mounting with DATA (HOW: mount = mount(2) data string,
	# fsconfig = fsconfig(2) parameters) fails with EINVAL and mounts nothing.
	refused() {
		how=$1; shift
		r=$(stealprobe $how $M "$@" | head -n 1)
		if [ "$r" = EINVAL ] && ! mounted; then
			ok 0 "$how '$*' refused with EINVAL"
		else
			echo "# $how '$*': $r; /proc/mounts: $(fsopts)"
			mounted && umount $M
			ok 1 "$how '$*' refused with EINVAL"
		fi
	}
	# accepted HOW SHOWN DATA...: mounting with DATA succeeds and /proc/mounts
	# shows exactly the options SHOWN; unmounts again.
	accepted() {
		how=$1 want=$2; shift 2
		r=$(stealprobe $how $M "$@" | head -n 1)
		got=$(fsopts)
		mounted && umount $M
		[ "$r" = OK ] && [ "$got" = "$want" ]
		r2=$?
		[ $r2 = 0 ] || echo "# $how '$*': $r, shows '$got', want '$want'"
		ok $r2 "$how '$*' accepted, shows '$want'"
	}
	# remount_refused DATA: a remount with DATA fails with EINVAL and changes
	# nothing.
	remount_refused() {
		before=$(fsopts) mode_before=$(stat -c %a $M)
		r=$(stealprobe mount -r $M "$1")
		[ "$r" = EINVAL ] && [ "$(fsopts)" = "$before" ] &&
			[ "$(stat -c %a $M)" = "$mode_before" ]
		r2=$?
		[ $r2 = 0 ] || echo "# remount '$1': $r, options '$before' -> '$(fsopts)'"
		ok $r2 "remount '$1' refused with EINVAL, options unchanged"
	}
	# remount_to DATA SHOWN: a remount with DATA succeeds and shows SHOWN.
	remount_to() {
		r=$(stealprobe mount -r $M "$1")
		[ "$r" = OK ] && [ "$(fsopts)" = "$2" ]
		r2=$?
		[ $r2 = 0 ] || echo "# remount '$1': $r, shows '$(fsopts)', want '$2'"
		ok $r2 "remount '$1' accepted, shows '$2'"
	}

	mounted && umount $M
	for data in 'size=' size 'size=k' 'size=K' 'size=-1' 'size=-0' 'size=+1' \
		'size= 1' 'size=1 ' 'size=1x' 'size=1kb' 'size=1k1' 'size=12abc' \
		'size=0x10' 'size=1.5m' 'size=18446744073709551616' \
		'size=99999999999999999999999' 'size=16E' 'size=16384P' \
		'size=17179869184G' 'size=18446744073709551615' \
		'size=18446744073709547521' \
		'mode=' mode 'mode=8' 'mode=0789' 'mode=10000' 'mode=177777' \
		'mode=-1' 'mode=+755' 'mode=0x1ff' 'mode=u+rwx' 'mode=755 ' \
		'mode=99999999999999999999999' \
		'steal=' steal 'steal=yes' 'steal=ON' 'steal=1' 'steal=onx' \
		'bogus=1' bogus nosteal nosize 'size=1m,bogus' 'size=1m,mode=8' \
		'steal=on,steal=maybe' 'mode=700,,size=k' \
		'size=%' 'size=1k%' 'size=50%%' 'size=-5%' 'size=1%k' 'size=5 %' \
		'size=4503599627370496%' 'size=99999999999999999999%' \
		'nr_inodes=' nr_inodes 'nr_inodes=k' 'nr_inodes=-1' 'nr_inodes=+1' \
		'nr_inodes=1x' 'nr_inodes=1.5k' 'nr_inodes=0x10' 'nr_inodes=10%' \
		'nr_inodes=16E' 'nr_inodes=18446744073709551616' 'nr_inodes=1kb'; do
		refused mount "$data"
	done
	check "legacy mount(2): the refusal says why in the kernel log" \
		sh -c "dmesg | grep -q \"stealfs: .*size 'k'\" && dmesg | grep -q \"stealfs: .*mode '10000'\""
	check "busybox mount -o size=1q: refused, nothing mounted" \
		sh -c "! mount -t stealfs -o size=1q none $M 2>/dev/null && ! grep -q ' $M ' /proc/mounts"
	for p in size=k size size:fd size:bin=1m size:path=/tmp mode=10000 mode:fd \
		steal steal=yes steal:bin=on bogus=1 nr_inodes=k nr_inodes nr_inodes:fd \
		size=1k%; do
		refused fsconfig "$p"
	done
	out=$(stealprobe fsconfig $M size=1z)
	check "fsconfig: the refusal says why in the context log" \
		sh -c "echo \"\$1\" | grep -q \"^log: e stealfs: .*size '1z'\"" - "$out"
	[ $? = 0 ] || echo "$out" | sed 's/^/# /'

	accepted mount "$DEF" ''
	accepted mount "size=0k,nr_inodes=$DEF_INODES" size=0
	accepted mount "size=4k,nr_inodes=$DEF_INODES" size=1
	accepted mount "size=4k,nr_inodes=$DEF_INODES" size=4096
	accepted mount "size=8k,nr_inodes=$DEF_INODES" size=4097
	accepted mount "size=4k,nr_inodes=$DEF_INODES" size=1k
	accepted mount "size=4k,nr_inodes=$DEF_INODES" size=1K
	accepted mount "size=2048k,nr_inodes=$DEF_INODES" size=2M
	accepted mount "size=1048576k,nr_inodes=$DEF_INODES" size=1g
	accepted mount "size=1073741824k,nr_inodes=$DEF_INODES" size=1T
	accepted mount "size=16888498602639360k,nr_inodes=$DEF_INODES" size=15E
	accepted mount "size=18014398509481980k,nr_inodes=$DEF_INODES" size=18446744073709547520
	accepted mount "size=2048k,nr_inodes=$DEF_INODES" size=0002m
	accepted mount "$DEF,mode=0" mode=0
	accepted mount "$DEF,mode=7777" mode=7777
	accepted mount "$DEF" mode=00755
	accepted mount "$DEF,mode=700" mode=0000700
	accepted mount "$DEF,steal=off" steal=off
	accepted mount "$DEF" steal=on
	accepted mount "size=2048k,nr_inodes=$DEF_INODES" size=1m,size=2m
	accepted mount "size=0k,nr_inodes=$DEF_INODES" size=1m,size=0
	accepted mount "$DEF" steal=off,steal=on
	accepted mount "size=1024k,nr_inodes=$DEF_INODES,mode=1770,steal=off" steal=off,mode=1770,size=1m
	accepted fsconfig "size=1024k,nr_inodes=$DEF_INODES,mode=700,steal=off" size=1m mode=700 steal=off
	accepted fsconfig "size=4k,nr_inodes=$DEF_INODES" size=1 size=4096
	# nr_inodes= as tmpfs takes it; size=N% is N% of the RAM, rounded
	# down to bytes, then up to pages, as tmpfs computes it
	accepted mount "$DEF_SIZE,nr_inodes=1024" nr_inodes=1k
	accepted mount "$DEF_SIZE,nr_inodes=2097152" nr_inodes=2M
	accepted mount "$DEF_SIZE,nr_inodes=7" nr_inodes=7
	accepted mount "$DEF_SIZE,nr_inodes=0" nr_inodes=0
	accepted mount "$DEF_SIZE,nr_inodes=18446744073709551615" nr_inodes=18446744073709551615
	accepted fsconfig "size=8k,nr_inodes=5" size=8k nr_inodes=5
	for pct in 50 100 1 37 0 250; do
		accepted mount "size=$(pct_kb $pct)k,nr_inodes=$DEF_INODES" size=$pct%
	done
	accepted mount "size=$(pct_kb 25)k,nr_inodes=9,mode=700" size=25%,nr_inodes=9,mode=700
	stealprobe mount $M size=18446744073709547520 >/dev/null
	check "size=16E-4096: statfs reports 2^52-1 blocks" test "$(stat -f -c %b $M)" = 4503599627370495
	umount $M
	stealprobe mount $M size=1m,mode=1770,steal=off > /dev/null
	shown=$(fsopts)
	umount $M
	stealprobe mount $M "$shown" > /dev/null
	check "the options /proc/mounts shows mount the same ($shown)" test "$(fsopts)" = "$shown"
	umount $M

	# remount
	stealprobe mount $M size=1m,mode=1770,steal=off > /dev/null
	remount_to size=2m "size=2048k,nr_inodes=$DEF_INODES,mode=1770,steal=off"
	remount_to steal=on "size=2048k,nr_inodes=$DEF_INODES,mode=1770"
	remount_to mode=1770 "size=2048k,nr_inodes=$DEF_INODES,mode=1770"
	remount_to '' "size=2048k,nr_inodes=$DEF_INODES,mode=1770"
	remount_refused mode=700
	remount_refused mode=0
	remount_refused size=k
	remount_refused mode=10000
	remount_refused steal=maybe
	remount_refused size=3m,bogus=1
	remount_refused steal=off,mode=700
	check "remount: refusing mode= says why" sh -c "dmesg | grep -q 'stealfs: .*mode.*remount'"
	cp /tmp/src.1m $M/one
	remount_refused size=512k
	check "remount below the data: says why" sh -c "dmesg | grep -q 'stealfs: .*smaller than'"
	remount_to size=0 "size=0k,nr_inodes=$DEF_INODES,mode=1770"
	# 2^63 - 1 is the largest size truncate(2) takes; rounding it up to pages
	# must not overflow: 2^51 pages are accounted (statfs shows them under the
	# largest size=, 2^52 - 1 pages), and removing the file gives them back.
	# (stat's block count is the pages in memory, not what is accounted.)
	check "truncate to 2^63-1 without size=" truncate -s 9223372036854775807 $M/huge
	remount_to size=18446744073709547520 "size=18014398509481980k,nr_inodes=$DEF_INODES,mode=1770"
	check "size=16E-4096 with the 2^63-1 file: 2^51 + 256 pages in use" \
		test "$(stat -f -c %f $M)" = 2251799813684991
	rm -f $M/huge
	check "rm of the 2^63-1 file gives 2^51 pages back" \
		test "$(stat -f -c %f $M)" = 4503599627370239
	remount_to size=2m "size=2048k,nr_inodes=$DEF_INODES,mode=1770"
	check "size=2m after that: 1 MiB in use" test "$(stat -f -c %f $M)" = 256
	remount_to size=0 "size=0k,nr_inodes=$DEF_INODES,mode=1770"
	chmod 755 $M
	check "busybox mount -o remount,size=3m (it re-sends mode=1770)" mount -o remount,size=3m $M
	check "busybox remount: size=3072k, mode= kept" test "$(fsopts)" = "size=3072k,nr_inodes=$DEF_INODES,mode=1770"
	check "remount ro" mount -o remount,ro $M
	check "ro: writing fails" sh -c "! touch $M/ro 2>/dev/null"
	check "remount rw" mount -o remount,rw $M
	out=$(stealprobe fsconfig -r $M mode=700)
	check "fspick/fsconfig remount mode=700 refused with a message" \
		sh -c "echo \"\$1\" | head -n 1 | grep -qx EINVAL && echo \"\$1\" | grep -q '^log: e stealfs: .*mode'" - "$out"
	[ $? = 0 ] || echo "$out" | sed 's/^/# /'
	check "fspick/fsconfig remount size=k refused" test "$(stealprobe fsconfig -r $M size=k | head -n 1)" = EINVAL
	check "fspick/fsconfig remount size=2m steal=off" \
		sh -c "test \"\$(stealprobe fsconfig -r $M size=2m steal=off | head -n 1)\" = OK"
	check "fspick/fsconfig remount shows size=2048k,mode=1770,steal=off" test "$(fsopts)" = "size=2048k,nr_inodes=$DEF_INODES,mode=1770,steal=off"
	# writers racing remounts that move the limit
	rm -f /tmp/race.fail
	(j=0; while [ $j -lt 40 ]; do
		stealprobe mount -r $M size=64m > /dev/null
		stealprobe mount -r $M size=0 > /dev/null
		j=$((j + 1))
	done) &
	remounter=$!
	j=0
	while [ $j -lt 20 ]; do
		produce /tmp/src.1m | stealprobe splice -M $M/race > /dev/null 2>&1 || echo $j >> /tmp/race.fail
		rm -f $M/race
		j=$((j + 1))
	done
	wait $remounter
	check "writers racing remounts of size=: no failure" test ! -e /tmp/race.fail
	check "the counters are read-only" sh -c "! echo 1 2>/dev/null > $S/copied"
	umount $M
	check "no kernel warning after the option storm" \
		sh -c "! dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace|general protection|KASAN|Kernel panic'"
}

# (l) limits like tmpfs: size= (default half the RAM) and nr_inodes=
# (default half the RAM's pages), ENOSPC when reached by any route -- write,
# splice stealing pipe or page-cache pages, vmsplice gifts, creations and
# hard links -- for an unprivileged user too, with no OOM kill; statfs and
# /proc/mounts show the limits; a remount grows or shrinks them, never
# below the use.
section_limits() {
	oom0=$(oom_kills)
	# (1) the defaults, against tmpfs's own
	mount -t stealfs none $M
	check "default options shown: $DEF (MemTotal $(meminfo MemTotal) kB)" test "$(fsopts)" = "$DEF"
	mkdir -p /tmp/tmpfs
	mount -t tmpfs none /tmp/tmpfs
	check "default size= and nr_inodes= are tmpfs's (statfs blocks, inodes: $(stat -f -c '%b %c' /tmp/tmpfs))" \
		test "$(stat -f -c '%b %c' $M)" = "$(stat -f -c '%b %c' /tmp/tmpfs)"
	umount /tmp/tmpfs
	for pct in 50 37 1; do
		mount -t tmpfs -o size=$pct% none /tmp/tmpfs
		stealprobe mount -r $M size=$pct% > /dev/null
		check "size=$pct%: the blocks tmpfs gets ($(stat -f -c %b /tmp/tmpfs))" \
			test "$(stat -f -c %b $M)" = "$(stat -f -c %b /tmp/tmpfs)"
		umount /tmp/tmpfs
	done
	stealprobe mount -r $M "$DEF_SIZE" > /dev/null
	check "statfs: blocks, free, inodes, free inodes (the root's taken)" \
		test "$(stat -f -c '%b %f %c %d' $M)" = "$((RAM_PAGES / 2)) $((RAM_PAGES / 2)) $DEF_INODES $((DEF_INODES - 1))"
	check "df -k: the size in KiB" sh -c "df -k $M | awk 'NR == 2 { exit !(\$2 == $((RAM_PAGES / 2 * 4))) }'"

	# (2) nobody fills the default mount with write(2): ENOSPC at the limit
	chmod 1777 $M
	as_nobody dd if=/dev/zero of=$M/fill bs=1M > /tmp/fill.out 2>&1
	r=$?
	sed 's/^/# dd: /' /tmp/fill.out
	check "nobody fills the default mount: dd fails with ENOSPC" \
		sh -c "test $r != 0 && grep -q 'No space left on device' /tmp/fill.out"
	check "the file holds the default size, $((RAM_PAGES / 2)) pages" \
		test "$(stat -c %s $M/fill)" = $((RAM_PAGES / 2 * 4096))
	check "statfs: no block free" test "$(stat -f -c %f $M)" = 0
	check "one more byte: ENOSPC" sh -c "! stealprobe as 65534 sh -c 'echo x > $M/x' 2>/dev/null"
	check "no OOM kill (vmstat oom_kill, kernel log): $oom0 -> $(oom_kills)" test "$(oom_kills)" = "$oom0"
	rm -f $M/fill $M/x
	check "rm: every block free again" test "$(stat -f -c %f $M)" = $((RAM_PAGES / 2))
	umount $M

	# (3) size=8m filled by nobody through every route
	mount -t stealfs -o size=8m none $M
	chmod 1777 $M
	snap
	produce /tmp/src | as_nobody stealprobe splice -M $M/steal > /tmp/lim.out 2>&1
	sed 's/^/# splicer: /' /tmp/lim.out
	st=$(delta stolen_anon)
	check "size=8m, pipe -> stealfs with SPLICE_F_MOVE: ENOSPC after 8 MiB" \
		sh -c "grep -qx 'error ENOSPC' /tmp/lim.out && grep -qx 'spliced 8388608' /tmp/lim.out"
	check "size=8m: $st pages stolen, and counted: 2048 blocks used, none free" \
		test "$st" -gt 0 -a "$(stat -f -c '%b %f' $M)" = "2048 0"
	check "size=8m: the stolen file is intact" sh -c "head -c 8388608 /tmp/src | cmp - $M/steal"
	rm -f $M/steal
	cp /tmp/src $E/lsrc
	chmod 644 $E/lsrc
	drop_caches
	snap
	as_nobody stealprobe filemove -M $E/lsrc $M/pc > /tmp/lim.out 2>&1
	sed 's/^/# filemove: /' /tmp/lim.out
	sp=$(delta stolen_pagecache)
	check "size=8m, ext4 file -> stealfs with SPLICE_F_MOVE: ENOSPC after 8 MiB" \
		sh -c "grep -q 'No space left on device' /tmp/lim.out && test \$(stat -c %s $M/pc) = 8388608"
	check "size=8m: $sp page-cache pages stolen, and counted: none free" \
		test "$sp" -gt 0 -a "$(stat -f -c %f $M)" = 0
	check "size=8m: the file is intact" sh -c "head -c 8388608 /tmp/src | cmp - $M/pc"
	check "the ext4 source is intact" cmp /tmp/src $E/lsrc
	rm -f $M/pc $E/lsrc
	stealprobe mount -r $M size=512k > /dev/null
	as_nobody stealprobe gift 1M $M/gift > /tmp/lim.out 2>&1
	sed 's/^/# gift: /' /tmp/lim.out
	check "size=512k, vmsplice gift of 1 MiB: ENOSPC after 512 KiB" \
		sh -c "grep -qx 'error ENOSPC' /tmp/lim.out && test \$(stat -c %s $M/gift) = 524288"
	rm -f $M/gift
	as_nobody dd if=/tmp/src of=$M/w bs=100000 > /tmp/lim.out 2>&1
	check "size=512k, write: ENOSPC with the file at 512 KiB" \
		sh -c "grep -q 'No space left on device' /tmp/lim.out && test \$(stat -c %s $M/w) = 524288"
	check "size=512k, truncate beyond it: ENOSPC" sh -c "! stealprobe as 65534 truncate -s 1m $M/t 2>/dev/null"
	rm -f $M/w $M/t
	check "size=512k: all free again" test "$(stat -f -c %f $M)" = 128
	check "still no OOM kill: $(oom_kills)" test "$(oom_kills)" = "$oom0"
	umount $M

	# (4) nr_inodes=8: the root and 7 more, by every kind of creation;
	# hard links take one each, as on tmpfs
	mount -t stealfs -o nr_inodes=8,size=1m none $M
	chmod 1777 $M
	as_nobody sh -c "cd $M && touch f1 f2 f3 f4 && mkdir d && mkfifo p && ln -s target l" > /tmp/lim.out 2>&1
	r=$?
	sed 's/^/# /' /tmp/lim.out
	ok $r "nr_inodes=8: files, a directory, a fifo and a symlink fill it"
	check "statfs: 8 inodes, none free" test "$(stat -f -c '%c %d' $M)" = "8 0"
	check "the symlink reads back" test "$(readlink $M/l)" = target
	for op in "touch $M/f5" "mkdir $M/d2" "mkfifo $M/p2" "ln -s target $M/l2" "ln $M/f1 $M/h"; do
		check "nr_inodes full: '$op' fails with ENOSPC" \
			sh -c "! stealprobe as 65534 $op 2> /tmp/op.err && grep -q 'No space left on device' /tmp/op.err"
	done
	check "nr_inodes full: mknod as root fails too" sh -c "! mknod $M/c c 1 3 2>/dev/null"
	rm -f $M/f1
	check "rm gives its inode back" test "$(stat -f -c %d $M)" = 1
	check "a hard link takes it" ln $M/f2 $M/h
	check "... and then nothing fits" sh -c "test $(stat -f -c %d $M) = 0 && ! touch $M/f5 2>/dev/null"
	mv $M/f3 $M/h
	check "a rename over the extra link gives its slot back" test "$(stat -f -c %d $M)" = 1
	rm -f $M/h
	check "rm of the renamed file frees its inode" test "$(stat -f -c %d $M)" = 2
	umount $M

	# (5) a symlink's target is a block: size=4k holds one
	mount -t stealfs -o size=4k,nr_inodes=10 none $M
	check "size=4k: a symlink takes the block" sh -c "ln -s one $M/l1 && test \$(stat -f -c %f $M) = 0"
	check "size=4k: the second symlink: ENOSPC" sh -c "! ln -s two $M/l2 2> /tmp/op.err && grep -q 'No space left on device' /tmp/op.err"
	check "size=4k: its inode is given back" test "$(stat -f -c %d $M)" = 8
	umount $M

	# (6) remount: grow, shrink down to the use, never below.
	# remounted DATA WANT SHOWN: a remount with DATA gives WANT (OK or
	# EINVAL) and /proc/mounts shows SHOWN after it.
	remounted() { [ "$(stealprobe mount -r $M "$1")" = "$2" ] && [ "$(fsopts)" = "$3" ]; }
	mount -t stealfs -o size=1m,nr_inodes=4 none $M
	head -c 524288 /tmp/src > $M/a
	touch $M/b $M/c
	check "remount size=2m: grows" remounted size=2m OK size=2048k,nr_inodes=4
	check "size=2m: statfs blocks, free" test "$(stat -f -c '%b %f' $M)" = "512 384"
	check "remount size=512k (the use): shrinks" remounted size=512k OK size=512k,nr_inodes=4
	check "size=512k: statfs blocks, free" test "$(stat -f -c '%b %f' $M)" = "128 0"
	check "then one more page: ENOSPC" sh -c "! echo x 2>/dev/null > $M/b"
	check "remount size=256k (below the use): EINVAL, size unchanged" \
		remounted size=256k EINVAL size=512k,nr_inodes=4
	check "the refusal says why" sh -c "dmesg | grep -q 'stealfs: size 256k is smaller than the data (512k)'"
	check "busybox mount -o remount,size=1k: fails" \
		sh -c "! mount -o remount,size=1k $M 2>/dev/null"
	check "busybox mount -o remount,size=1k: size unchanged" test "$(fsopts)" = size=512k,nr_inodes=4
	check "remount nr_inodes=3 (below the use): EINVAL" \
		remounted nr_inodes=3 EINVAL size=512k,nr_inodes=4
	check "the refusal says why" sh -c "dmesg | grep -q 'stealfs: nr_inodes 3 is smaller than the inodes in use (4)'"
	check "remount size=256k,nr_inodes=100: refused as a whole" \
		remounted size=256k,nr_inodes=100 EINVAL size=512k,nr_inodes=4
	check "remount nr_inodes=5: grows" remounted nr_inodes=5 OK size=512k,nr_inodes=5
	check "nr_inodes=5: one more file fits, not two" sh -c "touch $M/d && ! touch $M/e 2>/dev/null"
	check "remount size=0,nr_inodes=0: no limits" remounted size=0,nr_inodes=0 OK size=0k,nr_inodes=0
	check "no limits: statfs shows none" test "$(stat -f -c '%b %c' $M)" = "0 0"
	check "no limits: another file" touch $M/e
	check "remount size=600k,nr_inodes=6: limits again, above the use" \
		remounted size=600k,nr_inodes=6 OK size=600k,nr_inodes=6
	check "size=600k,nr_inodes=6: statfs blocks, free, inodes, free" \
		test "$(stat -f -c '%b %f %c %d' $M)" = "150 22 6 0"
	check "remount size=50%" remounted size=50% OK "size=$(pct_kb 50)k,nr_inodes=6"
	umount $M
	# creations, links and removals racing remounts that move nr_inodes=
	# between 64 and no limit: none fails, and the count comes back to the
	# root alone
	mount -t stealfs -o nr_inodes=64 none $M
	rm -f /tmp/race.fail
	(j=0; while [ $j -lt 40 ]; do
		stealprobe mount -r $M nr_inodes=0 > /dev/null
		stealprobe mount -r $M nr_inodes=64 > /dev/null
		j=$((j + 1))
	done) &
	remounter=$!
	j=0
	while [ $j -lt 10 ]; do
		(cd $M && touch a b c d e f g h i j && mkdir k && ln a l && ln -s a m &&
			mv b l && rm -rf a c d e f g h i j k l m) || echo $j >> /tmp/race.fail
		j=$((j + 1))
	done
	wait $remounter
	check "creations racing remounts of nr_inodes=: no failure" test ! -e /tmp/race.fail
	check "after them: the root's inode only (63 of 64 free)" test "$(stat -f -c '%c %d' $M)" = "64 63"
	umount $M
	check "no OOM kill in this section: $(oom_kills)" test "$(oom_kills)" = "$oom0"
}

# (e) the memory comes back after umount.  The page cache ("Cached") must
# grow by the 32 MiB and shrink back; free memory (MemFree plus the pages
# parked on the per-CPU free lists, which MemFree leaves out) is compared
# after a warm-up cycle and three more: a leak would show as 96 MiB, noise
# stays under the 4 MiB bound.
section_memback() {
	# mem_cycle: mounts, stores 32 MiB of stolen pages, unmounts; sets c0 c1 c2.
	mem_cycle() {
		drop_caches
		c0=$(meminfo Cached)
		mount -t stealfs none $M
		stealprobe pattern 32M | pipe_move $M/mem
		drop_caches
		c1=$(meminfo Cached)
		umount $M
		drop_caches
		c2=$(meminfo Cached)
	}
	mem_cycle
	snap0=$(mem_snap)
	cached_ok=0
	for i in 1 2 3; do
		mem_cycle
		echo "# cycle $i: Cached kB before $c0, with 32 MiB stolen $c1, after umount $c2"
		[ $((c1 - c0)) -ge 32000 ] && [ $((c2 - c0)) -le 1024 ] || cached_ok=1
	done
	ok $cached_ok "32 MiB held in the page cache while mounted, given back at umount"
	mem_back "$snap0"
	ok $? "free memory back after umount, within 4 MiB after 3 x 32 MiB ($mem_note)"
}

# (f) process accounting on tmpfs and on stealfs
section_acct() {
	mount -t stealfs none $M
	if [ -x /bin/acctpin ]; then
		check "acctpin run --fs tmpfs" acctpin run --fs tmpfs
		check "acctpin run on stealfs" acctpin run --dir $M
	fi
	: > $M/acct
	check "acct into stealfs" stealprobe acct $M/acct
	/bin/true; /bin/true
	stealprobe acct -
	sz=$(stat -c %s $M/acct)
	check "acct records: $sz bytes, 64 each" test "$sz" -gt 0 -a $((sz % 64)) = 0
	check "acct record version 3" test "$(od -An -tu1 -j1 -N1 $M/acct | tr -d ' ')" = 3
	: > $M/acct2
	stealprobe acct $M/acct2
	check "umount stealfs while accounting to it" umount $M
	stealprobe acct - 2>/dev/null
}

# (g) load/unload 20 times (the counters restart from zero)
section_reload() {
	base_anon=$(cat $S/stolen_anon) base_pc=$(cat $S/stolen_pagecache) base_cp=$(cat $S/copied)
	i=0 bad=0
	while [ $i -lt 20 ]; do
		rmmod stealfs || bad=1
		[ -e $S ] && bad=1
		insmod $KO || bad=1
		[ -r $S/stolen_anon ] || bad=1
		i=$((i + 1))
	done
	ok $bad "rmmod/insmod 20 times"
}

# (g) stress: concurrent writers, readers, truncation and drop_caches
section_stress() {
	mount -t stealfs none $M
	stealprobe pattern 2M > /tmp/pat2m
	rm -f /tmp/stress.fail
	writer() {
		j=0
		while [ $j -lt 15 ]; do
			rm -f $M/w$1
			produce /tmp/pat2m | stealprobe splice -M $M/w$1 >/dev/null
			cmp -s /tmp/pat2m $M/w$1 || echo "writer $1 pass $j" >> /tmp/stress.fail
			j=$((j + 1))
		done
	}
	reader() {
		j=0
		while [ $j -lt 30 ]; do
			cat $M/w* > /dev/null 2>&1
			j=$((j + 1))
		done
	}
	truncator() {
		j=0
		while [ $j -lt 15 ]; do
			produce /tmp/pat2m | stealprobe splice -M $M/t >/dev/null
			truncate -s $((j * 4096 + 100)) $M/t
			j=$((j + 1))
		done
	}
	dropper() {
		j=0
		while [ $j -lt 15 ]; do drop_caches; j=$((j + 1)); done
	}
	snap
	writer 1 & w1=$!
	writer 2 & w2=$!
	reader & w3=$!
	truncator & w4=$!
	dropper & w5=$!
	wait $w1 $w2 $w3 $w4 $w5
	counts
	check "stress: no data mismatch" test ! -e /tmp/stress.fail
	[ -e /tmp/stress.fail ] && sed 's/^/# /' /tmp/stress.fail
	check "stress: pages stolen" test "$(delta stolen_anon)" -gt 0
	umount $M
}

# The splicer in a group at memory.max (16 MiB), 64 MiB to move: it must
# end, with the data that fits moved and ENOMEM for the rest, without an
# OOM kill (stealfs' charges give up instead of invoking the OOM killer).
# Before the fix this hung the 6.12 guest: the failed charge left the page
# locked and stealfs locked it again (D state, holding the pipe and the
# inode locks), and 6.1 kept running OOM kills.
section_memcg_limit() {
	for where in outside inside; do
		mount -t stealfs none $M
		cg_new lim
		echo 16M > $CG/lim/memory.max
		kb0=$(cg_kb lim)
		pg=.
		[ $where = inside ] && pg=lim && kmsg expect-oom begin
		snap
		start_move lim $M/lim /tmp/lim.out $pg stealprobe pattern 64M
		end_move 60
		[ $where = inside ] && kmsg expect-oom end
		counts
		sed -n 's/^\([a-z]\)/# splicer: \1/p' /tmp/lim.out
		tc="memory.max=16M, producer $where"
		check "$tc: the splice ends within 60 s (status $status)" test $status != 124
		if [ $where = outside ]; then
			check "$tc: ENOMEM once the group is full, after moving some" \
				sh -c "grep -qx 'error ENOMEM' /tmp/lim.out && test -s $M/lim"
			check "$tc: the refused charge is counted (refused_charge)" \
				test "$(delta refused_charge)" -ge 1
			check "$tc: no OOM kill" test "$(cg_event lim oom_kill)" = 0
		else
			# the producer's pipe pages are charged to the group too: its
			# write may be the one that fails, and OOM-kills it
			check "$tc: the splicer ends or fails with ENOMEM" \
				sh -c "test $status = 0 || grep -qx 'error ENOMEM' /tmp/lim.out"
		fi
		check "$tc: the file is what the splicer reports, intact" \
			sh -c "grep -qx \"spliced \$(stat -c %s $M/lim)\" /tmp/lim.out && stealprobe pattern \$(stat -c %s $M/lim) | cmp - $M/lim"
		check "$tc: stolen + copied = the file's pages" moved_all $M/lim
		umount $M
		kb1=$(cg_kb lim)
		check "$tc: the group's memory back after umount ($kb0 -> $kb1 KiB)" \
			test $((kb1 - kb0)) -le 1024
	done
}

# A memcg OOM kill of the splicer in the middle of a 64 MiB move: the
# producer writes 8 MiB and stops itself; once it has stopped and the
# splicer has moved the 8 MiB (no charge in flight then), memory.max drops
# below the group's use, and the kernel OOM-kills the splicer (the group's
# only task) where it waits in splice() for the rest.  It must end, leaving
# the 8 MiB intact.  (Lowering the limit while pages move would let the
# splicer's own charge fail first: it would stop with ENOMEM instead.)
section_memcg_oom() {
	mount -t stealfs none $M
	cg_new oomk
	kb0=$(cg_kb oomk)
	snap
	start_move oomk $M/oomk /tmp/oomk.out . sh -c \
		'stealprobe pattern 8M; kill -STOP $$; stealprobe pattern 56M'
	w=0
	while { [ "$(stat -c %s $M/oomk 2>/dev/null || echo 0)" -lt 8388608 ] ||
		[ "$(task_state $prod)" != T ]; } && [ $w -lt 600 ] && ! ended $spl; do
		sleep 0.1
		w=$((w + 1))
	done
	kmsg expect-oom begin
	echo 4M > $CG/oomk/memory.max &
	lower=$!
	wait_bounded $spl 30; status=$?
	kill -CONT $prod
	wait_bounded $prod 30
	wait_bounded $lower 30
	[ $stuck = 0 ] || bail "a task of the OOM kill test cannot be ended (see its stack above)"
	kmsg expect-oom end
	counts
	tc="memcg OOM kill mid-move"
	check "$tc: the splicer is killed and ends within 30 s (status $status)" test $status = 137
	check "$tc: the OOM kill is counted ($(cg_event oomk oom_kill))" test "$(cg_event oomk oom_kill)" -ge 1
	check "$tc: the 8 MiB moved, intact ($(stat -c %s $M/oomk) bytes)" \
		sh -c "stealprobe pattern 8M | cmp - $M/oomk"
	check "$tc: stolen + copied = the file's pages" moved_all $M/oomk
	umount $M
	kb1=$(cg_kb oomk)
	check "$tc: the group's memory back after umount ($kb0 -> $kb1 KiB)" \
		test $((kb1 - kb0)) -le 1024
}

# pcp_kb: prints the free memory on the per-CPU lists, in KiB (MemFree and
# MemAvailable leave it out).
pcp_kb() {
	awk '$1 == "count:" { s += $2 } END { print s * 4 }' /proc/zoneinfo
}
# pcp_max_kb: prints the most the per-CPU lists can hold, in KiB: per zone
# its low watermark, which the kernel shares out among the CPUs as their
# lists' high marks (6.12 tunes each up to its share), or the sum of the
# high marks shown if more.
pcp_max_kb() {
	awk 'function zone() { t += low > high ? low : high; low = high = 0 }
	     /^Node/ { zone() } $1 == "low" { low = $2 } $1 == "high:" { high += $2 }
	     END { zone(); print t * 4 }' /proc/zoneinfo
}

# Global memory pressure: a balloon leaves 16 MiB available (MemAvailable)
# and takes what is freed after, every 50 ms; then 64 MiB move into
# stealfs, plus what the per-CPU free lists can hold.  MemAvailable leaves
# those lists out, and after the sections before freed memory they may hold
# up to the low watermark's worth (55 MiB in the 6.1 guest, whose
# watermarks THP raises): pages that allocations on their CPU take first,
# and that direct reclaim drains only once it has freed something.  A
# balloon sized from MemAvailable alone left them to the 64 MiB move, which
# then fitted with no reclaim and no OOM kill.  The move completes (the OOM
# killer takes the balloon, which asks for it with oom_score_adj=1000),
# stops with ENOMEM, or is OOM-killed too (the balloon's memory may come
# back too late: the debug kernel frees it slowly); whichever, it ends, and
# what moved is intact.  The balloon is killed at the end if the kernel has
# not done it.
section_pressure() {
	snap0=$(mem_snap)
	mount -t stealfs none $M
	tc="global pressure (balloon)"
	# Watermark boosting raises the zones' floor for a while after a
	# fragmenting allocation (the balloon's own huge pages do it), by
	# more than the 16 MiB of MemAvailable the balloon leaves: the debug
	# kernel once OOM-killed it before it was ready (free 50616 kB, min
	# 51200 kB of which boost 28672 kB).  Off while the balloon is up.
	wb_knob=/proc/sys/vm/watermark_boost_factor
	wb_was=$(cat $wb_knob 2> /dev/null)
	[ -n "$wb_was" ] && echo 0 > $wb_knob
	kmsg expect-oom begin
	sh -c 'echo 1000 > /proc/self/oom_score_adj && exec stealprobe hog 16M' > /tmp/hog.out 2>&1 &
	hog=$!
	w=0
	while ! grep -qs ready /tmp/hog.out && ! ended $hog && [ $w -lt 1800 ]; do sleep 0.1; w=$((w + 1)); done
	pcp_max=$(pcp_max_kb)
	check "$tc: the balloon holds all but 16 MiB ($(sed -n 's/^hog: ready: //p' /tmp/hog.out), $(pcp_kb) KiB on the per-CPU lists, at most $pcp_max KiB)" \
		sh -c "grep -qs ready /tmp/hog.out && test -e /proc/$hog"
	snap
	scan0=$(vm_scanned)
	start_move . $M/press /tmp/press.out . stealprobe pattern $((65536 + pcp_max))K
	end_move 120
	scan1=$(vm_scanned)
	# The kernel's log says whom the OOM killer took: a balloon of half a
	# GiB takes the debug kernel longer to free than the splice takes to
	# end (its producer may be the next one killed), so the balloon may
	# still be exiting here.
	hog_gone=no
	if ended $hog || dmesg | grep -q "Killed process $hog ("; then hog_gone=yes; fi
	kill -9 $hog 2>/dev/null
	wait_bounded $hog 30
	kmsg expect-oom end
	counts
	sed -n 's/^\([a-z]\)/# splicer: \1/p' /tmp/press.out
	# with no swap, a balloon of anonymous memory leaves little to scan
	check "$tc: memory ran short: the OOM killer took the balloon ($hog_gone), the kernel reclaimed ($((scan1 - scan0)) pages), or ENOMEM" \
		sh -c "test $hog_gone = yes || test $((scan1 - scan0)) -gt 0 || grep -qx 'error ENOMEM' /tmp/press.out"
	check "$tc: the splice ends within 120 s (status $status)" test $status != 124
	check "$tc: it completes, stops with ENOMEM or is OOM-killed" \
		sh -c "test $status = 0 -o $status = 137 || grep -qx 'error ENOMEM' /tmp/press.out"
	check "$tc: the file is what the splicer reports (if it could), intact" \
		sh -c "{ test $status = 137 || grep -qx \"spliced \$(stat -c %s $M/press)\" /tmp/press.out; } && stealprobe pattern \$(stat -c %s $M/press) | cmp - $M/press"
	check "$tc: stolen + copied = the file's pages" moved_all $M/press
	[ -n "$wb_was" ] && echo "$wb_was" > $wb_knob
	umount $M
	mem_back "$snap0"
	ok $? "$tc: free memory back after umount ($mem_note)"
}

# Who pays for a page-cache page moved into stealfs: stealfs steals only
# pages already charged to the writer's own group (then nothing is charged
# twice); a page charged to another group is copied, at the writer's cost.
section_memcg_pays() {
	mount -t stealfs none $M
	cg_new acct
	kb_start=$(cg_kb acct)
	cp /tmp/src $E/msrc
	drop_caches
	cat $E/msrc > /dev/null
	kb0=$(cg_kb acct)
	snap
	in_cg acct stealprobe filemove -M $E/msrc $M/macct > /dev/null
	kb1=$(cg_kb acct)
	counts
	tc="page cache charged to the root group, writer in a group"
	# Large folios (ext4 on 7.2) not wholly in one splice are refused as
	# large before their group is asked.
	check "$tc: refused (refused_memcg, or refused_large), not stolen" \
		test $(( $(delta refused_memcg) + $(delta refused_large) )) -ge 4000 -a "$(delta stolen_pagecache)" = 0
	check "$tc: copied, paid by the writer's group (+$((kb1 - kb0)) KiB for 16 MiB)" \
		test $((kb1 - kb0)) -ge 15360
	check "$tc: data intact" cmp /tmp/src $M/macct
	rm -f $M/macct
	drop_caches
	in_cg acct cat $E/msrc > /dev/null
	kb0=$(cg_kb acct)
	snap
	in_cg acct stealprobe filemove -M $E/msrc $M/macct > /dev/null
	kb1=$(cg_kb acct)
	counts
	st=$(delta stolen_pagecache)
	large=$(delta refused_large)
	tc="page cache charged to the writer's own group"
	# Of the 4096 pages, all can be stolen but those of large folios not
	# wholly in one splice (ext4 on 7.2; refused as large).
	check "$tc: $st pages stolen ($large in large folios refused), none refused for their group" \
		test $((st + large)) -gt 2048 -a "$st" -gt 0 -a "$(delta refused_memcg)" = 0
	check "$tc: nothing charged twice (+$((kb1 - kb0)) KiB, $(delta copied) pages copied)" \
		test $((kb1 - kb0)) -le $(( $(delta copied) * 4 + 1024 ))
	check "$tc: data intact" cmp /tmp/src $M/macct
	check "$tc: the ext4 source intact" cmp /tmp/src $E/msrc
	umount $M
	rm -f $E/msrc
	drop_caches
	kb1=$(cg_kb acct)
	check "page cache and who pays: the group's memory back after umount ($kb_start -> $kb1 KiB)" \
		test $((kb1 - kb_start)) -le 1024
}

# Destination pages with references beyond the page cache's: held by a
# pipe (vmsplice of a shared mapping, then unmapped), and pinned by an
# O_DIRECT read waiting for its bios, which io.max holds back (32 KiB at
# 1 KiB/s) until stealprobe has moved the data and lifts the limit.
section_pinned() {
	mount -t stealfs none $M
	dd if=/dev/zero of=$M/pin bs=64k count=4 2>/dev/null
	snap
	stealprobe pattern 256K | stealprobe splice -M -H $M/pin > /tmp/check.out 2>&1
	status=$?; [ $status = 0 ] || sed 's/^/# /' /tmp/check.out
	tc="destination pages referenced from a pipe"
	check "$tc: refused as pinned (refused_pinned)" \
		test "$(delta refused_pinned)" = 64 -a "$(delta stolen_anon)" = 0
	check "$tc: the file shows the new data" is_pattern $M/pin
	cg_new dio
	dev=$(cat /sys/block/loop0/dev)
	echo "$dev rbps=1024" > $CG/dio/io.max
	head -c 32768 /tmp/src > $E/dio
	sync
	dd if=/dev/zero of=$M/dio bs=32k count=1 2>/dev/null
	snap
	stealprobe pattern 32K |
		sh -c "$IN_CG" "$CG/dio" stealprobe dio-pin $E/dio $M/dio 32K \
			$CG/dio/io.max "$dev rbps=max" > /tmp/dio.out 2>&1 &
	wait_bounded $! 120; status=$?
	[ $stuck = 0 ] || bail "the O_DIRECT reader cannot be ended"
	[ $status = 0 ] || sed 's/^/# /' /tmp/dio.out
	counts
	tc="O_DIRECT read waiting for its bios into stealfs pages"
	check "$tc: the file keeps the read's data (status $status)" test $status = 0
	check "$tc: its pages refused as pinned" test "$(delta refused_pinned)" = 8
	rm -f $E/dio
	umount $M
}

# Gifts are refused whatever their pages are: anonymous memory (above),
# the shared mapping of a file, and file pages the file no longer holds
# (truncated: the pipe holds their only reference and the old
# PIPE_BUF_FLAG_LRU test took them for page-cache pages).
section_gift_file() {
	mount -t stealfs none $M
	head -c 65536 /tmp/src > /tmp/gift.expect
	for how in ext4 ext4-truncated stealfs-truncated; do
		case $how in
		ext4) gsrc=$E/gift opt= ;;
		ext4-truncated) gsrc=$E/gift opt=-t ;;
		stealfs-truncated) gsrc=$M/gift opt=-t ;;
		esac
		cp /tmp/gift.expect $gsrc
		sync
		snap
		stealprobe gift -f $gsrc $opt 64K $M/gf > /tmp/check.out 2>&1
		status=$?; [ $status = 0 ] || sed 's/^/# /' /tmp/check.out
		check "gift of a file mapping ($how): data intact" test $status = 0
		check "gift of a file mapping ($how): refused as a gift" \
			test "$(delta refused_gift)" = 16 -a $(( $(delta stolen_anon) + $(delta stolen_pagecache) )) = 0
		rm -f $gsrc $M/gf
	done
	umount $M
}

# mlocked destination pages are mapped: refused, the mapping sees the data.
section_mlock() {
	mount -t stealfs none $M
	dd if=/dev/zero of=$M/ml bs=64k count=4 2>/dev/null
	snap
	stealprobe pattern 256K | stealprobe splice -M -m -l $M/ml > /tmp/check.out 2>&1
	status=$?; [ $status = 0 ] || sed 's/^/# /' /tmp/check.out
	tc="mlocked destination pages"
	check "$tc: the mapping shows the new data" test $status = 0
	check "$tc: refused as mapped, not replaced" \
		test "$(delta refused_mapped)" = 64 -a "$(delta stolen_anon)" = 0
	check "$tc: the file shows the new data" is_pattern $M/ml
	umount $M
}

# Large folios (issue 37).  ext4 from 7.x, XFS and tmpfs with huge= cache
# file data in folios of many pages; a folio whose pages all come in one
# splice, at a file position aligned to its size, is taken whole, the rest
# copied.  Each move is preceded by reading the source into its page cache
# and recording its frames (stealprobe frames), and followed by the
# destination's: a stolen page keeps its frame, a copied one cannot, so
# the frames shared prove what moved.  A "LARGE CASE PAGES STOLEN COPIED
# SAME REFUSED_LARGE" line per case gives the figures.
#
# large_move CASE SRC DST [OFFSET]: moves SRC to DST (from OFFSET to the
# same OFFSET) with SPLICE_F_MOVE as above; sets lm_pages (pages moved),
# lm_stolen, lm_copied, lm_same (destination pages on a source frame) and
# lm_status.  The source is read into its page cache with $lm_read (default
# cat).
large_move() {
	lc=$1 lsrc=$2 ldst=$3 loff=${4:-0}
	drop_caches
	${lm_read:-cat} $lsrc > /dev/null
	lm_mig0=$(( $(vmstat pgmigrate_success) + 512 * $(vmstat thp_collapse_alloc) ))
	stealprobe frames $lsrc | tail -n +$((loff / 4096 + 1)) > /tmp/lf.before
	snap
	stealprobe filemove -M -o $loff $lsrc $ldst > /tmp/check.out 2>&1
	lm_status=$?
	[ $lm_status = 0 ] || sed 's/^/# /' /tmp/check.out
	counts
	lm_stolen=$(delta stolen_pagecache) lm_copied=$(delta copied)
	lm_pages=$(( ($(stat -c %s $lsrc) - loff + 4095) / 4096 ))
	stealprobe frames $ldst | tail -n +$((loff / 4096 + 1)) > /tmp/lf.after
	lm_same=$(same_frames /tmp/lf.before /tmp/lf.after)
	# Pages the kernel moved meanwhile (compaction, a NUMA or memory
	# policy move, khugepaged's collapse into a 2 MiB folio) left the
	# frames read before, stolen or not: a stolen page off its source
	# frame counts against stealfs only beyond them.
	lm_migrated=$(( $(vmstat pgmigrate_success) + 512 * $(vmstat thp_collapse_alloc) - lm_mig0 ))
	lm_large=$(delta refused_large)
	lm_other=$(( $(refused_all) - lm_large ))
	echo "LARGE $lc $lm_pages $lm_stolen $lm_copied $lm_same $lm_large"
}
section_large() {
	# Transparent huge pages only where asked, while frames are compared:
	# with "always" (Debian's 7.2) khugepaged may collapse a file's pages
	# into a new 2 MiB folio, a copy on new frames, between the reading
	# of its frames and the move (seen on 7.2: thp_collapse_alloc went
	# up, and 512 stolen pages were not on the frames read before).
	# Readahead's folio sizes do not depend on it.
	thp=/sys/kernel/mm/transparent_hugepage/enabled
	thp_was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $thp 2> /dev/null)
	[ "$thp_was" = always ] && echo madvise > $thp
	# Proactive compaction (kcompactd) may move clean page-cache pages
	# to other frames at any time: off while frames are compared (what
	# still moves is counted in lm_migrated).
	cp_knob=/proc/sys/vm/compaction_proactiveness
	cp_was=$(cat $cp_knob 2> /dev/null)
	[ -n "$cp_was" ] && echo 0 > $cp_knob
	mount -t stealfs none $M
	# (a) a whole clean ext4 file: large folios on 7.2, small before
	cp /tmp/src $E/lf
	drop_caches
	lf_thp0=$(meminfo FileHugePages)
	large_move ext4 $E/lf $M/lf
	lf_thp1=$(meminfo FileHugePages)
	tc="ext4 file -> stealfs, large folios taken whole"
	check "$tc: data intact" sh -c "test $lm_status = 0 && cmp /tmp/src $M/lf"
	# Folios of 2 MiB (PMD size; 7.2's readahead makes some) fit in the
	# mover's 2 MiB pipe and are taken whole too, their NR_FILE_THPS
	# count moved with them (/proc/meminfo FileHugePages, checked below).
	# A few small pages may still sit in a per-CPU LRU batch, whose
	# reference makes the steal fail (refused_busy; 6.1); a placeholder
	# the kernel could not make at the folio's size refuses it as large.
	check "$tc: $lm_stolen of $lm_pages pages stolen (at least 95%), $lm_large in folios refused as large, $lm_other refused otherwise" \
		test $((lm_stolen + lm_large + lm_other)) = "$lm_pages" -a $((lm_other * 20)) -le "$lm_pages" \
			-a $((lm_stolen * 20)) -ge $((lm_pages * 19))
	check "$tc: the $lm_stolen stolen pages are on the source's frames ($lm_same; $lm_migrated pages migrated meanwhile)" \
		test $((lm_same + lm_migrated)) -ge $((lm_stolen * 99 / 100)) -a "$lm_same" -le "$lm_stolen"
	check "$tc: every page stolen or copied once" moved_all $M/lf
	drop_caches
	check "$tc: source intact after drop_caches" cmp /tmp/src $E/lf
	check "$tc: destination intact after drop_caches" cmp /tmp/src $M/lf
	# Overwrite inside the stolen folios: small pages are not put over
	# part of a large one (refused_large), they are copied into it.
	snap
	stealprobe pattern 256K | stealprobe splice -M -o 64K $M/lf > /dev/null
	check "$tc: 256 KiB spliced over its pages at 64 KiB lands there" \
		sh -c "dd if=$M/lf bs=64k skip=1 count=4 2>/dev/null | cmp - /tmp/pat &&
		       cmp -n 65536 /tmp/src $M/lf && cmp /tmp/src $M/lf 327680 327680"
	# Truncation inside a folio: the pages beyond are gone, a later
	# extension reads zeros.
	truncate -s 1000000 $M/lf
	truncate -s 2M $M/lf
	check "$tc: truncated inside a folio and extended: zeros beyond" \
		sh -c "cmp -n 65536 /tmp/src $M/lf && cmp -n 672320 /tmp/src $M/lf 327680 327680 &&
		       dd if=$M/lf bs=1000000 skip=1 2>/dev/null > /tmp/lf.tail &&
		       head -c 1097152 /dev/zero | cmp - /tmp/lf.tail"
	check "$tc: mmap, read, write and truncate on a file of stolen folios" stealprobe mmap $M/lf
	rm -f $M/lf /tmp/lf.tail
	# FileHugePages (NR_FILE_THPS) counts the PMD-size folios in page
	# caches: the placeholder a stolen 2 MiB folio replaced must give its
	# count back, so with both files gone it is where it started.  (One
	# node and one group here: which lruvec holds the count cannot be
	# seen, only that none is left over.)
	drop_caches
	check "$tc: FileHugePages back to ${lf_thp0} kB once the files are gone (${lf_thp1} kB after the move)" \
		test "$(meminfo FileHugePages)" = "$lf_thp0"
	# (a2) the same file cached in 2 MiB (PMD-size) folios: read(2)'s
	# readahead stays below read_ahead_kb (128 KiB folios here), a fault
	# in a MADV_HUGEPAGE mapping reads ahead whole PMD folios where the
	# file system takes large folios (ext4 on 7.2).  The mover's 2 MiB
	# pipe holds one whole; stealfs takes it and moves its FileHugePages
	# count from the placeholder.  After drop_caches only stealfs's pages
	# are left, so FileHugePages then counts the 2 MiB folios stolen.
	lm_read="stealprobe hugeread"
	large_move ext4-pmd $E/lf $M/lf
	lm_read=
	drop_caches
	lf_pmd=$(meminfo FileHugePages)
	echo "# FileHugePages: $lf_pmd kB in stealfs after the move"
	tc="ext4 file in 2 MiB folios -> stealfs"
	check "$tc: data intact" sh -c "test $lm_status = 0 && cmp /tmp/src $M/lf"
	check "$tc: $lm_stolen of $lm_pages pages stolen (at least 95%), $lm_large refused as large" \
		test $((lm_stolen * 20)) -ge $((lm_pages * 19))
	check "$tc: the $lm_stolen stolen pages are on the source's frames ($lm_same; $lm_migrated pages migrated meanwhile)" \
		test $((lm_same + lm_migrated)) -ge $((lm_stolen * 99 / 100)) -a "$lm_same" -le "$lm_stolen"
	case $(uname -r) in
	7.*)
		check "$tc: 7.x: 2 MiB folios among them ($lf_pmd kB)" test "${lf_pmd:-0}" -ge 2048 ;;
	esac
	check "$tc: every page stolen or copied once" moved_all $M/lf
	check "$tc: mmap, read, write and truncate on a file of stolen 2 MiB folios" stealprobe mmap $M/lf
	rm -f $M/lf
	drop_caches
	check "$tc: FileHugePages back to ${lf_thp0} kB once the files are gone" \
		test "$(meminfo FileHugePages)" = "$lf_thp0"
	# (b) partly covered: from 12 KiB on, so that the first folio and
	# those cut by the pipe's 2 MiB are covered in part (copied)
	large_move ext4-partial $E/lf $M/lp 12288
	tc="ext4 file from 12 KiB -> stealfs (folios partly covered)"
	check "$tc: data intact" sh -c "test $lm_status = 0 && cmp /tmp/src $M/lp 12288 12288"
	check "$tc: every page stolen or copied ($lm_stolen + $lm_copied of $lm_pages)" \
		test $((lm_stolen + lm_copied)) -ge "$lm_pages"
	check "$tc: the stolen pages are on the source's frames ($lm_same of $lm_stolen; $lm_migrated migrated meanwhile)" \
		test $((lm_same + lm_migrated)) -ge $((lm_stolen * 99 / 100)) -a "$lm_same" -le "$lm_stolen"
	drop_caches
	check "$tc: source intact" cmp /tmp/src $E/lf
	rm -f $M/lp $E/lf
	# (c) tmpfs with huge pages: swap-backed, so copied whatever the size
	mkdir -p /mnt/h
	if mount -t tmpfs -o huge=always,size=64m none /mnt/h; then
		cp /tmp/src /mnt/h/h
		echo "# ShmemHugePages: $(meminfo ShmemHugePages) kB"
		large_move tmpfs-huge /mnt/h/h $M/lh
		tc="tmpfs huge=always file -> stealfs"
		check "$tc: data intact" sh -c "test $lm_status = 0 && cmp /tmp/src $M/lh"
		check "$tc: nothing stolen (swap-backed: refused_anon or large)" \
			test "$lm_stolen" = 0 -a "$lm_same" = 0
		check "$tc: the source intact" cmp /tmp/src /mnt/h/h
		umount /mnt/h
	else
		ok 1 "mount tmpfs with huge=always"
	fi
	rm -f $M/lh
	# (d) XFS, whose folios are large from 5.18 on (6.12's large folios)
	if [ -x /bin/mkfs.xfs ] && grep -qw xfs /proc/filesystems; then
		dd if=/dev/zero of=/tmp/x.img bs=1M count=0 seek=320 2>/dev/null
		mkdir -p /mnt/x
		losetup /dev/loop1 /tmp/x.img && mkfs.xfs -q -f /dev/loop1 > /dev/null 2>&1 &&
			mount -t xfs /dev/loop1 /mnt/x
		check "mount XFS on loop" grep -q " /mnt/x xfs " /proc/mounts
		cp /tmp/src /mnt/x/lf
		sync
		large_move xfs /mnt/x/lf $M/lx
		tc="XFS file -> stealfs, large folios taken whole"
		check "$tc: data intact" sh -c "test $lm_status = 0 && cmp /tmp/src $M/lx"
		case $(uname -r) in
		6.1.*)
			# 6.1's splice_read puts a large folio's pages in one
			# pipe buffer (refused_partial), and stealfs takes no
			# large folio there: all copied.
			check "$tc: on 6.1 nothing stolen, all $lm_copied pages copied" \
				test "$lm_stolen" = 0 -a "$lm_copied" = "$lm_pages" ;;
		*)
			check "$tc: $lm_stolen of $lm_pages pages stolen, $lm_large in folios refused as large, $lm_other refused otherwise" \
				test $((lm_stolen + lm_large + lm_other)) = "$lm_pages" -a $((lm_other * 20)) -le "$lm_pages" \
					-a $((lm_stolen * 2)) -ge "$lm_pages" ;;
		esac
		check "$tc: the stolen pages are on the source's frames ($lm_same; $lm_migrated migrated meanwhile)" \
			test $((lm_same + lm_migrated)) -ge $((lm_stolen * 99 / 100)) -a "$lm_same" -le "$lm_stolen"
		drop_caches
		check "$tc: the source intact" cmp /tmp/src /mnt/x/lf
		check "$tc: the destination intact" cmp /tmp/src $M/lx
		umount /mnt/x
		losetup -d /dev/loop1
		rm -f /tmp/x.img
	else
		echo "# no XFS in this guest (mkfs.xfs or the module): its case not run"
	fi
	rm -f $M/lx
	umount $M
	[ "$thp_was" = always ] && echo always > $thp
	[ -n "$cp_was" ] && echo "$cp_was" > $cp_knob
}

# copied counts pages: 64 buffers of 512 bytes are 8 pages.
section_copied() {
	mount -t stealfs none $M
	snap
	check "64 buffers of 512 bytes (vmsplice) -> stealfs: data intact" stealprobe pieces 64 512 $M/pc
	check "64 buffers of 512 bytes: copied counts 8 pages, refused_partial 64 buffers" \
		test "$(delta copied)" = 8 -a "$(delta refused_partial)" = 64
	umount $M
}

# Bench: the same move into a steal=on and a steal=off mount, best of five
# (see bench_runs).
#   pipe:   the mover alone, reading a pipe already holding 48 MiB written
#           with write(2) (the splice_write side, where stealing acts);
#   pipe+w: the same with the producer's write(2) included (end to end);
#   file:   a 48 MiB ext4 file whose pages are in the page cache (read once
#           before each run) -> pipe -> stealfs.
section_bench() {
	echo 67108864 > /proc/sys/fs/pipe-max-size
	mount -t stealfs none $M
	mount -t stealfs -o steal=off none $OFF
	cat /tmp/src /tmp/src /tmp/src > $E/b1
	# mover_cmd pipe|file: the command line that moves with SPLICE_F_MOVE.
	mover_cmd() {
		if [ $MOVER = spmove ]; then
			[ $1 = file ] && echo "spmove -M" || echo "spmove -M -"
		else
			[ $1 = file ] && echo "stealprobe filemove -M" || echo "stealprobe splice -M"
		fi
	}
	# bench_once KIND DIR: times one move into DIR/bench; prints nanoseconds.
	bench_once() {
		rm -f $2/bench
		case $1 in
		pipe) stealprobe time-pipe 48M $(mover_cmd pipe) $2/bench ;;
		pipe+w) stealprobe time sh -c "stealprobe pattern 48M | $(mover_cmd pipe) $2/bench" ;;
		file) cat $E/b1 > /dev/null
		      stealprobe time $(mover_cmd file) $E/b1 $2/bench ;;
		esac 2>&1 >/dev/null | sed -n 's/^time //p'
	}
	# Runs per measurement: five, or what stealfs_bench_runs= on the kernel
	# command line says (check-vm.sh passes 1 to the debug kernel, whose
	# figures mean nothing: there the bench only drives more pages through the
	# steal path under the detectors).
	bench_runs=$(sed -n 's/.*stealfs_bench_runs=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
	bench_runs=${bench_runs:-5}
	echo "# bench: best of $bench_runs"
	# bench_run KIND DIR: prints the best of $bench_runs runs in nanoseconds.
	bench_run() {
		best= r=0
		while [ $r -lt $bench_runs ]; do
			t=$(bench_once $1 $2)
			if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
			r=$((r + 1))
		done
		echo "$best"
	}
	for kind in pipe pipe+w file; do
		snap
		on=$(bench_run $kind $M)
		st=$(( $(delta stolen_anon) + $(delta stolen_pagecache) ))
		off=$(bench_run $kind $OFF)
		echo "BENCH $kind 50331648 $on $off $st"
	done
	umount $M $OFF
}

# Set-up: the watchdog, the test data, the module, an ext4 file system on
# a loop device and cgroup v2 with the memory and io controllers.
# The suite's own shell, the watchdog and the tools they run are the OOM
# killer's last choice (-900, not -1000: with nothing killable a global OOM
# panics); the tasks under test run with 0 (in_cg), the balloon with 1000.
# On the debug kernel the balloon's memory is freed so slowly after its OOM
# kill that the next OOM comes before it is.
echo -900 > /proc/$$/oom_score_adj
rm -f /tmp/dstate.fail /tmp/dstate.stop
dstate_watch &
watch_pid=$!
check "hung-task detector on, 10 s, no panic" \
	sh -c "echo 10 > /proc/sys/kernel/hung_task_timeout_secs && echo 0 > /proc/sys/kernel/hung_task_panic"

dd if=/dev/urandom of=/tmp/src bs=1M count=16 2>/dev/null
head -c 100000 /tmp/src > /tmp/src.partial
head -c 1048576 /tmp/src > /tmp/src.1m
stealprobe pattern 256K > /tmp/pat

check "insmod stealfs" insmod $KO
check "counters in $S" test -r $S/stolen_anon -a -r $S/refused_busy
COUNTERS=$(ls $S)
# tmpfs' defaults, which stealfs shows in /proc/mounts: size= half the RAM,
# nr_inodes= half its pages (no high memory on x86_64)
RAM_PAGES=$(( $(meminfo MemTotal) / 4 ))
DEF_SIZE="size=$((RAM_PAGES / 2 * 4))k"
DEF_INODES=$((RAM_PAGES / 2))
DEF="$DEF_SIZE,nr_inodes=$DEF_INODES"

dd if=/dev/zero of=/tmp/e.img bs=1M count=112 2>/dev/null
losetup /dev/loop0 /tmp/e.img && mke2fs -q /dev/loop0 >/dev/null 2>&1
check "mount ext4 on loop" mount -t ext4 /dev/loop0 $E

# The sections from memcg_limit on (memory cgroups, OOM kills, global memory
# pressure, pinned and mlocked destination pages, gifts of file pages, what
# `copied` counts) move data in cgroup v2 groups and wait for it a bounded
# time; a task that cannot be ended fails the run (bail).  Where a test
# provokes an OOM kill it says so in the kernel log ("stealfs-suite:
# expect-oom begin" and "... end"): check-vm.sh accepts the OOM report's
# stack dump there only.
mkdir -p $CG
mount -t cgroup2 none $CG
check "cgroup v2 with the memory and io controllers" \
	sh -c "echo '+memory +io' > $CG/cgroup.subtree_control"

# The sections in the order they run: all of them, or those that
# stealfs_tests=NAME,... on the kernel command line names (check-vm.sh's
# VM_TESTS), e.g. stealfs_tests=memcg_limit for the deadlock's reproducer.
SECTIONS="basic size options limits memback acct reload stress memcg_limit memcg_oom
	pressure memcg_pays pinned gift_file mlock large copied bench"
only=$(sed -n 's/.*stealfs_tests=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
for s in $only; do
	case " $(echo $SECTIONS) " in
	*" $s "*) ;;
	*) ok 1 "stealfs_tests=: no section $s (sections: $(echo $SECTIONS))" ;;
	esac
done
for s in $SECTIONS; do
	case " ${only:-$s} " in *" $s "*) ;; *) continue ;; esac
	echo "# section $s, at $(cut -d" " -f1 /proc/uptime) s of uptime"
	section_$s
done

umount $E
losetup -d /dev/loop0
touch /tmp/dstate.stop
wait $watch_pid
check "watchdog: no task stayed in D state for 10 s" test ! -e /tmp/dstate.fail
check "no hung-task report in the kernel log" sh -c "! dmesg | grep -q 'blocked for more than'"
totals
check "rmmod at the end" rmmod stealfs
summary
