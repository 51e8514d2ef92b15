# SPDX-License-Identifier: GPL-2.0-or-later
# A copy worker with a descriptor table of its own (src/spmove/fdtable.c):
# it takes the walker's directories by pidfd_getfd(2), keeps the last few
# by the walker's number and the pool's serial, and names its own files
# to the libraries as /proc/thread-self/fd/N.  Every file must still land
# in its own directory (the walker reuses a directory's number once it is
# closed), with its own attributes; where the kernel refuses a call, the
# workers share the walker's table or give the file back, and the copy is
# the same.
. "$top_srcdir/tests/lib.sh"
require_strace
SPMOVE=$(real_bin spmove)
use_built_library
command -v setfattr >/dev/null && command -v getfattr >/dev/null ||
	skip "setfattr/getfattr missing (package attr)"

# 40 sibling directories holding files of the same names, each file's
# bytes its own path, and each with an extended attribute saying it too:
# a file copied through another directory's descriptor collides with a
# name there, or holds the wrong bytes or attribute.
d=0
while [ $d -lt 40 ]; do
	mkdir -p "src/d$d"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		printf '%s\n' "d$d/f$i" >"src/d$d/f$i"
	done
	d=$((d + 1))
done
setfattr -n user.path -v top src/d0/f1 2>/dev/null ||
	skip "no user extended attributes on $(stat -f -c %T .)"
for f in src/d*/f*; do setfattr -n user.path -v "${f#src/}" "$f"; done
nfiles=$(find src -type f | wc -l)

# Each file: its own bytes, and with -a its own attribute.
landed() {
	[ -z "$(cd "$1" && find . -type f ! -exec cmp -s "$T_DIR/src/{}" {} \; -print)" ] &&
		[ "$(find "$1" -type f | wc -l)" = "$nfiles" ]
}
attrs_landed() {
	[ -z "$(cd "$1" && for f in d*/f*; do
		[ "$(getfattr --only-values -n user.path "$f" 2>/dev/null)" = "$f" ] || echo "$f"
	done)" ]
}
no_temp_left() { [ -z "$(find "$1" -name '.spmove-*' | head -1)" ]; }

# A new tree, three threads from the first file.  The trace shows each
# worker's table made its own (close_range(2) with CLOSE_RANGE_UNSHARE)
# and the directories taken once each (one pidfd_getfd(2) a directory and
# a side, not one a file), plus the walker's one look whether it may.
traced -f -o trace -e trace=close_range,pidfd_getfd "$SPMOVE" -r --parallel=3 src new
check_eq "new tree: exit 0" 0 "$?"
ok "new tree: every file in its own directory, with its own bytes" landed new
ok "new tree: no temporary left" no_temp_left new
check_eq "new tree: two workers, each with a table of its own" 2 \
	"$(grep -c 'close_range(.*CLOSE_RANGE_UNSHARE' trace)"
took=$(grep -c 'pidfd_getfd(.*= [0-9]' trace)
ok "new tree: the directories taken by descriptor ($took times)" test "$took" -ge 3
ok "new tree: once a directory, not once a file ($took for $nfiles files)" \
	test "$took" -le $((1 + 2 * 2 * 41))

# -a: the attributes are set through the worker's own descriptors
# (/proc/thread-self/fd/N names them to libattr and libacl).
run_cmd out err "$SPMOVE" -a --parallel=3 src kept
check_eq "-a: exit 0" 0 "$RC"
check_eq "-a: no message" "" "$(cat err)"
ok "-a: every file with its own bytes" landed kept
ok "-a: every file with its own attribute" attrs_landed kept

