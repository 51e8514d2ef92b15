# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a destination that is a symbolic link.  A move replaces the link
# itself, as mv does (on one file system and across two), and never writes
# through it; a copy writes through it into the target as cp does (coreutils
# 9.11), refuses a dangling one ("not writing through dangling symlink
# 'dangle'", exit 1) unless POSIXLY_CORRECT is set, and with
# --remove-destination replaces the link.
. "$top_srcdir/tests/lib.sh"

# fresh: a new w/ holding f ("new"), t ("old", mode 604), s -> t and
# dangle -> nowhere; the caller is left inside w/.
fresh() {
	cd "$T_DIR" && rm -rf w && mkdir w && cd w || exit 99
	echo new >f
	echo old >t; chmod 604 t
	ln -s t s
	ln -s nowhere dangle
}

# result DESC RC ERR ARGS...: spmove ARGS exits RC with exactly ERR on
# stderr and nothing on stdout.
result() {
	local what=$1 rc=$2 msg=$3; shift 3
	run_cmd ../out ../err "$SPMOVE" "$@"
	check_eq "$what: exit $rc" "$rc" "$RC"
	check_eq "$what: stderr" "$msg" "$(cat ../err)"
	check_eq "$what: nothing on stdout" "" "$(cat ../out)"
}

# Copy: through the link, into the existing target, which keeps its mode.
# (cp rewrites t's inode in place; spmove replaces t whole so that a crash
# leaves the old or the new data, never a mix: the inode is not compared.)
fresh
result "copy f s" 0 "" f s
check_eq "copy f s: s still a link to t" t "$(readlink s)"
check_eq "copy f s: t has the new data" new "$(cat t)"
check_eq "copy f s: t keeps its mode" 604 "$(stat -c %a t)"
fresh
result "copy f dangle" 1 "spmove: not writing through dangling symlink 'dangle'" f dangle
check_eq "copy f dangle: the link unchanged" nowhere "$(readlink dangle)"
ok "copy f dangle: no target created" test ! -e nowhere
mkdir d; ln -s ../nowhere d/dl
result "copy f d/dl" 1 "spmove: not writing through dangling symlink 'd/dl'" f d/dl
ok "copy f d/dl: no target created" test ! -e nowhere
fresh
POSIXLY_CORRECT=1 result "POSIXLY_CORRECT copy f dangle" 0 "" f dangle
check_eq "POSIXLY_CORRECT: the target is created" new "$(cat nowhere)"
check_eq "POSIXLY_CORRECT: the link unchanged" nowhere "$(readlink dangle)"
fresh
result "copy --remove-destination f s" 0 "" --remove-destination f s
ok "... s is a regular file now" test -f s -a ! -L s
check_eq "... with the new data" new "$(cat s)"
check_eq "... t untouched" old "$(cat t)"
# A link to a directory is a directory: the copy goes into it.
fresh
mkdir d; ln -s d ds
result "copy f ds (a link to a directory)" 0 "" f ds
check_eq "... copied into the directory" new "$(cat d/f)"

# Move: the link is replaced, its target untouched.
move_checks() {
	local where=$1 dir=$2
	fresh
	t_ino=$(stat -c %i t)
	ln -s "$T_DIR/w/t" "$dir/s"; ln -s nowhere "$dir/dangle"
	result "move$where f onto a link" 0 "" --remove-source f "$dir/s"
	ok "move$where: the link replaced by the file" test -f "$dir/s" -a ! -L "$dir/s"
	check_eq "move$where: with f's data" new "$(cat "$dir/s")"
	check_eq "move$where: the link's target untouched" old "$(cat t)"
	check_eq "move$where: ... same inode" "$t_ino" "$(stat -c %i t)"
	ok "move$where: f removed" test ! -e f
	echo new >f
	result "move$where f onto a dangling link" 0 "" --remove-source f "$dir/dangle"
	ok "move$where: the dangling link replaced" test -f "$dir/dangle" -a ! -L "$dir/dangle"
	check_eq "move$where: ... with f's data" new "$(cat "$dir/dangle")"
	ok "move$where: nothing created at the link's target" \
		test ! -e nowhere -a ! -e "$dir/nowhere"
}
fresh
mkdir "$T_DIR/here"
move_checks "" "$T_DIR/here"
if [ "$(id -u)" = 0 ]; then
	mkdir "$T_DIR/o"
	if mount -t tmpfs -o size=4m tmpfs "$T_DIR/o"; then
		at_exit "umount '$T_DIR/o'"
		move_checks " across file systems" "$T_DIR/o"
	else
		echo "# cannot mount a tmpfs: the moves across file systems are left out"
	fi
fi

cd "$T_DIR" || exit 99
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"

done_testing
