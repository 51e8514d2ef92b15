#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp -r: the modes of the directories it makes, as mkdir(1) and GNU cp
# 9.11 make them: a sticky source directory (1777) under umask 022 and 0,
# a directory made inside a set-group-ID parent (it inherits the bit), one
# inside a directory with a default ACL (other::---, under umask 022 and 0),
# a source the owner cannot write (555) and one only the owner may read
# (700) under umask 077 (issue 35, item 2).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
GNU_CP=$(gnu cp)

# make_dirs CP DIR: the cases, made by CP in DIR; prints each new mode.
make_dirs() {
	local cp=$1
	mkdir "$2" && cd "$2" || return 1
	mkdir -m 1777 sticky; mkdir -m 2775 sgid; mkdir -m 555 ro; mkdir -m 700 priv; mkdir plain
	mkdir acl
	has_acl=no
	setfacl -d -m o::--- acl 2>/dev/null && has_acl=yes
	"$cp" -r sticky sticky.022
	(umask 0; "$cp" -r sticky sticky.0)
	(umask 077; "$cp" -r sticky sticky.077)
	"$cp" -r plain sgid/new
	"$cp" -r ro ro.copy
	(umask 077; "$cp" -r priv priv.077)
	(umask 0; "$cp" -r plain plain.0)
	for d in sticky.022 sticky.0 sticky.077 sgid/new ro.copy priv.077 plain.0; do
		echo "$d $(stat -c %a "$d")"
	done
	if [ "$has_acl" = yes ]; then
		"$cp" -r plain acl/new; (umask 0; "$cp" -r sticky acl/sticky.0)
		for d in acl/new acl/sticky.0; do
			echo "$d $(stat -c %a "$d") $(getfacl -cp "$d" 2>/dev/null | tr '\n' ' ')"
		done
	fi
	chmod -R u+w . 2>/dev/null
	cd ..
}

ours=$(umask 022; make_dirs "$SPCP" ours 2>&1)
echo "$ours"
check_eq "sticky, umask 022: 1755" "sticky.022 1755" "$(echo "$ours" | grep '^sticky.022 ')"
check_eq "sticky, umask 0: 1777 (world-writable keeps the sticky bit)" "sticky.0 1777" \
	"$(echo "$ours" | grep '^sticky.0 ')"
check_eq "sticky, umask 077: 1700" "sticky.077 1700" "$(echo "$ours" | grep '^sticky.077 ')"
check_eq "inside a setgid parent: the bit inherited" "sgid/new 2755" "$(echo "$ours" | grep '^sgid/new ')"
check_eq "a 555 source: 555" "ro.copy 555" "$(echo "$ours" | grep '^ro.copy ')"
check_eq "umask 0, a 755 source: 755" "plain.0 755" "$(echo "$ours" | grep '^plain.0 ')"
if echo "$ours" | grep -q '^acl/new '; then
	check_eq "default ACL other::---: other gets nothing" "acl/new 750" \
		"$(echo "$ours" | grep '^acl/new ' | cut -d' ' -f1,2)"
fi
if [ -x "$GNU_CP" ]; then
	gnu=$(umask 022; make_dirs "$GNU_CP" theirs 2>&1)
	check_eq "every mode (and ACL) as GNU cp's" "$gnu" "$ours"
fi
done_testing
