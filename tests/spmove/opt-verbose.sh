# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -v/--verbose, worded as GNU cp 9.11 (copies) and mv 9.11
# (--remove-source: renames, and as root moves across file systems).
. "$top_srcdir/tests/spmove/opt-lib.sh"

# setup NAME: a and b (files), d (an empty directory), t/sub/y (a tree with
# one entry per directory, so that the order of the lines is known).
setup() {
	fresh "$1"
	echo A >a; echo B >b
	mkdir d t t/sub
	echo Y >t/sub/y
}

setup copy
expect "copy -v" 0 "'a' -> 'b'" "" -v a b
check_eq "copy -v: the copy" A "$(content b)"
expect "copy --verbose into a directory" 0 "'a' -> 'd/a'
'b' -> 'd/b'" "" --verbose a b d
check_eq "copy --verbose into a directory: d/b (b is a copy of a by now)" A "$(content d/b)"
expect "copy --verb, -t" 0 "'a' -> 'd/a'" "" --verb -t d a
expect "copy -v, failed copy: the line, then the error" 1 "'a' -> 'nodir/x'" \
	"spmove: cannot create regular file 'nodir/x': No such file or directory" -v a nodir/x
expect "copy -v, missing source: no line" 1 "" \
	"spmove: cannot stat 'nope': No such file or directory" -v nope x
no_temp_left "copy -v"

setup tree
expect "copy -rv: each directory made and each file" 0 "'t' -> 'new'
't/sub' -> 'new/sub'
't/sub/y' -> 'new/sub/y'" "" -rv t new
check_eq "copy -rv: the tree" Y "$(content new/sub/y)"
expect "copy -rv into a directory" 0 "'t' -> 'd/t'
't/sub' -> 'd/t/sub'
't/sub/y' -> 'd/t/sub/y'" "" -rv t d
expect "copy -rv again: directories that exist are not announced" 0 \
	"'t/sub/y' -> 'd/t/sub/y'" "" -rv t d

setup backup
expect "copy -bv: the backup named" 0 "'a' -> 'b' (backup: 'b~')" "" -bv a b
check_eq "copy -bv: the copy" A "$(content b)"
check_eq "copy -bv: the backup" B "$(content 'b~')"
expect "copy -v -n onto an existing file: nothing said" 0 "" "" -v -n b a
check_eq "copy -v -n: a kept" A "$(content a)"

# Standard output closed or full: the copy is made, then "write error".
setup closed
"$SPMOVE" -v a c >&- 2>"$T_DIR/stderr"
check_eq "copy -v, stdout closed: status 1" 1 $?
check_eq "copy -v, stdout closed: message" "spmove: write error: Bad file descriptor" \
	"$(cat "$T_DIR/stderr")"
check_eq "copy -v, stdout closed: the copy made" A "$(content c)"
"$SPMOVE" --verbose -r t e >/dev/full 2>"$T_DIR/stderr"
check_eq "copy --verbose, stdout full: status 1" 1 $?
check_eq "copy --verbose, stdout full: message" \
	"spmove: write error: No space left on device" "$(cat "$T_DIR/stderr")"
check_eq "copy --verbose, stdout full: the tree copied" Y "$(content e/sub/y)"
no_temp_left "copy -v, stdout closed"

# Moves within a file system: renames.
setup rename
expect "move -v: renamed" 0 "renamed 'a' -> 'c'" "" --remove-source -v a c
ok "move -v: a gone" test ! -e a
expect "move -v a tree into a directory" 0 "renamed 't' -> 'd/t'" "" \
	--remove-source -v t d
check_eq "move -v a tree: there" Y "$(content d/t/sub/y)"
expect "move -bv: renamed, the backup named" 0 "renamed 'c' -> 'b' (backup: 'b~')" "" \
	--remove-source -bv c b
check_eq "move -bv: the file" A "$(content b)"
check_eq "move -bv: the backup" B "$(content 'b~')"
"$SPMOVE" --remove-source -v b x >&- 2>"$T_DIR/stderr"
check_eq "move -v, stdout closed: status 1" 1 $?
check_eq "move -v, stdout closed: message" "spmove: write error: Bad file descriptor" \
	"$(cat "$T_DIR/stderr")"
check_eq "move -v, stdout closed: moved all the same" A "$(content x)"

# Moves across file systems (root): copied, created directory, removed.
if [ "$(id -u)" = 0 ]; then
	setup crossfs
	mkdir other
	if mount -t tmpfs -o size=4m tmpfs other; then
		at_exit "umount '$T_DIR/crossfs/other'"
		expect "move -v across file systems" 0 "copied 'a' -> 'other/a'
removed 'a'" "" --remove-source -v a other/a
		check_eq "move -v across file systems: there" A "$(content other/a)"
		ok "move -v across file systems: a gone" test ! -e a
		expect "move -v a tree across file systems" 0 "created directory 'other/t'
created directory 'other/t/sub'
copied 't/sub/y' -> 'other/t/sub/y'
removed 't/sub/y'
removed directory 't/sub'
removed directory 't'" "" --remove-source -v t other
		check_eq "move -v a tree across file systems: there" Y "$(content other/t/sub/y)"
		ok "move -v a tree across file systems: t gone" test ! -e t
		expect "move -bv across file systems" 0 "copied 'b' -> 'other/a' (backup: 'other/a~')
removed 'b'" "" --remove-source -bv b other/a
		check_eq "move -bv across file systems: the file" B "$(content other/a)"
		check_eq "move -bv across file systems: the backup" A "$(content other/a~)"
		no_temp_left "move -v across file systems" .
	else
		echo "# cannot mount a tmpfs: the moves across file systems skipped"
	fi
else
	echo "# not root: the moves across file systems skipped"
fi

done_testing
