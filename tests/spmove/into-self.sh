# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a directory copied or moved into itself or into one of its
# subdirectories is refused as cp and mv (coreutils 9.11) refuse it --
# "cannot copy a directory, 'a', into itself, 'a/b/a'" and "cannot move 'a'
# to a subdirectory of itself, 'a/b/a'" -- exit 1, the source tree complete,
# and the other operands still copied or moved.
. "$top_srcdir/tests/lib.sh"

# listing DIR...: every name under DIR..., sorted.
listing() { find "$@" | LC_ALL=C sort | tr '\n' ' '; }

# fresh: a new w/ holding the tree a/ (a/f, a/b/) and the file g; the
# caller is left inside w/.
fresh() {
	cd "$T_DIR" && rm -rf w && mkdir w && cd w && mkdir -p a/b || exit 99
	echo x >a/f
	echo y >g
}

# refusal DESC MESSAGE ARGS...: spmove ARGS exits 1 with exactly MESSAGE on
# stderr and nothing on stdout.
refusal() {
	local what=$1 msg=$2; shift 2
	run_cmd ../out ../err "$SPMOVE" "$@"
	check_eq "$what: exit 1" 1 "$RC"
	check_eq "$what: message" "$msg" "$(cat ../err)"
	check_eq "$what: nothing on stdout" "" "$(cat ../out)"
}

# Copy: cp makes the copy up to the point where it would enter itself.
fresh
refusal "copy -r a a/b" "spmove: cannot copy a directory, 'a', into itself, 'a/b/a'" -r a a/b
check_eq "copy -r a a/b: the tree as cp leaves it" "a a/b a/b/a a/b/a/b a/f " "$(listing a)"
check_eq "copy -r a a/b: a/f intact" x "$(cat a/f)"
fresh
refusal "copy -r a a" "spmove: cannot copy a directory, 'a', into itself, 'a/a'" -r a a
check_eq "copy -r a a: a/f intact" x "$(cat a/f)"
ok "copy -r a a: no a/a/a" test ! -e a/a/a
fresh
refusal "copy -r a/. a/b" "spmove: cannot copy a directory, 'a/.', into itself, 'a/b/.'" -r a/. a/b
check_eq "copy -r a/. a/b: a/f intact" x "$(cat a/f)"
fresh
mkdir o
refusal "copy -r g a o a/b: the others still copied" \
	"spmove: cannot copy a directory, 'a', into itself, 'a/b/a'" -r g a o a/b
check_eq "... g copied" y "$(cat a/b/g)"
ok "... o copied" test -d a/b/o
check_eq "... g kept" y "$(cat g)"

# Move: nothing at all is moved of the refused operand.
fresh
refusal "move a a/b" "spmove: cannot move 'a' to a subdirectory of itself, 'a/b/a'" \
	--remove-source a a/b
check_eq "move a a/b: the tree unchanged" "a a/b a/f " "$(listing a)"
check_eq "move a a/b: a/f intact" x "$(cat a/f)"
fresh
refusal "move a a" "spmove: cannot move 'a' to a subdirectory of itself, 'a/a'" \
	--remove-source a a
check_eq "move a a: the tree unchanged" "a a/b a/f " "$(listing a)"
fresh
refusal "move a ./a/b/" "spmove: cannot move 'a' to a subdirectory of itself, './a/b/a'" \
	--remove-source a ./a/b/
check_eq "move a ./a/b/: the tree unchanged" "a a/b a/f " "$(listing a)"
fresh
mkdir o
refusal "move g a o a/b: the others still moved" \
	"spmove: cannot move 'a' to a subdirectory of itself, 'a/b/a'" --remove-source g a o a/b
check_eq "... g and o moved into a/b, a itself stayed" "a a/b a/b/g a/b/o a/f " "$(listing a)"
ok "... g and o gone from here" test ! -e g -a ! -e o
fresh
refusal "move -t a/b a g: the operand after it still moved" \
	"spmove: cannot move 'a' to a subdirectory of itself, 'a/b/a'" --remove-source -t a/b a g
check_eq "... g moved" y "$(cat a/b/g)"

cd "$T_DIR" || exit 99
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"

done_testing
