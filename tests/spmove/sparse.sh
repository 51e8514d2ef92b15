# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: sparse files keep their holes (SEEK_DATA/SEEK_HOLE); --sparse.
. "$top_srcdir/tests/lib.sh"

# blocks FILE: allocated 512-byte blocks.
blocks() { stat -c %b "$1"; }
# put FILE OFFSET BYTES: random data at OFFSET.
put() { head -c "$3" /dev/urandom | dd of="$1" bs=1M seek="$2" oflag=seek_bytes conv=notrunc status=none; }

# Several GiB with a few data extents: copied by extents, holes kept.
truncate -s 5G big
put big 0 100000
put big 1073741824 300000
put big 4294967296 65536
put big 5368709000 120
[ "$(blocks big)" -lt 10000 ] || skip "this filesystem does not keep holes"
"$SPMOVE" big big.copy; check_eq "sparse copy: exit 0" 0 $?
cp big big.cp
check_eq "same size" "$(stat -c %s big)" "$(stat -c %s big.copy)"
ok "holes kept (no more blocks than cp's copy)" test "$(blocks big.copy)" -le "$(blocks big.cp)"
ok "holes kept (not filled)" test "$(blocks big.copy)" -lt 10000
# cmp over 5 GiB of holes is quick: compare the data regions and a hole.
for off in 0 1073741824 4294967296 5368709000 2000000000; do
	ok "same bytes at $off" cmp -s -i "$off:$off" -n 400000 big big.copy
done
"$SPMOVE" -M --method=splice big big.splice
ok "sparse copy with -M and splice: holes kept" test "$(blocks big.splice)" -lt 10000
ok "sparse copy with splice: same bytes" cmp -s -i 4294967296:4294967296 -n 100000 big big.splice

# Ending in a hole and beginning with one.
truncate -s 10M h
put h 3000000 5000
"$SPMOVE" h h.copy
same_files "file starting and ending in holes" h h.copy
check_eq "size kept" 10485760 "$(stat -c %s h.copy)"

# --sparse=never writes the holes out; --sparse=always makes holes of zeros.
"$SPMOVE" --sparse=never h h.never; cp --sparse=never h h.cpnever
same_files "--sparse=never: same bytes" h h.never
check_eq "--sparse=never: blocks like cp's" "$(blocks h.cpnever)" "$(blocks h.never)"
head -c 4M /dev/zero >z; put z 1000000 1000
"$SPMOVE" --sparse=always z z.always; cp --sparse=always z z.cpalways
same_files "--sparse=always: same bytes" z z.always
ok "--sparse=always: zeros became holes like cp's" \
	test "$(blocks z.always)" -le "$(blocks z.cpalways)"
"$SPMOVE" z z.auto
check_eq "--sparse=auto: a full file stays full" "$(blocks z)" "$(blocks z.auto)"

# Where there is no seeking, holes are written as zeros.
"$SPMOVE" --sparse=auto h /dev/null; check_eq "--sparse=auto into /dev/null: exit 0" 0 $?
"$SPMOVE" --sparse=always h /dev/null; check_eq "--sparse=always into /dev/null: exit 0" 0 $?
mkfifo fifo
cmp h fifo & reader=$!
"$SPMOVE" --sparse=auto h fifo; rc=$?
[ "$rc" = 0 ] || kill "$reader" 2>/dev/null # it may still wait for a writer
check_eq "--sparse=auto into a FIFO: exit 0" 0 "$rc"
wait "$reader"; check_eq "--sparse=auto into a FIFO: cmp reads every byte" 0 $?

done_testing
