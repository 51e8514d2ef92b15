# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -r's copy workers and its unnamed new files (O_TMPFILE, linked in
# when complete): the copy is cp's, whatever fails, with nothing left
# behind; --stats says how many workers ran.
. "$top_srcdir/tests/lib.sh"
require_strace
# Traced calls are counted from the program's own: not libtool's wrapper.
SPMOVE=$(real_bin spmove)
use_built_library

# The workers: one per CPU beyond the first, at most 7: 4 CPUs for
# spmove whatever the machine has (preload_cpus), so that 3 workers run on
# one CPU too.
preload_cpus 4
cpus=$CPUS
want=$((cpus - 1))
[ "$want" -gt 7 ] && want=7
echo "# $cpus CPUs for spmove: $want workers"
[ "$want" -gt 0 ] || echo "# one CPU and no preloaded library: no worker runs, and the checks are the walker's"

# A tree: files of several sizes and modes, odd names, a subdirectory, a
# symbolic link, a FIFO, and a hard link.
mkdir src src/sub
i=0
while [ $i -lt 300 ]; do
	head -c $((i * 97 % 70000)) /dev/urandom >"src/f$i"
	i=$((i + 1))
done
chmod 0600 src/f1
chmod 0755 src/f2
printf 'x' >'src/a b'
printf 'y' >"src/new
line"
make_random src/sub/deep 100000
ln -s f3 src/link
mkfifo src/fifo
ln src/f4 src/hard

# complete_in A B: every regular file under B is the one of that name under A.
complete_in() {
	[ -z "$(cd "$2" && find . -type f ! -exec cmp -s "$1/{}" {} \; -print)" ]
}
# same_trees A B: the same names, types, modes, file contents and links.
same_trees() {
	[ "$(cd "$1" && find . -printf '%P %y %m %l\n' | sort)" = \
	  "$(cd "$2" && find . -printf '%P %y %m %l\n' | sort)" ] &&
		complete_in "$T_DIR/$1" "$2"
}
no_temp_left() { [ -z "$(find "$1" -name '.spmove-*' | head -1)" ]; }
json_field() { jq -r ".$1" "$2"; }

/usr/bin/cp -r src ref
run_cmd out err "$SPMOVE" -r --stats --json src dst
check_eq "tree: exit 0" 0 "$RC"
cp err stats-tree
ok "tree: the copy is cp -r's (contents, types, modes)" same_trees ref dst
ok "tree: no temporary file" no_temp_left dst
check_eq "tree: --stats: workers possible" "$want" "$(json_field workers_possible err)"
check_eq "tree: --stats: workers that ran" "$want" "$(json_field workers err)"
# The walker copies files handed over too: the two shares make them all.
check_eq "tree: --stats: every regular file handed over" \
	"$(find src -type f -printf x | wc -c)" "$(json_field handed_over err)"
ok "tree: --stats: the walker's share is a part of them" \
	test "$(json_field walker_copied err)" -le "$(json_field handed_over err)"
check_eq "tree: every byte counted" \
	"$(find src -type f -exec cat {} + | wc -c)" "$(json_field bytes err)"

# One CPU: no worker, the same copy.
if taskset -c 0 true 2>/dev/null; then
	run_cmd out err env -u LD_PRELOAD taskset -c 0 "$SPMOVE" -r --stats --json src dst1
	check_eq "one CPU: exit 0" 0 "$RC"
	ok "one CPU: the copy is cp -r's" same_trees ref dst1
	check_eq "one CPU: no worker possible" 0 "$(json_field workers_possible err)"
	check_eq "one CPU: no worker ran" 0 "$(json_field workers err)"
fi

