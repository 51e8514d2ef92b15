# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: pseudo-files (sysfs, procfs) report a size that is a guess and no
# blocks; they are copied by reading to end of file, as cat and cp read
# them, never taken for sparse files and extended to st_size (issue 23).
. "$top_srcdir/tests/lib.sh"

found=0
for f in /sys/kernel/mm/transparent_hugepage/enabled /sys/devices/system/cpu/online \
	/sys/devices/system/cpu/possible /proc/version /proc/sys/kernel/ostype; do
	[ -f "$f" ] && [ -r "$f" ] && cat "$f" >expected 2>/dev/null || continue
	found=$((found + 1))
	name=${f#/}
	name=${name//\//_}
	for sparse in "" --sparse=always --sparse=never; do
		rm -f "$name"
		"$SPMOVE" $sparse "$f" "$name"
		check_eq "$f ${sparse:-(default)}: exit 0" 0 $?
		same_files "$f ${sparse:-(default)}: what cat reads ($(stat -c %s expected) bytes, not the $(stat -c %s "$f") of st_size)" \
			expected "$name"
	done
	# The reader path (--remove-source would try to remove it; -r takes the
	# walker and, with --parallel, the copy workers).
	mkdir -p "tree-$name"
	"$SPMOVE" -r --parallel=2 "$f" "tree-$name/"
	same_files "$f into a directory: what cat reads" expected "tree-$name/${f##*/}"
done
[ "$found" -gt 0 ] || skip "no readable pseudo-file here"
done_testing
