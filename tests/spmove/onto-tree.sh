# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -r onto a tree that is there already.  The walker hands each file
# its source directory lists as regular to the copy workers without looking
# at either name (no lstat(2) of it); the worker looks at the destination
# name itself and replaces only a regular file that cp would simply write
# into.  Whatever else the name holds -- a symbolic link (cp writes
# through it), a directory, a hard link of the source, a file whose links
# -a keeps -- goes back to the walker: the result and the messages are GNU
# cp's, compared in the same run, whichever directory the file was given
# back from.
. "$top_srcdir/tests/lib.sh"
require_strace
# Traced calls are counted from the program's own: not libtool's wrapper.
SPMOVE=$(real_bin spmove)
use_built_library
GNU_CP=$(gnu cp)

# 3 workers, so that the walker's queue is taken while it walks on.
preload_cpus 4
echo "# $CPUS CPUs for spmove"

# scene DIR: DIR/src and DIR/dst, the destination an older copy with
# other data, other modes and, by name:
#   f*        300 older files (mode 0600, 0640 or 0755) -- replaced
#   n*        not there -- made
#   lnk*      symbolic links to files outside the tree -- written through
#   isdir     a directory -- "cannot overwrite directory"
#   same      a hard link of the source -- "are the same file"
#   multi     a file with a second name, dst/other -- written in place
#             (-r) or replaced by a new file (-a keeps hard links)
#   acl       a file with an ACL naming nobody -- kept
#   new/      a directory the copy makes, after which the entries given
#             back above are still checked as in their own directory
#   acldir/   a directory with a default ACL, whose files have none: a
#             copy made there must not take the default's entries
scene() {
	mkdir -p "$1/src/sub/new" "$1/dst/sub/isdir" "$1/out"
	(
		cd "$1" || exit 1
		i=0
		while [ $i -lt 300 ]; do
			printf 'new data %s\n' $i >"src/sub/f$i"
			printf 'old %s\n' $i >"dst/sub/f$i"
			chmod "$(echo 0600 0640 0755 | cut -d' ' -f$((i % 3 + 1)))" "dst/sub/f$i"
			i=$((i + 1))
		done
		i=0
		while [ $i -lt 10 ]; do
			printf 'fresh %s\n' $i >"src/sub/n$i"
			printf 'linked %s\n' $i >"src/sub/lnk$i"
			printf 'target %s\n' $i >"out/t$i"
			ln -s "../../out/t$i" "dst/sub/lnk$i"
			printf 'below %s\n' $i >"src/sub/new/g$i"
			i=$((i + 1))
		done
		echo data >src/sub/isdir
		echo same >src/sub/same
		ln src/sub/same dst/sub/same
		echo new >src/sub/multi
		echo old >dst/sub/multi
		ln dst/sub/multi dst/other
		mkdir src/sub/acldir dst/sub/acldir
		for f in x0 x1 x2; do
			echo new >"src/sub/acldir/$f"
			echo old >"dst/sub/acldir/$f"
		done
		chmod 0600 dst/sub/acldir/x1
		setfacl -d -m u:nobody:rwx dst/sub/acldir
		echo new >src/sub/acl
		echo old >dst/sub/acl
		chmod 0640 dst/sub/acl
		setfacl -m u:nobody:rw dst/sub/acl
	)
}

# state DIR: what DIR/dst and DIR/out hold: names, types, modes, link
# counts, link targets, the contents of every file, and (unless -a, where
# a replaced file takes the source's permissions and no ACL, while GNU
# writes into it and leaves its named entries under a narrowed mask) the
# kept ACL.
state() {
	(cd "$1" && find dst out -printf '%p %y %m %n %l\n' | LC_ALL=C sort &&
		find dst out -type f | LC_ALL=C sort | xargs cat &&
		if [ "$ACL" = yes ]; then getfacl -R -c dst 2>&1; fi)
}

