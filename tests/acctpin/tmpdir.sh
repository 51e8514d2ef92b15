#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin makes its temporary directory in $TMPDIR and reaches it by name
# (and removes there what killed runs left): $TMPDIR is checked as --dir
# is.  A symbolic link, a directory other users may write without the
# sticky bit, or one another user owns is refused with a message and exit
# status 1, before anything is made there or removed; a sticky directory
# like /tmp is accepted (issue 23).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"

# refused WHAT DIR MESSAGE: acctpin run with TMPDIR=DIR fails with MESSAGE
# (after "acctpin: TMPDIR=DIR: ") and leaves DIR as it was.
refused() {
	ls -A "$2" >before 2>&1
	TMPDIR=$2 run_cmd out err "$ACCTPIN" run --scenario plain
	check_eq "TMPDIR $1: refused" "1 acctpin: TMPDIR=$2: $3" "$RC $(cat err)"
	ls -A "$2" >after 2>&1
	same_files "TMPDIR $1: nothing made or removed there" before after
}
mkdir target
ln -s target link
refused "a symbolic link" "$T_DIR/link" "a symbolic link; name the directory itself"
check_eq "TMPDIR a symbolic link: nothing made where it points" "" "$(ls -A target)"

mkdir open
chmod 777 open
refused "writable by all" "$T_DIR/open" \
	"writable by other users and not sticky: they could swap acctpin's directory there for a symbolic link"
chmod 775 open
refused "writable by its group" "$T_DIR/open" \
	"writable by other users and not sticky: they could swap acctpin's directory there for a symbolic link"
chmod 755 open
chown nobody open
refused "owned by another user" "$T_DIR/open" \
	"owned by another user, who could swap acctpin's directory there for a symbolic link"
refused "missing" "$T_DIR/nowhere" "No such file or directory"

chown root open
chmod 1777 open
TMPDIR=$T_DIR/open run_cmd out err "$ACCTPIN" run --scenario plain
check_eq "TMPDIR writable by all but sticky (as /tmp): accepted" "0 " "$RC $(cat err)"
check_eq "TMPDIR sticky: nothing left there" "" "$(ls -A open)"

# --dir is checked the same way: a symbolic link to a good directory too.
mkdir mnt
mount -t tmpfs -o size=32m aptest "$T_DIR/mnt" || skip "cannot mount a tmpfs"
at_exit "umount '$T_DIR/mnt'"
ln -s mnt mntlink
run_cmd out err "$ACCTPIN" run --dir "$T_DIR/mntlink" --scenario plain
check_eq "--dir a symbolic link: refused" \
	"1 acctpin: $T_DIR/mntlink: a symbolic link; name the directory itself" "$RC $(cat err)"
check_eq "--dir a symbolic link: nothing made where it points" "" "$(ls -A mnt)"
check_eq "temporary directory removed" "" "$(ls tmp)"
done_testing
