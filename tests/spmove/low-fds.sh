#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Under a low descriptor limit spmv and spcp do what Debian's mv and GNU
# cp 9.11 do: a move across file systems under ulimit -n 8 (a file, and a
# tree) succeeds -- the mover keeps no pipe between files, the ACL and
# xattr libraries are loaded before the run holds its descriptors, and a
# directory is synced through its own descriptor -- and cp -a copies a
# 12-level tree under ulimit -n 7.  Root: the other file system is a tmpfs.
. "$top_srcdir/tests/lib.sh"
require_root

CP=$(gnu cp)

mkdir other
mount -t tmpfs -o size=16m tmpfs other || skip "cannot mount a tmpfs"
at_exit "umount '$T_DIR/other'"

# limited N CMD...: CMD under ulimit -n N, its status in RC, output in out, err.
limited() {
	local n=$1; shift
	run_cmd out err sh -c 'ulimit -n "$0" && exec "$@"' "$n" "$@"
}

# make_tree DIR: a file, a subdirectory with a file, an ACL and an xattr.
make_tree() {
	mkdir -p "$1/sub"
	echo a >"$1/a"
	echo b >"$1/sub/b"
	setfacl -m u:nobody:r "$1/a" 2>/dev/null || true
	setfattr -n user.k -v v "$1/sub/b" 2>/dev/null || true
}

for who in spmv mv; do
	tool=$SPMV
	[ $who = mv ] && tool=mv
	echo "f $who" >"f-$who"
	limited 8 "$tool" "f-$who" "other/f-$who"
	check_eq "$who of a file across file systems under ulimit -n 8: status" 0 "$RC"
	check_eq "$who of a file: silent" "" "$(cat out err)"
	check_eq "$who of a file: moved" "f $who" "$(cat "other/f-$who" 2>&1)"
	ok "$who of a file: the source gone" test ! -e "f-$who"

	make_tree "t-$who"
	limited 8 "$tool" "t-$who" "other/t-$who"
	check_eq "$who of a tree across file systems under ulimit -n 8: status" 0 "$RC"
	check_eq "$who of a tree: silent" "" "$(cat out err)"
	check_eq "$who of a tree: moved" "b" "$(cat "other/t-$who/sub/b" 2>&1)"
	ok "$who of a tree: the source gone" test ! -e "t-$who"
done
if command -v getfacl >/dev/null 2>&1; then
	check_eq "the moved ACL is mv's" "$(cd other/t-mv && getfacl -c a 2>&1)" \
		"$(cd other/t-spmv && getfacl -c a 2>&1)"
fi

# cp -a of a tree 12 levels deep, a file at each level.
p=deep
for i in $(seq 1 12); do
	mkdir -p "$p"
	echo "level $i" >"$p/f"
	p=$p/d$i
done
limited 7 "$CP" -a deep gnu-copy
check_eq "GNU cp -a of 12 levels under ulimit -n 7: status" 0 "$RC"
limited 7 "$SPCP" -a deep copy
check_eq "spcp -a of 12 levels under ulimit -n 7: status" 0 "$RC"
check_eq "spcp -a of 12 levels: silent" "" "$(cat out err)"
ok "spcp -a of 12 levels: the same tree as GNU's" diff -r gnu-copy copy
done_testing