# When the workers start.  --parallel=N: N threads, at the first file,
# whatever the CPU count.  Without it, one per CPU once the tree shows
# enough to share -- 192 files still to copy, or 3 MiB in two files or
# more -- and for a few small files none at all: starting one costs more
# than it saves.  --stats says how many files the walker copied before
# they started.
mkdir few few/sub
for i in 1 2 3 4 5 6; do printf 'few %s\n' $i >"few/f$i"; done
printf 'deeper\n' >few/sub/g
run_cmd out err env -u LD_PRELOAD "$SPMOVE" -r --parallel=3 --stats --json few few-3
check_eq "--parallel=3, 7 files: exit 0" 0 "$RC"
ok "--parallel=3, 7 files: copied" same_trees few few-3
check_eq "--parallel=3: 2 workers possible, whatever the CPUs" 2 "$(json_field workers_possible err)"
check_eq "--parallel=3: 2 workers ran" 2 "$(json_field workers err)"
check_eq "--parallel=3: started at the first file" 0 "$(json_field copied_alone err)"
run_cmd out err "$SPMOVE" -r --parallel=1 --stats --json src dst-1
check_eq "--parallel=1, 300 files: exit 0" 0 "$RC"
ok "--parallel=1: the copy is cp -r's" same_trees ref dst-1
check_eq "--parallel=1: no worker possible" 0 "$(json_field workers_possible err)"
check_eq "--parallel=1: no worker ran" 0 "$(json_field workers err)"
if [ "$want" -gt 0 ]; then
	run_cmd out err "$SPMOVE" -r --stats --json few few-auto
	check_eq "7 small files: exit 0" 0 "$RC"
	ok "7 small files: copied" same_trees few few-auto
	check_eq "7 small files: no worker started" 0 "$(json_field workers err)"
	check_eq "7 small files: all copied by the walker" 7 "$(json_field walker_copied err)"
	check_eq "7 small files: the workers still possible" "$want" "$(json_field workers_possible err)"
	check_eq "300 files in a directory: the workers started at the first" \
		0 "$(jq -r .copied_alone stats-tree)"
	# 60 directories of 4 files: once the first is read, the tree
	# promises 59 more like it, 240 files: the workers start there.
	d=0
	while [ $d -lt 60 ]; do
		mkdir -p "many/d$d"
		for i in 1 2 3 4; do printf '%s\n' "$d.$i" >"many/d$d/f$i"; done
		d=$((d + 1))
	done
	run_cmd out err "$SPMOVE" -r --stats --json many many-auto
	check_eq "60 directories of 4 files: exit 0" 0 "$RC"
	ok "60 directories of 4 files: copied" same_trees many many-auto
	check_eq "60 directories of 4 files: the workers ran" "$want" "$(json_field workers err)"
	check_eq "60 directories of 4 files: started at the first file" 0 "$(json_field copied_alone err)"
	# Data: START_BYTES (3 MiB) still to copy, in two files or more,
	# each counted at the average size of those the walker came to.
	mkdir large
	make_random large/big $((8 * 1024 * 1024))
	run_cmd out err "$SPMOVE" -r --stats --json large large-auto
	check_eq "one file of 8 MiB: exit 0" 0 "$RC"
	ok "one file of 8 MiB: copied" same_trees large large-auto
	check_eq "one file of 8 MiB: no worker to copy beside it" 0 "$(json_field workers err)"
	for n in 4 12; do
		mkdir "mid$n"
		i=0
		while [ $i -lt $n ]; do make_random "mid$n/m$i" $((400 * 1024)); i=$((i + 1)); done
		run_cmd out err "$SPMOVE" -r --stats --json "mid$n" "mid$n-auto"
		check_eq "$n files of 400 KiB: exit 0" 0 "$RC"
		ok "$n files of 400 KiB: copied" same_trees "mid$n" "mid$n-auto"
		cp err "stats-mid$n"
	done
	check_eq "4 files of 400 KiB (1.6 MiB): no worker" 0 "$(json_field workers stats-mid4)"
	check_eq "12 files of 400 KiB (4.8 MiB): the workers started at the first" \
		"$want/0" "$(json_field workers stats-mid12)/$(json_field copied_alone stats-mid12)"
fi
# --parallel takes a count of 1 or more; above what the descriptor limit
# leaves room for (4 a worker, 32 kept), fewer; at most 64.
for bad in 0 -2 x 3x '' ' 3'; do
	run_cmd out err "$SPMOVE" -r --parallel="$bad" few few-bad
	check_eq "--parallel='$bad': exit 1" 1 "$RC"
	check_eq "--parallel='$bad': the message" \
		"spmove: invalid argument '$bad' for '--parallel'
Try 'spmove --help' for more information." "$(cat err)"
	ok "--parallel='$bad': nothing made" test ! -e few-bad
done
run_cmd out err "$SPMOVE" -r --parallel=1000 --stats --json few few-1000
check_eq "--parallel=1000: 63 workers possible" 63/0 "$(json_field workers_possible err)/$RC"
run_cmd out err sh -c 'ulimit -n 100 && exec "$@"' sh "$SPMOVE" -r --parallel=64 --stats --json few few-100
check_eq "--parallel=64 under ulimit -n 100: 17 workers possible" 17/0 \
	"$(json_field workers_possible err)/$RC"
ok "--parallel=64 under ulimit -n 100: copied" same_trees few few-100

