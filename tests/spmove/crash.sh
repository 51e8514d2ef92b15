# SPDX-License-Identifier: GPL-2.0-or-later
# spmove killed with SIGKILL at every system call it makes (root; strace
# delivers the signal on entry to the Nth call of each kind, one run per
# point): (a) a move of a tree across file systems always leaves at least
# one complete copy of the tree, the source or the destination, never
# neither; (b) a copy over an existing file always leaves the old
# destination or the new one, never a mix, and the source as it was;
# (c) a copy over an existing tree on XFS, where the replaced files wait
# for one syncfs(2) before their renames (src/spmove/batch.c), always
# leaves each file old or new; (d) a copy of a tree to a new name, made
# under a temporary name and shown by one rename, leaves nothing under
# that name or the whole tree; (e) a copy over a tree in which half the
# files already hold their sources' bytes (left as they are) leaves each
# file old or new, and those left with their inodes.
# A temporary .spmove-* file may be left behind by a kill -9 (nothing can
# remove it then) but only beside the files, never under a real name.
# The checks are on the outcome of each kill, whatever the point was.
# CRASH_STRIDE=N (default 1: every point) kills at every Nth call of each
# kind only, the first and the last always: CI's sanitizer build sets it,
# as a run killed on entry to a call has run, up to there, the code the
# run not killed runs in full under the sanitizers, and the plain
# `make check` tries every point.
. "$top_srcdir/tests/lib.sh"
require_root
require_strace
use_built_library
bin=$(real_bin spmove)

# Calls that change nothing in any file system (they touch the process's
# memory, look at files or move data between the process and pipes): a
# kill on entry to one of them leaves the files as a kill on entry to the
# next call does, so they are left out.
quiet='^(mmap|munmap|mprotect|mremap|madvise|brk|arch_prctl|set_tid_address|set_robust_list|rseq|prlimit64|getrandom|futex|rt_sigaction|rt_sigprocmask|rt_sigreturn|sigaltstack|getpid|gettid|getuid|geteuid|getgid|getegid|getgroups|clock_gettime|uname|sysinfo|umask|getcwd|newfstatat|fstat|stat|lstat|statx|fstatfs|statfs|access|faccessat|faccessat2|readlink|readlinkat|getdents64|lseek|fcntl|dup|dup2|dup3|pipe|pipe2|read|pread64|readv|poll|ppoll|fadvise64|listxattr|llistxattr|flistxattr|getxattr|lgetxattr|fgetxattr|close|fsync|fdatasync)$'

# points MARK CMD...: "NAME FIRST LAST" for each kind of system call CMD
# makes (all its processes) from the first call that names MARK (the
# source operand's directory, which spmove opens first) on, FIRST
# and LAST counted from the start, in the order first made.  (Before it
# the program is being loaded: a kill there is a kill before it starts.)
points() {
	local mark=$1; shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o "$T_DIR/trace" "$@" >/dev/null 2>&1
	# (A call this strace has no name for, syscall_0x..., cannot be
	# injected into: left out.)
	sed -n 's/^[0-9]* *\([a-z0-9_]*\)(\(.*\)/\1 \2/p' "$T_DIR/trace" |
		awk -v quiet="$quiet" -v mark="\"$mark\"" '
			{ n[$1]++ }
			!on && $1 != "execve" && index($0, mark) { on = 1 }
			on && $1 !~ quiet && $1 !~ /^syscall_/ { if (!($1 in first)) { first[$1] = n[$1]; order[k++] = $1 }
				last[$1] = n[$1] }
			END { for (i = 0; i < k; i++) print order[i], first[order[i]], last[order[i]] }'
}

# kill_at NAME N CMD...: run CMD, killed with SIGKILL on entry to its Nth
# call of NAME (if it gets that far); sets RC.
kill_at() {
	local name=$1 n=$2; shift 2
	(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o /dev/null -e trace="$name" \
		-e inject="$name:signal=KILL:when=$n" "$@" >/dev/null 2>&1
		exit $?) 2>/dev/null # the shell's "Killed" goes there too
	RC=$?
}

# listing DIR: every name under DIR but temporary files, with its type and
# link target, then the contents of every regular file ("-" when DIR is
# missing).
listing() {
	[ -d "$1" ] || { echo -; return; }
	(cd "$1" && find . ! -name '.spmove-*' -printf '%p %y %m %l\n' | LC_ALL=C sort &&
		find . -type f ! -name '.spmove-*' | LC_ALL=C sort | xargs -r md5sum)
}

