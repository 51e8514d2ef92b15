# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -b, --backup[=CONTROL], -S/--suffix, VERSION_CONTROL and
# SIMPLE_BACKUP_SUFFIX, as GNU cp 9.11 (copy) and mv 9.11 (--remove-source).
. "$top_srcdir/tests/spmove/opt-lib.sh"
unset VERSION_CONTROL SIMPLE_BACKUP_SUFFIX

VALID="Valid arguments are:
  - 'none', 'off'
  - 'simple', 'never'
  - 'existing', 'nil'
  - 'numbered', 't'"

# setup NAME: a ("A") and b ("B") in a fresh directory NAME.
setup() {
	fresh "$1"
	echo A >a; echo B >b
}

for mode in copy move; do
	case $mode in copy) mv_opt= verb=copied ;; move) mv_opt=--remove-source verb=moved ;; esac
	# Simple backups: -b, --backup, --backup=simple|never, and the suffixes.
	for args in "-b" "--backup" "--backup=simple" "--backup=never" "--backup=si" \
		"--backup=numbered --backup=simple"; do
		setup "$mode-simple"
		# shellcheck disable=SC2086 # args is a list of words
		expect "$mode $args" 0 "" "" $mv_opt $args a b
		check_eq "$mode $args: the file" A "$(content b)"
		check_eq "$mode $args: b~ holds the old one" B "$(content 'b~')"
		check_eq "$mode $args: nothing else" "./b
./b~" "$(listing | grep -v '^./a$')"
	done
	setup "$mode-suffix"
	expect "$mode -S .s" 0 "" "" $mv_opt -S .s a b
	check_eq "$mode -S .s: b.s" B "$(content b.s)"
	setup "$mode-suffix-long"
	expect "$mode --suffix=.x" 0 "" "" $mv_opt --suffix=.x a b
	check_eq "$mode --suffix=.x: b.x" B "$(content b.x)"
	setup "$mode-suffix-env"
	SIMPLE_BACKUP_SUFFIX=.bak expect "$mode SIMPLE_BACKUP_SUFFIX" 0 "" "" $mv_opt -b a b
	check_eq "$mode SIMPLE_BACKUP_SUFFIX: b.bak" B "$(content b.bak)"
	setup "$mode-suffix-env-S"
	SIMPLE_BACKUP_SUFFIX=.bak expect "$mode -S wins over SIMPLE_BACKUP_SUFFIX" 0 "" "" \
		$mv_opt -S .s a b
	check_eq "$mode -S wins over SIMPLE_BACKUP_SUFFIX: b.s" B "$(content b.s)"
	ok "$mode -S wins over SIMPLE_BACKUP_SUFFIX: no b.bak" test ! -e b.bak
	# No backup: none, off, no -b (even with VERSION_CONTROL), a new name.
	for args in "--backup=none" "--backup=off" "--backup=none -b" ""; do
		setup "$mode-none"
		# shellcheck disable=SC2086 # args is a list of words
		VERSION_CONTROL=numbered expect "$mode '$args'" 0 "" "" $mv_opt $args a b
		check_eq "$mode '$args': the file" A "$(content b)"
		check_eq "$mode '$args': no backup" "./b" "$(listing | grep -v '^./a$')"
	done
	setup "$mode-new"
	expect "$mode -b to a new name" 0 "" "" $mv_opt -b a c
	ok "$mode -b to a new name: no backup" test ! -e 'c~'
	# Numbered backups count up; existing/nil follows what is there.
	fresh "$mode-numbered"
	echo old >b
	for n in 1 2 3; do
		echo "$n" >"src$n"
		expect "$mode --backup=numbered, #$n" 0 "" "" $mv_opt --backup=numbered "src$n" b
		check_eq "$mode --backup=numbered, #$n: b.~$n~" \
			"$([ "$n" = 1 ] && echo old || echo $((n - 1)))" "$(content "b.~$n~")"
	done
	check_eq "$mode --backup=numbered: b" 3 "$(content b)"
	echo 4 >src4
	expect "$mode --backup=t" 0 "" "" $mv_opt --backup=t src4 b
	check_eq "$mode --backup=t: b.~4~" 3 "$(content 'b.~4~')"
	echo 5 >src5
	expect "$mode --backup=existing where numbered ones exist" 0 "" "" \
		$mv_opt --backup=existing src5 b
	check_eq "$mode --backup=existing: b.~5~" 4 "$(content 'b.~5~')"
	ok "$mode --backup=existing: no b~" test ! -e 'b~'
	setup "$mode-nil"
	expect "$mode --backup=nil where none exist" 0 "" "" $mv_opt --backup=nil a b
	check_eq "$mode --backup=nil: b~" B "$(content 'b~')"
	setup "$mode-env"
	VERSION_CONTROL=numbered expect "$mode VERSION_CONTROL=numbered -b" 0 "" "" $mv_opt -b a b
	check_eq "$mode VERSION_CONTROL=numbered: b.~1~" B "$(content 'b.~1~')"
	setup "$mode-env-arg"
	VERSION_CONTROL=numbered expect "$mode --backup=simple wins over VERSION_CONTROL" 0 "" "" \
		$mv_opt --backup=simple a b
	check_eq "$mode --backup=simple wins over VERSION_CONTROL: b~" B "$(content 'b~')"
	# Bad values.
	setup "$mode-bad"
	usage_expect "$mode --backup=bogus" "invalid argument 'bogus' for 'backup type'
