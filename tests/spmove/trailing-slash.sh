# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a trailing slash on an operand means "a directory", as in cp and
# mv (coreutils 9.11): a file onto 'no-such/' or onto 'file/' is an error
# and creates or changes nothing; onto 'dir/' it goes into the directory; a
# directory onto 'new/' makes it; a file source named 'n/' cannot be stated.
. "$top_srcdir/tests/lib.sh"

# fresh: a new w/ holding n, file, d/ and tree/z; the caller is left in w/.
fresh() {
	cd "$T_DIR" && rm -rf w && mkdir w && cd w || exit 99
	echo n >n; echo o >file; mkdir d tree; echo z >tree/z
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

# unchanged DESC: w/ holds exactly what fresh made.
unchanged() {
	check_eq "$1: nothing created or changed" \
		"d file n tree tree/z | n o z" \
		"$(find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')| $(cat n file tree/z | tr '\n' ' ' | sed 's/ $//')"
}

fresh
result "copy n no-such/" 1 "spmove: cannot create regular file 'no-such/': Not a directory" n no-such/
unchanged "copy n no-such/"
fresh
result "move n no-such/" 1 "spmove: cannot move 'n' to 'no-such/': Not a directory" \
	--remove-source n no-such/
unchanged "move n no-such/"
fresh
result "copy n file/" 1 "spmove: cannot stat 'file/': Not a directory" n file/
unchanged "copy n file/"
fresh
result "move n file/" 1 "spmove: cannot stat 'file/': Not a directory" --remove-source n file/
unchanged "move n file/"
fresh
result "copy n/ x" 1 "spmove: cannot stat 'n/': Not a directory" n/ x
unchanged "copy n/ x"
fresh
result "move n/ x" 1 "spmove: cannot stat 'n/': Not a directory" --remove-source n/ x
unchanged "move n/ x"
fresh
result "copy n file e/ (no such target)" 1 "spmove: target 'e/': No such file or directory" \
	n file e/
unchanged "copy n file e/"
fresh
result "move n file e/ (no such target)" 1 "spmove: target 'e/': No such file or directory" \
	--remove-source n file e/
unchanged "move n file e/"

# Onto a directory with a slash: into it.
fresh
result "copy n d/" 0 "" n d/
check_eq "copy n d/: copied into d" n "$(cat d/n)"
fresh
result "move n d/" 0 "" --remove-source n d/
check_eq "move n d/: moved into d" n "$(cat d/n)"
ok "move n d/: n removed" test ! -e n
# A directory onto a new name with a slash: made there.
fresh
result "copy -r tree new/" 0 "" -r tree new/
check_eq "copy -r tree new/: the tree copied" z "$(cat new/z)"
check_eq "copy -r tree new/: the source kept" z "$(cat tree/z)"
fresh
result "move tree new/" 0 "" --remove-source tree new/
check_eq "move tree new/: the tree moved" z "$(cat new/z)"
ok "move tree new/: the source gone" test ! -e tree
fresh
result "move tree/ new" 0 "" --remove-source tree/ new
check_eq "move tree/ new: the tree moved" z "$(cat new/z)"

cd "$T_DIR" || exit 99
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"

done_testing