# A worker is started on another CPU than the walker's, then let go: held
# in a copy, every thread of the run may use the CPUs the process may (the
# machine's real ones: no preloaded library).
if [ "$(nproc)" -ge 2 ]; then
	# free PID: each thread's CPUs are the main thread's.
	free() {
		local main t
		main=$(grep Cpus_allowed_list /proc/"$1"/status) || return 1
		for t in /proc/"$1"/task/*; do
			[ "$(grep Cpus_allowed_list "$t"/status)" = "$main" ] || return 1
		done
	}
	LD_PRELOAD= traced -f -o /dev/null -e trace=copy_file_range \
		-e inject=copy_file_range:delay_enter=3000000:when=3 \
		"$SPMOVE" -r src apart >out 2>err &
	tracer=$!
	pid=$(held_pid $tracer 326)
	ok "started apart: held in a copy" test -n "$pid"
	# A thread not yet run has not let go yet: some time for it.
	n=0
	until free "$pid" || [ $n -ge 40 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	ok "started apart: a worker beside the walker" \
		test "$(ls /proc/"$pid"/task 2>/dev/null | wc -l)" -ge 2
	ok "started apart: every thread may run on each CPU of the process" free "$pid"
	wait $tracer
	check_eq "started apart: exit 0" 0 $?
	ok "started apart: the copy is cp -r's" same_trees ref apart
fi

# libattr reads /etc/xattr.conf once, into a list it keeps without a lock:
# with -a (extended attributes kept) the walker has it read before it
# starts a worker.
if [ -r /etc/xattr.conf ]; then
	run_cmd out err traced -f -o trace -e trace=openat,clone,clone3 "$SPMOVE" -a src dst-conf
	check_eq "-a, xattr.conf: exit 0" 0 "$RC"
	conf=$(grep -n 'xattr\.conf' trace | head -n 1 | cut -d: -f1)
	clone=$(grep -nE 'clone3?\(' trace | head -n 1 | cut -d: -f1)
	ok "-a: libattr's configuration read before a worker starts" \
		test -n "$conf" -a -n "$clone" -a "${conf:-0}" -lt "${clone:-0}"
fi

# -a keeps the hard link: that file goes back to the walker.
/usr/bin/cp -a src ref-a
run_cmd out err "$SPMOVE" -a src dst-a
check_eq "-a: exit 0" 0 "$RC"
ok "-a: the copy is cp -a's" same_trees ref-a dst-a
check_eq "-a: the hard link is kept" "$(stat -c %i dst-a/f4)" "$(stat -c %i dst-a/hard)"

# -v lines stay in order: no workers then.
run_cmd out err "$SPMOVE" -rv --stats --json src dst-v
check_eq "-v: exit 0" 0 "$RC"
check_eq "-v: no worker ran" 0 "$(json_field workers err)"
# (in its own order: GNU's follows inode numbers where that reads faster)
check_eq "-v: the lines are cp -v's" "$(/usr/bin/cp -rv src ref-v | sort)" \
	"$(sed 's/dst-v/ref-v/' out | sort)"

# A copy that fails in a worker: reported in GNU's words, the rest copied,
# no name for the failed file, nothing temporary left.  (strace counts the
# calls of each thread: each may fail its Nth.)
# A new tree's files are written under their names (the tree shown when
# complete); linkat(2) names the unnamed files of a tree copied into a
# directory that is there.
for fault in "linkat:error=EIO:when=7" "copy_file_range:error=EIO:when=9"; do
	rm -rf dst
	into=
	case $fault in linkat*) mkdir dst && into=-T ;; esac
	run_cmd out err inject "$fault" "$SPMOVE" -r $into src dst
	check_eq "$fault: exit 1" 1 "$RC"
	failed=$(wc -l <err)
	ok "$fault: one message per failed copy (at most one per thread: $failed)" \
		test "$failed" -ge 1 -a "$failed" -le "$((want + 1))"
	ok "$fault: each names a file and the error" \
		sh -c "! grep -Ev '^spmove: (cannot create regular file|error (reading|writing|copying)) .*: Input/output error\$' err"
	check_eq "$fault: the failed files are missing" $(($(find ref | wc -l) - failed)) \
		"$(find dst | wc -l)"
	ok "$fault: every file there is complete" complete_in "$T_DIR/src" dst
	ok "$fault: no temporary file" no_temp_left dst
done

# Out of space (root: a small tmpfs): each failed file reported, the
# others complete, nothing temporary left.
if [ "$(id -u)" = 0 ] && mkdir small && mount -t tmpfs -o size=1m tmpfs small; then
	at_exit "umount '$T_DIR/small'"
	mkdir big
	i=0
	while [ $i -lt 40 ]; do make_random "big/b$i" 65536; i=$((i + 1)); done
	run_cmd out err "$SPMOVE" -r big small/dst
	check_eq "ENOSPC: exit 1" 1 "$RC"
	ok "ENOSPC: files were refused" test -s err
	ok "ENOSPC: each message is GNU's" \
		sh -c "! grep -Ev \"^spmove: error writing 'small/dst/b[0-9]+': No space left on device\$\" err"
	check_eq "ENOSPC: one message per file left out" \
		"$((40 - $(find small/dst -type f | wc -l)))" "$(wc -l <err)"
	ok "ENOSPC: every file there is complete" complete_in "$T_DIR/big" small/dst
	ok "ENOSPC: no temporary file" no_temp_left small
else
	echo "# not root, or no tmpfs: the ENOSPC checks left out"
fi

# A file the directory lists but the worker cannot open goes back to the
# walker, which reports it as cp does (as nobody: root reads everything).
if [ "$(id -u)" = 0 ] && nobody_runs "$SPMOVE"; then
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	chmod a+x "$T_DIR"
	mkdir nb nb/src
	i=0
	while [ $i -lt 20 ]; do make_random "nb/src/g$i" 5000; i=$((i + 1)); done
	chmod 000 nb/src/g7
	chown -R nobody nb
	as_nobody /usr/bin/cp -r nb/src nb/ref 2>nb/cp.err
	run_cmd out err as_nobody "$SPMOVE" -r --parallel=3 nb/src nb/dst
	check_eq "unreadable file: exit 1" 1 "$RC"
	check_eq "unreadable file: cp's message" "$(sed 's/^[^:]*cp:/spmove:/' nb/cp.err)" "$(cat err)"
	check_eq "unreadable file: the others copied" 19 "$(find nb/dst -type f | wc -l)"
	ok "unreadable file: every file there is complete" complete_in "$T_DIR/nb/src" nb/dst
else
	echo "# not root, no setpriv, or nobody cannot reach the build tree: the checks as a user left out"
fi

# Each directory gets its attributes only once its files are copied, though
# the walker goes on to the next directory while the workers finish them:
# with -a every directory keeps the source's mode and time (a file linked
# in after the time was set would leave the time of the copy).
mkdir times
d=0
while [ $d -lt 30 ]; do
	mkdir "times/d$d"
	i=0
	while [ $i -lt 40 ]; do
		printf '%s' "$d.$i" >"times/d$d/f$i"
		i=$((i + 1))
	done
	chmod 0750 "times/d$d"
	touch -d "2001-02-03 04:05:$((d % 60))" "times/d$d"
	d=$((d + 1))
done
touch -d "2001-02-03 04:06:00" times
dirs_of() { (cd "$1" && find . -type d -printf '%P %m %T@\n' | sort); }
run_cmd out err "$SPMOVE" -a times times-a
check_eq "-a, 30 directories: exit 0" 0 "$RC"
check_eq "-a, 30 directories: each has the source's mode and time" \
	"$(dirs_of times)" "$(dirs_of times-a)"
ok "-a, 30 directories: the copy is cp -a's" same_trees times times-a

# The unnamed file's fallbacks, on a single file.  linkat(2) by descriptor
# refused (ENOENT, as without CAP_DAC_READ_SEARCH before Linux 6.10): the
# link goes through /proc/thread-self/fd.
make_random one 50000
mkdir to
run_cmd out err traced -o trace -e trace=linkat -e inject=linkat:error=ENOENT:when=1 \
	"$SPMOVE" one to/one
check_eq "linkat by fd refused: exit 0" 0 "$RC"
same_files "linkat by fd refused: copied" one to/one
ok "linkat by fd refused: linked through /proc" grep -q '"/proc/thread-self/fd/[0-9]*"' trace
# The name taken meanwhile (EEXIST): linked to a temporary name and
# renamed over it, as a copy onto an existing file is.
run_cmd out err traced -f -o trace -e trace=linkat,renameat,renameat2 \
	-e inject=linkat:error=EEXIST:when=1 "$SPMOVE" one to/two
check_eq "name taken meanwhile: exit 0" 0 "$RC"
same_files "name taken meanwhile: copied" one to/two
ok "name taken meanwhile: renamed over it" grep -q 'rename.*"two"' trace
ok "name taken meanwhile: no temporary file" no_temp_left to
# A file system without O_TMPFILE (EOPNOTSUPP, as NFS or vfat): a named
# temporary file, renamed into place.
traced -o trace -e trace=openat "$SPMOVE" one to/three
n=$(grep -n O_TMPFILE trace | head -1 | cut -d: -f1)
ok "the unnamed file is made by O_TMPFILE" test -n "$n"
run_cmd out err traced -o trace -e trace=openat,renameat,renameat2 \
	-e inject=openat:error=EOPNOTSUPP:when="${n:-1}" "$SPMOVE" one to/four
check_eq "no O_TMPFILE: exit 0" 0 "$RC"
same_files "no O_TMPFILE: copied" one to/four
ok "no O_TMPFILE: a named temporary file renamed into place" grep -q 'rename.*"four"' trace
ok "no O_TMPFILE: no temporary file" no_temp_left to

done_testing
