# SPDX-License-Identifier: GPL-2.0-or-later
# spmove --remove-destination, as GNU cp 9.11: an existing destination is
# removed before the copy is made (a new inode; other hard links and a
# symlink's target keep their data); and --rem is now ambiguous.
. "$top_srcdir/tests/spmove/opt-lib.sh"

# setup NAME: a (the source), b with a second hard link b2, a symlink s to
# tgt, a dangling symlink dl, a directory d.
setup() {
	fresh "$1"
	echo A >a; echo B >b; ln b b2
	echo T >tgt; ln -s tgt s; ln -s nowhere dl
	mkdir d
}

setup hardlink
ino=$(stat -c %i b)
expect "onto a hard-linked file" 0 "" "" --remove-destination a b
check_eq "onto a hard-linked file: the copy" A "$(content b)"
ok "onto a hard-linked file: a new inode" test "$(stat -c %i b)" != "$ino"
check_eq "onto a hard-linked file: the other link keeps its data" B "$(content b2)"
check_eq "onto a hard-linked file: the other link alone now" 1 "$(stat -c %h b2)"
no_temp_left "onto a hard-linked file"

setup symlink
expect "onto a symlink" 0 "" "" --remove-destination a s
ok "onto a symlink: s is a regular file now" test -f s -a ! -L s
check_eq "onto a symlink: the copy" A "$(content s)"
check_eq "onto a symlink: the link's target untouched" T "$(content tgt)"

setup dangling
expect "without it, onto a dangling symlink" 1 "" \
	"spmove: not writing through dangling symlink 'dl'" a dl
check_eq "without it, onto a dangling symlink: still a link" nowhere "$(readlink dl)"
ok "without it, onto a dangling symlink: no target made" test ! -e nowhere
expect "onto a dangling symlink" 0 "" "" --remove-destination a dl
ok "onto a dangling symlink: a regular file now" test -f dl -a ! -L dl
check_eq "onto a dangling symlink: the copy" A "$(content dl)"
ok "onto a dangling symlink: no target made" test ! -e nowhere

setup verbose
expect "with -v: the removal, then the copy" 0 "removed 'b'
'a' -> 'b'" "" -v --remove-destination a b
expect "with -v onto a new name: only the copy" 0 "'a' -> 'new'" "" \
	-v --remove-destination a new
expect "onto a directory: into it" 0 "" "" --remove-destination a d
check_eq "onto a directory: d/a" A "$(content d/a)"
expect "--remove-d is it" 0 "" "" --remove-d a b
check_eq "--remove-d: the copy" A "$(content b)"

# --rem, --remove and --remove- now name two options.
for abbr in --rem --remove --remove-; do
	setup "ambiguous$abbr"
	"$SPMOVE" "$abbr" a b >"$T_DIR/stdout" 2>"$T_DIR/stderr"
	check_eq "$abbr: status 1" 1 $?
	check_eq "$abbr: nothing on stdout" "" "$(cat "$T_DIR/stdout")"
	first=$(head -1 "$T_DIR/stderr")
	ok "$abbr: ambiguous, both possibilities named (got [$first])" test \
		"$first" = "spmove: option '$abbr' is ambiguous; possibilities: '--remove-source' '--remove-destination'" -o \
		"$first" = "spmove: option '$abbr' is ambiguous; possibilities: '--remove-destination' '--remove-source'"
	check_eq "$abbr: the hint" "Try 'spmove --help' for more information." \
		"$(sed -n 2p "$T_DIR/stderr")"
	check_eq "$abbr: b untouched" B "$(content b)"
	check_eq "$abbr: a kept" A "$(content a)"
done

# As a user: a destination that cannot be written is replaced only with
# --remove-destination (the directory is writable).
if [ "$(id -u)" = 0 ] && nobody_runs "$SPMOVE"; then
	setup user
	chmod 755 "$T_DIR"
	echo RO >ro; chmod 444 ro; chown nobody . ro
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	as_nobody "$SPMOVE" a ro >"$T_DIR/stdout" 2>"$T_DIR/stderr"
	check_eq "user, read-only destination: status 1" 1 $?
	check_eq "user, read-only destination: message" \
		"spmove: cannot create regular file 'ro': Permission denied" "$(cat "$T_DIR/stderr")"
	check_eq "user, read-only destination: untouched" RO "$(content ro)"
	as_nobody "$SPMOVE" --remove-destination a ro >"$T_DIR/stdout" 2>"$T_DIR/stderr"
	check_eq "user, read-only destination, --remove-destination: status 0" 0 $?
	check_eq "user, read-only destination, --remove-destination: the copy" A "$(content ro)"
	check_eq "user, read-only destination, --remove-destination: owned by the user" \
		nobody "$(stat -c %U ro)"
else
	echo "# not root, no setpriv, or nobody cannot reach the build tree: the checks as a user left out"
fi

done_testing
