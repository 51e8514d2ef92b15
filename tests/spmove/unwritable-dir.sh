# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a destination file the user may write in a directory the user may
# not: the copy cannot go through a temporary file, so it is written in
# place, as GNU cp writes every copy (root; the copy runs as nobody).  -v
# says so; a move still needs the directory, and is refused as mv's.
. "$top_srcdir/tests/lib.sh"
require_root
nobody_runs "$SPMOVE" || skip "nobody cannot run the build tree's tools"
chmod 755 "$T_DIR"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

mkdir d
echo old >d/f
chmod 666 d/f
echo new >src
chmod 644 src
run_cmd out err as_nobody "$SPMOVE" src d/f
check_eq "copy into a writable file of an unwritable directory: exit 0" 0 "$RC"
check_eq "copy: silent" "" "$(cat out err)"
check_eq "copy: the new data" new "$(cat d/f)"
check_eq "copy: the file keeps its owner and mode" "root 666" "$(stat -c '%U %a' d/f)"
check_eq "copy: nothing temporary" "" "$(ls -A d | grep -v '^f$')"

echo old >d/f
run_cmd out err as_nobody "$SPMOVE" -v src d/f
check_eq "copy -v: exit 0" 0 "$RC"
check_eq "copy -v: the line" "'src' -> 'd/f'" "$(cat out)"
# (The file is root's: that it cannot stay so is said first, issue 35.)
check_eq "copy -v: says it writes in place" \
	"spmove: 'd/f': its owner cannot be kept: writing in place" "$(cat err)"

echo old >d/f
run_cmd out err as_nobody "$SPMOVE" --remove-source src d/f
check_eq "move into an unwritable directory: exit 1" 1 "$RC"
check_eq "move: the destination as it was" old "$(cat d/f)"
ok "move: the source kept" test -f src

# GNU cp, where the peers are installed, does the same.
gnu_cp=$(gnu cp)
if [ -x "$gnu_cp" ]; then
	echo old >d/f
	run_cmd out err as_nobody "$gnu_cp" src d/f
	check_eq "GNU cp: exit 0 too" 0 "$RC"
	check_eq "GNU cp: the new data too" new "$(cat d/f)"
fi
done_testing