temps_in() { find "$@" -name '.spmove-*' | wc -l; }

stride=${CRASH_STRIDE:-1}
case $stride in ''|*[!0-9]*|0) stride=1 ;; esac
# after N LAST: the point tried after N (every stride-th, LAST always).
after() {
	local m=$(($1 + stride))
	[ "$1" -lt "$2" ] && [ "$m" -gt "$2" ] && m=$2
	echo "$m"
}
# at_least N: N kill points, or N/stride when sampling.
at_least() { echo $(($1 / stride)); }

# at_every_point LIST RESET CHECK CMD...: for each kill point of LIST
# (points' lines; every stride-th of each kind), RESET, run CMD killed
# there (kill_at: sets RC), then CHECK NAME N.  Counts them in total.
at_every_point() {
	local list=$1 reset=$2 check=$3 name n last
	shift 3
	total=0
	while read -r name n last; do
		while [ "$n" -le "$last" ]; do
			"$reset"
			kill_at "$name" "$n" "$@"
			total=$((total + 1))
			"$check" "$name" "$n"
			n=$(after "$n" "$last")
		done
	done <<EOF
$list
EOF
}

mkdir a b
mount -t tmpfs -o size=32m tmpfs a || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/a'"
mount -t tmpfs -o size=32m tmpfs b || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/b'"

# (a) A move of a tree across file systems.
mkdir -p ref/tree/sub ref/tree/empty
make_random ref/tree/big 2500000
echo small >ref/tree/sub/small
ln -s sub/small ref/tree/link
whole=$(listing ref/tree)
reset_move() {
	rm -rf a/tree b/tree b/.spmove-*
	cp -a ref/tree a/tree
}

reset_move
list=$(points a "$bin" --remove-source a/tree b/tree)
bad=0 halfway=0 removing=0 finished=0 temps=0
check_move() {
	local src dst
	src=$(listing a/tree) dst=$(listing b/tree)
	if [ "$src" != "$whole" ] && [ "$dst" != "$whole" ]; then
		bad=$((bad + 1))
		echo "# killed at $1 #$2 (exit $RC): neither a/tree nor b/tree is complete"
	fi
	[ "$src" = "$whole" ] && [ "$dst" != - ] && halfway=$((halfway + 1))
	[ "$src" != "$whole" ] && [ "$src" != - ] && removing=$((removing + 1))
	[ "$RC" = 0 ] && finished=$((finished + 1))
	[ "$(temps_in b)" = 0 ] || temps=$((temps + 1))
}
at_every_point "$list" reset_move check_move "$bin" --remove-source a/tree b/tree
echo "# move: $total kill points, $halfway with the copy half made," \
	"$removing while the source was being removed, $temps left a temporary file"
ok "move: killed at many points (at least 20)" test "$total" -ge "$(at_least 20)"
check_eq "move: every kill left a complete tree, the source or the destination" 0 "$bad"
ok "move: some kills came while the copy was half made" test "$halfway" -gt 0
ok "move: some kills came while the source was being removed" test "$removing" -gt 0
# Uninterrupted, the same command moves the whole tree.
reset_move
run_cmd out err "$bin" --remove-source a/tree b/tree
check_eq "move, not killed: exit 0" 0 "$RC"
check_eq "move, not killed: the whole tree there" "$whole" "$(listing b/tree)"
ok "move, not killed: the source gone" test ! -e a/tree
check_eq "move, not killed: no temporary file" 0 "$(temps_in a b)"

# (b) A copy over an existing file.
mkdir w
make_random old 500000
make_random new 2500000
reset_copy() {
	rm -rf w && mkdir w
	cp old w/dst
	cp new w/src
}
names_ok() { [ "$(cd w && ls -A | grep -v '^\.spmove-' | tr '\n' ' ')" = "dst src " ]; }

