#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The tools start with the C library and popt only: libsplice is linked in,
# and json-c, libsmartcols, libacl and libattr are loaded on first use, by
# soname (src/common/lazylib.h).  A run that needs none of them loads none;
# --json loads json-c, --preserve=xattr libattr, --preserve=mode libacl.
. "$top_srcdir/tests/lib.sh"
command -v readelf >/dev/null || skip "no readelf"

# loaded CMD...: the sonames of the libraries CMD loaded, one a line.
loaded() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null |
		sed -n 's/.*file=\([^ ]*\) \[0\]; *\(needed\|dynamically loaded\) by.*/\1/p' | sort -u
}
# loads CMD...: CMD's libraries on one line, for messages.
loads() { echo $(loaded "$@"); }
# has LIST PATTERN: LIST holds a word that PATTERN (grep -E) matches.
has() { printf '%s\n' $1 | grep -Eq "^$2"; }

for tool in spcat sptee spmove acctpin; do
	needed=$(readelf -d "$(real_bin $tool)" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	ok "$tool needs none of libsplice, json-c, libsmartcols, libacl, libattr at start ($needed)" \
		sh -c '! echo "$1" | grep -Eq "libsplice|json-c|smartcols|libacl|libattr"' - "$needed"
done

make_random src 4096
ok "spcat: a plain run loads nothing more ($(loads "$(real_bin spcat)" src))" \
	test "$(loaded "$(real_bin spcat)" src | grep -Ec 'json-c|smartcols|acl|attr')" = 0
libs=$(loads "$(real_bin spcat)" --stats --json src)
ok "spcat --stats --json loads json-c ($libs)" has "$libs" 'libjson-c\.so\.'
"$SPCAT" --stats --json src 2>json >/dev/null
ok "spcat --stats --json: its JSON is whole" python3 -m json.tool json /dev/null
ok "sptee: a plain run loads nothing more" \
	test "$(loaded "$(real_bin sptee)" out <src | grep -Ec 'json-c|smartcols|acl|attr')" = 0
mkdir d
ok "spmove: a copy to a new name loads nothing more ($(loads "$(real_bin spmove)" src d/x))" \
	test "$(loaded "$(real_bin spmove)" src d/a | grep -Ec 'json-c|smartcols|acl|attr')" = 0
same_files "spmove: the copy is whole" src d/a
libs=$(loads "$(real_bin spmove)" --preserve=xattr src d/b)
ok "spmove --preserve=xattr loads libattr ($libs)" has "$libs" 'libattr\.so\.'
same_files "spmove --preserve=xattr: the copy is whole" src d/b
libs=$(loads "$(real_bin spmove)" --preserve=mode src d/c)
ok "spmove --preserve=mode loads libacl ($libs)" has "$libs" 'libacl\.so\.'
same_files "spmove --preserve=mode: the copy is whole" src d/c
done_testing
