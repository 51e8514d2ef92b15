# SPDX-License-Identifier: GPL-2.0-or-later
# spmove -u/--update[=all|none|none-fail|older] with -n, -i and -f, as GNU
# cp 9.11 (copy) and mv 9.11 (--remove-source). In both, -n means
# --update=none whatever the order (skip, status 0) and --update=none-fail
# skips with "not replacing" and status 1; -i and -n: the last one wins; cp's
# -f does not undo -i or -n, mv's -f, -i and -n: the last one wins.
. "$top_srcdir/tests/spmove/opt-lib.sh"

OLD=2000-01-01
NEW=2020-01-01
# pair NAME AGE_OF_A AGE_OF_B: a fresh directory NAME with a ("new") and b
# ("old") dated as given.
pair() {
	fresh "$1"
	echo new >a; echo old >b
	touch -d "$2" a; touch -d "$3" b
}

# outcome DESCRIPTION B_CONTENT A_STATE: b holds B_CONTENT; a is "kept"
# or "gone".
outcome() {
	check_eq "$1: b" "$2" "$(content b)"
	if [ "$3" = kept ]; then
		check_eq "$1: a kept" new "$(content a)"
	else
		ok "$1: a gone" test ! -e a
	fi
	no_temp_left "$1"
}

for mode in copy move; do
	case $mode in
	copy) mv_opt= moved=kept ;;
	move) mv_opt=--remove-source moved=gone ;;
	esac
	# -u and --update=older: only onto an older destination.
	for opt in -u --update --update=older --up=o; do
		pair "$mode$opt-older" $NEW $OLD
		expect "$mode $opt, destination older" 0 "" "" $mv_opt $opt a b
		outcome "$mode $opt, destination older" new $moved
		pair "$mode$opt-newer" $OLD $NEW
		expect "$mode $opt, destination newer" 0 "" "" $mv_opt $opt a b
		outcome "$mode $opt, destination newer" old kept
	done
	pair "$mode-u-same" $OLD $OLD
	expect "$mode -u, same time" 0 "" "" $mv_opt -u a b
	outcome "$mode -u, same time" old kept
	pair "$mode-u-new" $OLD $NEW
	expect "$mode -u, no destination" 0 "" "" $mv_opt -u a c
	check_eq "$mode -u, no destination: made" new "$(content c)"
	# --update=all, and the last --update wins.
	for args in "--update=all" "-u --update=all" "--update=none --update=all"; do
		pair "$mode-all" $OLD $NEW
		# shellcheck disable=SC2086 # args is a list of words
		expect "$mode $args" 0 "" "" $mv_opt $args a b
		outcome "$mode $args" new $moved
	done
	pair "$mode-all-u" $OLD $NEW
	expect "$mode --update=all -u: older wins" 0 "" "" $mv_opt --update=all -u a b
	outcome "$mode --update=all -u" old kept
	# none, none-fail and -n.
	for args in "--update=none" "-n" "--no-clobber" "-n --update=all" "--update=all -n" \
		"--update=none-fail -n" "-f -n" "-n --update=none-fail"; do
		pair "$mode-none" $NEW $OLD
		# shellcheck disable=SC2086 # args is a list of words
		expect "$mode $args: skipped, status 0" 0 "" "" $mv_opt $args a b
		outcome "$mode $args" old kept
	done
	pair "$mode-nonefail" $NEW $OLD
	expect "$mode --update=none-fail" 1 "" "spmove: not replacing 'b'" \
		$mv_opt --update=none-fail a b
	outcome "$mode --update=none-fail" old kept
	pair "$mode-nonefail-new" $NEW $OLD
	expect "$mode --update=none-fail, no destination" 0 "" "" $mv_opt --update=none-fail a c
	check_eq "$mode --update=none-fail, no destination: made" new "$(content c)"
	# -i: asks; "n" keeps the destination and fails; -u first decides
	# without asking.
	pair "$mode-i-n" $NEW $OLD
	echo n | expect "$mode -i answered n" 1 "" "spmove: overwrite 'b'? " $mv_opt -i a b
	outcome "$mode -i answered n" old kept
	pair "$mode-i-y" $NEW $OLD
	echo y | expect "$mode -i answered y" 0 "" "spmove: overwrite 'b'? " $mv_opt -i a b
	outcome "$mode -i answered y" new $moved
	pair "$mode-i-u" $OLD $NEW
	echo y | expect "$mode -i -u, destination newer: not asked" 0 "" "" $mv_opt -i -u a b
	outcome "$mode -i -u, destination newer" old kept
	pair "$mode-i-none" $NEW $OLD
	echo y | expect "$mode -i --update=none: not asked" 0 "" "" $mv_opt -i --update=none a b
	outcome "$mode -i --update=none" old kept
	pair "$mode-i-nonefail" $NEW $OLD
	echo y | expect "$mode -i --update=none-fail: not asked" 1 "" \
		"spmove: not replacing 'b'" $mv_opt -i --update=none-fail a b
	pair "$mode-n-i" $NEW $OLD
	echo y | expect "$mode -n -i: -i wins" 0 "" "spmove: overwrite 'b'? " $mv_opt -n -i a b
	outcome "$mode -n -i" new $moved
	pair "$mode-i-n" $NEW $OLD
	echo y | expect "$mode -i -n: -n wins" 0 "" "" $mv_opt -i -n a b
	outcome "$mode -i -n" old kept
	pair "$mode-f-i" $NEW $OLD
	echo n | expect "$mode -f -i: -i wins" 1 "" "spmove: overwrite 'b'? " $mv_opt -f -i a b
	outcome "$mode -f -i" old kept
	# Bad words, and --backup with a skipping update.
	pair "$mode-bad" $NEW $OLD
	for word in bogus "" no older-; do
		case $word in bogus | older-) kind=invalid ;; *) kind=ambiguous ;; esac
		expect "$mode --update=$word" 1 "" "spmove: $kind argument '$word' for '--update'
