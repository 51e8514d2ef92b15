# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: -r copies a tree 60 levels deep with at most 12 open files
# (ulimit -n 12), every level with its file, as GNU cp does; a move of it
# across file systems (root) does too, and removes the source only when
# everything is there.
. "$top_srcdir/tests/lib.sh"

# make_deep DIR: DIR/d1/d2/.../d60, a file at every level and an empty
# directory at the bottom.
make_deep() {
	local p=$1 i
	mkdir "$p"
	for i in $(seq 1 60); do
		echo "level $i" >"$p/f$i"
		p=$p/d$i
		mkdir "$p"
	done
}

make_deep src
cp -a src ref
run_cmd out err sh -c 'ulimit -n 12 && exec "$@"' sh "$SPMOVE" -r src dst
check_eq "copy -r of 60 levels under ulimit -n 12: exit 0" 0 "$RC"
check_eq "copy: silent" "" "$(cat out err)"
check_eq "copy: every level copied" 60 "$(find dst -name 'f*' -type f | wc -l)"
ok "copy: the same tree" diff -r src dst
check_eq "copy: the bottom level is there" 1 \
	"$(find dst -type d -empty -path '*/d59/d60' | wc -l)"

# A move within one file system is a rename; across two it is a copy.
run_cmd out err sh -c 'ulimit -n 12 && exec "$@"' sh "$SPMOVE" --remove-source src moved
check_eq "move of 60 levels under ulimit -n 12: exit 0" 0 "$RC"
ok "move: the same tree" diff -r ref moved
ok "move: the source gone" test ! -e src

if [ "$(id -u)" = 0 ]; then
	mkdir o
	if mount -t tmpfs -o size=16m tmpfs o; then
		at_exit "umount '$T_DIR/o'"
		run_cmd out err sh -c 'ulimit -n 12 && exec "$@"' sh "$SPMOVE" --remove-source moved o/t
		check_eq "move across file systems under ulimit -n 12: exit 0" 0 "$RC"
		check_eq "move across: silent" "" "$(cat out err)"
		ok "move across: the same tree" diff -r ref o/t
		ok "move across: the source gone" test ! -e moved
		run_cmd out err sh -c 'ulimit -n 12 && exec "$@"' sh "$SPMOVE" -r o/t back
		check_eq "copy -r across file systems under ulimit -n 12: exit 0" 0 "$RC"
		ok "copy across: the same tree" diff -r ref back
	else
		echo "# cannot mount a tmpfs: the moves across file systems are left out"
	fi
fi
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"

done_testing
