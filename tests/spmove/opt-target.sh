# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -T/--no-target-directory and the operand count, as GNU cp 9.11
# (copy) and mv 9.11 (--remove-source).
. "$top_srcdir/tests/spmove/opt-lib.sh"

# setup: a and b (files), d (an empty directory), e (a directory holding
# e/old), t/sub/y (a small tree).
setup() {
	fresh "$1"
	echo A >a; echo B >b
	mkdir d e t t/sub
	echo old >e/old; echo Y >t/sub/y
}

for mode in copy move; do
	case $mode in copy) mv_opt= ;; move) mv_opt=--remove-source ;; esac
	# -T: the last operand is the destination itself, even an existing file.
	setup "$mode-file"
	expect "$mode -T onto a file" 0 "" "" $mv_opt -T a b
	check_eq "$mode -T onto a file: content" A "$(content b)"
	no_temp_left "$mode -T onto a file"
	for opt in --no-target-directory --no-target; do
		setup "$mode-long$opt"
		expect "$mode $opt to a new name" 0 "" "" $mv_opt "$opt" a new
		check_eq "$mode $opt to a new name: content" A "$(content new)"
	done
	# -T onto a directory: never into it.
	setup "$mode-dir"
	expect "$mode -T file onto a directory" 1 "" \
		"spmove: cannot overwrite directory 'd' with non-directory 'a'" $mv_opt -T a d
	check_eq "$mode -T file onto a directory: d untouched" "" "$(ls -A d)"
	check_eq "$mode -T file onto a directory: a kept" A "$(content a)"
	# Too many operands with -T; -T with -t.
	setup "$mode-extra"
	usage_expect "$mode -T with three operands" "extra operand 'd'" $mv_opt -T a b d
	check_eq "$mode -T with three operands: b untouched" B "$(content b)"
	check_eq "$mode -T with three operands: a kept" A "$(content a)"
	check_eq "$mode -T with three operands: nothing in d" "" "$(ls -A d)"
	for args in "-t d -T a" "-T -t d a" "--no-target-directory --target-directory=d a"; do
		setup "$mode-tT"
		# shellcheck disable=SC2086 # args is a list of words
		expect "$mode $args" 1 "" \
			"spmove: cannot combine --target-directory (-t) and --no-target-directory (-T)" \
			$mv_opt $args
		check_eq "$mode $args: nothing in d" "" "$(ls -A d)"
		check_eq "$mode $args: a kept" A "$(content a)"
	done
	# Several sources and a last operand that is no directory.
	setup "$mode-many"
	expect "$mode two sources, missing target" 1 "" \
		"spmove: target 'c': No such file or directory" $mv_opt a b c
	ok "$mode two sources, missing target: nothing made" test ! -e c
	expect "$mode two sources, file target" 1 "" \
		"spmove: target 'b': Not a directory" $mv_opt a e b
	check_eq "$mode two sources, file target: b untouched" B "$(content b)"
	check_eq "$mode two sources, file target: a kept" A "$(content a)"
	expect "$mode -t a file" 1 "" "spmove: target directory 'a': Not a directory" \
		$mv_opt -t a b
	expect "$mode -t a missing directory" 1 "" \
		"spmove: target directory 'nodir': No such file or directory" $mv_opt -t nodir a
	check_eq "$mode -t a missing directory: a kept" A "$(content a)"
done

# Copy: -rT merges a directory's content into an existing one.
setup copy-tree
expect "copy -rT into an existing directory" 0 "" "" -rT t e
check_eq "copy -rT: the content merged, no e/t" "./old
./sub
./sub/y" "$(cd e && listing)"
check_eq "copy -rT: the file copied" Y "$(content e/sub/y)"
expect "copy -r without -T: into it" 0 "" "" -r t d
check_eq "copy -r without -T: d/t made" Y "$(content d/t/sub/y)"

# Move: -T renames a directory onto an empty one, refuses a non-empty one.
setup move-tree
expect "move -T a directory onto an empty one" 0 "" "" --remove-source -T t d
check_eq "move -T onto an empty directory: the tree there" "./sub
./sub/y" "$(cd d && listing)"
ok "move -T onto an empty directory: the source gone" test ! -e t
expect "move -T a directory onto a non-empty one" 1 "" \
	"spmove: cannot overwrite 'e': Directory not empty" --remove-source -T d e
check_eq "move -T onto a non-empty directory: e untouched" "./old" "$(cd e && listing)"
check_eq "move -T onto a non-empty directory: d kept" Y "$(content d/sub/y)"
no_temp_left "move -T"

done_testing