reset_copy
list=$(points w "$bin" w/src w/dst)
bad=0 olds=0 news=0 temps=0
check_copy() {
	if cmp -s old w/dst; then
		olds=$((olds + 1))
	elif cmp -s new w/dst; then
		news=$((news + 1))
	else
		bad=$((bad + 1))
		echo "# killed at $1 #$2 (exit $RC): w/dst is neither the old file nor the new one"
	fi
	if ! cmp -s new w/src || ! names_ok; then
		bad=$((bad + 1))
		echo "# killed at $1 #$2 (exit $RC): w/src changed or names other than dst, src and temporary files"
	fi
	[ "$(temps_in w)" = 0 ] || temps=$((temps + 1))
}
at_every_point "$list" reset_copy check_copy "$bin" w/src w/dst
echo "# copy: $total kill points, $olds left the old file, $news the new one," \
	"$temps left a temporary file"
ok "copy: killed at many points (at least 5)" test "$total" -ge "$(at_least 5)"
check_eq "copy: every kill left the old destination or the new one, the source intact" 0 "$bad"
ok "copy: some kills came before the new file was in place" test "$olds" -gt 0
ok "copy: some kills came after it was in place" test "$news" -gt 0
reset_copy
run_cmd out err "$bin" w/src w/dst
check_eq "copy, not killed: exit 0" 0 "$RC"
same_files "copy, not killed: the new file in place" new w/dst
check_eq "copy, not killed: no temporary file" 0 "$(temps_in w)"

# (e) A copy over a tree (on tmpfs) in which half the files already hold
# their sources' bytes -- left as they are, only their times set
# (copy.c's left_unchanged()) -- and the others differ in their last
# byte: each file is its old self or the new one, and each file left
# keeps its inode, wherever the copy is killed.
mkdir -p ref/twins
i=0
while [ $i -lt 12 ]; do make_random "ref/twins/f$i" 5000; i=$((i + 1)); done
cp -r ref/twins a/twsrc
cp -r ref/twins ref/twold
for i in 1 3 5 7 9 11; do
	printf '\377' | dd of="ref/twold/f$i" bs=1 seek=4999 conv=notrunc status=none
	cmp -s "ref/twins/f$i" "ref/twold/f$i" &&
		printf '\376' | dd of="ref/twold/f$i" bs=1 seek=4999 conv=notrunc status=none
done
reset_twins() {
	rm -rf a/tw && cp -r ref/twold a/tw
	twin_inodes=$(stat -c %i a/tw/f0 a/tw/f2 a/tw/f4 a/tw/f6 a/tw/f8 a/tw/f10)
}
reset_twins
list=$(points twsrc "$bin" -rT a/twsrc a/tw)
bad=0 news=0 temps=0
check_twins() {
	local f state
	for f in ref/twins/*; do
		f=${f##*/}
		if cmp -s "ref/twins/$f" "a/tw/$f"; then state=new
		elif cmp -s "ref/twold/$f" "a/tw/$f"; then state=old
		else
			bad=$((bad + 1))
			echo "# killed at $1 #$2 (exit $RC): a/tw/$f is neither old nor new"
			continue
		fi
		case $f in f1|f3|f5|f7|f9|f11) [ $state = new ] && news=$((news + 1)) ;; esac
	done
	if [ "$(stat -c %i a/tw/f0 a/tw/f2 a/tw/f4 a/tw/f6 a/tw/f8 a/tw/f10)" != "$twin_inodes" ]; then
		bad=$((bad + 1))
		echo "# killed at $1 #$2 (exit $RC): a file left as it was has another inode"
	fi
	[ "$(temps_in a/tw)" = 0 ] || temps=$((temps + 1))
}
at_every_point "$list" reset_twins check_twins "$bin" -rT a/twsrc a/tw
echo "# twins: $total kill points, $news changed files replaced in all," \
	"$temps left a temporary file"
ok "twins: killed at many points (at least 20)" test "$total" -ge "$(at_least 20)"
check_eq "twins: every kill left each file old or new, the files left with their inodes" 0 "$bad"
reset_twins
run_cmd out err "$bin" -rT --stats --json a/twsrc a/tw
check_eq "twins, not killed: exit 0" 0 "$RC"
ok "twins, not killed: the tree is the source's" diff -r a/twsrc a/tw
check_eq "twins, not killed: six files left as they were" 6 "$(jq -r .unchanged err)"

