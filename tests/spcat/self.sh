#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Input is output: spcat refuses an operand that is the output file only
# when the output's position is ahead of where reading starts (the copy
# would read what it wrote and might never end), as cat 9.6 and later; it
# copies when writing stays at or behind reading.
. "$top_srcdir/tests/lib.sh"

echo x >fx
echo y >fy
cat fx fy >fxy
for f in fxy1 fxy2 fx3 fx4 fx5 fx6; do cp fx $f; done

# Output opened read-write at offset 0, on an input read from offset 0.
"$SPCAT" - fy <fxy1 1<>fxy1 2>err
check_eq "stdin is the output, both at 0: copied" 0 $?
same_files "stdin is the output, both at 0: the file is fx then fy" fxy fxy1
ok "stdin is the output, both at 0: no message" test ! -s err
"$SPCAT" fxy2 fy 1<>fxy2 2>err
check_eq "FILE is the output, both at 0: copied" 0 $?
same_files "FILE is the output, both at 0: the file is fx then fy" fxy fxy2

# The output ahead of the input: refused, the other operands copied.
"$SPCAT" fx fx3 1<>fx3 2>err
check_eq "output ahead of FILE: status 1" 1 $?
check_eq "output ahead of FILE: message" "spcat: fx3: input file is output file" "$(cat err)"
printf 'x\n' >want
same_files "output ahead of FILE: only fx written" want fx3
"$SPCAT" - fx4 <fx 1<>fx4 2>err
check_eq "output ahead of a later FILE: status 1" 1 $?
"$SPCAT" fx5 >>fx5 2>err
check_eq "appending to the FILE itself: status 1" 1 $?
same_files "appending to the FILE itself: unchanged" fx fx5
"$SPCAT" <fx6 >>fx6 2>err
check_eq "appending to stdin's file: status 1" 1 $?
check_eq "appending to stdin's file: message" "spcat: -: input file is output file" "$(cat err)"

# Reading ahead of an appending output: fd 3 at the end, fd 4 appending.
echo foo >file
exec 3<file
cat <&3 >/dev/null
exec 4>>file
"$SPCAT" <&3 >&4 2>err
check_eq "input at the end of an appending output: copied (nothing)" 0 $?
exec 3<&- 4>&-

# --offset and --length say where reading starts and ends.
seq 100 >n
cp n n.want
tail -c +51 n | head -c 10 >>n.want
"$SPCAT" --offset=50 --length=10 n >>n 2>err
check_eq "a range wholly behind the output: copied" 0 $?
same_files "a range wholly behind the output: appended" n.want n
"$SPCAT" --offset=50 n >>n 2>err
check_eq "a range up to the end of the output: refused" 1 $?
"$SPCAT" --offset=1G n >>n 2>err
check_eq "an offset past the output's end: nothing to read, status 0" 0 $?

done_testing
