# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: plain copies side by side with cp; operands, errors, standard input.
. "$top_srcdir/tests/lib.sh"

no_temp_left() { [ -z "$(find . -name '.spmove-*' | head -1)" ]; }

umask 022
make_random a 1234567
chmod 640 a
"$SPMOVE" a b; check_eq "copy exits 0" 0 $?
cp a c
same_files "copy has the same bytes" a b
check_eq "new file's mode is cp's" "$(stat -c %a c)" "$(stat -c %a b)"

# An existing destination keeps its mode, as with cp.
printf old >d1; printf old >d2; chmod 604 d1 d2
"$SPMOVE" a d1; cp a d2
same_files "existing destination replaced" a d1
check_eq "existing destination keeps its mode" "$(stat -c %a d2)" "$(stat -c %a d1)"

# The same file is refused, as cp refuses it.
run_cmd out err "$SPMOVE" a a
check_eq "same file: exit 1" 1 "$RC"
check_eq "same file: message" "spmove: 'a' and 'a' are the same file" "$(cat err)"
cp a a 2>/dev/null; check_eq "cp refuses it too" 1 $?
ln a hard
run_cmd out err "$SPMOVE" a hard
check_eq "hard link to itself: exit 1" 1 "$RC"
same_files "same file untouched" a hard

# A missing source: reported in the SRC -> DST form, the others still copied.
mkdir dir
run_cmd out err "$SPMOVE" nope a dir
check_eq "missing source: exit 1" 1 "$RC"
check_eq "missing source: message" \
	"spmove: cannot stat 'nope': No such file or directory" "$(cat err)"
same_files "other operand copied into the directory" a dir/a

# -t DIR and SRC... DIR.
make_random e 1000
mkdir t1 t2
"$SPMOVE" -t t1 a e; check_eq "-t exits 0" 0 $?
cp a e t2
ok "-t copies like cp" diff -r t1 t2
run_cmd out err "$SPMOVE" a e b
check_eq "many sources, file target: exit 1" 1 "$RC"
check_eq "many sources, file target: message" "spmove: target 'b': Not a directory" "$(cat err)"
run_cmd out err "$SPMOVE"
check_eq "no operand: exit 1" 1 "$RC"
run_cmd out err "$SPMOVE" a
check_eq "one operand: exit 1" 1 "$RC"
check_eq "one operand: message" "spmove: missing destination file operand after 'a'" "$(head -1 err)"

# A directory without -r is omitted, as cp does.
run_cmd out err "$SPMOVE" dir x
check_eq "directory without -r: exit 1" 1 "$RC"
check_eq "directory without -r: message" \
	"spmove: -r not specified; omitting directory 'dir'" "$(cat err)"
run_cmd out err "$SPMOVE" a dir/..//dir
check_eq "file onto a directory named as a file copies into it" 0 "$RC"
printf x >file; mkdir -p dd/file
run_cmd out err "$SPMOVE" file dd
check_eq "file onto a directory: exit 1" 1 "$RC"
check_eq "file onto a directory: message" \
	"spmove: cannot overwrite directory 'dd/file' with non-directory 'file'" "$(cat err)"

# Standard input as the source, with and without -M.
make_random big 3000000
cat big | "$SPMOVE" - s1; check_eq "- from a pipe: exit 0" 0 $?
same_files "- from a pipe" big s1
cat big | "$SPMOVE" -M - s2; check_eq "- with -M: exit 0" 0 $?
same_files "- with -M" big s2
"$SPMOVE" - s3 <big; check_eq "- from a file: exit 0" 0 $?
same_files "- from a file" big s3
cat big >s4
check_eq "- makes a file with the shell's mode" "$(stat -c %a s4)" "$(stat -c %a s3)"
run_cmd out err "$SPMOVE" - s3 <s3
check_eq "- that is DST itself: exit 1" 1 "$RC"
same_files "- that is DST itself: untouched" big s3

# A DST that is a symbolic link is written through, as cp does.
printf old >target; ln -s target link
"$SPMOVE" e link
ok "symlink destination still a link" test -L link
same_files "written through the link" e target
ln -s nowhere dangling
run_cmd out err "$SPMOVE" e dangling
check_eq "dangling symlink: exit 1" 1 "$RC"
check_eq "dangling symlink: message" \
	"spmove: not writing through dangling symlink 'dangling'" "$(cat err)"
# A DST that is not a regular file is written, never replaced.
"$SPMOVE" a /dev/null; check_eq "to /dev/null: exit 0" 0 $?
ok "/dev/null still a device" test -c /dev/null

# --remove-source on one filesystem: rename, like mv.
make_random m1 5000; cp m1 m2; cp m1 keep
ino=$(stat -c %i m1)
"$SPMOVE" --remove-source m1 moved1; check_eq "--remove-source exits 0" 0 $?
mv m2 moved2
ok "source gone like mv's" test ! -e m1 -a ! -e m2
check_eq "renamed, not copied" "$ino" "$(stat -c %i moved1)"
same_files "moved data" keep moved1
ok "nothing temporary left" no_temp_left

done_testing