Valid arguments are:
  - 'all'
  - 'none'
  - 'none-fail'
  - 'older'
Try 'spmove --help' for more information." $mv_opt --update="$word" a b
		outcome "$mode --update=$word" old kept
	done
done

# -i -f and -n -f: cp's -f does not undo -i or -n; mv's does.
pair copy-n-f $NEW $OLD
expect "copy -n -f: skipped" 0 "" "" -n -f a b
outcome "copy -n -f" old kept
pair move-n-f $NEW $OLD
expect "move -n -f: -f wins" 0 "" "" --remove-source -n -f a b
outcome "move -n -f" new gone
pair copy-i-f $NEW $OLD
echo n | expect "copy -i -f: still asks" 1 "" "spmove: overwrite 'b'? " -i -f a b
outcome "copy -i -f" old kept
pair move-i-f $NEW $OLD
expect "move -i -f: -f wins, not asked" 0 "" "" --remove-source -i -f a b </dev/null
outcome "move -i -f" new gone

# --backup with -n, --update=none or none-fail: refused before anything.
for args in "-b -n" "--backup --update=none" "-b --update=none-fail"; do
	pair "backup-none" $NEW $OLD
	# shellcheck disable=SC2086 # args is a list of words
	usage_expect "copy $args" "--backup is mutually exclusive with -n or --update=none-fail" \
		$args a b
	outcome "copy $args" old kept
	ok "copy $args: no backup" test ! -e 'b~'
	# shellcheck disable=SC2086 # args is a list of words
	usage_expect "move $args" "cannot combine --backup with --exchange, -n, or --update=none-fail" \
		--remove-source $args a b
	outcome "move $args" old kept
done

# --update=none-, an abbreviation of none-fail.
pair abbrev $NEW $OLD
expect "copy --update=none-: none-fail" 1 "" "spmove: not replacing 'b'" --update=none- a b
outcome "copy --update=none-" old kept

# -ru: in a tree, only the older files are replaced; none-fail names each.
fresh tree
mkdir -p s/t dd/s/t
echo new >s/t/f; echo new >s/t/g
echo old >dd/s/t/f; echo newer >dd/s/t/g; echo keep >dd/s/t/h
touch -d $NEW s/t/f s/t/g; touch -d $OLD dd/s/t/f; touch -d 2030-01-01 dd/s/t/g
expect "copy -ru into a tree" 0 "" "" -ru s dd
check_eq "copy -ru: the older file replaced" new "$(content dd/s/t/f)"
check_eq "copy -ru: the newer file kept" newer "$(content dd/s/t/g)"
check_eq "copy -ru: the other file kept" keep "$(content dd/s/t/h)"

# -ru with copy workers: the walker decides which files to replace and
# hands them over with its look at each; a rewritten file keeps its mode,
# as GNU cp 9.11's write into it keeps it (mode 600 here, not the
# source's 644).
fresh tree-workers
mkdir s d
i=0
while [ $i -lt 300 ]; do
	i=$((i + 1))
	echo "new $i" >s/f$i
	echo old >d/f$i
	chmod 600 d/f$i
done
touch -d $NEW s/f*
touch -d $OLD d/f*
touch -d 2030-01-01 d/f7
expect "copy -ru --parallel=2 onto older files" 0 "" "" -ru --parallel=2 s/. d
check_eq "copy -ru --parallel=2: the older files replaced" \
	"new 5 new 300" "$(content d/f5) $(content d/f300)"
check_eq "copy -ru --parallel=2: the newer file kept" old "$(content d/f7)"
check_eq "copy -ru --parallel=2: every mode kept, as cp's" 600 \
	"$(stat -c %a d/f* | sort -u | tr '\n' ' ' | sed 's/ $//')"
no_temp_left "copy -ru --parallel=2" d

done_testing
