# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -d, -P/--no-dereference, -L/--dereference, -H, with and without -r,
# and --preserve=links with -L, as GNU cp 9.11: without -r symlinks are
# followed; -r alone implies -P unless -L or -H is given.
. "$top_srcdir/tests/spmove/opt-lib.sh"

# setup NAME: f, a symlink sl to it, a dangling symlink dang, a directory d
# (d/x) with a symlink dl to it, and t/ holding a symlink t/in to ../f.
setup() {
	fresh "$1"
	echo F >f; ln -s f sl; ln -s nowhere dang
	mkdir d t o; echo in >d/x; ln -s d dl; ln -s ../f t/in
}

# kind PATH: "link -> TARGET", "file CONTENT", "dir" or "missing".
kind() {
	if [ -L "$1" ]; then echo "link -> $(readlink "$1")"
	elif [ -d "$1" ]; then echo dir
	elif [ -f "$1" ]; then echo "file $(cat "$1")"
	else echo missing
	fi
}

# Files on the command line.
for opt in "" -L --dereference -H; do
	setup "follow$opt"
	expect "'$opt' a symlink" 0 "" "" $opt sl o/c
	check_eq "'$opt' a symlink: its target's data" "file F" "$(kind o/c)"
	expect "'$opt' a dangling symlink" 1 "" \
		"spmove: cannot stat 'dang': No such file or directory" $opt dang o/d
	check_eq "'$opt' a dangling symlink: nothing made" missing "$(kind o/d)"
	no_temp_left "'$opt'"
done
for opt in -d -P --no-dereference --no-d; do
	setup "nofollow$opt"
	expect "$opt a symlink" 0 "" "" $opt sl o/c
	check_eq "$opt a symlink: a symlink" "link -> f" "$(kind o/c)"
	expect "$opt a dangling symlink" 0 "" "" $opt dang o/d
	check_eq "$opt a dangling symlink: a symlink" "link -> nowhere" "$(kind o/d)"
	check_eq "$opt: the original untouched" "link -> f" "$(kind sl)"
done
setup last-wins
expect "-L -P: the last wins" 0 "" "" -L -P sl o/c
check_eq "-L -P: a symlink" "link -> f" "$(kind o/c)"
expect "-P -L: the last wins" 0 "" "" -P -L sl o/e
check_eq "-P -L: a file" "file F" "$(kind o/e)"

# Trees: -r alone, -d and -P keep symlinks; -L follows all; -H only those on
# the command line.
for opt in "-r" "-r -d" "-r -P" "-R --no-dereference"; do
	setup "tree$opt"
	# shellcheck disable=SC2086 # opt is a list of words
	expect "'$opt' a symlink to a directory" 0 "" "" $opt dl o/c1
	check_eq "'$opt' a symlink to a directory: copied as a symlink" "link -> d" "$(kind o/c1)"
	# shellcheck disable=SC2086 # opt is a list of words
	expect "'$opt' a tree holding a symlink" 0 "" "" $opt t o/c2
	check_eq "'$opt' a tree holding a symlink: still a symlink" "link -> ../f" "$(kind o/c2/in)"
done
setup tree-L
expect "-rL a symlink to a directory" 0 "" "" -rL dl o/c1
check_eq "-rL a symlink to a directory: a directory" dir "$(kind o/c1)"
check_eq "-rL a symlink to a directory: its content" "file in" "$(kind o/c1/x)"
expect "-rL a tree holding a symlink" 0 "" "" -rL t o/c2
check_eq "-rL a tree holding a symlink: followed" "file F" "$(kind o/c2/in)"
setup tree-H
expect "-rH a symlink to a directory" 0 "" "" -rH dl o/c1
check_eq "-rH a symlink to a directory: a directory" dir "$(kind o/c1)"
check_eq "-rH a symlink to a directory: its content" "file in" "$(kind o/c1/x)"
expect "-rH a tree holding a symlink" 0 "" "" -rH t o/c2
check_eq "-rH a tree holding a symlink: not followed inside" "link -> ../f" "$(kind o/c2/in)"
setup tree-dangling
ln -s nowhere t/dang
expect "-r a tree with a dangling symlink" 0 "" "" -r t o/c
check_eq "-r a tree with a dangling symlink: kept" "link -> nowhere" "$(kind o/c/dang)"
expect "-rL a tree with a dangling symlink" 1 "" \
	"spmove: cannot stat 't/dang': No such file or directory" -rL t o/e
check_eq "-rL a tree with a dangling symlink: the rest copied" "file F" "$(kind o/e/in)"

# --preserve=links with -L: a file and a symlink to it become hard links.
setup links-L
expect "-L --preserve=links a file and its symlink" 0 "" "" -L --preserve=links f sl o
check_eq "-L --preserve=links: o/sl a file" "file F" "$(kind o/sl)"
ok "-L --preserve=links: o/f and o/sl one file" test o/f -ef o/sl
mkdir p
expect "-L without --preserve=links" 0 "" "" -L f sl p
ok "-L without --preserve=links: two files" test ! p/f -ef p/sl
mkdir -p u; echo T >u/a; ln -s a u/s1; ln -s a u/s2
expect "-rL --preserve=links a tree" 0 "" "" -rL --preserve=links u q
ok "-rL --preserve=links: s1 and a one file" test q/a -ef q/s1
ok "-rL --preserve=links: s2 and a one file" test q/a -ef q/s2
expect "-rL a tree" 0 "" "" -rL u r
ok "-rL: separate files" test ! r/a -ef r/s1
# -d keeps hard links between operands too.
ln f f2; mkdir s
expect "-d two hard links" 0 "" "" -d f f2 s
ok "-d two hard links: one file" test s/f -ef s/f2

# A move moves the symlink itself.
setup move
expect "move a symlink" 0 "" "" --remove-source sl o/m
check_eq "move a symlink: a symlink there" "link -> f" "$(kind o/m)"
ok "move a symlink: gone here" test ! -L sl
check_eq "move a symlink: its target untouched" "file F" "$(kind f)"
expect "move a dangling symlink" 0 "" "" --remove-source dang o/n
check_eq "move a dangling symlink: there" "link -> nowhere" "$(kind o/n)"

done_testing
