# SPDX-License-Identifier: GPL-2.0-or-later
# spmove as root: running out of space on a small tmpfs leaves the old DST
# intact and nothing behind; a move that fails keeps its source.
. "$top_srcdir/tests/lib.sh"
require_root

mkdir small
mount -t tmpfs -o size=1m tmpfs small || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/small'"
no_temp_left() { [ -z "$(find small -name '.spmove-*' | head -1)" ]; }

make_random big 3000000
printf 'old contents' >small/d
for m in auto splice vmsplice gift rw copy_file_range sendfile; do
	run_cmd out err "$SPMOVE" --method="$m" big small/d
	check_eq "ENOSPC ($m): exit 1" 1 "$RC"
	check_eq "ENOSPC ($m): message" \
		"spmove: error writing 'small/d': No space left on device" "$(cat err)"
	check_eq "ENOSPC ($m): old DST intact" "old contents" "$(cat small/d)"
	ok "ENOSPC ($m): no temporary file" no_temp_left
done
cat big | "$SPMOVE" -M - small/d 2>err
check_eq "ENOSPC from a pipe: old DST intact" "old contents" "$(cat small/d)"
ok "ENOSPC from a pipe: no temporary file" no_temp_left

# A move across filesystems that runs out of space keeps its source.
cp big src
run_cmd out err "$SPMOVE" --remove-source src small/d
check_eq "failed move: exit 1" 1 "$RC"
same_files "failed move: source kept" big src
check_eq "failed move: DST intact" "old contents" "$(cat small/d)"

# --in-place has no such guarantee, but must still report the failure.
run_cmd out err "$SPMOVE" --in-place big small/d
check_eq "--in-place ENOSPC: exit 1" 1 "$RC"

done_testing
