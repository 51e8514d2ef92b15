# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a destination made earlier in the same run is never overwritten
# by a later source operand, as cp and mv (coreutils 9.11) refuse it:
# "will not overwrite just-created 'c/f' with 'b/f'", exit 1, the later
# source kept, the first one's data in the destination; a copy never writes
# through a symlink it has just made.  Inside trees (-r) a later tree's
# files do replace an earlier one's, as in cp; a move onto the directory
# just moved there fails as mv fails (the directory is not empty).
. "$top_srcdir/tests/lib.sh"

# fresh: empty directories a, b, c (and nothing else) in a new w/; the
# caller is left inside w/.
fresh() {
	cd "$T_DIR" && rm -rf w && mkdir w && cd w && mkdir a b c || exit 99
}

# refusal DESC MESSAGE ARGS...: spmove ARGS exits 1 with exactly MESSAGE on
# stderr.
refusal() {
	local what=$1 msg=$2; shift 2
	run_cmd ../out ../err "$SPMOVE" "$@"
	check_eq "$what: exit 1" 1 "$RC"
	check_eq "$what: message" "$msg" "$(cat ../err)"
}

for mode in copy move; do
	opt=
	[ $mode = move ] && opt=--remove-source
	for r in "" -r; do
		what="$mode${r:+ $r}"
		fresh
		echo A >a/f; echo B >b/f
		refusal "$what a/f b/f c" \
			"spmove: will not overwrite just-created 'c/f' with 'b/f'" $opt $r a/f b/f c
		check_eq "$what: c/f holds the first source" A "$(cat c/f)"
		check_eq "$what: b/f kept" B "$(cat b/f)"
		if [ $mode = move ]; then
			ok "$what: a/f moved" test ! -e a/f
		else
			check_eq "$what: a/f kept" A "$(cat a/f)"
		fi
		check_eq "$what: nothing else in c" f "$(ls -A c)"
	done

	# A later operand that is the same name again, through another path.
	fresh
	echo A >a/f; echo B >b/f
	refusal "$mode a/f b/f c with -t" \
		"spmove: will not overwrite just-created 'c/f' with 'b/f'" $opt -t c a/f b/f
	check_eq "$mode -t: c/f holds the first source" A "$(cat c/f)"
	check_eq "$mode -t: b/f kept" B "$(cat b/f)"
	# The refusal does not stop the operands after it.
	fresh
	echo A >a/f; echo B >b/f; echo G >b/g
	refusal "$mode a/f b/f b/g c" \
		"spmove: will not overwrite just-created 'c/f' with 'b/f'" $opt a/f b/f b/g c
	check_eq "$mode: the operand after the refusal is still done" G "$(cat c/g)"
done

# A symlink made by this run: a copy does not write through it, a move
# does not replace it.
fresh
ln -s foo a/1; echo x >b/1
refusal "copy -r a/1 b/1 c (symlink first)" \
	"spmove: will not copy 'b/1' through just-created symlink 'c/1'" -r a/1 b/1 c
check_eq "... the symlink is kept as made" foo "$(readlink c/1)"
ok "... nothing written through it" test ! -e c/foo -a ! -e foo
check_eq "... b/1 kept" x "$(cat b/1)"
fresh
ln -s foo a/1; echo x >b/1
refusal "move a/1 b/1 c (symlink first)" \
	"spmove: will not overwrite just-created 'c/1' with 'b/1'" --remove-source a/1 b/1 c
check_eq "... the moved symlink kept" foo "$(readlink c/1)"
check_eq "... b/1 kept" x "$(cat b/1)"

# Trees: the files of a later tree replace the earlier tree's in a copy.
fresh
mkdir a/d b/d; echo A >a/d/f; echo B >b/d/f
run_cmd ../out ../err "$SPMOVE" -r a/d b/d c
check_eq "copy -r of two trees with one name: exit 0" 0 "$RC"
check_eq "... silent" "" "$(cat ../out ../err)"
check_eq "... the later tree's file wins, as in cp" B "$(cat c/d/f)"
# A move renames a/d to c/d, then cannot replace that non-empty directory.
fresh
mkdir a/d b/d; echo A >a/d/f; echo B >b/d/f
refusal "move of two trees with one name" \
	"spmove: cannot overwrite 'c/d': Directory not empty" --remove-source a/d b/d c
check_eq "... the first tree moved" A "$(cat c/d/f)"
check_eq "... the second tree kept" B "$(cat b/d/f)"

# Across file systems (root): the same when the destination is a tmpfs.
if [ "$(id -u)" = 0 ]; then
	fresh
	if mount -t tmpfs -o size=4m tmpfs c; then
		at_exit "umount '$T_DIR/w/c' 2>/dev/null"
		echo A >a/f; echo B >b/f
		refusal "move across file systems a/f b/f c" \
			"spmove: will not overwrite just-created 'c/f' with 'b/f'" \
			--remove-source a/f b/f c
		check_eq "... c/f holds the first source" A "$(cat c/f)"
		check_eq "... b/f kept" B "$(cat b/f)"
		ok "... a/f moved" test ! -e a/f
		mkdir a/d b/d; echo A >a/d/f; echo B >b/d/f
		refusal "move across file systems of two trees with one name" \
			"spmove: inter-device move failed: 'b/d' to 'c/d'; unable to remove target: Directory not empty" \
			--remove-source a/d b/d c
		check_eq "... the first tree moved" A "$(cat c/d/f)"
		check_eq "... the second tree kept" B "$(cat b/d/f)"
		umount c
	else
		echo "# cannot mount a tmpfs: the checks across file systems are left out"
	fi
fi

cd "$T_DIR" || exit 99
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"

done_testing