$VALID" $mv_opt --backup=bogus a b
	check_eq "$mode --backup=bogus: b untouched" B "$(content b)"
	usage_expect "$mode --backup=n" "ambiguous argument 'n' for 'backup type'
$VALID" $mv_opt --backup=n a b
	VERSION_CONTROL=bad usage_expect "$mode VERSION_CONTROL=bad" \
		"invalid argument 'bad' for '\$VERSION_CONTROL'
$VALID" $mv_opt -b a b
	check_eq "$mode bad values: b untouched" B "$(content b)"
	check_eq "$mode bad values: a kept" A "$(content a)"
	check_eq "$mode bad values: no backup" "./a
./b" "$(listing)"
	# The backup would be the source: refused, both kept; not for numbered.
	setup "$mode-is-src"
	echo X >'a~'
	expect "$mode -b a~ a" 1 "" \
		"spmove: backing up 'a' might destroy source;  'a~' not $verb" $mv_opt -b 'a~' a
	check_eq "$mode -b a~ a: a untouched" A "$(content a)"
	check_eq "$mode -b a~ a: a~ kept" X "$(content 'a~')"
	expect "$mode --backup=numbered a~ a: allowed" 0 "" "" $mv_opt --backup=numbered 'a~' a
	check_eq "$mode --backup=numbered a~ a: a" X "$(content a)"
	check_eq "$mode --backup=numbered a~ a: a.~1~" A "$(content 'a.~1~')"
	no_temp_left "$mode backups"
done

# Copy: a hard-linked destination is renamed to the backup; the copy is a
# new file, the other link keeps the old data.
setup copy-hardlink
ln b b2
expect "copy -b onto a hard-linked file" 0 "" "" -b a b
check_eq "copy -b onto a hard-linked file: b" A "$(content b)"
check_eq "copy -b onto a hard-linked file: b~" B "$(content 'b~')"
check_eq "copy -b onto a hard-linked file: b2" B "$(content b2)"
ok "copy -b onto a hard-linked file: b~ is b2" test 'b~' -ef b2
# -b -f a a: a backup of a, then a copy of it.
setup copy-self
expect "copy -b -f a a" 0 "" "" -b -f a a
check_eq "copy -b -f a a: a" A "$(content a)"
check_eq "copy -b -f a a: a~" A "$(content 'a~')"
expect "copy -b a a (no -f): the same file" 1 "" "spmove: 'a' and 'a' are the same file" -b a a

# -b with directories: the files in them get backups, directories do not.
fresh dirs
mkdir d e; echo in >d/f
expect "copy -rb into a directory" 0 "" "" -rb d e
expect "copy -rb again" 0 "" "" -rb d e
check_eq "copy -rb: the file's backup, no directory backup" "./e
./e/d
./e/d/f
./e/d/f~" "$(listing | grep '^./e')"
check_eq "copy -rb: the backup's content" in "$(content 'e/d/f~')"
mkdir m; echo old >m/f
expect "move -b a directory onto one" 0 "" "" --remove-source -b -T d m
check_eq "move -b a directory onto one: moved" in "$(content m/f)"
check_eq "move -b a directory onto one: the old one is m~" old "$(content 'm~/f')"
ok "move -b a directory onto one: d gone" test ! -e d

done_testing