# compare DESC ARGS...: GNU cp ARGS src/sub dst in one scene, spmove ARGS
# in another: the same exit status, messages (in any order: the workers
# and the walker report as they go) and trees.
compare() {
	local what=$1; shift
	rm -rf g o
	scene g
	scene o
	(cd g && "$GNU_CP" "$@" src/sub dst) >g.out 2>g.err
	local gnu_rc=$?
	run_cmd o.out o.err sh -c 'cd o && exec "$@"' sh "$SPMOVE" "$@" src/sub dst
	check_eq "$what: cp's exit status ($gnu_rc)" "$gnu_rc" "$RC"
	# (coreutils before 9.2, Debian 12's 9.1 where the 9.11 build is not
	# at hand, leaves the source's name out of "with non-directory";
	# spmove words it as 9.11 does)
	check_eq "$what: cp's messages" \
		"$(as_cp "${GNU_CP##*/}" <g.err | sed -E "s/(with non-directory)\$/\\1 'src\/sub\/isdir'/" |
			LC_ALL=C sort)" \
		"$(as_cp spmove <o.err | LC_ALL=C sort)"
	check_eq "$what: cp's tree" "$(state g)" "$(state o)"
	ok "$what: no temporary file" sh -c '! find o -name ".spmove-*" | grep -q .'
}

ACL=yes
compare "-r" -r
ok "-r: the other link of a file written in place has the new data" \
	grep -qx new o/dst/other
ok "-r: a link's target has the new data" grep -qx 'linked 3' o/out/t3
ACL=no
# Under a umask that would cut the modes kept, each copy is made private
# and given its mode after, as before.
saved_umask=$(umask)
umask 077
compare "-r, umask 077" -r
umask "$saved_umask"
compare "-a" -a
ok "-a: the other link of a file replaced keeps the old data" grep -qx old o/dst/other

# The calls: the walker looks at no listed name, and each worker looks at
# the destination name once, through a descriptor.
rm -rf o
scene o
cd o || exit 99
# (LeakSanitizer cannot work under ptrace.)
run_cmd ../out ../err env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$STRACE" -f -qq -o ../trace \
	-e trace=newfstatat,statx,openat,fsetxattr,fchmod,renameat,getxattr "$SPMOVE" -r src/sub dst
cd .. || exit 99
check_eq "traced: exit 1 (the directory, the same file)" 1 "$RC"
ok "traced: no listed file looked at by name" \
	sh -c '! grep -E "(newfstatat|statx)\([^,]*, \"[fn][0-9]+\"" trace'
check_eq "traced: each existing destination opened once, O_PATH" 300 \
	"$(grep -cE 'openat\([0-9]+, "f[0-9]+", O_RDONLY\|O_NOFOLLOW\|O_CLOEXEC\|O_PATH' trace)"
check_eq "traced: each new name looked at once, O_PATH" 10 \
	"$(grep -cE 'openat\([0-9]+, "n[0-9]+", O_RDONLY\|O_NOFOLLOW\|O_CLOEXEC\|O_PATH' trace)"
# Where the directory has no default ACL, a file replaced is made with the
# mode it keeps, with nothing set after -- by a worker, or by the walker
# when it finds the queue full (300 files: more than the queue holds); the others -- the three in
# acldir, acl (its ACL) and the ten targets of lnk* (written through by
# the walker) -- are made private (0600) and given their permissions.
check_eq "traced: one look for a default ACL per directory that was there" 2 \
	"$(grep -c 'getxattr("/proc/thread-self/fd/[0-9]*", "system.posix_acl_default"' trace)"
check_eq "traced: permissions set for those 14 files only" 14 \
	"$(grep -cE '^[0-9]+ +(fsetxattr|fchmod)\(' trace)"
check_eq "traced: only those 14 (and the 100 f* of mode 0600) made 0600" 114 \
	"$(grep -cE 'openat\([0-9]+, "\.spmove-[^"]*", [^,]*, 0600' trace)"
ok "traced: every file replaced" sh -c 'for i in $(seq 0 299); do
	grep -qx "new data $i" "o/dst/sub/f$i" || exit 1; done'

done_testing
