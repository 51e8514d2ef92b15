# SPDX-License-Identifier: GPL-2.0-or-later
# spmove as root: --remove-source between tmpfs and ext4 on a loop device,
# side by side with mv.
. "$top_srcdir/tests/lib.sh"
require_root
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing"

mkdir tmp ext
mount -t tmpfs -o size=64m tmpfs tmp || skip "cannot mount tmpfs"
at_exit "umount '$T_DIR/tmp'"
truncate -s 64M ext.img
mkfs.ext4 -q -F ext.img || skip "mkfs.ext4 failed"
mount -o loop ext.img ext || skip "cannot mount a loop device"
at_exit "umount '$T_DIR/ext'"

make_random data 5000000
for dir in "tmp ext" "ext tmp"; do
	set -- $dir
	cp data "$1/f"; cp data "$1/g"
	mkdir -p "$1/tree/sub"; cp data "$1/tree/sub/x"; ln -s sub/x "$1/tree/l"
	cp -a "$1/tree" "$1/tree2"
	"$SPMOVE" --remove-source "$1/f" "$2/f"; check_eq "$1 -> $2: exit 0" 0 $?
	mv "$1/g" "$2/g"
	same_files "$1 -> $2: data" data "$2/f"
	ok "$1 -> $2: source removed, like mv" test ! -e "$1/f" -a ! -e "$1/g"
	check_eq "$1 -> $2: mode like mv" "$(stat -c %a "$2/g")" "$(stat -c %a "$2/f")"
	"$SPMOVE" --remove-source "$1/tree" "$2/tree"; check_eq "$1 -> $2 tree: exit 0" 0 $?
	mv "$1/tree2" "$2/tree2"
	ok "$1 -> $2 tree: like mv" diff -r --no-dereference "$2/tree" "$2/tree2"
	ok "$1 -> $2 tree: source removed" test ! -e "$1/tree"
	rm -rf "$2/f" "$2/g" "$2/tree" "$2/tree2"
done
# copy_file_range(2) between tmpfs and ext4 is refused (EXDEV): a mover
# asks once for the pair and splices the rest; within one file system it
# copies every file, in one call where the size says where the file ends.  On one CPU (no copy worker) one mover does it all.
if command -v jq >/dev/null && taskset -c 0 true 2>/dev/null; then
	mkdir tmp/many
	i=0
	while [ $i -lt 20 ]; do head -c $((i * 1000 + 1)) /dev/urandom > "tmp/many/f$i"; i=$((i + 1)); done
	taskset -c 0 "$SPMOVE" -r --stats --json tmp/many ext/many 2> stats; check_eq "tree tmpfs -> ext4: exit 0" 0 $?
	ok "tree tmpfs -> ext4: like cp" diff -r tmp/many ext/many
	check_eq "tree tmpfs -> ext4: copy_file_range asked once (EXDEV), not per file" \
		1 "$(jq .calls.copy_file_range stats)"
	taskset -c 0 "$SPMOVE" -r --stats --json ext/many ext/again 2> stats; check_eq "tree within ext4: exit 0" 0 $?
	ok "tree within ext4: like cp" diff -r tmp/many ext/again
	check_eq "tree within ext4: one copy_file_range a file (its size is its end)" \
		20 "$(jq .calls.copy_file_range stats)"
	"$SPMOVE" -r --parallel=3 --stats --json ext/many tmp/back 2> stats; check_eq "tree ext4 -> tmpfs, with the workers: exit 0" 0 $?
	ok "tree ext4 -> tmpfs, with the workers: like cp" diff -r tmp/many tmp/back
	ok "tree ext4 -> tmpfs, with the workers: copy_file_range asked once a mover at most" \
		test "$(jq '.calls.copy_file_range <= .workers + 1' stats)" = true
	rm -rf tmp/many tmp/back ext/many ext/again
fi

# -M across filesystems and from a pipe onto ext4.
cat data | "$SPMOVE" -M - ext/p; same_files "pipe to ext4 with -M" data ext/p
"$SPMOVE" -M --method=gift data tmp/q; same_files "gift to tmpfs with -M" data tmp/q
ok "nothing temporary left" test -z "$(find tmp ext -name '.spmove-*')"

done_testing
