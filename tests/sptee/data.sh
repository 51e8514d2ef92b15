#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sptee copies every byte, as GNU tee does: sizes around pipe and chunk
# boundaries, stdin and stdout pipes or files, 1, 3 and 64 outputs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sptee/common.sh"

for size in 0 1 4095 4096 4097 65535 65536 65537 1048575 1048576 1048577 3145741; do
	make_random "in$size" "$size"
	for shape in pipe-file file-file; do
		side_by_side "$shape" "$T_DIR/in$size" 3
		same_as_gnu "$size bytes, $shape, 3 files: as GNU tee"
		same_files "$size bytes, $shape: f3 holds the input" "in$size" sp/f3
	done
done

make_random big 5242889
for shape in pipe-file file-file pipe-pipe file-pipe; do
	side_by_side "$shape" "$T_DIR/big" 1
	same_as_gnu "5 MiB, $shape, 1 file: as GNU tee"
	side_by_side "$shape" "$T_DIR/big" 0
	same_as_gnu "5 MiB, $shape, stdout only: as GNU tee"
	same_files "5 MiB, $shape, stdout only: stdout holds the input" big sp/out
done

for size in 1 1048577 3145741; do
	side_by_side pipe-pipe "$T_DIR/in$size" 64
	same_as_gnu "$size bytes to 64 files and a pipe: as GNU tee"
	same_files "$size bytes to 64 files: the last holds the input" "in$size" sp/f64
done

SP_ONLY=--no-splice side_by_side pipe-file "$T_DIR/big" 3
same_as_gnu "--no-splice: as GNU tee"
SP_ONLY=--pipe-size=64K side_by_side file-pipe "$T_DIR/big" 3
same_as_gnu "--pipe-size=64K: as GNU tee"
SP_ONLY=--pipe-size=4K side_by_side pipe-pipe "$T_DIR/big" 3 -a
same_as_gnu "--pipe-size=4K -a: as GNU tee"

# stdout a socket (socat's SYSTEM address hands over a socketpair).
if command -v socat >/dev/null; then
	rm -f f out
	socat -u SYSTEM:"'$SPTEE' f <big; echo \$? >rc" STDOUT >out
	check_eq "stdout a socket: exit status" 0 "$(cat rc)"
	same_files "stdout a socket: it gets the input" big out
	same_files "stdout a socket: f gets the input" big f
fi

# A file named twice, and /dev/null among the outputs.
(cd sp && "$SPTEE" f1 f1 /dev/null <"$T_DIR/big" >out 2>err)
check_eq "a file named twice: exit status" 0 $?
same_files "a file named twice holds the input once" big sp/f1

# The same file as stdout and an operand, appending: both copies land.
: >both
"$SPTEE" -a both <in65537 >>both
check_eq "stdout and FILE the same appending file: exit status" 0 $?
cat in65537 in65537 >twice
ok "stdout and FILE the same appending file: twice the size" \
	test "$(wc -c <both)" -eq "$(wc -c <twice)"

done_testing