# Onto that tree, changed: each worker looks at the file it replaces,
# through its own descriptor of the directory, and renames its copy
# there (or queues it for the walker's batch, by the walker's number).
for f in src/d*/f*; do printf 'new %s\n' "${f#src/}" >"$f"; done
setfacl -m u:daemon:r src/d3/f3 2>/dev/null && acl=yes || acl=
run_cmd out err "$SPMOVE" -rT -a --parallel=3 src kept
check_eq "-rT -a onto the tree: exit 0" 0 "$RC"
check_eq "-rT -a onto the tree: no message" "" "$(cat err)"
ok "-rT -a onto the tree: every file replaced by its own" landed kept
ok "-rT -a onto the tree: every file with its own attribute" attrs_landed kept
ok "-rT -a onto the tree: no temporary left" no_temp_left kept
if [ -n "$acl" ]; then
	check_eq "-rT -a: the ACL of the one file that has one" "user:daemon:r--" \
		"$(getfacl -cp kept/d3/f3 2>/dev/null | grep '^user:daemon')"
	check_eq "-rT -a: none on its neighbour" "" \
		"$(getfacl -cp kept/d3/f4 2>/dev/null | grep '^user:daemon')"
fi

# Without -a, a replaced file keeps its own permissions and ACL, as
# with cp, which rewrites it in place: the worker reads the ACL of the
# file it replaces through /proc/thread-self/fd/N.  One file in two has
# an ACL of its own here.
if [ -n "$acl" ]; then
	cp -r src acls
	for f in acls/d*/f1 acls/d*/f3 acls/d*/f5 acls/d*/f7 acls/d*/f9 acls/d*/f11; do
		setfacl -m u:daemon:r "$f"
	done
	for f in src/d*/f*; do printf 'newer %s\n' "${f#src/}" >"$f"; done
	run_cmd out err "$SPMOVE" -rT --parallel=3 src acls
	check_eq "-rT onto files with ACLs: exit 0" 0 "$RC"
	check_eq "-rT onto files with ACLs: no message" "" "$(cat err)"
	ok "-rT onto files with ACLs: every file replaced by its own" landed acls
	wrong=$(cd acls && for f in d*/f*; do
		want=
		case $f in *f1 | *f3 | *f5 | *f7 | *f9 | *f11) want=user:daemon:r-- ;; esac
		[ "$(getfacl -cp "$f" 2>/dev/null | grep '^user:daemon')" = "$want" ] || echo "$f"
	done)
	check_eq "-rT onto files with ACLs: each kept its own ACL, or none" "" "$wrong"
fi

# Where pidfd_getfd(2) is refused from the start (a seccomp filter, a
# kernel before 5.6), the workers share the walker's table.
inject pidfd_getfd:error=EPERM "$SPMOVE" -r --parallel=3 src shared
check_eq "pidfd_getfd refused: exit 0" 0 "$?"
ok "pidfd_getfd refused: every file copied" landed shared
traced -f -o trace2 -e trace=close_range,pidfd_getfd -e inject=pidfd_getfd:error=EPERM \
	"$SPMOVE" -r --parallel=3 src shared2
ok "pidfd_getfd refused: no worker made its table its own" \
	test "$(grep -c 'CLOSE_RANGE_UNSHARE' trace2)" = 0
# Allowed at the walker's look, refused to the workers afterwards
# (descriptors running out): each file goes back to the walker.
run_cmd out err inject pidfd_getfd:error=EMFILE:when=2+ "$SPMOVE" -r --parallel=3 src given-back
check_eq "pidfd_getfd failing in the workers: exit 0" 0 "$RC"
check_eq "pidfd_getfd failing in the workers: no message" "" "$(cat err)"
ok "pidfd_getfd failing in the workers: every file copied by the walker" landed given-back
ok "pidfd_getfd failing in the workers: no temporary left" no_temp_left given-back
# close_range(2) refused (before Linux 5.9): shared as before.
inject close_range:error=ENOSYS "$SPMOVE" -r --parallel=3 src no-unshare
check_eq "close_range refused: exit 0" 0 "$?"
ok "close_range refused: every file copied" landed no-unshare

done_testing