# (d) A copy of a tree to a new name: made under a temporary name and
# shown when complete, so that the name has nothing or the whole tree.
mkdir n
reset_new() { rm -rf n/new n/.spmove-*; }
reset_new
list=$(points ref "$bin" -r ref/tree n/new)
bad=0 nones=0 wholes=0 temps=0
check_new() {
	local got
	got=$(listing n/new)
	if [ "$got" = - ]; then
		nones=$((nones + 1))
	elif [ "$got" = "$whole" ]; then
		wholes=$((wholes + 1))
	else
		bad=$((bad + 1))
		echo "# killed at $1 #$2 (exit $RC): n/new is there but not complete"
	fi
	[ "$(temps_in n)" = 0 ] || temps=$((temps + 1))
}
at_every_point "$list" reset_new check_new "$bin" -r ref/tree n/new
echo "# new tree: $total kill points, $nones left no tree, $wholes the whole one," \
	"$temps left a temporary directory"
ok "new tree: killed at many points (at least 10)" test "$total" -ge "$(at_least 10)"
check_eq "new tree: every kill left no tree under the name or the whole one" 0 "$bad"
ok "new tree: some kills came before it was shown" test "$nones" -gt 0
ok "new tree: some kills came after" test "$wholes" -gt 0
check_eq "new tree: the source intact" "$whole" "$(listing ref/tree)"
reset_new
run_cmd out err "$bin" -r ref/tree n/new
check_eq "new tree, not killed: exit 0" 0 "$RC"
check_eq "new tree, not killed: the whole tree there" "$whole" "$(listing n/new)"
check_eq "new tree, not killed: no temporary directory" 0 "$(temps_in n)"

# (c) A copy over an existing tree on XFS: its replaced files are made
# durable together.
if command -v mkfs.xfs >/dev/null && truncate -s 512M xfs.img &&
   mkfs.xfs -q -f xfs.img >/dev/null 2>&1 && xdev=$(losetup -f --show xfs.img 2>/dev/null); then
	at_exit "losetup -d $xdev"
	mkdir x
	mount "$xdev" x || skip "cannot mount XFS"
	at_exit "umount '$T_DIR/x'"
	mkdir -p told/sub tnew/sub
	for f in f1 f2 f3 sub/g1 sub/g2; do
		make_random "told/$f" 3000
		make_random "tnew/$f" 9000
	done
	reset_tree() { rm -rf x/tree && cp -r told x/tree && sync; }
	# each_state: "old", "new" or "mixed" for each file.
	each_state() {
		local f s=
		for f in f1 f2 f3 sub/g1 sub/g2; do
			if cmp -s "tnew/$f" "x/tree/$f"; then s="$s new"
			elif cmp -s "told/$f" "x/tree/$f"; then s="$s old"
			else s="$s mixed"; fi
		done
		echo "$s"
	}
	reset_tree
	list=$(points tnew "$bin" -rT tnew x/tree)
	bad=0 some_new=0 some_old=0 synced=0
	case " $(echo $list) " in *" syncfs "*) synced=1 ;; esac
	check_tree() {
		local s
		s=$(each_state)
		case $s in
		*mixed*) bad=$((bad + 1))
			echo "# killed at $1 #$2 (exit $RC): a file neither old nor new:$s" ;;
		esac
		case $s in *new*) some_new=$((some_new + 1)) ;; esac
		case $s in *old*) some_old=$((some_old + 1)) ;; esac
	}
	at_every_point "$list" reset_tree check_tree "$bin" -rT tnew x/tree
	echo "# tree on XFS: $total kill points, $some_old left an old file, $some_new a new one"
	ok "tree on XFS: killed at many points (at least 20)" test "$total" -ge "$(at_least 20)"
	ok "tree on XFS: the replaced files wait for syncfs" test "$synced" = 1
	check_eq "tree on XFS: every kill left each file old or new" 0 "$bad"
	ok "tree on XFS: some kills came before the renames" test "$some_old" -gt 0
	ok "tree on XFS: some kills came after them" test "$some_new" -gt 0
	reset_tree
	run_cmd out err "$bin" -rT tnew x/tree
	check_eq "tree on XFS, not killed: exit 0" 0 "$RC"
	check_eq "tree on XFS, not killed: every file new" " new new new new new" "$(each_state)"
	check_eq "tree on XFS, not killed: no temporary file" 0 "$(temps_in x)"
else
	echo "# XFS: mkfs.xfs or a loop device missing, (c) not tested"
fi

done_testing
