# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: -f -n -i -p --preserve --in-place --verify --fsync --stats
# --progress, side by side with cp where they overlap.
. "$top_srcdir/tests/lib.sh"

umask 022
make_random a 200000
printf old >n1; printf old >n2
"$SPMOVE" -n a n1; check_eq "-n exits 0" 0 $?
cp -n a n2
check_eq "-n keeps the destination, like cp" "$(cat n2)" "$(cat n1)"
"$SPMOVE" -n -f a n1
check_eq "-f after -n keeps the destination, like cp" "$(cat n2)" "$(cat n1)"
printf old >m1; printf new >m2
"$SPMOVE" --remove-source -n -f m2 m1
check_eq "with --remove-source, -f after -n replaces, like mv" new "$(cat m1)"
"$SPMOVE" -f -n a n1; check_eq "-n after -f: exit 0" 0 $?

printf old >i1; printf old >i2
echo n | "$SPMOVE" -i a i1 2>err; check_eq "-i answered n: exit 1, like cp 9.11" 1 $?
echo n | cp -i a i2 2>/dev/null
check_eq "-i answered n keeps it, like cp" "$(cat i2)" "$(cat i1)"
check_eq "-i asks" "spmove: overwrite 'i1'? " "$(cat err)"
echo y | "$SPMOVE" -i a i1 2>/dev/null
same_files "-i answered y replaces" a i1
"$SPMOVE" -i a fresh </dev/null 2>err
check_eq "-i does not ask for a new file" "" "$(cat err)"

# -p and --preserve, compared with cp's.
chmod 4751 a
touch -d '2001-02-03 04:05:06' a
"$SPMOVE" -p a p1; cp -p a p2
check_eq "-p mode like cp -p" "$(stat -c %a p2)" "$(stat -c %a p1)"
check_eq "-p mtime like cp -p" "$(stat -c %Y p2)" "$(stat -c %Y p1)"
check_eq "-p owner like cp -p" "$(stat -c %u:%g p2)" "$(stat -c %u:%g p1)"
"$SPMOVE" --preserve=timestamps a q1; cp --preserve=timestamps a q2
check_eq "--preserve=timestamps mode" "$(stat -c %a q2)" "$(stat -c %a q1)"
check_eq "--preserve=timestamps mtime" "$(stat -c %Y q2)" "$(stat -c %Y q1)"
"$SPMOVE" --preserve=mode a r1; cp --preserve=mode a r2
check_eq "--preserve=mode" "$(stat -c %a r2)" "$(stat -c %a r1)"
"$SPMOVE" a u1; cp a u2
check_eq "without -p setuid goes, like cp" "$(stat -c %a u2)" "$(stat -c %a u1)"
(umask 077; "$SPMOVE" a w1; cp a w2)
check_eq "umask applies like cp" "$(stat -c %a w2)" "$(stat -c %a w1)"
run_cmd out err "$SPMOVE" --preserve=colour a z
check_eq "bad --preserve: exit 1" 1 "$RC"
check_eq "bad --preserve: message" "spmove: invalid argument 'colour' for '--preserve'" "$(head -1 err)"
chmod 644 a

# --in-place writes DST itself: hard links to it see the copy, as with cp.
printf old >h1; ln h1 h2; ino=$(stat -c %i h1)
"$SPMOVE" --in-place a h1
same_files "--in-place: the other link sees the data" a h2
check_eq "--in-place: same inode" "$ino" "$(stat -c %i h1)"
printf old >k1; ln k1 k2
"$SPMOVE" a k1
# A DST with other links is written in place by default too, as cp does
# (a new file in its place would leave them the old data; issue 35).
same_files "default: a DST with other links is written in place, as cp's" a k2
printf old >k3
"$SPMOVE" a k3
check_eq "default: a DST of one link is replaced (a new inode)" 1 \
	"$(stat -c %h k3)$(cmp -s a k3 || echo differs)"

"$SPMOVE" --verify --fsync a v1; check_eq "--verify --fsync: exit 0" 0 $?
same_files "--verify --fsync copy" a v1

run_cmd out err "$SPMOVE" --stats a s1
check_eq "--stats: exit 0" 0 "$RC"
ok "--stats: one line" test "$(wc -l <err)" = 1
ok "--stats: says the method" grep -q "method auto (copy_file_range)" err
ok "--stats: says the bytes" grep -q "^spmove: 200000 bytes" err
run_cmd out err "$SPMOVE" --stats -M a s2
ok "--stats with -M: splice" grep -q "method auto (splice)" err

make_random big 4000000
"$SPMOVE" --progress --pipe-size=64K --method=splice big g1 2>err
same_files "--progress copy" big g1
"$SPMOVE" big g2 2>err
check_eq "no bar when stderr is not a terminal" "" "$(cat err)"

for bad in "--method=teleport" "--sparse=sometimes" "--pipe-size=0" "--bogus"; do
	run_cmd out err "$SPMOVE" $bad a b
	check_eq "$bad: exit 1" 1 "$RC"
done
check_eq "bad option message" "spmove: unrecognized option '--bogus'" "$(head -1 err)"
"$SPMOVE" --help >out; check_eq "--help: exit 0" 0 $?
ok "--help lists --method" grep -q -- "--method=NAME" out
"$SPMOVE" --version >out; check_eq "--version: exit 0" 0 $?

done_testing
